//! The one engine path: a position, the game before it, the limits (level included) and the
//! sources (book, tablebases) go in; a book move, a tablebase move or a search's move comes out,
//! with its progress reports on the way. UCI, the terminal game (moves, hints, draw judgement,
//! watching) and `watch --headless` all decide Knightfall's moves here.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use crate::book::{Book, BookOptions};
use crate::engine::score::TB_WIN;
use crate::engine::{Config, Control, Engine, Info, Limits, SearchResult};
use crate::rng::Rng;
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
            Source::Search => "its search",
            Source::Book => "the opening book",
            Source::Tablebase => "the endgame tables",
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
pub(crate) fn tablebase_score(root: &RootMove) -> i32 {
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
    rng: Rng,
    /// Every search panics (`KNIGHTFALL_FAIL_SEARCH` set): how the tests make a search fail,
    /// to see that every screen says so.
    fail_searches: bool,
}

/// Set, this makes every search panic, for tests of how a failed search is reported.
pub(crate) const FAIL_SEARCH_VAR: &str = "KNIGHTFALL_FAIL_SEARCH";

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
            rng: Rng::from_entropy(),
            fail_searches: std::env::var_os(FAIL_SEARCH_VAR).is_some(),
        }
    }

    /// The engine, for settings such as the hash size.
    pub(crate) fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The opening book, if one is loaded.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// Replaces the opening book.
    pub(crate) fn set_book(&mut self, book: Option<Book>) {
        self.book = book;
    }

    /// Turns book moves on or off without unloading the book.
    pub(crate) fn set_book_enabled(&mut self, on: bool) {
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
    pub(crate) fn new_game(&mut self) {
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
        let mut limits = std::borrow::Cow::Borrowed(limits);
        let mut verdict = None;
        // Several lines asked for is analysis: the lines come from a search.
        if known == Known::Allowed && limits.multipv <= 1 {
            if let Some(decision) = self.book_move(pos, &limits.searchmoves) {
                return Ok(decision);
            }
            match self.tablebase_root(pos, &limits.searchmoves) {
                TablebaseRoot::Play(decision) => return Ok(*decision),
                TablebaseRoot::SearchAmong(moves, best) => {
                    limits.to_mut().searchmoves = moves;
                    verdict = Some(best);
                }
                TablebaseRoot::Unknown => {}
            }
        }
        let engine = &mut self.engine;
        let fail = self.fail_searches;
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            if fail {
                panic!("the search was made to fail ({FAIL_SEARCH_VAR} is set)");
            }
            engine.search(pos, history, &limits, control, on_info)
        }));
        match searched {
            Ok(mut result) => {
                // The tables know the result; a mate the search found says more.
                if let Some(best) = &verdict
                    && result.score.abs() < crate::engine::score::MATE_BOUND
                {
                    result.score = tablebase_score(best);
                }
                Ok(Decision {
                    result,
                    source: Source::Search,
                    tablebase: verdict,
                })
            }
            Err(payload) => {
                // The tables may be inconsistent after a panic: start from a fresh engine.
                let tablebases = self.engine.tablebases().cloned();
                self.engine = Engine::new(self.engine.config().clone());
                self.engine.set_tablebases(tablebases);
                Err(panic_message(payload.as_ref()))
            }
        }
    }

    /// A book move for `pos`, only one of `allowed` when that is not empty.
    fn book_move(&mut self, pos: &Chess, allowed: &[Move]) -> Option<Decision> {
        let book = self.book.as_ref().filter(|_| self.book_enabled)?;
        let m = book.pick(pos, &self.book_options, &mut self.rng)?;
        (allowed.is_empty() || allowed.contains(&m))
            .then(|| Decision::known(m, 0, Source::Book, None))
    }

    /// What the tables say at the root (among `allowed`, when that is not empty). A won or
    /// drawn position is searched among the moves that keep the result, so the engine mates
    /// the way a player would (a mate in two, not the fastest way to the next capture) and
    /// can never spoil it; a lost one plays the longest resistance the tables know.
    fn tablebase_root(&self, pos: &Chess, allowed: &[Move]) -> TablebaseRoot {
        let Some(tables) = self.engine.tablebases() else {
            return TablebaseRoot::Unknown;
        };
        let Ok(ranked) = tables.rank_root_moves(pos) else {
            return TablebaseRoot::Unknown;
        };
        let ranked: Vec<RootMove> = ranked
            .into_iter()
            .filter(|r| allowed.is_empty() || allowed.contains(&r.mv))
            .collect();
        let Some(best) = ranked.first().cloned() else {
            return TablebaseRoot::Unknown;
        };
        // A win must be converted within the fifty-move rule: only moves that leave room for
        // it (a margin of ten plies) are left to the search; without room, the tables move.
        let halfmoves = pos.halfmoves() as i32;
        let room =
            |r: &RootMove| r.wdl != Wdl::Win || r.mv.is_zeroing() || halfmoves + r.dtz.abs() <= 90;
        let keeping: Vec<Move> = ranked
            .iter()
            .filter(|r| r.wdl == best.wdl && room(r))
            .map(|r| r.mv)
            .collect();
        let holds = matches!(best.wdl, Wdl::Win | Wdl::CursedWin | Wdl::Draw);
        if holds && keeping.len() > 1 {
            TablebaseRoot::SearchAmong(keeping, best)
        } else {
            let score = tablebase_score(&best);
            TablebaseRoot::Play(Box::new(Decision::known(
                best.mv,
                score,
                Source::Tablebase,
                Some(best),
            )))
        }
    }
}

/// What the tables decide at the root.
enum TablebaseRoot {
    /// Out of the tables' range.
    Unknown,
    /// Play this move (the only one that keeps the result, or the longest resistance).
    Play(Box<Decision>),
    /// Search among these moves, which keep the result of the best one.
    SearchAmong(Vec<Move>, RootMove),
}

/// The text of a caught panic.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown error".to_string())
}
