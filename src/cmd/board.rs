//! `knightfall board`: the analysis board, from the start, a FEN, or a game of a PGN file (its
//! side lines included), shown at the end of its main line.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use crate::line_tree::Tree;
use crate::tablebase::Tablebases;

/// Arguments of `board`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// Start from this position (FEN).
    #[arg(long, conflicts_with = "file")]
    pub fen: Option<String>,
    /// Open this PGN's first game, with its side lines.
    pub file: Option<PathBuf>,
    /// Directories with more Syzygy tables (DIR[:DIR...]) on top of the built-in ones.
    #[arg(long, env = "SYZYGY_PATH")]
    pub syzygy: Option<String>,
}

/// Runs `board`.
pub fn run(args: &Args) -> Result<()> {
    let tree = match (&args.fen, &args.file) {
        (Some(fen), _) => {
            let pos = super::parse_fen(fen)?;
            let fen = crate::game::Game::from_fen(fen)?
                .start_fen()
                .map(str::to_string);
            Tree::new(pos, fen)
        }
        (None, Some(file)) => {
            let meta = std::fs::metadata(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            if !meta.is_file() || meta.len() > 64 << 20 {
                bail!(
                    "{} is not a PGN file Knightfall reads (a regular file up to 64 MB)",
                    file.display()
                );
            }
            let text = String::from_utf8_lossy(&std::fs::read(file)?).into_owned();
            let tree =
                Tree::from_pgn(&text).with_context(|| format!("cannot open {}", file.display()))?;
            if tree.len() == 1 && !text.contains("[FEN") {
                bail!("no moves or position in {}", file.display());
            }
            tree
        }
        (None, None) => Tree::new(shakmaty::Chess::default(), None),
    };
    let mut at = 0;
    while let Some(&c) = tree.node(at).children.first() {
        at = c;
    }
    let tablebases = Tablebases::load(args.syzygy.as_deref().filter(|s| !s.trim().is_empty()));
    for warning in tablebases.warnings() {
        eprintln!("warning: {warning}");
    }
    crate::tui::board::run(tree, at, Arc::new(tablebases), false)
}
