//! The terminal screens: the game, the new-game form, the analysis board and the review, all
//! built one way (see `screen`): a state that turns actions into effects, drawn by `ui`, run by
//! the one loop in `runner` with the search `service` behind it. The modules are listed in
//! dependency order: each uses only those above it (`tests/deps.rs` checks it).

pub mod job;
pub mod keys;
pub(crate) mod terminal;
pub mod event;
pub mod service;
pub mod screen;
pub(crate) mod input;
pub mod setup;
pub mod app;
pub mod board;
pub mod review;
pub mod practice;
pub mod solve;
pub mod train;
pub mod ui;
pub mod runner;
pub(crate) mod headless;

use std::fs;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;

use app::{App, Settings, Tone};
use event::Event;
use runner::{Front, Runner, Step};

use crate::game::Game;
use crate::player::Player;
use crate::store::{Paths, save_settings, write_atomic};

/// How the game starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// Settings after flags were applied.
    pub settings: Settings,
    /// Show the new-game screen first.
    pub setup: bool,
    /// Play or watch.
    pub mode: app::Mode,
    /// The game to start from (a FEN, a PGN or a resumed game).
    pub game: Option<Game>,
    /// The autosave a resumed game comes from: once this instance's autosave holds the game,
    /// that file is removed (when it is not this instance's own).
    pub resumed_from: Option<std::path::PathBuf>,
    /// Start position for new games.
    pub start_fen: Option<String>,
    /// Per-side think time in watch mode.
    pub think_ms: Option<[u64; 2]>,
    /// Least time between moves in watch mode.
    pub min_delay: Duration,
    /// Save the settings (the user chose them).
    pub remember: bool,
    /// Opening book file; `None` for the embedded book.
    pub book: Option<String>,
    /// Play without an opening book.
    pub no_book: bool,
    /// Syzygy directories (`DIR[:DIR...]`); `None` for `SYZYGY_PATH` or none.
    pub syzygy: Option<String>,
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
pub(crate) fn open_player(opts: &Options) -> (Player, Vec<String>) {
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

/// Timing trace for measurements: `KNIGHTFALL_TRACE=FILE` appends one line per figure.
/// Timings written to `$KNIGHTFALL_TRACE` when set (`name microseconds` per line).
pub(crate) struct Trace(Option<fs::File>);

impl Trace {
    pub(crate) fn open() -> Trace {
        Trace(std::env::var_os("KNIGHTFALL_TRACE").and_then(|p| {
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .ok()
        }))
    }

    pub(crate) fn note(&mut self, what: &str, d: Duration) {
        if let Some(f) = self.0.as_mut() {
            let _ = writeln!(f, "{what} {}", d.as_micros());
        }
    }
}

/// Runs the terminal game until the player quits; the board and reviews open over it and
/// close back to it.
pub fn run(opts: Options) -> Result<()> {
    let t0 = Instant::now();
    let mut paths = Paths::get();
    let mut game = opts.game.clone().unwrap_or_default();
    if opts.game.is_none()
        && let Some(fen) = &opts.start_fen
    {
        game = Game::from_fen(fen)?;
    }
    if opts.remember {
        let _ = save_settings(&paths, &opts.settings);
    }
    // An autosave that cannot be read is kept aside, not overwritten by the next game.
    let damaged = crate::store::keep_damaged_autosave(&paths);
    // Another running Knightfall keeps its autosave; this one writes its own.
    let slot = crate::store::AutosaveSlot::claim(&paths);
    paths.autosave = slot.path.clone();
    if let (Some(from), Some(game)) = (&opts.resumed_from, &opts.game) {
        // The resumed game moves into this instance's autosave, then leaves its old file.
        crate::store::keep_replaced_autosave(&paths, game);
        if write_atomic(&paths.autosave, &game.to_pgn()).is_ok() {
            crate::store::release_adopted(&paths, from, game);
        }
    }
    let mut app = App::new(opts.settings.clone(), game, opts.mode, t0);
    app.start_fen = opts.start_fen.clone();
    app.watch.min_delay = opts.min_delay;
    if let Some(ms) = opts.think_ms {
        app.watch.think_ms = ms;
    }
    let (mut player, mut warnings) = open_player(&opts);
    warnings.extend(crate::store::unknown_keys(&paths));
    let review = review_settings(&opts, &mut player);
    if let Some(holder) = &slot.held_by {
        warnings.push(format!(
            "The autosave is held ({holder}); this game autosaves to {}",
            slot.path.display()
        ));
    }
    if let Some((aside, why)) = damaged {
        warnings.push(format!(
            "The autosaved game could not be read ({why}); it is kept as {}",
            aside.display()
        ));
    }
    if !warnings.is_empty() {
        app.say(warnings.join("; "), Tone::Error);
    }
    let palette = app.palette();
    let mut stack = vec![Front::Game(Box::new(app))];
    if opts.setup {
        // The new-game screen first, over the game it will start; it offers the unfinished
        // game, if there is one.
        let resume = match opts.game {
            None => crate::store::unfinished(&paths, Some(&slot.path)),
            Some(_) => Vec::new(),
        };
        let mut setup = setup::SetupScreen::new(opts.settings.clone(), resume, false, palette);
        setup.note = (!warnings.is_empty()).then(|| warnings.join("; "));
        stack.push(Front::Setup(Box::new(setup)));
    }
    let mut runner = Runner::new(stack, player, Some(paths.clone()), review, palette);
    runner.bell = true;
    let result = serve(&mut runner, t0, |r, now| r.start(now));
    let notes = runner.farewell();
    say_after(&notes);
    let Some(app) = runner.game() else {
        return result;
    };
    let game = &app.game;
    let saved = crate::store::archive(game, &paths);
    if slot.held_by.is_some() {
        // A second instance's own autosave is not resumable; the game is in its archive file.
        if saved.as_ref().is_ok() {
            slot.release();
        }
    } else if game.ply() > 0 {
        let _ = write_atomic(&paths.autosave, &game.to_pgn());
    }
    result?;
    // The terminal may be gone (SIGHUP): a line nobody can read is not an error.
    match &saved {
        Ok(Some(path)) => {
            let _ = writeln!(io::stdout(), "Game saved to {}", path.display());
        }
        Ok(None) => {}
        Err(e) => {
            let _ = writeln!(io::stderr(), "knightfall: the game was not saved: {e:#}");
        }
    }
    Ok(())
}

/// How a review opened from a screen searches: the default time per position, every core the
/// settings allow, and the tablebases `player` has (loaded once for both).
fn review_settings(opts: &Options, player: &mut Player) -> crate::review::analyse::Settings {
    crate::review::analyse::Settings {
        movetime_ms: crate::review::DEFAULT_MOVETIME_MS,
        threads: match opts.settings.threads {
            0 => crate::engine::Engine::max_threads(),
            n => n,
        },
        tablebases: player.engine_mut().tablebases().cloned(),
    }
}

/// Runs the training screen until the player leaves it.
pub(crate) fn run_train(start: train::Start, opts: &Options) -> Result<()> {
    use train::Start;
    let t0 = Instant::now();
    let (mut player, warnings) = open_player(opts);
    let review = review_settings(opts, &mut player);
    let palette = ui::Palette::from_env(opts.settings.ascii, opts.settings.theme);
    let mut runner = Runner::new(Vec::new(), player, Some(Paths::get()), review, palette);
    let mut train = runner.train_screen(false);
    let difficulty = match &start {
        Start::List(d) | Start::Ending(_, d) => *d,
        Start::Fen(_) | Start::Mistakes | Start::Puzzles(_) => Default::default(),
    };
    train.difficulty = difficulty;
    match start {
        Start::List(_) => {}
        Start::Ending(ending, _) => train.open_ending(ending),
        Start::Fen(fen) => train.open_fen(&fen),
        Start::Mistakes => {
            train.choice = train::MISTAKES_ROW;
            train.start_practice();
        }
        Start::Puzzles(id) => {
            train.choice = train::PUZZLES_ROW;
            match id {
                Some(id) => train.open_puzzle(&id),
                None => train.start_puzzle(),
            }
        }
    }
    if !warnings.is_empty() {
        // Beside a start's own message, which would hide it: kept until a key is pressed.
        train.notice = Some(
            train
                .notice
                .into_iter()
                .chain(warnings)
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    runner.push(Front::Train(Box::new(train)));
    let result = serve(&mut runner, t0, |r, now| r.start(now));
    say_after(&runner.farewell());
    result
}

/// Runs the analysis board over `tree` at its node `at` until the player leaves it.
pub(crate) fn run_board(tree: crate::line_tree::Tree, at: usize, opts: &Options) -> Result<()> {
    let t0 = Instant::now();
    let (mut player, warnings) = open_player(opts);
    let review = review_settings(opts, &mut player);
    let mut board = board::Board::new(
        tree,
        at,
        ui::Palette::from_env(opts.settings.ascii, opts.settings.theme),
        false,
    );
    if !warnings.is_empty() {
        board.message = Some((warnings.join("; "), Tone::Error));
    }
    let palette = board.palette;
    let mut runner = Runner::new(
        vec![Front::Board(Box::new(board))],
        player,
        Some(Paths::get()),
        review,
        palette,
    );
    let result = serve(&mut runner, t0, |r, now| r.start(now));
    say_after(&runner.farewell());
    result
}

/// Runs the review screen over `listed` (game `chosen` at once, if given), searching with
/// `settings`, until the player leaves it.
pub(crate) fn run_review(
    listed: Vec<crate::store::Listed>,
    chosen: Option<usize>,
    settings: crate::review::analyse::Settings,
    opts: &Options,
) -> Result<()> {
    let t0 = Instant::now();
    // Reviews search with players of their own; the service's serves nothing else here.
    let player = Player::new(crate::engine::Config::default(), None, None);
    let palette = ui::Palette::from_env(opts.settings.ascii, opts.settings.theme);
    let mut screen = review::ReviewScreen::new(listed, settings.clone(), palette, false);
    screen.you = opts.settings.name.clone();
    let mut runner = Runner::new(
        vec![Front::Review(Box::new(screen))],
        player,
        Some(Paths::get()),
        settings,
        palette,
    );
    let result = serve(&mut runner, t0, |r, now| r.start_review(chosen, now));
    say_after(&runner.farewell());
    result
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
