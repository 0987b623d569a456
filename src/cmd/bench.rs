//! `knightfall bench`: a fixed set of positions searched to a fixed depth, for speed and for
//! spotting unintended search changes (the node count must not change from run to run).

use crate::output::{say, tell};
use std::time::Instant;

use std::sync::Arc;

use anyhow::Result;

use crate::engine::{Config, Control, Engine, Limits};
use crate::tablebase::Tablebases;

/// Opening, middlegame and endgame positions: the standard perft positions, 30 middlegames from
/// engine games (the project's bench set) and a few endgames.
pub(crate) const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4r1k1/3r2p1/2q1p3/1N2p3/3pPnQP/P3bP1P/2P5/1R1R1N1K w - - 0 34",
    "7k/p6p/2p5/1pN5/8/3B3P/PP1r2P1/6K1 b - - 3 37",
    "4r3/6k1/3R1n1p/8/5PP1/5K2/P6P/8 w - - 0 45",
    "r2r2k1/pQ4pp/5q2/5b2/2P5/P4N2/6PP/R3R1K1 b - - 0 22",
    "r2qkb1r/3b1ppp/p1pppn2/8/2B1PB2/2N5/PPP2PPP/R2Q1RK1 b kq - 3 10",
    "1k6/5p1p/R7/1p6/2P1p2p/8/1P3PPK/3r4 b - - 0 30",
    "3r2k1/1pq2bp1/p5np/3p4/P5Q1/1P5P/2P2RP1/N5RK b - - 5 36",
    "r3r1k1/1p3pp1/7p/p1nB1P2/1b1Rp1P1/2N1P2P/1PP5/4R1K1 w - - 0 23",
    "2k5/pp4R1/4N3/4P3/1n4p1/N3b3/PPP4r/4K3 w - - 0 22",
    "5r1k/3RRBp1/8/2p3p1/1p4P1/7P/4r3/6K1 b - - 1 45",
    "4rrk1/1p5p/pp1Qn1p1/5p2/1P3P2/P1qBPP1P/8/3RR1K1 w - - 3 28",
    "r2q1rk1/1p2ppbp/p5p1/1Np1n3/P5b1/3P2PP/1PPQ2B1/R1B2RK1 b - - 0 15",
    "r6k/pp3r1p/2n2qp1/4p3/4Q3/1N3P2/PPP3PP/3RR2K b - - 3 21",
    "2r1r1k1/1ppqbppp/p7/n2pP3/B2P1B2/P7/1P3PPP/R2QR1K1 b - - 3 18",
    "8/P1R5/6k1/2P3pp/5p2/5P1K/r6P/8 b - - 0 40",
    "6k1/5p2/3r3p/2p4B/5P2/1P2K3/6PP/8 b - - 0 41",
    "4brqk/pp4p1/2p1p1Qp/2R4P/3P1P2/2P3P1/PP6/3R2K1 w - - 1 31",
    "3rr1k1/pp5p/2p1bp2/4P3/4P1p1/2N1n1P1/PP4BP/3R1R1K w - - 0 29",
    "r1bq1rk1/ppp1ppb1/1nn3pp/8/3PP2B/2N2P2/PP2N1PP/R2QKB1R w KQ - 2 10",
    "r5k1/3q1pbp/pQ4p1/5b2/4r1n1/3N4/PP4PP/1K1R1B1R b - - 12 28",
    "2R5/5kpp/1p2r3/8/b1pRp2b/P7/1P3PBP/6K1 b - - 8 31",
    "1k1r4/pp3ppp/2b1p3/4b3/2p3P1/1P3P2/P5KP/1RB5 b - - 0 25",
    "2r2rk1/pp3ppp/4b3/q7/1b1P1QnN/2N5/PP2BP1P/R4RK1 b - - 8 19",
    "8/2R3pp/p3p1k1/4P3/P1PrbP2/1P5P/6P1/6K1 w - - 3 35",
    "r3r1k1/1p5p/1R2pqp1/p1B5/P3P1Q1/2b5/5PPP/5RK1 b - - 0 19",
    "6k1/1p4pp/p7/1q6/8/bPQ5/P1nr1PPP/3R1R1K b - - 8 33",
    "8/3k4/8/p7/R4N1p/8/3n4/6K1 b - - 4 54",
    "r2r4/pp3pk1/1b1p1q1p/2pP2p1/4n3/P3PN2/1PQ2PPP/K2R1B1R b - - 5 25",
    "6k1/2Q4p/5b2/4pp2/2P1r1p1/P3B1P1/KP3P1q/R2rN3 b - - 7 29",
    "rn3rk1/pp2ppbp/1q1p1np1/6B1/2Q1P3/1NN5/PPP2PPP/R4RK1 b - - 0 11",
    "8/8/4k3/8/2K5/3R4/8/8 w - - 0 1",
    "8/8/8/3k4/8/8/4K3/Q7 w - - 0 1",
    "8/5pk1/6p1/8/5P2/6P1/6K1/8 w - - 0 1",
    "8/8/1p1k4/8/1P1K4/8/8/8 w - - 0 1",
];

/// Six-piece endings whose captures lead into the five-piece tables, for measuring probes.
pub(crate) const TABLEBASE_POSITIONS: &[&str] = &[
    "8/8/3k4/8/1r6/3K4/1R1P4/7R b - - 0 1",
    "8/5k2/8/3P4/8/2K1N3/8/r6R w - - 0 1",
    "6k1/5p2/8/8/8/2B5/5K2/r3R3 w - - 0 1",
    "8/2k5/8/1p6/1P6/2K5/4R3/6r1 w - - 0 1",
    "4k3/8/8/3n4/8/8/2R2P2/4K2r w - - 0 1",
    "8/8/8/4k3/8/1P6/1R3K2/3r2R1 b - - 0 1",
    "8/1k6/8/8/2r5/5P2/3RKR2/8 b - - 0 1",
    "3k4/8/8/8/8/4B3/2R2K2/3r3n w - - 0 1",
];

/// Arguments of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth to search each position to.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=crate::engine::tt::MAX_MB as u64))]
    pub hash: u64,
    /// Syzygy directories (DIR[:DIR...]): search the six-piece endings with probing instead.
    #[arg(long)]
    pub syzygy: Option<String>,
    /// Search threads (Lazy SMP); node counts are exact only with one.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
}

/// Depth used when none is given.
pub(crate) const DEFAULT_DEPTH: u32 = 12;

/// Searches every position with a fresh engine and prints per-position and total figures.
pub fn run(args: &Args) -> Result<()> {
    let tablebases = match &args.syzygy {
        Some(spec) => {
            let tb = Tablebases::load(Some(spec));
            for warning in tb.warnings() {
                tell!("warning: {warning}");
            }
            Some(Arc::new(tb))
        }
        None => None,
    };
    let positions = if tablebases.is_some() {
        TABLEBASE_POSITIONS
    } else {
        POSITIONS
    };
    let mut total_nodes = 0u64;
    let mut total_tb_hits = 0u64;
    let start = Instant::now();
    for (i, fen) in positions.iter().enumerate() {
        let pos = super::parse_fen(fen)?;
        let mut engine = Engine::new(Config {
            hash_mb: args.hash as usize,
            ..Config::default()
        });
        engine.set_threads(args.threads as usize);
        engine.set_tablebases(tablebases.clone());
        let control = Control::default();
        let t = Instant::now();
        let mut tb_hits = 0;
        let result = engine.search(
            &pos,
            &[],
            &Limits::depth(args.depth),
            &control,
            &mut |info| tb_hits = info.tb_hits,
        );
        total_tb_hits += tb_hits;
        let ms = t.elapsed().as_millis();
        let best = result
            .best
            .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
            .unwrap_or_else(|| "(none)".into());
        say!(
            "position {:>2}/{}: best {best:<6} score {:<10} nodes {:>10} tbhits {tb_hits} time {ms} ms  {fen}",
            i + 1,
            positions.len(),
            crate::engine::report(result.score),
            result.nodes
        )?;
        total_nodes += result.nodes;
    }
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis().max(1);
    let nps = total_nodes as u128 * 1000 / ms;
    if tablebases.is_some() {
        let rate = total_tb_hits as u128 * 1000 / ms;
        say!("{total_tb_hits} tbhits {rate} probes per second")?;
    }
    say!("{total_nodes} nodes {nps} nps")?;
    Ok(())
}
