//! Iterative deepening over a negamax alpha-beta search with PVS, aspiration windows, a
//! transposition table, correction history, null-move pruning and reverse futility (both held
//! back when the king is under fire), late-move reductions, futility and SEE pruning and a
//! quiescence search with delta and SEE pruning.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, MoveList, Position};

mod params;

use params::*;

use super::checks::Checks;
use super::danger::under_fire;
use super::eval::{Evaluator, game_phase};
use super::eval_cache::EvalCache;
use super::limits::Limits;
use super::node::{Node, key_of};
use super::ordering::{History, Picker, is_tactical, pawn_index};
use super::pawn_cache::PawnCache;
use super::score::{INFINITY, MATE, MATE_BOUND, MAX_PLY, TB_WIN, TB_WIN_BOUND};
use super::see::{see, value};
use super::spread::skips;
use super::strength::noise;
use super::tactical::tactical_moves;
use super::time::{Clock, falling_factor, stability_factor};
use super::tt::{Bound, Hit, Table, decode_move, encode_move};
use super::{Control, Info, SearchResult};
use crate::tablebase::{Tablebases, Wdl};

type Line = ArrayVec<Move, MAX_PLY>;

/// Reductions for late quiet moves, indexed by depth and move number.
fn lmr_table() -> &'static [[i32; 64]; 64] {
    use std::sync::OnceLock;
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

/// The state of one running search.
pub struct Searcher<'a> {
    tt: &'a Table,
    history: &'a mut History,
    eval: Evaluator,
    control: &'a Control,
    clock: Clock,
    node_limit: Option<u64>,
    /// Keys of every position from the start of the game to the current node.
    keys: Vec<u64>,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// Static evaluation at each ply of the current line (`-INFINITY` in check), to tell
    /// whether the side to move is improving on its position two plies ago.
    evals: [i32; MAX_PLY + 2],
    pv: Vec<Line>,
    /// Nodes visited.
    pub nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Best root move found in the current iteration (set only from completed child searches).
    root_best: Option<(Move, i32)>,
    /// The score and line of the last root move to fail high in the current iteration: it is
    /// played if time runs out while the wider window searches it again.
    fail_high: Option<(i32, Vec<Move>)>,
    root_order_hint: Option<Move>,
    tablebases: Option<&'a Tablebases>,
    /// Evaluation noise for weakened levels: amplitude and per-game seed.
    noise: (i32, u64),
    /// Whether leaves are resolved by a capture search; without it the weakest levels miss
    /// recaptures and hanging pieces the way a beginner does.
    quiescence: bool,
    /// Mixed into transposition-table keys so each level keeps its own entries.
    table_salt: u64,
    /// The root moves to consider; empty for all (UCI `searchmoves`).
    root_moves: &'a [Move],
    /// Whether a forced mate found with room to spare ends the iterations.
    mate_exit: bool,
    /// Index in `keys` of the latest null-move node: repetitions are not sought before it.
    null_floor: usize,
    /// Tablebase probes that returned a value.
    pub tb_hits: u64,
    /// How many best lines each iteration finds (MultiPV).
    lines: usize,
    /// Root moves left out of the current line's search: the better lines' first moves.
    excluded: ArrayVec<Move, MAX_LINES>,
    /// Lazy SMP: every thread's nodes, added up in steps of 1024.
    node_counter: Option<&'a AtomicU64>,
    /// Lazy SMP: set when the main thread is done, to stop a helper.
    abort: Option<&'a AtomicBool>,
    /// Lazy SMP: this thread's number, 0 for the main thread; helpers leave some depths out
    /// (see `spread`).
    helper: usize,
    /// This search's pawn-structure terms, by pawns.
    pawns: PawnCache,
    /// This search's static evaluations, by key.
    evals_by_key: EvalCache,
    /// What a draw is worth to the side to move at the root, negated (see `Limits::contempt`).
    contempt: i32,
}

/// The most lines a MultiPV search reports.
pub(crate) const MAX_LINES: usize = 64;

/// One of a MultiPV search's best lines.
#[derive(Clone, Debug)]
struct RootLine {
    score: i32,
    pv: Vec<Move>,
    seldepth: usize,
}

impl<'a> Searcher<'a> {
    /// Prepares a search; `history_keys` are the keys of the positions before the root.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a Table,
        history: &'a mut History,
        eval: Evaluator,
        control: &'a Control,
        limits: &Limits,
        side: Color,
        overhead_ms: u64,
        history_keys: &[u64],
    ) -> Searcher<'a> {
        Searcher {
            tt,
            history,
            eval,
            control,
            clock: Clock::new(limits, side, overhead_ms),
            node_limit: limits.nodes,
            keys: history_keys.to_vec(),
            killers: [[None; 2]; MAX_PLY + 2],
            evals: [-INFINITY; MAX_PLY + 2],
            pv: vec![Line::new(); MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_best: None,
            fail_high: None,
            root_order_hint: None,
            tablebases: None,
            noise: (0, 0),
            quiescence: true,
            table_salt: 0,
            root_moves: &[],
            mate_exit: true,
            null_floor: 0,
            tb_hits: 0,
            lines: 1,
            excluded: ArrayVec::new(),
            node_counter: None,
            abort: None,
            helper: 0,
            pawns: PawnCache::default(),
            evals_by_key: EvalCache::default(),
            contempt: 0,
        }
    }

    /// Makes this search one of several sharing the hash table (Lazy SMP): nodes are added up
    /// in `counter`, and helper number `helper` (from 1, `abort` given) stops when it is set
    /// and searches only the depths `spread::skips` leaves it, so that the threads spread over
    /// different depths.
    pub(crate) fn with_threads(
        mut self,
        counter: &'a AtomicU64,
        abort: Option<&'a AtomicBool>,
        helper: usize,
    ) -> Self {
        self.node_counter = Some(counter);
        self.abort = abort;
        self.helper = helper;
        self
    }

    /// Nodes searched by every thread so far (this one's alone without threads).
    fn all_nodes(&self) -> u64 {
        match self.node_counter {
            Some(counter) => counter.load(Ordering::Relaxed) + (self.nodes & 1023),
            None => self.nodes,
        }
    }

    /// Lets the search probe Syzygy tables (WDL) after captures and pawn moves.
    pub(crate) fn with_tablebases(mut self, tablebases: Option<&'a Tablebases>) -> Self {
        self.tablebases = tablebases;
        self
    }

    /// Adds a deterministic error of up to `amplitude` centipawns to every static evaluation.
    pub(crate) fn with_noise(mut self, amplitude: i32, seed: u64) -> Self {
        self.noise = (amplitude, seed);
        self
    }

    /// Keeps this search's transposition-table entries apart from other levels' (see
    /// `strength::table_salt`).
    pub(crate) fn with_table_salt(mut self, salt: u64) -> Self {
        self.table_salt = salt;
        self
    }

    /// Restricts the root to `moves` (those that are legal); empty keeps every move.
    pub(crate) fn with_root_moves(mut self, moves: &'a [Move]) -> Self {
        self.root_moves = moves;
        self
    }

    /// Finds the best `n` lines with distinct first moves in each iteration (MultiPV); the
    /// first is the move played.
    pub(crate) fn with_lines(mut self, n: usize) -> Self {
        self.lines = n.clamp(1, MAX_LINES);
        self
    }

    /// Whether a stable forced mate ends the search before its limits (off when a depth was
    /// asked for).
    pub(crate) fn with_mate_exit(mut self, on: bool) -> Self {
        self.mate_exit = on;
        self
    }

    /// Scores a draw `contempt` centipawns below zero for the root's side to move (and as
    /// much above for its opponent).
    pub(crate) fn with_contempt(mut self, contempt: i32) -> Self {
        self.contempt = contempt;
        self
    }

    /// A draw's score for the side to move at `ply`.
    #[inline]
    fn draw(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// Turns the capture search at the leaves on or off.
    pub(crate) fn with_quiescence(mut self, on: bool) -> Self {
        self.quiescence = on;
        self
    }

    /// Keeps only the `searchmoves` among the root's legal moves, unless none of them is legal.
    fn restrict_root(&self, legal: &mut shakmaty::MoveList) {
        if !self.root_moves.is_empty() && legal.iter().any(|m| self.root_moves.contains(m)) {
            legal.retain(|m| self.root_moves.contains(m));
        }
    }

    #[inline]
    fn evaluate(&mut self, node: &Node) -> i32 {
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
    fn correct(&self, color: Color, pawns: usize, raw: i32) -> i32 {
        self.history
            .corrected(color, pawns, raw)
            .clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

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
        let mut previous: Option<i32> = None;
        let (mut stable, mut last_best) = (0u32, None);
        let lines_wanted = self.lines.min(legal.len());
        // The previous iteration's lines, best first: each line's search starts from its move.
        let mut lines: Vec<RootLine> = Vec::new();
        let last = max_depth.clamp(1, MAX_PLY as u32 - 1) as i32;
        for depth in 1..=last {
            if depth < last && skips(self.helper, depth) {
                continue;
            }
            self.seldepth = 0;
            self.excluded.clear();
            let mut found: Vec<RootLine> = Vec::with_capacity(lines_wanted);
            for k in 0..lines_wanted {
                self.root_best = None;
                self.fail_high = None;
                let (hint, guess) = match k {
                    0 => (result.best, score),
                    _ => lines.get(k).map_or((None, found[k - 1].score), |l| {
                        (l.pv.first().copied(), l.score)
                    }),
                };
                self.root_order_hint = hint;
                let line_score = self.aspiration(&node, depth, guess);
                if self.stopped {
                    // A partial iteration is used only when a root move beat the window there,
                    // or failed high above it and was being searched again.
                    let partial = match self.root_best {
                        _ if k > 0 => None,
                        Some((m, s)) if self.pv[0].first() == Some(&m) => {
                            Some((s, self.pv[0].iter().copied().collect()))
                        }
                        _ => self.fail_high.take(),
                    };
                    if let Some((s, pv)) = partial {
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
            let elapsed = start.elapsed();
            if self.stopped || found.is_empty() {
                break;
            }
            // Best first (a later line can come out above an earlier one at the same depth).
            found.sort_by_key(|l| std::cmp::Reverse(l.score));
            score = found[0].score;
            result.score = score;
            result.depth = depth as u32;
            result.pv = found[0].pv.clone();
            result.best = result.pv.first().copied().or(result.best);
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
            lines = found;
            if self.control.pondering.load(Ordering::Relaxed) {
                continue;
            }
            // Spend less time once the best move has stayed the same for a few iterations,
            // more while it keeps changing or the score is falling.
            let best = result.best;
            stable = if best == last_best { stable + 1 } else { 0 };
            last_best = best;
            let factor =
                stability_factor(stable) * falling_factor(previous.map_or(0, |p| p - score));
            if self.clock.soft_expired_scaled(factor) {
                break;
            }
            // A forced mate seen twice with room to spare will not get shorter: deeper
            // iterations would only run up the depth (to 127) for nothing.
            if self.mate_exit
                && score.abs() >= MATE_BOUND
                && previous == Some(score)
                && depth >= 2 * (MATE - score.abs()) + 2
            {
                break;
            }
            previous = Some(score);
        }
        result.nodes = self.nodes;
        result.ponder = result.pv.get(1).copied();
        result
    }

    fn aspiration(&mut self, node: &Node, depth: i32, previous: i32) -> i32 {
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
                // Search the move that failed high first again, not the previous best.
                if let Some((m, _)) = self.root_best {
                    self.root_order_hint = Some(m);
                    if self.pv[0].first() == Some(&m) {
                        self.fail_high = Some((score, self.pv[0].iter().copied().collect()));
                    }
                }
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

    #[inline]
    fn check_limits(&mut self) {
        // The node budget is exact (low levels rely on it); clocks are read less often.
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
            return;
        }
        if self.nodes & 1023 != 0 {
            return;
        }
        if let Some(counter) = self.node_counter {
            counter.fetch_add(1024, Ordering::Relaxed);
        }
        if self.control.stop.load(Ordering::Relaxed)
            || self.abort.is_some_and(|a| a.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return;
        }
        if self.control.pondering.load(Ordering::Relaxed) {
            self.clock.restart();
            return;
        }
        if self.clock.hard_expired() {
            self.stopped = true;
        }
    }

    fn is_repetition(&self, node: &Node) -> bool {
        let len = self.keys.len();
        let reach = (node.pos.halfmoves() as usize)
            .min(len - 1)
            .min(len - 1 - self.null_floor.min(len - 1));
        let mut i = 2;
        while i <= reach {
            if self.keys[len - 1 - i] == node.key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn negamax(
        &mut self,
        node: &Node,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_null: bool,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let pos = &node.pos;
        let in_check = pos.is_check();

        if ply > 0 {
            if self.is_repetition(node) || pos.is_insufficient_material() {
                return self.draw(ply);
            }
            if pos.halfmoves() >= 100 && !(in_check && pos.legal_moves().is_empty()) {
                return self.draw(ply);
            }
            // Mate distance pruning: no line from here beats a mate already found nearer.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(node);
            }
        }
        // Checks that do not lose material are extended where they are played (below); a side
        // in check at the horizon still answers it with a full-width ply.
        if in_check && depth <= 0 {
            depth = 1;
        }
        if depth <= 0 {
            if !self.quiescence {
                return self.evaluate(node);
            }
            return self.quiescence(node, ply, alpha, beta);
        }
        self.seldepth = self.seldepth.max(ply);

        let hit = self.tt.probe(node.key ^ self.table_salt, ply);
        let mut tt_move = hit.map_or(0, |h| h.mv);
        if ply == 0
            && let Some(m) = self.root_order_hint
        {
            tt_move = encode_move(m);
        }
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
            && cuts(h, alpha, beta)
        {
            return h.score;
        }
        // Internal iterative reduction: a node the table knows no move for is searched a ply
        // shallower (its next visit will have a move to start with).
        if depth >= IIR_MIN_DEPTH && tt_move == 0 {
            depth -= 1;
        }
        // Right after a capture or pawn move the tables' WDL value is exact.
        if ply > 0
            && let Some(tb) = self.tablebases
            && pos.halfmoves() == 0
            && pos.board().occupied().count() <= tb.probe_pieces()
            && let Some(wdl) = tb.probe_wdl_search(pos)
        {
            self.tb_hits += 1;
            let score = match wdl {
                Wdl::Win => TB_WIN - ply as i32,
                Wdl::Loss => -TB_WIN + ply as i32,
                // Cursed wins and blessed losses are draws under the fifty-move rule.
                _ => self.draw(ply),
            };
            let eval = self.evaluate(node);
            self.store(node, ply, None, score, eval, MAX_PLY as i32, Bound::Exact);
            return score;
        }

        let pawns = pawn_index(pos.board());
        let (raw_eval, static_eval) = if in_check {
            (0, -INFINITY)
        } else {
            let raw = hit.map_or_else(|| self.evaluate(node), |h| h.eval);
            (raw, self.correct(pos.turn(), pawns, raw))
        };

        self.evals[ply] = static_eval;
        // Better than two plies ago: prune and reduce less eagerly.
        let improving = !in_check && (ply < 2 || static_eval > self.evals[ply - 2]);

        if !pv_node && !in_check && ply > 0 {
            // Neither shortcut below is taken with the king under fire: the lead may be a
            // sacrifice's, and the threat a quiet move they would not see (see `danger`).
            // Worked out once, and only when a shortcut is otherwise about to be taken.
            let mut fire = None;
            let mut king_safe = || !*fire.get_or_insert_with(|| under_fire(pos));
            // Reverse futility: far enough above beta that a shallow search won't fall below.
            if depth <= RFP_MAX_DEPTH
                && static_eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && beta.abs() < MATE_BOUND
                && king_safe()
            {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move will too.
            if !cut_null
                && depth >= NMP_MIN_DEPTH
                && static_eval >= beta
                && has_pieces(pos, pos.turn())
                && beta.abs() < MATE_BOUND
                && king_safe()
                && let Ok(null_pos) = pos.clone().swap_turn()
            {
                {
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
                        return 0;
                    }
                    if score >= beta {
                        return if score >= TB_WIN_BOUND { beta } else { score };
                    }
                }
            }
        }

        let killers = self.killers[ply];
        // The hash table's move is tried before any move is generated: when it cuts off, as it
        // mostly does, generating and scoring the rest is saved. The picker would hand it out
        // first too; the difference is that the quiet moves are scored after its search, with
        // the history as that search left it.
        let mut table_move = if ply > 0 {
            decode_move(pos, tt_move)
        } else {
            None
        };
        let mut picker = Picker::empty();
        if table_move.is_none()
            && let Err(score) = self.fill_picker(&mut picker, pos, ply, tt_move, &killers, alpha)
        {
            return score;
        }
        let mut filled = table_move.is_none();
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut searched = 0;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let color = pos.turn();
        let lmr = lmr_table();
        // What tells whether a move gives check, worked out when first asked.
        let mut checks: Option<Checks> = None;
        // Set once late-move or futility pruning has dropped the remaining quiet moves.
        let mut quiets_dropped = false;
        // Quiet moves tried before the rest are pruned near the leaves.
        let late_moves = if improving {
            LMP_IMPROVING_BASE + depth * depth * LMP_IMPROVING_PER_DEPTH_SQUARED
        } else {
            LMP_BASE + depth * depth * LMP_PER_DEPTH_SQUARED
        };

        loop {
            let (m, order) = if let Some(m) = table_move.take() {
                (m, Picker::TT_MOVE)
            } else {
                if !filled {
                    filled = true;
                    // The table's move is legal, so the list is not empty; the picker hands
                    // that move out first, and it has been searched.
                    let _ = self.fill_picker(&mut picker, pos, ply, tt_move, &killers, alpha);
                    picker.pick();
                }
                match picker.pick() {
                    Some(next) => next,
                    None => break,
                }
            };
            let quiet = !is_tactical(m);
            // Losing captures near the leaves are dropped before the move is even made.
            if may_prune(ply, pv_node, in_check, best_score)
                && !quiet
                && depth <= CAPTURE_SEE_MAX_DEPTH
                && Picker::is_bad_capture(order)
                && see(pos, m) < -CAPTURE_SEE_MARGIN * depth
            {
                continue;
            }
            // Late move pruning and futility pruning of quiet moves near the leaves, decided
            // before the move is made so that a pruned move costs nothing.
            if may_prune(ply, pv_node, in_check, best_score)
                && quiet
                && depth <= LMP_MAX_DEPTH
                && (searched >= late_moves
                    || (depth <= FUTILITY_MAX_DEPTH
                        && static_eval + FUTILITY_MARGIN * depth + FUTILITY_BASE <= alpha))
                && !checks.get_or_insert_with(|| Checks::new(pos)).gives(pos, m)
            {
                // Every condition above only gets truer as the node goes on, so every later
                // quiet move that gives no check would be pruned too: drop them all now
                // instead of picking them one by one.
                if !quiets_dropped && filled {
                    quiets_dropped = true;
                    let checks = checks.get_or_insert_with(|| Checks::new(pos));
                    picker.retain_rest(|m| is_tactical(m) || checks.gives(pos, m));
                }
                continue;
            }
            // A quiet move that puts a piece where it is simply lost, near the leaves. The
            // margin grows with the square of the depth: with a few plies left a piece given
            // up can buy a mating attack, and a margin of 60 a ply pruned a knight's
            // sacrifice with up to five plies left (now with three).
            if may_prune(ply, pv_node, in_check, best_score)
                && quiet
                && depth <= QUIET_SEE_MAX_DEPTH
                && see(pos, m) < -QUIET_SEE_QUADRATIC * depth * depth - QUIET_SEE_LINEAR * depth
            {
                continue;
            }
            let child = self.child(node, m);
            let gives_check = child.pos.is_check();

            self.keys.push(child.key);
            let extension = i32::from(gives_check && see(pos, m) >= 0);
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 0 {
                score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, false);
            } else {
                let mut reduction = 0;
                if depth >= LMR_MIN_DEPTH
                    && searched >= LMR_MIN_MOVES
                    && quiet
                    && !gives_check
                    && !in_check
                {
                    reduction = lmr[depth.min(63) as usize][(searched as usize).min(63)];
                    if pv_node {
                        reduction -= 1;
                    }
                    if !improving {
                        reduction += 1;
                    }
                    if killers.contains(&Some(m)) {
                        reduction -= 1;
                    }
                    reduction -= self.history.get(color, m) / LMR_HISTORY_DIVISOR;
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                score = -self.negamax(
                    &child,
                    new_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    false,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, new_depth, ply + 1, -alpha - 1, -alpha, false);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha, false);
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(m);
                    line.extend(tail[0].iter().copied().take(MAX_PLY - 1));
                    if ply == 0 {
                        self.root_best = Some((m, score));
                    }
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(ply, color, m, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if quiet && quiets_tried.len() < quiets_tried.capacity() {
                quiets_tried.push(m);
            }
        }

        if searched == 0 {
            // Everything was pruned: the position is at least as bad as a quiet stand.
            return alpha;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if ply == 0 && !self.excluded.is_empty() {
            // A root searched without its best moves is not the position's value.
            return best_score;
        }
        // Teach the correction history where the search disagreed with the evaluation: not
        // after a capture (that is the material, not the position) nor when the bound says
        // nothing about which side of the evaluation the truth lies.
        if !in_check
            && best_move.is_none_or(|m| !is_tactical(m))
            && best_score.abs() < TB_WIN_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.history
                .update_correction(color, pawns, best_score - static_eval, depth);
        }
        self.store(node, ply, best_move, best_score, raw_eval, depth, bound);
        best_score
    }

    /// Generates and scores the moves of a node, or gives the node's score when there are none
    /// to search: mate, stalemate, or (`alpha`) a root whose moves are all excluded.
    fn fill_picker(
        &mut self,
        picker: &mut Picker,
        pos: &Chess,
        ply: usize,
        tt_move: u16,
        killers: &[Option<Move>; 2],
        alpha: i32,
    ) -> Result<(), i32> {
        let mut legal = pos.legal_moves();
        if legal.is_empty() {
            return Err(if pos.is_check() {
                -MATE + ply as i32
            } else {
                self.draw(ply)
            });
        }
        if ply == 0 {
            self.restrict_root(&mut legal);
            legal.retain(|m| !self.excluded.contains(m));
            if legal.is_empty() {
                return Err(alpha);
            }
        }
        picker.fill(pos, &legal, tt_move, killers, self.history);
        Ok(())
    }

    fn update_quiet_stats(
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

    fn quiescence(&mut self, node: &Node, ply: usize, mut alpha: i32, beta: i32) -> i32 {
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
        let hit = self.tt.probe(node.key ^ self.table_salt, ply);
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
            let raw = hit.map_or_else(|| self.evaluate(node), |h| h.eval);
            let eval = self.correct(pos.turn(), pawn_index(pos.board()), raw);
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
            if !in_check {
                let gain = m.capture().map_or(0, value)
                    + m.promotion()
                        .map_or(0, |r| value(r) - value(shakmaty::Role::Pawn));
                if delta_pruning && stand_pat + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                if m.promotion().is_some_and(|r| r != shakmaty::Role::Queen) {
                    continue;
                }
                if value(m.role()) > m.capture().map_or(0, value) && see(pos, m) < 0 {
                    continue;
                }
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
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(node, ply, best_move, best, raw_eval, 0, bound);
        best
    }

    /// The node after `m`, its hash-table bucket already on its way into the cache.
    #[inline]
    fn child(&self, node: &Node, m: Move) -> Node {
        node.play_then(m, &self.eval, |key| {
            self.tt.prefetch(key ^ self.table_salt);
            self.evals_by_key.prefetch(key);
        })
    }

    /// Stores a node's result under its (level-salted) key.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(
        &mut self,
        node: &Node,
        ply: usize,
        best: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        self.tt.store(
            node.key ^ self.table_salt,
            ply,
            best.map_or(0, encode_move),
            score,
            eval,
            depth,
            bound,
        );
    }
}

/// True when a stored bound settles the node for the window `alpha..beta`.
#[inline]
fn cuts(h: Hit, alpha: i32, beta: i32) -> bool {
    match h.bound {
        Bound::Exact => true,
        Bound::Lower => h.score >= beta,
        Bound::Upper => h.score <= alpha,
    }
}

/// Whether a move at this node may be pruned at all, the guard every move-pruning rule shares:
/// never at the root, in a PV node or in check, and only once a move searched scores above a
/// tablebase loss, so that the move which escapes a loss is never the one pruned.
#[inline]
fn may_prune(ply: usize, pv_node: bool, in_check: bool, best_score: i32) -> bool {
    ply > 0 && !pv_node && !in_check && best_score > -TB_WIN_BOUND
}

/// True when `color` has a piece other than pawns and king (null move is unsafe otherwise).
fn has_pieces(pos: &Chess, color: Color) -> bool {
    let board = pos.board();
    (board.by_color(color) & !(board.pawns() | board.kings())).any()
}

fn nps(nodes: u64, elapsed: std::time::Duration) -> u64 {
    let micros = elapsed.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / micros
}
