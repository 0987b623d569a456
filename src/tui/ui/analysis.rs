//! The analysis panel, in plain words: the engine's depth, the score from White's view with an
//! evaluation bar, the positions it looked at and how fast, tablebase hits, where the move
//! comes from and the line it expects, in SAN.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Color as Tui;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{bold, fg};
use crate::engine::score::TB_WIN_BOUND;
use crate::engine::strength::MAX_LEVEL;
use crate::engine::{Reported, report};
use crate::player::Source;
use crate::tui::app::{App, color_name};

/// A score from White's view: `+0.35`, `#3` (White mates), `#-2` (Black mates), `TB 1-0` /
/// `TB 0-1` (a tablebase win for White / Black, without a known mate distance).
pub fn format_score(score_white: i32) -> String {
    match report(score_white) {
        Reported::Cp(cp) if cp >= TB_WIN_BOUND => "TB 1-0".to_string(),
        Reported::Cp(cp) if cp <= -TB_WIN_BOUND => "TB 0-1".to_string(),
        Reported::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Reported::Mate(n) => format!("#{n}"),
    }
}

/// Large counts shortened: 950, 12.3k, 4.56M.
pub(crate) fn human_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}

/// White's share of the evaluation bar, 0..=1.
pub(crate) fn white_share(score_white: i32) -> f64 {
    match report(score_white) {
        Reported::Mate(n) => {
            if n > 0 {
                1.0
            } else {
                0.0
            }
        }
        Reported::Cp(cp) => 1.0 / (1.0 + (-f64::from(cp) / 400.0 * std::f64::consts::LN_10).exp()),
    }
}

/// The evaluation bar: White's share of `width` filled, the rest empty.
pub(crate) fn eval_bar(score_white: i32, width: usize, ascii: bool) -> String {
    let w = ((white_share(score_white) * width as f64).round() as usize).min(width);
    let (full, empty) = if ascii { ("#", "-") } else { ("█", "░") };
    format!("{}{}", full.repeat(w), empty.repeat(width - w))
}

/// The first move of a line with its number (`1... c5`).
fn first_move(pv: &str) -> String {
    let mut words = pv.split_whitespace();
    match words.next() {
        Some(w) if w.ends_with('.') => words.next().map_or(w.to_string(), |m| format!("{w} {m}")),
        Some(w) => w.to_string(),
        None => String::new(),
    }
}

/// The engine's own move of a principal variation (`1... c5`), with the rest hidden.
fn shown_line(pv: &str) -> String {
    let first = first_move(pv);
    let hidden = if pv.split_whitespace().count() > first.split_whitespace().count() {
        " (^V shows the line)"
    } else {
        ""
    };
    format!("{first}{hidden}")
}

/// Draws the panel.
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let a = &app.search.analysis;
    let hidden = app.eval_hidden();
    // A move held back for a person's time is not shown before it is played.
    let held = app.move_held();
    // A weaker level's score is its own opinion, not the truth: the source says whose it is.
    let whose = match a.level {
        l if l == 0 || l >= MAX_LEVEL || hidden || a.source != Source::Search => String::new(),
        l => format!(", level {l}'s view"),
    };
    let title = match a.thinking {
        Some(c) => format!(" Analysis: thinking for {} ", color_name(c)),
        None => " Analysis ".to_string(),
    };
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    let mut lines: Vec<Line> = Vec::new();
    let score = match a.score_white {
        _ if hidden => "hidden".to_string(),
        Some(s) => format_score(s),
        None => "-".to_string(),
    };
    // Plain words for players: the search's own terms (selective depth, nodes, PV) belong to
    // the UCI output and the analysis board.
    lines.push(Line::from(vec![
        Span::styled("Score ", bold()),
        Span::raw(format!("{score:<8}")),
        Span::styled("Engine depth ", bold()),
        Span::raw(a.depth.to_string()),
    ]));
    let width = usize::from(inner.width);
    let bar = match a.score_white {
        _ if hidden => "^G shows the evaluation".to_string(),
        Some(s) => eval_bar(s, width, app.settings.ascii),
        None => String::new(),
    };
    lines.push(Line::styled(bar, fg(app.palette(), Tui::Gray)));
    let mut counts = vec![
        Span::styled("Positions ", bold()),
        Span::raw(format!("{} ", human_count(a.nodes))),
        Span::raw(format!("({}/s)", human_count(a.nps))),
    ];
    if a.tb_hits > 0 {
        counts.push(Span::styled("  Tables ", bold()));
        counts.push(Span::raw(human_count(a.tb_hits)));
    }
    lines.push(Line::from(counts));
    lines.push(Line::from(vec![
        Span::styled("From ", bold()),
        Span::raw(format!("{}{whose}", a.source.label())),
    ]));
    lines.push(Line::from(vec![
        Span::styled("Line ", bold()),
        Span::raw(super::numbers_kept_with_moves(&if held {
            "-".to_string()
        } else if app.line_hidden() {
            shown_line(&a.pv)
        } else {
            a.pv.clone()
        })),
    ]));
    frame.render_widget(block, area);
    let top = Paragraph::new(lines).wrap(Wrap { trim: true });
    let used = u16::try_from(top.line_count(inner.width)).unwrap_or(u16::MAX);
    frame.render_widget(top, inner);
    // With room to spare (a tall terminal), the search's earlier depths, newest first: how the
    // engine changed its mind. A long line goes on under itself, whole, rather than stop at
    // the panel's edge: fewer depths are shown, and the last one that fits only in part ends
    // with `…`.
    let room = inner.height.saturating_sub(used + 1);
    if room >= 2 && a.history.len() > 1 && !held {
        let mut left = usize::from(room - 1);
        let line_room = usize::from(inner.width).saturating_sub(HISTORY_INDENT);
        let mut lines = vec![Line::styled("Depth  Score    Line", bold())];
        for it in a.history.iter().rev() {
            if left == 0 {
                break;
            }
            let pv = if app.line_hidden() {
                first_move(&it.pv)
            } else {
                super::numbers_kept_with_moves(&it.pv)
            };
            let score = if hidden {
                "-".to_string()
            } else {
                format_score(it.score_white)
            };
            let mut pieces = wrap(&pv, line_room);
            if pieces.len() > left {
                let rest = pieces[left - 1..].join(" ");
                pieces.truncate(left - 1);
                pieces.push(super::fit(&rest, line_room));
            }
            left -= pieces.len();
            for (i, piece) in pieces.into_iter().enumerate() {
                lines.push(Line::raw(if i == 0 {
                    format!("{:>5}  {score:<7}  {piece}", it.depth)
                } else {
                    format!("{}{piece}", " ".repeat(HISTORY_INDENT))
                }));
            }
        }
        let below = Rect::new(inner.x, inner.y + used + 1, inner.width, room);
        frame.render_widget(Paragraph::new(lines), below);
    }
}

/// Where a line starts in a row of the search's history (`   20  +0.35    `).
const HISTORY_INDENT: usize = 16;

/// `text` in rows of at most `width` characters, broken at spaces (a word longer than a row
/// has one to itself).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !row.is_empty() && row.chars().count() + 1 + word.chars().count() > width {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row);
    }
    rows
}
