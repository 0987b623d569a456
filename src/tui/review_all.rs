//! The review of every game of the library as the screens run it: on a thread of its own at
//! the lowest priority (its searching threads inherit it), each step reported on the runner's
//! channel as [`EngineEvent::Bulk`], paused and stopped from the runner.

use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::Sender;

use super::event::Event;
use super::job::{BulkReport, EngineEvent};
use crate::review::analyse;
use crate::store::Paths;
use crate::store::library::Library;
use crate::store::library::bulk::{self, Gate};

/// The review of every game, under way.
pub(crate) struct ReviewAll {
    gate: Arc<Gate>,
    thread: JoinHandle<()>,
}

impl ReviewAll {
    /// Starts it on the library of `paths`, searching with `settings`; its reports go to `tx`,
    /// the last with `running` false.
    pub(crate) fn start(
        paths: Paths,
        settings: analyse::Settings,
        tx: Sender<Event>,
    ) -> std::io::Result<ReviewAll> {
        let gate = Arc::new(Gate::default());
        let held = gate.clone();
        let thread = std::thread::Builder::new()
            .name("knightfall-review-all".into())
            .spawn(move || {
                bulk::lowest_priority();
                let send = |report: BulkReport| {
                    let _ = tx.send(Event::Engine(EngineEvent::Bulk(Box::new(report))));
                };
                let ran = Library::open(&paths.library()).and_then(|mut library| {
                    bulk::run(&mut library, &settings, &held, &mut |p| {
                        send(BulkReport {
                            progress: p.clone(),
                            running: true,
                            paused: held.paused(),
                            error: None,
                        })
                    })
                });
                send(match ran {
                    Ok(progress) => BulkReport {
                        progress,
                        ..BulkReport::default()
                    },
                    Err(e) => BulkReport {
                        error: Some(format!("{e:#}")),
                        ..BulkReport::default()
                    },
                });
            })?;
        Ok(ReviewAll { gate, thread })
    }

    /// Pauses it or lets it go on; whether that changed anything.
    pub(crate) fn pause(&self, paused: bool) -> bool {
        let changed = self.gate.paused() != paused;
        self.gate.pause(paused);
        changed
    }

    /// Asks it to stop; its last report says when it has.
    pub(crate) fn stop(&self) {
        self.gate.stop();
    }

    /// Stops it, if it runs still, and waits until it has kept what it found.
    pub(crate) fn end(self) {
        self.gate.stop();
        let _ = self.thread.join();
    }
}
