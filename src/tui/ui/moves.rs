//! The move list in SAN with move numbers; the shown move is marked and kept in view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use shakmaty::{Color, Position};

use crate::game::Game;
use crate::tui::app::App;

/// The game's moves as numbered pairs (`  3. Bb5      a6`), each move's text and style from
/// `cell(i)` padded to `width`, with the index of the line holding the move that led to
/// position `shown`.
pub(crate) fn move_rows(
    game: &Game,
    shown: usize,
    width: usize,
    cell: impl Fn(usize) -> (String, Style),
) -> (Vec<Line<'static>>, usize) {
    let plies = game.sans().len();
    let mut lines = Vec::new();
    let mut current = 0;
    let mut num = game.start_fullmove();
    let mut spans = Vec::new();
    for i in 0..plies {
        let white = game.position_at(i).turn() == Color::White;
        if white || i == 0 {
            spans.push(Span::raw(format!("{num:>3}. ")));
        }
        if !white && i == 0 {
            spans.push(Span::raw(format!("{:<width$} ", "...")));
        }
        let (text, style) = cell(i);
        spans.push(Span::styled(format!("{text:<width$}"), style));
        spans.push(Span::raw(" "));
        if shown == i + 1 {
            current = lines.len();
        }
        if !white || i + 1 == plies {
            lines.push(Line::from(std::mem::take(&mut spans)));
            num += 1;
        }
    }
    (lines, current)
}

/// The width of one column of moves: `123. Nbxd7+   Qxd7     `.
const COLUMN_WIDTH: u16 = 24;

/// The rows the list fills in one column (borders included), in steps of [`GROWTH`] rows so
/// that the panel grows now and then, not with every move. (Columns side by side are for a
/// list longer than the panel is tall.)
pub(crate) fn height_wanted(app: &App) -> u16 {
    let plies = app.game.ply();
    let black_first = usize::from(app.game.start_turn() == Color::Black);
    let lines = (plies + black_first).div_ceil(2) + usize::from(app.game.is_over());
    let rows = lines.div_ceil(GROWTH) * GROWTH;
    u16::try_from(rows.max(GROWTH) + 2).unwrap_or(u16::MAX)
}

/// The rows the list grows by at a time.
const GROWTH: usize = 4;

/// Draws the list.
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    // The opening of the position shown (the game so far, or up to the browsed move).
    let title = match crate::openings::classify(&app.game.keys()[..=app.shown_ply()]) {
        Some(o) => format!(" {} {} ", o.eco, o.name),
        None => " Moves ".to_string(),
    };
    let block = super::titled(&title, area);
    let inner = block.inner(area);
    let shown = app.shown_ply();
    let mark = Style::default().add_modifier(Modifier::REVERSED);
    let (mut lines, mut current_line) = move_rows(&app.game, shown, 8, |i| {
        let style = if shown == i + 1 {
            mark
        } else {
            Style::default()
        };
        (app.game.sans()[i].clone(), style)
    });
    if let Some(o) = app.game.outcome() {
        let aborted = if app.game.is_aborted() {
            "  aborted"
        } else {
            ""
        };
        lines.push(Line::raw(format!("     {}{aborted}", o.result_str())));
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
