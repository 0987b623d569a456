//! Command-line subcommands other than the game and UCI: each module has its `Args` and `run`.

pub mod analyse;
pub mod bench;
pub mod book;
pub mod eval;
pub mod play;
pub mod friend;
pub mod board;
pub mod puzzles;
pub mod review;
pub mod games;
pub mod stats;
pub mod tb;
pub mod train;

use anyhow::Result;
use shakmaty::Chess;

/// Writes `text` to stdout through the one checked writer ([`crate::output`]).
pub(crate) fn emit(text: &str) -> Result<()> {
    crate::output::write(format_args!("{text}"))
}

/// Parses a FEN given on the command line into a legal standard-chess position.
pub(crate) fn parse_fen(text: &str) -> Result<Chess> {
    Ok(crate::fen::position(text)?)
}
