//! The terminal screens: the game, the new-game form, the analysis board and the review, all
//! built one way (see `screen`): a state that turns actions into effects, drawn by `ui`, run by
//! the one loop in `runner` with the search `service` behind it, started by `launch`. The modules
//! are listed in dependency order: each uses only those above it (`tests/it/deps.rs` checks it).

pub mod job;
pub(crate) mod terminal;
pub mod event;
pub mod service;
pub(crate) mod review_all;
pub mod screen;
pub mod chrome;
pub(crate) mod input;
pub mod home;
pub mod settings;
pub mod library;
pub mod setup;
pub mod friend;
pub mod app;
pub mod board;
pub mod review;
pub mod train;
pub mod stats;
pub mod ui;
pub mod runner;
pub(crate) mod text;
pub(crate) mod launch;
pub(crate) mod headless;

use std::io::{self, Write};
use std::time::{Duration, Instant};

use anyhow::Result;

use app::{App, Tone};
use launch::Launch;
use runner::Front;

use crate::game::{Game, WallClock};
use crate::player::Player;
use crate::store::{Paths, save_settings, write_atomic};

/// How the game starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// Settings after flags were applied.
    pub settings: app::Settings,
    /// Show the home screen first (Knightfall started with no command).
    pub home: bool,
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
    /// The plain-text mode: every event a line of words, no screen.
    pub text: bool,
}

/// Runs the terminal game until the player quits; the board and reviews open over it and
/// close back to it.
pub fn run(opts: Options) -> Result<()> {
    run_with(opts, None)
}

/// Runs the game against the friend at the other end of `peer`, who is `remote`.
pub(crate) fn run_friend(
    opts: Options,
    peer: crate::net::peer::Peer,
    remote: app::Remote,
    redial: crate::net::meet::Redial,
) -> Result<()> {
    run_with(opts, Some((peer, remote, redial)))
}

/// Runs the terminal game, against a friend when `friend` is given.
fn run_with(
    opts: Options,
    friend: Option<(
        crate::net::peer::Peer,
        app::Remote,
        crate::net::meet::Redial,
    )>,
) -> Result<()> {
    let t0 = Instant::now();
    let mut paths = Paths::get();
    let mut game = opts.game.clone().unwrap_or_default();
    if opts.game.is_none()
        && let Some(fen) = &opts.start_fen
    {
        game = Game::from_fen(fen)?;
    }
    // The calendar, read once here: the game and every game begun after it are dated from it.
    let wall = WallClock::read(t0);
    game.dated(wall.at(t0));
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
    app.wall = Some(wall);
    app.start_fen = opts.start_fen.clone();
    app.watch.min_delay = opts.min_delay;
    if let Some(ms) = opts.think_ms {
        app.watch.think_ms = ms;
    }
    let mut launch = Launch::open(&opts, t0);
    launch.warnings.extend(crate::store::unknown_keys(&paths));
    if let Some(holder) = &slot.held_by {
        launch.warnings.push(format!(
            "The autosave is held ({holder}); this game autosaves to {}",
            slot.path.display()
        ));
    }
    if let Some((aside, why)) = damaged {
        launch.warnings.push(format!(
            "The autosaved game could not be read ({why}); it is kept as {}",
            aside.display()
        ));
    }
    let (peer, remote, redial) = match friend {
        Some((peer, remote, redial)) => (Some(peer), Some(remote), Some(redial)),
        None => (None, None, None),
    };
    if let Some(remote) = remote {
        app.remote = Some(remote);
        app.welcome_friend();
    }
    let note = launch.note();
    if let Some(note) = &note {
        app.say(note.clone(), Tone::Error);
    }
    launch.palette = app.palette();
    launch.files = Some(paths.clone());
    launch.bell = true;
    launch = launch.over(Front::Game(Box::new(app)));
    // The unfinished games the new-game screen offers, when it is the first (or the home
    // screen's Play).
    let resume = || match opts.game {
        None => crate::store::unfinished(&paths, Some(&slot.path)),
        Some(_) => Vec::new(),
    };
    if opts.home {
        let mut home = home::HomeScreen::new(resume(), false, launch.palette);
        home.message = note.map(|note| (note, Tone::Error));
        launch = launch.over(Front::Home(Box::new(home)));
    } else if opts.setup {
        // The new-game screen first, over the game it will start; it offers the unfinished
        // game, if there is one.
        let resume = resume();
        let mut setup = setup::SetupScreen::new(
            opts.settings.clone(),
            resume,
            false,
            launch.palette,
            crate::rng::Rng::from_entropy().next_u64(),
        );
        setup.note = note;
        launch = launch.over(Front::Setup(Box::new(setup)));
    }
    let mut runner = launch.runner();
    if let Some(peer) = peer {
        runner.connect(peer);
    }
    if let Some(redial) = redial {
        runner.redial(redial);
    }
    let result = launch::show(&mut runner, t0, opts.text, |r, now| r.start(now));
    let Some(app) = runner.game() else {
        return result;
    };
    let game = &app.game;
    let saved = crate::store::archive(game, &paths, app.kept_as());
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

/// Runs the training screen until the player leaves it.
pub(crate) fn run_train(start: train::Start, opts: &Options) -> Result<()> {
    use train::Start;
    let mut launch = Launch::open(opts, Instant::now());
    let (t0, warnings) = (launch.t0, std::mem::take(&mut launch.warnings));
    let mut runner = launch.runner();
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
    launch::show(&mut runner, t0, opts.text, |r, now| r.start(now))
}

/// Runs the statistics screen over `stats` until the player leaves it.
pub(crate) fn run_stats(stats: crate::store::library::stats::Stats, opts: &Options) -> Result<()> {
    // The player's book and tablebases serve the reviews opened from the screen.
    let launch = Launch::open(opts, Instant::now());
    let mut screen = stats::StatsScreen::new(stats, launch.palette, false);
    screen.message = launch.note().map(|note| (note, Tone::Error));
    launch
        .over(Front::Stats(Box::new(screen)))
        .show(|r, now| r.start(now))
}

/// Runs the analysis board over `tree` at its node `at` until the player leaves it.
pub(crate) fn run_board(tree: crate::line_tree::Tree, at: usize, opts: &Options) -> Result<()> {
    let launch = Launch::open(opts, Instant::now());
    let mut board = board::Board::new(tree, at, launch.palette, false);
    board.engine = launch.analysis.clone();
    board.wall = Some(WallClock::read(Instant::now()));
    board.message = launch.note().map(|note| (note, Tone::Error));
    launch
        .over(Front::Board(Box::new(board)))
        .show(|r, now| r.start(now))
}

/// Runs the library screen until the player leaves it; reviews opened from it search with
/// `settings`.
pub(crate) fn run_library(
    settings: crate::review::analyse::Settings,
    opts: &Options,
) -> Result<()> {
    let t0 = Instant::now();
    // Reviews search with players of their own; the service's serves nothing else here.
    let player = Player::new(crate::engine::Config::default(), None, None);
    let launch = Launch::with_player(opts, player, Vec::new(), settings, t0);
    let t0 = launch.t0;
    let mut runner = launch.runner();
    launch::show(&mut runner, t0, opts.text, |r, now| {
        r.start_on(screen::Open::Games, now)
    })
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
    let launch = Launch::with_player(opts, player, Vec::new(), settings.clone(), t0);
    let mut screen = review::ReviewScreen::new(listed, settings, launch.palette, false);
    screen.you = opts.settings.yours();
    launch
        .over(Front::Review(Box::new(screen)))
        .show(|r, now| r.start_review(chosen, now))
}
