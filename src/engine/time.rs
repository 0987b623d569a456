//! Time management: a soft limit (don't start another iteration) and a hard limit (stop now).

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::limits::Limits;

/// The number of moves a game clock is shared out over when the GUI does not say.
const MOVES_LEFT: u32 = 20;

/// The soft limit as a share of the target, in percent.
const SOFT_PERCENT: u64 = 60;

/// How much longer than the soft limit to keep deepening, by how many iterations in a row the
/// best move has stayed the same (the last entry for any more): a move that keeps changing
/// needs another iteration to settle, one that has held for long rarely changes again, so
/// its time is better kept for later moves.
const STABILITY_FACTORS: [f64; 7] = [1.5, 1.2, 1.0, 0.9, 0.8, 0.8, 0.7];

/// A score falling by more than this many centipawns since the last iteration takes
/// `BIG_FALL_FACTOR` times the soft limit: the search is finding a problem and needs time
/// to find the answer.
const BIG_FALL: i32 = 60;

/// The soft limit's factor after a big fall in the score (see `BIG_FALL`).
const BIG_FALL_FACTOR: f64 = 1.5;

/// A score falling by more than this many centipawns (up to `BIG_FALL`) takes
/// `FALL_FACTOR` times the soft limit.
const FALL: i32 = 25;

/// The soft limit's factor after a fall in the score (see `FALL`).
const FALL_FACTOR: f64 = 1.2;

/// The range the soft limit may be scaled over, so that neither a run of stable iterations
/// nor a falling score moves it far from the share of the clock that was planned.
const SCALE_RANGE: (f64, f64) = (0.25, 4.0);

/// The soft limit's factor after the best move has stayed the same for `stable` iterations
/// in a row (0 when it has just changed).
#[inline]
pub(crate) fn stability_factor(stable: u32) -> f64 {
    STABILITY_FACTORS[(stable as usize).min(STABILITY_FACTORS.len() - 1)]
}

/// The soft limit's factor for a score `drop` centipawns lower than the last iteration's
/// (negative when it rose).
#[inline]
pub(crate) fn falling_factor(drop: i32) -> f64 {
    if drop > BIG_FALL {
        BIG_FALL_FACTOR
    } else if drop > FALL {
        FALL_FACTOR
    } else {
        1.0
    }
}

/// Deadlines for one search.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the soft limit comes from a game clock and may stretch or shrink with how
    /// settled the search is (never with a fixed `movetime`).
    flexible: bool,
}

impl Clock {
    /// Works out the deadlines for `side` to move under `limits`, keeping `overhead_ms` in
    /// reserve for the GUI and the pipe.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64) -> Clock {
        let start = limits.received.unwrap_or_else(Instant::now);
        let (ours, theirs, inc) = match side {
            Color::White => (limits.wtime, limits.btime, limits.winc.unwrap_or(0)),
            Color::Black => (limits.btime, limits.wtime, limits.binc.unwrap_or(0)),
        };
        // A GUI that sends only the opponent's clock still means "play on a clock".
        let time = ours.or(theirs);
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else if let Some(movetime) = limits.movetime {
            // UCI: "search exactly x mseconds". The overhead is a reserve against losing on a
            // game clock; taking it off a fixed move time too made `go movetime 200` a 170 ms
            // search, and a test at 0.2 s a position a test at 0.17.
            let ms = movetime.max(1);
            (Some(ms), Some(ms))
        } else if let Some(time) = time {
            let usable = time.saturating_sub(overhead_ms).max(1);
            let moves_left = u64::from(limits.movestogo.unwrap_or(MOVES_LEFT).clamp(1, 40));
            // Aim for an even share of what is left plus most of the increment; allow a few
            // times that when an iteration needs finishing, never more than half the clock.
            let target = (usable / moves_left)
                .saturating_add(inc.saturating_mul(3) / 4)
                .min(usable / 2);
            let hard = target.saturating_mul(4).min(usable / 2).max(target);
            // An iteration takes about as long as all before it, so one started well after half
            // the target would likely overrun it; 60% (with 20 moves) used the clock better
            // than 50% (with 25), which left a third of it unused at move 60 (CHANGELOG.md).
            let soft = target.saturating_mul(SOFT_PERCENT) / 100;
            (Some(soft.max(1)), Some(hard.max(1)))
        } else {
            (None, None)
        };
        Clock {
            start,
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
            flexible: limits.movetime.is_none() && !limits.infinite && time.is_some(),
        }
    }

    /// Restarts the clock (a ponder hit starts our own thinking time).
    pub(crate) fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// True once the hard deadline has passed.
    #[inline]
    pub(crate) fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.start.elapsed() >= hard)
    }

    /// True when no new iteration should start, the soft limit of a game clock scaled by
    /// `factor` (below 1 when the best move has settled, above when it keeps changing or the
    /// score is falling).
    pub(crate) fn soft_expired_scaled(&self, factor: f64) -> bool {
        let factor = if self.flexible { factor } else { 1.0 };
        self.soft.is_some_and(|soft| {
            self.start.elapsed() >= soft.mul_f64(factor.clamp(SCALE_RANGE.0, SCALE_RANGE.1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_runs_from_when_the_request_arrived() {
        let limits = Limits {
            movetime: Some(400),
            received: Some(Instant::now() - Duration::from_millis(500)),
            ..Limits::default()
        };
        assert!(Clock::new(&limits, Color::White, 0).hard_expired());
        assert!(!Clock::new(&Limits::movetime(400), Color::White, 0).hard_expired());
    }

    #[test]
    fn a_game_clock_s_soft_limit_stretches_and_a_movetime_does_not() {
        // 10 s and no increment: a target of 10000 / 20 = 500 ms, the soft limit 60% of it.
        let game = Limits {
            wtime: Some(10_030),
            received: Some(Instant::now() - Duration::from_millis(310)),
            ..Limits::default()
        };
        let clock = Clock::new(&game, Color::White, 30);
        assert_eq!(clock.soft, Some(Duration::from_millis(300)));
        assert!(clock.soft_expired_scaled(1.0));
        assert!(!clock.soft_expired_scaled(1.5));
        assert!(clock.soft_expired_scaled(0.7));
        let fixed = Limits {
            movetime: Some(300),
            received: Some(Instant::now() - Duration::from_millis(250)),
            ..Limits::default()
        };
        let clock = Clock::new(&fixed, Color::White, 0);
        assert!(!clock.soft_expired_scaled(0.7));
    }

    #[test]
    fn the_time_factors_follow_the_best_move_and_the_score() {
        let stability: Vec<f64> = (0..9).map(stability_factor).collect();
        assert_eq!(stability, [1.5, 1.2, 1.0, 0.9, 0.8, 0.8, 0.7, 0.7, 0.7]);
        let falling: Vec<f64> = [-100, 0, 25, 26, 60, 61].map(falling_factor).to_vec();
        assert_eq!(falling, [1.0, 1.0, 1.0, 1.2, 1.2, 1.5]);
    }

    #[test]
    fn a_fixed_move_time_is_searched_in_full_whatever_the_overhead() {
        let clock = Clock::new(&Limits::movetime(200), Color::White, 30);
        assert_eq!(clock.soft, Some(Duration::from_millis(200)));
        assert_eq!(clock.hard, Some(Duration::from_millis(200)));
        // A game clock keeps it in reserve: one move to go on 1000 ms may take half of what
        // is left after the overhead.
        let game = Limits {
            wtime: Some(1000),
            movestogo: Some(1),
            ..Limits::default()
        };
        let hard = |overhead| Clock::new(&game, Color::White, overhead).hard;
        assert_eq!(hard(0), Some(Duration::from_millis(500)));
        assert_eq!(hard(500), Some(Duration::from_millis(250)));
    }

    #[test]
    fn clock_limits_stay_within_the_clock() {
        let limits = Limits {
            wtime: Some(1000),
            winc: Some(10),
            ..Limits::default()
        };
        let clock = Clock::new(&limits, Color::White, 30);
        let (soft, hard) = (clock.soft.unwrap(), clock.hard.unwrap());
        assert!(
            soft <= hard && hard <= Duration::from_millis(485),
            "{soft:?} {hard:?}"
        );
        // Only the opponent's clock given: still a timed search, not an endless one.
        let only_theirs = Limits {
            btime: Some(5000),
            ..Limits::default()
        };
        assert!(Clock::new(&only_theirs, Color::White, 30).hard.is_some());
        // Absurd values neither overflow nor vanish.
        let huge = Limits {
            wtime: Some(u64::MAX),
            winc: Some(u64::MAX),
            ..Limits::default()
        };
        assert!(Clock::new(&huge, Color::White, 30).hard.is_some());
    }
}
