//! A node's static evaluation: from the cache or the evaluator, with a weakened level's noise,
//! then corrected by what the search has learned the evaluation gets wrong.

use shakmaty::{Color, Position};

use super::Searcher;
use crate::engine::node::Node;
use crate::engine::score::TB_WIN_BOUND;
use crate::engine::strength::noise;
use crate::engine::tt::Hit;

impl Searcher<'_> {
    /// The node's evaluation for the side to move, before correction.
    #[inline]
    pub(super) fn evaluate(&mut self, node: &Node) -> i32 {
        let (amplitude, seed) = self.noise;
        let (eval, pawns) = (&self.eval, &mut self.pawns);
        let raw = self
            .evals_by_key
            .get_or(node.key, || node.relative_eval(eval, pawns));
        raw + noise(node.key, seed, amplitude)
    }

    /// The static evaluation `raw` corrected by the correction history, kept short of the
    /// tablebase and mate scores.
    #[inline]
    pub(super) fn correct(&self, color: Color, pawns: usize, raw: i32) -> i32 {
        self.history
            .corrected(color, pawns, raw)
            .clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// The node's raw evaluation (the table's when it has the node, which saves evaluating)
    /// and the corrected one; `pawns` is the pawn structure's index (`pawn_index`).
    #[inline]
    pub(super) fn static_eval(
        &mut self,
        node: &Node,
        hit: Option<Hit>,
        pawns: usize,
    ) -> (i32, i32) {
        let raw = hit.map_or_else(|| self.evaluate(node), |h| h.eval);
        (raw, self.correct(node.pos.turn(), pawns, raw))
    }
}
