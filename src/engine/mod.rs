//! The Knightfall engine: evaluation, search and their tables, with no terminal or protocol code.
//!
//! `Engine::search` runs one search on the calling thread, reporting progress through a
//! callback; callers put it on a worker thread and stop it through `Control`.

pub mod eval;
pub mod limits;
pub mod node;
pub mod ordering;
pub mod params;
pub mod pst;
pub mod score;
pub mod search;
pub mod see;
pub mod strength;
pub mod terms;
pub mod time;
pub mod tt;
pub mod tuned;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Move, Position};

use crate::tablebase::Tablebases;

pub use eval::{Evaluator, Profile};
pub use limits::Limits;
pub use score::{Reported, report};

/// Engine settings that persist across searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Evaluation profile.
    pub profile: Profile,
    /// Time kept in reserve per move for communication delays, in milliseconds.
    pub move_overhead_ms: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            hash_mb: 16,
            profile: Profile::Tapered,
            move_overhead_ms: 30,
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
}

impl Engine {
    /// An engine with `config`.
    pub fn new(config: Config) -> Engine {
        Engine {
            tablebases: None,
            seed: 0x5EED,
            tt: tt::Table::new(config.hash_mb),
            history: ordering::History::new(),
            config,
        }
    }

    /// Current settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, mb: usize) {
        self.config.hash_mb = mb;
        // Free the old table first so the two never need memory at the same time.
        self.tt = tt::Table::new(1);
        self.tt = tt::Table::new(mb);
    }

    /// Sets the move overhead in milliseconds.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.config.move_overhead_ms = ms;
    }

    /// Gives the search Syzygy tables to probe (or takes them away).
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases;
        self.tt.clear();
    }

    /// Switches the evaluation profile.
    pub fn set_profile(&mut self, profile: Profile) {
        self.config.profile = profile;
        self.tt.clear();
    }

    /// The Syzygy tables the search probes, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Forgets everything learned (new game); a weakened level gets new evaluation errors.
    pub fn clear(&mut self) {
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.tt.clear();
        self.history = ordering::History::new();
    }

    /// Searches `root` at the level `limits` names; `history` holds the keys (`node::key_of`)
    /// of the game's positions before it, oldest first, so that repetitions are recognised.
    pub fn search(
        &mut self,
        root: &Chess,
        history: &[u64],
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
        let limits = &limits;
        let blunders = strength::blunders(node::key_of(root), self.seed, level.blunder_percent);
        let mut searcher = search::Searcher::new(
            &mut self.tt,
            &mut self.history,
            Evaluator::new(self.config.profile),
            control,
            limits,
            root.turn(),
            self.config.move_overhead_ms,
            history,
        )
        .with_tablebases(self.tablebases.as_deref())
        .with_noise(level.noise, self.seed)
        .with_table_salt(strength::table_salt(level_number))
        .with_root_moves(&limits.searchmoves)
        .with_lines(limits.multipv.max(1) as usize)
        .with_mate_exit(!asked_depth)
        .with_quiescence(!blunders);
        let max_depth = limits.depth.unwrap_or(u32::MAX);
        searcher.run(root, max_depth, on_info)
    }
}
