//! The help overlay: every key and command of the screen in front, from its key table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::centered;
use crate::tui::app::{App, GAME_KEYS};
use crate::tui::chrome::keys;

/// The game's help: how to enter moves, then the keys that work now.
pub(crate) fn game_lines(app: &App) -> Vec<String> {
    let mut lines = vec![
        "Moves: type UCI (e2e4, e7e8q, e1g1) or SAN (Nf3, O-O, exd5), Enter".to_string(),
        "Type a square (e2) or click a piece to see its moves; click or drag to a target"
            .to_string(),
    ];
    lines.extend(keys::help_lines(GAME_KEYS, true, |w| app.keys_apply(w)));
    lines
}

/// `line` broken at spaces into pieces of at most `width` characters, the later ones indented
/// by two: a long help line wraps instead of being cut mid-word.
fn wrapped(line: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let room = if out.is_empty() { width } else { width - 2 };
        let len = current.chars().count();
        if len > 0 && len + 1 + word.chars().count() > room {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() || (out.is_empty() && line.starts_with(' ')) {
            current.push(' ');
        }
        current.push_str(word);
    }
    out.push(current);
    out.iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.clone()
            } else {
                format!("  {}", l.trim_start())
            }
        })
        .collect()
}

/// Draws the help overlay with `lines`.
pub fn draw(frame: &mut Frame, area: Rect, lines: &[String]) {
    let title = " Help: the keys that work now (any key closes) ";
    let room = usize::from(area.width.saturating_sub(2)).max(10);
    let lines: Vec<String> = lines
        .iter()
        .flat_map(|l| {
            if l.chars().count() > room {
                wrapped(l, room)
            } else {
                vec![l.clone()]
            }
        })
        .collect();
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let w = widest.max(title.chars().count()) as u16 + 2;
    let rect = centered(area, w, lines.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    let lines: Vec<Line> = lines.iter().map(|l| Line::raw(l.clone())).collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        rect,
    );
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    #[test]
    fn a_long_line_wraps_at_words_with_a_hanging_indent() {
        let lines = wrapped("click or drag to a target square", 16);
        assert_eq!(lines, ["click or drag to", "  a target", "  square"]);
        assert!(lines.iter().all(|l| l.chars().count() <= 16));
    }
}
