//! Texel tuning: minimise the mean squared difference between game results and
//! `1 / (1 + 10^(-K * eval / 400))` over every weight at once (Adam on the full batch), with
//! the evaluation written as the weights times the features the engine's own terms report.
//!
//! With `--score-weight`, the target is a blend of the game result and what a stronger
//! engine's search said of the position (the fourth field `tools/sf-selfplay.py` writes, under
//! a sigmoid whose K is fitted to the same results): one result is shared by every position of
//! a game, so it says little about each, while a score is the position's own.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use knightfall::engine::eval::{game_phase, mop_up, tapered_weights};
use knightfall::engine::params::{self, COUNT, S};
use knightfall::engine::scale::{FULL, endgame_scale};
use knightfall::engine::terms::{self, Sink};
use shakmaty::Color;
use shakmaty::fen::Fen;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Positions written by `gen` (`FEN;result;game` lines) or `tools/sf-selfplay.py`
    /// (`FEN;result;game;score`); several files may be given.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 3000)]
    epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Pull towards the starting weights: this times the mean squared change (in pawns), added
    /// to the error; it keeps rarely seen table squares from fitting noise.
    #[arg(long, default_value_t = 0.0)]
    regularise: f64,
    /// Leave the piece-square tables as they start (fit material and terms only).
    #[arg(long)]
    freeze_tables: bool,
    /// A piece-square value met in fewer training positions than this (each counted by its
    /// share in the middlegame or the endgame) keeps its starting value: Adam moves a weight by
    /// the same step whatever the size of its gradient, so a square a piece rarely stands on
    /// drifts by hundreds of centipawns on a few positions.
    #[arg(long, default_value_t = 0)]
    min_count: usize,
    /// The share of the target taken from the position's score, where the data has one
    /// (0: the game result alone).
    #[arg(long, default_value_t = 0.0)]
    score_weight: f64,
    /// Start from `params::start()` (PeSTO and guesses) instead of the shipped weights.
    #[arg(long)]
    from_start: bool,
    /// Where to write the weights as Rust source.
    #[arg(long, default_value = "src/engine/tuned.rs")]
    out: PathBuf,
}

/// One position's features.
struct Entry {
    /// (weight index, White's count minus Black's).
    linear: Vec<(u16, i16)>,
    /// King-zone attacks: sign (+1 when White's king is attacked), attackers, counts.
    kings: Vec<(f64, usize, [i32; 4])>,
    phase: f64,
    /// The endgame scale (`scale::endgame_scale`, as a fraction) when White's endgame sum is
    /// ahead and when Black's is.
    scale: [f64; 2],
    constant: f64,
    result: f64,
    /// The score of a stronger engine's search, White's view, where the data has one.
    score: Option<f64>,
    /// What the fit aims at: the result, or its blend with the score.
    target: f64,
    /// The game it came from, to hold out whole games.
    game: usize,
}

struct Recorder {
    linear: Vec<(u16, i16)>,
    kings: Vec<(f64, usize, [i32; 4])>,
}

impl Sink for Recorder {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let count = (terms::sign(color) * count) as i16;
        match self.linear.iter_mut().find(|(i, _)| *i as usize == index) {
            Some(entry) => entry.1 += count,
            None => self.linear.push((index as u16, count)),
        }
    }

    fn king_attack(&mut self, defender: Color, attackers: usize, counts: [i32; 4]) {
        self.kings
            .push((terms::sign(defender) as f64, attackers.min(7), counts));
    }
}

fn load(paths: &[PathBuf]) -> Result<Vec<Entry>> {
    let mut entries = Vec::new();
    for path in paths {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        for line in text.lines() {
            let mut fields = line.split(';');
            let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
                continue;
            };
            let game: usize = fields
                .next()
                .and_then(|g| g.trim().parse().ok())
                .unwrap_or(0);
            let score = fields.next().and_then(|s| s.trim().parse::<f64>().ok());
            let Ok(result) = result.trim().parse::<f64>() else {
                continue;
            };
            let Ok(fen) = fen.parse::<Fen>() else {
                continue;
            };
            let setup = fen.into_setup();
            let mut rec = Recorder {
                linear: Vec::new(),
                kings: Vec::new(),
            };
            terms::pieces(&setup.board, &mut rec);
            terms::positional(&setup.board, setup.turn, &mut rec);
            rec.linear.retain(|&(_, c)| c != 0);
            entries.push(Entry {
                linear: rec.linear,
                kings: rec.kings,
                phase: game_phase(&setup.board) as f64 / 24.0,
                scale: [Color::White, Color::Black]
                    .map(|strong| endgame_scale(&setup.board, strong) as f64 / FULL as f64),
                constant: mop_up(&setup.board) as f64,
                result,
                score,
                target: result,
                game,
            });
        }
    }
    if entries.is_empty() {
        bail!("no positions in the data");
    }
    Ok(entries)
}

/// The middlegame and endgame sums of `e` under weights `w` (`[mg, eg]` per weight), White's
/// view, before tapering.
fn sums(e: &Entry, w: &[[f64; 2]]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &e.linear {
        mg += w[i as usize][0] * c as f64;
        eg += w[i as usize][1] * c as f64;
    }
    for &(sign, n, counts) in &e.kings {
        for (stage, total) in [&mut mg, &mut eg].into_iter().enumerate() {
            let units: f64 = (0..4)
                .map(|r| counts[r] as f64 * w[params::KING_ATTACK_UNITS + r][stage])
                .sum();
            *total -= sign * units * w[params::KING_ATTACK_WEIGHT + n][stage] / 100.0;
        }
    }
    (mg, eg)
}

/// The endgame scale that applies to `e` with endgame sum `eg`.
fn scale_of(e: &Entry, eg: f64) -> f64 {
    if eg >= 0.0 { e.scale[0] } else { e.scale[1] }
}

/// The evaluation of `e` from its sums (tapered, the endgame half scaled), White's view, and
/// the endgame scale it used.
fn blend(e: &Entry, mg: f64, eg: f64) -> (f64, f64) {
    let endgame_scale = scale_of(e, eg);
    (
        mg * e.phase + eg * endgame_scale * (1.0 - e.phase) + e.constant,
        endgame_scale,
    )
}

/// The evaluation of `e` under weights `w`, White's view.
fn evaluate(e: &Entry, w: &[[f64; 2]]) -> f64 {
    let (mg, eg) = sums(e, w);
    blend(e, mg, eg).0
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

fn error(entries: &[Entry], w: &[[f64; 2]], k: f64) -> f64 {
    entries
        .iter()
        .map(|e| (e.target - sigmoid(k, evaluate(e, w))).powi(2))
        .sum::<f64>()
        / entries.len() as f64
}

/// The K that makes the current evaluation fit the results best.
fn fit_k(entries: &[Entry], w: &[[f64; 2]]) -> f64 {
    smallest(|k| error(entries, w, k))
}

/// The K that makes the scores fit the results best, so that a score becomes a target on the
/// results' scale.
fn fit_score_k(entries: &[Entry]) -> f64 {
    let scored: Vec<(f64, f64)> = entries
        .iter()
        .filter_map(|e| e.score.map(|s| (s, e.result)))
        .collect();
    smallest(|k| {
        scored
            .iter()
            .map(|&(score, result)| (result - sigmoid(k, score)).powi(2))
            .sum::<f64>()
    })
}

/// Where `f` is smallest in 0.1..4 (golden-section search).
fn smallest(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn gradient(entries: &[Entry], w: &[[f64; 2]], k: f64) -> Vec<[f64; 2]> {
    let mut grad = vec![[0.0; 2]; w.len()];
    let scale = k * std::f64::consts::LN_10 / 400.0;
    for e in entries {
        let (mg, eg) = sums(e, w);
        let (eval, endgame_scale) = blend(e, mg, eg);
        let s = sigmoid(k, eval);
        let d = -2.0 * (e.target - s) * s * (1.0 - s) * scale / entries.len() as f64;
        let stages = [d * e.phase, d * (1.0 - e.phase) * endgame_scale];
        for &(i, c) in &e.linear {
            for stage in 0..2 {
                grad[i as usize][stage] += stages[stage] * c as f64;
            }
        }
        for &(sign, n, counts) in &e.kings {
            for stage in 0..2 {
                let weight = w[params::KING_ATTACK_WEIGHT + n][stage];
                let mut units = 0.0;
                for r in 0..4 {
                    units += counts[r] as f64 * w[params::KING_ATTACK_UNITS + r][stage];
                    grad[params::KING_ATTACK_UNITS + r][stage] -=
                        stages[stage] * sign * counts[r] as f64 * weight / 100.0;
                }
                grad[params::KING_ATTACK_WEIGHT + n][stage] -= stages[stage] * sign * units / 100.0;
            }
        }
    }
    grad
}

pub(crate) fn run(args: &Args) -> Result<()> {
    let started = std::time::Instant::now();
    if !(0.0..=1.0).contains(&args.score_weight) {
        bail!("--score-weight must lie in 0..=1");
    }
    let all = load(&args.data)?;
    // Every tenth game is held out to show the fit generalises beyond the games it saw.
    let (mut entries, mut held_out) = (Vec::new(), Vec::new());
    for e in all {
        if e.game % 10 == 9 {
            held_out.push(e);
        } else {
            entries.push(e);
        }
    }
    if held_out.is_empty() {
        bail!("too few positions to hold any out");
    }
    let first: Vec<S> = if args.from_start {
        params::start()
    } else {
        tapered_weights().to_vec()
    };
    let mut w: Vec<[f64; 2]> = first.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
    let k = fit_k(&entries, &w);
    // K comes from the results alone; the scores reach the results' scale through their own
    // K, fitted to the same results (another engine's centipawns need not be ours).
    let results_before = error(&held_out, &w, k);
    let score_k = fit_score_k(&entries);
    for e in entries.iter_mut().chain(held_out.iter_mut()) {
        if let Some(score) = e.score {
            e.target =
                (1.0 - args.score_weight) * e.result + args.score_weight * sigmoid(score_k, score);
        }
    }
    if args.score_weight > 0.0 {
        eprintln!("scores' K = {score_k:.4}");
    }
    let before = error(&entries, &w, k);
    let held_before = error(&held_out, &w, k);
    eprintln!(
        "{} positions, K = {k:.4}, error {before:.6} ({:.1} s)",
        entries.len(),
        started.elapsed().as_secs_f64()
    );
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; COUNT];
    let mut v = vec![[0.0; 2]; COUNT];
    let origin = w.clone();
    // How often each weight is met, each position counted by its share in the stage (a king
    // on the sixth rank is common in endings and rare with the queens on).
    let mut seen = vec![[0.0f64; 2]; COUNT];
    for e in &entries {
        for &(i, _) in &e.linear {
            seen[i as usize][0] += e.phase;
            seen[i as usize][1] += 1.0 - e.phase;
        }
    }
    let table = params::PST..params::PST + 6 * 64;
    let rare_at = |i: usize, stage: usize| seen[i][stage] < args.min_count as f64;
    let rare: usize = table
        .clone()
        .map(|i| usize::from(rare_at(i, 0)) + usize::from(rare_at(i, 1)))
        .sum();
    if args.min_count > 0 {
        eprintln!(
            "{rare} table values met fewer than {} times keep their values",
            args.min_count
        );
    }
    // The weights that did best on the held-out games are the ones written (early stopping).
    let (mut best, mut best_held) = (w.clone(), held_before);
    for epoch in 1..=args.epochs {
        let mut grad = gradient(&entries, &w, k);
        for (i, g) in grad.iter_mut().enumerate() {
            for stage in 0..2 {
                g[stage] += args.regularise * 2.0 * (w[i][stage] - origin[i][stage])
                    / (COUNT as f64 * 100.0 * 100.0);
            }
            if table.contains(&i) {
                for (stage, value) in g.iter_mut().enumerate() {
                    if args.freeze_tables || rare_at(i, stage) {
                        *value = 0.0;
                    }
                }
            }
        }
        for i in 0..COUNT {
            for stage in 0..2 {
                let g = grad[i][stage];
                m[i][stage] = beta1 * m[i][stage] + (1.0 - beta1) * g;
                v[i][stage] = beta2 * v[i][stage] + (1.0 - beta2) * g * g;
                let mh = m[i][stage] / (1.0 - beta1.powi(epoch as i32));
                let vh = v[i][stage] / (1.0 - beta2.powi(epoch as i32));
                w[i][stage] -= args.rate * mh / (vh.sqrt() + eps);
            }
        }
        king_weight_shape(&mut w);
        if epoch % 100 == 0 {
            let held = error(&held_out, &w, k);
            if held < best_held {
                (best, best_held) = (w.clone(), held);
            }
            if epoch % 500 == 0 {
                eprintln!(
                    "epoch {epoch}: error {:.6}, held out {held:.6} ({:.0} s)",
                    error(&entries, &w, k),
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
    let rounded: Vec<S> = best
        .iter()
        .map(|x| S(x[0].round() as i32, x[1].round() as i32))
        .collect();
    let exact: Vec<[f64; 2]> = rounded.iter().map(|s| [s.0 as f64, s.1 as f64]).collect();
    let after = error(&entries, &exact, k);
    let held_after = error(&held_out, &exact, k);
    for e in held_out.iter_mut() {
        e.target = e.result;
    }
    let results_after = error(&held_out, &exact, k);
    eprintln!("error {before:.6} -> {after:.6} (held out {held_before:.6} -> {held_after:.6})");
    // The files by name: where they were kept is nobody's business in the shipped source.
    let sources: Vec<String> = args
        .data
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect();
    let summary = format!(
        "{} positions from {}, {} of them fitted and {} held out; K = {k:.4}; mean squared error \
         {before:.6} before, {after:.6} after; on the held-out positions {held_before:.6} \
         before, {held_after:.6} after{} (the best of {} epochs of Adam at rate {} on the held-out games, regularised {}{}{})",
        entries.len() + held_out.len(),
        sources.join(", "),
        entries.len(),
        held_out.len(),
        if args.score_weight > 0.0 {
            format!(
                "; the target {} the score (its K {score_k:.4}) and the rest the result, and on \
                 the held-out results alone {results_before:.6} before, {results_after:.6} after",
                args.score_weight
            )
        } else {
            String::new()
        },
        args.epochs,
        args.rate,
        args.regularise,
        if args.freeze_tables {
            ", tables frozen".to_string()
        } else if args.min_count > 0 {
            format!(
                ", the {rare} table values (middlegame or endgame) met fewer than {} times frozen",
                args.min_count
            )
        } else {
            String::new()
        },
        if args.from_start {
            ", from PeSTO and the start guesses"
        } else {
            ""
        }
    );
    std::fs::write(&args.out, rust_source(&rounded, &summary))
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!("{summary}");
    println!("wrote {}", args.out.display());
    Ok(())
}

/// Keeps the king-attack weight the notebooks' shape: nothing for a lone attacker, then a
/// share that never falls as attackers are added, at most double the units.
fn king_weight_shape(w: &mut [[f64; 2]]) {
    let mut floor = [0.0f64; 2];
    for (n, weight) in w[params::KING_ATTACK_WEIGHT..params::KING_ATTACK_WEIGHT + 8]
        .iter_mut()
        .enumerate()
    {
        for (x, floor) in weight.iter_mut().zip(floor.iter_mut()) {
            *x = if n < 2 { 0.0 } else { x.clamp(*floor, 200.0) };
            *floor = *x;
        }
    }
}

fn rust_source(weights: &[S], summary: &str) -> String {
    let mut out = String::new();
    out.push_str("//! The tapered evaluation's weights, written by `knightfall-tune fit` (see\n");
    out.push_str("//! `tools/tune.sh`); edit by re-tuning, not by hand.\n//!\n");
    let mut line = String::from("//!");
    for word in summary.split(' ') {
        if line.len() + word.len() + 1 > 99 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//!");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push_str("\n\nuse super::params::{COUNT, S};\n\n");
    out.push_str("/// The weights, laid out as `params` describes.\n#[rustfmt::skip]\n");
    out.push_str("pub static WEIGHTS: [S; COUNT] = [\n");
    for (i, s) in weights.iter().enumerate() {
        let _ = writeln!(out, "    S({}, {}), // {}", s.0, s.1, params::name(i));
    }
    out.push_str("];\n");
    out
}
