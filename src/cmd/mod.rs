//! Command-line subcommands other than the game and UCI: each module has its `Args` and `run`.

pub mod analyse;
pub mod bench;
pub mod board;
pub mod book;
pub mod eval;
pub mod play;
pub mod review;
pub mod tb;

use anyhow::{Context, Result};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Parses a FEN given on the command line into a legal standard-chess position.
pub(crate) fn parse_fen(text: &str) -> Result<Chess> {
    let fen: Fen = text
        .trim()
        .parse()
        .with_context(|| format!("bad FEN {text:?}"))?;
    fen.into_position(CastlingMode::Standard)
        .with_context(|| format!("illegal position in FEN {text:?}"))
}
