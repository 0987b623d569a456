//! Aspiration windows: each iteration searches a narrow window around the last score, which
//! cuts far more than a full one, and widens it on the side that fails.

use super::Searcher;
use super::params::{ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW};
use crate::engine::node::Node;
use crate::engine::score::{INFINITY, TB_WIN_BOUND};

impl Searcher<'_> {
    /// The root's score at `depth`, searched first in a window around `previous`.
    pub(super) fn aspiration(&mut self, node: &Node, depth: i32, previous: i32) -> i32 {
        if depth < ASPIRATION_MIN_DEPTH || previous.abs() >= TB_WIN_BOUND {
            return self.negamax(node, depth, 0, -INFINITY, INFINITY, false);
        }
        let mut delta = ASPIRATION_WINDOW;
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let score = self.negamax(node, depth, 0, alpha, beta, false);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                self.remember_fail_high(score);
            } else {
                return score;
            }
            delta *= 2;
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// After a fail high at the root, searches the move that failed high first again, not the
    /// previous best, and keeps its line to play if the wider search is stopped.
    fn remember_fail_high(&mut self, score: i32) {
        if let Some((m, _)) = self.root_best {
            self.root_order_hint = Some(m);
            if self.pv[0].first() == Some(&m) {
                self.fail_high = Some((score, self.pv[0].iter().copied().collect()));
            }
        }
    }
}
