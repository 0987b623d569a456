//! How much of an endgame advantage can be won: a factor out of 64 on the endgame half of the
//! tapered evaluation, for the side the endgame sum favours.
//!
//! Material counts what a side would have with best play, not whether it can mate or queen a
//! pawn. A rook against a bishop, a bishop and knight against a knight, opposite-coloured
//! bishops or a queen against a rook and pawn are all "several pawns up" by the tables and
//! mostly drawn; an engine that believes the tables trades down into them. The factor below
//! shrinks such advantages, the more the fewer pawns the stronger side has left to win with.

use shakmaty::{Bitboard, Board, Color};

/// The full factor: the advantage counts as it is.
pub const FULL: i32 = 64;

/// Pieces other than pawns and kings in rough pawn units, for comparing the sides' armies.
fn pieces(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    3 * ((board.knights() | board.bishops()) & ours).count() as i32
        + 5 * (board.rooks() & ours).count() as i32
        + 9 * (board.queens() & ours).count() as i32
}

/// The factor (0 to [`FULL`]) for an endgame advantage of `strong` on `board`.
pub fn endgame_scale(board: &Board, strong: Color) -> i32 {
    let weak = !strong;
    let (ours, theirs) = (board.by_color(strong), board.by_color(weak));
    let pawns = (board.pawns() & ours).count() as i32;
    let (army, enemy_army) = (pieces(board, strong), pieces(board, weak));
    let only_knights = (ours & !(board.knights() | board.kings())).is_empty();
    if theirs == (board.kings() & theirs) {
        // Against a bare king anything but knights alone mates (the mop-up term shows how).
        return if pawns == 0 && only_knights { 0 } else { FULL };
    }
    if pawns == 0 && army - enemy_army <= 3 {
        // At most a minor piece ahead with no pawn to promote: a minor alone cannot mate,
        // a rook against a minor piece or two minors against one are rarely won.
        return if army < 5 {
            0
        } else if enemy_army <= 3 {
            4
        } else {
            14
        };
    }
    let bishops = board.bishops();
    if (bishops & ours).count() == 1
        && (bishops & theirs).count() == 1
        && opposite_colours(bishops & ours, bishops & theirs)
    {
        let ahead = (pawns - (board.pawns() & theirs).count() as i32).max(0);
        return if army == 3 && enemy_army == 3 {
            // Bishops alone: the defender's bishop holds a blockade on squares the other
            // bishop never reaches; more pawns ahead, more chances.
            (18 + 6 * ahead).min(48)
        } else {
            (40 + 3 * pawns).min(FULL)
        };
    }
    (36 + 7 * pawns).min(FULL)
}

/// Whether two single-bishop sets stand on squares of different colours.
fn opposite_colours(a: Bitboard, b: Bitboard) -> bool {
    (a & Bitboard::LIGHT_SQUARES).any() != (b & Bitboard::LIGHT_SQUARES).any()
}
