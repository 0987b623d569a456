//! `knightfall book probe|build`: list a position's book moves, or build a Polyglot book from
//! PGN games.

use crate::output::tell;
use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Subcommand;
use shakmaty::Chess;

use crate::book::{Book, BookBuilder, BuildOptions, write_book};

/// Arguments of `knightfall book`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Debug, Subcommand)]
enum BookCommand {
    /// List the book moves of a position.
    ///
    /// One per line, UCI move and weight, highest weight first; nothing (and success) when the
    /// position is not in the book.
    Probe {
        /// Polyglot book to read (default: the embedded GNU Chess book).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The position as FEN, or `startpos`.
        #[arg(required = true, num_args = 1..)]
        fen: Vec<String>,
    },
    /// Build a Polyglot book from PGN games.
    ///
    /// Weights are 2/1/0 points per win/draw/loss of the side that played the move, as the
    /// Polyglot tool counts them; moves that never scored are left out.
    Build {
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
        /// Record only moves played before this ply (half-move) of each game.
        #[arg(long, default_value_t = BuildOptions::default().max_ply)]
        max_ply: u32,
        /// Keep only moves played in at least this many games.
        #[arg(long, default_value_t = BuildOptions::default().min_games)]
        min_games: u32,
        /// PGN files to read.
        #[arg(required = true)]
        pgn: Vec<PathBuf>,
    },
}

/// Runs `knightfall book ...`.
pub fn run(args: &Args) -> Result<()> {
    match &args.command {
        BookCommand::Probe { book, fen } => probe(book.as_ref(), &fen.join(" ")),
        BookCommand::Build {
            out,
            max_ply,
            min_games,
            pgn,
        } => build(
            out,
            BuildOptions {
                max_ply: *max_ply,
                min_games: *min_games,
            },
            pgn,
        ),
    }
}

/// Parses `startpos` or a FEN.
pub(crate) fn parse_position(text: &str) -> Result<Chess> {
    if text.trim() == "startpos" {
        Ok(Chess::default())
    } else {
        super::parse_fen(text)
    }
}

fn probe(path: Option<&PathBuf>, fen: &str) -> Result<()> {
    let pos = parse_position(fen)?;
    let book = match path {
        Some(path) => Book::open(path)?,
        None => Book::embedded()?,
    };
    let mut out = String::new();
    for m in book.moves(&pos) {
        out.push_str(&format!("{} {}\n", m.uci(), m.weight));
    }
    super::emit(&out)
}

fn build(out: &PathBuf, options: BuildOptions, pgns: &[PathBuf]) -> Result<()> {
    // Writing over an input would destroy the games the book is built from.
    if let Ok(target) = out.canonicalize()
        && let Some(input) = pgns
            .iter()
            .find(|p| p.canonicalize().is_ok_and(|p| p == target))
    {
        bail!(
            "--out {} is one of the input files ({}); choose another name",
            out.display(),
            input.display()
        );
    }
    let mut builder = BookBuilder::new(options);
    for pgn in pgns {
        builder.add_pgn_file(pgn)?;
    }
    let stats = builder.stats().clone();
    for skipped in &stats.skipped {
        tell!("skipped {skipped}");
    }
    let entries = builder.entries();
    if entries.is_empty() {
        bail!(
            "no book entries from {} games (max ply {}, min games {}): nothing written to {}",
            stats.games,
            options.max_ply,
            options.min_games,
            out.display()
        );
    }
    write_book(out, &entries)?;
    let positions = {
        let mut keys: Vec<u64> = entries.iter().map(|e| e.key).collect();
        keys.dedup();
        keys.len()
    };
    tell!(
        "wrote {} entries for {} positions from {} games ({} skipped) to {}",
        entries.len(),
        positions,
        stats.games,
        stats.skipped.len(),
        out.display()
    );
    Ok(())
}
