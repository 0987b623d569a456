//! A TCP relay between two Knightfalls for network tests: every byte it passes is held back
//! by a delay (with jitter), one direction can be made to swallow what it is given, and the
//! link can be cut at once, as a bad network would.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::unbounded;

/// The relay's controls, shared with its threads.
#[derive(Default)]
struct Controls {
    /// Each way's delay, milliseconds.
    delay_ms: AtomicU64,
    /// The most the delay varies by, either way, milliseconds.
    jitter_ms: AtomicU64,
    /// What the guest sends is swallowed.
    swallow_up: AtomicBool,
}

/// A relay listening for the guest, passing on to the host: each guest that calls gets a
/// connection of its own to the host.
pub(crate) struct Proxy {
    /// The port the guest joins.
    pub(crate) port: u16,
    controls: Arc<Controls>,
    streams: Arc<std::sync::Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    /// A relay on loopback to the host at `host_port` on loopback.
    pub(crate) fn start(host_port: u16) -> Proxy {
        Proxy::between("127.0.0.1", SocketAddr::from(([127, 0, 0, 1], host_port)))
    }

    /// A relay listening on `address` (a free port) to the host at `host`.
    pub(crate) fn between(address: &str, host: SocketAddr) -> Proxy {
        let listener = TcpListener::bind((address, 0)).expect("a port");
        let port = listener.local_addr().expect("its address").port();
        let controls = Arc::new(Controls::default());
        let streams = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (c, s) = (controls.clone(), streams.clone());
        thread::spawn(move || {
            for guest in listener.incoming() {
                let Ok(guest) = guest else {
                    return;
                };
                let Ok(host) = TcpStream::connect(host) else {
                    return;
                };
                let _ = guest.set_nodelay(true);
                let _ = host.set_nodelay(true);
                if let (Ok(g), Ok(h)) = (guest.try_clone(), host.try_clone()) {
                    s.lock().expect("not poisoned").extend([g, h]);
                }
                let (g2, h2) = (guest.try_clone(), host.try_clone());
                if let (Ok(g2), Ok(h2)) = (g2, h2) {
                    pump(guest, h2, c.clone(), true);
                    pump(host, g2, c.clone(), false);
                }
            }
        });
        Proxy {
            port,
            controls,
            streams,
        }
    }

    /// Holds every byte back `delay`, give or take `jitter`, from now on.
    pub(crate) fn delay(&self, delay: Duration, jitter: Duration) {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        self.controls.jitter_ms.store(ms(jitter), Ordering::SeqCst);
        self.controls.delay_ms.store(ms(delay), Ordering::SeqCst);
    }

    /// Swallows what the guest sends from now on (it never reaches the host).
    pub(crate) fn swallow_guest(&self) {
        self.controls.swallow_up.store(true, Ordering::SeqCst);
    }

    /// Cuts the link both ways at once; a guest that calls again is let through.
    pub(crate) fn cut(&self) {
        for stream in self.streams.lock().expect("not poisoned").drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
        self.controls.swallow_up.store(false, Ordering::SeqCst);
    }
}

/// Reads `from` and writes `to`, each chunk when its delay is over, in order.
fn pump(mut from: TcpStream, mut to: TcpStream, controls: Arc<Controls>, up: bool) {
    let (tx, rx) = unbounded::<(Instant, Vec<u8>)>();
    let c = controls.clone();
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        let mut n_chunk = 0u64;
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            if up && c.swallow_up.load(Ordering::SeqCst) {
                continue;
            }
            let jitter = c.jitter_ms.load(Ordering::SeqCst);
            n_chunk += 1;
            // A jitter drawn from the chunk's number: the same run, the same delays.
            let spread = if jitter == 0 {
                0
            } else {
                (n_chunk * 7919) % (2 * jitter + 1)
            };
            let ms = (c.delay_ms.load(Ordering::SeqCst) + spread).saturating_sub(jitter);
            if tx
                .send((
                    Instant::now() + Duration::from_millis(ms),
                    buf[..n].to_vec(),
                ))
                .is_err()
            {
                break;
            }
        }
        let _ = from.shutdown(Shutdown::Both);
    });
    thread::spawn(move || {
        // Bytes are passed on in the order they came, none before the one before it.
        let mut not_before = Instant::now();
        for (due, bytes) in rx {
            let due = due.max(not_before);
            let now = Instant::now();
            if due > now {
                thread::sleep(due - now);
            }
            not_before = due;
            if to.write_all(&bytes).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Both);
        drop(controls);
    });
}
