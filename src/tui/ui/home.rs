//! The home screen: a box of what Knightfall does, each with its key and a line on it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::chrome::{Below, Chrome};
use super::{centered, fit, input};
use crate::tui::chrome::keys;
use crate::tui::home::{HOME_KEYS, HomeScreen, Item};
use crate::tui::screen::Drawn;

/// Draws the screen.
pub fn draw(frame: &mut Frame, home: &HomeScreen) -> Drawn {
    let chrome = Chrome {
        what: "Knightfall",
        quit: "q",
        below: Some(Below {
            message: input::message_line(home.message.as_ref(), home.palette),
            input: None,
            footer: keys::footer(HOME_KEYS, |w| home.keys_apply(w)),
        }),
        help: home
            .help
            .shown
            .then(|| keys::help_lines(HOME_KEYS, false, |w| home.keys_apply(w))),
    };
    super::chrome::draw(frame, chrome, |frame, area| {
        draw_box(frame, area, home);
        Drawn::default()
    })
}

/// The box's widest.
const BOX_WIDTH: u16 = 84;

fn draw_box(frame: &mut Frame, area: Rect, home: &HomeScreen) {
    let width = BOX_WIDTH.min(area.width);
    // Inside the borders, a space each side.
    let room = usize::from(width.saturating_sub(4));
    let ascii = home.palette.ascii;
    let mut lines = vec![Line::raw("")];
    let name_w = Item::ALL.iter().map(|i| i.name().len()).max().unwrap_or(8);
    for (i, item) in Item::ALL.iter().enumerate() {
        let chosen = i == home.choice;
        // Marked as well as reversed: reverse video alone is lost on some terminals.
        let mark = match (chosen, ascii) {
            (false, _) => ' ',
            (true, false) => '▸',
            (true, true) => '>',
        };
        let text = format!(
            "{mark}{}  {:name_w$}  {}",
            item.key().unwrap_or(' '),
            item.name(),
            item.about()
        );
        let style = if chosen {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        lines.push(Line::styled(format!(" {}", fit(&text, room)), style));
        if *item == Item::Play
            && let Some(u) = home.resume.first()
        {
            let width = room.saturating_sub(name_w + 7 + "unfinished: ".len());
            let about = format!("unfinished: {}", super::setup::resume_about(&u.game, width));
            // Under the items' words.
            let indent = " ".repeat(name_w + 7);
            lines.push(Line::styled(
                fit(&format!("{indent}{about}"), room + 1),
                Style::default().add_modifier(Modifier::DIM),
            ));
        }
    }
    lines.push(Line::raw(""));
    let rect = centered(area, width, lines.len() as u16 + 2);
    let title = format!(" Knightfall {} ", env!("CARGO_PKG_VERSION"));
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        rect,
    );
}
