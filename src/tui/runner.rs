//! The game loop the screen and `watch --headless` share: one event channel, the app applying
//! each event, and the effects it asks for carried out (searches, saves). The screen draws after
//! each step; the headless watcher does not, and that is the only difference.

use std::path::Path;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};

use super::app::{Action, App, Effect, Tone};
use super::event::Event;
use super::worker::Worker;
use crate::game::{Game, timestamp};
use crate::player::Player;
use crate::store::{Paths, save_as, save_settings, write_atomic};

/// How often the clocks are looked at while they run.
const TICK: Duration = Duration::from_millis(100);

/// What the loop should do after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Go on (redraw if there is a screen).
    Continue,
    /// Leave the program.
    Quit,
}

/// The app, the search worker and the channel that feeds them.
pub struct Runner {
    /// The game's state.
    pub app: App,
    worker: Worker,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    /// Where settings and games are written; `None` writes nothing (headless).
    files: Option<Paths>,
}

impl Runner {
    /// A runner for `app` with `player` on a new worker thread.
    pub fn new(app: App, player: Player, files: Option<Paths>) -> Runner {
        let (tx, rx) = unbounded::<Event>();
        let engine_events = tx.clone();
        let worker = Worker::spawn(
            move |e| {
                let _ = engine_events.send(Event::Engine(e));
            },
            player,
        );
        Runner {
            app,
            worker,
            tx,
            rx,
            files,
        }
    }

    /// A sender for other event sources (terminal input, signals).
    pub fn sender(&self) -> Sender<Event> {
        self.tx.clone()
    }

    /// Starts the app (the engine may move first); returns true to quit.
    pub fn start(&mut self) -> bool {
        let fx = self.app.start();
        self.run_effects(fx)
    }

    /// Starts `game` in the same app, on the same engines (headless series).
    pub fn play(&mut self, game: Game) -> bool {
        let fx = self.app.play(game);
        self.run_effects(fx)
    }

    /// Waits for the next event; `Some(None)` is a clock tick, `None` means every sender is gone.
    pub fn next_event(&self) -> Option<Option<Event>> {
        if self.app.needs_ticks() {
            match self.rx.recv_timeout(TICK) {
                Ok(ev) => Some(Some(ev)),
                Err(RecvTimeoutError::Timeout) => Some(None),
                Err(RecvTimeoutError::Disconnected) => None,
            }
        } else {
            self.rx.recv().ok().map(Some)
        }
    }

    /// Applies one event (`None`: a tick) and carries out what the app asks for.
    pub fn step(&mut self, ev: Option<Event>) -> Step {
        let action = match ev {
            None => Some(Action::Tick),
            Some(Event::Key(k)) => Some(Action::Key(k)),
            Some(Event::Mouse(m)) => super::app::click_square(&self.app, &m).map(Action::Click),
            Some(Event::Resize) => None,
            Some(Event::Engine(e)) => Some(Action::Engine(e)),
            Some(Event::Terminate) => return Step::Quit,
        };
        let Some(action) = action else {
            return Step::Continue;
        };
        let fx = self.app.update(action);
        if self.run_effects(fx) {
            Step::Quit
        } else {
            Step::Continue
        }
    }

    /// Stops the running search.
    pub fn stop(&self) {
        self.worker.stop();
    }

    /// Carries out effects; returns true to quit.
    fn run_effects(&mut self, fx: Vec<Effect>) -> bool {
        let mut quit = false;
        for effect in fx {
            match effect {
                Effect::Search(req) => self.worker.start(req),
                Effect::Stop => self.worker.stop(),
                Effect::NewGame => self.worker.new_game(),
                Effect::Quit => quit = true,
                other => self.write(other),
            }
        }
        quit
    }

    /// Carries out a file effect, when this runner writes files.
    fn write(&mut self, effect: Effect) {
        let Some(paths) = &self.files else { return };
        let app = &mut self.app;
        match effect {
            Effect::SaveSettings => {
                if let Err(e) = save_settings(paths, &app.settings) {
                    app.say(format!("Settings not saved: {e:#}"), Tone::Error);
                }
            }
            Effect::Archive(game) => {
                if let Err(e) = crate::store::archive(&game, paths) {
                    app.say(format!("The game was not saved: {e:#}"), Tone::Error);
                }
            }
            Effect::Autosave => {
                if let Err(e) = write_atomic(&paths.autosave, &app.game.to_pgn()) {
                    app.say(format!("Autosave failed: {e:#}"), Tone::Error);
                }
            }
            Effect::Save(None) => {
                let path = paths.data.join(format!("{}.pgn", timestamp()));
                match write_atomic(&path, &app.game.to_pgn()) {
                    Ok(()) => app.say(format!("Saved to {}", path.display()), Tone::Info),
                    Err(e) => app.say(format!("Not saved: {e:#}"), Tone::Error),
                }
            }
            Effect::Save(Some(file)) => match save_as(Path::new(&file), &app.game.to_pgn()) {
                Ok(()) => app.say(format!("Saved to {file}"), Tone::Info),
                Err(e) => app.say(format!("Not saved: {e:#}"), Tone::Error),
            },
            Effect::Search(_) | Effect::Stop | Effect::NewGame | Effect::Quit => {}
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.worker.stop();
    }
}
