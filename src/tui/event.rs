//! One channel for everything the main loop reacts to: terminal input and engine reports.

use std::thread;

use crossbeam_channel::Sender;
use crossterm::event::{self as ct, KeyEvent, MouseEvent};

use super::job::EngineEvent;

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

/// Starts the input thread and one that turns SIGTERM, SIGHUP and SIGINT into
/// [`Event::Terminate`], both sending to `tx`.
pub fn spawn_input_and_signals(tx: Sender<Event>) {
    spawn_input(tx.clone());
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ]) {
        thread::spawn(move || {
            if signals.forever().next().is_some() {
                let _ = tx.send(Event::Terminate);
            }
        });
    }
}
