//! How two Knightfalls find each other: the host listens on a port (IPv6 and IPv4) and takes
//! the first caller who knows the code; the guest connects to the address the host gave.
//! Then each says who it is and the host says what game they play.

use std::io;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::channel::{Channel, NetError, Role};
use super::code::Code;
use super::message::{Colour, Message};

/// A game's moves with the mover's clock after each, in milliseconds, as the two sides
/// exchange them to resume a game.
pub type History = Vec<(shakmaty::uci::UciMove, Option<u64>)>;

/// The port a host listens on unless told another.
pub const DEFAULT_PORT: u16 = 7777;

/// How long a caller has to finish the handshake, and the guest to reach the host: a peer
/// that never speaks is given up after it.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The game as both sides start it, and who the other side is.
#[derive(Debug)]
pub struct Met {
    /// The channel to the other side.
    pub channel: Channel,
    /// The name the other side gave.
    pub name: String,
    /// The guest's colour.
    pub guest: Colour,
    /// The time control (`MIN+INC`), none for an untimed game.
    pub clock: Option<String>,
    /// The start position's FEN, none for the usual one.
    pub fen: Option<String>,
    /// The game's name (see [`Message::Start`]).
    pub id: String,
    /// The moves so far as the other side keeps them (empty for a new game).
    pub history: History,
}

/// What the host sets up for the game.
#[derive(Clone, Debug)]
pub struct Terms {
    /// The guest's colour.
    pub guest: Colour,
    /// The time control.
    pub clock: Option<String>,
    /// The start position.
    pub fen: Option<String>,
    /// The game's name.
    pub id: String,
    /// The moves so far as the host keeps them (empty for a new game).
    pub history: History,
}

/// Listens on `port` on every address of the machine: IPv6 and IPv4 together where the system
/// allows it, IPv4 alone where it has no IPv6.
pub fn listen(port: u16) -> io::Result<TcpListener> {
    TcpListener::bind((std::net::Ipv6Addr::UNSPECIFIED, port))
        .or_else(|_| TcpListener::bind((std::net::Ipv4Addr::UNSPECIFIED, port)))
}

/// The addresses a friend may reach this machine at on `port`: the one it goes out to the
/// internet from (its address on the local network), for each of IPv4 and IPv6 it has.
/// Nothing is sent to find them.
pub fn addresses(port: u16) -> Vec<SocketAddr> {
    let outward = |bind: &str, probe: &str| -> Option<IpAddr> {
        let socket = UdpSocket::bind(bind).ok()?;
        // A UDP "connect" only picks the route; no packet leaves.
        socket.connect(probe).ok()?;
        Some(socket.local_addr().ok()?.ip()).filter(|ip| !ip.is_unspecified())
    };
    [
        outward("0.0.0.0:0", "192.0.2.1:9"),
        outward("[::]:0", "[2001:db8::1]:9"),
    ]
    .into_iter()
    .flatten()
    .map(|ip| SocketAddr::new(ip, port))
    .collect()
}

/// Why the host's caller was not taken.
#[derive(Debug)]
pub enum Refused {
    /// The caller typed another code: the code is spent (a guess gets one try).
    WrongCode(SocketAddr),
    /// The caller was not a Knightfall speaking this protocol, or went away: the code still
    /// holds.
    Stranger(SocketAddr, NetError),
}

/// Waits on `listener` for one caller and runs the handshake with it: the channel, or why the
/// caller was refused.
pub fn accept(listener: &TcpListener, code: &Code) -> io::Result<Result<Channel, Refused>> {
    let (stream, from) = listener.accept()?;
    // A listener looked at without waiting may hand out a stream that does not wait either
    // (on some systems); the handshake waits, with its own time limit.
    stream.set_nonblocking(false)?;
    // An IPv4 caller on the IPv6 socket is named as IPv4.
    let from = SocketAddr::new(from.ip().to_canonical(), from.port());
    Ok(
        match Channel::handshake(stream, code, Role::Host, HANDSHAKE_TIMEOUT) {
            Ok(channel) => Ok(channel),
            Err(NetError::WrongCode) => Err(Refused::WrongCode(from)),
            Err(e) => Err(Refused::Stranger(from, e)),
        },
    )
}

/// Connects to the host at `address` (`HOST:PORT`, `[V6]:PORT`, or a host alone on the usual
/// port) and runs the handshake with `code`.
pub fn join(address: &str, code: &Code) -> Result<Channel, NetError> {
    // An address alone (IPv6 included, whose colons are no port) takes the usual port.
    let with_port = match address.parse::<IpAddr>() {
        Ok(ip) => SocketAddr::new(ip, DEFAULT_PORT).to_string(),
        Err(_) if !address.contains(':') => format!("{address}:{DEFAULT_PORT}"),
        Err(_) => address.to_string(),
    };
    let mut last = io::Error::new(
        io::ErrorKind::NotFound,
        format!("{address} names no address"),
    );
    for addr in with_port.to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, HANDSHAKE_TIMEOUT) {
            Ok(stream) => return Channel::handshake(stream, code, Role::Guest, HANDSHAKE_TIMEOUT),
            Err(e) => last = e,
        }
    }
    Err(NetError::Io(last))
}

/// The host's greeting on a fresh channel: its name and the game's terms out, the guest's
/// name back.
pub fn greet_guest(mut channel: Channel, name: &str, terms: &Terms) -> Result<Met, NetError> {
    channel.send(&Message::Hello { name: name.into() }.encode())?;
    channel.send(
        &Message::Start {
            id: terms.id.clone(),
            guest: terms.guest,
            clock: terms.clock.clone(),
            fen: terms.fen.clone(),
        }
        .encode(),
    )?;
    channel.send(&Message::History(terms.history.clone()).encode())?;
    let friend = match next(&mut channel)? {
        Ok(Message::Hello { name }) => name,
        _ => return Err(NetError::NotKnightfall),
    };
    let history = match next(&mut channel)? {
        Ok(Message::History(moves)) => moves,
        _ => return Err(NetError::NotKnightfall),
    };
    Ok(Met {
        channel,
        name: friend,
        guest: terms.guest,
        clock: terms.clock.clone(),
        fen: terms.fen.clone(),
        id: terms.id.clone(),
        history,
    })
}

/// The next message on `channel` that is not a ping or its answer (a Knightfall that was
/// already playing pings from the moment its link is new).
fn next(channel: &mut Channel) -> Result<Result<Message, String>, NetError> {
    // A few pings at most come first; a stream of them is no greeting.
    for _ in 0..16 {
        match Message::decode(&channel.recv()?) {
            Ok(Message::Ping(_) | Message::Pong(_)) => {}
            other => return Ok(other),
        }
    }
    Err(NetError::NotKnightfall)
}

/// The guest's greeting: its name out, the host's name and the game's terms back, then the
/// guest's moves of the game the host names (`mine` gives them from its name: none for a new
/// game) out and the host's back.
pub fn greet_host(
    mut channel: Channel,
    name: &str,
    mine: impl FnOnce(&str) -> History,
) -> Result<Met, NetError> {
    channel.send(&Message::Hello { name: name.into() }.encode())?;
    let host = match next(&mut channel)? {
        Ok(Message::Hello { name }) => name,
        _ => return Err(NetError::NotKnightfall),
    };
    let Ok(Message::Start {
        id,
        guest,
        clock,
        fen,
    }) = next(&mut channel)?
    else {
        return Err(NetError::NotKnightfall);
    };
    channel.send(&Message::History(mine(&id)).encode())?;
    let history = match next(&mut channel)? {
        Ok(Message::History(moves)) => moves,
        _ => return Err(NetError::NotKnightfall),
    };
    Ok(Met {
        channel,
        name: host,
        guest,
        clock,
        fen,
        id,
        history,
    })
}

/// The game both sides go on with, from the host's moves and the guest's: the longer when
/// one begins with the other (a move sent as the link broke is kept), the host's otherwise.
pub fn merged(host: &History, guest: &History) -> History {
    let same = |a: &History, b: &History| a.iter().zip(b).all(|(x, y)| x.0 == y.0);
    if guest.len() > host.len() && same(host, guest) {
        guest.clone()
    } else {
        host.clone()
    }
}

/// The wrong codes a host takes while it waits for its friend to come back, before its door
/// stays shut for the game.
const WRONG_TRIES: u32 = 3;

/// How often a guest whose link broke calls the host again.
const REDIAL: Duration = Duration::from_secs(2);

/// How a side finds the other again when the link breaks: the host listens on, the guest
/// calls again, both with the game's code.
#[derive(Debug)]
pub enum Redial {
    /// The host's listener.
    Host(TcpListener, Code),
    /// The host's address.
    Guest(String, Code),
}

/// The way back to the friend while a game is on: shut while the link holds, open once it
/// broke (the host takes a caller with the game's code, the guest calls every two seconds),
/// shut again when the friend is back. What it finds goes to `back`: a channel, or a word for
/// the player.
pub struct Door {
    open: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Door {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Door").finish_non_exhaustive()
    }
}

impl Door {
    /// The door for `redial`, shut.
    pub fn start(
        redial: Redial,
        back: impl Fn(Result<Channel, String>) + Send + 'static,
    ) -> io::Result<Door> {
        let open = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (o, s) = (open.clone(), stop.clone());
        let thread = match redial {
            Redial::Host(listener, code) => {
                listener.set_nonblocking(true)?;
                thread::Builder::new()
                    .name("knightfall-door".into())
                    .spawn(move || listen_again(&listener, &code, &o, &s, &back))?
            }
            Redial::Guest(address, code) => thread::Builder::new()
                .name("knightfall-redial".into())
                .spawn(move || call_again(&address, &code, &o, &s, &back))?,
        };
        Ok(Door {
            open,
            stop,
            thread: Some(thread),
        })
    }

    /// Opens the door (the link broke) or shuts it (the friend is back, or the game over).
    pub fn set_open(&self, open: bool) {
        self.open.store(open, Ordering::SeqCst);
    }
}

impl Drop for Door {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Waits `step` in short sleeps, less if `stop` is set meanwhile.
fn pause(step: Duration, stop: &AtomicBool) {
    let mut waited = Duration::ZERO;
    while waited < step && !stop.load(Ordering::SeqCst) {
        thread::sleep(Duration::from_millis(50));
        waited += Duration::from_millis(50);
    }
}

fn listen_again(
    listener: &TcpListener,
    code: &Code,
    open: &AtomicBool,
    stop: &AtomicBool,
    back: &dyn Fn(Result<Channel, String>),
) {
    let mut wrong = 0;
    while !stop.load(Ordering::SeqCst) {
        let (stream, from) = match listener.accept() {
            Ok(caller) => caller,
            Err(_) => {
                pause(Duration::from_millis(100), stop);
                continue;
            }
        };
        // A caller while the friend is there, or once the door is shut for good, is turned
        // away unheard.
        if !open.load(Ordering::SeqCst)
            || wrong >= WRONG_TRIES
            || stream.set_nonblocking(false).is_err()
        {
            continue;
        }
        match Channel::handshake(stream, code, Role::Host, HANDSHAKE_TIMEOUT) {
            Ok(channel) => {
                open.store(false, Ordering::SeqCst);
                back(Ok(channel));
            }
            Err(NetError::WrongCode) => {
                wrong += 1;
                let from = from.ip().to_canonical();
                back(Err(if wrong >= WRONG_TRIES {
                    format!("{from} tried a wrong code: no one else is let in for this game")
                } else {
                    format!("{from} tried a wrong code")
                }));
            }
            Err(_) => {}
        }
    }
}

fn call_again(
    address: &str,
    code: &Code,
    open: &AtomicBool,
    stop: &AtomicBool,
    back: &dyn Fn(Result<Channel, String>),
) {
    while !stop.load(Ordering::SeqCst) {
        if open.load(Ordering::SeqCst) {
            match join(address, code) {
                Ok(channel) => {
                    open.store(false, Ordering::SeqCst);
                    back(Ok(channel));
                }
                Err(NetError::WrongCode) => {
                    // The host has another code now (it was started again): calling on is
                    // no use.
                    open.store(false, Ordering::SeqCst);
                    back(Err(
                        "the host refused the game's code: it was started again, so \
                              join with its new code"
                            .into(),
                    ));
                }
                Err(_) => {}
            }
        }
        pause(REDIAL, stop);
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use super::*;

    #[test]
    fn the_longer_record_wins_when_it_goes_on_from_the_other_and_the_hosts_otherwise() {
        let h = |moves: &[&str]| -> History {
            moves.iter().map(|m| (m.parse().unwrap(), None)).collect()
        };
        let (a, ab, ac) = (h(&["e2e4"]), h(&["e2e4", "e7e5"]), h(&["e2e4", "c7c5"]));
        assert_eq!(merged(&a, &ab), ab);
        assert_eq!(merged(&ab, &a), ab);
        assert_eq!(merged(&ab, &ac), ab);
        assert_eq!(merged(&h(&[]), &ac), ac);
        assert_eq!(merged(&ab, &h(&["d2d4", "d7d5", "c2c4"])), ab);
    }

    #[test]
    fn a_guest_with_the_code_meets_the_host_and_a_wrong_code_is_told_apart() {
        let listener = listen(0).unwrap();
        let port = listener.local_addr().unwrap().port();
        let code = Code::random();
        let other = std::iter::repeat_with(Code::random)
            .find(|c| *c != code)
            .unwrap();
        let host = std::thread::spawn(move || {
            // A stranger's bytes do not spend the code, a wrong code does.
            let first = accept(&listener, &code).unwrap();
            assert!(matches!(first, Err(Refused::Stranger(..))), "{first:?}");
            let second = accept(&listener, &code).unwrap();
            assert!(matches!(second, Err(Refused::WrongCode(_))), "{second:?}");
            let channel = accept(&listener, &code).unwrap().unwrap();
            let terms = Terms {
                guest: Colour::Black,
                clock: Some("5+3".into()),
                fen: None,
                id: "abc123".into(),
                history: vec![("e2e4".parse().unwrap(), Some(1000))],
            };
            greet_guest(channel, "Ana", &terms).unwrap().name
        });
        let address = format!("127.0.0.1:{port}");
        {
            use std::io::Write as _;
            let mut stranger = TcpStream::connect(&address).unwrap();
            stranger.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        }
        assert!(matches!(join(&address, &other), Err(NetError::WrongCode)));
        let met = greet_host(join(&address, &code).unwrap(), "Bob", |id| {
            assert_eq!(id, "abc123");
            Vec::new()
        })
        .unwrap();
        assert_eq!(met.name, "Ana");
        assert_eq!(met.history.len(), 1);
        assert_eq!(met.guest, Colour::Black);
        assert_eq!(met.clock.as_deref(), Some("5+3"));
        assert_eq!(host.join().unwrap(), "Bob");
    }
}
