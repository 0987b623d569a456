//! `knightfall puzzles`: build puzzles from games (`build`), rate a puzzle set again by the
//! levels (`rate`), or print a puzzle set as lichess's puzzle CSV (`export`).

use crate::output::{say, tell};
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::train::puzzle::{CSV_HEADER, Generator, Puzzle, read_csv};

/// The largest puzzle file read.
const MAX_CSV_BYTES: u64 = 64 << 20;

/// Arguments of `puzzles`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// `puzzles` actions.
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Find puzzles in games: after each move that throws the game away, a position where the
    /// other side has one clearly best line (lichess-puzzler's rules), checked by a
    /// full-strength search with the tablebases, with themes and a rating from the levels.
    Build {
        /// Where to write the puzzles (lichess's CSV layout); it must not exist yet.
        #[arg(long)]
        out: PathBuf,
        /// Nodes searched per position when checking a puzzle.
        #[arg(long, default_value_t = 300_000)]
        nodes: u64,
        /// Nodes searched per position when looking for mistakes.
        #[arg(long, default_value_t = 20_000)]
        scan_nodes: u64,
        /// PGN files of games.
        #[arg(required = true)]
        games: Vec<PathBuf>,
    },
    /// Rate a puzzle file again, as `build` rates what it finds (by how often each level solves
    /// each puzzle), and write it easiest first, with the themes this build finds.
    Rate {
        /// The puzzle file.
        #[arg(long)]
        file: PathBuf,
        /// Where to write the rated puzzles; it must not exist yet.
        #[arg(long)]
        out: PathBuf,
        /// Nodes searched per position at most by the levels (as `build --nodes`).
        #[arg(long, default_value_t = 300_000)]
        nodes: u64,
    },
    /// Print a puzzle set as lichess's puzzle CSV (`PuzzleId,FEN,Moves,Rating,Themes`), each
    /// puzzle checked: the built-in set, or a file.
    Export {
        /// The puzzle file (the built-in set when left out).
        #[arg(long)]
        file: Option<PathBuf>,
    },
}

/// Runs `puzzles`.
pub fn run(args: &Args) -> Result<()> {
    match &args.action {
        Action::Build {
            out,
            nodes,
            scan_nodes,
            games,
        } => build(out, *nodes, *scan_nodes, games),
        Action::Rate { file, out, nodes } => rate(file, out, *nodes),
        Action::Export { file: Some(file) } => export(file),
        Action::Export { file: None } => print(&crate::train::puzzle::built_in()),
    }
}

/// Refuses an `out` that exists; clears what an earlier run writing it left half written.
fn fresh_out(out: &Path) -> Result<()> {
    // What an earlier build of this file left half written when it was killed goes.
    if let Some(name) = out.file_name() {
        let dir = out
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        crate::store::temporaries::remove_stale(dir, Some(&name.to_string_lossy()));
    }
    if std::fs::symlink_metadata(out).is_ok() {
        bail!("{} exists already; name a new file", out.display());
    }
    Ok(())
}

fn build(out: &Path, nodes: u64, scan_nodes: u64, files: &[PathBuf]) -> Result<()> {
    fresh_out(out)?;
    // Every file is opened before the first search, so one that cannot be read is refused at
    // once, not hours in.
    let mut sources = Vec::new();
    for file in files {
        sources.push((file, crate::store::listing::scan(file)?));
    }
    let mut generator = Generator::new(nodes, None);
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut ids = std::collections::HashSet::new();
    // One game at a time, read from its file and played through as its turn comes: a file of
    // a million games takes no more memory than one of ten.
    for (file, games) in sources {
        let name = file
            .file_name()
            .unwrap_or(file.as_os_str())
            .to_string_lossy();
        for listed in games {
            let game = match listed.load() {
                Ok(game) => game,
                Err(e) => {
                    tell!("{} game {}: skipped ({e})", file.display(), listed.index);
                    continue;
                }
            };
            let before = puzzles.len();
            for p in generator.from_game(&game, scan_nodes) {
                if ids.insert(p.id.clone()) {
                    puzzles.push(p);
                }
            }
            // A build takes hours: what it has found is on disk after every game that found
            // some, so an interrupted build keeps it.
            if puzzles.len() > before {
                crate::store::write_atomic(out, &csv(&puzzles))?;
            }
            crate::output::note(format_args!(
                "\r{name} game {}: {} puzzles",
                listed.index,
                puzzles.len()
            ));
        }
    }
    tell!();
    crate::store::write_atomic(out, &csv(&puzzles))?;
    say!("{} puzzles written to {}", puzzles.len(), out.display())?;
    Ok(())
}

/// `puzzles` as lichess's CSV, with its header.
fn csv(puzzles: &[Puzzle]) -> String {
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for p in puzzles {
        text.push_str(&p.csv());
        text.push('\n');
    }
    text
}

fn rate(file: &Path, out: &Path, nodes: u64) -> Result<()> {
    fresh_out(out)?;
    let mut puzzles = read_file(file)?;
    let mut generator = Generator::new(nodes, None);
    let count = puzzles.len();
    for (i, p) in puzzles.iter_mut().enumerate() {
        p.rating = generator.rate(p);
        p.motifs = crate::train::motifs::of(&p.start(), &p.moves[1..]);
        crate::output::note(format_args!("\r{} of {count} rated", i + 1));
    }
    tell!();
    puzzles.sort_by(|a, b| a.rating.cmp(&b.rating).then_with(|| a.id.cmp(&b.id)));
    crate::store::write_atomic(out, &csv(&puzzles))?;
    say!("{count} puzzles written to {}", out.display())?;
    Ok(())
}

/// The puzzles of a CSV file, each checked.
fn read_file(file: &Path) -> Result<Vec<Puzzle>> {
    let (handle, len) = crate::store::listing::open_pgn(file)?;
    if len > MAX_CSV_BYTES {
        bail!("{} is not a puzzle file of at most 64 MB", file.display());
    }
    let rows = read_csv(std::io::Read::take(handle, MAX_CSV_BYTES))
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let mut puzzles = Vec::new();
    for (line, p) in rows {
        puzzles.push(p.map_err(|e| anyhow::anyhow!("{} line {line}: {e}", file.display()))?);
    }
    Ok(puzzles)
}

fn export(file: &Path) -> Result<()> {
    print(&read_file(file)?)
}

/// Prints `puzzles` as lichess's CSV, with its header.
fn print(puzzles: &[Puzzle]) -> Result<()> {
    super::emit(&csv(puzzles))
}
