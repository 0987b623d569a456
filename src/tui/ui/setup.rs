//! The new-game screen: resume or start, the colour, the opponent (Knightfall's level with its
//! measured rating, or a configured engine), the clock and the engine's time per move.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::centered;
use crate::tui::app::App;
use crate::tui::app::setup::{Field, YouPlay, opponent_label};

/// Draws the screen.
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let s = &app.settings;
    let mut lines = vec![Line::raw("")];
    for (i, field) in app.setup_fields().into_iter().enumerate() {
        let (name, value) = match field {
            Field::Resume => (
                "Game",
                match (&app.setup.resume, app.setup.resume_chosen) {
                    (Some(g), true) => format!("resume ({} plies)", g.ply()),
                    _ => "new game".to_string(),
                },
            ),
            Field::YouPlay => ("You play", YouPlay::of(s).label().to_string()),
            Field::Opponent => (
                if YouPlay::of(s) == YouPlay::Neither {
                    "Engine (both sides)"
                } else {
                    "Opponent"
                },
                if YouPlay::of(s) == YouPlay::Both {
                    "-".to_string()
                } else {
                    opponent_label(s)
                },
            ),
            Field::TimeControl => (
                "Time control (min+inc)",
                if s.tc.is_empty() {
                    "none"
                } else {
                    s.tc.as_str()
                }
                .to_string(),
            ),
            Field::ThinkTime => ("Engine time per move", format!("{} ms", s.think_ms)),
        };
        let style = if i == app.setup.field {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        let value: String = value.chars().take(VALUE_WIDTH).collect();
        lines.push(Line::styled(
            format!("  {name:<22} < {value:^VALUE_WIDTH$} >  "),
            style,
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::raw("  ↑↓ choose  ←→ change  Enter start"));
    lines.push(Line::raw(if app.in_game_setup() {
        "  ? help  Esc back to the game"
    } else {
        "  ? help  Esc quit"
    }));
    let rect = centered(area, 54, lines.len() as u16 + 2);
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" New game ")),
        rect,
    );
}

/// Characters shown of a choice.
const VALUE_WIDTH: usize = 20;
