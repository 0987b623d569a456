//! What the game asks of the search worker and what comes back: the one vocabulary the app, the
//! event loop and the worker share (none of them imports another's internals).

use shakmaty::{Chess, Move};

use crate::engine::{Info, Limits};
use crate::external::EngineSpec;
use crate::player::Source;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's move in the game.
    Play,
    /// A suggestion for the human to move.
    Hint,
    /// Judging a draw offer.
    DrawOffer,
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
}
