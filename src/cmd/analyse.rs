//! `knightfall analyse`: searches one position, printing UCI-style info lines and the result in SAN.

use crate::output::{say, tell};
use std::sync::Arc;

use anyhow::Result;
use shakmaty::Position;
use shakmaty::san::SanPlus;

use crate::engine::{Config, Control, Engine, Limits};
use crate::tablebase::Tablebases;
use crate::uci_info;

/// Arguments of `analyse`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search to this depth.
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search for this many milliseconds (default 3000 when no depth is given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=crate::engine::tt::MAX_MB as u64))]
    pub hash: u64,
    /// Directories with more Syzygy tables (DIR[:DIR...]) on top of the built-in 3-4 piece
    /// ones; defaults to $SYZYGY_PATH when set.
    #[arg(long, env = "SYZYGY_PATH")]
    pub syzygy: Option<String>,
    /// The position in FEN.
    #[arg(required = true, num_args = 1..)]
    pub fen: Vec<String>,
}

/// Runs the search and prints its progress, best move and principal variation.
pub fn run(args: &Args) -> Result<()> {
    let pos = super::parse_fen(&args.fen.join(" "))?;
    let limits = match (args.depth, args.movetime) {
        (Some(depth), _) => Limits::depth(depth),
        (None, Some(ms)) => Limits::movetime(ms),
        (None, None) => Limits::movetime(3000),
    };
    let mut engine = Engine::new(Config {
        hash_mb: args.hash as usize,
        ..Config::default()
    });
    {
        let tablebases = Tablebases::load(args.syzygy.as_deref().filter(|s| !s.trim().is_empty()));
        for warning in tablebases.warnings() {
            tell!("warning: {warning}");
        }
        let tablebases = Arc::new(tablebases);
        if let Some(root) = tablebases.root_move(&pos) {
            say!(
                "tablebase: {}, DTZ {}, best {}",
                root.outcome_word(),
                root.dtz,
                SanPlus::from_move(pos.clone(), root.mv)
            )?;
        }
        engine.set_tablebases(Some(tablebases));
    }
    let control = Control::default();
    // A line that cannot be written ends the search: nobody reads the rest.
    let mut failed = None;
    let result = engine.search(&pos, &[], &limits, &control, &mut |info| {
        if failed.is_none()
            && let Err(e) = say!("{}", uci_info::write(info))
        {
            failed = Some(e);
            control
                .stop
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let Some(best) = result.best else {
        let reason = if pos.is_checkmate() {
            "checkmate"
        } else {
            "stalemate"
        };
        say!("no legal move: {reason}")?;
        return Ok(());
    };
    say!(
        "bestmove {} score {} depth {}",
        SanPlus::from_move(pos.clone(), best),
        crate::engine::report(result.score),
        result.depth
    )?;
    say!("pv {}", crate::pgn::numbered_san(&pos, &result.pv))?;
    Ok(())
}
