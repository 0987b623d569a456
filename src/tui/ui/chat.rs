//! The chat with the friend, in a game against a friend (where the engine's panel would be):
//! the link's state on top, then the latest lines, the newest at the bottom.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Color as Tui;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{bold, fg};
use crate::tui::app::{App, Remote};

/// Draws the panel.
pub fn draw(frame: &mut Frame, area: Rect, app: &App, remote: &Remote) {
    let block = super::titled(" Chat ", area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width).max(1);
    let palette = app.palette();
    let friend = app.game.names[crate::game::side(remote.colour)].clone();
    let wait = match app.wait_left() {
        Some(left) if !app.game.is_over() => format!(
            "; waiting {}:{:02} for {friend}",
            left.as_secs() / 60,
            left.as_secs() % 60
        ),
        _ => String::new(),
    };
    let state = match &remote.lost {
        Some(why) => Span::styled(
            format!("Link lost: {why}{wait}"),
            fg(palette, Tui::Red).add_modifier(ratatui::style::Modifier::BOLD),
        ),
        None => Span::styled(format!("Playing {friend} over the network"), bold()),
    };
    let mut rows: Vec<Line> = super::analysis::wrap(&state.content, width)
        .into_iter()
        .map(|r| Line::from(Span::styled(r, state.style)))
        .collect();
    let mut said: Vec<Line> = Vec::new();
    for (who, text) in &remote.chat {
        let (who, style) = match who {
            Some(name) => (name.as_str(), fg(palette, Tui::Cyan)),
            None => ("You", fg(palette, Tui::Green)),
        };
        for (i, row) in rows_of(&format!("{who}: {text}"), width)
            .into_iter()
            .enumerate()
        {
            // The speaker's name stands out on the first row of what they said.
            let line = match (i, row.split_once(": ")) {
                (0, Some((name, rest))) => Line::from(vec![
                    Span::styled(
                        format!("{name}:"),
                        style.add_modifier(ratatui::style::Modifier::BOLD),
                    ),
                    Span::raw(format!(" {rest}")),
                ]),
                _ => Line::raw(row),
            };
            said.push(line);
        }
    }
    if said.is_empty() && remote.lost.is_none() {
        said.push(Line::raw("say TEXT sends a line."));
    }
    // The newest lines stay in view.
    let room = usize::from(inner.height).saturating_sub(rows.len());
    let skip = said.len().saturating_sub(room);
    rows.extend(said.into_iter().skip(skip));
    frame.render_widget(Paragraph::new(rows), inner);
}

/// `text` in rows of `width`, broken at spaces, and a word longer than a row cut across rows.
fn rows_of(text: &str, width: usize) -> Vec<String> {
    super::analysis::wrap(text, width)
        .into_iter()
        .flat_map(|row| {
            let chars: Vec<char> = row.chars().collect();
            chars
                .chunks(width)
                .map(|c| c.iter().collect::<String>())
                .collect::<Vec<_>>()
        })
        .collect()
}
