//! The search service: one background thread that owns Knightfall's `Player` (and so the
//! engine's transposition table) and any external engines playing, and serves every screen: a
//! game's moves, hints and draw judgements, the analysis board's lines and a review's positions
//! (on a pool of `threads` workers). It takes one job at a time: a new one stops the one under
//! way, so the latest request always wins. Progress and results come back as events tagged with
//! the request's generation, so a screen drops what it no longer asked for; a failure or a panic
//! comes back as an event too, never as silence.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use shakmaty::Position;

use super::job::{EngineEvent, Mover, Purpose, Request};
use crate::engine::{Control, Info};
use crate::external::{EngineSpec, External, ExternalError, KillSwitch};
use crate::game::Game;
use crate::player::{Known, Player, Source};
use crate::review::analyse::{self, PositionEval};
use crate::search_thread::SearchThread;

/// The search thread's name, as a debugger or a panic message shows it.
pub(crate) const THREAD_NAME: &str = "knightfall-search";

/// How often progress reports may reach the screen.
const INFO_INTERVAL: Duration = Duration::from_millis(100);

/// A review to run: the positions of `game` not yet in `known`, searched by `settings`.
#[derive(Clone, Debug)]
pub struct ReviewJob {
    /// The review's generation.
    pub generation: u64,
    /// The game reviewed.
    pub game: Game,
    /// How each position is searched (time, threads, tablebases).
    pub settings: analyse::Settings,
    /// What is known already (from the library or the cache), by ply.
    pub known: Vec<Option<PositionEval>>,
    /// The game's id in the library, when the screen knows it (a game chosen there).
    pub library: Option<i64>,
}

enum Job {
    Search(Box<Request>, Arc<Control>),
    Review(Box<ReviewJob>, Arc<Control>),
    NewGame,
}

/// Handle to the service's thread.
pub struct Service {
    thread: SearchThread<Job>,
    /// Thrown when the service is dropped: an external engine that owes an answer dies at
    /// once, whatever it is doing, and the thread gives up the jobs still queued.
    leaving: KillSwitch,
}

impl Service {
    /// Starts the service with `player`; its reports go to `sink`.
    pub fn spawn(sink: impl Fn(EngineEvent) + Send + 'static, mut player: Player) -> Service {
        let leaving = KillSwitch::default();
        let switch = leaving.clone();
        let thread = SearchThread::spawn(THREAD_NAME, move |rx| {
            // External engines by the side they play, started when first asked. They are
            // spawned on this thread and dropped before it ends, which their parent-death
            // signal needs (it follows the thread that forked them).
            let mut externals: [Option<External>; 2] = [None, None];
            for job in rx {
                if switch.is_thrown() {
                    break;
                }
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
                        let served = panic::catch_unwind(AssertUnwindSafe(|| match &req.mover {
                            Mover::Knightfall => search(&mut player, &req, &control, &sink),
                            Mover::External(spec) => {
                                // A game's engines by side; the analysis board's in the first.
                                let slot = match req.purpose {
                                    Purpose::Play => {
                                        &mut externals[crate::game::side(req.pos.turn())]
                                    }
                                    _ => &mut externals[0],
                                };
                                if req.purpose == Purpose::Analyse {
                                    sources(&mut player, &req, &sink);
                                }
                                if req.purpose == Purpose::Judge {
                                    let tables = player.engine_mut().tablebases().cloned();
                                    judge(slot, spec, &switch, &req, tables, &control, &sink);
                                } else {
                                    external(slot, spec, &switch, &req, &control, &sink);
                                }
                            }
                        }));
                        if let Err(payload) = served {
                            // The engines may be in any state: start them afresh.
                            externals = [None, None];
                            sink(EngineEvent::Failed {
                                generation: req.generation,
                                message: crate::player::panic_message(payload.as_ref()),
                            });
                        }
                    }
                    Job::Review(job, control) => {
                        if control.stop.load(Ordering::Relaxed) {
                            continue;
                        }
                        let served = panic::catch_unwind(AssertUnwindSafe(|| {
                            review(&job, &control, &sink);
                        }));
                        if let Err(payload) = served {
                            sink(EngineEvent::Failed {
                                generation: job.generation,
                                message: crate::player::panic_message(payload.as_ref()),
                            });
                        }
                    }
                }
            }
            // Idle engines are asked to quit all at once, then dropped: their short waits for
            // the answer overlap instead of adding up.
            for engine in externals.iter_mut().flatten() {
                engine.ask_to_quit();
            }
        });
        Service { thread, leaving }
    }

    /// Stops any running job and starts the search `req`.
    pub fn start(&self, req: Box<Request>) {
        let control = self.thread.begin();
        self.thread.post(Job::Search(req, control));
    }

    /// Stops any running job and starts the review `job`.
    pub fn review(&self, job: Box<ReviewJob>) {
        let control = self.thread.begin();
        self.thread.post(Job::Review(job, control));
    }

    /// Stops the running job, if any; a search's result will arrive and be judged stale.
    pub fn stop(&self) {
        self.thread.stop();
    }

    /// Clears the engine's tables for a new game.
    pub(crate) fn new_game(&self) {
        self.stop();
        self.thread.post(Job::NewGame);
    }
}

impl Drop for Service {
    /// Kills the external engines that owe an answer at once (with whatever they started: an
    /// engine that hangs or ignores `stop` must not hold up leaving; idle ones are asked to
    /// quit and killed 200 ms later at most), stops Knightfall's own search and waits for the
    /// thread, which gives up the jobs still queued.
    fn drop(&mut self) {
        self.leaving.throw();
        self.thread.finish();
    }
}

/// Passes progress reports on at most every `INFO_INTERVAL`, keeping the last one of each line
/// held back, except that the first report of each new depth of a line always goes (the panel
/// lists the depths, and the analysis board shows every line).
struct Throttle<'a, F: Fn(EngineEvent)> {
    sink: &'a F,
    generation: u64,
    last: Instant,
    /// By line (`multipv` - 1): the depth last sent, and the report held back.
    lines: Vec<(u32, Option<Info>)>,
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
            lines: Vec::new(),
            score: 0,
        }
    }

    fn report(&mut self, info: &Info) {
        if info.multipv <= 1 {
            self.score = info.score;
        }
        let k = info.multipv.max(1) as usize - 1;
        if self.lines.len() <= k {
            self.lines.resize(k + 1, (0, None));
        }
        let line = &mut self.lines[k];
        if self.last.elapsed() >= INFO_INTERVAL || info.depth > line.0 {
            self.last = Instant::now();
            *line = (info.depth, None);
            (self.sink)(EngineEvent::Info {
                generation: self.generation,
                info: info.clone(),
            });
        } else {
            line.1 = Some(info.clone());
        }
    }

    /// Sends the reports the throttle held back: the panel should end on the final depth and PV.
    fn flush(&mut self) {
        for (_, unsent) in &mut self.lines {
            if let Some(info) = unsent.take() {
                (self.sink)(EngineEvent::Info {
                    generation: self.generation,
                    info,
                });
            }
        }
    }
}

/// Asks an external engine for its move, starting it first if it is not running (or runs
/// another command); any failure forfeits the game for its side (in a game), or is reported
/// as a failed search (the analysis board).
fn external(
    slot: &mut Option<External>,
    spec: &EngineSpec,
    switch: &KillSwitch,
    req: &Request,
    control: &Control,
    sink: &impl Fn(EngineEvent),
) {
    let generation = req.generation;
    let engine = match started(slot, spec, switch, generation, sink) {
        Ok(engine) => engine,
        Err(e) => {
            sink(failure(req, &e));
            return;
        }
    };
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
            sink(failure(req, &e));
        }
    }
}

/// The engine in `slot`, started first when it is not running or runs another command (its
/// name is reported when it gives one).
fn started<'a>(
    slot: &'a mut Option<External>,
    spec: &EngineSpec,
    switch: &KillSwitch,
    generation: u64,
    sink: &impl Fn(EngineEvent),
) -> Result<&'a mut External, ExternalError> {
    if slot.as_ref().is_some_and(|e| e.spec() != spec) {
        *slot = None;
    }
    match slot {
        Some(engine) => Ok(engine),
        None => {
            let engine = External::start_under(spec, switch)?;
            if let Some(name) = engine.id_name() {
                sink(EngineEvent::Identified {
                    generation,
                    name: name.to_string(),
                });
            }
            Ok(slot.insert(engine))
        }
    }
}

/// Evaluates `req`'s position with an external engine as a review by it would (the training's
/// check of an answer to a mistake that engine flagged), starting it first if need be.
fn judge(
    slot: &mut Option<External>,
    spec: &EngineSpec,
    switch: &KillSwitch,
    req: &Request,
    tables: Option<Arc<crate::tablebase::Tablebases>>,
    control: &Control,
    sink: &impl Fn(EngineEvent),
) {
    let engine = match started(slot, spec, switch, req.generation, sink) {
        Ok(engine) => engine,
        Err(e) => {
            sink(EngineEvent::Judged {
                generation: req.generation,
                eval: Err(e.to_string()),
                own: false,
            });
            return;
        }
    };
    let eval = analyse::evaluate_other(
        engine,
        req.start_fen.as_deref(),
        &req.moves,
        &req.pos,
        tables.as_deref(),
        &req.limits,
        control,
    );
    if eval.is_err() {
        // Started afresh when next asked.
        *slot = None;
    }
    sink(EngineEvent::Judged {
        generation: req.generation,
        eval,
        own: false,
    });
}

/// What an external engine's failure `e` on `req` means: a forfeit of its side in a game, a
/// failed search elsewhere.
fn failure(req: &Request, e: &ExternalError) -> EngineEvent {
    let generation = req.generation;
    match req.purpose {
        Purpose::Play => EngineEvent::Forfeit {
            generation,
            message: e.to_string(),
            illegal: matches!(e, ExternalError::BadMove { .. }),
        },
        _ => EngineEvent::Failed {
            generation,
            message: e.to_string(),
        },
    }
}

/// Tells the analysis board the book's moves and the tablebases' verdicts in `req`'s position:
/// Knightfall's own, whichever engine searches.
fn sources(player: &mut Player, req: &Request, sink: &impl Fn(EngineEvent)) {
    sink(EngineEvent::Sources {
        generation: req.generation,
        book: player.book().map_or(Vec::new(), |b| {
            b.moves(&req.pos).iter().map(|m| (m.mv, m.weight)).collect()
        }),
        tablebase: player
            .engine_mut()
            .tablebases()
            .and_then(|t| t.rank_root_moves(&req.pos).ok())
            .unwrap_or_default(),
    });
}

/// Runs one request through the player, throttling its progress reports.
fn search(player: &mut Player, req: &Request, control: &Control, sink: &impl Fn(EngineEvent)) {
    let generation = req.generation;
    if req.purpose == Purpose::Judge {
        let mut throttle = Throttle::new(sink, generation);
        let eval = analyse::evaluate(
            player,
            &req.pos,
            &req.history,
            &req.limits,
            control,
            &mut |info| throttle.report(info),
        );
        for warning in player.take_warnings() {
            sink(EngineEvent::Warning(warning));
        }
        sink(EngineEvent::Judged {
            generation,
            eval,
            own: true,
        });
        return;
    }
    let known = match req.purpose {
        Purpose::DrawOffer | Purpose::Analyse | Purpose::Judge => Known::SearchOnly,
        Purpose::Play | Purpose::Hint => Known::Allowed,
    };
    if req.purpose == Purpose::Analyse {
        sources(player, req, sink);
    }
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

/// Runs a review on `job.settings.threads` workers, reporting each position as it is done.
fn review(job: &ReviewJob, control: &Control, sink: &impl Fn(EngineEvent)) {
    let generation = job.generation;
    sink(EngineEvent::ReviewTime {
        generation,
        movetime_ms: job.settings.movetime_ms,
    });
    // What was known already (the cache) comes back first, so the screen fills in at once.
    for (ply, eval) in job.known.iter().enumerate() {
        if let Some(eval) = eval {
            sink(EngineEvent::Reviewed {
                generation,
                ply,
                eval: Ok(eval.clone()),
            });
        }
    }
    analyse::analyse(
        &job.game,
        &job.settings,
        &job.known,
        control,
        &mut |ply, eval| {
            sink(EngineEvent::Reviewed {
                generation,
                ply,
                eval,
            })
        },
    );
    sink(EngineEvent::ReviewDone { generation });
}
