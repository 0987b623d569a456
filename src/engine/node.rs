//! One search node's position with its Zobrist key and evaluation sums, made by copy-make.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::eval::{Accumulator, Evaluator};
use super::pawn_cache::PawnCache;

/// A position plus the state the search keeps in step with it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The position itself.
    pub pos: Chess,
    /// Zobrist key (shakmaty's Polyglot-compatible keys, legal en-passant squares only).
    pub key: u64,
    /// Incremental evaluation sums.
    pub acc: Accumulator,
}

/// The key the search uses for `pos`; equal keys mean a repetition in the FIDE sense.
pub fn key_of(pos: &Chess) -> u64 {
    let Zobrist64(key) = pos.zobrist_hash(EnPassantMode::Legal);
    key
}

impl Node {
    /// Builds the node for `pos`, computing key and sums from scratch.
    pub fn new(pos: Chess, eval: &Evaluator) -> Node {
        let key = key_of(&pos);
        let acc = eval.accumulate(pos.board());
        Node { pos, key, acc }
    }

    /// The node after the legal move `m`, updated incrementally where shakmaty allows it.
    #[inline]
    pub fn play(&self, m: Move, eval: &Evaluator) -> Node {
        self.play_then(m, eval, |_| ())
    }

    /// [`Node::play`], handing the new key to `early` as soon as it is known, before the
    /// position itself is made (the search starts fetching the key's hash-table bucket).
    #[inline]
    pub(crate) fn play_then(&self, m: Move, eval: &Evaluator, early: impl FnOnce(u64)) -> Node {
        let incremental =
            self.pos
                .update_zobrist_hash(Zobrist64(self.key), m, EnPassantMode::Legal);
        if let Some(Zobrist64(key)) = incremental {
            early(key);
        }
        let mut pos = self.pos.clone();
        let acc = eval.update(self.acc, pos.turn(), m);
        pos.play_unchecked(m);
        let key = match incremental {
            Some(Zobrist64(key)) => key,
            None => key_of(&pos),
        };
        Node { pos, key, acc }
    }

    /// The static evaluation from the side to move's point of view.
    #[inline]
    pub(crate) fn relative_eval(&self, eval: &Evaluator, pawns: &mut PawnCache) -> i32 {
        let white = eval.evaluate_cached(self.pos.board(), self.pos.turn(), self.acc, pawns);
        if self.pos.turn().is_white() {
            white
        } else {
            -white
        }
    }
}
