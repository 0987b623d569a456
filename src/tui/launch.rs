//! The one way a terminal command starts its screens: Knightfall's player opened once, with
//! its warnings (`Launch::open`); the screens stacked over one another, the palette, the files
//! and the bell (`Launch`); the runner served on the terminal until the screens are done, then
//! the farewell notes (`show`). What a command does apart (the game's autosave slot and
//! archive, the headless series without a terminal) stays in its own function.

use std::fs;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::Options;
use crate::player::Player;
use crate::review::analyse;
use crate::store::Paths;
use crate::tui::event::{self, Event};
use crate::tui::runner::{Front, Runner, Step};
use crate::tui::screen::Palette;
use crate::tui::terminal;

/// What a command starts: the screens (the last in front), the search service's player and
/// what goes with it.
pub(crate) struct Launch {
    /// When the command began (the first frame is timed from it).
    pub t0: Instant,
    /// The player the search service owns.
    pub player: Player,
    /// What went wrong opening the player (a book, tablebases): each command shows them its
    /// way.
    pub warnings: Vec<String>,
    /// How a review opened from a screen searches.
    pub review: analyse::Settings,
    /// How the screens are drawn.
    pub palette: Palette,
    /// The files the screens keep; `None` writes none.
    pub files: Option<Paths>,
    /// Whether the bell reaches the terminal.
    pub bell: bool,
    /// The screens, the last in front.
    pub stack: Vec<Front>,
    /// The engine the analysis board runs (`None`: Knightfall's own).
    pub analysis: Option<crate::external::EngineSpec>,
    /// Served in plain text rather than on the terminal's screen.
    pub text: bool,
}

impl Launch {
    /// Knightfall's player as `opts` ask for it (book, tablebases, threads), opened once, with
    /// its warnings; reviews search with its tablebases; drawn with the settings' palette,
    /// keeping files in the games folder, no bell, no screens yet.
    pub(crate) fn open(opts: &Options, t0: Instant) -> Launch {
        let (mut player, mut warnings) = open_player(opts);
        let review = review_settings(opts, &mut player, &mut warnings);
        Launch::with_player(opts, player, warnings, review, t0)
    }

    /// A launch on `player` as given (screens that search with players of their own).
    pub(crate) fn with_player(
        opts: &Options,
        player: Player,
        mut warnings: Vec<String>,
        review: analyse::Settings,
        t0: Instant,
    ) -> Launch {
        let analysis = chosen_engine(
            opts,
            &opts.settings.analysis_engine,
            "The analysis board runs Knightfall: analysis_engine",
            &mut warnings,
        );
        Launch {
            analysis,
            t0,
            player,
            warnings,
            review,
            palette: Palette::from_env(opts.settings.ascii, opts.settings.theme),
            files: Some(Paths::get()),
            bell: false,
            stack: Vec::new(),
            text: opts.text,
        }
    }

    /// `front` over the screens stacked so far.
    pub(crate) fn over(mut self, front: Front) -> Launch {
        self.stack.push(front);
        self
    }

    /// The warnings in one line, if there are any.
    pub(crate) fn note(&self) -> Option<String> {
        (!self.warnings.is_empty()).then(|| self.warnings.join("; "))
    }

    /// The runner, its search service started with the player.
    pub(crate) fn runner(self) -> Runner {
        let mut runner = Runner::new(
            self.stack,
            self.player,
            self.files,
            self.review,
            self.palette,
        );
        runner.bell = self.bell;
        runner.analysis = self.analysis;
        runner
    }

    /// Builds the runner and shows it (see `show`) until the screens are done.
    pub(crate) fn show(self, start: impl FnOnce(&mut Runner, Instant) -> bool) -> Result<()> {
        let (t0, text) = (self.t0, self.text);
        show(&mut self.runner(), t0, text, start)
    }
}

/// Serves `runner` on the terminal (or in plain text, `text`), started by `start`, until the
/// screens are done, then prints what they said on the way out; `t0` is when the command
/// began.
pub(crate) fn show(
    runner: &mut Runner,
    t0: Instant,
    text: bool,
    start: impl FnOnce(&mut Runner, Instant) -> bool,
) -> Result<()> {
    if text {
        return super::text::show(runner, start);
    }
    let result = serve(runner, t0, start);
    say_after(&runner.farewell());
    result
}

/// The Syzygy directories the options, `SYZYGY_PATH` or the settings name, if any.
fn syzygy_spec(opts: &Options) -> Option<String> {
    opts.syzygy
        .clone()
        .or_else(|| std::env::var("SYZYGY_PATH").ok())
        .or_else(|| Some(opts.settings.syzygy.clone()))
        .filter(|s| !s.trim().is_empty())
}

/// Knightfall's player with the book and tablebases the options ask for; problems come back
/// as warnings and the game goes on without them.
fn open_player(opts: &Options) -> (Player, Vec<String>) {
    let mut warnings = Vec::new();
    let mut book = None;
    if !opts.no_book {
        let opened = match &opts.book {
            Some(path) => crate::book::Book::open(path),
            None => crate::book::Book::embedded(),
        };
        match opened {
            Ok(b) => book = Some(b),
            Err(e) => warnings.push(format!("No opening book: {e}")),
        }
    }
    let tablebases = crate::tablebase::Tablebases::load(syzygy_spec(opts).as_deref());
    warnings.extend(
        tablebases
            .warnings()
            .iter()
            .map(|w| format!("Tablebases: {w}")),
    );
    let tablebases = Some(std::sync::Arc::new(tablebases));
    let threads = match opts.settings.threads {
        0 => crate::engine::Engine::max_threads(),
        n => n,
    };
    let mut player = Player::new(crate::engine::Config::default(), book, tablebases);
    player.engine_mut().set_threads(threads);
    (player, warnings)
}

/// How a review opened from a screen searches: the default time per position, every core the
/// settings allow, the tablebases `player` has (loaded once for both), and the settings'
/// review engine (Knightfall's own, with a warning, when it names none that is known).
fn review_settings(
    opts: &Options,
    player: &mut Player,
    warnings: &mut Vec<String>,
) -> analyse::Settings {
    let engine = chosen_engine(
        opts,
        &opts.settings.review_engine,
        "Reviews search with Knightfall: review_engine",
        warnings,
    );
    analyse::Settings {
        engine,
        movetime_ms: crate::review::DEFAULT_MOVETIME_MS,
        threads: match opts.settings.threads {
            0 => crate::engine::Engine::max_threads(),
            n => n,
        },
        tablebases: player.engine_mut().tablebases().cloned(),
    }
}

/// The engine the setting `text` names for reviews or the board; Knightfall's own, with a
/// warning led by `fallback`, when it names none that is known.
fn chosen_engine(
    opts: &Options,
    text: &str,
    fallback: &str,
    warnings: &mut Vec<String>,
) -> Option<crate::external::EngineSpec> {
    opts.settings
        .engine_for_analysis(text)
        .unwrap_or_else(|why| {
            warnings.push(format!("{fallback}: {why}"));
            None
        })
}

/// Timings written to `$KNIGHTFALL_TRACE` when set (`name microseconds` per line), for
/// measurements.
struct Trace(Option<fs::File>);

impl Trace {
    fn open() -> Trace {
        Trace(std::env::var_os("KNIGHTFALL_TRACE").and_then(|p| {
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .ok()
        }))
    }

    fn note(&mut self, what: &str, d: Duration) {
        if let Some(f) = self.0.as_mut() {
            let _ = writeln!(f, "{what} {}", d.as_micros());
        }
    }
}

/// Prints what the screens said on the way out, once the terminal is back (it may be gone
/// after SIGHUP: a line nobody can read is not an error).
fn say_after(notes: &[String]) {
    for note in notes {
        let _ = writeln!(io::stdout(), "{note}");
    }
}

/// A frame that cannot be written means the terminal is gone, closed before its SIGHUP came
/// (or with none): the screens leave as they do on SIGHUP, keeping the game and the board's
/// lines, and the program ends as cleanly as it would have.
fn leave_unseen(runner: &mut Runner) {
    runner.step(Some(Event::Terminate), Instant::now());
}

/// The most waiting events taken before a frame is drawn.
const BURST: usize = 64;

/// The one main loop: sets the terminal up, starts the screen in front with `start`, then
/// applies events and redraws until the screens are done; the terminal is given back however
/// it ends.
fn serve(
    runner: &mut Runner,
    t0: Instant,
    start: impl FnOnce(&mut Runner, Instant) -> bool,
) -> Result<()> {
    let mut guard = terminal::Guard::new()?;
    let terminal = guard.terminal();
    event::route_input_to(runner.sender());
    let mut trace = Trace::open();
    if start(runner, Instant::now()) {
        return Ok(());
    }
    let first = Instant::now();
    if terminal.draw(|f| runner.draw(f)).is_err() {
        leave_unseen(runner);
        return Ok(());
    }
    trace.note("first_frame_us", t0.elapsed());
    trace.note("frame_us", first.elapsed());
    while let Some(ev) = runner.next_event() {
        let got = Instant::now();
        let is_key = matches!(ev, Some(Event::Key(_)));
        if matches!(ev, Some(Event::Redraw)) {
            // The screen was the shell's meanwhile: nothing on it is what was drawn. Clear it
            // and forget the last frame, so the next one is drawn whole (`Terminal::clear`
            // would ask the terminal where its cursor is, which not every terminal answers).
            crossterm::execute!(
                io::stdout(),
                crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
            )?;
            terminal.swap_buffers();
        }
        if runner.step(ev, got) == Step::Quit {
            break;
        }
        // Reports come in bursts (a depth of every line, a review's cached positions): take
        // what is waiting, then draw once; a steady stream still gets a frame every so often.
        let mut quit = false;
        let mut taken = 0;
        while !quit
            && taken < BURST
            && let Some(ev) = runner.waiting_event()
        {
            quit = runner.step(Some(ev), Instant::now()) == Step::Quit;
            taken += 1;
        }
        if quit {
            break;
        }
        let drawing = Instant::now();
        if terminal.draw(|f| runner.draw(f)).is_err() {
            leave_unseen(runner);
            return Ok(());
        }
        trace.note("frame_us", drawing.elapsed());
        if is_key {
            trace.note("key_to_screen_us", got.elapsed());
        }
    }
    Ok(())
}
