//! Drawing the analysis board: the board, the engine's lines, the book's moves, the tablebase's
//! verdicts and the line being looked at.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::analysis::{format_score, human_count};
use super::{board, bold, input};
use crate::tui::board::Board;

/// The keys in full, for `?`.
pub const KEYS_HELP: &str = "Type a move (e4, Nf3) and Enter, or click. ←→ back/forward, ↑↓ other moves tried, +/- lines, ^P main line, ^S save, ^F flip; 'lines N', 'save FILE', 'fen'.";

/// The keys, for the footer.
const KEYS: &str = "type or click moves  ←→ back/forward  ↑↓ other line  +/- lines  ^P main line  ^S save  ^F flip  q quit";
/// The keys when the board was opened from a game.
const KEYS_FROM_GAME: &str =
    "q back to the game  type or click moves  ←→ back/forward  ↑↓ other line  +/- lines  ^S save";

/// Draws the screen.
pub fn draw(frame: &mut Frame, b: &Board) {
    let area = frame.area();
    if super::too_small(frame, area, "the board") {
        b.app.board_geometry.set(None);
        return;
    }
    let rows = super::game_rows(area);
    let board_w = board::width_for(
        rows[0].width.saturating_sub(super::SIDE_MIN),
        rows[0].height,
    );
    let cols = Layout::horizontal([
        Constraint::Length(board_w),
        Constraint::Min(super::SIDE_MIN),
    ])
    .split(rows[0]);
    board::draw(frame, cols[0], &b.app);
    let extra = if b.tb_moves.is_empty() {
        b.book_moves.len().min(4)
    } else {
        b.tb_moves.len().min(6)
    };
    let side = Layout::vertical([
        Constraint::Length(b.lines_wanted as u16 + 2),
        Constraint::Length(extra.max(1) as u16 + 2),
        Constraint::Min(3),
    ])
    .split(cols[1]);
    draw_lines(frame, side[0], b);
    draw_sources(frame, side[1], b);
    draw_path(frame, side[2], b);
    input::draw_message(frame, rows[1], &b.app);
    input::draw_input(frame, rows[2], &b.app);
    frame.render_widget(
        Paragraph::new(Line::styled(
            if b.from_game { KEYS_FROM_GAME } else { KEYS },
            Style::default().add_modifier(Modifier::DIM),
        )),
        rows[3],
    );
}

fn draw_lines(frame: &mut Frame, area: Rect, b: &Board) {
    let depth = b.lines.iter().flatten().map(|l| l.depth).max().unwrap_or(0);
    let title = format!(
        " Engine: {} line{}, depth {depth}, {} nodes, {} nps ",
        b.lines_wanted,
        if b.lines_wanted == 1 { "" } else { "s" },
        human_count(b.nodes.0),
        human_count(b.nodes.1)
    );
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines: Vec<Line> = Vec::new();
    if b.lines.is_empty() {
        lines.push(Line::raw("The game is over in this position."));
    }
    for (k, line) in b.lines.iter().enumerate() {
        lines.push(match line {
            Some(l) => Line::from(vec![
                Span::styled(format!("{:>7} ", format_score(l.score_white)), bold()),
                Span::raw(l.san.clone()),
            ]),
            None => Line::raw(format!("{:>7} …", k + 1)),
        });
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_sources(frame: &mut Frame, area: Rect, b: &Board) {
    let (title, lines): (&str, Vec<Line>) = if !b.tb_moves.is_empty() {
        (
            " Tablebase ",
            b.tb_moves
                .iter()
                .map(|(san, verdict)| Line::raw(format!("{san:<8} {verdict}")))
                .collect(),
        )
    } else if !b.book_moves.is_empty() {
        (
            " Book ",
            b.book_moves
                .iter()
                .map(|(san, share)| Line::raw(format!("{san:<8} {share:>3}%")))
                .collect(),
        )
    } else {
        (" Book ", vec![Line::raw("No book moves here.")])
    };
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The line from the start to the position shown and on along the main moves, the position
/// shown marked, `(+n)` where other moves were tried.
fn draw_path(frame: &mut Frame, area: Rect, b: &Board) {
    let game = &b.app.game;
    let title = match crate::openings::classify(game.keys()) {
        Some(o) => format!(" {} {} ", o.eco, o.name),
        None => " Line ".to_string(),
    };
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut nodes = b.tree.path(b.at);
    let mut at = b.at;
    while let Some(&c) = b.tree.node(at).children.first() {
        nodes.push(c);
        at = c;
    }
    let mut spans: Vec<Span> = Vec::new();
    for &i in nodes.iter().skip(1) {
        let node = b.tree.node(i);
        let Some((parent, _)) = node.parent else {
            continue;
        };
        let before = &b.tree.node(parent).pos;
        let num = shakmaty::Position::fullmoves(before).get();
        if shakmaty::Position::turn(before).is_white() {
            spans.push(Span::raw(format!("{num}. ")));
        } else if i == nodes[1] {
            spans.push(Span::raw(format!("{num}... ")));
        }
        let style = if i == b.at {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        spans.push(Span::styled(node.san.clone(), style));
        let others = b.tree.node(parent).children.len() - 1;
        spans.push(Span::raw(if others > 0 {
            // Other moves were tried from the position before this one (↑↓ there).
            format!(" (+{others} other) ")
        } else {
            " ".to_string()
        }));
    }
    frame.render_widget(
        Paragraph::new(Line::from(spans)).wrap(Wrap { trim: true }),
        inner,
    );
}
