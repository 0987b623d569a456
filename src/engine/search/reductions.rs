//! Late-move reductions: quiet moves ordered late are searched shallower first, and again at
//! full depth only if they beat alpha.

use std::sync::OnceLock;

use shakmaty::{Color, Move};

use super::Searcher;
use super::params::{
    LMR_BASE, LMR_DIVISOR, LMR_HISTORY_DIVISOR, LMR_KILLER_BONUS, LMR_MIN_DEPTH, LMR_MIN_MOVES,
    LMR_NOT_IMPROVING, LMR_PV_BONUS,
};

/// Reductions for late quiet moves, indexed by depth and move number.
fn lmr_table() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (depth, row) in t.iter_mut().enumerate().skip(1) {
            for (count, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (depth as f64).ln() * (count as f64).ln() / LMR_DIVISOR) as i32;
            }
        }
        t
    })
}

/// Whether a move may be reduced at all: not near the leaves, not one of the first moves
/// (those ordering trusts most), and never a capture, a check or a check evasion.
#[inline]
pub(super) fn reducible(
    depth: i32,
    searched: i32,
    quiet: bool,
    gives_check: bool,
    in_check: bool,
) -> bool {
    depth >= LMR_MIN_DEPTH && searched >= LMR_MIN_MOVES && quiet && !gives_check && !in_check
}

impl Searcher<'_> {
    /// How many plies shallower than `new_depth` a reducible quiet move `m` is searched
    /// first at a node of `depth`, after `searched` moves: less in a PV node, for a killer
    /// and for a move with a good history, more when the side is not improving.
    #[expect(
        clippy::too_many_arguments,
        reason = "the move and each fact about its node that the reduction weighs"
    )]
    #[inline]
    pub(super) fn reduction(
        &self,
        m: Move,
        color: Color,
        depth: i32,
        searched: i32,
        new_depth: i32,
        pv_node: bool,
        improving: bool,
        killers: &[Option<Move>; 2],
    ) -> i32 {
        let mut reduction = lmr_table()[depth.min(63) as usize][(searched as usize).min(63)];
        if pv_node {
            reduction -= LMR_PV_BONUS;
        }
        if !improving {
            reduction += LMR_NOT_IMPROVING;
        }
        if killers.contains(&Some(m)) {
            reduction -= LMR_KILLER_BONUS;
        }
        reduction -= self.history.get(color, m) / LMR_HISTORY_DIVISOR;
        reduction.clamp(0, new_depth - 1)
    }
}
