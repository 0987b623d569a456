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
