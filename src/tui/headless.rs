//! `watch --headless`: engine games without a screen, run by the same loop and the same app as
//! the screen (so clocks, results and adjudication are decided by the same code), written as PGN.

use crate::output::{say, tell};
use std::fs;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use shakmaty::{Color, Position};

use super::Options;
use super::app::{App, Mode};
use super::event::Event;
use super::job::{EngineEvent, Purpose};
use super::runner::{Front, Runner, Step};
use super::screen::Palette;
use crate::game::{Game, Moment};
use crate::player::Source;
use crate::rng::Rng;
use crate::store::GameKind;

/// A series of headless games.
#[derive(Clone, Debug)]
pub(crate) struct Series {
    /// How many games.
    pub games: u32,
    /// Where to write them as PGN.
    pub pgn: Option<String>,
    /// Random plies at the start of each game (on top of the book), for variety.
    pub random_plies: u32,
}

/// Counts over the series, printed at the end.
#[derive(Default)]
struct Tally {
    white: u32,
    black: u32,
    draws: u32,
    /// Games aborted on time before both sides had moved: no result for either.
    aborted: u32,
    illegal: u32,
    book: u64,
    tablebase: u64,
}

/// Plays the series and prints one line per game and a summary.
pub(crate) fn run(opts: &Options, series: &Series) -> Result<()> {
    let mut out = match &series.pgn {
        // Appended, as other tools write a series: running it again must not empty the games
        // of the last run.
        Some(path) => Some(
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .read(true)
                .open(path)
                .with_context(|| format!("opening {path}"))?,
        ),
        None => None,
    };
    let paths = crate::store::Paths::get();
    let mut launch = super::launch::Launch::open(opts, Instant::now());
    for w in std::mem::take(&mut launch.warnings) {
        tell!("knightfall: {w}");
    }
    // Every series opens differently: nothing reproduces its random plies.
    let mut rng = Rng::from_entropy();
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut app = App::new(
        opts.settings.clone(),
        Game::new(),
        Mode::Watch,
        Instant::now(),
    );
    app.start_fen = opts.start_fen.clone();
    app.watch.min_delay = Duration::ZERO;
    if let Some(ms) = opts.think_ms {
        app.watch.think_ms = ms;
    }
    // No terminal: no colours, no bell, no files but the ones the series writes.
    launch.palette = Palette::default();
    launch.files = None;
    let mut runner = launch.over(Front::Game(Box::new(app))).runner();
    // Stopped as the screen is (SIGTERM, SIGINT, SIGHUP, SIGQUIT): the series ends between
    // two events, with every finished game written.
    super::event::route_signals_to(runner.sender());
    let mut series_out = Output {
        pgn: out.as_mut(),
        paths: &paths,
        tally: &mut tally,
    };
    let result = play_series(&mut runner, opts, series, &mut rng, &mut series_out);
    // However the series ended (its last game, a signal, a closed output, an error), the game
    // in progress is kept as the screen keeps it: in the games folder.
    keep_unfinished(&runner, &paths);
    // The engines go now, at once, whatever they are doing.
    drop(runner);
    result?;
    say!(
        "{} games in {:.1} s: White {}, Black {}, draws {}{}, illegal moves {}, book moves {}, tablebase moves {}",
        tally.white + tally.black + tally.draws + tally.aborted,
        started.elapsed().as_secs_f64(),
        tally.white,
        tally.black,
        tally.draws,
        aborted(tally.aborted),
        tally.illegal,
        tally.book,
        tally.tablebase
    )?;
    if tally.illegal > 0 {
        bail!("{} illegal moves", tally.illegal);
    }
    Ok(())
}

/// The aborted games of a count, when there are any (`, aborted 1`).
fn aborted(n: u32) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(", aborted {n}")
    }
}

/// Where a series' games go, and its counts.
struct Output<'a> {
    /// The PGN file named, open for appending.
    pgn: Option<&'a mut fs::File>,
    paths: &'a crate::store::Paths,
    tally: &'a mut Tally,
}

/// Plays the games of `series` one after another, writing each as it ends; a signal ends the
/// series early, and that is no error.
fn play_series(
    runner: &mut Runner,
    opts: &Options,
    series: &Series,
    rng: &mut Rng,
    out: &mut Output<'_>,
) -> Result<()> {
    for n in 1..=series.games {
        let quit = runner.play(new_game(opts, series.random_plies, rng)?, Instant::now());
        if quit || play_out(runner, out.tally, n)? == Ended::Stopped {
            tell!("stopped during game {n} of {}", series.games);
            return Ok(());
        }
        let Some(app) = runner.game() else {
            bail!("game {n} has no game screen");
        };
        let game = &app.game;
        let Some(outcome) = game.outcome() else {
            let why = app.line.message.as_ref().map_or("", |m| m.0.as_str());
            bail!("game {n} stopped before it ended: {why}");
        };
        let tally = &mut *out.tally;
        match outcome.winner {
            _ if game.is_aborted() => tally.aborted += 1,
            Some(Color::White) => tally.white += 1,
            Some(Color::Black) => tally.black += 1,
            None => tally.draws += 1,
        }
        // The game is written before it is reported: an output nobody reads any more must
        // not cost the game.
        let kept = match (out.pgn.as_deref_mut(), series.pgn.as_deref()) {
            (Some(f), Some(path)) => {
                if let Err(e) = crate::store::append_whole(f, &format!("{}\n", game.to_pgn())) {
                    // The game is kept all the same, where the screen would keep it.
                    let kept = match crate::store::archive(game, out.paths, GameKind::Watched) {
                        Ok(Some(p)) => format!("; it is kept as {}", p.display()),
                        Ok(None) => String::new(),
                        Err(why) => format!("; it could not be kept either ({why:#})"),
                    };
                    bail!(
                        "game {n} could not be added to {path} ({e}), which is left as it was \
                         before it{kept}"
                    );
                }
                None
            }
            // Without a file named, each game is kept with the games the player watched, apart
            // from their own.
            _ => crate::store::archive(game, out.paths, GameKind::Watched)
                .with_context(|| format!("keeping game {n}"))?,
        };
        say!(
            "game {n}/{}: {} {} in {} plies; so far White {}, Black {}, draws {}{}",
            series.games,
            outcome.result_str(),
            outcome.reason.describe(),
            game.ply(),
            tally.white,
            tally.black,
            tally.draws,
            aborted(tally.aborted)
        )?;
        if let Some(path) = kept {
            say!("  kept as {}", path.display())?;
        }
    }
    Ok(())
}

/// Keeps the game in progress, if it has moves and has not ended, in the games folder (where
/// the screen keeps a game it leaves), and says where.
fn keep_unfinished(runner: &Runner, paths: &crate::store::Paths) {
    let Some(app) = runner.game() else {
        return;
    };
    if app.game.is_over() || app.game.ply() == 0 {
        return;
    }
    match crate::store::archive(&app.game, paths, GameKind::Watched) {
        Ok(Some(path)) => tell!("the unfinished game is kept as {}", path.display()),
        Ok(None) => {}
        Err(e) => tell!("knightfall: the unfinished game was not kept: {e:#}"),
    }
}

/// A new game from the start position, with the clock and the random plies.
fn new_game(opts: &Options, random_plies: u32, rng: &mut Rng) -> Result<Game> {
    let mut game = match &opts.start_fen {
        Some(fen) => Game::from_fen(fen)?,
        None => Game::new(),
    };
    game.dated(Moment::now());
    game.set_time_control(opts.settings.time_control());
    for _ in 0..random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        let m = moves[rng.index(moves.len())];
        game.play(m, Some(Duration::ZERO))?;
    }
    Ok(game)
}

/// How a game's loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// The game ended, or stopped for a reason the series reports.
    Over,
    /// A signal (or the loop's end) stopped the series.
    Stopped,
}

/// How often a long game says how far it is.
const PROGRESS_EVERY: Duration = Duration::from_secs(60);

/// Runs the loop until game `n` ends, counting where the moves came from, with a line a minute
/// so a long game is seen to go on.
fn play_out(runner: &mut Runner, tally: &mut Tally, n: u32) -> Result<Ended> {
    let started = Instant::now();
    let mut said = started;
    while runner.game().is_some_and(|app| !app.game.is_over()) {
        if said.elapsed() >= PROGRESS_EVERY
            && let Some(app) = runner.game()
        {
            said = Instant::now();
            say!(
                "game {n}: move {} after {} s",
                app.game.position().fullmoves(),
                started.elapsed().as_secs()
            )?;
        }
        let Some(ev) = runner.next_event() else {
            return Ok(Ended::Stopped);
        };
        if let Some(Event::Engine(EngineEvent::Done {
            generation,
            purpose: Purpose::Play,
            best,
            source,
            ..
        })) = &ev
            && let Some(app) = runner.game()
            && *generation == app.search.generation
        {
            match source {
                Source::Book => tally.book += 1,
                Source::Tablebase => tally.tablebase += 1,
                Source::Search => {}
            }
            if !best.is_some_and(|m| app.game.position().is_legal(m)) {
                tally.illegal += 1;
                tell!("illegal or missing move {best:?} in {}", app.game.fen());
            }
        }
        if runner.step(ev, Instant::now()) == Step::Quit {
            return Ok(Ended::Stopped);
        }
        // Knightfall's own search failed and the app paused for a person to decide; there is
        // none here, so the game stops unfinished (and the series reports it).
        if runner
            .game()
            .is_some_and(|app| app.watch.paused && app.search.pending.is_none())
        {
            return Ok(Ended::Over);
        }
    }
    Ok(Ended::Over)
}
