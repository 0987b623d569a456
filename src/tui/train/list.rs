//! The list the screen opens on: the player's mistakes, the puzzles, then the endings, each
//! with what it teaches; what the screen opens on, and what the chosen row starts.

use super::{FIRST_ENDING, MISTAKES_ROW, PUZZLES_ROW, Train};
use crate::train::{Difficulty, Ending};

/// What each offered ending teaches, for the list.
pub(crate) fn about(name: &str) -> &'static str {
    match name {
        "KQvK" => "queen and king mate the lone king",
        "KRvK" => "rook and king mate the lone king",
        "KPvK" => "win with a pawn: opposition, key squares",
        "KvKP" => "stop the pawn and hold the draw",
        "KBBvK" => "two bishops mate",
        "KBNvK" => "bishop and knight mate, in the right corner",
        "KQvKR" => "queen against rook",
        "KQvKP" => "queen against a running pawn",
        "KRvKP" => "rook against pawn",
        "KPvKP" => "pawn against pawn: who queens first",
        _ => "",
    }
}

/// What the screen opens on.
#[derive(Clone, Debug)]
pub enum Start {
    /// The list of endings, at this difficulty.
    List(Difficulty),
    /// A drill of this ending at this difficulty.
    Ending(Ending, Difficulty),
    /// A drill from this position.
    Fen(String),
    /// The player's mistakes that are due.
    Mistakes,
    /// The puzzles: the one with this id, or the next one.
    Puzzles(Option<String>),
}

impl Train {
    /// Starts what the list's chosen row offers: the mistakes due, or a drill of the chosen
    /// ending and difficulty.
    pub(super) fn start(&mut self) {
        if self.choice == MISTAKES_ROW {
            return self.start_practice();
        }
        if self.choice == PUZZLES_ROW {
            return self.start_puzzle();
        }
        if let Some(ending) = self.endings.get(self.choice - FIRST_ENDING).cloned() {
            self.start_ending(ending);
        }
    }
}

/// A row of the list as the screen and the plain text say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// "Mistakes", "Puzzles", or the ending's name.
    pub name: String,
    /// The player's record of it.
    pub record: String,
    /// What it is, or teaches.
    pub about: String,
}

impl Train {
    /// The list's rows, in order: the mistakes, the puzzles, then the endings.
    pub fn rows(&self) -> Vec<Row> {
        let mistakes = if self.mistakes.is_empty() {
            "none yet".to_string()
        } else {
            let (due, learned) = self.mistake_counts();
            format!("{due} due, {learned}/{} learned", self.mistakes.len())
        };
        let offered = self.let_through();
        let solved = self.progress.puzzles.values().filter(|&&s| s).count();
        let puzzles = format!(
            "{} ({solved}/{} solved)",
            self.progress.puzzle_rating.shown(),
            self.progress.puzzles.len()
        );
        let filter = match &self.imported {
            _ if !self.filter.is_empty() => format!("{offered} puzzles let through the filter"),
            None => format!("{offered} puzzles from games between the levels"),
            Some(imported) => format!(
                "{} built-in, {} from lichess",
                self.puzzles.len(),
                imported.total
            ),
        };
        let mut rows = vec![
            Row {
                name: "Mistakes".into(),
                record: mistakes,
                about: "yours, from your reviewed games".into(),
            },
            Row {
                name: "Puzzles".into(),
                record: puzzles,
                about: filter,
            },
        ];
        debug_assert_eq!(rows.len(), FIRST_ENDING);
        const { assert!(MISTAKES_ROW == 0 && PUZZLES_ROW == 1) };
        rows.extend(self.endings.iter().map(|ending| {
            let name = ending.to_string();
            let record = self.progress.endings.get(&name).map_or_else(
                || "not tried".to_string(),
                |r| {
                    let mut s = format!("{}/{} done", r.done, r.tried);
                    if let Some(over) = r.best_over_par {
                        s.push_str(&if over == 0 {
                            ", won at par".to_string()
                        } else {
                            format!(", best par+{over}")
                        });
                    }
                    s
                },
            );
            Row {
                about: about(&name).to_string(),
                name,
                record,
            }
        }));
        rows
    }
}
