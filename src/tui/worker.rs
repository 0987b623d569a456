//! The background search thread: it owns the `Engine` (and so its transposition table), takes
//! one request at a time, and reports progress and the result as events tagged with the
//! request's generation, so the app can drop results for positions it has left.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Sender, unbounded};
use shakmaty::Chess;

use super::app::Source;
use super::event::{EngineEvent, Event, Purpose};
use crate::book::{Book, BookOptions, BookRng};
use crate::engine::score::TB_WIN;
use crate::engine::{Config, Control, Engine, Info, Limits};
use crate::tablebase::Tablebases;

/// What the worker consults before searching.
#[derive(Default)]
pub struct Sources {
    /// Opening book, if enabled.
    pub book: Option<Book>,
    /// Syzygy tablebases, if configured.
    pub tablebases: Option<Tablebases>,
}

/// A book or tablebase move for `pos`, with a score (side to move) and a note.
pub fn lookup(
    sources: &Sources,
    pos: &Chess,
    rng: &mut BookRng,
) -> Option<(shakmaty::Move, i32, Source, Option<String>)> {
    if let Some(book) = &sources.book
        && let Some(m) = book.pick(pos, &BookOptions::default(), rng)
    {
        return Some((m, 0, Source::Book, None));
    }
    let tb = sources.tablebases.as_ref()?;
    let best = tb.rank_root_moves(pos).ok()?.into_iter().next()?;
    let word = best.outcome_word();
    let score = match word {
        "win" => TB_WIN - best.dtz.abs(),
        "loss" => -TB_WIN + best.dtz.abs(),
        _ => 0,
    };
    let note = format!("tablebase {word}, DTZ {}", best.dtz);
    Some((best.mv, score, Source::Tablebase, Some(note)))
}

/// The search thread's name (the panic hook leaves the screen alone for it).
pub const THREAD_NAME: &str = "knightfall-search";

/// How often progress reports may reach the screen.
const INFO_INTERVAL: Duration = Duration::from_millis(100);

/// One search to run.
#[derive(Clone, Debug)]
pub struct Request {
    /// The app's generation when it asked.
    pub generation: u64,
    /// What the answer is for.
    pub purpose: Purpose,
    /// The position to search.
    pub pos: Chess,
    /// Repetition keys of the game before `pos`.
    pub history: Vec<u64>,
    /// What the search may spend.
    pub limits: Limits,
    /// Playing level for this search (1 to 10).
    pub level: u8,
}

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
    /// Starts the worker; its reports go to `events`.
    pub fn spawn(events: Sender<Event>, sources: Sources) -> Worker {
        let (jobs, rx) = unbounded::<Job>();
        let current: Arc<Mutex<Option<Arc<Control>>>> = Arc::default();
        thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let mut engine = Engine::new(Config::default());
                let mut rng = BookRng::from_entropy();
                for job in rx {
                    match job {
                        Job::NewGame => engine.clear(),
                        Job::Search(req, control) => {
                            if control.stop.load(Ordering::Relaxed) {
                                continue;
                            }
                            let generation = req.generation;
                            if req.purpose != Purpose::DrawOffer
                                && let Some((m, score, source, note)) =
                                    lookup(&sources, &req.pos, &mut rng)
                            {
                                let _ = events.send(Event::Engine(EngineEvent::Done {
                                    generation,
                                    purpose: req.purpose,
                                    best: Some(m),
                                    score,
                                    source,
                                    note,
                                }));
                                continue;
                            }
                            let mut last = Instant::now()
                                .checked_sub(INFO_INTERVAL)
                                .unwrap_or_else(Instant::now);
                            let mut unsent: Option<Info> = None;
                            let searched = panic::catch_unwind(AssertUnwindSafe(|| {
                                engine.search(
                                    &req.pos,
                                    &req.history,
                                    &req.limits,
                                    &control,
                                    &mut |info| {
                                        if last.elapsed() >= INFO_INTERVAL {
                                            last = Instant::now();
                                            unsent = None;
                                            let _ = events.send(Event::Engine(EngineEvent::Info {
                                                generation,
                                                info: info.clone(),
                                            }));
                                        } else {
                                            unsent = Some(info.clone());
                                        }
                                    },
                                )
                            }));
                            let result = match searched {
                                Ok(result) => result,
                                Err(payload) => {
                                    let what = payload
                                        .downcast_ref::<&str>()
                                        .map(|s| s.to_string())
                                        .or_else(|| payload.downcast_ref::<String>().cloned())
                                        .unwrap_or_else(|| "unknown error".to_string());
                                    let _ = events.send(Event::Engine(EngineEvent::Failed {
                                        generation,
                                        message: what,
                                    }));
                                    // The tables may be inconsistent after a panic.
                                    engine = Engine::new(Config::default());
                                    continue;
                                }
                            };
                            // The last iteration's report may have been held back by the
                            // throttle: the panel should end on the final depth and PV.
                            if let Some(info) = unsent {
                                let _ = events
                                    .send(Event::Engine(EngineEvent::Info { generation, info }));
                            }
                            let _ = events.send(Event::Engine(EngineEvent::Done {
                                generation,
                                purpose: req.purpose,
                                best: result.best,
                                score: result.score,
                                source: Source::Search,
                                note: None,
                            }));
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
