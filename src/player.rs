//! The one engine path: a position, the game before it, the limits (level included) and the
//! sources (book, tablebases) go in; a book move, a tablebase move or a search's move comes out,
//! with its progress reports on the way. UCI, the terminal game (moves, hints, draw judgement,
//! watching) and `watch --headless` all decide Knightfall's moves here.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use shakmaty::{Chess, Move};

use crate::book::{Book, BookOptions, BookRng};
use crate::engine::score::TB_WIN;
use crate::engine::{Config, Control, Engine, Info, Limits, SearchResult};
use crate::tablebase::{RootMove, Tablebases, Wdl};

/// Where a move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Source {
    /// The engine's search.
    #[default]
    Search,
    /// The opening book.
    Book,
    /// Syzygy tablebases at the root.
    Tablebase,
}

impl Source {
    /// A word for the analysis panel.
    pub fn label(self) -> &'static str {
        match self {
            Source::Search => "search",
            Source::Book => "book",
            Source::Tablebase => "tablebase",
        }
    }
}

/// Which moves may be taken without a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// Book and tablebase moves first, as in a game.
    Allowed,
    /// Always search (judging a position, not choosing a move to play).
    SearchOnly,
}

/// What the player decided: the move with the search's figures (depth and nodes 0, the move
/// alone as the PV, when no search ran), and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move, score (side to move's view), depth, nodes and PV.
    pub result: SearchResult,
    /// Where the move came from.
    pub source: Source,
    /// The tablebase verdict of a tablebase move.
    pub tablebase: Option<RootMove>,
}

impl Decision {
    fn known(mv: Move, score: i32, source: Source, tablebase: Option<RootMove>) -> Decision {
        Decision {
            result: SearchResult {
                best: Some(mv),
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                pv: vec![mv],
            },
            source,
            tablebase,
        }
    }

    /// A note for the analysis panel: the tablebase verdict, if the tables chose the move.
    pub fn note(&self) -> Option<String> {
        self.tablebase
            .as_ref()
            .map(|t| format!("tablebase {}, DTZ {}", t.outcome_word(), t.dtz))
    }
}

/// The search score of a tablebase root move, from the side to move's view: wins and losses
/// sit in the tablebase band, nearer zeroing moves scoring higher; anything else is a draw.
pub fn tablebase_score(root: &RootMove) -> i32 {
    match root.wdl {
        Wdl::Win => TB_WIN - root.dtz.abs(),
        Wdl::Loss => -TB_WIN + root.dtz.abs(),
        _ => 0,
    }
}

/// Knightfall as a player: its engine (with the transposition table kept between moves), its
/// opening book and the tablebases the engine probes.
pub struct Player {
    engine: Engine,
    book: Option<Book>,
    book_enabled: bool,
    book_options: BookOptions,
    rng: BookRng,
}

impl Player {
    /// A player with `config`, `book` and `tablebases`.
    pub fn new(config: Config, book: Option<Book>, tablebases: Option<Arc<Tablebases>>) -> Player {
        let mut engine = Engine::new(config);
        engine.set_tablebases(tablebases);
        Player {
            engine,
            book,
            book_enabled: true,
            book_options: BookOptions::default(),
            rng: BookRng::from_entropy(),
        }
    }

    /// The engine, for settings such as the hash size.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The opening book, if one is loaded.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// Replaces the opening book.
    pub fn set_book(&mut self, book: Option<Book>) {
        self.book = book;
    }

    /// Turns book moves on or off without unloading the book.
    pub fn set_book_enabled(&mut self, on: bool) {
        self.book_enabled = on;
    }

    /// Replaces the tablebases the root and the search probe.
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.engine.set_tablebases(tablebases);
    }

    /// Warnings from the sources since the last call: a tablebase dropped after it failed.
    pub fn take_warnings(&mut self) -> Vec<String> {
        self.engine
            .tablebases()
            .map(|tb| tb.take_warnings())
            .unwrap_or_default()
    }

    /// Forgets the last game (a new one starts).
    pub fn new_game(&mut self) {
        self.engine.clear();
    }

    /// Chooses a move for `pos`: a book move, a tablebase move, or a search within `limits` at
    /// their level, with the tablebases probed inside it. `history` holds the repetition keys
    /// of the positions before `pos`. A panic inside the search is caught: the engine starts
    /// afresh (same settings) and the panic's message comes back as the error.
    pub fn decide(
        &mut self,
        pos: &Chess,
        history: &[u64],
        limits: &Limits,
        known: Known,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Decision, String> {
        if known == Known::Allowed
            && let Some(decision) = self.known_move(pos, &limits.searchmoves)
        {
            return Ok(decision);
        }
        let engine = &mut self.engine;
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            engine.search(pos, history, limits, control, on_info)
        }));
        match searched {
            Ok(result) => Ok(Decision {
                result,
                source: Source::Search,
                tablebase: None,
            }),
            Err(payload) => {
                // The tables may be inconsistent after a panic: start from a fresh engine.
                let tablebases = self.engine.tablebases().cloned();
                self.engine = Engine::new(self.engine.config().clone());
                self.engine.set_tablebases(tablebases);
                Err(panic_message(payload.as_ref()))
            }
        }
    }

    /// A move decided without searching: from the book, or from the tables at the root; only
    /// one of `allowed` when that is not empty.
    fn known_move(&mut self, pos: &Chess, allowed: &[Move]) -> Option<Decision> {
        let ok = |m: &Move| allowed.is_empty() || allowed.contains(m);
        if self.book_enabled
            && let Some(book) = &self.book
            && let Some(m) = book.pick(pos, &self.book_options, &mut self.rng)
            && ok(&m)
        {
            return Some(Decision::known(m, 0, Source::Book, None));
        }
        let tables = self.engine.tablebases()?;
        let root = tables
            .rank_root_moves(pos)
            .ok()?
            .into_iter()
            .find(|r| ok(&r.mv))?;
        let score = tablebase_score(&root);
        Some(Decision::known(
            root.mv,
            score,
            Source::Tablebase,
            Some(root),
        ))
    }
}

/// The text of a caught panic.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown error".to_string())
}
