//! Passed pawns in a line: the one a line makes (a pawn with no enemy pawn left in front of it
//! on its own or a neighbouring file) and the one it runs up the board. In an ending these are
//! often the whole story of a move the evaluation condemns while no material changes hands in
//! the lines yet.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

/// How many plies of a line are looked at for a passed pawn.
const WINDOW: usize = 8;

/// The rank (from `side`'s end, 1 to 8) a passed pawn must reach for the line to be said to
/// run it.
const RUNS_TO: u32 = 7;

/// What a line does with a passed pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passer {
    /// The index in the line of the move that does it.
    pub at: usize,
    /// Where the pawn stands after that move.
    pub square: Square,
    /// Whether the move makes the pawn passed (else it runs one already passed).
    pub made: bool,
}

/// `side`'s passed pawns on `board`.
pub fn passed(board: &Board, side: Color) -> Bitboard {
    let mine = board.by_color(side) & board.by_role(Role::Pawn);
    let theirs = board.by_color(!side) & board.by_role(Role::Pawn);
    mine.into_iter()
        .filter(|&sq| {
            !theirs.into_iter().any(|t| {
                let files = (t.file() as i32 - sq.file() as i32).abs() <= 1;
                let ahead = match side {
                    Color::White => t.rank() > sq.rank(),
                    Color::Black => t.rank() < sq.rank(),
                };
                files && ahead
            })
        })
        .collect()
}

/// `sq`'s rank as `side` counts it, 1 to 8.
fn rank_for(sq: Square, side: Color) -> u32 {
    let r = u32::from(sq.rank()) + 1;
    match side {
        Color::White => r,
        Color::Black => 9 - r,
    }
}

/// The most material in pieces (pawns' worth, both sides together, kings and pawns left
/// out) of an ending where a passed pawn can be the story: two rooks a side (a double rook
/// ending's pawn race is as much the story as a single one's).
const ENDING_PIECES: i32 = 20;

/// Whether `pos` is an ending where a passed pawn can be the story.
pub fn ending(pos: &Chess) -> bool {
    let board = pos.board();
    let pieces: i32 = (board.occupied() & !board.pawns() & !board.kings())
        .into_iter()
        .filter_map(|sq| board.role_at(sq))
        .map(crate::game::pawns_worth)
        .sum();
    pieces <= ENDING_PIECES
}

/// What the line from `start` (its legal first [`WINDOW`] plies) does with `side`'s passed
/// pawns: the first move of `side` that makes one on a file where it had none, or else the
/// one that runs a passed pawn furthest, to its seventh rank, each by a pawn's own
/// move (a run by a push). A pawn made passed that is gone by the end of the window (taken, or
/// no longer passed) does not count; a promotion is left to the promotion's own story.
pub fn in_line(start: &Chess, line: &[Move], side: Color) -> Option<Passer> {
    let (moves, positions) = legal_start(start, line, WINDOW);
    let files = |b: Bitboard| b.into_iter().map(|sq| sq.file()).collect::<Vec<_>>();
    let before = files(passed(start.board(), side));
    let end = passed(positions[positions.len() - 1].board(), side);
    let mut runs: Option<Passer> = None;
    for (k, m) in moves.iter().enumerate() {
        // Only a pawn's own move: a piece taking a pawn is a story of material.
        if positions[k].turn() != side || m.role() != Role::Pawn || m.is_promotion() {
            continue;
        }
        let now = passed(positions[k + 1].board(), side);
        let just_before = files(passed(positions[k].board(), side));
        // A pawn this move makes passed, on a file where there was none, still there and
        // passed at the end of the window.
        if let Some(sq) = now.into_iter().find(|sq| {
            !before.contains(&sq.file())
                && !just_before.contains(&sq.file())
                && files(end).contains(&sq.file())
        }) {
            return Some(Passer {
                at: k,
                square: sq,
                made: true,
            });
        }
        if !m.is_capture() && now.contains(m.to()) && rank_for(m.to(), side) >= RUNS_TO {
            let further = runs.is_none_or(|r| rank_for(m.to(), side) > rank_for(r.square, side));
            if further && (end.contains(m.to()) || pushed_on(&moves[k + 1..], m.to())) {
                runs = Some(Passer {
                    at: k,
                    square: m.to(),
                    made: false,
                });
            }
        }
    }
    runs
}

/// The legal start of `line` from `start`, at most `most` plies: its moves, and every position
/// from the start (the start first).
pub fn legal_start(start: &Chess, line: &[Move], most: usize) -> (Vec<Move>, Vec<Chess>) {
    let mut positions = vec![start.clone()];
    let mut moves = Vec::new();
    for &m in line.iter().take(most) {
        let pos = &positions[positions.len() - 1];
        if !pos.is_legal(m) {
            break;
        }
        let mut next = pos.clone();
        next.play_unchecked(m);
        positions.push(next);
        moves.push(m);
    }
    (moves, positions)
}

/// Whether a later move of the line pushes the pawn on `sq` on (it is then still running).
fn pushed_on(later: &[Move], sq: Square) -> bool {
    let mut at = sq;
    for m in later {
        if m.from() == Some(at) && m.role() == Role::Pawn {
            at = m.to();
        }
    }
    at != sq
}

/// `the b-pawn`, for the pawn on `sq`.
pub fn pawn_name(sq: Square) -> String {
    format!("the {}-pawn", sq.file().char())
}

/// The rank in words as its owner counts it: `seventh`.
pub fn rank_word(sq: Square, side: Color) -> &'static str {
    match rank_for(sq, side) {
        6 => "sixth",
        7 => "seventh",
        8 => "eighth",
        _ => "far",
    }
}

#[cfg(test)]
pub(super) mod tests {
    #![allow(clippy::unwrap_used, reason = "tests on literal positions")]
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    /// The position of `fen`, for the review's tests.
    pub(in crate::review) fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn line(start: &Chess, ucis: &[&str]) -> Vec<Move> {
        let mut p = start.clone();
        ucis.iter()
            .map(|u| {
                let m = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
                p.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_pawn_break_makes_a_passed_pawn() {
        // Black's ...b4 breaks through: after axb4 axb4 the b-pawn has nothing in front.
        let p = pos("8/8/1k6/pp6/8/P2K4/8/8 b - - 0 1");
        let l = line(&p, &["b5b4", "a3b4", "a5b4", "d3c4"]);
        assert_eq!(
            in_line(&p, &l, Color::Black),
            Some(Passer {
                at: 2,
                square: Square::B4,
                made: true
            })
        );
        // Taken by the king before the window ends: nothing is made.
        let l = line(&p, &["b5b4", "a3b4", "a5b4", "d3c4", "b6c6", "c4b4"]);
        assert_eq!(in_line(&p, &l, Color::Black), None);
    }

    #[test]
    fn a_passed_pawn_run_to_its_seventh_rank() {
        let p = pos("8/5kpp/2R5/7P/1p2K3/p5P1/8/8 b - - 0 1");
        let l = line(&p, &["a3a2", "c6c7", "f7f6"]);
        let got = in_line(&p, &l, Color::Black).unwrap();
        assert_eq!(
            got,
            Passer {
                at: 0,
                square: Square::A2,
                made: false
            }
        );
        assert_eq!(rank_word(got.square, Color::Black), "seventh");
        assert_eq!(pawn_name(got.square), "the a-pawn");
        // White's pawns are not Black's story.
        assert_eq!(in_line(&p, &l, Color::White), None);
    }

    #[test]
    fn an_ending_has_two_rooks_a_side_at_most() {
        // Two rooks a side (the pawn race of a double rook ending).
        assert!(ending(&pos(
            "8/8/1p3R1P/1kpr4/8/P2pr1P1/1P5K/1R6 b - - 0 36"
        )));
        // A queen more is a middlegame's worth.
        assert!(!ending(&pos(
            "8/8/1p3R1P/1kpr4/8/P2pr1P1/1P5K/1R1Q4 b - - 0 36"
        )));
    }

    #[test]
    fn passed_pawns_are_those_with_nothing_in_front() {
        let p = pos("8/5kpp/8/7P/1p2K3/p5P1/8/8 w - - 0 1");
        let black: Vec<Square> = passed(p.board(), Color::Black).into_iter().collect();
        assert_eq!(black, vec![Square::A3, Square::B4]);
        let white: Vec<Square> = passed(p.board(), Color::White).into_iter().collect();
        assert!(white.is_empty(), "{white:?}");
    }
}
