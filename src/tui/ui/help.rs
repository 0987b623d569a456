//! The help overlay: every key and command.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::centered;
use crate::tui::app::App;

/// Keys and commands, one per line.
pub const HELP: [&str; 22] = [
    "Moves: type UCI (e2e4, e7e8q, e1g1) or SAN (Nf3, O-O, exd5), Enter",
    "Type a square (e2) or click a piece to see its moves; click a target",
    "",
    "Key      Command      What it does",
    "Ctrl-N   new          new game: choose colour, opponent and clock",
    "Ctrl-Z   undo         take back (your move and the engine's reply)",
    "Ctrl-F   flip         turn the board around",
    "Ctrl-T   hint         the engine's suggestion for your move",
    "Ctrl-R   resign       resign the game",
    "Ctrl-D   draw         offer a draw (the engine judges by its score)",
    "Ctrl-S   save [FILE]  save the game as PGN",
    "Ctrl-E   fen          show the position's FEN",
    "Ctrl-L   moves        list the legal moves",
    "Ctrl-V   line         show or hide the engine's expected line",
    "Ctrl-B   board        the analysis board at this move",
    "r        review       a finished game's review (r at \"Play again?\")",
    "← → PgUp PgDn Home End  browse earlier positions; Esc: back",
    "Space / Ctrl-P  pause  watch mode: pause and resume",
    ">        step         watch mode: one move while paused",
    "? F1     help         this help",
    "Ctrl-Q Ctrl-C  quit   leave (the game is saved as PGN)",
    "Press any key to close.",
];

/// Draws the overlay.
pub fn draw(frame: &mut Frame, area: Rect, _app: &App) {
    let w = HELP.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 4;
    let rect = centered(area, w, HELP.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    let lines: Vec<Line> = HELP.iter().map(|l| Line::raw(*l)).collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Help ")),
        rect,
    );
}
