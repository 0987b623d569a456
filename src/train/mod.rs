//! Training: drills that grade the player's moves. Endgame drills play 3- and 4-piece endings
//! against perfect defence from the built-in tables; the player's own mistakes, found by the
//! reviews of their games, come back on a spaced-repetition schedule; puzzles move a rating.
//! The player's record of it all, and how each result changes it, is `progress`.

pub mod ending;
pub mod drill;
pub mod mistake;
pub mod rating;
pub mod schedule;
pub mod puzzle;
pub mod progress;

pub use drill::{Difficulty, Drill, Goal, State, Verdict};
pub use ending::Ending;
