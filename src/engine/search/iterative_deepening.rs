//! The root loop: one iteration per depth, each finding the MultiPV lines in turn, until a
//! limit, the clock or a settled mate ends it.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use super::Searcher;
use super::params::MATE_EXIT_SPARE_PLIES;
use crate::engine::node::{Node, key_of};
use crate::engine::score::{MATE, MATE_BOUND, MAX_PLY};
use crate::engine::spread::skips;
use crate::engine::time::{falling_factor, stability_factor};
use crate::engine::tt::decode_move;
use crate::engine::{Info, SearchResult};

/// How long the table may lengthen the best line to ([`Searcher::lengthened`]).
const PV_FROM_TABLE: usize = 16;

/// One of a MultiPV search's best lines.
#[derive(Clone, Debug)]
struct RootLine {
    score: i32,
    pv: Vec<Move>,
    seldepth: usize,
}

/// What the iterations have learned so far about how settled the search is, for the clock.
struct Settling {
    /// The last completed iteration's score.
    previous: Option<i32>,
    /// Iterations in a row that kept the same best move.
    stable: u32,
    /// The last completed iteration's best move.
    last_best: Option<Move>,
}

impl Searcher<'_> {
    /// Runs iterative deepening from `root` until a limit is reached.
    pub fn run(
        &mut self,
        root: &Chess,
        max_depth: u32,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let node = Node::new(root.clone(), &self.eval);
        self.keys.push(node.key);

        let mut legal = root.legal_moves();
        self.restrict_root(&mut legal);
        let mut result = SearchResult {
            best: legal.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: legal.first().copied().into_iter().collect(),
        };
        if legal.is_empty() {
            result.score = if root.is_check() { -MATE } else { 0 };
            return result;
        }

        let mut score = 0;
        let mut settling = Settling {
            previous: None,
            stable: 0,
            last_best: None,
        };
        let lines_wanted = self.lines.min(legal.len());
        // The previous iteration's lines, best first: each line's search starts from its move.
        let mut lines: Vec<RootLine> = Vec::new();
        let last = max_depth.clamp(1, MAX_PLY as u32 - 1) as i32;
        for depth in 1..=last {
            if depth < last && skips(self.helper, depth) {
                continue;
            }
            let found = self.iteration(&node, depth, lines_wanted, &lines, &mut result, score);
            let elapsed = start.elapsed();
            if self.stopped || found.is_empty() {
                break;
            }
            score = found[0].score;
            result.score = score;
            result.depth = depth as u32;
            result.pv = found[0].pv.clone();
            result.best = result.pv.first().copied().or(result.best);
            self.report(&found, depth, elapsed, on_info);
            lines = found;
            if self.control.pondering.load(Ordering::Relaxed) {
                continue;
            }
            if self.enough_time_spent(&mut settling, result.best, score)
                || self.mate_settled(settling.previous, score, depth)
            {
                break;
            }
            settling.previous = Some(score);
        }
        result.nodes = self.nodes;
        result.pv = self.lengthened(root, std::mem::take(&mut result.pv));
        result.ponder = result.pv.get(1).copied();
        result
    }

    /// `pv` lengthened from the hash table where the search's own line stops short (a line
    /// ends early where a table hit cut the search below it): the move the table keeps for
    /// each position reached, while it is legal there and the line does not come back to a
    /// position it passed. The search itself is not touched; the line only reads further,
    /// for the ponder move and for whoever explains the score (the review's reasons).
    fn lengthened(&self, root: &Chess, mut pv: Vec<Move>) -> Vec<Move> {
        let mut pos = root.clone();
        let mut seen = vec![key_of(&pos)];
        for &m in &pv {
            if !pos.is_legal(m) {
                return pv;
            }
            pos.play_unchecked(m);
            seen.push(key_of(&pos));
        }
        while pv.len() < PV_FROM_TABLE {
            let Some(m) = self
                .tt
                .probe(key_of(&pos), pv.len())
                .and_then(|hit| decode_move(&pos, hit.mv))
            else {
                break;
            };
            pos.play_unchecked(m);
            let key = key_of(&pos);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            pv.push(m);
        }
        pv
    }

    /// Searches one depth: each of the `lines_wanted` best lines in turn, every one without
    /// the first moves of those before it, best first. When the search is stopped midway the
    /// lines are dropped and `result` takes what the partial iteration can be trusted for.
    fn iteration(
        &mut self,
        node: &Node,
        depth: i32,
        lines_wanted: usize,
        previous_lines: &[RootLine],
        result: &mut SearchResult,
        score: i32,
    ) -> Vec<RootLine> {
        self.seldepth = 0;
        self.excluded.clear();
        let mut found: Vec<RootLine> = Vec::with_capacity(lines_wanted);
        for k in 0..lines_wanted {
            self.root_best = None;
            self.fail_high = None;
            let (hint, guess) = match k {
                0 => (result.best, score),
                _ => previous_lines
                    .get(k)
                    .map_or((None, found[k - 1].score), |l| {
                        (l.pv.first().copied(), l.score)
                    }),
            };
            self.root_order_hint = hint;
            let line_score = self.aspiration(node, depth, guess);
            if self.stopped {
                if let Some((s, pv)) = self.partial(k) {
                    result.best = pv.first().copied();
                    result.score = s;
                    result.pv = pv;
                }
                break;
            }
            let pv: Vec<Move> = self.pv[0].iter().copied().collect();
            let Some(&first) = pv.first() else { break };
            found.push(RootLine {
                score: line_score,
                pv,
                seldepth: self.seldepth,
            });
            self.excluded.push(first);
        }
        self.excluded.clear();
        // Best first (a later line can come out above an earlier one at the same depth).
        found.sort_by_key(|l| std::cmp::Reverse(l.score));
        found
    }

    /// The score and line a stopped iteration is played from, if any: only the best line's
    /// (`k` 0), and only when a root move beat the window there, or failed high above it and
    /// was being searched again.
    fn partial(&mut self, k: usize) -> Option<(i32, Vec<Move>)> {
        match self.root_best {
            _ if k > 0 => None,
            Some((m, s)) if self.pv[0].first() == Some(&m) => {
                Some((s, self.pv[0].iter().copied().collect()))
            }
            _ => self.fail_high.take(),
        }
    }

    /// Reports a completed iteration's lines.
    fn report(
        &self,
        found: &[RootLine],
        depth: i32,
        elapsed: Duration,
        on_info: &mut dyn FnMut(&Info),
    ) {
        for (k, line) in found.iter().enumerate() {
            on_info(&Info {
                depth: depth as u32,
                // The selective depth is at least the nominal one (depth 1 reaches ply 1).
                seldepth: (line.seldepth as u32).max(depth as u32),
                score: line.score,
                nodes: self.all_nodes(),
                nps: nps(self.all_nodes(), elapsed),
                time_ms: elapsed.as_millis() as u64,
                hashfull: self.tt.hashfull(),
                tb_hits: self.tb_hits,
                pv: line.pv.clone(),
                multipv: k as u32 + 1,
            });
        }
    }

    /// Whether the clock says not to start another iteration. Less time is spent once the
    /// best move has stayed the same for a few iterations, more while it keeps changing or
    /// the score is falling (`time::stability_factor`, `time::falling_factor`).
    fn enough_time_spent(&self, settling: &mut Settling, best: Option<Move>, score: i32) -> bool {
        settling.stable = if best == settling.last_best {
            settling.stable + 1
        } else {
            0
        };
        settling.last_best = best;
        let drop = settling.previous.map_or(0, |p| p - score);
        self.clock
            .soft_expired_scaled(stability_factor(settling.stable) * falling_factor(drop))
    }

    /// Whether a forced mate seen twice with room to spare ends the search: it will not get
    /// shorter, and deeper iterations would only run up the depth (to 127) for nothing.
    fn mate_settled(&self, previous: Option<i32>, score: i32, depth: i32) -> bool {
        self.mate_exit
            && score.abs() >= MATE_BOUND
            && previous == Some(score)
            && depth >= 2 * (MATE - score.abs()) + MATE_EXIT_SPARE_PLIES
    }
}

/// Nodes per second.
fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / micros
}
