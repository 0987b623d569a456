//! The settings screen: each setting with its value, the chosen one marked, and a line on what
//! it does below them.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::chrome::{Below, Chrome};
use super::{centered, fit, input};
use crate::tui::chrome::keys;
use crate::tui::screen::Drawn;
use crate::tui::settings::{SETTINGS_KEYS, SettingsScreen, row_about, row_name};

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
const BOX_WIDTH: u16 = 96;

/// The names' column.
const NAME_WIDTH: usize = 22;

fn draw_box(frame: &mut Frame, area: Rect, screen: &SettingsScreen) {
    let width = BOX_WIDTH.min(area.width);
    let room = usize::from(width.saturating_sub(4));
    let rows = screen.rows();
    // The borders, a blank line above the about line, and the about line's two.
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
        let about = row_about(screen.chosen());
        frame.render_widget(
            Paragraph::new(Line::styled(
                format!("  {about}"),
                Style::default().add_modifier(Modifier::DIM),
            ))
            .wrap(Wrap { trim: true }),
            Rect::new(
                inner.x,
                about_y,
                inner.width,
                inner.y + inner.height - about_y,
            ),
        );
    }
}
