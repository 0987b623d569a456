//! Knightfall: a chess engine and terminal game built on `shakmaty`.
//!
//! The engine (`engine`) is a library with no terminal code; the UCI loop and the terminal game
//! drive it from the binary.

pub mod book;
pub mod bot;
pub mod cmd;
pub mod engine;
pub mod external;
pub mod game;
pub mod line_tree;
pub mod memory;
pub mod openings;
pub mod player;
pub mod review;
pub mod tablebase;
pub mod tui;
pub mod uci;
