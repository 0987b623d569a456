//! The search: iterative deepening over aspiration windows around a principal-variation
//! negamax, with a transposition table, correction history, null-move pruning and reverse
//! futility (both held back when the king is under fire), late-move reductions, futility and
//! SEE pruning, and a quiescence search with delta and SEE pruning.
//!
//! To read it from the top: `iterative_deepening` (the root loop and its MultiPV lines) calls
//! `aspiration` (the window around the last score), which calls `negamax` (one node: its
//! shortcuts, then its moves in order); `pruning` and `reductions` are what decide how much of
//! a node is searched, `quiescence` settles the captures at the leaves, and every margin those
//! use is in `params`, with why it is what it is.

use std::sync::atomic::{AtomicBool, AtomicU64};

use arrayvec::ArrayVec;
use shakmaty::{Color, Move, MoveList};

use super::Control;
use super::eval::Evaluator;
use super::eval_cache::EvalCache;
use super::limits::Limits;
use super::ordering::History;
use super::pawn_cache::PawnCache;
use super::score::{INFINITY, MAX_PLY};
use super::time::Clock;
use super::tt::Table;
use crate::tablebase::Tablebases;

mod draws;
mod params;
mod iterative_deepening;
mod aspiration;
mod pruning;
mod moves;
mod reductions;
mod static_eval;
mod stats;
mod stop;
mod syzygy;
mod table;
mod quiescence;
mod negamax;

/// A line of moves from one ply down.
type Line = ArrayVec<Move, MAX_PLY>;

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
    /// Lazy SMP: every thread's nodes, added up in steps of `stop::CHECK_EVERY`.
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

impl<'a> Searcher<'a> {
    /// Prepares a search; `history_keys` are the keys of the positions before the root.
    #[expect(
        clippy::too_many_arguments,
        reason = "the shared tables and limits of one search, given once"
    )]
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

    /// Turns the capture search at the leaves on or off.
    pub(crate) fn with_quiescence(mut self, on: bool) -> Self {
        self.quiescence = on;
        self
    }

    /// Keeps only the `searchmoves` among the root's legal moves, unless none of them is legal.
    fn restrict_root(&self, legal: &mut MoveList) {
        if !self.root_moves.is_empty() && legal.iter().any(|m| self.root_moves.contains(m)) {
            legal.retain(|m| self.root_moves.contains(m));
        }
    }
}
