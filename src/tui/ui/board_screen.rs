//! Drawing the analysis board: the board, the engine's lines, the book's moves, the tablebase's
//! verdicts and the line being looked at.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use shakmaty::Position as _;

use super::analysis::{format_score, human_count};
use super::board::BoardView;
use super::chrome::{Below, Chrome};
use super::{board, bold, input as ui_input};
use crate::tui::board::{BOARD_KEYS, Board, Progress};
use crate::tui::chrome::keys;
use crate::tui::input;
use crate::tui::screen::Drawn;

/// Draws the screen; returns where the board went.
pub fn draw(frame: &mut Frame, b: &Board) -> Drawn {
    let help = b.help.shown.then(|| {
        let mut lines = vec![
            "Type a move (e4, Nf3, e2e4) and Enter, or click a piece and its square.".to_string(),
            "Going back and playing another move starts a side line; every line is kept."
                .to_string(),
        ];
        lines.extend(keys::help_lines(BOARD_KEYS, true, |w| b.keys_apply(w)));
        lines
    });
    let frame_chrome = Chrome {
        what: "the board",
        quit: "q",
        below: Some(Below {
            message: ui_input::message_line(b.message.as_ref(), b.palette),
            input: Some(("move> ", &b.input)),
            footer: keys::footer(BOARD_KEYS, |w| b.keys_apply(w)),
        }),
        help,
    };
    super::chrome::draw(frame, frame_chrome, |frame, area| {
        draw_board(frame, area, b)
    })
}

/// The board's own part: the board, and beside it the engine's lines, the book's moves or
/// the tablebase's verdicts, and the line shown.
fn draw_board(frame: &mut Frame, area: Rect, b: &Board) -> Drawn {
    let mut drawn = Drawn::default();
    let board_w = board::width_for(area.width.saturating_sub(super::SIDE_MIN), area.height);
    let cols = Layout::horizontal([
        Constraint::Length(board_w),
        Constraint::Min(super::SIDE_MIN),
    ])
    .split(area);
    let mut view = BoardView::new(b.pos(), b.last_move(), b.flipped, b.palette);
    view.selected = input::selected(&b.input, b.pos());
    view.targets = view
        .selected
        .map(|from| input::targets(b.pos(), from))
        .unwrap_or_default();
    view.promotion = input::promotion_choices(&b.game, &b.input);
    drawn.board = board::draw(frame, cols[0], &view);
    let extra = if b.tb_moves.is_empty() {
        b.book_moves.len().min(4)
    } else {
        b.tb_moves.len().min(6)
    };
    let side = Layout::vertical([
        Constraint::Length(b.lines_wanted as u16 + 5),
        Constraint::Length(extra.max(1) as u16 + 2),
        Constraint::Min(3),
    ])
    .split(cols[1]);
    draw_lines(frame, side[0], b);
    draw_sources(frame, side[1], b);
    draw_path(frame, side[2], b);
    drawn
}

fn draw_lines(frame: &mut Frame, area: Rect, b: &Board) {
    let depth = b.lines.iter().flatten().map(|l| l.depth).max().unwrap_or(0);
    let title = format!(
        " {}: {} line{}, depth {depth}, {} nodes, {} nps ",
        b.engine
            .as_ref()
            .map_or("Engine", |spec| spec.name.as_str()),
        b.lines_wanted,
        if b.lines_wanted == 1 { "" } else { "s" },
        human_count(b.nodes.0),
        human_count(b.nodes.1)
    );
    let block = super::titled(title.as_ref(), area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // Whose move it is, and the best line's evaluation as a bar.
    let mut lines: Vec<Line> = vec![Line::styled(
        format!("{} to move", crate::tui::app::color_name(b.pos().turn())),
        bold(),
    )];
    let best = b.lines.iter().flatten().next().map(|l| l.score_white);
    lines.push(Line::styled(
        best.map_or_else(String::new, |s| {
            super::analysis::eval_bar(s, usize::from(inner.width), b.palette.ascii)
        }),
        super::fg(b.palette, ratatui::style::Color::Gray),
    ));
    match b.progress {
        Progress::Over => lines.push(Line::raw("The game is over in this position.")),
        Progress::Running => lines.push(Line::styled(
            format!("analysing to depth {} or {} s", b.cap.0, b.cap.1 / 1000),
            Style::default().add_modifier(Modifier::DIM),
        )),
        Progress::Stopped(d) => lines.push(Line::styled(
            format!("stopped at depth {d} - Space goes deeper"),
            Style::default().add_modifier(Modifier::DIM),
        )),
        Progress::Failed => lines.push(Line::raw("The analysis failed; Space tries again.")),
    }
    for (k, line) in b.lines.iter().enumerate() {
        lines.push(match line {
            Some(l) => Line::from(vec![
                Span::styled(format!("{:>7} ", format_score(l.score_white)), bold()),
                Span::raw(super::fit(
                    &l.san,
                    usize::from(inner.width).saturating_sub(8),
                )),
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
    let block = super::titled(title, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The line from the start to the position shown and on along the main moves, the position
/// shown marked, `(+n)` where other moves were tried.
fn draw_path(frame: &mut Frame, area: Rect, b: &Board) {
    let game = &b.game;
    let title = match crate::openings::classify(game.keys()) {
        Some(o) => format!(" {} {} ", o.eco, o.name),
        None => " Line ".to_string(),
    };
    let block = super::titled(title.as_ref(), area);
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
