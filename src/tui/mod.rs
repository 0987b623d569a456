//! The terminal game: terminal setup and teardown (restored on quit, Ctrl-C, SIGTERM and panic),
//! the main loop over one event channel, settings and saved games on disk, and the headless
//! engine-against-engine runner.

pub mod app;
pub mod event;
pub mod ui;
pub mod worker;

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossbeam_channel::{RecvTimeoutError, unbounded};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use app::{Action, App, Effect, Settings, Tone};
use event::Event;
use worker::Worker;

use crate::game::{Game, timestamp};

/// Where settings and games live: `$KNIGHTFALL_HOME` when set (tests), else the platform's
/// config and data directories.
#[derive(Clone, Debug)]
pub struct Paths {
    /// The config file.
    pub config: PathBuf,
    /// Directory for saved games.
    pub data: PathBuf,
}

impl Paths {
    /// The paths for this user.
    pub fn get() -> Paths {
        if let Some(home) = std::env::var_os("KNIGHTFALL_HOME") {
            let home = PathBuf::from(home);
            return Paths {
                config: home.join("config.toml"),
                data: home.join("games"),
            };
        }
        match directories::ProjectDirs::from("", "", "knightfall") {
            Some(dirs) => Paths {
                config: dirs.config_dir().join("config.toml"),
                data: dirs.data_dir().join("games"),
            },
            None => Paths {
                config: PathBuf::from("knightfall.toml"),
                data: PathBuf::from("knightfall-games"),
            },
        }
    }

    /// The in-progress game, rewritten after every move (for `--resume` and crashes).
    pub fn current(&self) -> PathBuf {
        self.data.join("current.pgn")
    }
}

/// Reads the settings; a missing or unreadable file gives the defaults.
pub fn load_settings(paths: &Paths) -> Settings {
    fs::read_to_string(&paths.config)
        .ok()
        .and_then(|text| toml::from_str(&text).ok())
        .unwrap_or_default()
}

/// Writes the settings.
pub fn save_settings(paths: &Paths, settings: &Settings) -> Result<()> {
    if let Some(dir) = paths.config.parent() {
        fs::create_dir_all(dir)?;
    }
    let text = toml::to_string(settings)?;
    fs::write(&paths.config, text).with_context(|| format!("writing {}", paths.config.display()))
}

/// Writes `text` to `path` through a temporary file, so a crash never leaves half a game.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let tmp = path.with_extension("pgn.tmp");
    fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

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

/// Opens the book and tablebases the options ask for; problems come back as warnings and the
/// game goes on without them.
pub fn open_sources(opts: &Options) -> (worker::Sources, Vec<String>) {
    let mut warnings = Vec::new();
    let mut sources = worker::Sources::default();
    if !opts.no_book {
        let book = match &opts.book {
            Some(path) => crate::book::Book::open(path),
            None => crate::book::Book::embedded(),
        };
        match book {
            Ok(b) => sources.book = Some(b),
            Err(e) => warnings.push(format!("No opening book: {e}")),
        }
    }
    let spec = opts
        .syzygy
        .clone()
        .or_else(|| std::env::var("SYZYGY_PATH").ok())
        .filter(|s| !s.is_empty());
    if let Some(spec) = spec {
        match crate::tablebase::Tablebases::open(&spec) {
            Ok(tb) => sources.tablebases = Some(tb),
            Err(e) => warnings.push(format!("No tablebases: {e}")),
        }
    }
    (sources, warnings)
}

static RESTORED: AtomicBool = AtomicBool::new(true);

/// Puts the terminal back: raw mode off, main screen, cursor and mouse as they were.
pub fn restore_terminal() {
    if RESTORED.swap(true, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

fn setup_terminal() -> Result<Terminal<CrosstermBackend<io::Stdout>>> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // A panic in the search thread is caught there and reported on screen; any other
        // panic ends the program, so the terminal goes back first.
        if std::thread::current().name() == Some(worker::THREAD_NAME) {
            return;
        }
        restore_terminal();
        previous(info);
    }));
    enable_raw_mode().context("the terminal game needs a terminal (raw mode failed)")?;
    RESTORED.store(false, Ordering::SeqCst);
    let mut out = io::stdout();
    execute!(out, EnterAlternateScreen, EnableMouseCapture)?;
    Ok(Terminal::new(CrosstermBackend::new(out))?)
}

/// Timing trace for measurements: `KNIGHTFALL_TRACE=FILE` appends one line per figure.
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

/// Runs the terminal game until the player quits.
pub fn run(opts: Options) -> Result<()> {
    let t0 = Instant::now();
    let paths = Paths::get();
    let mut game = opts.game.clone().unwrap_or_default();
    if opts.game.is_none()
        && let Some(fen) = &opts.start_fen
    {
        game = Game::from_fen(fen)?;
    }
    if opts.remember {
        let _ = save_settings(&paths, &opts.settings);
    }
    let mut app = App::new(opts.settings.clone(), game, opts.mode, opts.setup);
    app.start_fen = opts.start_fen.clone();
    app.min_delay = opts.min_delay;
    if let Some(ms) = opts.think_ms {
        app.think_ms = ms;
    }
    let (sources, warnings) = open_sources(&opts);
    if !warnings.is_empty() {
        app.say(warnings.join("; "), Tone::Error);
    }
    let mut terminal = setup_terminal()?;
    let result = main_loop(&mut terminal, &mut app, &paths, t0, sources);
    restore_terminal();
    let saved = archive(&app, &paths);
    result?;
    if let Some(path) = saved {
        println!("Game saved to {}", path.display());
    }
    Ok(())
}

/// Saves the finished or abandoned game under a timestamped name; returns the file.
fn archive(app: &App, paths: &Paths) -> Option<PathBuf> {
    if app.game.ply() == 0 {
        return None;
    }
    let path = paths.data.join(format!("{}.pgn", timestamp()));
    write_atomic(&path, &app.game.to_pgn()).ok()?;
    let _ = write_atomic(&paths.current(), &app.game.to_pgn());
    Some(path)
}

fn main_loop(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    app: &mut App,
    paths: &Paths,
    t0: Instant,
    sources: worker::Sources,
) -> Result<()> {
    let (tx, rx) = unbounded::<Event>();
    event::spawn_input(tx.clone());
    {
        let tx = tx.clone();
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
            signal_hook::consts::SIGINT,
        ]) {
            std::thread::spawn(move || {
                if signals.forever().next().is_some() {
                    let _ = tx.send(Event::Terminate);
                }
            });
        }
    }
    let worker = Worker::spawn(tx, sources);
    let mut trace = Trace::open();
    let fx = app.start();
    let mut quit = run_effects(fx, app, &worker, paths);
    let start = Instant::now();
    terminal.draw(|f| ui::draw(f, app))?;
    trace.note("first_frame_us", t0.elapsed());
    trace.note("frame_us", start.elapsed());
    while !quit {
        let tick = Duration::from_millis(100);
        let ev = if app.needs_ticks() {
            match rx.recv_timeout(tick) {
                Ok(ev) => Some(ev),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match rx.recv() {
                Ok(ev) => Some(ev),
                Err(_) => break,
            }
        };
        let got = Instant::now();
        let is_key = matches!(ev, Some(Event::Key(_)));
        let action = match ev {
            None => Some(Action::Tick),
            Some(Event::Key(k)) => Some(Action::Key(k)),
            Some(Event::Mouse(m)) => app::click_square(app, &m).map(Action::Click),
            Some(Event::Resize) => None,
            Some(Event::Engine(e)) => Some(Action::Engine(e)),
            Some(Event::Terminate) => {
                worker.stop();
                break;
            }
        };
        if let Some(action) = action {
            let fx = app.update(action);
            quit = run_effects(fx, app, &worker, paths);
        }
        if quit {
            break;
        }
        let start = Instant::now();
        terminal.draw(|f| ui::draw(f, app))?;
        trace.note("frame_us", start.elapsed());
        if is_key {
            trace.note("key_to_screen_us", got.elapsed());
        }
    }
    worker.stop();
    Ok(())
}

/// Carries out effects; returns true to quit.
fn run_effects(fx: Vec<Effect>, app: &mut App, worker: &Worker, paths: &Paths) -> bool {
    let mut quit = false;
    for effect in fx {
        match effect {
            Effect::Search(req) => worker.start(req),
            Effect::Stop => worker.stop(),
            Effect::NewGame => worker.new_game(),
            Effect::Quit => quit = true,
            Effect::SaveSettings => {
                if let Err(e) = save_settings(paths, &app.settings) {
                    app.say(format!("Settings not saved: {e:#}"), Tone::Error);
                }
            }
            Effect::Autosave => {
                if let Err(e) = write_atomic(&paths.current(), &app.game.to_pgn()) {
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
            Effect::Save(Some(file)) => match write_atomic(Path::new(&file), &app.game.to_pgn()) {
                Ok(()) => app.say(format!("Saved to {file}"), Tone::Info),
                Err(e) => app.say(format!("Not saved: {e:#}"), Tone::Error),
            },
        }
    }
    quit
}

/// Loads the in-progress game for `--resume`.
pub fn resume_game(paths: &Paths) -> Result<Game> {
    let path = paths.current();
    let text = fs::read_to_string(&path)
        .with_context(|| format!("no game to resume ({} not readable)", path.display()))?;
    let game = Game::from_pgn(&text).with_context(|| format!("reading {}", path.display()))?;
    if game.is_over() {
        anyhow::bail!(
            "the last game ({}) is finished; nothing to resume",
            path.display()
        );
    }
    Ok(game)
}
