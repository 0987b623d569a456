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
        "Type a square (e2) or click a piece for its moves; click or drag to a target".to_string(),
    ];
    lines.extend(keys::help_lines(GAME_KEYS, true, |w| app.keys_apply(w)));
    lines
}

/// `line` broken at spaces into pieces of at most `width` characters, the later ones indented
/// by `indent`: a long help line wraps instead of being cut mid-word.
fn wrapped(line: &str, width: usize, indent: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let room = if out.is_empty() {
            width
        } else {
            width - indent
        };
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
                format!("{}{}", " ".repeat(indent), l.trim_start())
            }
        })
        .collect()
}

/// Draws the help overlay with `lines`.
pub fn draw(frame: &mut Frame, area: Rect, lines: &[String]) {
    let title = " Help: the keys that work now (any key closes) ";
    let room = usize::from(area.width.saturating_sub(2)).max(10);
    // A key row's text goes on under its own column; other lines by two.
    let column = lines
        .iter()
        .find_map(|l| l.find(keys::WHAT_IT_DOES))
        .filter(|&c| c + 20 <= room)
        .unwrap_or(2);
    let mut lines: Vec<String> = lines
        .iter()
        .flat_map(|l| {
            if l.chars().count() <= room {
                vec![l.clone()]
            } else if column > 2 && l.chars().skip(column - 2).take(2).all(|c| c == ' ') {
                wrapped(l, room, column)
            } else {
                wrapped(l, room, 2)
            }
        })
        .collect();
    // What does not fit is said, not cut off unseen.
    let fits = usize::from(area.height.saturating_sub(2)).max(1);
    if lines.len() > fits {
        let more = lines.len() - (fits - 1);
        lines.truncate(fits - 1);
        lines.push(format!(
            "… {more} more line{}: a taller terminal shows them (docs/KEYS.md has all)",
            if more == 1 { "" } else { "s" }
        ));
    }
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
    use super::{draw, wrapped};

    #[test]
    fn rows_that_do_not_fit_are_counted_not_dropped_unseen() {
        use ratatui::Terminal;
        use ratatui::backend::TestBackend;
        let lines: Vec<String> = (1..=30).map(|i| format!("row {i}")).collect();
        let mut terminal = Terminal::new(TestBackend::new(80, 12)).unwrap();
        terminal.draw(|f| draw(f, f.area(), &lines)).unwrap();
        let screen: String = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect();
        assert!(screen.contains("row 9"), "{screen}");
        assert!(!screen.contains("row 10 "), "{screen}");
        assert!(screen.contains("… 21 more lines"), "{screen}");
    }

    #[test]
    fn a_long_line_wraps_at_words_with_a_hanging_indent() {
        let lines = wrapped("click or drag to a target square", 16, 2);
        assert_eq!(lines, ["click or drag to", "  a target", "  square"]);
        assert!(lines.iter().all(|l| l.chars().count() <= 16));
    }
}
