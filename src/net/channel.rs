//! An authenticated, encrypted channel between two Knightfalls over one TCP stream.
//!
//! The handshake: each side sends a hello (`KNIGHTFALL`, the protocol's version, its SPAKE2
//! message for the game's code), reads the other's, and both derive from SPAKE2's shared key one
//! ChaCha20-Poly1305 key for each direction. Each then sends its first sealed frame, a
//! confirmation: a side whose friend typed another code cannot open it, and the code is spent.
//! Bytes that are not a hello (another program, a port scanner) are refused before any key
//! exists, so they spend nothing.
//!
//! After it, every message is a frame: its length (4 bytes, big-endian) and the sealed bytes,
//! at most [`MAX_MESSAGE`] of them inside. Each direction counts its frames, and the count is
//! the nonce: a frame replayed, dropped, reordered or changed on the way does not open.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use hkdf::Hkdf;
use sha2::Sha256;
use spake2::{Ed25519Group, Identity, Password, Spake2};
use thiserror::Error;

use super::code::Code;

/// The protocol's version: a peer with another one is told so, not misread.
pub const VERSION: u8 = 1;
/// What a hello starts with.
const MAGIC: &[u8; 10] = b"KNIGHTFALL";
/// The length of a SPAKE2 message over Ed25519 (a tag byte and a point).
const SPAKE_LEN: usize = 33;
/// The most a message holds: a move, an offer or a line of chat is a few dozen bytes; a game
/// resumed whole is a few kilobytes.
pub const MAX_MESSAGE: usize = 16 << 10;
/// What sealing adds to a message (Poly1305's tag).
const TAG_LEN: usize = 16;
/// What both sides confirm they agreed on, sealed as their first frame.
const CONFIRM: &[u8] = b"knightfall: same code";

/// Which end of the game a side is: the two directions have keys of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The side that waits for the friend (`knightfall host`).
    Host,
    /// The side that connects (`knightfall join`).
    Guest,
}

/// What went wrong on the channel.
#[derive(Debug, Error)]
pub enum NetError {
    /// The connection failed, timed out or was closed.
    #[error("the connection failed: {0}")]
    Io(io::Error),
    /// The other side is not a Knightfall speaking this protocol.
    #[error("the other side is not Knightfall")]
    NotKnightfall,
    /// The other side speaks another version of the protocol.
    #[error("the other side's Knightfall speaks version {0} of the protocol, this one {VERSION}")]
    Version(u8),
    /// The two sides typed different codes.
    #[error("wrong code: the other side typed another one")]
    WrongCode,
    /// A frame larger than any message may be.
    #[error("the other side sent a frame of {0} bytes, more than any message")]
    TooLarge(usize),
    /// A frame that does not open: changed, replayed or out of order on the way.
    #[error("a message from the other side was changed or replayed on the way")]
    Tampered,
    /// A message too large to send.
    #[error("a message of {0} bytes is more than the channel carries")]
    TooLong(usize),
}

/// The cause is said in the message itself, not again as a source (a command's error would
/// name it twice).
impl From<io::Error> for NetError {
    fn from(e: io::Error) -> NetError {
        NetError::Io(e)
    }
}

/// One direction's key and the count of frames it sealed or opened.
struct Direction {
    cipher: ChaCha20Poly1305,
    count: u64,
}

impl Direction {
    fn new(key: &[u8; 32]) -> Direction {
        Direction {
            cipher: ChaCha20Poly1305::new(Key::from_slice(key)),
            count: 0,
        }
    }

    /// The nonce of the next frame: its count, never used twice under one key.
    fn nonce(&self) -> Nonce {
        let mut bytes = [0u8; 12];
        bytes[4..].copy_from_slice(&self.count.to_be_bytes());
        *Nonce::from_slice(&bytes)
    }
}

/// The channel once the handshake is done: one half for each direction, which
/// [`Channel::split`] gives to two threads (a game reads the other side's messages while the
/// player's go out).
pub struct Channel {
    sending: Sending,
    receiving: Receiving,
}

/// The half of a channel that seals and sends.
pub struct Sending {
    stream: TcpStream,
    direction: Direction,
}

/// The half of a channel that receives and opens.
pub struct Receiving {
    stream: TcpStream,
    direction: Direction,
}

impl std::fmt::Debug for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Channel")
            .field("peer", &self.sending.stream.peer_addr().ok())
            .field("sent", &self.sending.direction.count)
            .field("received", &self.receiving.direction.count)
            .finish()
    }
}

impl Channel {
    /// Runs the handshake on `stream` as `role` with `code`, each read waiting at most
    /// `timeout` (a peer that never speaks is given up).
    pub fn handshake(
        mut stream: TcpStream,
        code: &Code,
        role: Role,
        timeout: Duration,
    ) -> Result<Channel, NetError> {
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        stream.set_nodelay(true)?;
        let (spake, mine) = Spake2::<Ed25519Group>::start_symmetric(
            &Password::new(code.password()),
            &Identity::new(b"knightfall game"),
        );
        let mut hello = Vec::with_capacity(MAGIC.len() + 1 + SPAKE_LEN);
        hello.extend_from_slice(MAGIC);
        hello.push(VERSION);
        hello.extend_from_slice(&mine);
        stream.write_all(&hello)?;
        let mut theirs = [0u8; MAGIC.len() + 1 + SPAKE_LEN];
        // The magic first, so that a stranger is told apart before its message is waited for.
        stream.read_exact(&mut theirs[..MAGIC.len()])?;
        if &theirs[..MAGIC.len()] != MAGIC {
            return Err(NetError::NotKnightfall);
        }
        stream.read_exact(&mut theirs[MAGIC.len()..])?;
        if theirs[MAGIC.len()] != VERSION {
            return Err(NetError::Version(theirs[MAGIC.len()]));
        }
        let shared = spake
            .finish(&theirs[MAGIC.len() + 1..])
            .map_err(|_| NetError::NotKnightfall)?;
        let (host_key, guest_key) = directions(&shared);
        let (send, recv) = match role {
            Role::Host => (host_key, guest_key),
            Role::Guest => (guest_key, host_key),
        };
        let mut channel = Channel {
            receiving: Receiving {
                stream: stream.try_clone()?,
                direction: Direction::new(&recv),
            },
            sending: Sending {
                stream,
                direction: Direction::new(&send),
            },
        };
        channel.send(CONFIRM)?;
        match channel.recv() {
            Ok(confirm) if confirm == CONFIRM => Ok(channel),
            Ok(_) | Err(NetError::Tampered) => Err(NetError::WrongCode),
            Err(e) => Err(e),
        }
    }

    /// Seals `message` and sends it.
    pub fn send(&mut self, message: &[u8]) -> Result<(), NetError> {
        self.sending.send(message)
    }

    /// The next message, opened (see [`Receiving::recv`]).
    pub fn recv(&mut self) -> Result<Vec<u8>, NetError> {
        self.receiving.recv()
    }

    /// How long a read waits before it fails (`None`: for ever).
    pub fn set_read_timeout(&self, timeout: Option<Duration>) -> Result<(), NetError> {
        Ok(self.receiving.stream.set_read_timeout(timeout)?)
    }

    /// The two halves, for two threads.
    pub fn split(self) -> (Sending, Receiving) {
        (self.sending, self.receiving)
    }
}

impl Sending {
    /// Seals `message` and sends it.
    pub fn send(&mut self, message: &[u8]) -> Result<(), NetError> {
        if message.len() > MAX_MESSAGE {
            return Err(NetError::TooLong(message.len()));
        }
        let sealed = self
            .direction
            .cipher
            .encrypt(&self.direction.nonce(), message)
            .map_err(|_| NetError::TooLong(message.len()))?;
        self.direction.count += 1;
        let mut frame = Vec::with_capacity(4 + sealed.len());
        frame.extend_from_slice(&(sealed.len() as u32).to_be_bytes());
        frame.extend_from_slice(&sealed);
        self.stream.write_all(&frame)?;
        Ok(())
    }

    /// Closes the connection both ways: the other side's read ends once it has what was sent.
    pub fn close(&self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

impl Receiving {
    /// The next message, opened; an error for a frame that does not open or is too large (its
    /// bytes are never read: the channel is then to be closed).
    pub fn recv(&mut self) -> Result<Vec<u8>, NetError> {
        let mut length = [0u8; 4];
        self.stream.read_exact(&mut length)?;
        let length = u32::from_be_bytes(length) as usize;
        if length > MAX_MESSAGE + TAG_LEN {
            return Err(NetError::TooLarge(length));
        }
        let mut sealed = vec![0u8; length];
        self.stream.read_exact(&mut sealed)?;
        let message = self
            .direction
            .cipher
            .decrypt(&self.direction.nonce(), sealed.as_slice())
            .map_err(|_| NetError::Tampered)?;
        self.direction.count += 1;
        Ok(message)
    }

    /// How long a read waits before it fails (`None`: for ever).
    pub fn set_read_timeout(&self, timeout: Option<Duration>) -> Result<(), NetError> {
        Ok(self.stream.set_read_timeout(timeout)?)
    }
}

/// The two directions' keys from SPAKE2's shared key.
fn directions(shared: &[u8]) -> ([u8; 32], [u8; 32]) {
    let hk = Hkdf::<Sha256>::new(Some(b"knightfall channel"), shared);
    let (mut host, mut guest) = ([0u8; 32], [0u8; 32]);
    // Both lengths are a SHA-256 output's, which HKDF always gives.
    let _ = hk.expand(b"host to guest", &mut host);
    let _ = hk.expand(b"guest to host", &mut guest);
    (host, guest)
}

/// Both ends of a handshake over loopback (the host's first), with the host's code and the
/// guest's: for the tests of what runs on a channel.
#[cfg(test)]
pub(crate) fn loopback(
    host: Code,
    guest: Code,
) -> (Result<Channel, NetError>, Result<Channel, NetError>) {
    let wait = Duration::from_secs(10);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let address = listener.local_addr().expect("its address");
    let joiner = std::thread::spawn(move || {
        let stream = TcpStream::connect(address).expect("connected");
        Channel::handshake(stream, &guest, Role::Guest, wait)
    });
    let (stream, _) = listener.accept().expect("accepted");
    let hosted = Channel::handshake(stream, &host, Role::Host, wait);
    (hosted, joiner.join().expect("the guest's thread"))
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use std::net::TcpListener;
    use std::thread;

    use super::*;

    const WAIT: Duration = Duration::from_secs(10);

    /// A host's handshake against raw bytes: what the host makes of them.
    fn host_against(bytes: Vec<u8>, timeout: Duration) -> NetError {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let stranger = thread::spawn(move || {
            let mut stream = TcpStream::connect(address).unwrap();
            let _ = stream.write_all(&bytes);
            // Held open until the host gives up.
            let mut rest = Vec::new();
            let _ = stream.read_to_end(&mut rest);
        });
        let (stream, _) = listener.accept().unwrap();
        let code: Code = "7-maple-anchor".parse().unwrap();
        let error = Channel::handshake(stream, &code, Role::Host, timeout).unwrap_err();
        stranger.join().unwrap();
        error
    }

    #[test]
    fn the_same_code_opens_a_channel_both_ways() {
        let code = Code::random();
        let (host, guest) = loopback(code, code);
        let (mut host, mut guest) = (host.unwrap(), guest.unwrap());
        host.send(b"e2e4").unwrap();
        assert_eq!(guest.recv().unwrap(), b"e2e4");
        guest.send(b"e7e5").unwrap();
        guest.send(&[7u8; MAX_MESSAGE]).unwrap();
        assert_eq!(host.recv().unwrap(), b"e7e5");
        assert_eq!(host.recv().unwrap(), vec![7u8; MAX_MESSAGE]);
        assert!(matches!(
            host.send(&[0u8; MAX_MESSAGE + 1]),
            Err(NetError::TooLong(_))
        ));
    }

    #[test]
    fn the_halves_of_a_channel_carry_each_way_from_two_threads_and_a_close_ends_the_wait() {
        let code = Code::random();
        let (host, guest) = loopback(code, code);
        let (mut to_guest, mut from_guest) = host.unwrap().split();
        let (mut to_host, mut from_host) = guest.unwrap().split();
        from_host.set_read_timeout(None).unwrap();
        let reader = thread::spawn(move || {
            let mut got = Vec::new();
            while let Ok(m) = from_host.recv() {
                got.push(m);
            }
            got
        });
        for n in 0..50u8 {
            to_guest.send(&[n]).unwrap();
            to_host.send(&[n, n]).unwrap();
        }
        for n in 0..50u8 {
            assert_eq!(from_guest.recv().unwrap(), vec![n, n]);
        }
        // The host leaves: the guest's reader, waiting for ever, has every message, then ends.
        to_guest.close();
        let got = reader.join().unwrap();
        assert_eq!(got, (0..50u8).map(|n| vec![n]).collect::<Vec<_>>());
    }

    #[test]
    fn another_code_is_refused_on_both_sides() {
        let (host, guest) = loopback(
            "7-maple-anchor".parse().unwrap(),
            "8-maple-anchor".parse().unwrap(),
        );
        assert!(matches!(host, Err(NetError::WrongCode)), "{host:?}");
        assert!(matches!(guest, Err(NetError::WrongCode)), "{guest:?}");
    }

    #[test]
    fn a_stranger_a_newer_version_and_a_silent_peer_are_told_apart() {
        assert!(matches!(
            host_against(b"GET / HTTP/1.1\r\n\r\n".to_vec(), WAIT),
            NetError::NotKnightfall
        ));
        let mut newer = MAGIC.to_vec();
        newer.push(VERSION + 1);
        newer.extend_from_slice(&[0u8; SPAKE_LEN]);
        assert!(matches!(host_against(newer, WAIT), NetError::Version(2)));
        // A message that is no point of the curve: refused before any key exists.
        let mut garbage = MAGIC.to_vec();
        garbage.push(VERSION);
        garbage.extend_from_slice(&[0xff; SPAKE_LEN]);
        assert!(matches!(
            host_against(garbage, WAIT),
            NetError::NotKnightfall
        ));
        // Half a hello, then silence: the wait ends.
        let silent = host_against(MAGIC[..4].to_vec(), Duration::from_millis(200));
        assert!(matches!(silent, NetError::Io(_)), "{silent:?}");
    }

    #[test]
    fn a_frame_changed_replayed_or_too_large_does_not_open() {
        let code = Code::random();
        // The guest's frames pass through a relay that can change them.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let relay = TcpListener::bind("127.0.0.1:0").unwrap();
        let (host_address, relay_address) =
            (listener.local_addr().unwrap(), relay.local_addr().unwrap());
        let joiner = thread::spawn(move || {
            let stream = TcpStream::connect(relay_address).unwrap();
            let mut guest = Channel::handshake(stream, &code, Role::Guest, WAIT).unwrap();
            guest.send(b"first").unwrap();
            guest.send(b"second").unwrap();
            guest
        });
        let (mut from_guest, _) = relay.accept().unwrap();
        let mut to_host = TcpStream::connect(host_address).unwrap();
        let (host_stream, _) = listener.accept().unwrap();
        // The host's bytes pass to the guest as they are.
        let mut to_guest = from_guest.try_clone().unwrap();
        let mut back = to_host.try_clone().unwrap();
        let passing = thread::spawn(move || {
            let _ = io::copy(&mut back, &mut to_guest);
        });
        // The guest's: the hello and the confirmation as they are, then its two messages
        // replayed, changed, and a length no message has.
        let forwarding = thread::spawn(move || {
            let mut read = |n: usize| {
                let mut bytes = vec![0u8; n];
                from_guest.read_exact(&mut bytes).unwrap();
                bytes
            };
            let hello = read(MAGIC.len() + 1 + SPAKE_LEN);
            to_host.write_all(&hello).unwrap();
            let confirm = read(4 + CONFIRM.len() + TAG_LEN);
            to_host.write_all(&confirm).unwrap();
            let first = read(4 + 5 + TAG_LEN);
            let mut second = read(4 + 6 + TAG_LEN);
            to_host.write_all(&first).unwrap();
            to_host.write_all(&first).unwrap();
            second[6] ^= 1;
            to_host.write_all(&second).unwrap();
            to_host.write_all(&(64u32 << 20).to_be_bytes()).unwrap();
            to_host
        });
        let mut host = Channel::handshake(host_stream, &code, Role::Host, WAIT).unwrap();
        assert_eq!(host.recv().unwrap(), b"first");
        // The first frame again where the second should be.
        assert!(matches!(host.recv(), Err(NetError::Tampered)));
        // The second with one bit changed.
        assert!(matches!(host.recv(), Err(NetError::Tampered)));
        // Refused from its length alone.
        assert!(matches!(host.recv(), Err(NetError::TooLarge(_))));
        drop(joiner.join().unwrap());
        drop(forwarding.join().unwrap());
        drop(host);
        let _ = passing.join();
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

        /// Whatever bytes follow the handshake, the host reads an error from them, never a
        /// message and never a panic, and reads no more than a frame's worth.
        #[test]
        fn random_bytes_after_the_handshake_never_open(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2048)
        ) {
            let code = Code::random();
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let address = listener.local_addr().unwrap();
            let joiner = thread::spawn(move || {
                let stream = TcpStream::connect(address).unwrap();
                let mut raw = stream.try_clone().unwrap();
                let guest = Channel::handshake(stream, &code, Role::Guest, WAIT).unwrap();
                raw.write_all(&bytes).unwrap();
                raw.shutdown(std::net::Shutdown::Write).unwrap();
                guest
            });
            let (stream, _) = listener.accept().unwrap();
            let mut host = Channel::handshake(stream, &code, Role::Host, WAIT).unwrap();
            let read = host.recv();
            proptest::prop_assert!(read.is_err(), "{read:?}");
            drop(joiner.join().unwrap());
        }
    }
}
