//! Knightfall: a chess engine and terminal game built on `shakmaty`.
//!
//! The modules are listed in dependency order, and the order is the rule: a module uses only
//! the modules above it, never one below (`tests/it/deps.rs` checks it). The engine is a library
//! with no terminal, no files and no threads but its own helpers; `store` keeps everything on
//! disk below the screens (`tui`) and the commands (`cmd`) that use it.

pub mod rng;
pub mod output;
pub mod fen;
pub mod theme;
pub(crate) mod memory;
pub(crate) mod lines;
pub mod tablebase;
pub mod engine;
pub mod pgn;
pub mod book;
pub mod openings;
pub mod game;
pub mod motifs;
pub mod line_tree;
pub(crate) mod uci_info;
pub mod external;
pub mod player;
pub mod search_thread;
pub mod net;
pub(crate) mod bot;
pub mod uci;
pub mod review;
pub mod train;
pub mod store;
pub mod tui;
pub mod cmd;
