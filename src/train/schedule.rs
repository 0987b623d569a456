//! When a drill comes back: SuperMemo's SM-2 schedule. Each answer is graded 0 to 5; a
//! passing grade (3 and up) spaces the next repetition out (1 day, 6 days, then the last
//! interval times the item's ease), a failing one starts the item over the next day. The ease
//! starts at 2.5, moves with every passing grade by `0.1 - (5 - q) * (0.08 + (5 - q) * 0.02)`
//! and never falls below 1.3; as SM-2 has it, a failing grade leaves it as it was.

use serde::{Deserialize, Serialize};

/// The grade of an answer found at once, from memory.
pub const PERFECT: u8 = 5;
/// The grade of a good answer that was not the one remembered (another move just as good).
pub const GOOD: u8 = 4;
/// The grade of an answer found only with a hint.
pub const HELPED: u8 = 3;
/// The grade of a wrong answer.
pub const WRONG: u8 = 1;

/// The ease every item starts with.
const START_EASE: f64 = 2.5;
/// The lowest ease.
const MIN_EASE: f64 = 1.3;

/// One item's place in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// Passing answers in a row.
    pub reps: u32,
    /// Days until the next repetition, as last set.
    pub interval: u32,
    /// How fast the intervals grow.
    pub ease: f64,
    /// The day it is due (days since 1970-01-01).
    pub due: i64,
}

impl Card {
    /// A new item, due on `today`.
    pub fn new(today: i64) -> Card {
        Card {
            reps: 0,
            interval: 0,
            ease: START_EASE,
            due: today,
        }
    }

    /// The card after an answer graded `grade` (0 to 5) on `today`.
    pub fn answered(self, grade: u8, today: i64) -> Card {
        let q = f64::from(grade.min(5));
        if grade < 3 {
            return Card {
                reps: 0,
                interval: 1,
                ease: self.ease,
                due: today + 1,
            };
        }
        let interval = match self.reps {
            0 => 1,
            1 => 6,
            _ => (f64::from(self.interval) * self.ease).round() as u32,
        };
        let ease = (self.ease + 0.1 - (5.0 - q) * (0.08 + (5.0 - q) * 0.02)).max(MIN_EASE);
        Card {
            reps: self.reps + 1,
            interval,
            ease: (ease * 100.0).round() / 100.0,
            due: today + i64::from(interval),
        }
    }

    /// Whether it is due on `today`.
    pub fn is_due(&self, today: i64) -> bool {
        self.due <= today
    }

    /// Learned: answered from memory three times in a row, so it is weeks away.
    pub fn is_learned(&self) -> bool {
        self.reps >= 3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_intervals_of_sm2_worked_through() {
        // Day 100: a new item answered perfectly, then again the next day, then well.
        let c = Card::new(100);
        assert!(c.is_due(100) && !c.is_due(99));
        let c = c.answered(PERFECT, 100);
        assert_eq!(
            c,
            Card {
                reps: 1,
                interval: 1,
                ease: 2.6,
                due: 101
            }
        );
        let c = c.answered(PERFECT, 101);
        assert_eq!(
            c,
            Card {
                reps: 2,
                interval: 6,
                ease: 2.7,
                due: 107
            }
        );
        // Grade 4 keeps the ease: 0.1 - 1 * (0.08 + 0.02) = 0.
        let c = c.answered(GOOD, 107);
        assert_eq!(
            c,
            Card {
                reps: 3,
                interval: 16,
                ease: 2.7,
                due: 123
            }
        );
        assert!(c.is_learned());
        // Grade 3 lowers it by 0.14; the interval is the last one times the old ease.
        let c = c.answered(HELPED, 123);
        assert_eq!(
            c,
            Card {
                reps: 4,
                interval: 43,
                ease: 2.56,
                due: 166
            }
        );
        // A wrong answer starts over tomorrow and leaves the ease.
        let c = c.answered(WRONG, 166);
        assert_eq!(
            c,
            Card {
                reps: 0,
                interval: 1,
                ease: 2.56,
                due: 167
            }
        );
        assert!(!c.is_learned());
        let c = c.answered(PERFECT, 167);
        assert_eq!((c.reps, c.interval, c.due), (1, 1, 168));
    }

    #[test]
    fn the_ease_never_falls_below_1_3() {
        let mut c = Card::new(0);
        for day in 0..20 {
            c = c.answered(HELPED, day);
        }
        assert_eq!(c.ease, MIN_EASE);
        assert_eq!(Card::new(0).answered(0, 5).due, 6);
    }
}
