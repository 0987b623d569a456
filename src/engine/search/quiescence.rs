//! Quiescence: below the horizon only captures and queen promotions are searched (every
//! move when in check), so that no leaf is scored in the middle of an exchange.

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::Searcher;
use super::params::{DELTA_MARGIN, DELTA_MIN_PHASE};
use super::table::{bound, cuts};
use crate::engine::eval::game_phase;
use crate::engine::node::Node;
use crate::engine::ordering::{Picker, pawn_index};
use crate::engine::score::{INFINITY, MATE, MAX_PLY};
use crate::engine::see::{see, value};
use crate::engine::tactical::tactical_moves;
use crate::engine::tt::Bound;

impl Searcher<'_> {
    /// The node's score once the captures are settled, for the window `alpha..beta`.
    pub(super) fn quiescence(&mut self, node: &Node, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pos = &node.pos;
        if ply >= MAX_PLY - 1 {
            return self.evaluate(node);
        }
        let pv_node = beta - alpha > 1;
        let hit = self.probe(node, ply);
        if let Some(h) = hit
            && !pv_node
            && cuts(h, alpha, beta)
        {
            return h.score;
        }
        let in_check = pos.is_check();
        let original_alpha = alpha;
        // Most nodes stand pat: evaluate before generating any moves.
        let (raw_eval, stand_pat) = if in_check {
            (0, -INFINITY)
        } else {
            let (raw, eval) = self.static_eval(node, hit, pawn_index(pos.board()));
            if eval >= beta {
                if hit.is_none() {
                    self.store(node, ply, None, eval, raw, 0, Bound::Lower);
                }
                return eval;
            }
            alpha = alpha.max(eval);
            (raw, eval)
        };
        let mut legal = MoveList::new();
        if in_check {
            legal = pos.legal_moves();
        } else {
            tactical_moves(pos, &mut legal);
        }
        if in_check && legal.is_empty() {
            return -MATE + ply as i32;
        }
        // Delta pruning is unsafe once little material is left.
        let delta_pruning = !in_check && game_phase(pos.board()) > DELTA_MIN_PHASE;
        let mut best = stand_pat;
        let mut best_move = None;
        let mut picker = Picker::empty();
        picker.fill_quiescence(&legal, in_check, hit.map_or(0, |h| h.mv));
        while let Some((m, _)) = picker.pick() {
            if !in_check && not_worth_a_capture_search(pos, m, stand_pat, alpha, delta_pruning) {
                continue;
            }
            let child = self.child(node, m);
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = bound(best, original_alpha, alpha, beta);
        self.store(node, ply, best_move, best, raw_eval, 0, bound);
        best
    }
}

/// Whether a capture or promotion out of check is skipped: one that even with a margin
/// (`DELTA_MARGIN`) cannot bring the stand-pat score up to alpha, an under-promotion, or a
/// capture by a more valuable piece that loses material in the exchange.
#[inline]
fn not_worth_a_capture_search(
    pos: &Chess,
    m: Move,
    stand_pat: i32,
    alpha: i32,
    delta_pruning: bool,
) -> bool {
    let gain =
        m.capture().map_or(0, value) + m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
    if delta_pruning && stand_pat + gain + DELTA_MARGIN <= alpha {
        return true;
    }
    if m.promotion().is_some_and(|r| r != Role::Queen) {
        return true;
    }
    value(m.role()) > m.capture().map_or(0, value) && see(pos, m) < 0
}
