//! Waiting for the friend, as the command line and the screens both do it: the host listens
//! with a code, a new one after every wrong try, until a caller knows it and the two have
//! greeted; the guest calls the address with the code and greets. Either may run on a thread
//! of its own ([`Meeting`]), called off when the player stops waiting.

use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::channel::NetError;
use super::code::Code;
use super::meet::{self, History, Met, Redial, Refused, Terms};

/// What a side waiting for the friend has to tell its player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum News {
    /// The host listens on `port` with `code`: the invitation to pass on.
    Listening {
        /// The code the friend types.
        code: Code,
        /// The port listened on.
        port: u16,
    },
    /// A caller at this address typed another code: it is spent (a guess gets one try), and
    /// a new one follows as [`News::Listening`].
    WrongCode(SocketAddr),
    /// A caller was turned away, for this reason (it was no Knightfall, or went away); the
    /// code still holds.
    Stranger(SocketAddr, String),
}

impl News {
    /// The news in a sentence for the player.
    pub fn said(&self) -> String {
        match self {
            News::Listening { code, port } => {
                format!("Waiting for your friend with the code {code} on port {port}.")
            }
            News::WrongCode(from) => format!(
                "Someone at {from} tried a wrong code: that code is spent, so a guess gets one \
                 try."
            ),
            News::Stranger(from, why) => format!(
                "A connection from {from} was turned away ({why}); the code still holds. Still \
                 waiting."
            ),
        }
    }
}

/// How long the host's wait for a caller sleeps between looks, and so how soon it sees that
/// the wait is called off.
const LOOK: Duration = Duration::from_millis(50);

/// The host's side: listens on `listener` for the friend with a new code, telling `news`
/// what happens, greets the caller who knows the code with `name` and `terms`; the game met
/// for and the way back to the friend. `None` when `stop` was set first.
pub fn host(
    listener: TcpListener,
    name: &str,
    terms: &Terms,
    stop: &AtomicBool,
    news: &dyn Fn(News),
) -> Result<Option<(Met, Redial)>, String> {
    let port = listener
        .local_addr()
        .map_err(|e| format!("the port listened on: {e}"))?
        .port();
    // Looked at between sleeps, so the wait can be called off.
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("the port listened on: {e}"))?;
    let mut code = Code::random();
    news(News::Listening { code, port });
    let channel = loop {
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        match meet::accept(&listener, &code) {
            Ok(Ok(channel)) => break channel,
            Ok(Err(Refused::WrongCode(from))) => {
                code = Code::random();
                news(News::WrongCode(from));
                news(News::Listening { code, port });
            }
            Ok(Err(Refused::Stranger(from, why))) => news(News::Stranger(from, why.to_string())),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => thread::sleep(LOOK),
            Err(e) => return Err(format!("waiting for your friend: {e}")),
        }
    };
    let met = meet::greet_guest(channel, name, terms)
        .map_err(|e| format!("the friend's greeting: {e}"))?;
    Ok(Some((met, Redial::Host(listener, code))))
}

/// The guest's side: calls the host at `address` with `code` and greets it with `name`,
/// offering the moves of the game `left` (its name and moves) when the host names that game;
/// the game met for and the way back to the host.
pub fn guest(
    address: &str,
    code: Code,
    name: &str,
    left: Option<(String, History)>,
) -> Result<(Met, Redial), String> {
    let channel = match meet::join(address, &code) {
        Ok(channel) => channel,
        Err(NetError::WrongCode) => {
            return Err(format!(
                "the host refused the code {code}: check it with your friend (a wrong try \
                 spends the host's code, so ask for the new one)"
            ));
        }
        Err(e) => return Err(format!("could not join {address}: {e}")),
    };
    let mine = |id: &str| -> History {
        match left {
            Some((left, moves)) if left == id => moves,
            _ => Vec::new(),
        }
    };
    let met =
        meet::greet_host(channel, name, mine).map_err(|e| format!("the host's greeting: {e}"))?;
    Ok((met, Redial::Guest(address.to_string(), code)))
}

/// A side waiting for the friend on a thread of its own; dropping it calls the wait off.
pub struct Meeting {
    stop: Arc<AtomicBool>,
    /// The host's thread, joined when called off (its port is then free again at once); a
    /// guest's call ends by itself within the handshake's time and is not waited for.
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Meeting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Meeting").finish_non_exhaustive()
    }
}

/// How a meeting in the background ended: the game met for, or why not.
pub type Outcome = Result<(Met, Redial), String>;

impl Meeting {
    /// Hosts on `listener` in the background (see [`host`]): `news` hears what happens,
    /// `done` the outcome (not called when the meeting is called off first).
    pub fn host(
        listener: TcpListener,
        name: String,
        terms: Terms,
        news: impl Fn(News) + Send + 'static,
        done: impl FnOnce(Outcome) + Send + 'static,
    ) -> std::io::Result<Meeting> {
        let stop = Arc::new(AtomicBool::new(false));
        let halt = stop.clone();
        let thread = thread::Builder::new()
            .name("knightfall-host".into())
            .spawn(move || match host(listener, &name, &terms, &halt, &news) {
                Ok(Some(met)) => done(Ok(met)),
                Ok(None) => {}
                Err(why) => done(Err(why)),
            })?;
        Ok(Meeting {
            stop,
            thread: Some(thread),
        })
    }

    /// Joins in the background (see [`guest`]); `done` hears the outcome unless the meeting
    /// was called off first.
    pub fn guest(
        address: String,
        code: Code,
        name: String,
        left: Option<(String, History)>,
        done: impl FnOnce(Outcome) + Send + 'static,
    ) -> std::io::Result<Meeting> {
        let stop = Arc::new(AtomicBool::new(false));
        let halt = stop.clone();
        thread::Builder::new()
            .name("knightfall-join".into())
            .spawn(move || {
                let outcome = guest(&address, code, &name, left);
                // A link made after the player stopped waiting is dropped: the host sees it
                // go.
                if !halt.load(Ordering::SeqCst) {
                    done(outcome);
                }
            })?;
        Ok(Meeting { stop, thread: None })
    }
}

impl Drop for Meeting {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Tells a channel met in the background to the thread that plays on it: the outcome, taken
/// once (an event that carries it may be cloned, the channel may not).
pub type Handed = Arc<std::sync::Mutex<Option<Outcome>>>;

/// Wraps `outcome` to be handed over once.
pub fn hand(outcome: Outcome) -> Handed {
    Arc::new(std::sync::Mutex::new(Some(outcome)))
}

/// Takes the outcome handed over, once.
pub fn take(handed: &Handed) -> Option<Outcome> {
    handed.lock().ok().and_then(|mut slot| slot.take())
}
