//! What a searched node teaches the next ones: killers and history for move ordering, and
//! the correction history for the static evaluation.

use shakmaty::{Color, Move};

use super::Searcher;
use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_PER_DEPTH_SQUARED};
use crate::engine::ordering::is_tactical;
use crate::engine::score::TB_WIN_BOUND;
use crate::engine::tt::Bound;

impl Searcher<'_> {
    /// A quiet move `m` cut off at `ply`: it becomes a killer there, its history rises and
    /// that of the quiet moves `tried` before it falls.
    pub(super) fn update_quiet_stats(
        &mut self,
        ply: usize,
        color: Color,
        m: Move,
        depth: i32,
        tried: &[Move],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let bonus = (depth * depth * HISTORY_BONUS_PER_DEPTH_SQUARED).min(HISTORY_BONUS_MAX);
        self.history.update(color, m, bonus);
        for &other in tried {
            self.history.update(color, other, -bonus);
        }
    }

    /// Teaches the correction history where the search disagreed with the evaluation: not
    /// after a capture (that is the material, not the position) nor when the bound says
    /// nothing about which side of the evaluation the truth lies.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's result and static evaluation, as negamax holds them"
    )]
    #[inline]
    pub(super) fn learn_correction(
        &mut self,
        color: Color,
        pawns: usize,
        best_move: Option<Move>,
        best_score: i32,
        static_eval: i32,
        bound: Bound,
        depth: i32,
    ) {
        if best_move.is_none_or(|m| !is_tactical(m))
            && best_score.abs() < TB_WIN_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.history
                .update_correction(color, pawns, best_score - static_eval, depth);
        }
    }
}
