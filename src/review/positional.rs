//! What the evaluation sees when no mate, material or passed pawn explains a move: the search's
//! score comes from the position at the end of its line, so the terms of the evaluation that
//! differ most between the end of the engine's line and the end of the line after the move
//! played are where the move's cost lies ("lets the king on g1 be attacked", "doubles the
//! pawns on the f-file", "lets Black's pieces into play").

use shakmaty::{Board, Chess, Color, Position, Square};

use crate::engine::eval::GROUP_NAMES;
use crate::engine::{Evaluator, Profile};

/// The fewest centipawns a group of terms must cost to be named.
const NAMED_CP: i32 = 40;

/// A group of the evaluation's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// How many squares the pieces reach.
    Mobility,
    /// Attacks on the king's zone, safe checks, its pawn shield and open files.
    KingSafety,
    /// Passed pawns, their kings' distance, rooks behind them.
    PassedPawns,
    /// Isolated, doubled, backward and supported pawns.
    PawnStructure,
    /// Outposts, the bishop pair, rooks on open files and the seventh, bishops' own pawns.
    Pieces,
}

impl Term {
    /// The terms by their place in the evaluation's groups (threats and tempo are never the
    /// story).
    const BY_GROUP: [Option<Term>; GROUP_NAMES.len()] = [
        Some(Term::Mobility),
        Some(Term::KingSafety),
        None,
        Some(Term::PassedPawns),
        Some(Term::PawnStructure),
        Some(Term::Pieces),
        None,
    ];
}

/// What a move gave up, as the evaluation counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Given {
    /// The group of terms.
    pub term: Term,
    /// Whether most of it is the mover's own loss (its king, its pawns) rather than the
    /// opponent's gain.
    pub own: bool,
    /// What it costs, in centipawns.
    pub cp: i32,
}

/// The group of terms that makes most of the difference for `mover` between `kept` (the end
/// of the engine's line) and `got` (the end of the line after the move played), when one does
/// and the two ends explain the search's `drop` (centipawns, the mover's loss): the static
/// difference is at least half the drop, and the group costs at least [`NAMED_CP`], more than
/// material, and half the static difference. Threats are counted but never named: at the end
/// of a line they are mostly captures the search would still make.
pub fn given_up(kept: &Chess, got: &Chess, mover: Color, drop: i32) -> Option<Given> {
    let evaluator = Evaluator::new(Profile::Tapered);
    let a = evaluator.account(kept.board(), kept.turn());
    let b = evaluator.account(got.board(), got.turn());
    let sign = mover.fold_wb(1, -1);
    let (me, them) = (crate::game::side(mover), crate::game::side(!mover));
    let material = sign * (a.material - b.material);
    let tables = sign * (a.tables - b.tables);
    let mut whole = material + tables;
    let mut worst: Option<Given> = None;
    for (g, term) in Term::BY_GROUP.iter().enumerate() {
        let own = a.groups[me][g] - b.groups[me][g];
        let gain = b.groups[them][g] - a.groups[them][g];
        whole += own + gain;
        if let Some(term) = *term
            && worst.is_none_or(|w| own + gain > w.cp)
        {
            worst = Some(Given {
                term,
                own: own >= gain,
                cp: own + gain,
            });
        }
    }
    worst.filter(|w| w.cp >= NAMED_CP && w.cp > material && 2 * w.cp >= whole && 2 * whole >= drop)
}

/// `given` in words, for `mover`, from the two ends of the lines: `lets the king be attacked`,
/// `leaves the knight on c3 attacked`, `doubles the pawns on the f-file`.
pub fn words(given: Given, kept: &Chess, got: &Chess, mover: Color) -> String {
    let them = color_word(!mover);
    let (k, g) = (kept.board(), got.board());
    match (given.term, given.own) {
        (Term::KingSafety, true) => match g.king_of(mover) {
            Some(sq) => format!("lets the king on {sq} be attacked"),
            None => "lets the king be attacked".to_string(),
        },
        (Term::KingSafety, false) => format!("lets {them} king off the hook"),
        (Term::Mobility, true) => "leaves the pieces hemmed in".to_string(),
        (Term::Mobility, false) => format!("lets {them} pieces into play"),
        (Term::PassedPawns, false) => match most_advanced(g, !mover) {
            Some(sq) => format!("lets {them} passed {}-pawn grow strong", sq.file().char()),
            None => format!("lets {them} passed pawns grow strong"),
        },
        (Term::PassedPawns, true) => match most_advanced(k, mover) {
            Some(sq) => format!("lets the passed {}-pawn be stopped", sq.file().char()),
            None => "lets the passed pawns be stopped".to_string(),
        },
        (Term::PawnStructure, true) => pawn_damage(k, g, mover),
        (Term::PawnStructure, false) => format!("spares {them} pawns a weakness"),
        (Term::Pieces, true) if bishops(k, mover) >= 2 && bishops(g, mover) < 2 => {
            "gives up the bishop pair".to_string()
        }
        (Term::Pieces, true) => "leaves the pieces on poorer squares".to_string(),
        (Term::Pieces, false) => {
            match on_seventh(g, !mover).filter(|&sq| !on_seventh_at(k, !mover, sq)) {
                Some(sq) => format!("lets a rook onto the seventh rank at {sq}"),
                None => format!("lets {them} pieces find better squares"),
            }
        }
    }
}

/// `White's`, `Black's`.
fn color_word(color: Color) -> &'static str {
    color.fold_wb("White's", "Black's")
}

/// `side`'s passed pawn furthest up the board.
fn most_advanced(board: &Board, side: Color) -> Option<Square> {
    let passed = super::passers::passed(board, side);
    match side {
        Color::White => passed.into_iter().max_by_key(|sq| sq.rank()),
        Color::Black => passed.into_iter().min_by_key(|sq| sq.rank()),
    }
}

fn bishops(board: &Board, side: Color) -> usize {
    (board.by_color(side) & board.bishops()).count()
}

/// A rook of `side` on its seventh rank.
fn on_seventh(board: &Board, side: Color) -> Option<Square> {
    (board.by_color(side) & board.rooks())
        .into_iter()
        .find(|&sq| on_seventh_at(board, side, sq))
}

fn on_seventh_at(board: &Board, side: Color, sq: Square) -> bool {
    let seventh = side.fold_wb(shakmaty::Rank::Seventh, shakmaty::Rank::Second);
    sq.rank() == seventh && (board.by_color(side) & board.rooks()).contains(sq)
}

/// What happened to `side`'s pawns from `kept` to `got`: a new isolated pawn, pawns doubled
/// on a file, or, when neither, that they are weaker.
fn pawn_damage(kept: &Board, got: &Board, side: Color) -> String {
    let files = |b: &Board| -> [u32; 8] {
        let mut n = [0; 8];
        for sq in b.by_color(side) & b.pawns() {
            n[usize::from(sq.file())] += 1;
        }
        n
    };
    let (before, after) = (files(kept), files(got));
    if let Some(f) = (0..8).find(|&f| after[f] >= 2 && before[f] < 2) {
        return format!(
            "doubles the pawns on the {}-file",
            shakmaty::File::new(f as u32).char()
        );
    }
    let isolated =
        |n: &[u32; 8], f: usize| n[f] > 0 && (f == 0 || n[f - 1] == 0) && (f == 7 || n[f + 1] == 0);
    if let Some(sq) = (got.by_color(side) & got.pawns()).into_iter().find(|sq| {
        let f = usize::from(sq.file());
        isolated(&after, f) && !isolated(&before, f)
    }) {
        return format!("leaves an isolated pawn on {sq}");
    }
    "weakens the pawns".to_string()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests on literal positions")]
    use super::*;
    use crate::review::passers::tests::pos;

    /// The kings and their pawns, and the same with the g-pawn taken onto f3 (by a gxf3).
    const SOUND: &str = "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
    const DOUBLED: &str = "6k1/5ppp/8/8/8/5P2/5P1P/6K1 w - - 0 1";

    #[test]
    fn doubled_pawns_at_the_end_of_the_line_are_named() {
        let (kept, got) = (pos(SOUND), pos(DOUBLED));
        let given = given_up(&kept, &got, Color::White, 50).unwrap();
        assert_eq!((given.term, given.own), (Term::PawnStructure, true));
        assert!(given.cp >= NAMED_CP, "{given:?}");
        assert_eq!(
            words(given, &kept, &got, Color::White),
            "doubles the pawns on the f-file"
        );
        // Seen from the other side, the same difference is Black's gain, not a loss.
        assert_eq!(given_up(&kept, &got, Color::Black, 50), None);
    }

    #[test]
    fn nothing_is_named_when_the_ends_do_not_explain_the_drop() {
        let (kept, got) = (pos(SOUND), pos(DOUBLED));
        // The search lost four pawns' worth: two pawns' doubling is not why.
        assert_eq!(given_up(&kept, &got, Color::White, 400), None);
        // Nothing changed.
        assert_eq!(given_up(&kept, &kept, Color::White, 50), None);
        // Two pawns gone as well: material, not the structure, is the story.
        let stripped = pos("6k1/5ppp/8/8/8/8/7P/6K1 w - - 0 1");
        assert_eq!(given_up(&kept, &stripped, Color::White, 50), None);
    }

    #[test]
    fn a_pawn_cut_off_from_its_neighbours_is_isolated() {
        let kept = pos("6k1/8/8/8/8/8/3PPP2/6K1 w - - 0 1");
        let got = pos("6k1/8/8/8/8/8/3P1P2/6K1 w - - 0 1");
        assert_eq!(
            pawn_damage(kept.board(), got.board(), Color::White),
            "leaves an isolated pawn on d2"
        );
        assert_eq!(
            pawn_damage(kept.board(), kept.board(), Color::White),
            "weakens the pawns"
        );
    }
}
