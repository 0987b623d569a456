//! A cache of the pawn-structure terms, keyed by the pawns themselves: most positions a search
//! visits share their pawns with many others, and those terms are a large part of the
//! evaluation's cost.

use super::params::S;
use super::terms::{self, Sum};

/// Entries in one search's cache (16 K of 32 bytes: 512 KB).
const ENTRIES: usize = 1 << 14;

#[derive(Clone, Copy)]
struct Entry {
    /// The pawns the entry is for, White's then Black's.
    pawns: [u64; 2],
    /// Both sides' passed pawns.
    passed: [u64; 2],
    /// The weighted pawn-structure terms, White's view, before tapering.
    score: S,
}

impl Default for Entry {
    fn default() -> Self {
        // No position has pawns on every square: an unused slot never matches.
        Entry {
            pawns: [u64::MAX; 2],
            passed: [0; 2],
            score: S::default(),
        }
    }
}

/// One search's pawn-structure cache. The stored pawns are compared whole, so a hit is always
/// exact: the evaluation is the same with or without the cache.
pub struct PawnCache {
    entries: Box<[Entry]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache {
            entries: vec![Entry::default(); ENTRIES].into_boxed_slice(),
        }
    }
}

impl PawnCache {
    /// The pawn-structure score of `pawns` under `weights` and each side's passed pawns, from
    /// the cache or worked out and kept. One cache must serve one set of weights.
    #[inline]
    pub fn probe(&mut self, pawns: [u64; 2], weights: &[S]) -> (S, [u64; 2]) {
        let slot = &mut self.entries[index(pawns)];
        if slot.pawns != pawns {
            let mut sum = Sum::new(weights, S::default());
            let passed = terms::pawn_structure(pawns, &mut sum);
            *slot = Entry {
                pawns,
                passed,
                score: sum.total(),
            };
        }
        (slot.score, slot.passed)
    }
}

#[inline]
fn index(pawns: [u64; 2]) -> usize {
    (terms::pawn_hash(pawns) >> (64 - ENTRIES.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position};

    use super::PawnCache;
    use crate::engine::walk::{any_move, walk};
    use crate::engine::{Evaluator, Profile};

    /// Positions along pseudo-random games, many sharing their pawns, some without any.
    fn positions() -> Vec<Chess> {
        let mut out = Vec::new();
        const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for game in 0..40 {
            // Captures two times in three, so that games reach pawnless endings too.
            let pick = |rng: &mut crate::rng::Rng, legal: &shakmaty::MoveList| {
                let captures: Vec<_> = legal.iter().filter(|m| m.is_capture()).collect();
                if !captures.is_empty() && rng.below(3) != 0 {
                    *captures[rng.index(captures.len())]
                } else {
                    any_move(rng, legal)
                }
            };
            walk(START, game, 161, |pos, _| out.push(pos.clone()), pick);
        }
        out
    }

    #[test]
    fn the_cache_never_changes_the_evaluation() {
        let positions = positions();
        assert!(positions.iter().any(|p| p.board().pawns().is_empty()));
        for evaluator in [
            Evaluator::new(Profile::Tapered),
            Evaluator::new(Profile::Tapered).blind_to_threats(),
            Evaluator::new(Profile::Simplified),
        ] {
            let mut cache = PawnCache::default();
            // Twice over: the second pass reads what the first one stored.
            for pos in positions.iter().chain(positions.iter()) {
                let (board, turn) = (pos.board(), pos.turn());
                let acc = evaluator.accumulate(board);
                assert_eq!(
                    evaluator.evaluate_cached(board, turn, acc, &mut cache),
                    evaluator.evaluate(board, turn, acc),
                    "{:?}",
                    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                        .to_string()
                );
            }
        }
    }
}
