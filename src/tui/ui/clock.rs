//! The clocks: one reading per side (the running one marked, red when time runs low), drawn in
//! large digits beside the board where the side column has room, and in the status line where
//! it has not; either way the clock of the side at the bottom of the board comes last.

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Tui, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use shakmaty::Color;

use super::{bold, fg};
use crate::tui::app::{App, color_name};

/// Rows the large clocks take: a border, the players' names, three rows of digits, a border.
pub(crate) const HEIGHT: u16 = 6;

/// One side's clock as it reads now.
pub(crate) struct Reading {
    /// Time left, the running side's thinking so far taken off.
    pub left: Duration,
    /// This clock runs now.
    pub running: bool,
    /// Below the low-time mark.
    pub low: bool,
}

/// `color`'s clock now, in a game with clocks.
pub(crate) fn reading(app: &App, color: Color) -> Option<Reading> {
    let clocks = app.game.clocks()?;
    let turn = app.game.turn();
    let mut left = clocks.left(color);
    if color == turn {
        left = left.saturating_sub(app.thinking_time());
    }
    // A clock that waits for its side's first move is not running yet, nor one stopped while
    // the link to a friend is down.
    let running =
        color == turn && !app.first_move_free() && app.game.outcome().is_none() && !app.link_lost();
    let low = left < app.low_time().unwrap_or_default();
    Some(Reading { left, running, low })
}

/// A clock reading: `4:59`, `0:09.3` under ten seconds.
pub(crate) fn format(d: Duration) -> String {
    let secs = d.as_secs();
    if secs < 10 {
        format!("0:{:02}.{}", secs, d.subsec_millis() / 100)
    } else if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// The style a reading is drawn in: bold while it runs, red when low.
pub(crate) fn style(app: &App, r: &Reading) -> Style {
    let mut style = if r.running { bold() } else { Style::default() };
    if r.low {
        style = style.patch(fg(app.palette(), Tui::Red));
    }
    style
}

/// The mark of the running clock.
pub(crate) fn mark(app: &App, running: bool) -> &'static str {
    match (running, app.settings.ascii) {
        (false, _) => " ",
        (true, true) => ">",
        (true, false) => "▶",
    }
}

/// Whether the large clocks fit `width` columns (each side's half).
pub(crate) fn fits(app: &App, width: u16) -> bool {
    if app.settings.ascii {
        return false;
    }
    let half = usize::from(width.saturating_sub(2) / 2);
    Color::ALL.iter().all(|&c| {
        reading(app, c).is_some_and(|r| big_width(&format(r.left)).is_some_and(|w| w < half))
    })
}

/// Draws both clocks in large digits, in the screen's order of the sides: the clock of the
/// side at the bottom of the board on the right, nearest its player.
pub(crate) fn draw_large(frame: &mut Frame, area: Rect, app: &App) {
    let block = super::titled("Clocks", area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let halves =
        Layout::horizontal([Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)]).split(inner);
    for (color, half) in app.sides_across().into_iter().zip(halves.iter()) {
        let Some(r) = reading(app, color) else {
            continue;
        };
        let style = style(app, &r);
        let name = format!("{}{}", mark(app, r.running), color_name(color));
        let mut lines = vec![Line::styled(name, style)];
        if let Some(rows) = big(&format(r.left)) {
            lines.extend(rows.into_iter().map(|row| Line::styled(row, style)));
        }
        frame.render_widget(Paragraph::new(lines).centered(), *half);
    }
}

/// Each glyph as five rows of three pixels (`#` lit); the colon and the point are one wide.
fn pixels(c: char) -> Option<[&'static str; 5]> {
    Some(match c {
        '0' => ["###", "#.#", "#.#", "#.#", "###"],
        '1' => [".#.", "##.", ".#.", ".#.", "###"],
        '2' => ["###", "..#", "###", "#..", "###"],
        '3' => ["###", "..#", "###", "..#", "###"],
        '4' => ["#.#", "#.#", "###", "..#", "..#"],
        '5' => ["###", "#..", "###", "..#", "###"],
        '6' => ["###", "#..", "###", "#.#", "###"],
        '7' => ["###", "..#", "..#", "..#", "..#"],
        '8' => ["###", "#.#", "###", "#.#", "###"],
        '9' => ["###", "#.#", "###", "..#", "###"],
        ':' => [".", "#", ".", "#", "."],
        '.' => [".", ".", ".", ".", "#"],
        _ => return None,
    })
}

/// Columns `text` takes in large digits, if every character has a glyph.
fn big_width(text: &str) -> Option<usize> {
    let widths: Option<Vec<usize>> = text
        .chars()
        .map(|c| pixels(c).map(|p| p[0].len()))
        .collect();
    let widths = widths?;
    Some(widths.iter().sum::<usize>() + widths.len().saturating_sub(1))
}

/// `text` in large digits: three terminal rows, each holding two pixel rows in half blocks.
pub fn big(text: &str) -> Option<[String; 3]> {
    let glyphs: Option<Vec<[&str; 5]>> = text.chars().map(pixels).collect();
    let glyphs = glyphs?;
    let lit = |g: &[&str; 5], row: usize, col: usize| {
        g.get(row)
            .is_some_and(|r| r.as_bytes().get(col) == Some(&b'#'))
    };
    let mut out: [String; 3] = Default::default();
    for (cell_row, line) in out.iter_mut().enumerate() {
        for (i, g) in glyphs.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            for col in 0..g[0].len() {
                let (top, bottom) = (lit(g, cell_row * 2, col), lit(g, cell_row * 2 + 1, col));
                line.push(match (top, bottom) {
                    (true, true) => '█',
                    (true, false) => '▀',
                    (false, true) => '▄',
                    (false, false) => ' ',
                });
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_show_tenths_only_under_ten_seconds() {
        assert_eq!(format(Duration::from_millis(299_000)), "4:59");
        assert_eq!(format(Duration::from_millis(9_340)), "0:09.3");
        assert_eq!(format(Duration::from_secs(3_725)), "1:02:05");
    }

    #[test]
    fn large_digits_are_three_rows_of_half_blocks() {
        let [a, b, c] = big("1:07").unwrap();
        assert_eq!(a, "▄█  ▄ █▀█ ▀▀█");
        assert_eq!(b, " █  ▄ █ █   █");
        assert_eq!(c, "▀▀▀   ▀▀▀   ▀");
        assert_eq!(
            big_width("0:09.3"),
            Some(3 + 1 + 1 + 1 + 3 + 1 + 3 + 1 + 1 + 1 + 3)
        );
        assert!(big("5+3").is_none());
        assert_eq!(
            big("10:00").unwrap()[0].chars().count(),
            big_width("10:00").unwrap()
        );
    }
}
