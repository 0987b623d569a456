//! The settings screen: each setting with its value, the chosen one marked, and a line on what
//! it does below them.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::board::{Mark, square_style};
use super::chrome::{Below, Chrome};
use super::{centered, fit, input};
use crate::tui::chrome::keys;
use crate::tui::screen::Drawn;
use crate::tui::settings::{Row, SETTINGS_KEYS, SettingsScreen, row_about, row_name};

/// Draws the screen.
pub fn draw(frame: &mut Frame, screen: &SettingsScreen) -> Drawn {
    let chrome = Chrome {
        what: "the settings",
        quit: "q",
        below: Some(Below {
            message: input::message_line(screen.message.as_ref(), screen.palette),
            input: None,
            footer: keys::footer(SETTINGS_KEYS, |w| screen.keys_apply(w)),
        }),
        help: screen
            .help
            .shown
            .then(|| keys::help_lines(SETTINGS_KEYS, false, |w| screen.keys_apply(w))),
    };
    super::chrome::draw(frame, chrome, |frame, area| {
        draw_box(frame, area, screen);
        Drawn::default()
    })
}

/// The box's widest.
const BOX_WIDTH: u16 = 84;

/// The names' column.
const NAME_WIDTH: usize = 22;

fn draw_box(frame: &mut Frame, area: Rect, screen: &SettingsScreen) {
    let width = BOX_WIDTH.min(area.width);
    let room = usize::from(width.saturating_sub(4));
    let rows = screen.rows();
    // The borders, a blank line above the about lines, and their two.
    let fits = usize::from(area.height).saturating_sub(5).max(1);
    let first = screen.row.saturating_sub(fits - 1);
    let mut lines = Vec::new();
    for (i, &row) in rows.iter().enumerate().skip(first).take(fits) {
        let chosen = i == screen.row;
        let mark = match (chosen, screen.settings.ascii) {
            (false, _) => ' ',
            (true, false) => '▸',
            (true, true) => '>',
        };
        let value = match (&screen.typing, chosen) {
            (Some(typed), true) => {
                // The end of what is typed, where the cursor is.
                let tail: String = typed
                    .chars()
                    .rev()
                    .take(room.saturating_sub(NAME_WIDTH + 4))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                format!("{tail}_")
            }
            _ => fit(&screen.value(row), room.saturating_sub(NAME_WIDTH + 3)),
        };
        let style = if chosen {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        lines.push(Line::styled(
            format!(" {mark}{:NAME_WIDTH$} {value}", row_name(row)),
            style,
        ));
    }
    let list_h = lines.len() as u16;
    let rect = centered(area, width, list_h + 5);
    let block = Block::default().borders(Borders::ALL).title(" Settings ");
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    frame.render_widget(
        Paragraph::new(lines),
        Rect::new(inner.x, inner.y, inner.width, list_h.min(inner.height)),
    );
    let about_y = inner.y + list_h + 1;
    if about_y < inner.y + inner.height {
        let about = Line::styled(
            format!("  {}", row_about(screen.chosen())),
            Style::default().add_modifier(Modifier::DIM),
        );
        let text = if screen.chosen() == Row::Theme {
            vec![about, swatch(screen)]
        } else {
            vec![about]
        };
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: false }),
            Rect::new(
                inner.x,
                about_y,
                inner.width,
                inner.y + inner.height - about_y,
            ),
        );
    }
}

/// The theme's squares side by side: plain, the last move's and a king in check, each on a
/// light and a dark square, as the board draws them in this terminal.
fn swatch(screen: &SettingsScreen) -> Line<'static> {
    let mut spans = vec![Span::raw("  ")];
    for (name, mark) in [
        ("squares", Mark::None),
        ("last move", Mark::Last),
        ("check", Mark::Check),
    ] {
        // A king in check is one colour on either square.
        let sides: &[bool] = if mark == Mark::Check {
            &[true]
        } else {
            &[true, false]
        };
        for &light in sides {
            spans.push(Span::styled(
                "   ",
                square_style(screen.palette, light, mark),
            ));
        }
        spans.push(Span::raw(format!(" {name}  ")));
    }
    Line::from(spans)
}
