//! Time management: a soft limit (don't start another iteration) and a hard limit (stop now).

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::limits::Limits;

/// Deadlines for one search.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl Clock {
    /// Works out the deadlines for `side` to move under `limits`, keeping `overhead_ms` in
    /// reserve for the GUI and the pipe.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64) -> Clock {
        let start = Instant::now();
        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc.unwrap_or(0)),
            Color::Black => (limits.btime, limits.binc.unwrap_or(0)),
        };
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else if let Some(movetime) = limits.movetime {
            let ms = movetime.saturating_sub(overhead_ms).max(1);
            (Some(ms), Some(ms))
        } else if let Some(time) = time {
            let usable = time.saturating_sub(overhead_ms).max(1);
            let moves_left = u64::from(limits.movestogo.unwrap_or(25).clamp(1, 40));
            // Aim for an even share of what is left plus most of the increment; allow a few
            // times that when an iteration needs finishing, never more than half the clock.
            let target = (usable / moves_left + inc * 3 / 4).min(usable / 2);
            let hard = (target * 4).min(usable / 2).max(target);
            // An iteration takes about as long as all before it, so one started after half the
            // target would likely overrun it.
            (Some((target / 2).max(1)), Some(hard.max(1)))
        } else {
            (None, None)
        };
        Clock {
            start,
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
        }
    }

    /// Restarts the clock (a ponder hit starts our own thinking time).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True once the hard deadline has passed.
    #[inline]
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.start.elapsed() >= hard)
    }

    /// True when no new iteration should start.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|soft| self.start.elapsed() >= soft)
    }
}
