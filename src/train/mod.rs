//! Training: drills that grade the player's moves. Endgame drills play 3- and 4-piece endings
//! against perfect defence from the built-in tables.

pub mod drill;
pub mod ending;

pub use drill::{Difficulty, Drill, Goal, State, Verdict};
pub use ending::Ending;
