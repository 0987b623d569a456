//! Pruning: what is not searched at all. Before a node's moves, reverse futility and the null
//! move cut the whole node; before each move is made, the losing captures, the late and
//! futile quiet moves and the losing quiet moves are dropped.

use shakmaty::{Chess, Color, Move, Position};

use super::Searcher;
use super::params::{
    CAPTURE_SEE_MARGIN, CAPTURE_SEE_MAX_DEPTH, FUTILITY_BASE, FUTILITY_MARGIN, FUTILITY_MAX_DEPTH,
    LMP_BASE, LMP_IMPROVING_BASE, LMP_IMPROVING_PER_DEPTH_SQUARED, LMP_MAX_DEPTH,
    LMP_PER_DEPTH_SQUARED, NMP_BASE_REDUCTION, NMP_DEPTH_DIVISOR, NMP_EVAL_DIVISOR,
    NMP_MAX_EVAL_REDUCTION, NMP_MIN_DEPTH, QUIET_SEE_LINEAR, QUIET_SEE_MAX_DEPTH,
    QUIET_SEE_QUADRATIC, RFP_MARGIN, RFP_MAX_DEPTH,
};
use crate::engine::danger::under_fire;
use crate::engine::node::{Node, key_of};
use crate::engine::ordering::Picker;
use crate::engine::score::{MATE_BOUND, TB_WIN_BOUND};
use crate::engine::see::see;

impl Searcher<'_> {
    /// The score of a non-PV node not in check that is cut before its moves are searched:
    /// by reverse futility or by the null move. Neither is taken with the king under fire:
    /// the lead may be a sacrifice's, and the threat a quiet move they would not see (see
    /// `danger`), which is worked out once, and only when a cut is otherwise about to be made.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's depth, window and static evaluation, as negamax holds them"
    )]
    #[inline]
    pub(super) fn prune_node(
        &mut self,
        node: &Node,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
        improving: bool,
        cut_null: bool,
    ) -> Option<i32> {
        let pos = &node.pos;
        let mut fire = None;
        let mut king_safe = || !*fire.get_or_insert_with(|| under_fire(pos));
        if reverse_futile(depth, static_eval, beta, improving) && king_safe() {
            return Some(static_eval);
        }
        if !cut_null && null_move_worth_trying(pos, depth, static_eval, beta) && king_safe() {
            return self.null_move(node, depth, ply, beta, static_eval);
        }
        None
    }

    /// The null move: if passing still fails high, a real move will too. The score to return
    /// when it does (0 when the search was stopped), `None` when it does not.
    fn null_move(
        &mut self,
        node: &Node,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
    ) -> Option<i32> {
        let null_pos = node.pos.clone().swap_turn().ok()?;
        let reduction = NMP_BASE_REDUCTION
            + depth / NMP_DEPTH_DIVISOR
            + ((static_eval - beta) / NMP_EVAL_DIVISOR).min(NMP_MAX_EVAL_REDUCTION);
        let null_node = Node {
            key: key_of(&null_pos),
            pos: null_pos,
            acc: node.acc,
        };
        self.keys.push(null_node.key);
        let outer_floor = std::mem::replace(&mut self.null_floor, self.keys.len() - 1);
        let score = -self.negamax(
            &null_node,
            depth - 1 - reduction,
            ply + 1,
            -beta,
            -beta + 1,
            true,
        );
        self.keys.pop();
        self.null_floor = outer_floor;
        if self.stopped {
            return Some(0);
        }
        // Passing is not a legal move, so a mate or tablebase win found after it proves
        // nothing: such a score is claimed only as beta.
        (score >= beta).then_some(if score >= TB_WIN_BOUND { beta } else { score })
    }
}

/// Reverse futility: the static evaluation is far enough above beta that a shallow search
/// will not fall below it.
#[inline]
fn reverse_futile(depth: i32, static_eval: i32, beta: i32, improving: bool) -> bool {
    depth <= RFP_MAX_DEPTH
        && static_eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
        && beta.abs() < MATE_BOUND
}

/// Whether the null move is worth a search: deep enough, already above beta, and with a
/// piece to move (with pawns and king alone, zugzwang makes passing a lie).
#[inline]
fn null_move_worth_trying(pos: &Chess, depth: i32, static_eval: i32, beta: i32) -> bool {
    depth >= NMP_MIN_DEPTH
        && static_eval >= beta
        && has_pieces(pos, pos.turn())
        && beta.abs() < MATE_BOUND
}

/// True when `color` has a piece other than pawns and king (null move is unsafe otherwise).
fn has_pieces(pos: &Chess, color: Color) -> bool {
    let board = pos.board();
    (board.by_color(color) & !(board.pawns() | board.kings())).any()
}

/// Whether a move at this node may be pruned at all, the guard every move-pruning rule shares:
/// never at the root, in a PV node or in check, and only once a move searched scores above a
/// tablebase loss, so that the move which escapes a loss is never the one pruned.
#[inline]
pub(super) fn may_prune(ply: usize, pv_node: bool, in_check: bool, best_score: i32) -> bool {
    ply > 0 && !pv_node && !in_check && best_score > -TB_WIN_BOUND
}

/// How many quiet moves are searched before the rest are pruned near the leaves.
#[inline]
pub(super) fn late_moves(depth: i32, improving: bool) -> i32 {
    if improving {
        LMP_IMPROVING_BASE + depth * depth * LMP_IMPROVING_PER_DEPTH_SQUARED
    } else {
        LMP_BASE + depth * depth * LMP_PER_DEPTH_SQUARED
    }
}

/// A losing capture near the leaves, dropped before it is even made (`order` is its place in
/// the picker's order, which knows it loses).
#[inline]
pub(super) fn losing_capture(pos: &Chess, m: Move, order: i32, depth: i32) -> bool {
    depth <= CAPTURE_SEE_MAX_DEPTH
        && Picker::is_bad_capture(order)
        && see(pos, m) < -CAPTURE_SEE_MARGIN * depth
}

/// Late-move pruning (enough quiet moves already searched) or futility pruning (the static
/// evaluation too far below alpha for a quiet move to reach it) near the leaves. Both only
/// get truer as the node goes on, so once a quiet move is pruned so are all later ones that
/// give no check.
#[inline]
pub(super) fn late_or_futile(
    depth: i32,
    searched: i32,
    late_moves: i32,
    static_eval: i32,
    alpha: i32,
) -> bool {
    depth <= LMP_MAX_DEPTH
        && (searched >= late_moves
            || (depth <= FUTILITY_MAX_DEPTH
                && static_eval + FUTILITY_MARGIN * depth + FUTILITY_BASE <= alpha))
}

/// A quiet move that puts a piece where it is simply lost, near the leaves; the margin grows
/// with the square of the depth (see `QUIET_SEE_QUADRATIC`).
#[inline]
pub(super) fn losing_quiet(pos: &Chess, m: Move, depth: i32) -> bool {
    depth <= QUIET_SEE_MAX_DEPTH
        && see(pos, m) < -QUIET_SEE_QUADRATIC * depth * depth - QUIET_SEE_LINEAR * depth
}
