//! The player's puzzle rating: Glicko-2 (through the `skillratings` crate), one rating period
//! per puzzle as lichess rates puzzles, the puzzle a fixed opponent at its rating.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A puzzle's deviation when it plays the opponent: puzzles' ratings are estimates too.
const PUZZLE_DEVIATION: f64 = 80.0;

/// A Glicko-2 rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation: how unsure it is.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        let r = Glicko2Rating::new();
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl Rating {
    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// The rating after a puzzle rated `puzzle` was solved (or not).
    pub fn after(self, puzzle: i32, solved: bool) -> Rating {
        let opponent = Glicko2Rating {
            rating: f64::from(puzzle),
            deviation: PUZZLE_DEVIATION,
            volatility: 0.06,
        };
        let outcome = if solved {
            Outcomes::WIN
        } else {
            Outcomes::LOSS
        };
        let (new, _) = glicko2(&self.glicko(), &opponent, &outcome, &Glicko2Config::new());
        Rating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
        }
    }

    /// `1523 ± 120` (about 95% sure: two deviations).
    pub fn shown(self) -> String {
        format!("{:.0} ± {:.0}", self.rating, 2.0 * self.deviation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    #[test]
    fn glickmans_worked_example() {
        // Glickman, "Example of the Glicko-2 system": 1500 (RD 200) beats 1400 (RD 30) and
        // loses to 1550 (RD 100) and 1700 (RD 300), with tau 0.5: 1464.06, RD 151.52,
        // volatility 0.05999.
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let new = glicko2_rating_period(&player, &results, &config);
        assert!((new.rating - 1464.06).abs() < 0.05, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.05, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.0001, "{new:?}");
    }

    #[test]
    fn solving_raises_it_failing_lowers_it_and_both_grow_surer() {
        let start = Rating::default();
        assert_eq!(start.shown(), "1500 ± 700");
        let up = start.after(1500, true);
        let down = start.after(1500, false);
        assert!(up.rating > 1500.0 && down.rating < 1500.0);
        assert!((up.rating - 1500.0 - (1500.0 - down.rating)).abs() < 1e-6);
        assert!(up.deviation < start.deviation);
        // An easy puzzle solved moves it less than a hard one.
        assert!(start.after(1000, true).rating < start.after(2000, true).rating);
    }
}
