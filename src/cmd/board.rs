//! `knightfall board`: the analysis board, from the start, a FEN, or a game of a PGN file (its
//! side lines included), shown at the end of its main line.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use crate::line_tree::Tree;

/// The largest PGN file the board reads: its line tree holds 100,000 positions at most.
const MAX_PGN_BYTES: u64 = 64 << 20;

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
    /// Analyse with another UCI engine: uci:COMMAND (uci:/usr/games/stockfish) or a configured
    /// engine's name; `knightfall` for Knightfall's own. Default: the config's analysis_engine.
    #[arg(long, value_name = "ENGINE")]
    pub engine: Option<String>,
    /// In plain text (`knightfall --text board`).
    #[arg(from_global)]
    pub text: bool,
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
            let text = crate::store::read_pgn(file, MAX_PGN_BYTES)?;
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
    let mut settings = crate::store::load_settings(&crate::store::Paths::get())?;
    if let Some(engine) = &args.engine {
        // Checked here, so a typo is told before the screen opens.
        if let Some(spec) = settings
            .engine_for_analysis(engine)
            .map_err(|why| anyhow::anyhow!("{why}"))?
        {
            spec.check()
                .map_err(|e| anyhow::anyhow!("the analysis engine cannot be used: {e}"))?;
        }
        settings.analysis_engine = engine.clone();
    }
    settings.text |= args.text;
    crate::tui::run_board(tree, at, &tool_options(settings, args.syzygy.clone()))
}

/// Options for a screen opened on its own (the board, a review): the config file's settings,
/// ASCII pieces where the terminal has no Unicode, and the Syzygy directories given.
pub(crate) fn tool_options(
    mut settings: crate::tui::app::Settings,
    syzygy: Option<String>,
) -> crate::tui::Options {
    settings.ascii |= !super::play::unicode_terminal();
    let settings_text = settings.text;
    crate::tui::Options {
        settings,
        home: false,
        setup: false,
        mode: crate::tui::app::Mode::Play,
        game: None,
        resumed_from: None,
        start_fen: None,
        think_ms: None,
        min_delay: std::time::Duration::ZERO,
        remember: false,
        book: None,
        no_book: false,
        syzygy,
        text: settings_text,
    }
}
