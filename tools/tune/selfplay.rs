//! Self-play data for the tuner: games from the shared openings with a few random plies on
//! top, the engine at a fixed node count on each side, results adjudicated by the 3-4 piece
//! tablebases or a long decisive score. Quiet positions (not in check, best move neither a
//! capture nor a promotion, no mate score) are written with the game's result and number.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result, bail};
use knightfall::engine::node::key_of;
use knightfall::engine::score::MATE_BOUND;
use knightfall::engine::{Config, Control, Engine, Limits};
use knightfall::rng::Rng;
use knightfall::tablebase::{Tablebases, Wdl};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 4000)]
    games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 6000)]
    nodes: u64,
    /// Threads (one game each at a time).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Opening positions, one FEN per line (EPD).
    #[arg(long, default_value = "../shared/data/openings/openings-8ply.epd")]
    openings: PathBuf,
    /// Seed for the random plies after each opening.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
}

pub(crate) fn run(args: &Args) -> Result<()> {
    let text = std::fs::read_to_string(&args.openings)
        .with_context(|| format!("reading {}", args.openings.display()))?;
    let mut openings = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen: Fen = format!("{} 0 1", fields.join(" "))
            .parse()
            .with_context(|| format!("bad opening {line:?}"))?;
        openings.push(fen.into_position::<Chess>(CastlingMode::Standard)?);
    }
    if openings.is_empty() {
        bail!("no openings in {}", args.openings.display());
    }
    let tablebases = Arc::new(Tablebases::embedded());
    let out = Arc::new(Mutex::new(BufWriter::new(
        File::create(&args.out).with_context(|| format!("creating {}", args.out.display()))?,
    )));
    let next = Arc::new(AtomicUsize::new(0));
    let totals = Arc::new(Mutex::new((0usize, 0usize, [0usize; 3])));
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            let (openings, tablebases, out, next, totals) = (
                &openings,
                tablebases.clone(),
                out.clone(),
                next.clone(),
                totals.clone(),
            );
            scope.spawn(move || {
                let mut engine = Engine::new(Config::default());
                engine.set_tablebases(Some(tablebases.clone()));
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= args.games {
                        break;
                    }
                    let mut rng =
                        Rng::new(args.seed ^ (game as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
                    let start = openings[game % openings.len()].clone();
                    let Some((positions, result)) =
                        play(&mut engine, &tablebases, start, args.nodes, &mut rng)
                    else {
                        continue;
                    };
                    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                    for fen in &positions {
                        let _ = writeln!(out, "{fen};{result:.1};{game}");
                    }
                    let mut totals = totals.lock().unwrap_or_else(|e| e.into_inner());
                    totals.0 += 1;
                    totals.1 += positions.len();
                    totals.2[(result * 2.0) as usize] += 1;
                    if totals.0 % 100 == 0 {
                        eprintln!(
                            "{} games, {} positions (White wins {}, draws {}, Black wins {})",
                            totals.0, totals.1, totals.2[2], totals.2[1], totals.2[0]
                        );
                    }
                }
            });
        }
    });
    out.lock().unwrap_or_else(|e| e.into_inner()).flush()?;
    let totals = totals.lock().unwrap_or_else(|e| e.into_inner());
    println!(
        "{} games, {} positions (White wins {}, draws {}, Black wins {}) in {}",
        totals.0,
        totals.1,
        totals.2[2],
        totals.2[1],
        totals.2[0],
        args.out.display()
    );
    Ok(())
}

/// Plays one game; returns its quiet positions and the result for White (1, 0.5 or 0), or
/// `None` when the random plies left the game lopsided.
fn play(
    engine: &mut Engine,
    tablebases: &Tablebases,
    mut pos: Chess,
    nodes: u64,
    rng: &mut Rng,
) -> Option<(Vec<String>, f64)> {
    engine.clear();
    let control = Control::default();
    let limits = Limits::nodes(nodes);
    for _ in 0..(2 + rng.index(5)) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.play_unchecked(moves[rng.index(moves.len())]);
    }
    let mut keys: Vec<u64> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let mut positions = Vec::new();
    let mut decisive = 0;
    for ply in 0..400 {
        if pos.legal_moves().is_empty() {
            let result = if pos.is_check() { 0.0 } else { 0.5 };
            return Some((positions, white_view(pos.turn(), result)));
        }
        if pos.is_insufficient_material() || pos.halfmoves() >= 100 {
            return Some((positions, 0.5));
        }
        let key = key_of(&pos);
        let count = seen.entry(key).or_insert(0);
        *count += 1;
        if *count >= 3 {
            return Some((positions, 0.5));
        }
        if pos.board().occupied().count() <= tablebases.probe_pieces()
            && let Ok(wdl) = tablebases.probe_wdl(&pos)
        {
            let result = match wdl {
                Wdl::Win => 1.0,
                Wdl::Loss => 0.0,
                _ => 0.5,
            };
            return Some((positions, white_view(pos.turn(), result)));
        }
        let found = engine.search(&pos, &keys, &limits, &control, &mut |_| {});
        let best = found.best?;
        if ply == 0 && found.score.abs() > 300 {
            return None;
        }
        if found.score.abs() >= 1000 {
            decisive += 1;
            if decisive >= 8 {
                let result = if found.score > 0 { 1.0 } else { 0.0 };
                return Some((positions, white_view(pos.turn(), result)));
            }
        } else {
            decisive = 0;
        }
        if !pos.is_check()
            && !best.is_capture()
            && !best.is_promotion()
            && found.score.abs() < MATE_BOUND
        {
            positions.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
        }
        keys.push(key);
        pos.play_unchecked(best);
    }
    Some((positions, 0.5))
}

/// A result for the side to move as White's.
fn white_view(turn: Color, result: f64) -> f64 {
    match turn {
        Color::White => result,
        Color::Black => 1.0 - result,
    }
}
