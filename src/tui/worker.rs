//! The background search thread: it owns Knightfall's `Player` (and so the engine's
//! transposition table), takes one request at a time, and reports progress and the result as
//! events tagged with the request's generation, so the app can drop results for positions it
//! has left.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::unbounded;

use super::job::{EngineEvent, Purpose, Request};
use crate::engine::{Control, Info};
use crate::player::{Known, Player};

/// The search thread's name (the panic hook leaves the screen alone for it).
pub const THREAD_NAME: &str = "knightfall-search";

/// How often progress reports may reach the screen.
const INFO_INTERVAL: Duration = Duration::from_millis(100);

enum Job {
    Search(Box<Request>, Arc<Control>),
    NewGame,
}

/// Handle to the worker thread.
pub struct Worker {
    jobs: crossbeam_channel::Sender<Job>,
    current: Arc<Mutex<Option<Arc<Control>>>>,
}

impl Worker {
    /// Starts the worker with `player`; its reports go to `sink`.
    pub fn spawn(sink: impl Fn(EngineEvent) + Send + 'static, mut player: Player) -> Worker {
        let (jobs, rx) = unbounded::<Job>();
        let current: Arc<Mutex<Option<Arc<Control>>>> = Arc::default();
        thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                for job in rx {
                    match job {
                        Job::NewGame => player.new_game(),
                        Job::Search(req, control) => {
                            if !control.stop.load(Ordering::Relaxed) {
                                search(&mut player, &req, &control, &sink);
                            }
                        }
                    }
                }
            })
            .expect("spawning the search thread");
        Worker { jobs, current }
    }

    /// Stops any running search and starts `req`.
    pub fn start(&self, req: Box<Request>) {
        let control = Arc::new(Control::default());
        if let Ok(mut cur) = self.current.lock()
            && let Some(old) = cur.replace(control.clone())
        {
            old.stop.store(true, Ordering::Relaxed);
        }
        let _ = self.jobs.send(Job::Search(req, control));
    }

    /// Stops the running search, if any; its result will arrive and be judged stale.
    pub fn stop(&self) {
        if let Ok(cur) = self.current.lock()
            && let Some(c) = cur.as_ref()
        {
            c.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Clears the engine's tables for a new game.
    pub fn new_game(&self) {
        self.stop();
        let _ = self.jobs.send(Job::NewGame);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Runs one request through the player, throttling its progress reports.
fn search(player: &mut Player, req: &Request, control: &Control, sink: &impl Fn(EngineEvent)) {
    let generation = req.generation;
    let known = match req.purpose {
        Purpose::DrawOffer => Known::SearchOnly,
        Purpose::Play | Purpose::Hint => Known::Allowed,
    };
    let mut last = Instant::now()
        .checked_sub(INFO_INTERVAL)
        .unwrap_or_else(Instant::now);
    let mut unsent: Option<Info> = None;
    let decided = player.decide(
        &req.pos,
        &req.history,
        &req.limits,
        known,
        control,
        &mut |info| {
            if last.elapsed() >= INFO_INTERVAL {
                last = Instant::now();
                unsent = None;
                sink(EngineEvent::Info {
                    generation,
                    info: info.clone(),
                });
            } else {
                unsent = Some(info.clone());
            }
        },
    );
    for warning in player.take_warnings() {
        sink(EngineEvent::Warning(warning));
    }
    let decision = match decided {
        Ok(d) => d,
        Err(message) => {
            sink(EngineEvent::Failed {
                generation,
                message,
            });
            return;
        }
    };
    // The last iteration's report may have been held back by the throttle: the panel should
    // end on the final depth and PV.
    if let Some(info) = unsent {
        sink(EngineEvent::Info { generation, info });
    }
    sink(EngineEvent::Done {
        generation,
        purpose: req.purpose,
        best: decision.best,
        score: decision.score,
        source: decision.source,
        note: decision.note(),
    });
}
