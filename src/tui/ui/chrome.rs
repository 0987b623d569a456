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
    /// The message line (two rows, wrapped; up to four when it needs them and there is room).
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
            let keys_h = keys.len().max(1) as u16;
            let input_h = u16::from(below.input.is_some());
            let message = Paragraph::new(below.message.clone()).wrap(Wrap { trim: true });
            let message_h = message_rows(&message, area, keys_h + input_h);
            let mut rows = vec![Constraint::Min(10), Constraint::Length(message_h)];
            if below.input.is_some() {
                rows.push(Constraint::Length(1));
            }
            rows.push(Constraint::Length(keys_h));
            let rows = Layout::vertical(rows).split(area);
            let drawn = body(frame, rows[0]);
            frame.render_widget(message, rows[1]);
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

/// The rows the message line takes: two, and up to [`MESSAGE_MOST`] when its words need them
/// and the screen's part keeps [`BODY_KEEPS`] rows (a board of two-row squares) beside the
/// `other` rows below it. A review's reason with its line is cut at two rows of 80 columns.
fn message_rows(message: &Paragraph, area: Rect, other: u16) -> u16 {
    let needed = u16::try_from(message.line_count(area.width)).unwrap_or(u16::MAX);
    let spare = area.height.saturating_sub(other + BODY_KEEPS);
    needed
        .clamp(MESSAGE_LEAST, MESSAGE_MOST)
        .min(spare.max(MESSAGE_LEAST))
}

/// The message line's rows, however short it is.
const MESSAGE_LEAST: u16 = 2;
/// The most rows the message line takes.
const MESSAGE_MOST: u16 = 4;
/// The rows a screen's own part keeps before the message line grows: a board of two-row
/// squares with its file letters.
const BODY_KEEPS: u16 = 18;

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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// Draws a chrome with `message` on a `w` x `h` terminal; answers the height the screen's
    /// own part was given and the rows of text below it.
    fn drawn(message: &str, w: u16, h: u16) -> (u16, Vec<String>) {
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut body_h = 0;
        term.draw(|frame| {
            let chrome = Chrome {
                what: "the board",
                quit: "q",
                below: Some(Below {
                    message: Line::raw(message.to_string()),
                    input: None,
                    footer: "←→ move  q quit".to_string(),
                }),
                help: None,
            };
            draw(frame, chrome, |_, area| {
                body_h = area.height;
                Drawn::default()
            });
        })
        .unwrap();
        let buffer = term.backend().buffer();
        let rows = (body_h..h)
            .map(|y| (0..w).map(|x| buffer[(x, y)].symbol()).collect::<String>())
            .collect();
        (body_h, rows)
    }

    #[test]
    fn a_long_message_takes_the_rows_it_needs_while_the_board_keeps_its_room() {
        let long = "Kf4?! (-4.77 → -13.22) Inaccuracy: lets the knight on a6 be trapped: \
                    54... Rf5+ 55. Ke4 Rc5 56. Nb8 Rc7 57. Kf3 Rb7 58. Na6 Kb5 59. Ke4 Kxa6. \
                    Kf3 was best (b shows it): 54. Kf3 g5 55. Ke4 f5+ 56. Kf3 Kd5";
        // 80x24 with a footer of one row: three rows of message, and the 20 rows left still
        // hold a board of two-row squares (17 rows with its letters).
        let (body, rows) = drawn(long, 80, 24);
        assert_eq!(body, 24 - 3 - 1, "{rows:#?}");
        let text = rows.join(" ");
        assert!(text.contains("Kf3 Kd5"), "{rows:#?}");
        assert!(rows[3].contains("q quit"), "{rows:#?}");
        // A short message keeps its two rows: the screen does not move for nothing.
        let (body, _) = drawn("Nf3 (+0.20 → +0.25)", 80, 24);
        assert_eq!(body, 21);
        // Never more than four rows, on a tall terminal too.
        let (body, _) = drawn(&long.repeat(3), 80, 60);
        assert_eq!(body, 60 - 4 - 1);
        // At the smallest size the screen's part keeps every row it has: two rows, cut.
        let (body, rows) = drawn(long, 60, 18);
        assert_eq!(body, 18 - 2 - 1, "{rows:#?}");
    }
}
