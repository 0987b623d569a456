//! Command-line subcommands other than the game and UCI: each module has its `Args` and `run`.

pub mod analyse;
pub mod bench;
pub mod board;
pub mod book;
pub mod eval;
pub mod play;
pub mod puzzles;
pub mod review;
pub mod tb;
pub mod train;

use anyhow::Result;
use shakmaty::Chess;

/// Writes `text` to stdout; a closed pipe (`| head`) is not an error.
pub(crate) fn emit(text: &str) -> Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Parses a FEN given on the command line into a legal standard-chess position.
pub(crate) fn parse_fen(text: &str) -> Result<Chess> {
    Ok(crate::fen::position(text)?)
}
