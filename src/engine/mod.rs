//! The Knightfall engine: evaluation, search and their tables, with no terminal or protocol code.
//!
//! `Engine::search` runs one search on the calling thread, reporting progress through a
//! callback; callers put it on a worker thread and stop it through `Control`.

#[cfg(test)]
pub(crate) mod walk;
pub mod checks;
pub mod danger;
pub mod limits;
pub mod prefetch;
pub mod eval_cache;
pub mod pst;
pub mod params;
pub mod scale;
pub mod score;
pub mod see;
pub(crate) mod spread;
pub mod strength;
pub mod terms;
pub mod pawn_cache;
pub mod eval;
pub mod node;
pub mod time;
pub mod tt;
pub mod ordering;
pub mod tactical;
pub mod search;
pub mod tuned;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::{Chess, Move, Position};

use crate::tablebase::Tablebases;

pub use eval::{Evaluator, Profile};
pub use limits::Limits;
pub use score::{Reported, report};

/// The contempt (see `Limits::contempt`) a game's searches use unless told otherwise.
pub(crate) const DEFAULT_CONTEMPT: i32 = 0;

/// The largest contempt either way, in centipawns.
pub(crate) const MAX_CONTEMPT: i32 = 100;

/// The stack of every thread that searches (the game's and the UCI loop's search thread, the
/// Lazy SMP helpers, the review's workers), set once here. `negamax` recurses up to `MAX_PLY`
/// plies plus quiescence, and each frame holds move lists and a move picker of a few KB: about
/// 1.5 MB at the deepest in an optimised build and several times that in a debug build, over
/// the 2 MiB a spawned thread gets by default. The address space is reserved, not used, so a
/// generous size costs nothing until a search goes that deep.
pub(crate) const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Engine settings that persist across searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Evaluation profile.
    pub profile: Profile,
    /// Time kept in reserve per move on a game clock for communication delays, in
    /// milliseconds (a fixed move time is searched in full).
    pub move_overhead_ms: u64,
    /// Search threads (Lazy SMP); only full strength without a node limit uses more than one.
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            hash_mb: 16,
            profile: Profile::Tapered,
            move_overhead_ms: 30,
            threads: 1,
        }
    }
}

/// Shared flags through which another thread steers a running search.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop the search as soon as possible.
    pub stop: AtomicBool,
    /// While set, the search ignores its clock (pondering); clearing it starts the clock.
    pub pondering: AtomicBool,
}

/// A progress report after each completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Nominal depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score in centipawns or mate scale, from the side to move's view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table use in permille.
    pub hashfull: u32,
    /// Tablebase probes that gave a value.
    pub tb_hits: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Which of the best lines this is, 1 (the best) up (UCI `multipv`).
    pub multipv: u32,
}

/// What a search decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None` only when there is no legal move).
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score from the side to move's view.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// The engine: its configuration and the tables it keeps between searches.
pub struct Engine {
    config: Config,
    tablebases: Option<Arc<Tablebases>>,
    seed: u64,
    tt: tt::Table,
    history: Box<ordering::History>,
    /// The helper threads' own move histories (Lazy SMP), kept between searches.
    helpers: Vec<Box<ordering::History>>,
}

impl Engine {
    /// An engine with `config`.
    pub fn new(config: Config) -> Engine {
        Engine {
            tablebases: None,
            seed: 0x5EED,
            tt: tt::Table::new(config.hash_mb),
            history: ordering::History::new(),
            helpers: Vec::new(),
            config,
        }
    }

    /// The most search threads this machine runs at once (UCI `Threads` goes up to it).
    pub(crate) fn max_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// Sets the number of search threads (1 to [`Engine::max_threads`]).
    pub(crate) fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads.clamp(1, Engine::max_threads());
    }

    /// Current settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Resizes (and clears) the transposition table.
    pub(crate) fn set_hash(&mut self, mb: usize) {
        self.config.hash_mb = mb;
        // Free the old table first so the two never need memory at the same time.
        self.tt = tt::Table::new(1);
        self.tt = tt::Table::new(mb);
    }

    /// Sets the move overhead in milliseconds.
    pub(crate) fn set_move_overhead(&mut self, ms: u64) {
        self.config.move_overhead_ms = ms;
    }

    /// Gives the search Syzygy tables to probe (or takes them away).
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases;
        self.tt.clear();
    }

    /// The Syzygy tables the search probes, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Starts the engine's evaluation errors afresh from `seed`: what a weakened level gets
    /// wrong from here on depends on the seed alone, not on the searches before.
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Forgets everything learned (new game); a weakened level gets new evaluation errors.
    pub fn clear(&mut self) {
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.tt.clear();
        self.history = ordering::History::new();
        self.helpers.clear();
    }

    /// Searches `root` at the level `limits` names; `history_keys` holds the keys (`node::key_of`)
    /// of the game's positions before it, oldest first, so that repetitions are recognised.
    pub fn search(
        &mut self,
        root: &Chess,
        history_keys: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let level_number = limits.level.unwrap_or(strength::MAX_LEVEL);
        let level = strength::settings(level_number);
        // A depth asked for is searched to; otherwise a found mate may end the search early.
        let asked_depth = limits.depth.is_some();
        let mut limits = limits.clone();
        if let Some(cap) = level.depth {
            limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        }
        if let Some(cap) = level.nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        let blunders = strength::blunders(node::key_of(root), self.seed, level.blunder_percent);
        // An oversight looks at its own move only: a deeper level that searched on would see the
        // reply that takes a piece, and its oversights would hang nothing.
        if blunders {
            limits.depth = Some(1);
        }
        let limits = &limits;
        // Levels below the top and node budgets stay on one thread, so their node caps (and so
        // their strength) are exact; a MultiPV search's extra lines are the main thread's.
        let threads = if level_number < strength::MAX_LEVEL || limits.nodes.is_some() {
            1
        } else {
            self.config.threads.max(1)
        };
        self.tt.new_search();
        self.history.age();
        while self.helpers.len() < threads - 1 {
            self.helpers.push(ordering::History::new());
        }
        let evaluator = Evaluator::new(self.config.profile);
        let max_depth = limits.depth.unwrap_or(u32::MAX);
        let node_counter = AtomicU64::new(0);
        let abort = AtomicBool::new(false);
        let setup = Setup {
            tt: &self.tt,
            evaluator,
            control,
            turn: root.turn(),
            overhead: self.config.move_overhead_ms,
            history_keys,
            tablebases: self.tablebases.as_deref(),
            noise: (level.noise, self.seed),
            salt: strength::table_salt(level_number),
            mate_exit: !asked_depth,
            quiescence: !blunders,
            contempt: if level_number < strength::MAX_LEVEL {
                0
            } else {
                limits.contempt.clamp(-MAX_CONTEMPT, MAX_CONTEMPT)
            },
        };
        // Helpers search until the main thread is done; only its clock counts.
        let helper_limits = Limits {
            infinite: true,
            multipv: 1,
            ..limits.clone()
        };
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (i, history) in self.helpers.iter_mut().take(threads - 1).enumerate() {
                history.age();
                let (setup, helper_limits, abort, node_counter) =
                    (&setup, &helper_limits, &abort, &node_counter);
                let spawned = std::thread::Builder::new()
                    .name(format!("knightfall-helper-{}", i + 1))
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut helper = setup.searcher(history, helper_limits).with_threads(
                            node_counter,
                            Some(abort),
                            i + 1,
                        );
                        helper.run(root, max_depth, &mut |_| {});
                        helper.nodes
                    });
                // A helper the system cannot start leaves the search to the others.
                if let Ok(handle) = spawned {
                    handles.push(handle);
                }
            }
            let mut main = setup
                .searcher(&mut self.history, limits)
                .with_lines(limits.multipv.max(1) as usize);
            if threads > 1 {
                main = main.with_threads(&node_counter, None, 0);
            }
            let mut result = main.run(root, max_depth, on_info);
            abort.store(true, Ordering::Relaxed);
            for handle in handles {
                result.nodes += handle.join().unwrap_or(0);
            }
            result
        })
    }
}

/// What every thread of one search shares.
struct Setup<'a> {
    tt: &'a tt::Table,
    evaluator: Evaluator,
    control: &'a Control,
    turn: shakmaty::Color,
    overhead: u64,
    history_keys: &'a [u64],
    tablebases: Option<&'a Tablebases>,
    noise: (i32, u64),
    salt: u64,
    mate_exit: bool,
    quiescence: bool,
    contempt: i32,
}

impl<'a> Setup<'a> {
    /// One thread's searcher, with its own move history.
    fn searcher<'b>(
        &'b self,
        history: &'b mut ordering::History,
        limits: &'b Limits,
    ) -> search::Searcher<'b>
    where
        'a: 'b,
    {
        // A search that overlooks tactics overlooks static threats too.
        let evaluator = if self.quiescence {
            self.evaluator
        } else {
            self.evaluator.blind_to_threats()
        };
        search::Searcher::new(
            self.tt,
            history,
            evaluator,
            self.control,
            limits,
            self.turn,
            self.overhead,
            self.history_keys,
        )
        .with_tablebases(self.tablebases)
        .with_noise(self.noise.0, self.noise.1)
        .with_table_salt(self.salt)
        .with_root_moves(&limits.searchmoves)
        .with_mate_exit(self.mate_exit)
        .with_quiescence(self.quiescence)
        .with_contempt(self.contempt)
    }
}
