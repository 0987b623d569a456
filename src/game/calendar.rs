//! Dates and times of day, UTC. The system clock is read here, by the edges of the program
//! (the runner, the commands) that hand what they read to the rest: a game is dated by its
//! caller, a screen by the moment its runner gives it.

use std::time::{Duration, Instant, SystemTime};

/// A moment, UTC, as read from the system clock (or given, in a test).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Moment {
    /// Since 1970-01-01 00:00 UTC.
    since_epoch: Duration,
}

impl Moment {
    /// Now, from the system clock.
    pub fn now() -> Moment {
        Moment {
            since_epoch: SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap_or_default(),
        }
    }

    /// The moment `secs` seconds after 1970-01-01 00:00 UTC.
    pub fn from_unix(secs: u64) -> Moment {
        Moment {
            since_epoch: Duration::from_secs(secs),
        }
    }

    /// The moment `later` after this one.
    pub fn after(self, later: Duration) -> Moment {
        Moment {
            since_epoch: self.since_epoch.saturating_add(later),
        }
    }

    /// Its day, counted from 1970-01-01.
    pub fn day(self) -> i64 {
        (self.since_epoch.as_secs() / 86_400) as i64
    }

    /// Its date as PGN writes one, `YYYY.MM.DD`.
    pub fn date(self) -> String {
        date_of_day(self.day())
    }

    /// The stamp `YYYYMMDD-HHMMSS` that names files.
    pub fn stamp(self) -> String {
        let (y, m, d) = civil_from_days(self.day());
        let s = self.since_epoch.as_secs() % 86_400;
        format!(
            "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    }
}

/// The system clock as read once, at an instant: a later instant is a moment on it. A screen
/// holds one so that what it dates follows its events' time and it reads no clock itself.
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    instant: Instant,
    moment: Moment,
}

impl WallClock {
    /// The system clock, read now as the moment of `instant`.
    pub fn read(instant: Instant) -> WallClock {
        WallClock {
            instant,
            moment: Moment::now(),
        }
    }

    /// The moment of `instant` (one before the reading is the reading's).
    pub fn at(&self, instant: Instant) -> Moment {
        self.moment
            .after(instant.saturating_duration_since(self.instant))
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub fn today() -> String {
    Moment::now().date()
}

/// Today as days since 1970-01-01 (UTC), from the system clock: for schedules.
pub fn day_number() -> i64 {
    Moment::now().day()
}

/// The stamp `YYYYMMDD-HHMMSS` of now (UTC), from the system clock: for file names.
pub fn timestamp() -> String {
    Moment::now().stamp()
}

/// A day number (days since 1970-01-01) as a PGN date, `2026.11.26`.
pub fn date_of_day(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), Howard Hinnant's algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_as_date_day_and_stamp() {
        // 2026-11-20 10:01:02 UTC.
        let m = Moment::from_unix(1_795_168_862);
        assert_eq!(m.date(), "2026.11.20");
        assert_eq!(m.stamp(), "20261120-100102");
        assert_eq!(date_of_day(m.day()), "2026.11.20");
        assert_eq!(date_of_day(0), "1970.01.01");
        assert_eq!(date_of_day(-1), "1969.12.31");
        assert_eq!(m.after(Duration::from_secs(86_400)).date(), "2026.11.21");
    }

    #[test]
    fn a_wall_clock_follows_its_instants() {
        let t0 = Instant::now();
        let wall = WallClock::read(t0);
        let later = wall.at(t0 + Duration::from_secs(90));
        assert_eq!(later, wall.at(t0).after(Duration::from_secs(90)));
    }
}
