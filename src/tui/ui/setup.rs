//! The new-game screen: who plays each side, the time control, the engine's think time and
//! playing level.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::centered;
use crate::tui::app::App;

/// A level with its measured rating: `3 ~670`, `10 full`.
pub fn level_label(level: u8) -> String {
    use crate::engine::strength::{LEVEL_ELO, MAX_LEVEL};
    if level >= MAX_LEVEL {
        format!("{MAX_LEVEL} full")
    } else {
        format!("{level} ~{}", LEVEL_ELO[level.max(1) as usize - 1])
    }
}

/// Draws the screen.
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let s = &app.settings;
    let tc = if s.tc.is_empty() {
        "none"
    } else {
        s.tc.as_str()
    };
    let fields = [
        ("White", s.white.name().to_string()),
        ("Black", s.black.name().to_string()),
        ("Time control (min+inc)", tc.to_string()),
        ("Engine time per move", format!("{} ms", s.think_ms)),
        ("Engine level", level_label(s.level)),
    ];
    let mut lines = vec![Line::raw("")];
    for (i, (name, value)) in fields.iter().enumerate() {
        let style = if i == app.setup_field {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        lines.push(Line::styled(
            format!("  {name:<24} < {value:^8} >  "),
            style,
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::raw("  ↑↓ choose  ←→ change  Enter start"));
    lines.push(Line::raw("  ? help  Esc quit"));
    let rect = centered(area, 46, lines.len() as u16 + 2);
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" New game ")),
        rect,
    );
}
