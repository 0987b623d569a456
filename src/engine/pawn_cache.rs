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
    use crate::engine::{Evaluator, Profile};

    /// Positions along pseudo-random games, many sharing their pawns, some without any.
    fn positions() -> Vec<Chess> {
        let mut out = Vec::new();
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..40 {
            let mut pos = Chess::default();
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Prefer captures so that games reach pawnless endings too.
                let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && !seed.is_multiple_of(3) {
                    *captures[(seed >> 8) as usize % captures.len()]
                } else {
                    moves[(seed >> 8) as usize % moves.len()]
                };
                pos.play_unchecked(m);
                out.push(pos.clone());
            }
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
