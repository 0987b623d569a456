//! The other side of a game, once the channel is open: a thread reads its messages (each
//! decoded whole) and hands them on as events, answers its pings, and says when it is gone: it
//! closed the connection, sent what is no message, or went silent past the time allowed.
//! Another thread pings it, so that a silence means a broken link, not a friend thinking.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam_channel::{Receiver, bounded};

use super::channel::{Channel, NetError, Sending};
use super::message::Message;

/// How often each side of a game says it is there.
pub const HEARTBEAT: Duration = Duration::from_secs(1);
/// How long a silent link is given before it counts as lost.
pub const SILENCE: Duration = Duration::from_secs(5);

/// Messages held for the game before the reader waits for it to take them: the other side
/// cannot fill the memory by sending faster than the game reads.
const EVENTS_AHEAD: usize = 256;

/// What the other side did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerEvent {
    /// A message (pings and their answers are kept out of it).
    Message(Message),
    /// The link is gone, and why; nothing comes after it.
    Lost(String),
    /// A new link to the other side, after one was lost (its messages follow).
    Back,
}

/// A game's link to the other side.
pub struct Peer {
    sending: Arc<Mutex<Sending>>,
    events: Receiver<PeerEvent>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer").finish_non_exhaustive()
    }
}

impl Peer {
    /// Starts the threads on `channel`: a ping every `heartbeat`, and the link given up after
    /// `silence` without a word from the other side (which pings as often).
    pub fn start(
        channel: Channel,
        heartbeat: Duration,
        silence: Duration,
    ) -> Result<Peer, NetError> {
        channel.set_read_timeout(Some(silence))?;
        let (sending, mut receiving) = channel.split();
        let sending = Arc::new(Mutex::new(sending));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, events) = bounded(EVENTS_AHEAD);
        let reader = {
            let (sending, stop) = (sending.clone(), stop.clone());
            thread::Builder::new()
                .name("knightfall-peer".into())
                .spawn(move || {
                    let lost = loop {
                        let message = match receiving.recv() {
                            Ok(bytes) => Message::decode(&bytes),
                            Err(e) => break lost_words(&e, silence),
                        };
                        let message = match message {
                            Ok(m) => m,
                            Err(why) => break format!("the other side sent {why}"),
                        };
                        match message {
                            Message::Ping(n) => {
                                let _ = send_on(&sending, &Message::Pong(n));
                            }
                            Message::Pong(_) => {}
                            other => {
                                if tx.send(PeerEvent::Message(other)).is_err() {
                                    return;
                                }
                            }
                        }
                    };
                    if !stop.load(Ordering::Relaxed) {
                        let _ = tx.send(PeerEvent::Lost(lost));
                    }
                    // Nothing more is read: the pings stop too.
                    lock(&sending).close();
                })?
        };
        let beat = {
            let (sending, stop) = (sending.clone(), stop.clone());
            thread::Builder::new()
                .name("knightfall-heartbeat".into())
                .spawn(move || {
                    let mut n = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        if send_on(&sending, &Message::Ping(n)).is_err() {
                            return;
                        }
                        n += 1;
                        // In short steps, so that leaving is not held up by a whole beat.
                        let mut waited = Duration::ZERO;
                        while waited < heartbeat && !stop.load(Ordering::Relaxed) {
                            let step = Duration::from_millis(20).min(heartbeat - waited);
                            thread::sleep(step);
                            waited += step;
                        }
                    }
                })?
        };
        Ok(Peer {
            sending,
            events,
            stop,
            threads: vec![reader, beat],
        })
    }

    /// Sends `message` to the other side.
    pub fn send(&self, message: &Message) -> Result<(), NetError> {
        send_on(&self.sending, message)
    }

    /// What the other side does, as it comes.
    pub fn events(&self) -> &Receiver<PeerEvent> {
        &self.events
    }
}

impl Drop for Peer {
    /// Closes the link (the other side sees it gone at once) and waits for the threads.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        lock(&self.sending).close();
        // The reader may be waiting to hand on a message nobody takes now.
        while self.events.try_recv().is_ok() {}
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Sends `message` through the shared half.
fn send_on(sending: &Mutex<Sending>, message: &Message) -> Result<(), NetError> {
    lock(sending).send(&message.encode())
}

/// The sending half; a thread that panicked holding it cannot have left it half-written.
fn lock(sending: &Mutex<Sending>) -> std::sync::MutexGuard<'_, Sending> {
    sending.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Why the link is gone, in words, from what the read met.
fn lost_words(error: &NetError, silence: Duration) -> String {
    use std::io::ErrorKind;
    match error {
        NetError::Io(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
            format!(
                "no word from the other side for {} s",
                silence.as_secs_f64().ceil()
            )
        }
        NetError::Io(e)
            if matches!(
                e.kind(),
                ErrorKind::UnexpectedEof
                    | ErrorKind::ConnectionReset
                    | ErrorKind::ConnectionAborted
                    | ErrorKind::BrokenPipe
            ) =>
        {
            "the other side closed the connection".to_string()
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use std::time::Instant;

    use super::*;
    use crate::net::code::Code;

    const WAIT: Duration = Duration::from_secs(10);

    /// Two open channels over loopback, the host's first.
    fn channels() -> (Channel, Channel) {
        let code = Code::random();
        let (host, guest) = crate::net::channel::loopback(code, code);
        (host.unwrap(), guest.unwrap())
    }

    fn next(peer: &Peer) -> PeerEvent {
        peer.events().recv_timeout(WAIT).unwrap()
    }

    #[test]
    fn messages_go_both_ways_in_order_and_the_pings_are_kept_out() {
        let (host, guest) = channels();
        let beat = Duration::from_millis(10);
        let host = Peer::start(host, beat, WAIT).unwrap();
        let guest = Peer::start(guest, beat, WAIT).unwrap();
        for n in 0..20 {
            host.send(&Message::Chat(format!("line {n}"))).unwrap();
            // The pings of both sides pass meanwhile.
            thread::sleep(Duration::from_millis(2));
        }
        guest.send(&Message::Resign).unwrap();
        for n in 0..20 {
            assert_eq!(
                next(&guest),
                PeerEvent::Message(Message::Chat(format!("line {n}")))
            );
        }
        assert_eq!(next(&host), PeerEvent::Message(Message::Resign));
        // One side leaves: the other is told at once.
        drop(guest);
        assert_eq!(
            next(&host),
            PeerEvent::Lost("the other side closed the connection".into())
        );
    }

    #[test]
    fn a_silent_side_and_a_side_that_sends_nonsense_are_given_up_with_the_reason() {
        // The guest's channel is held open but says nothing (no heartbeat).
        let (host, silent) = channels();
        let began = Instant::now();
        let host = Peer::start(host, Duration::from_secs(60), Duration::from_millis(300)).unwrap();
        assert_eq!(
            next(&host),
            PeerEvent::Lost("no word from the other side for 1 s".into())
        );
        assert!(began.elapsed() >= Duration::from_millis(300));
        drop(silent);
        // A sealed frame that is no message.
        let (host, mut guest) = channels();
        let host = Peer::start(host, Duration::from_secs(60), WAIT).unwrap();
        guest.send(b"castle queenside please").unwrap();
        let PeerEvent::Lost(why) = next(&host) else {
            panic!("no loss");
        };
        assert!(
            why.contains("the other side sent a message that makes no sense"),
            "{why}"
        );
    }
}
