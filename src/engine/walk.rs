//! Seeded random walks through legal positions, for tests that compare a fast routine with
//! shakmaty's own answer on many positions no one would write down by hand.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, MoveList, Position};

use crate::rng::Rng;

/// Walks up to `plies` moves from `fen`, the same walk for the same `seed`: `visit` sees each
/// position with its legal moves (mate and stalemate included, which end the walk), and
/// `pick` chooses the move played from it.
pub(crate) fn walk(
    fen: &str,
    seed: u64,
    plies: usize,
    mut visit: impl FnMut(&Chess, &MoveList),
    mut pick: impl FnMut(&mut Rng, &MoveList) -> Move,
) {
    let mut pos: Chess = fen
        .parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Standard).ok())
        .unwrap_or_else(|| panic!("not a legal position: {fen}"));
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        visit(&pos, &legal);
        if legal.is_empty() {
            break;
        }
        pos.play_unchecked(pick(&mut rng, &legal));
    }
}

/// Any legal move, all equally likely.
pub(crate) fn any_move(rng: &mut Rng, legal: &MoveList) -> Move {
    legal[rng.index(legal.len())]
}
