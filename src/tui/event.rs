//! One channel for everything the main loop reacts to: terminal input and engine reports.

use std::thread;

use crossbeam_channel::Sender;
use crossterm::event::{self as ct, KeyEvent, MouseEvent};
use shakmaty::Move;

use super::app::Source;
use crate::engine::Info;

/// What a search was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's move in the game.
    Play,
    /// A suggestion for the human to move.
    Hint,
    /// Judging a draw offer.
    DrawOffer,
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
    /// The search panicked; the worker carries on with a fresh engine.
    Failed {
        /// Generation of the request.
        generation: u64,
        /// The panic message.
        message: String,
    },
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

/// Everything the main loop receives.
#[derive(Clone, Debug)]
pub enum Event {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event.
    Mouse(MouseEvent),
    /// The terminal changed size.
    Resize,
    /// An engine report.
    Engine(EngineEvent),
    /// SIGTERM or SIGHUP: leave as if the player quit.
    Terminate,
}

/// Starts the thread that reads terminal input and forwards it; it ends when the receiver is gone.
pub fn spawn_input(tx: Sender<Event>) {
    thread::spawn(move || {
        loop {
            let event = match ct::read() {
                Ok(ct::Event::Key(k)) if k.kind != ct::KeyEventKind::Release => Event::Key(k),
                Ok(ct::Event::Mouse(m)) => Event::Mouse(m),
                Ok(ct::Event::Resize(..)) => Event::Resize,
                Ok(_) => continue,
                Err(_) => Event::Terminate,
            };
            let stop = matches!(event, Event::Terminate);
            if tx.send(event).is_err() || stop {
                return;
            }
        }
    });
}
