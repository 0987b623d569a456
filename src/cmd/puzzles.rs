//! `knightfall puzzles`: build puzzles from games (`build`), rate a puzzle set again by the
//! levels (`rate`), import lichess's puzzle database into the library (`import`), or print
//! puzzles as lichess's puzzle CSV (`export`).

use crate::output::{say, tell};
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::motifs::Motif;
use crate::store::Paths;
use crate::store::library::Library;
use crate::store::library::import::Summary;
use crate::train::puzzle::{CSV_HEADER, Filter, Generator, Puzzle, read_csv};

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
    /// Import lichess's puzzle database (lichess_db_puzzle.csv, or .csv.zst as downloaded)
    /// into the library, for `knightfall train puzzles`: every puzzle checked (a legal
    /// position, each move legal in turn), a bad row refused with its line and why, a puzzle
    /// already there not added again. Columns are found by the header's names: PuzzleId, FEN,
    /// Moves and Rating must be there; RatingDeviation, Popularity, NbPlays, Themes, GameUrl
    /// and OpeningTags are kept when they are; others are ignored.
    Import {
        /// The puzzle files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print puzzles as lichess's puzzle CSV, each puzzle checked: the built-in set or a file
    /// (`PuzzleId,FEN,Moves,Rating,Themes`), or with --imported the puzzles imported into the
    /// library, in lichess's full layout (PuzzleId,FEN,Moves,Rating,RatingDeviation,
    /// Popularity,NbPlays,Themes,GameUrl,OpeningTags) and the order they were imported.
    Export {
        /// The puzzle file (the built-in set when left out).
        #[arg(long, conflicts_with = "imported")]
        file: Option<PathBuf>,
        /// The puzzles imported into the library with `puzzles import`.
        #[arg(long)]
        imported: bool,
        /// Only the puzzles of this theme: lichess's name (`fork`, `kingsideAttack`) or in
        /// words (`kingside attack`).
        #[arg(long)]
        theme: Option<String>,
        /// Only the puzzles rated from LOW to HIGH (`1200-1600`).
        #[arg(long, value_name = "LOW-HIGH", value_parser = parse_range)]
        rating: Option<(i32, i32)>,
    },
}

/// A rating range, `1200-1600`.
fn parse_range(text: &str) -> Result<(i32, i32), String> {
    crate::train::puzzle::parse_range(text)
        .ok_or_else(|| format!("{text:?} is not a rating range like 1200-1600"))
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
        Action::Import { files } => import(files),
        Action::Export {
            file,
            imported,
            theme,
            rating,
        } => {
            let mut filter = Filter {
                theme: None,
                range: *rating,
            };
            if *imported {
                let path = Paths::get().library();
                if !path.exists() {
                    bail!(
                        "no puzzle is imported yet: `knightfall puzzles import FILE` imports lichess's"
                    );
                }
                let library = Library::open(&path)?;
                if let Some(theme) = theme {
                    filter.theme = Some(theme_named(theme, &library.puzzle_themes()?)?);
                }
                let mut text = String::new();
                library.export_puzzles(&filter, |part| {
                    text.push_str(part);
                    if text.len() >= 1 << 16 {
                        super::emit(&text)?;
                        text.clear();
                    }
                    Ok(())
                })?;
                return super::emit(&text);
            }
            if let Some(theme) = theme {
                filter.theme = Some(theme_named(theme, &[])?);
            }
            let set = match file {
                Some(file) => read(file)?,
                None => crate::train::puzzle::built_in(),
            };
            let set: Vec<Puzzle> = set.into_iter().filter(|p| filter.fits(p)).collect();
            print(&set)
        }
    }
}

/// lichess's name of the theme `wanted` names (in words or by lichess's name): one of the
/// motifs this program finds, or of `imported` (the imported puzzles' themes).
fn theme_named(wanted: &str, imported: &[String]) -> Result<String> {
    if let Some(m) = Motif::parse(wanted) {
        return Ok(m.name().to_string());
    }
    match imported
        .iter()
        .find(|name| crate::motifs::same(name, wanted))
    {
        Some(name) => Ok(name.clone()),
        None => bail!(
            "{wanted:?} is no theme of these puzzles; the themes: {}",
            Motif::ALL
                .iter()
                .map(|m| m.name())
                .chain(imported.iter().map(String::as_str))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `puzzles import`: every file into the library, the summary at the end.
fn import(files: &[PathBuf]) -> Result<()> {
    let paths = Paths::get();
    let mut library = Library::open(&paths.library())?;
    let mut summary = Summary::default();
    for file in files {
        if let Err(e) = library.import_puzzles(file, &mut summary) {
            // One file that cannot be read does not stop the others.
            summary.refused += 1;
            summary.named.push(format!("{e:#}"));
        }
    }
    tell!("{}", summary.report());
    tell!(
        "The library ({}) holds {} puzzles.",
        paths.library().display(),
        library.puzzle_count()?
    );
    Ok(())
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
    let mut puzzles = read(file)?;
    let mut generator = Generator::new(nodes, None);
    let count = puzzles.len();
    for (i, p) in puzzles.iter_mut().enumerate() {
        p.rating = generator.rate(p);
        p.motifs = crate::motifs::of(&p.start(), &p.moves[1..]);
        crate::output::note(format_args!("\r{} of {count} rated", i + 1));
    }
    tell!();
    puzzles.sort_by(|a, b| a.rating.cmp(&b.rating).then_with(|| a.id.cmp(&b.id)));
    crate::store::write_atomic(out, &csv(&puzzles))?;
    say!("{count} puzzles written to {}", out.display())?;
    Ok(())
}

/// The puzzles of the file `file`, each checked.
fn read(file: &Path) -> Result<Vec<Puzzle>> {
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

/// Prints `puzzles` as lichess's CSV, with its header.
fn print(puzzles: &[Puzzle]) -> Result<()> {
    super::emit(&csv(puzzles))
}
