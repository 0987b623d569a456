//! Static exchange evaluation: the material balance of the capture sequence on one square, each
//! side always recapturing with its least valuable piece, pieces pinned to their king left out.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square, attacks};

/// Piece values used for exchanges (the simplified profile's material, king effectively infinite).
pub(crate) const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20000];

/// The value of a role for exchange purposes.
#[inline]
pub fn value(role: Role) -> i32 {
    SEE_VALUES[role as usize - 1]
}

/// Pieces of `color` pinned to their own king, with the pinning enemy sliders.
fn pinned(board: &Board, color: Color) -> Bitboard {
    let Some(king) = board.king_of(color) else {
        return Bitboard::EMPTY;
    };
    let them = board.by_color(!color);
    let occupied = board.occupied();
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & them;
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if let Some(sq) = blockers.single_square()
            && board.by_color(color).contains(sq)
        {
            pinned.add(sq);
        }
    }
    pinned
}

/// Exchange value of `m` for the side to move, in centipawns.
pub fn see(pos: &Chess, m: Move) -> i32 {
    let board = pos.board();
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        // Castling and drops exchange nothing.
        _ => return 0,
    };
    let mut gains = [0i32; 34];
    let mut occupied = board.occupied();
    let mut first_gain = m.capture().map_or(0, value);
    let mut on_square = m.role();
    if let Some(promo) = m.promotion() {
        first_gain += value(promo) - value(Role::Pawn);
        on_square = promo;
    }
    if let Move::EnPassant { from, to } = m {
        occupied.discard(Square::from_coords(to.file(), from.rank()));
    }
    gains[0] = first_gain;
    occupied.discard(from);
    // Most moves the search asks about go to a square nobody can take back on: the pins
    // below are worth working out only when there is an exchange.
    let side = !pos.turn();
    if (board.attacks_to(to, side, occupied) & occupied & board.by_color(side)).is_empty() {
        return first_gain;
    }

    let white_pinned = pinned(board, Color::White);
    let black_pinned = pinned(board, Color::Black);
    let allowed = |color: Color, sq: Square| -> bool {
        let pins = if color.is_white() {
            white_pinned
        } else {
            black_pinned
        };
        // A pinned piece may still capture along its pin line.
        !pins.contains(sq)
            || board
                .king_of(color)
                .is_some_and(|k| attacks::aligned(k, sq, to))
    };

    let mut side = side;
    let mut depth = 0;
    loop {
        let attackers = board.attacks_to(to, side, occupied) & occupied & board.by_color(side);
        // Least valuable attacker that is free to capture.
        let mut next = None;
        for role in Role::ALL {
            let candidates = attackers & board.by_role(role);
            if let Some(sq) = candidates.into_iter().find(|&sq| allowed(side, sq)) {
                next = Some((sq, role));
                break;
            }
        }
        let Some((sq, role)) = next else { break };
        depth += 1;
        gains[depth] = value(on_square) - gains[depth - 1];
        if role == Role::King {
            // The king may only capture last: if the opponent still attacks, it cannot.
            let defenders = board.attacks_to(to, !side, occupied.without(sq))
                & occupied.without(sq)
                & board.by_color(!side);
            if defenders.any() {
                depth -= 1;
                break;
            }
        }
        on_square = role;
        occupied.discard(sq);
        side = !side;
        if depth + 1 >= gains.len() {
            break;
        }
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}
