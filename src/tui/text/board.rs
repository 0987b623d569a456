//! The analysis board in plain text: each move played or stepped to, said in words; the
//! board's messages; and, asked for with `lines`, the engine's best lines read move by move
//! with their depth and score.

use crossterm::event::KeyCode;
use shakmaty::{Color, Position};

use super::{ask, words};
use crate::tui::board::{Board, Progress};

/// What the plain text adds to the board's own words (deeper, more, fewer, main, save).
pub(crate) const HELP: &[&str] = &[
    "The analysis board: type a move to play it. forward, backward: along the line; start, end; other: the other moves tried here.",
    "lines: the engine's best lines, move by move. more, fewer: how many lines; deeper: search on. main: make this line the main one. save: keep every line as PGN.",
    "The questions of the game work on the board: board, pieces, square f7, where queen, legal g1. q: back, or leave.",
];

/// What was said of the board.
#[derive(Debug, Default)]
pub(crate) struct Teller {
    /// The node of the tree said last.
    at: Option<usize>,
    message: Option<String>,
}

impl Teller {
    /// Forgets the last message said: the next is said even in the same words.
    pub(crate) fn forget_message(&mut self) {
        self.message = None;
    }

    /// What to say of `board` as it is now.
    pub(crate) fn after(&mut self, board: &Board) -> Vec<String> {
        let mut lines = Vec::new();
        let game = &board.game;
        match self.at {
            None => {
                lines.push(format!(
                    "The analysis board, {} to move. Type a move to play it, lines for the engine's lines, help for more.",
                    crate::tui::app::color_name(game.turn())
                ));
                lines.extend(Color::ALL.iter().map(|&c| ask::pieces(game.position(), c)));
            }
            Some(at) if at != board.at => lines.push(position(board)),
            Some(_) => {}
        }
        self.at = Some(board.at);
        let message = board.message.as_ref().map(|(text, _)| text);
        if message != self.message.as_ref() {
            self.message = message.cloned();
            lines.extend(message.map(|text| words::sans_in(text)));
        }
        lines
    }
}

/// Where the board is now: the move that led here, and who is to move.
fn position(board: &Board) -> String {
    let game = &board.game;
    let turn = crate::tui::app::color_name(game.turn());
    match game.ply().checked_sub(1) {
        None => format!("The start, {turn} to move."),
        Some(i) => {
            let before = game.position_at(i);
            format!(
                "Move {}, {}: {}. {turn} to move.",
                before.fullmoves(),
                crate::tui::app::color_name(before.turn()),
                words::moved(before, &game.moves()[i])
            )
        }
    }
}

/// The engine's lines as the board has them now, each read move by move.
pub(crate) fn lines(board: &Board) -> Vec<String> {
    let found: Vec<String> = board
        .lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.as_ref()?;
            Some(format!(
                "Line {}, depth {}, {}: {}.",
                i + 1,
                line.depth,
                words::score(line.score_white),
                words::sans_in_from(&line.san, &[board.pos()])
            ))
        })
        .collect();
    if !found.is_empty() {
        return found;
    }
    vec![match board.progress {
        Progress::Over => "The game is over here: nothing to search.".to_string(),
        Progress::Failed => "The search failed here.".to_string(),
        Progress::Running | Progress::Stopped(_) => "No line found yet.".to_string(),
    }]
}

/// The keys a word of the plain text stands for on the board; `None` when it is not one.
pub(crate) fn keys(line: &str) -> Option<Vec<KeyCode>> {
    Some(vec![match line {
        "forward" | "f" => KeyCode::Right,
        "backward" | "b" => KeyCode::Left,
        "start" => KeyCode::Home,
        "end" => KeyCode::End,
        "other" => KeyCode::Down,
        _ => return None,
    }])
}
