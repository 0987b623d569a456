//! The move list in SAN with move numbers; the shown move is marked and kept in view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use shakmaty::Color;

use crate::tui::app::App;

/// The width of one column of moves: `123. Nbxd7+   Qxd7     `.
const COLUMN_WIDTH: u16 = 24;

/// Draws the list.
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    // The opening of the position shown (the game so far, or up to the browsed move).
    let title =
        match crate::openings::classify((0..=app.shown_ply()).map(|ply| app.game.position_at(ply)))
        {
            Some(o) => format!(" {} {} ", o.eco, o.name),
            None => " Moves ".to_string(),
        };
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    let sans = app.game.sans();
    let shown = app.shown_ply();
    let mut lines: Vec<Line> = Vec::new();
    let mut current_line = 0;
    let mut num = app.game.start_fullmove();
    let mut i = 0;
    let mark = Style::default().add_modifier(Modifier::REVERSED);
    if app.game.start_turn() == Color::Black && !sans.is_empty() {
        let style = if shown == 1 { mark } else { Style::default() };
        if shown == 1 {
            current_line = 0;
        }
        lines.push(Line::from(vec![
            Span::raw(format!("{num:>3}. ...     ")),
            Span::styled(sans[0].clone(), style),
        ]));
        num += 1;
        i = 1;
    }
    while i < sans.len() {
        let mut spans = vec![Span::raw(format!("{num:>3}. "))];
        for (j, san) in sans.iter().enumerate().skip(i).take(2) {
            let style = if shown == j + 1 {
                current_line = lines.len();
                mark
            } else {
                Style::default()
            };
            spans.push(Span::styled(format!("{san:<8}"), style));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
        num += 1;
        i += 2;
    }
    if let Some(o) = app.game.outcome() {
        lines.push(Line::raw(format!("     {}", o.result_str())));
        if app.view.is_none() {
            current_line = lines.len() - 1;
        }
    }
    frame.render_widget(block, area);
    // A wide panel holds the list in columns, filled top to bottom, left to right.
    let height = usize::from(inner.height).max(1);
    let columns = usize::from(inner.width / COLUMN_WIDTH).max(1);
    let page = height * columns;
    // The first line shown keeps the current move in view: one column scrolls line by line;
    // several drop whole columns from the left until its line is in the last one.
    let first = if lines.len() <= page {
        0
    } else if columns == 1 {
        (current_line + 1).saturating_sub(height)
    } else {
        ((current_line / height + 1).saturating_sub(columns)) * height
    };
    for (c, chunk) in lines[first.min(lines.len())..]
        .chunks(height)
        .take(columns)
        .enumerate()
    {
        let x = inner.x + u16::try_from(c).unwrap_or(0) * COLUMN_WIDTH;
        let width = if c + 1 == columns {
            inner.x + inner.width - x
        } else {
            COLUMN_WIDTH
        };
        let rect = Rect::new(x, inner.y, width, inner.height);
        frame.render_widget(Paragraph::new(chunk.to_vec()), rect);
    }
}
