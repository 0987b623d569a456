//! The search's margins, depths and divisors, in one place to read and tune.
//!
//! Each value trades nodes saved against moves overlooked; a change to one is kept only if it
//! wins games (`../shared/tools/match.py --sprt`), and the bench node count says whether a change
//! meant to be neutral is.

// Iterative deepening and aspiration windows.

/// Shallower iterations are cheap with a full window, and their scores still swing too much
/// from one depth to the next for a narrow one to hold.
pub(super) const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Half-width of the first window around the previous score: narrower cuts more but fails
/// (and costs a re-search) more often.
pub(super) const ASPIRATION_WINDOW: i32 = 25;

/// Once a failing window has been widened past this, a full window is cheaper than more
/// attempts.
pub(super) const ASPIRATION_MAX_DELTA: i32 = 1000;

// Node pruning, before any move is searched.

/// A node with at least this depth and no hash move is searched a ply shallower: its first
/// visit is mostly spent finding a move to order first.
pub(super) const IIR_MIN_DEPTH: i32 = 4;

/// Reverse futility is tried only this close to the leaves, where a static lead is unlikely
/// to be overturned by the plies left.
pub(super) const RFP_MAX_DEPTH: i32 = 6;

/// Reverse futility's margin per ply left (one ply fewer for a side that is improving): the
/// larger, the fewer nodes cut on the static evaluation alone and the fewer threats missed.
pub(super) const RFP_MARGIN: i32 = 80;

/// Below this depth the null-move search saves too little to pay for itself.
pub(super) const NMP_MIN_DEPTH: i32 = 3;

/// The null move's reduction at any depth: passing is a big concession, so a shallow search
/// already shows whether the side is still above beta.
pub(super) const NMP_BASE_REDUCTION: i32 = 3;

/// One more ply of null-move reduction for every this many plies of depth: deep nodes can
/// afford a shallower verification.
pub(super) const NMP_DEPTH_DIVISOR: i32 = 4;

/// One more ply of null-move reduction for every this many centipawns the static evaluation
/// is above beta: the further above, the less a pass can cost.
pub(super) const NMP_EVAL_DIVISOR: i32 = 200;

/// The most the evaluation's lead adds to the null-move reduction, so that a huge lead does
/// not reduce the verification to nothing.
pub(super) const NMP_MAX_EVAL_REDUCTION: i32 = 3;

// Move pruning, before a move is made.

/// Losing captures are dropped only this close to the leaves; deeper, a sacrifice has the
/// plies to pay off.
pub(super) const CAPTURE_SEE_MAX_DEPTH: i32 = 4;

/// A capture is dropped when it loses more than this per ply left in exchanges: small
/// losses are kept, since the search may find what they buy.
pub(super) const CAPTURE_SEE_MARGIN: i32 = 100;

/// Late-move and futility pruning of quiet moves apply only this close to the leaves.
pub(super) const LMP_MAX_DEPTH: i32 = 4;

/// Quiet moves searched before late-move pruning, for a side that is improving (a constant
/// plus a share of depth²): more moves are kept where the position is getting better.
pub(super) const LMP_IMPROVING_BASE: i32 = 4;

/// The depth² share of the quiet moves kept when improving.
pub(super) const LMP_IMPROVING_PER_DEPTH_SQUARED: i32 = 2;

/// Quiet moves searched before late-move pruning for a side that is not improving (a
/// constant plus a share of depth²): its late quiet moves rarely rescue it.
pub(super) const LMP_BASE: i32 = 2;

/// The depth² share of the quiet moves kept when not improving.
pub(super) const LMP_PER_DEPTH_SQUARED: i32 = 1;

/// Futility pruning of quiet moves applies only this close to the leaves.
pub(super) const FUTILITY_MAX_DEPTH: i32 = 3;

/// Futility's margin per ply left: a quiet move is dropped when even this gain on the static
/// evaluation stays at or below alpha; larger keeps more moves that win something later.
pub(super) const FUTILITY_MARGIN: i32 = 120;

/// Futility's margin at any depth, covering what a quiet move can gain at once (a positional
/// term or two).
pub(super) const FUTILITY_BASE: i32 = 60;

/// Quiet moves that lose material by SEE are dropped only this close to the leaves.
pub(super) const QUIET_SEE_MAX_DEPTH: i32 = 6;

/// The SEE margin for a quiet move's loss grows with depth² times this (plus the linear
/// term): with a few plies left a piece given up can still buy a mating attack, and a margin
/// of 60 a ply pruned a knight's sacrifice with up to five plies left (this one, with three).
pub(super) const QUIET_SEE_QUADRATIC: i32 = 20;

/// The linear part of the quiet moves' SEE margin, which rules at the shallowest depths (40
/// at depth 1, 120 at depth 2): with one ply left a pawn given away is not won back, with two
/// it may be.
pub(super) const QUIET_SEE_LINEAR: i32 = 20;

// Late-move reductions.

/// The reduction every late move starts from (in the logarithmic formula): how eagerly late
/// moves are searched shallower at all.
pub(super) const LMR_BASE: f64 = 0.75;

/// The divisor of ln(depth)·ln(move number): smaller reduces late moves more, saving nodes
/// but overlooking more quiet resources.
pub(super) const LMR_DIVISOR: f64 = 2.25;

/// Late-move reductions start at this depth; shallower, a reduced search says too little.
pub(super) const LMR_MIN_DEPTH: i32 = 3;

/// The number of moves searched in full before the rest are reduced: the first ones are
/// those ordering trusts most.
pub(super) const LMR_MIN_MOVES: i32 = 2;

/// A move's history score worth one ply less reduction: moves that have often cut off
/// elsewhere are searched deeper.
pub(super) const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Plies less reduction in a PV node, where an overlooked move changes the line played.
pub(super) const LMR_PV_BONUS: i32 = 1;

/// Plies more reduction for a side that is not improving: its late quiet moves rarely
/// rescue it.
pub(super) const LMR_NOT_IMPROVING: i32 = 1;

/// Plies less reduction for a killer move: it cut off at this ply elsewhere.
pub(super) const LMR_KILLER_BONUS: i32 = 1;

// What a cutoff teaches move ordering.

/// A quiet cutoff's history bonus is depth² times this: cutoffs found deep are worth more.
pub(super) const HISTORY_BONUS_PER_DEPTH_SQUARED: i32 = 16;

/// The largest history bonus, so that one deep cutoff does not outweigh the rest of the
/// table.
pub(super) const HISTORY_BONUS_MAX: i32 = 1600;

// Quiescence.

/// Delta pruning's margin: a capture is skipped when even this much more than the piece it
/// takes would not bring the stand-pat score up to alpha.
pub(super) const DELTA_MARGIN: i32 = 200;

/// Delta pruning applies only above this game phase: with little material left, a pawn's
/// advance or a king's activity can be worth more than the margin.
pub(super) const DELTA_MIN_PHASE: i32 = 4;

// Ending the search.

/// A mate seen at two iterations in a row ends the search once the depth is past twice its
/// length in moves by this many plies: a shorter mate would have been found by then.
pub(super) const MATE_EXIT_SPARE_PLIES: i32 = 2;
