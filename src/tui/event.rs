//! One channel for everything the main loop reacts to: terminal input and engine reports.

use std::sync::{Mutex, Once};
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
    /// The terminal was given back and taken again (after Ctrl-Z and `fg`): draw it all anew.
    Redraw,
    /// SIGTERM, SIGHUP, SIGINT or SIGQUIT: leave as if the player quit.
    Terminate,
    /// An engine checked on a thread of its own (the handshake may take seconds): whether it
    /// answered as a UCI engine, or why not.
    Checked(Box<crate::external::EngineSpec>, Result<(), String>),
    /// What the friend at the other Knightfall did, or that the link is gone.
    Peer(crate::net::peer::PeerEvent),
    /// The way back to the friend found them (a channel to start the link again on, taken
    /// once), or has a word for the player.
    Door(Result<std::sync::Arc<std::sync::Mutex<Option<crate::net::channel::Channel>>>, String>),
    /// A line typed in the plain-text mode.
    Line(String),
    /// The wait for the friend has news for the player.
    News(crate::net::meeting::News),
    /// The wait for the friend is over: the game met for (taken once), or why not.
    Met(crate::net::meeting::Handed),
}

/// Where terminal input and signals go: the screen in front (the game, then perhaps a review
/// or the board). One reader serves them all, so no key is lost to a screen that has closed.
static TARGET: Mutex<Option<Sender<Event>>> = Mutex::new(None);
static STARTED: Once = Once::new();
static SIGNALS_STARTED: Once = Once::new();
/// Stops Knightfall as SIGTSTP asks (a shell's Ctrl-Z or `kill -TSTP`), with the terminal
/// given back meanwhile; once continued (`fg`), takes the terminal again and redraws.
fn suspend() {
    let had_screen = super::terminal::suspend();
    // Stops the process here, as SIGTSTP would have without a handler; returns on SIGCONT.
    let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP);
    if had_screen {
        super::terminal::resume();
        forward(Event::Redraw);
    }
}

/// Sends `event` to the screen in front, if there is one.
fn forward(event: Event) {
    let target = TARGET.lock().ok().and_then(|t| t.clone());
    if let Some(tx) = target {
        let _ = tx.send(event);
    }
}

/// How often the terminal is checked for a hang-up.
const HANG_UP_CHECK: std::time::Duration = std::time::Duration::from_millis(250);

/// Whether the terminal on standard input has hung up (its other side is closed).
fn terminal_hung_up() -> bool {
    let mut fd = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: 0,
        revents: 0,
    };
    // SAFETY: one valid pollfd, no wait.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLHUP | libc::POLLERR) != 0
}

/// Sends terminal input (keys, mouse, resizes) and SIGTERM, SIGHUP, SIGINT and SIGQUIT (as
/// [`Event::Terminate`]) to `tx` from now on, starting the reading threads the first time.
pub(crate) fn route_input_to(tx: Sender<Event>) {
    if let Ok(mut target) = TARGET.lock() {
        *target = Some(tx);
    }
    STARTED.call_once(|| {
        thread::spawn(|| {
            loop {
                let event = match ct::read() {
                    Ok(ct::Event::Key(k)) if k.kind != ct::KeyEventKind::Release => Event::Key(k),
                    Ok(ct::Event::Mouse(m)) => Event::Mouse(m),
                    Ok(ct::Event::Resize(..)) => Event::Resize,
                    Ok(_) => continue,
                    // The terminal is gone (SIGHUP): leave.
                    Err(_) => {
                        forward(Event::Terminate);
                        return;
                    }
                };
                forward(event);
            }
        });
        // A terminal that went away without a SIGHUP (the signal went to a shell that ignores
        // it) reads as endless end-of-file, which the reader above loops over without a word:
        // watch for the hang-up beside it.
        if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            thread::spawn(|| {
                while !terminal_hung_up() {
                    thread::sleep(HANG_UP_CHECK);
                }
                forward(Event::Terminate);
            });
        }
        route_signals();
    });
}

/// Sends SIGTERM, SIGHUP, SIGINT and SIGQUIT (as [`Event::Terminate`]) to `tx` from now on,
/// without reading the terminal: for `watch --headless`, which has none to read.
pub(crate) fn route_signals_to(tx: Sender<Event>) {
    if let Ok(mut target) = TARGET.lock() {
        *target = Some(tx);
    }
    route_signals();
}

/// Starts the thread that turns signals into events, the first time.
fn route_signals() {
    SIGNALS_STARTED.call_once(|| {
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGQUIT,
            signal_hook::consts::SIGTSTP,
        ]) {
            thread::spawn(move || {
                for signal in signals.forever() {
                    if signal == signal_hook::consts::SIGTSTP {
                        suspend();
                    } else {
                        forward(Event::Terminate);
                    }
                }
            });
        }
    });
}
