//! The help overlay: every key and command of the screen in front, from its key table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::centered;
use crate::tui::app::{App, GAME_KEYS};
use crate::tui::keys;

/// The game's help: how to enter moves, then the keys that work now.
pub(crate) fn game_lines(app: &App) -> Vec<String> {
    let mut lines = vec![
        "Moves: type UCI (e2e4, e7e8q, e1g1) or SAN (Nf3, O-O, exd5), Enter".to_string(),
        "Type a square (e2) or click a piece to see its moves; click or drag to a target"
            .to_string(),
    ];
    lines.extend(keys::help_lines(GAME_KEYS, true, |w| app.keys_apply(w)));
    lines
}

/// Draws the help overlay with `lines`.
pub fn draw(frame: &mut Frame, area: Rect, lines: &[String]) {
    let title = " Help: the keys that work now (any key closes) ";
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let w = widest.max(title.chars().count()) as u16 + 2;
    let rect = centered(area, w, lines.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    let lines: Vec<Line> = lines.iter().map(|l| Line::raw(l.clone())).collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        rect,
    );
}
