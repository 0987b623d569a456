//! The player's training record and how a result changes it: for each ending drilled, how many
//! starts were tried, won or held, and how close to par; the puzzle rating (Glicko-2) and its
//! history; the puzzles tried and their motifs; the schedule (SM-2) of the player's mistakes.
//! A result is a [`Change`], applied to the record in memory at once and replayed by the store
//! onto the record on disk (`store::training`), so instances training at once lose nothing.
//! Nothing here reads the clock: the day comes in with the result.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::puzzle::Puzzle;
use super::rating::Rating;
use super::schedule::Card;

/// Everything the training screens keep.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Endgame drills by ending (`KQvK`).
    #[serde(default)]
    pub endings: BTreeMap<String, EndingRecord>,
    /// The schedule of the player's own mistakes, by [`Mistake::id`](super::mistake::Mistake::id) (the
    /// position).
    #[serde(default)]
    pub mistakes: BTreeMap<String, Card>,
    /// The player's puzzle rating.
    #[serde(default)]
    pub puzzle_rating: Rating,
    /// The puzzle rating after each of the latest puzzles, oldest first.
    #[serde(default)]
    pub puzzle_history: Vec<i32>,
    /// The puzzles tried, by id: whether the first try solved it.
    #[serde(default)]
    pub puzzles: BTreeMap<String, bool>,
    /// By motif: puzzles tried and solved (under lichess's word for them in the file).
    #[serde(default, rename = "puzzle_themes")]
    pub puzzle_motifs: BTreeMap<String, [u32; 2]>,
}

/// Ratings kept in the puzzle history.
const HISTORY: usize = 200;

/// One ending's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndingRecord {
    /// Starts tried.
    #[serde(default)]
    pub tried: u32,
    /// Starts won or held (take-backs and hints allowed).
    #[serde(default)]
    pub done: u32,
    /// Starts won or held without a hint or a take-back.
    #[serde(default)]
    pub clean: u32,
    /// The fewest moves over par of a clean win.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_over_par: Option<u32>,
    /// The day of the last drill (`2026.11.26`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

impl Progress {
    /// Counts one finished start of `ending` on day `today` (days since 1970-01-01): reached
    /// or not, clean or not, and its moves over par when it was a clean win.
    pub fn record(
        &mut self,
        ending: &str,
        done: bool,
        clean: bool,
        over_par: Option<u32>,
        today: i64,
    ) {
        Change::ending(ending, done, clean, over_par, today).apply(self);
    }

    /// Counts the first try of puzzle `p`: the rating, its history, the puzzle and its motifs.
    pub fn record_puzzle(&mut self, p: &Puzzle, solved: bool) {
        Change::puzzle(p, solved).apply(self);
    }
}

/// One result an instance recorded: what the store replays onto the record on disk, so that
/// the results of another Knightfall saved in between are kept.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A finished start of an endgame drill.
    Ending {
        /// The ending (`KQvK`).
        ending: String,
        /// Won or held.
        done: bool,
        /// Without a hint or a take-back.
        clean: bool,
        /// Moves over par, for a win.
        over_par: Option<u32>,
        /// The day (`2026.11.26`).
        day: String,
    },
    /// A puzzle tried.
    Puzzle {
        /// Its id.
        id: String,
        /// Its rating, the opponent's in the rating period.
        rating: i32,
        /// Its themes, lichess's names.
        motifs: Vec<String>,
        /// Solved at the first try, without help.
        solved: bool,
    },
    /// An answer to one of the player's mistakes, graded for the schedule.
    Answer {
        /// The mistake's [`Mistake::id`](super::mistake::Mistake::id).
        id: String,
        /// Its grade, 0 to 5.
        grade: u8,
        /// The day it was given (days since 1970-01-01).
        today: i64,
    },
}

impl Change {
    /// A finished start of `ending` on day `today` (days since 1970-01-01).
    pub fn ending(
        ending: &str,
        done: bool,
        clean: bool,
        over_par: Option<u32>,
        today: i64,
    ) -> Change {
        Change::Ending {
            ending: ending.to_string(),
            done,
            clean,
            over_par,
            day: crate::game::date_of_day(today),
        }
    }

    /// A try of puzzle `p`.
    pub fn puzzle(p: &Puzzle, solved: bool) -> Change {
        Change::Puzzle {
            id: p.id.clone(),
            rating: p.rating,
            motifs: p.themes().into_iter().map(str::to_string).collect(),
            solved,
        }
    }

    /// Applies the result to `progress`: counts add, a rating moves from where `progress` has
    /// it, a card is answered from where `progress` has it.
    pub fn apply(&self, progress: &mut Progress) {
        match self {
            Change::Ending {
                ending,
                done,
                clean,
                over_par,
                day,
            } => {
                let r = progress.endings.entry(ending.clone()).or_default();
                r.tried += 1;
                if *done {
                    r.done += 1;
                }
                if *done && *clean {
                    r.clean += 1;
                    if let Some(over) = *over_par {
                        r.best_over_par = Some(r.best_over_par.map_or(over, |b| b.min(over)));
                    }
                }
                r.last = Some(day.clone());
            }
            Change::Puzzle {
                id,
                rating,
                motifs,
                solved,
            } => {
                progress.puzzle_rating = progress.puzzle_rating.after(*rating, *solved);
                progress
                    .puzzle_history
                    .push(progress.puzzle_rating.rating.round() as i32);
                if progress.puzzle_history.len() > HISTORY {
                    progress.puzzle_history.remove(0);
                }
                // The first try is the one kept: another instance may have tried it before.
                progress.puzzles.entry(id.clone()).or_insert(*solved);
                for motif in motifs {
                    let entry = progress.puzzle_motifs.entry(motif.clone()).or_default();
                    entry[0] += 1;
                    if *solved {
                        entry[1] += 1;
                    }
                }
            }
            Change::Answer { id, grade, today } => {
                let card = progress
                    .mistakes
                    .get(id)
                    .copied()
                    .unwrap_or_else(|| Card::new(*today));
                progress
                    .mistakes
                    .insert(id.clone(), card.answered(*grade, *today));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ending_keeps_its_best_clean_win_and_the_day_given() {
        let mut p = Progress::default();
        // 2026-11-26 is day 20_783.
        p.record("KQvK", true, true, Some(3), 20_783);
        p.record("KQvK", true, true, Some(1), 20_783);
        p.record("KQvK", true, false, Some(0), 20_783);
        p.record("KQvK", false, false, None, 20_784);
        let r = &p.endings["KQvK"];
        assert_eq!(
            (r.tried, r.done, r.clean, r.best_over_par),
            (4, 3, 2, Some(1))
        );
        assert_eq!(r.last.as_deref(), Some("2026.11.27"));
    }

    /// The motifs' counts stay under lichess's word in the file, where records already written
    /// have them.
    #[test]
    fn motif_counts_are_written_under_puzzle_themes() {
        let p: Progress = toml::from_str("[puzzle_themes]\nfork = [2, 1]\n").unwrap();
        assert_eq!(p.puzzle_motifs["fork"], [2, 1]);
        let text = toml::to_string(&p).unwrap();
        assert!(text.contains("[puzzle_themes]\nfork = [2, 1]\n"), "{text}");
    }
}
