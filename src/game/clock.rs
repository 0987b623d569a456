//! Time controls and the two clocks of a game: the caller measures thinking time and passes it
//! in, so nothing here reads a clock.

use std::time::Duration;

use shakmaty::Color;

/// A time control: base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting time for each side.
    pub base: Duration,
    /// Added after each move.
    pub inc: Duration,
}

impl TimeControl {
    /// Parses `MIN+INC` (minutes, then seconds of increment: `5+3`, `1+0`, `0.5+0.1`); a base
    /// ending in `s` is in seconds (`10s+0.1`), for quick engine games.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let (base_secs, scale) = match base.strip_suffix('s') {
            Some(b) => (b, 1.0),
            None => (base, 60.0),
        };
        let base: f64 = base_secs
            .parse()
            .map_err(|_| format!("bad time control {text:?}: expected MIN+INC like 5+3"))?;
        let inc: f64 = inc
            .parse()
            .map_err(|_| format!("bad increment in {text:?}: expected seconds like 3 or 0.1"))?;
        let ok = |x: f64| x.is_finite() && (0.0..1.0e6).contains(&x);
        if !ok(base) || !ok(inc) || base * scale <= 0.0 {
            return Err(format!("time control {text:?} out of range"));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base * scale),
            inc: Duration::from_secs_f64(inc),
        })
    }

    /// The form `parse` reads back, also the PGN `TimeControl` value in seconds.
    pub fn pgn(&self) -> String {
        format!("{}+{}", self.base.as_secs_f64(), self.inc.as_secs_f64())
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.base.as_secs_f64();
        if secs >= 60.0 && secs % 60.0 == 0.0 {
            write!(f, "{}+{}", secs / 60.0, self.inc.as_secs_f64())
        } else {
            write!(f, "{}s+{}", secs, self.inc.as_secs_f64())
        }
    }
}

/// Both clocks: time left per side; the caller measures thinking time and passes it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The time control.
    pub tc: TimeControl,
    /// Time left, White then Black.
    pub left: [Duration; 2],
}

impl Clocks {
    /// Fresh clocks for `tc`.
    pub fn new(tc: TimeControl) -> Clocks {
        Clocks {
            tc,
            left: [tc.base, tc.base],
        }
    }

    /// The search limits for the engine to move on these clocks.
    pub fn limits(&self) -> crate::engine::Limits {
        let ms = |d: Duration| d.as_millis() as u64;
        crate::engine::Limits {
            wtime: Some(ms(self.left(Color::White))),
            btime: Some(ms(self.left(Color::Black))),
            winc: Some(ms(self.tc.inc)),
            binc: Some(ms(self.tc.inc)),
            ..crate::engine::Limits::default()
        }
    }

    /// Time left for `color`.
    pub fn left(&self, color: Color) -> Duration {
        self.left[side(color)]
    }
}

/// Index of `color` in White-first arrays (shakmaty numbers Black 0, White 1).
pub fn side(color: Color) -> usize {
    color.fold_wb(0, 1)
}
