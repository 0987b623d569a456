//! `knightfall tb probe`: WDL and DTZ of a position from Syzygy tables.

use crate::output::tell;
use anyhow::{Context, Result};
use clap::Subcommand;

use crate::tablebase::{Tablebases, uci};

/// Arguments of `knightfall tb`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Debug, Subcommand)]
enum TbCommand {
    /// Print `wdl W dtz D` for a position (W in -2..2 and D from the side to move's view).
    Probe {
        /// Directories with more tables, `DIR[:DIR...]`, on top of the built-in 3-4 piece
        /// tables (default: the SYZYGY_PATH environment variable).
        #[arg(long, env = "SYZYGY_PATH")]
        syzygy: Option<String>,
        /// Also list every legal move, best first: `UCI-move result dtz D`.
        #[arg(long)]
        moves: bool,
        /// The position as FEN.
        #[arg(required = true, num_args = 1..)]
        fen: Vec<String>,
    },
}

/// Runs `knightfall tb ...`.
pub fn run(args: &Args) -> Result<()> {
    match &args.command {
        TbCommand::Probe { syzygy, moves, fen } => probe(syzygy.as_deref(), *moves, &fen.join(" ")),
    }
}

fn probe(syzygy: Option<&str>, moves: bool, fen: &str) -> Result<()> {
    let pos = super::parse_fen(fen)?;
    let spec = syzygy.filter(|s| !s.trim().is_empty());
    let tables = Tablebases::load(spec);
    for warning in tables.warnings() {
        tell!("warning: {warning}");
    }
    let source = match spec {
        Some(dirs) => format!("the built-in tables and {dirs}"),
        None => "the built-in 3-4 piece tables (add larger ones with --syzygy)".to_string(),
    };
    let probe = tables
        .probe(&pos)
        .with_context(|| format!("cannot probe {} in {source}", fen.trim()))?;
    let mut out = format!("wdl {} dtz {}\n", i32::from(probe.wdl), probe.dtz);
    if moves {
        let ranked = tables
            .rank_root_moves(&pos)
            .with_context(|| format!("cannot rank the moves of {} in {source}", fen.trim()))?;
        for m in ranked {
            out.push_str(&format!(
                "{} {} dtz {}\n",
                uci(&m.mv),
                m.outcome_word(),
                m.dtz
            ));
        }
    }
    super::emit(&out)
}
