//! `knightfall review`: a game's review on the review screen, or (with `--out`, or when
//! standard output is not a terminal) the game written back annotated; without a file, the
//! library to choose a game from; with `--all`, every game of the library not reviewed yet.

use crate::output::tell;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Result, bail};

use crate::engine::Control;
use crate::review::analyse::{self, Settings};
use crate::review::{DEFAULT_MOVETIME_MS, Review};
use crate::store::library::bulk::{self, Gate};
use crate::store::library::{Library, keep};
use crate::store::listing::MAX_GAMES;
use crate::store::{Listed, Paths, games_folder, read_games};
use crate::tablebase::Tablebases;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Arguments of `review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The PGN file; without it, the library opens to choose a game from (the games folder's
    /// finished games and those imported).
    pub file: Option<PathBuf>,
    /// Which game of the file (from 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES as u64))]
    pub game: Option<u64>,
    /// Search time per position in milliseconds; the two positions of a move the first look
    /// calls a blunder, or of a close call (a move near a verdict's threshold), are searched
    /// three times as long again.
    #[arg(long, default_value_t = DEFAULT_MOVETIME_MS, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: u64,
    /// Write the annotated game to this file instead of opening the review screen.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Search threads (each searches its own positions); default: every core.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// Directories with more Syzygy tables (DIR[:DIR...]) on top of the built-in ones.
    #[arg(long, env = "SYZYGY_PATH")]
    pub syzygy: Option<String>,
    /// Review every game of the library not reviewed yet, newest first, on every core at the
    /// lowest priority, with a progress bar; each position found is kept at once, so Ctrl-C
    /// loses nothing and the next run goes on from there.
    #[arg(long, conflicts_with_all = ["file", "game", "out"])]
    pub all: bool,
    /// Review with another UCI engine: uci:COMMAND (uci:/usr/games/stockfish) or a configured
    /// engine's name; `knightfall` for Knightfall's own. Default: the config's review_engine.
    /// The tablebases still answer first.
    #[arg(long, value_name = "ENGINE")]
    pub engine: Option<String>,
    /// In plain text (`knightfall --text review`).
    #[arg(from_global)]
    pub text: bool,
}

impl Default for Args {
    /// The defaults the command line gives (the review offered after a game uses them).
    fn default() -> Args {
        Args {
            file: None,
            game: None,
            movetime: DEFAULT_MOVETIME_MS,
            out: None,
            threads: None,
            syzygy: None,
            all: false,
            engine: None,
            text: false,
        }
    }
}

/// The search settings for `args`, the engine taken from `config` when `--engine` does not
/// name one.
pub fn settings(args: &Args, config: &crate::store::settings::Settings) -> Result<Settings> {
    let asked = args.engine.as_deref().unwrap_or(&config.review_engine);
    let engine = config
        .engine_for_analysis(asked)
        .map_err(|why| anyhow::anyhow!("{why}"))?;
    // One asked for on the command line is checked before anything opens; the config's is
    // found wanting when it is asked to search, so that the library still opens without it.
    if let (Some(spec), Some(_)) = (&engine, &args.engine) {
        spec.check()
            .map_err(|e| anyhow::anyhow!("the review engine cannot be used: {e}"))?;
    }
    let tablebases = Tablebases::load(args.syzygy.as_deref().filter(|s| !s.trim().is_empty()));
    for warning in tablebases.warnings() {
        tell!("warning: {warning}");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(Settings {
        movetime_ms: args.movetime,
        threads: args.threads.map_or(cores, |t| t as usize),
        tablebases: Some(Arc::new(tablebases)),
        engine,
    })
}

/// Whether `a` and `b` name the same existing file.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Runs `review`.
pub fn run(args: &Args) -> Result<()> {
    if args.all {
        return review_all(args);
    }
    let paths = Paths::get();
    let mut config = crate::store::load_settings(&paths)?;
    config.text |= args.text;
    let screen = args.out.is_none() && (config.text || std::io::stdout().is_terminal());
    if screen && args.file.is_none() && args.game.is_none() {
        let review = settings(args, &config)?;
        let opts = super::board::tool_options(config, args.syzygy.clone());
        return crate::tui::run_library(review, &opts);
    }
    let listed = match &args.file {
        Some(file) => read_games(file)?,
        None => games_folder(&paths),
    };
    if listed.len() >= MAX_GAMES {
        tell!("note: the list stops at {MAX_GAMES} games; games after those are not listed");
    }
    let place = place(args, &listed)?;
    if screen {
        if place.is_none() && listed.is_empty() {
            bail!(
                "no finished games in {} yet; name a PGN file to review",
                paths.data.display()
            );
        }
        if let Some(Err(why)) = place.map(|i| listed[i].load()) {
            bail!("game {} cannot be reviewed: {why}", place.unwrap_or(0) + 1);
        }
        let review = settings(args, &config)?;
        let opts = super::board::tool_options(config, args.syzygy.clone());
        return crate::tui::run_review(listed, place, review, &opts);
    }
    let Some(chosen) = place.map(|i| &listed[i]) else {
        if listed.is_empty() {
            bail!("no games in {}; name a PGN file", paths.data.display());
        }
        print_list(&listed)?;
        bail!("choose one of these games with --game N");
    };
    // Writing the annotated game over the file it came from would lose the file's other games.
    if let (Some(out), Some(file)) = (&args.out, &args.file)
        && listed.len() > 1
        && same_file(out, file)
    {
        bail!(
            "{} holds {} games and --out would replace them all with this one; choose another file",
            file.display(),
            listed.len()
        );
    }
    let text = annotated(args, chosen, &paths, settings(args, &config)?)?;
    match &args.out {
        Some(path) => crate::store::write_atomic(path, &text)?,
        None => crate::output::write(format_args!("{text}"))?,
    }
    Ok(())
}

/// The place in the list `--game` names (the games folder lists the games of several files,
/// so this is not the game's number within its file); a file of one game needs no `--game`.
fn place(args: &Args, listed: &[Listed]) -> Result<Option<usize>> {
    Ok(match args.game {
        Some(n) if (1..=listed.len()).contains(&(n as usize)) => Some(n as usize - 1),
        Some(n) => bail!(match listed.len() {
            1 => format!("there is 1 game; --game {n} is not one"),
            count => format!("there are {count} games; --game {n} is not one"),
        }),
        None if listed.len() == 1 && args.file.is_some() => Some(0),
        None => None,
    })
}

/// Prints the games numbered as `--game` takes them, a part at a time, so that a list of
/// 100,000 games is not held twice.
fn print_list(listed: &[Listed]) -> Result<()> {
    let mut out = String::new();
    for (i, l) in listed.iter().enumerate() {
        out.push_str(&format!(
            "{:>4}  {}  {}\n",
            i + 1,
            l.file.display(),
            l.line()
        ));
        if out.len() >= 1 << 16 {
            crate::output::write(format_args!("{out}"))?;
            out.clear();
        }
    }
    crate::output::write(format_args!("{out}"))?;
    Ok(())
}

/// The `chosen` game reviewed (from the library or the cache as far as they go, the rest
/// searched with its progress on standard error, then kept) as annotated PGN.
fn annotated(args: &Args, chosen: &Listed, paths: &Paths, settings: Settings) -> Result<String> {
    // The annotated game says what its file said: no date or start time is made up for it.
    let game = chosen
        .load()
        .map_err(|why| anyhow::anyhow!("game {} cannot be reviewed: {why}", chosen.index))?;
    // The library's review when the game is there (one of the games folder, or imported);
    // a library not made yet is not made for this.
    let mut library = Some(paths.library())
        .filter(|file| file.exists())
        .and_then(|file| Library::open(&file).ok());
    let (mut review, id) = keep::known(
        library.as_ref(),
        paths,
        game,
        None,
        args.movetime,
        settings.engine_name(),
    );
    let total = review.evals.len();
    // A review the cache found at another time is finished at that time, as the screen does.
    let settings = Settings {
        movetime_ms: review.movetime_ms,
        ..settings
    };
    let failed = search(&mut review, &settings);
    if let Err(e) = keep::keep(library.as_mut(), paths, &review, id) {
        tell!("warning: review not kept: {e:#}");
    }
    if !failed.is_empty() {
        bail!(
            "the search failed in {} of {total} positions, so the review is incomplete (what was found is kept for next time): {}",
            failed.len(),
            failed.join("; ")
        );
    }
    Ok(review.annotated_pgn())
}

/// Searches the positions of `review` it does not know yet, and again those of its doubtful
/// moves, counting them on standard error; why each search that failed did.
fn search(review: &mut Review, settings: &Settings) -> Vec<String> {
    let total = review.evals.len();
    let mut done = review.done();
    let control = Control::default();
    let mut stderr = std::io::stderr();
    // A terminal sees the count go up in place; a log gets one line at the end.
    let live = stderr.is_terminal();
    let cached = done;
    let known = review.evals.clone();
    let mut failed = Vec::new();
    let mut looked_again = 0;
    analyse::analyse(
        &review.game.clone(),
        settings,
        &known,
        &control,
        &mut |ply, eval| {
            // A doubtful move's positions are searched a second time and reported again.
            let again = review.evals[ply].is_some();
            match eval {
                Ok(eval) => review.evals[ply] = Some(eval),
                Err(why) => failed.push(format!("position {ply}: {why}")),
            }
            if again {
                looked_again += 1;
            } else {
                done += 1;
            }
            if live {
                let _ = write!(stderr, "\r{}", progress(done, total, looked_again));
            }
        },
    );
    if done > cached {
        // The line in place ends; a log gets its one line.
        let last = if live {
            String::new()
        } else {
            progress(done, total, looked_again)
        };
        let _ = writeln!(stderr, "{last}");
    }
    failed
}

/// The review's progress line: positions known of all, and those searched a second time.
fn progress(done: usize, total: usize, looked_again: usize) -> String {
    match looked_again {
        0 => format!("reviewing: position {done} of {total}"),
        n => format!("reviewing: position {done} of {total}, {n} looked at again"),
    }
}

/// `review --all`: every game of the library not reviewed yet, until the end or a signal
/// (Ctrl-C, SIGTERM, SIGHUP) stops it; each position found is kept as it comes.
fn review_all(args: &Args) -> Result<()> {
    // First, before any thread starts: on Linux the threads started after inherit it.
    bulk::lowest_priority();
    let paths = Paths::get();
    let mut library = Library::open(&paths.library())?;
    library.index_folder(&paths)?;
    let settings = settings(args, &crate::store::load_settings(&paths)?)?;
    let gate = Arc::new(Gate::default());
    let signal = stop_on_signals(&gate)?;
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "reviewing [{bar:30}] {human_pos}/{human_len} positions, {elapsed} gone, {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let began = std::time::Instant::now();
    let progress = bulk::run(&mut library, &settings, &gate, &mut |p| {
        bar.set_length(p.positions);
        bar.set_position(p.positions_done);
        let mut msg = format!(
            "game {} of {}",
            bulk::thousands((p.games_done + p.elsewhere + 1).min(p.games) as u64),
            bulk::thousands(p.games as u64)
        );
        if let Some(eta) = p.eta {
            msg.push_str(&format!(", about {} left", bulk::duration_words(eta)));
        }
        bar.set_message(msg);
    });
    bar.finish_and_clear();
    let progress = progress?;
    if progress.games == 0 {
        tell!(
            "Every game of the library is reviewed ({} games).",
            library.count()?
        );
        return Ok(());
    }
    let took = bulk::duration_words(began.elapsed());
    if progress.stopped {
        tell!(
            "Stopped after {took}: {} reviewed, every position found kept; \
             `knightfall review --all` goes on from there.",
            progress.games_words()
        );
    } else {
        tell!(
            "Reviewed {} {} ({} positions) in {took}.",
            bulk::thousands(progress.games_done as u64),
            if progress.games_done == 1 {
                "game"
            } else {
                "games"
            },
            bulk::thousands(progress.positions_done)
        );
    }
    if progress.elsewhere > 0 {
        tell!(
            "{} being reviewed by another Knightfall at the same time, left to it.",
            match progress.elsewhere {
                1 => "1 game was".to_string(),
                n => format!("{} games were", bulk::thousands(n as u64)),
            }
        );
    }
    if progress.failed > 0 {
        tell!(
            "The search failed in {} positions; their games stay to be reviewed.",
            progress.failed
        );
    }
    if let Some(signal) = signal.lock().ok().and_then(|s| *s) {
        // As a shell expects of a command a signal ended.
        std::process::exit(128 + signal);
    }
    Ok(())
}

/// Stops `gate` on Ctrl-C, SIGTERM or SIGHUP; what holds the signal that came, if one did.
fn stop_on_signals(gate: &Arc<Gate>) -> Result<Arc<std::sync::Mutex<Option<i32>>>> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let came = Arc::new(std::sync::Mutex::new(None));
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    let (gate, held) = (gate.clone(), came.clone());
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            if let Ok(mut held) = held.lock() {
                *held = Some(signal);
            }
            gate.stop();
        }
    });
    Ok(came)
}
