//! The integration tests, one module per part of the program, in one test binary: one link
//! of the library instead of one per file, which is most of the tests' build time on two cores.

#![allow(
    clippy::unwrap_used,
    reason = "a test's helpers fail loudly, where the failure is"
)]

mod common;
mod book;
mod cli;
mod deps;
mod engine_processes;
mod eval;
mod friend;
mod friend_lossy;
mod friend_screen;
mod library;
mod line_tree;
mod memory;
mod openings;
mod parsers;
mod perft;
mod player;
mod puzzles;
mod readme_keys;
mod review;
mod scale;
mod search;
mod see;
mod stats;
mod tablebase;
mod terms;
mod text_mode;
mod tui_app;
mod tui_friend;
mod tui_board;
mod tui_headless;
mod tui_home;
mod tui_keys;
mod tui_library;
mod tui_pty;
mod tui_render;
mod tui_review;
mod tui_setup;
mod tui_train;
mod tui_worker;
mod uci;
