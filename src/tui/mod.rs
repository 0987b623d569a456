//! The terminal game: the main loop over one event channel (shared with the headless watcher),
//! the app and its screen, settings and saved games on disk.

pub mod app;
pub mod board;
pub mod event;
pub mod headless;
pub mod job;
pub mod review;
pub mod runner;
pub mod terminal;
pub mod ui;
pub mod worker;

use std::fs;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::store::{Paths, resume_game, save_settings, write_atomic};
use app::{After, App, Settings, Tone};
use event::Event;
use runner::{Runner, Step};

use crate::game::Game;
use crate::player::Player;

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
pub fn open_player(opts: &Options) -> (Player, Vec<String>) {
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

/// Runs the terminal game until the player quits; a review or the board asked for from the
/// game opens when it closes, and leaving either goes back to the game.
pub fn run(opts: Options) -> Result<()> {
    let mut opts = opts;
    // A loop, not recursion: each pass's game (its engine and tables) is gone before the next.
    while let Some(next) = run_game(opts)? {
        match next.after {
            After::Review => {
                let listed = vec![crate::store::Listed {
                    file: next.saved.unwrap_or_default(),
                    index: 1,
                    game: Ok(next.back.game.clone().unwrap_or_default()),
                }];
                let settings = crate::review::analyse::Settings {
                    movetime_ms: crate::review::DEFAULT_MOVETIME_MS,
                    threads: crate::engine::Engine::max_threads(),
                    tablebases: Some(std::sync::Arc::new(crate::tablebase::Tablebases::load(
                        syzygy_spec(&next.back).as_deref(),
                    ))),
                };
                review::run(&settings, listed, Some(0), true)?;
            }
            After::Board => {
                // The board opens at the move shown; the main line is the game.
                let game = next.back.game.clone().unwrap_or_default();
                let tree = crate::line_tree::Tree::from_game(&game);
                let tables = crate::tablebase::Tablebases::load(syzygy_spec(&next.back).as_deref());
                board::run(tree, next.at, std::sync::Arc::new(tables), true)?;
            }
        }
        if event::exit_requested() {
            break;
        }
        opts = next.back;
    }
    Ok(())
}

/// What follows a game that closed for a review or the board.
struct Next {
    after: After,
    /// The move shown when it closed.
    at: usize,
    /// The game's archive file, if it has one.
    saved: Option<std::path::PathBuf>,
    /// How to go back to the game as it was (its file is kept: a continuation replaces it).
    back: Options,
}

/// One run of the game screen: `Some` when the player asked for a review or the board.
fn run_game(opts: Options) -> Result<Option<Next>> {
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
    let mut app = App::new(opts.settings.clone(), game, opts.mode, opts.setup);
    if opts.setup && opts.game.is_none() {
        // The new-game screen offers the unfinished game, if there is one.
        app.resume = resume_game(&paths).ok();
    }
    app.start_fen = opts.start_fen.clone();
    app.min_delay = opts.min_delay;
    if let Some(ms) = opts.think_ms {
        app.think_ms = ms;
    }
    let (player, mut warnings) = open_player(&opts);
    if let Some(pid) = slot.held_by {
        warnings.push(format!(
            "Another Knightfall (process {pid}) is playing; this game autosaves to {}",
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
    let mut runner = Runner::new(app, player, Some(paths.clone()));
    let mut terminal = terminal::setup_terminal()?;
    let result = main_loop(&mut terminal, &mut runner, t0);
    terminal::restore_terminal();
    // The cursor is back already; ratatui's own clean-up would report a closed terminal on
    // stderr, and printing to a closed terminal panics. Nothing else is left to release.
    std::mem::forget(terminal);
    runner.stop();
    let game = &runner.app.game;
    let saved = crate::store::archive(game, &paths);
    if slot.held_by.is_some() {
        // A second instance's own autosave is not resumable; the game is in its archive file.
        if saved.as_ref().is_ok() {
            let _ = std::fs::remove_file(&paths.autosave);
        }
    } else if game.ply() > 0 {
        let _ = write_atomic(&paths.autosave, &game.to_pgn());
    }
    result?;
    // The terminal may be gone (SIGHUP): a line nobody can read is not an error.
    let mut out = io::stdout();
    match &saved {
        Ok(Some(path)) => {
            let _ = writeln!(out, "Game saved to {}", path.display());
        }
        Ok(None) => {}
        Err(e) => {
            let _ = writeln!(io::stderr(), "knightfall: the game was not saved: {e:#}");
        }
    }
    Ok(runner.app.after.map(|after| Next {
        after,
        at: runner.app.shown_ply(),
        saved: saved.ok().flatten(),
        back: Options {
            settings: runner.app.settings.clone(),
            setup: false,
            mode: runner.app.mode,
            game: Some(runner.app.game.clone()),
            remember: false,
            ..opts
        },
    }))
}

fn main_loop(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    runner: &mut Runner,
    t0: Instant,
) -> Result<()> {
    event::route_input_to(runner.sender());
    let mut trace = Trace::open();
    if runner.start() {
        return Ok(());
    }
    let start = Instant::now();
    terminal.draw(|f| ui::draw(f, &runner.app))?;
    trace.note("first_frame_us", t0.elapsed());
    trace.note("frame_us", start.elapsed());
    while let Some(ev) = runner.next_event() {
        let got = Instant::now();
        let is_key = matches!(ev, Some(Event::Key(_)));
        if runner.step(ev) == Step::Quit {
            break;
        }
        let start = Instant::now();
        terminal.draw(|f| ui::draw(f, &runner.app))?;
        trace.note("frame_us", start.elapsed());
        if is_key {
            trace.note("key_to_screen_us", got.elapsed());
        }
    }
    Ok(())
}
