//! Drawing the review screen and its list of games.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Tui, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use shakmaty::Color;

use super::board;
use super::board::BoardView;
use super::chrome::{Below, Chrome};
use super::moves::move_rows;
use crate::pgn::numbered_san;
use crate::review::Review;
use crate::review::judge::{Judgement, winning_chances};
use crate::tui::chrome::keys;
use crate::tui::review::{REVIEW_KEYS, ReviewScreen as Screen, View};
use crate::tui::screen::{Drawn, Palette};

/// Draws the screen; returns where the board and the graph went.
pub fn draw(frame: &mut Frame, screen: &Screen) -> Drawn {
    let message = if !screen.message.is_empty() {
        Line::styled(screen.message.clone(), Style::default().fg(Tui::Yellow))
    } else {
        note_line(screen)
    };
    let frame_chrome = Chrome {
        what: "the review",
        quit: "q",
        below: Some(Below {
            message,
            input: None,
            footer: keys::footer(REVIEW_KEYS, |w| screen.keys_apply(w)),
        }),
        help: screen
            .help
            .shown
            .then(|| keys::help_lines(REVIEW_KEYS, false, |w| screen.keys_apply(w))),
    };
    let drawn = super::chrome::draw(frame, frame_chrome, |frame, area| {
        let mut drawn = Drawn::default();
        match screen.view {
            View::Pick => draw_list(frame, area, screen),
            View::Review => draw_review(frame, area, screen, &mut drawn),
        }
        drawn
    });
    if screen.palette.no_color {
        // NO_COLOR: the verdicts keep their symbols, the move shown stays reversed (the help
        // overlay has no colours to lose).
        for cell in frame.buffer_mut().content.iter_mut() {
            cell.fg = Tui::Reset;
            cell.bg = Tui::Reset;
        }
    }
    drawn
}

fn draw_list(frame: &mut Frame, area: Rect, screen: &Screen) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" Review which game? ({}) ", screen.listed.len()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = usize::from(inner.height).max(1);
    let first = (screen.selected + 1).saturating_sub(height);
    let lines: Vec<Line> = screen
        .listed
        .iter()
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(i, l)| {
            // Numbered by place in the list, as `review --game` counts.
            let text = super::fit(
                &format!("{:>4}  {}", i + 1, l.line()),
                usize::from(inner.width),
            );
            if i == screen.selected {
                Line::styled(text, Style::default().add_modifier(Modifier::REVERSED))
            } else {
                Line::raw(text)
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_review(frame: &mut Frame, area: Rect, screen: &Screen, drawn: &mut Drawn) {
    let (Some(review), Some((pos, last))) = (&screen.review, screen.board()) else {
        return;
    };
    let board_w = board::width_for(area.width.saturating_sub(super::SIDE_MIN), area.height);
    let cols = Layout::horizontal([
        Constraint::Length(board_w),
        Constraint::Min(super::SIDE_MIN),
    ])
    .split(area);
    let view = BoardView::new(&pos, last, screen.flipped, screen.palette);
    drawn.board = board::draw(frame, cols[0], &view);
    let side_h = cols[1].height;
    let graph_h = (side_h / 3).max(6);
    let side = Layout::vertical([
        Constraint::Length(5),
        Constraint::Length(graph_h),
        Constraint::Min(3),
    ])
    .split(cols[1]);
    draw_summary(frame, side[0], screen, review);
    drawn.graph = draw_graph(frame, side[1], screen, review);
    draw_moves(frame, side[2], screen, review);
}

fn draw_summary(frame: &mut Frame, area: Rect, screen: &Screen, review: &Review) {
    let (palette, failed, searching) = (screen.palette, screen.failed, screen.searching);
    let names = &review.game.names;
    let block = super::titled(&format!("{} - {}", names[0], names[1]), area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let accuracy = review.accuracy();
    let counts = review.counts();
    let mut lines = Vec::new();
    for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let acc = accuracy[side].map_or("  -  ".to_string(), |a| format!("{a:>4.1}%"));
        let c = counts[side];
        lines.push(Line::from(vec![
            Span::styled(
                format!(
                    "{:<6}",
                    if color == Color::White {
                        "White"
                    } else {
                        "Black"
                    }
                ),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("{acc}  ")),
            Span::styled(
                format!("{} ?! ", c[0]),
                verdict_style(Judgement::Inaccuracy, palette),
            ),
            Span::styled(
                format!("{} ? ", c[1]),
                verdict_style(Judgement::Mistake, palette),
            ),
            Span::styled(
                format!("{} ??", c[2]),
                verdict_style(Judgement::Blunder, palette),
            ),
        ]));
    }
    let total = review.evals.len();
    let done = review.done();
    if failed > 0 {
        // The search failed there: those positions stay unjudged (the message said why).
        lines.push(Line::styled(
            format!("{failed} of {total} positions could not be searched"),
            Style::default().fg(Tui::Red),
        ));
    } else if done < total {
        // Progress: position k of N, as a bar.
        let width = usize::from(inner.width).saturating_sub(24).max(4);
        let filled = done * width / total.max(1);
        lines.push(Line::raw(format!(
            "Analysing {done:>3}/{total:<3} {}{}",
            "█".repeat(filled),
            "░".repeat(width - filled)
        )));
    } else if searching {
        // Every position has a first result; the moves the first look calls blunders and those
        // near a verdict's threshold are being searched again, and their verdicts may change.
        lines.push(Line::raw("Checking blunders and close calls…"));
    } else {
        // Another engine's name takes the word's place: the line has 35 columns at 80.
        let by = review
            .engine
            .as_ref()
            .map_or("accuracy;".to_string(), |name| format!("by {name},"));
        lines.push(Line::raw(match review.movetime_ms {
            // A review that came with its file: no search made it.
            0 => "accuracy: the file's evaluations".to_string(),
            ms => format!("{by} {ms} ms a position"),
        }));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The style of a verdict: sky blue, orange and vermilion (told apart without red and green),
/// as xterm-256 indices where the terminal has no 24-bit colour.
fn verdict_style(j: Judgement, palette: Palette) -> Style {
    let (rgb, indexed) = match j {
        Judgement::Inaccuracy => ((86, 180, 233), 74),
        Judgement::Mistake => ((230, 159, 0), 214),
        Judgement::Blunder => ((213, 94, 0), 166),
    };
    let color = if palette.truecolor {
        Tui::Rgb(rgb.0, rgb.1, rgb.2)
    } else {
        Tui::Indexed(indexed)
    };
    Style::default().fg(color)
}

/// The evaluation graph: White's winning chances per position (above the middle line White is
/// better), the shown move marked, flagged moves in their verdict's colour.
/// Draws the evaluation graph; returns its inner area (for clicks).
fn draw_graph(
    frame: &mut Frame,
    area: Rect,
    screen: &Screen,
    review: &Review,
) -> Option<(u16, u16, u16, u16)> {
    let eval_text = review
        .eval(screen.ply)
        .map_or("…".to_string(), |e| e.display());
    let block = super::titled(&format!("Evaluation {eval_text}"), area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let area = Some((inner.x, inner.y, inner.width, inner.height));
    let (w, h) = (usize::from(inner.width), usize::from(inner.height));
    if w < 2 || h < 2 {
        return area;
    }
    let plies = review.evals.len() - 1;
    let column_of = |ply: usize| (ply * (w - 1)).checked_div(plies).unwrap_or(0);
    // Half-cell resolution: 2h steps from top to bottom; the middle is White = Black.
    let steps = 2 * h;
    let mid = steps / 2;
    let buf = frame.buffer_mut();
    let mut values: Vec<Option<(f64, Option<Judgement>)>> = vec![None; w];
    for ply in 0..=plies {
        if let Some(e) = review.eval(ply) {
            let verdict = ply
                .checked_sub(1)
                .and_then(|i| review.judgement(i))
                .map(|j| j.0);
            let col = column_of(ply);
            let keep = values[col].and_then(|v| v.1);
            values[col] = Some((winning_chances(e), verdict.max(keep)));
        }
    }
    let shown = column_of(screen.ply);
    for (col, value) in values.into_iter().enumerate() {
        let x = inner.x + col as u16;
        let marked = col == shown;
        let Some((chances, verdict)) = value else {
            if marked {
                for row in 0..h {
                    buf[(x, inner.y + row as u16)]
                        .set_symbol("│")
                        .set_style(Style::default().fg(Tui::Yellow));
                }
            }
            continue;
        };
        // The bar's end in half cells from the top.
        let end = (mid as f64 - chances * mid as f64)
            .round()
            .clamp(0.0, steps as f64) as usize;
        let (lo, hi) = if end < mid { (end, mid) } else { (mid, end) };
        let style = match verdict {
            _ if marked => Style::default().fg(Tui::Yellow),
            Some(j) => verdict_style(j, screen.palette),
            None if chances >= 0.0 => Style::default().fg(Tui::Gray),
            None => Style::default().fg(Tui::DarkGray),
        };
        for row in 0..h {
            let (top, bottom) = (2 * row, 2 * row + 1);
            let filled = |half: usize| half >= lo && half < hi;
            let symbol = match (filled(top), filled(bottom)) {
                (true, true) => "█",
                (true, false) => "▀",
                (false, true) => "▄",
                (false, false) if marked => "│",
                (false, false) if 2 * row + 1 == mid || 2 * row == mid => "·",
                (false, false) => continue,
            };
            buf[(x, inner.y + row as u16)]
                .set_symbol(symbol)
                .set_style(style);
        }
    }
    area
}

fn draw_moves(frame: &mut Frame, area: Rect, screen: &Screen, review: &Review) {
    let title = match review.game.opening() {
        Some(o) => format!(" {} {} ", o.eco, o.name),
        None => " Moves ".to_string(),
    };
    let block = super::titled(&title, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let sans = review.game.sans();
    let mark = Style::default().add_modifier(Modifier::REVERSED);
    let (lines, current) = move_rows(&review.game, screen.ply, 9, |i| {
        let verdict = review.judgement(i).map(|j| j.0);
        // Book moves are theory, not the player's: dimmed, as the other screens dim what is
        // secondary.
        let mut style = if review.is_book(i) {
            Style::default().add_modifier(Modifier::DIM)
        } else {
            verdict.map_or(Style::default(), |j| verdict_style(j, screen.palette))
        };
        if screen.ply == i + 1 {
            style = style.patch(mark);
        }
        (
            format!("{}{}", sans[i], verdict.map_or("", |j| j.symbol())),
            style,
        )
    });
    let height = usize::from(inner.height);
    let scroll = (current + 1).saturating_sub(height);
    frame.render_widget(
        Paragraph::new(lines).scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0)),
        inner,
    );
}

/// The message line: the shown move's verdict, the better move and its line.
fn note_line(screen: &Screen) -> Line<'static> {
    let Some(review) = &screen.review else {
        return Line::raw("");
    };
    let Some(i) = screen.ply.checked_sub(1) else {
        return Line::raw(match crate::review::summary::summary(review) {
            Some(summary) => format!("{summary} → steps through the game."),
            None => "The start position. → steps through the game.".to_string(),
        });
    };
    let san = &review.game.sans()[i];
    let before = review.eval(i).map(|e| e.display());
    let after = review.eval(i + 1).map(|e| e.display());
    let evals = match (before, after) {
        (Some(b), Some(a)) => format!(" ({b} → {a})"),
        _ => " (analysing…)".to_string(),
    };
    if review.is_book(i) {
        return Line::raw(format!(
            "{san}{evals} A book move: opening theory, not judged."
        ));
    }
    let Some(note) = review.note(i) else {
        return Line::raw(format!("{san}{evals}"));
    };
    let mut text = format!("{san}{}{evals} {}.", note.judgement.symbol(), note.what());
    if let Some(better) = &note.better {
        let line = numbered_san(review.game.position_at(i), note.line.iter().take(6));
        // The reason names the better move already: said twice, a long line would not fit.
        if note.names_the_better_move() {
            text.push_str(if screen.show_better {
                " The board shows it (b: back)."
            } else {
                " (b shows it)"
            });
        } else if screen.show_better {
            text.push_str(&format!(
                " The board shows {better} instead (b: back). Line: {line}"
            ));
        } else {
            text.push_str(&format!(" {better} was best (b shows it): {line}"));
        }
    }
    Line::styled(text, verdict_style(note.judgement, screen.palette))
}
