//! The friend screen: a box with the host's rows and the join rows, or, while it waits, the
//! code and the addresses to tell the friend.

use ratatui::Frame;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::chrome::{Below, Chrome};
use super::{centered, fit, input};
use crate::tui::chrome::keys;
use crate::tui::friend::{FRIEND_KEYS, FriendScreen, Row, Waiting};
use crate::tui::screen::Drawn;

/// Draws the screen.
pub fn draw(frame: &mut Frame, screen: &FriendScreen) -> Drawn {
    let chrome = Chrome {
        what: "Knightfall",
        quit: "q",
        below: Some(Below {
            message: input::message_line(screen.message.as_ref(), screen.palette),
            input: None,
            footer: keys::footer(FRIEND_KEYS, |w| screen.keys_apply(w)),
        }),
        help: screen
            .help
            .shown
            .then(|| keys::help_lines(FRIEND_KEYS, false, |w| screen.keys_apply(w))),
    };
    super::chrome::draw(frame, chrome, |frame, area| {
        let lines = match &screen.waiting {
            Some(waiting) => waiting_lines(waiting),
            None => form_lines(screen, usize::from(BOX_WIDTH.min(area.width) - 4)),
        };
        let width = BOX_WIDTH.min(area.width);
        let rect = centered(area, width, (lines.len() as u16 + 2).min(area.height));
        frame.render_widget(
            Paragraph::new(lines).wrap(Wrap { trim: false }).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" Play a friend "),
            ),
            rect,
        );
        Drawn::default()
    })
}

/// The box's widest.
const BOX_WIDTH: u16 = 68;

/// Width of a row's name.
const NAME_W: usize = 16;

fn dim(text: String) -> Line<'static> {
    Line::styled(text, Style::default().add_modifier(Modifier::DIM))
}

fn bold(text: &str) -> Line<'static> {
    Line::styled(
        text.to_string(),
        Style::default().add_modifier(Modifier::BOLD),
    )
}

/// The rows to fill in, under their headings, in `room` columns.
fn form_lines(screen: &FriendScreen, room: usize) -> Vec<Line<'static>> {
    let rows = screen.rows();
    let first = rows[0];
    let chosen = screen.chosen_row();
    let resumed = screen.resumed();
    let mut lines = vec![Line::raw("")];
    let first_host = rows.iter().copied().find(|r| r.hosts());
    for &row in &rows {
        if Some(row) == first_host {
            if row != first {
                lines.push(Line::raw(""));
            }
            lines.push(bold(" Host a game: your friend joins with the code shown"));
        }
        if row == Row::Code {
            lines.push(Line::raw(""));
            lines.push(bold(" Join a game: the code and address your friend sees"));
        }
        let on = row == chosen;
        let value = match row {
            Row::Game => match screen.chosen.and_then(|i| screen.games.get(i)) {
                Some(u) => format!(
                    "resume: {}",
                    super::setup::resume_about(&u.game, room.saturating_sub(NAME_W + 14))
                ),
                None => "a new game".to_string(),
            },
            Row::YouPlay => match screen.you {
                None => "random colour".to_string(),
                Some(c) => crate::tui::app::color_name(c).to_string(),
            },
            Row::Clock if screen.clock.is_empty() && !on => "none".to_string(),
            _ => screen.text(row).cloned().unwrap_or_default(),
        };
        let value = if on && row.typed() {
            format!("{value}_")
        } else if matches!(row, Row::Game | Row::YouPlay | Row::Clock) {
            format!("< {value} >")
        } else {
            value
        };
        let name = match row {
            Row::Game => "Game",
            Row::YouPlay => "You play",
            Row::Clock => "Clock (min+inc)",
            Row::Port => "Port",
            Row::Code => "Code",
            Row::Address => "Address",
        };
        // Marked as well as reversed: reverse video alone is lost on some terminals.
        let mark = match (on, screen.palette.ascii) {
            (false, _) => ' ',
            (true, false) => '▸',
            (true, true) => '>',
        };
        let style = if on {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        lines.push(Line::styled(
            fit(&format!(" {mark}{name:<NAME_W$} {value}"), room),
            style,
        ));
        if on {
            let hint = match row {
                Row::Game => "a game left unfinished goes on as it was",
                Row::YouPlay => "the colour you play; random draws it",
                Row::Clock => "←→ the usual clocks, or type one like 7+2; empty for none",
                Row::Port => "the port your friend reaches (forward it on a router)",
                Row::Code => "like 7-maple-anchor",
                Row::Address => "the host's address and port, like 192.168.1.20:7777",
            };
            lines.push(dim(fit(&format!("    {hint}"), room)));
        }
    }
    if let Some(seat) = resumed {
        let what = match seat.role {
            crate::net::channel::Role::Host => "You hosted it: Enter waits for your friend again.",
            crate::net::channel::Role::Guest => {
                "You joined it: the code and address the host shows, then Enter."
            }
        };
        lines.push(Line::raw(""));
        lines.push(dim(fit(&format!(" {what}"), room)));
    }
    lines.push(Line::raw(""));
    lines
}

/// What to tell the friend while the screen waits.
fn waiting_lines(waiting: &Waiting) -> Vec<Line<'static>> {
    let mut lines = vec![Line::raw("")];
    match waiting {
        Waiting::Host {
            invite: None,
            addresses: _,
        } => lines.push(Line::raw(" Opening the port...")),
        Waiting::Host {
            invite: Some((code, port)),
            addresses,
        } => {
            lines.push(bold(" Waiting for your friend. Tell them:"));
            lines.push(Line::raw(""));
            // The code is what the friend must get right: it stands out.
            lines.push(Line::from(vec![
                Span::raw("   Code     "),
                Span::styled(
                    code.to_string(),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
            ]));
            let mut first = true;
            for address in addresses {
                let label = if first { "Address" } else { "" };
                lines.push(Line::raw(format!("   {label:<8} {address}")));
                first = false;
            }
            let label = if first { "Address" } else { "" };
            lines.push(Line::raw(format!(
                "   {label:<8} 127.0.0.1:{port} (on this machine)"
            )));
            lines.push(Line::raw(""));
            lines.push(dim(
                " In Knightfall: Play a friend, then the code and an address".to_string(),
            ));
            lines.push(dim(" on the join rows. In a shell:".to_string()));
            let address = addresses
                .first()
                .map_or_else(|| format!("127.0.0.1:{port}"), ToString::to_string);
            lines.push(Line::raw(format!("   knightfall join {code} {address}")));
            lines.push(dim(
                " Across the internet: forward the port on your router, or use".to_string(),
            ));
            lines.push(dim(" an SSH tunnel (see the README).".to_string()));
        }
        Waiting::Join(address) => {
            lines.push(bold(" Joining your friend's game..."));
            lines.push(Line::raw(""));
            lines.push(Line::raw(format!("   Calling {address}")));
        }
    }
    lines.push(Line::raw(""));
    lines
}
