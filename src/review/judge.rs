//! Judging moves the way lichess publishes it (lila `WinPercent`, `Advice`, `AccuracyPercent`):
//! an evaluation becomes winning chances, `2 / (1 + exp(-0.00368208 * cp)) - 1` with the
//! centipawns held to +-1000 (a mate counts as 1000); a move that costs its player 0.1, 0.2 or
//! 0.3 of those chances is an inaccuracy, mistake or blunder. Allowing or missing a forced mate
//! is judged by the evaluation on the other side of it (lila's `MateAdvice`). Accuracy is the
//! mean of a volatility-weighted and a harmonic mean of per-move accuracies.

use shakmaty::Color;

/// The evaluation curve's slope (lila's `WinPercent.MULTIPLIER`).
pub(crate) const SLOPE: f64 = 0.003_682_08;
/// Evaluations are held to this many centipawns (lila's `Cp.CEILING`).
pub(crate) const CEILING: i32 = 1000;

/// A position's evaluation from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves: positive when White mates, negative when Black does.
    Mate(i32),
    /// The side to move is checkmated; this is the winner.
    Checkmate(Color),
    /// Won for this side by the tablebases, with no mate distance known: as certain as a mate,
    /// and never a number of pawns.
    Tablebase(Color),
    /// Drawn by the tablebases, counting the fifty-move rule: `Some(side)` when `side` would
    /// win but for that rule (a cursed win), `None` for a plain draw.
    TablebaseDraw(Option<Color>),
}

impl Eval {
    /// A search's centipawns from White's view: a tablebase win's score is a result, not pawns.
    pub fn from_cp(cp: i32) -> Eval {
        use crate::engine::score::TB_WIN_BOUND;
        if cp >= TB_WIN_BOUND {
            Eval::Tablebase(Color::White)
        } else if cp <= -TB_WIN_BOUND {
            Eval::Tablebase(Color::Black)
        } else {
            Eval::Cp(cp)
        }
    }

    /// The side the position is won for, when a mate or the tablebases decide it.
    pub(crate) fn winner(self) -> Option<Color> {
        match self {
            Eval::Cp(_) | Eval::TablebaseDraw(_) => None,
            Eval::Mate(n) => Some(if n > 0 { Color::White } else { Color::Black }),
            Eval::Checkmate(c) | Eval::Tablebase(c) => Some(c),
        }
    }

    /// Centipawns for White, held to +-`CEILING` (mates and tablebase wins at the ceiling).
    pub(crate) fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CEILING, CEILING),
            Eval::TablebaseDraw(_) => 0,
            Eval::Tablebase(winner) => winner.fold_wb(CEILING, -CEILING),
            Eval::Mate(n) => {
                if n > 0 {
                    CEILING
                } else {
                    -CEILING
                }
            }
            Eval::Checkmate(winner) => winner.fold_wb(CEILING, -CEILING),
        }
    }

    /// A tablebase result as centipawns (a win at the ceiling, a draw at 0); anything else as
    /// it is.
    fn as_ceiling(self) -> Eval {
        match self {
            Eval::Tablebase(winner) => Eval::Cp(winner.fold_wb(CEILING, -CEILING)),
            Eval::TablebaseDraw(_) => Eval::Cp(0),
            other => other,
        }
    }

    /// Centipawns from `color`'s view when the evaluation is not a mate.
    fn cp_for(self, color: Color) -> Option<i32> {
        match self {
            Eval::Cp(cp) => Some(color.fold_wb(cp, -cp)),
            _ => None,
        }
    }

    /// Moves to mate from `color`'s view (positive: `color` mates; 0: mate is on the board and
    /// `color` gave it), when the evaluation is a mate.
    fn mate_for(self, color: Color) -> Option<i32> {
        match self {
            Eval::Mate(n) => Some(color.fold_wb(n, -n)),
            Eval::Checkmate(winner) if winner == color => Some(0),
            Eval::Checkmate(_) => Some(-1),
            Eval::Cp(_) | Eval::Tablebase(_) | Eval::TablebaseDraw(_) => None,
        }
    }

    /// For the screen: `+0.35`, `#3` (White mates in 3), `#-3`, `1-0 (mate)`, `TB 0-1`,
    /// `TB draw`, `TB draw (cursed win)`.
    pub fn display(self) -> String {
        match self {
            Eval::TablebaseDraw(None) => "TB draw".to_string(),
            Eval::TablebaseDraw(Some(_)) => "TB draw (cursed win)".to_string(),
            Eval::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Eval::Mate(n) => format!("#{n}"),
            Eval::Checkmate(winner) => winner.fold_wb("1-0 (mate)", "0-1 (mate)").to_string(),
            Eval::Tablebase(winner) => winner.fold_wb("TB 1-0", "TB 0-1").to_string(),
        }
    }

    /// In PGN: `[%eval 0.35]`, `[%eval #-3]`; a tablebase draw is 0.00, and a tablebase win,
    /// which `[%eval]` has no form for, is in words. A mate on the board has none: the move's
    /// `#` and the result say it, and lichess writes none there either.
    pub fn pgn(self) -> Option<String> {
        match self {
            Eval::Cp(cp) => Some(format!("[%eval {:.2}]", f64::from(cp) / 100.0)),
            Eval::TablebaseDraw(_) => Some("[%eval 0.00]".to_string()),
            Eval::Mate(n) => Some(format!("[%eval #{n}]")),
            Eval::Checkmate(_) => None,
            Eval::Tablebase(winner) => Some(format!(
                "tablebase: {} wins",
                winner.fold_wb("White", "Black")
            )),
        }
    }
}

/// Knightfall's centipawns against Stockfish 15.1's at depth 16 for the same positions, the
/// points of a piecewise-linear map (the medians of 1,478 positions of twelve games between
/// the levels, smoothed; `docs/REVIEW.md`). Knightfall's pawns are smaller than Stockfish's up
/// to about three and a half and grow much faster from four and a half, where lichess's curve,
/// made for Stockfish's, took a drop from -9 to -4.5 in a won ending for a mistake that
/// Stockfish, at -6 on both sides, does not see.
const KNIGHTFALL_TO_STOCKFISH: [(i32, i32); 9] = [
    (0, 0),
    (150, 150),
    (250, 300),
    (350, 430),
    (450, 495),
    (600, 550),
    (800, 600),
    (1050, 645),
    (2000, 800),
];

/// `eval`, a result of Knightfall's own search, on the scale lichess's rules were made for
/// (see [`KNIGHTFALL_TO_STOCKFISH`]); mates and tablebase results as they are.
pub fn from_knightfall(eval: Eval) -> Eval {
    let Eval::Cp(cp) = eval else {
        return eval;
    };
    let points = &KNIGHTFALL_TO_STOCKFISH;
    let x = i64::from(cp.unsigned_abs().min(1_000_000));
    // The segment `x` falls in, the last one carried on beyond its end.
    let k = points
        .windows(2)
        .position(|w| x <= i64::from(w[1].0))
        .unwrap_or(points.len() - 2);
    let ((x0, y0), (x1, y1)) = (points[k], points[k + 1]);
    let (x0, y0, x1, y1) = (i64::from(x0), i64::from(y0), i64::from(x1), i64::from(y1));
    let y = y0 + (x - x0) * (y1 - y0) / (x1 - x0);
    let y = i32::try_from(y).unwrap_or(i32::MAX);
    Eval::Cp(if cp < 0 { -y } else { y })
}

/// `eval` as the rules judge it: on Stockfish's scale when Knightfall's own search made it
/// (`own`), as it is when another engine or a file did.
pub fn judged(eval: Eval, own: bool) -> Eval {
    if own { from_knightfall(eval) } else { eval }
}

/// White's winning chances in -1..=1.
pub fn winning_chances(eval: Eval) -> f64 {
    let cp = f64::from(eval.ceiled_cp());
    (2.0 / (1.0 + (-SLOPE * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// White's win percentage, 0..=100.
pub(crate) fn win_percent(eval: Eval) -> f64 {
    50.0 + 50.0 * winning_chances(eval)
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// Lost 0.1 of the winning chances (`?!`, NAG 6).
    Inaccuracy,
    /// Lost 0.2 (`?`, NAG 2).
    Mistake,
    /// Lost 0.3 (`??`, NAG 4).
    Blunder,
}

impl Judgement {
    /// The move suffix: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The PGN NAG: `$6`, `$2`, `$4`.
    pub fn nag(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "$6",
            Judgement::Mistake => "$2",
            Judgement::Blunder => "$4",
        }
    }

    /// The word: `Inaccuracy`, `Mistake`, `Blunder`.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// Why a move was judged: lost winning chances, or a forced mate allowed or let go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The winning chances dropped.
    Chances,
    /// The opponent now has a forced mate ("Checkmate is now unavoidable").
    MateCreated,
    /// The mover had a forced mate and lost it ("Lost forced checkmate sequence").
    MateLost,
}

impl Reason {
    /// lichess's phrase for a mate judgement.
    pub(crate) fn phrase(self) -> Option<&'static str> {
        match self {
            Reason::Chances => None,
            Reason::MateCreated => Some("Checkmate is now unavoidable"),
            Reason::MateLost => Some("Lost forced checkmate sequence"),
        }
    }
}

/// The share of winning chances a move loses that makes it an inaccuracy, a mistake and a
/// blunder.
const THRESHOLDS: [f64; 3] = [0.1, 0.2, 0.3];

/// The winning chances `mover` lost going from `before` to `after`.
fn chances_lost(before: Eval, after: Eval, mover: Color) -> f64 {
    mover.fold_wb(1.0, -1.0) * (winning_chances(before) - winning_chances(after))
}

/// The judgement of a move by `mover` from a position evaluated `before` to one evaluated
/// `after`, if it was a bad one.
pub fn judge(before: Eval, after: Eval, mover: Color) -> Option<(Judgement, Reason)> {
    // A win that stays a win (or a loss that stays one) is no mistake, whether a mate or the
    // tablebases count it: a tablebase win is as certain as a mate in some number of moves.
    if before.winner().is_some() && before.winner() == after.winner() {
        return None;
    }
    // Otherwise a tablebase result weighs as the ceiling: won for its side, by pawns' measure.
    let (before, after) = (before.as_ceiling(), after.as_ceiling());
    if let (Some(_), Some(_)) = (before.cp_for(mover), after.cp_for(mover)) {
        let lost = chances_lost(before, after, mover);
        let [inaccuracy, mistake, blunder] = THRESHOLDS;
        let judgement = if lost >= blunder {
            Judgement::Blunder
        } else if lost >= mistake {
            Judgement::Mistake
        } else if lost >= inaccuracy {
            Judgement::Inaccuracy
        } else {
            return None;
        };
        return Some((judgement, Reason::Chances));
    }
    let (was, now) = (before.mate_for(mover), after.mate_for(mover));
    let by = |cp: i32, soft: bool| {
        // `soft`: how far ahead (or behind) the player still is softens the verdict.
        let cp = if soft { cp } else { -cp };
        if cp > 999 {
            Judgement::Inaccuracy
        } else if cp > 700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        }
    };
    match (was, now) {
        (None, Some(n)) if n < 0 => Some((
            by(before.cp_for(mover).unwrap_or(0), false),
            Reason::MateCreated,
        )),
        (Some(p), None) if p > 0 => {
            Some((by(after.cp_for(mover).unwrap_or(0), true), Reason::MateLost))
        }
        (Some(p), Some(n)) if p > 0 && n < 0 => Some((Judgement::Blunder, Reason::MateLost)),
        _ => None,
    }
}

/// How near a threshold a move's loss must be for the review to look again: two searches of
/// neighbouring positions often differ by 20 or 30 centipawns, about 0.04 of the chances
/// near equality.
pub(crate) const DOUBT_MARGIN: f64 = 0.05;

/// How close a call the verdict on a move by `mover` from `before` to `after` is: the
/// distance of its loss of winning chances from the nearest of 0.1, 0.2 and 0.3, when that is
/// under [`DOUBT_MARGIN`]. Mates and tablebase results are never close calls.
pub fn close_call(before: Eval, after: Eval, mover: Color) -> Option<f64> {
    let lost = searched_loss(before, after, mover)?;
    THRESHOLDS
        .iter()
        .map(|t| (lost - t).abs())
        .filter(|d| *d < DOUBT_MARGIN)
        .min_by(f64::total_cmp)
}

/// The share of the chances a move by `mover` from `before` to `after` lost, when it is a
/// blunder's at least and both are evaluations in centipawns: the verdict a player notices
/// most, and the one a short search most often gets wrong (one side of the move searched not
/// deep enough to see a line through), so the review looks at it again.
pub fn claimed_blunder(before: Eval, after: Eval, mover: Color) -> Option<f64> {
    let lost = searched_loss(before, after, mover)?;
    (lost >= THRESHOLDS[2]).then_some(lost)
}

/// The chances a move lost when both sides of it are a search's estimate in centipawns (a
/// mate or a tablebase result is not one a longer search would revise).
fn searched_loss(before: Eval, after: Eval, mover: Color) -> Option<f64> {
    let (Eval::Cp(_), Eval::Cp(_)) = (before, after) else {
        return None;
    };
    Some(chances_lost(before, after, mover))
}

/// One move's accuracy, 0..=100, from the mover's win percentage before and after it.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let lost = before - after;
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * lost).exp() - 3.166_924_740_191_411 + 1.0)
        .clamp(0.0, 100.0)
}

/// Each side's accuracy (White, Black) for a game whose positions were evaluated `evals` (the
/// start first), when it has a move by that side. Moves are weighted by how sharp the game was
/// around them (the standard deviation of the win percentage over a window), then the weighted
/// mean and the harmonic mean are averaged.
pub(crate) fn game_accuracy(evals: &[Eval], first_mover: Color) -> [Option<f64>; 2] {
    let wins: Vec<f64> = evals.iter().map(|e| win_percent(*e)).collect();
    let moves = wins.len().saturating_sub(1);
    if moves == 0 {
        return [None, None];
    }
    let window = (moves / 10).clamp(2, 8).min(wins.len());
    let mut weights = Vec::with_capacity(moves);
    for i in 0..moves {
        // The first windows repeat the opening one, as lichess does, so every move has one.
        let start = (i + 1).saturating_sub(window - 1).min(wins.len() - window);
        let slice = &wins[start..start + window];
        weights.push(std_dev(slice).clamp(0.5, 12.0));
    }
    let mut sums = [(0.0, 0.0, 0.0, 0usize, false); 2];
    for i in 0..moves {
        let mover = if i % 2 == 0 {
            first_mover
        } else {
            !first_mover
        };
        let (before, after) = match mover {
            Color::White => (wins[i], wins[i + 1]),
            Color::Black => (100.0 - wins[i], 100.0 - wins[i + 1]),
        };
        let accuracy = move_accuracy(before, after);
        let s = &mut sums[crate::game::side(mover)];
        s.0 += accuracy * weights[i];
        s.1 += weights[i];
        if accuracy <= 0.0 {
            s.4 = true;
        } else {
            s.2 += 1.0 / accuracy;
        }
        s.3 += 1;
    }
    sums.map(|(weighted, weight, inverse, n, zero)| {
        (n > 0).then(|| {
            let harmonic = if zero { 0.0 } else { n as f64 / inverse };
            (weighted / weight + harmonic) / 2.0
        })
    })
}

fn std_dev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knightfalls_centipawns_go_onto_stockfishs_scale() {
        let on = |cp| match from_knightfall(Eval::Cp(cp)) {
            Eval::Cp(x) => x,
            other => panic!("{other:?}"),
        };
        // The points themselves, either side, and between them.
        assert_eq!(on(0), 0);
        assert_eq!(on(100), 100);
        assert_eq!(on(250), 300);
        assert_eq!(on(-450), -495);
        assert_eq!(on(700), 575);
        // Beyond the last point, the last segment carried on.
        assert_eq!(on(2950), 955);
        // Never decreasing, whatever the size.
        let mut last = on(-2_000_000);
        for cp in (-3000..=3000).step_by(7).chain([i32::MAX]) {
            let now = on(cp);
            assert!(now >= last, "{cp}: {now} after {last}");
            last = now;
        }
        // Results are not pawns.
        assert_eq!(from_knightfall(Eval::Mate(-3)), Eval::Mate(-3));
        assert_eq!(
            from_knightfall(Eval::Tablebase(Color::White)),
            Eval::Tablebase(Color::White)
        );
    }

    #[test]
    fn a_swing_in_a_won_ending_is_no_mistake_on_stockfishs_scale() {
        // White's move judged on Knightfall's pawns, then on Stockfish's.
        let verdicts = |before: i32, after: i32| {
            let (b, a) = (Eval::Cp(before), Eval::Cp(after));
            let on = |b: Eval, a: Eval| judge(b, a, Color::White).map(|j| j.0);
            (on(b, a), on(from_knightfall(b), from_knightfall(a)))
        };
        // Black well ahead either side of the move: -4.50 to -9.00 by Knightfall's pawns is a
        // quarter of the chances, -4.95 to -6.18 by Stockfish's less than a tenth.
        assert_eq!(verdicts(-450, -900), (Some(Judgement::Mistake), None));
        // Below three and a half pawns Stockfish's pawns are the larger: 2.00 to 0.50 is a
        // mistake by Knightfall's, 2.25 to 0.50 a blunder by Stockfish's.
        assert_eq!(
            verdicts(200, 50),
            (Some(Judgement::Mistake), Some(Judgement::Blunder))
        );
    }
}
