//! The frame every screen is drawn in: the screen's own part on top, then its message line,
//! its input line and the footer of the keys that work now, with the help overlay over all
//! of it while it is shown; or a word that the terminal is too small for any of it.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use super::{help, input};
use crate::tui::screen::Drawn;

/// What a screen has around its own part.
pub(crate) struct Chrome<'a> {
    /// What needs the room, for the word that the terminal is too small ("the board").
    pub what: &'a str,
    /// The key that leaves, for that word.
    pub quit: &'a str,
    /// The lines below the screen's part; `None` when the screen draws them in its own part.
    pub below: Option<Below<'a>>,
    /// The help overlay's lines, while it is shown.
    pub help: Option<Vec<String>>,
}

/// The lines below a screen's part.
pub(crate) struct Below<'a> {
    /// The message line (two rows, wrapped).
    pub message: Line<'a>,
    /// The input line's prompt and what is typed, on a screen that has one.
    pub input: Option<(&'a str, &'a str)>,
    /// The footer: the labels of the keys that work now.
    pub footer: String,
}

/// Draws `chrome` around the screen's own part, which `body` draws in the area it is given
/// and answers what it measured for the mouse.
pub(crate) fn draw(
    frame: &mut Frame,
    chrome: Chrome,
    body: impl FnOnce(&mut Frame, Rect) -> Drawn,
) -> Drawn {
    let area = frame.area();
    if too_small(frame, area, chrome.what, chrome.quit) {
        return Drawn::default();
    }
    let drawn = match &chrome.below {
        None => body(frame, area),
        Some(below) => {
            let keys = input::key_lines(&below.footer, area.width);
            let mut rows = vec![Constraint::Min(10), Constraint::Length(2)];
            if below.input.is_some() {
                rows.push(Constraint::Length(1));
            }
            rows.push(Constraint::Length(keys.len().max(1) as u16));
            let rows = Layout::vertical(rows).split(area);
            let drawn = body(frame, rows[0]);
            frame.render_widget(
                Paragraph::new(below.message.clone()).wrap(Wrap { trim: true }),
                rows[1],
            );
            if let Some((prompt, text)) = below.input {
                input::draw_input(frame, rows[2], prompt, text, chrome.help.is_none());
            }
            input::draw_keys(frame, rows[rows.len() - 1], &keys);
            drawn
        }
    };
    if let Some(lines) = &chrome.help {
        help::draw(frame, area, lines);
    }
    drawn
}

/// When `area` is below the smallest size, says so (naming what needs the room and the key
/// that leaves) and returns true: nothing else is drawn.
fn too_small(frame: &mut Frame, area: Rect, what: &str, quit: &str) -> bool {
    let (w, h) = super::MIN_SIZE;
    if area.width >= w && area.height >= h {
        return false;
    }
    let text = format!(
        "Terminal too small: {}x{}; {what} needs at least {w}x{h}. Enlarge it, or {quit} to quit.",
        area.width, area.height
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
    true
}
