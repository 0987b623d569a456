//! A node's moves in the order they are tried, and which of them are dropped unsearched.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move};

use super::pruning::{late_or_futile, losing_capture, losing_quiet, may_prune};
use crate::engine::checks::Checks;
use crate::engine::ordering::{Picker, is_tactical};
use crate::engine::score::INFINITY;

/// The moves of one node: the hash table's move first, before any move is generated (when
/// it cuts off, as it mostly does, generating and scoring the rest is saved), then the
/// picker's, best first. The picker would hand the table's move out first too; the
/// difference is that the quiet moves are scored after its search, with the history as that
/// search left it.
pub(super) struct Moves {
    /// The table's move, until it is tried.
    table_move: Option<Move>,
    picker: Picker,
    /// Whether the picker holds the node's moves yet.
    filled: bool,
    /// What tells whether a move gives check, worked out when first asked.
    checks: Option<Checks>,
    /// Set once late-move or futility pruning has dropped the remaining quiet moves.
    quiets_dropped: bool,
    /// Quiet moves tried before the rest are pruned near the leaves.
    late_moves: i32,
}

impl Moves {
    /// The moves of a node whose table move is `table_move`, the picker still empty;
    /// `late_moves` quiet moves are tried before the rest may be pruned.
    #[inline]
    pub(super) fn new(table_move: Option<Move>, late_moves: i32) -> Moves {
        Moves {
            table_move,
            picker: Picker::empty(),
            filled: false,
            checks: None,
            quiets_dropped: false,
            late_moves,
        }
    }

    /// The table's move while it has not been tried.
    #[inline]
    pub(super) fn take_table_move(&mut self) -> Option<Move> {
        self.table_move.take()
    }

    /// Whether the picker still has to be filled with the node's moves.
    #[inline]
    pub(super) fn needs_filling(&self) -> bool {
        !self.filled
    }

    /// The picker, to fill with the node's moves (it is then counted as filled).
    #[inline]
    pub(super) fn filled_picker(&mut self) -> &mut Picker {
        self.filled = true;
        &mut self.picker
    }

    /// The next move from the picker, with its ordering score.
    #[inline]
    pub(super) fn pick(&mut self) -> Option<(Move, i32)> {
        self.picker.pick()
    }

    #[inline]
    fn gives_check(&mut self, pos: &Chess, m: Move) -> bool {
        self.checks
            .get_or_insert_with(|| Checks::new(pos))
            .gives(pos, m)
    }

    /// Whether `m` (ordered `order`) is dropped without being made, at the node of `f` as
    /// `run` stands: a losing capture, or near the leaves a late or futile quiet move that
    /// gives no check, or one that loses material.
    #[inline]
    pub(super) fn pruned(
        &mut self,
        pos: &Chess,
        m: Move,
        order: i32,
        f: &Frame,
        run: &Run,
    ) -> bool {
        if !may_prune(f.ply, f.pv_node, f.in_check, run.best_score) {
            return false;
        }
        if is_tactical(m) {
            return losing_capture(pos, m, order, f.depth);
        }
        if late_or_futile(
            f.depth,
            run.searched,
            self.late_moves,
            f.static_eval,
            run.alpha,
        ) && !self.gives_check(pos, m)
        {
            // Every later quiet move that gives no check would be pruned too: drop them all
            // now instead of picking them one by one.
            if !self.quiets_dropped && self.filled {
                self.quiets_dropped = true;
                let checks = self.checks.get_or_insert_with(|| Checks::new(pos));
                self.picker
                    .retain_rest(|m| is_tactical(m) || checks.gives(pos, m));
            }
            return true;
        }
        losing_quiet(pos, m, f.depth)
    }
}

/// What a node's move loop needs to know, worked out before it.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    /// Plies left, after the check extension at the horizon and internal iterative reduction.
    pub(super) depth: i32,
    pub(super) ply: usize,
    /// The window, narrowed by mate distance.
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) pv_node: bool,
    pub(super) in_check: bool,
    /// The hash table's move (the root's ordering hint at the root), encoded; 0 for none.
    pub(super) tt_move: u16,
    /// The static evaluation before correction, stored with the result.
    pub(super) raw_eval: i32,
    /// The corrected static evaluation (`-INFINITY` in check).
    pub(super) static_eval: i32,
    /// Whether the side to move is better off than two plies ago.
    pub(super) improving: bool,
    /// The pawn structure's index, for the correction history.
    pub(super) pawns: usize,
}

/// How a node's move loop stands: what it has searched and the best it has found.
pub(super) struct Run {
    /// The window's lower edge, raised by the moves searched so far.
    pub(super) alpha: i32,
    /// The best score so far (`-INFINITY` before the first move).
    pub(super) best_score: i32,
    /// The move that raised alpha last.
    pub(super) best_move: Option<Move>,
    /// Moves searched so far.
    pub(super) searched: i32,
    /// The quiet moves searched so far, whose history a quiet cutoff lowers.
    pub(super) quiets_tried: ArrayVec<Move, 64>,
}

impl Run {
    /// A loop about to start on the window whose lower edge is `alpha`.
    pub(super) fn new(alpha: i32) -> Run {
        Run {
            alpha,
            best_score: -INFINITY,
            best_move: None,
            searched: 0,
            quiets_tried: ArrayVec::new(),
        }
    }
}
