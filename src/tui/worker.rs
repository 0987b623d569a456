//! The background search thread: it owns Knightfall's `Player` (and so the engine's
//! transposition table) and any external engines playing, takes one request at a time, and
//! reports progress and the result as events tagged with the request's generation, so the app
//! can drop results for positions it has left.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::unbounded;
use shakmaty::Position;

use super::job::{EngineEvent, Mover, Purpose, Request};
use crate::engine::{Control, Info};
use crate::external::{EngineSpec, External, ExternalError};
use crate::player::{Known, Player, Source};

/// The search thread's name, as a debugger or a panic message shows it.
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
                // External engines by the side they play, started when first asked.
                let mut externals: [Option<External>; 2] = [None, None];
                for job in rx {
                    match job {
                        Job::NewGame => {
                            player.new_game();
                            for slot in &mut externals {
                                if let Some(e) = slot
                                    && e.new_game().is_err()
                                {
                                    // Started afresh on its next move.
                                    *slot = None;
                                }
                            }
                        }
                        Job::Search(req, control) => {
                            if control.stop.load(Ordering::Relaxed) {
                                continue;
                            }
                            match &req.mover {
                                Mover::Knightfall => search(&mut player, &req, &control, &sink),
                                Mover::External(spec) => {
                                    let slot = &mut externals[crate::game::side(req.pos.turn())];
                                    external(slot, spec, &req, &control, &sink);
                                }
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

/// Passes progress reports on at most every `INFO_INTERVAL`, keeping the last one held back,
/// except that the first report of each new depth always goes (the panel lists the depths).
struct Throttle<'a, F: Fn(EngineEvent)> {
    sink: &'a F,
    generation: u64,
    last: Instant,
    last_depth: u32,
    unsent: Option<Info>,
    /// The latest score reported, from the side to move's view.
    score: i32,
}

impl<'a, F: Fn(EngineEvent)> Throttle<'a, F> {
    fn new(sink: &'a F, generation: u64) -> Self {
        Throttle {
            sink,
            generation,
            last: Instant::now()
                .checked_sub(INFO_INTERVAL)
                .unwrap_or_else(Instant::now),
            unsent: None,
            score: 0,
            last_depth: 0,
        }
    }

    fn report(&mut self, info: &Info) {
        if info.multipv <= 1 {
            self.score = info.score;
        }
        if self.last.elapsed() >= INFO_INTERVAL || info.depth > self.last_depth {
            self.last = Instant::now();
            self.last_depth = info.depth;
            self.unsent = None;
            (self.sink)(EngineEvent::Info {
                generation: self.generation,
                info: info.clone(),
            });
        } else {
            self.unsent = Some(info.clone());
        }
    }

    /// Sends the report the throttle held back: the panel should end on the final depth and PV.
    fn flush(&mut self) {
        if let Some(info) = self.unsent.take() {
            (self.sink)(EngineEvent::Info {
                generation: self.generation,
                info,
            });
        }
    }
}

/// Asks an external engine for its move, starting it first if it is not running (or runs
/// another command); any failure forfeits the game for its side.
fn external(
    slot: &mut Option<External>,
    spec: &EngineSpec,
    req: &Request,
    control: &Control,
    sink: &impl Fn(EngineEvent),
) {
    let generation = req.generation;
    if slot.as_ref().is_some_and(|e| e.spec() != spec) {
        *slot = None;
    }
    if slot.is_none() {
        match External::start(spec) {
            Ok(e) => {
                if let Some(name) = e.id_name() {
                    sink(EngineEvent::Identified {
                        generation,
                        name: name.to_string(),
                    });
                }
                *slot = Some(e);
            }
            Err(e) => {
                sink(EngineEvent::Forfeit {
                    generation,
                    message: e.to_string(),
                    illegal: false,
                });
                return;
            }
        }
    }
    let Some(engine) = slot.as_mut() else { return };
    let mut throttle = Throttle::new(sink, generation);
    let moved = engine.go(
        req.start_fen.as_deref(),
        &req.moves,
        &req.pos,
        &req.limits,
        control,
        &mut |info| throttle.report(info),
    );
    throttle.flush();
    match moved {
        Ok(m) => sink(EngineEvent::Done {
            generation,
            purpose: req.purpose,
            best: Some(m),
            score: throttle.score,
            source: Source::Search,
            note: None,
        }),
        Err(e) => {
            // A broken engine is not asked again; the next game starts a fresh one.
            *slot = None;
            sink(EngineEvent::Forfeit {
                generation,
                message: e.to_string(),
                illegal: matches!(e, ExternalError::BadMove { .. }),
            });
        }
    }
}

/// Runs one request through the player, throttling its progress reports.
fn search(player: &mut Player, req: &Request, control: &Control, sink: &impl Fn(EngineEvent)) {
    let generation = req.generation;
    let known = match req.purpose {
        Purpose::DrawOffer => Known::SearchOnly,
        Purpose::Play | Purpose::Hint => Known::Allowed,
    };
    let mut throttle = Throttle::new(sink, generation);
    let decided = player.decide(
        &req.pos,
        &req.history,
        &req.limits,
        known,
        control,
        &mut |info| throttle.report(info),
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
    throttle.flush();
    sink(EngineEvent::Done {
        generation,
        purpose: req.purpose,
        best: decision.result.best,
        score: decision.result.score,
        source: decision.source,
        note: decision.note(),
    });
}
