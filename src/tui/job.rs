//! What the screens ask of the search service and what comes back: the one vocabulary the
//! screens, the runner and the service share (none of them imports another's internals).

use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::{Chess, Move};

use crate::engine::{Info, Limits};
use crate::external::EngineSpec;
use crate::player::Source;
use crate::review::analyse::PositionEval;
use crate::tablebase::RootMove;

static GENERATION: AtomicU64 = AtomicU64::new(1);

/// A generation no other request of this process has had: a report is matched to the screen
/// and the state that asked for it, so one screen never takes another's (or an old) result.
pub(crate) fn next_generation() -> u64 {
    GENERATION.fetch_add(1, Ordering::Relaxed) + 1
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's move in the game.
    Play,
    /// A suggestion for the human to move.
    Hint,
    /// Judging a draw offer.
    DrawOffer,
    /// The analysis board's lines (`limits.multipv` of them), up to the limits' cap.
    Analyse,
    /// A position evaluated as the review evaluates it (answered by
    /// [`EngineEvent::Judged`]): the training's check of an answer to a mistake.
    Judge,
}

/// Who answers a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mover {
    /// Knightfall's own player (book, tablebases, search at the limits' level).
    Knightfall,
    /// Another UCI engine, run as a child process.
    External(EngineSpec),
}

/// One search to run.
#[derive(Clone, Debug)]
pub struct Request {
    /// The app's generation when it asked.
    pub generation: u64,
    /// What the answer is for.
    pub purpose: Purpose,
    /// The position to search.
    pub pos: Chess,
    /// Repetition keys of the game before `pos`.
    pub history: Vec<u64>,
    /// What the search may spend, and at which level.
    pub limits: Limits,
    /// Who answers.
    pub mover: Mover,
    /// The game's start position when it is not the standard one (for external engines).
    pub start_fen: Option<String>,
    /// The game's moves from the start to `pos` (for external engines).
    pub moves: Vec<Move>,
}

impl Request {
    /// A full-strength search of `game`'s position for `ms` milliseconds, by Knightfall: the
    /// engine's reply (a puzzle's refutation of a wrong move).
    pub(crate) fn reply(generation: u64, game: &crate::game::Game, ms: u64) -> Request {
        Request {
            generation,
            purpose: Purpose::Analyse,
            pos: game.position().clone(),
            history: game.history_keys().to_vec(),
            limits: Limits {
                movetime: Some(ms),
                ..Limits::default()
            },
            mover: Mover::Knightfall,
            start_fen: game.start_fen().map(str::to_string),
            moves: game.moves().to_vec(),
        }
    }

    /// `game`'s position evaluated as the review evaluates a position (the tablebases'
    /// verdict, or a full-strength search of `ms` milliseconds), to judge the move that led
    /// there by the review's rules.
    pub(crate) fn judge(generation: u64, game: &crate::game::Game, ms: u64) -> Request {
        Request {
            purpose: Purpose::Judge,
            ..Request::reply(generation, game, ms)
        }
    }
}

/// A report from the search worker, tagged with the generation it was asked for.
#[derive(Clone, Debug)]
pub enum EngineEvent {
    /// Progress of the running search.
    Info {
        /// Generation of the request.
        generation: u64,
        /// The report.
        info: Info,
    },
    /// The search failed (Knightfall's search panicked; the worker carries on with a fresh
    /// engine).
    Failed {
        /// Generation of the request.
        generation: u64,
        /// What went wrong.
        message: String,
    },
    /// The engine that had to move cannot go on (an external engine crashed, stopped
    /// answering or played an illegal move): its side forfeits the game.
    Forfeit {
        /// Generation of the request.
        generation: u64,
        /// What went wrong, for the message line.
        message: String,
        /// It played an illegal move or none (a rules infraction), rather than crashing or
        /// falling silent (an abandoned game).
        illegal: bool,
    },
    /// An external engine started and gave its name (`id name`).
    Identified {
        /// Generation of the request it was started for.
        generation: u64,
        /// The name it gave.
        name: String,
    },
    /// Something the player should know about the engine's sources (a tablebase file that
    /// failed and is no longer used).
    Warning(String),
    /// The search finished.
    Done {
        /// Generation of the request.
        generation: u64,
        /// What it was for.
        purpose: Purpose,
        /// The best move (none when there is no legal move).
        best: Option<Move>,
        /// Score from the side to move's view.
        score: i32,
        /// Where the move came from.
        source: Source,
        /// A note for the panel (the tablebase verdict), if any.
        note: Option<String>,
    },
    /// The time per position of the review about to come in: the time asked for, or that of
    /// the review the cache holds of the game (its other positions are searched at it too).
    ReviewTime {
        /// Generation of the review.
        generation: u64,
        /// Milliseconds per position.
        movetime_ms: u64,
    },
    /// A position asked to be judged ([`Purpose::Judge`]) was evaluated (or its search
    /// failed, and why).
    Judged {
        /// Generation of the request.
        generation: u64,
        /// The evaluation, as the review would have it.
        eval: Result<PositionEval, String>,
        /// Whether Knightfall's own search made it (judged on Stockfish's scale, as its
        /// reviews are), not another engine.
        own: bool,
    },
    /// A position of a review was searched (or its search failed, and why).
    Reviewed {
        /// Generation of the review.
        generation: u64,
        /// The position: plies from the game's start.
        ply: usize,
        /// What the search found.
        eval: Result<PositionEval, String>,
    },
    /// What the book and the tablebases know of an analysed position, before the search.
    Sources {
        /// Generation of the request.
        generation: u64,
        /// The book's moves with their weights.
        book: Vec<(Move, u16)>,
        /// Every move's tablebase verdict, best first (empty out of the tables' range).
        tablebase: Vec<RootMove>,
    },
    /// Every position of a review was searched (or the review was stopped).
    ReviewDone {
        /// Generation of the review.
        generation: u64,
    },
    /// How the review of every game of the library is going.
    Bulk(Box<BulkReport>),
}

/// How the review of every game of the library (see [`crate::store::library::bulk`]) is
/// going, as the library screen shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BulkReport {
    /// How far it is.
    pub progress: crate::store::library::bulk::Progress,
    /// Whether it is still under way (or ended: done, stopped or failed).
    pub running: bool,
    /// Whether it waits for the game being played to end.
    pub paused: bool,
    /// Why it failed, when it did.
    pub error: Option<String>,
}
