//! `knightfall review`: a game's review on the review screen, or (with `--out`, or when
//! standard output is not a terminal) the game written back annotated.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use crate::engine::Control;
use crate::game::Game;
use crate::review::analyse::{self, Settings};
use crate::review::{DEFAULT_MOVETIME_MS, Review, cache};
use crate::tablebase::Tablebases;
use crate::tui::files::Paths;

/// PGN files larger than this are refused (a million games is about 1 GB; this is plenty).
const MAX_PGN_BYTES: u64 = 256 << 20;
/// At most this many games of one file are listed.
pub const MAX_GAMES: usize = 100_000;

/// Arguments of `review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The PGN file; without it, the games in the games folder are listed to choose from.
    pub file: Option<PathBuf>,
    /// Which game of the file (from 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES as u64))]
    pub game: Option<u64>,
    /// Search time per position in milliseconds.
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
        }
    }
}

/// A game in a list to choose from: where it is and what it is.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The file.
    pub file: PathBuf,
    /// Which game of the file (from 1).
    pub index: usize,
    /// The game, or why it cannot be reviewed.
    pub game: Result<Game, String>,
}

impl Listed {
    /// One line: `2026.11.22  Human - Knightfall (level 3)  0-1  C50 Italian Game`.
    pub fn line(&self) -> String {
        match &self.game {
            Ok(g) => {
                let [white, black] = &g.names;
                let result = g.outcome().map_or("*", |o| o.result_str());
                let opening = g
                    .opening()
                    .map(|o| format!("{} {}", o.eco, o.name))
                    .unwrap_or_default();
                format!(
                    "{}  {white} - {black}  {result}  {} moves  {opening}",
                    g.date,
                    g.moves().len().div_ceil(2)
                )
            }
            Err(why) => format!("(cannot be reviewed: {why})"),
        }
    }
}

/// Reads the games of a PGN file, refusing what is not a regular, reasonably sized file.
pub fn read_games(file: &Path) -> Result<Vec<Listed>> {
    let meta =
        std::fs::metadata(file).with_context(|| format!("cannot read {}", file.display()))?;
    if !meta.is_file() {
        bail!("{} is not a regular file", file.display());
    }
    if meta.len() > MAX_PGN_BYTES {
        bail!(
            "{} is {} MB; Knightfall reads PGN files up to {} MB",
            file.display(),
            meta.len() >> 20,
            MAX_PGN_BYTES >> 20
        );
    }
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let games: Vec<Listed> = Game::all_from_pgn(&text, MAX_GAMES)
        .into_iter()
        .enumerate()
        .map(|(i, g)| Listed {
            file: file.to_path_buf(),
            index: i + 1,
            game: g.map_err(|e| e.to_string()).and_then(|g| {
                if g.moves().is_empty() {
                    Err("it has no moves".to_string())
                } else {
                    Ok(g)
                }
            }),
        })
        .collect();
    if games.is_empty() {
        bail!("no game in {}", file.display());
    }
    Ok(games)
}

/// The finished games in the games folder, newest first (the autosaves left out).
pub fn games_folder(paths: &Paths) -> Vec<Listed> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(&paths.data)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| {
        let name = p.file_name().map(|n| n.to_string_lossy().to_string());
        p.extension().is_some_and(|e| e == "pgn") && !name.is_some_and(|n| n.starts_with("current"))
    });
    files.sort();
    files.reverse();
    files
        .iter()
        .filter_map(|f| read_games(f).ok())
        .flat_map(|games| games.into_iter().take(1))
        .collect()
}

/// The search settings for `args`.
pub fn settings(args: &Args) -> Settings {
    let tablebases = Tablebases::load(args.syzygy.as_deref().filter(|s| !s.trim().is_empty()));
    for warning in tablebases.warnings() {
        eprintln!("warning: {warning}");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Settings {
        movetime_ms: args.movetime,
        threads: args.threads.map_or(cores, |t| t as usize),
        tablebases: Some(Arc::new(tablebases)),
    }
}

/// Whether `a` and `b` name the same existing file.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Where reviews are cached.
pub fn cache_dir(paths: &Paths) -> PathBuf {
    paths.data.join("reviews")
}

/// Runs `review`.
pub fn run(args: &Args) -> Result<()> {
    let paths = Paths::get();
    let screen = args.out.is_none() && std::io::stdout().is_terminal();
    let listed = match &args.file {
        Some(file) => read_games(file)?,
        None => games_folder(&paths),
    };
    // The place in the list, as --game counts (the games folder lists one game a file, so
    // this is not the game's number within its file).
    let place = match args.game {
        Some(n) if (1..=listed.len()).contains(&(n as usize)) => Some(n as usize - 1),
        Some(n) => bail!(match listed.len() {
            1 => format!("there is 1 game; --game {n} is not one"),
            count => format!("there are {count} games; --game {n} is not one"),
        }),
        None if listed.len() == 1 && args.file.is_some() => Some(0),
        None => None,
    };
    if screen {
        return crate::tui::review::run(args, listed, place, false);
    }
    let chosen = place.map(|i| &listed[i]);
    let Some(chosen) = chosen else {
        if listed.is_empty() {
            bail!("no games in {}; name a PGN file", paths.data.display());
        }
        let mut out = String::new();
        // Numbered as --game takes them: by place in the list.
        for (i, l) in listed.iter().enumerate() {
            out.push_str(&format!(
                "{:>4}  {}  {}\n",
                i + 1,
                l.file.display(),
                l.line()
            ));
        }
        print!("{out}");
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
    let game = chosen
        .game
        .clone()
        .map_err(|why| anyhow::anyhow!("game {} cannot be reviewed: {why}", chosen.index))?;
    let mut review = Review::new(game, args.movetime);
    let dir = cache_dir(&paths);
    cache::load(&dir, &mut review);
    let total = review.evals.len();
    let mut done = review.done();
    let control = Control::default();
    let settings = settings(args);
    let mut stderr = std::io::stderr();
    let known = review.evals.clone();
    analyse::analyse(
        &review.game.clone(),
        &settings,
        &known,
        &control,
        &mut |ply, eval| {
            review.evals[ply] = Some(eval);
            done += 1;
            let _ = write!(stderr, "\rreviewing: position {done} of {total}");
        },
    );
    let _ = writeln!(stderr);
    if let Err(e) = cache::save(&dir, &review) {
        eprintln!("warning: review not cached: {e:#}");
    }
    let text = review.annotated_pgn();
    match &args.out {
        Some(path) => crate::tui::files::write_atomic(path, &text)?,
        None => print!("{text}"),
    }
    Ok(())
}
