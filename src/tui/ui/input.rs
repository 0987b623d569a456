//! Status (the players, side to move, clocks, result), the message line, the input line and the
//! key footer.

use ratatui::Frame;
use ratatui::layout::{Position as Cursor, Rect};
use ratatui::style::{Color as Tui, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use shakmaty::{Color, Position as _};

use super::{Palette, bold, clock, fg};
use crate::tui::app::{App, GAME_KEYS, Tone, color_name};
use crate::tui::chrome::keys;

/// Draws the status box.
pub(crate) fn draw_status(frame: &mut Frame, area: Rect, app: &App, large_clocks: bool) {
    // The players, so the opponent (a level, another engine) is always in view, in the order
    // of the clocks: the one at the bottom of the board last.
    let [left, right] = app.sides_across().map(|c| app.shown_name(c));
    let room = usize::from(area.width.saturating_sub(4));
    let block = super::titled(&super::players(&left, &right, room), area);
    let inner = block.inner(area);
    let game = &app.game;
    let mut spans: Vec<Span> = Vec::new();
    match game.outcome() {
        Some(_) if game.is_aborted() => spans.push(Span::styled("Aborted: no result", bold())),
        Some(o) => spans.push(Span::styled(
            format!("{} {}", o.result_str(), o.announce()),
            bold(),
        )),
        None => {
            let turn = game.turn();
            // Browsing: which position is shown, in place of whose move it is (no room for both
            // beside the clocks).
            let what = match (app.view, app.shown_ply().checked_sub(1)) {
                (Some(_), None) => "At the start".to_string(),
                (Some(_), Some(i)) => {
                    let before = game.position_at(i);
                    let num = before.fullmoves().get();
                    let dots = before.turn().fold_wb(".", "...");
                    format!("After {num}{dots} {}", game.sans()[i])
                }
                (None, _) => format!("{} to move", color_name(turn)),
            };
            spans.push(Span::styled(what, bold()));
            // The clocks are here unless they are drawn large beside the board.
            if !large_clocks {
                for color in app.sides_across() {
                    let Some(r) = clock::reading(app, color) else {
                        break;
                    };
                    spans.push(Span::raw("  "));
                    spans.push(Span::styled(
                        format!(
                            "{}{} {}",
                            clock::mark(app, r.running),
                            color.fold_wb("W", "B"),
                            clock::format(r.left)
                        ),
                        clock::style(app, &r),
                    ));
                }
            }
            if app.watch.paused {
                spans.push(Span::styled("  PAUSED", bold()));
            }
        }
    }
    frame.render_widget(block, area);
    frame.render_widget(
        Paragraph::new(vec![Line::from(spans), captured_line(app, inner.width)]),
        inner,
    );
}

/// What each side has captured, in the order of the clocks, and who is ahead in material on
/// the board: `Captured ♙ | ♟♟♞  White +5`. A line too long is shortened by meaning, never by
/// dropping a side: a run of one piece becomes a count (`♟×5`), then the word `Captured` goes
/// and the lead stands beside the side ahead (`♙ | ♛♟×5 +5`); only then is each side's haul
/// cut, in its own half.
pub(crate) fn captured_line(app: &App, width: u16) -> Line<'static> {
    let taken = app.game.captured();
    let lead = app.game.material_lead();
    if taken.iter().flatten().all(|&n| n == 0) && lead == 0 {
        return Line::raw("");
    }
    let order = app.sides_across();
    let ascii = app.settings.ascii;
    let hauls = |counted: bool| order.map(|c| haul(&taken, c, ascii, counted));
    let ahead = match lead {
        0 => None,
        n if n > 0 => Some((Color::White, n)),
        n => Some((Color::Black, -n)),
    };
    let width = usize::from(width);
    let label = "Captured ";
    for counted in [false, true] {
        let [a, b] = hauls(counted);
        let words = ahead.map_or(String::new(), |(c, n)| format!("  {} +{n}", color_name(c)));
        let rest = format!("{a} | {b}{words}");
        if label.len() + rest.chars().count() <= width {
            return Line::from(vec![Span::styled(label, bold()), Span::raw(rest)]);
        }
    }
    let [a, b] = hauls(true);
    let lead_of = |c: Color| match ahead {
        Some((side, n)) if side == c => format!(" +{n}"),
        _ => String::new(),
    };
    let (a, b) = (
        format!("{a}{}", lead_of(order[0])),
        format!("{b}{}", lead_of(order[1])),
    );
    let half = width.saturating_sub(3) / 2;
    let cut = |s: String, room: usize| {
        if s.chars().count() <= room {
            s
        } else {
            s.chars().take(room.saturating_sub(1)).collect::<String>() + "…"
        }
    };
    if a.chars().count() + 3 + b.chars().count() <= width {
        Line::raw(format!("{a} | {b}"))
    } else {
        let b_room = width.saturating_sub(3 + half);
        Line::raw(format!("{} | {}", cut(a, half), cut(b, b_room)))
    }
}

/// The pieces `taker` has captured, the most valuable first (`♛♝♟♟`, `-` for none);
/// `counted`: a run of three or more as one figure and its count (`♟×5`).
fn haul(taken: &[[u32; 5]; 2], taker: Color, ascii: bool, counted: bool) -> String {
    // White takes Black's pieces and the other way round.
    let set: [&str; 5] = match (taker, ascii) {
        (Color::White, false) => ["♟", "♞", "♝", "♜", "♛"],
        (Color::Black, false) => ["♙", "♘", "♗", "♖", "♕"],
        (Color::White, true) => ["p", "n", "b", "r", "q"],
        (Color::Black, true) => ["P", "N", "B", "R", "Q"],
    };
    let times = if ascii { "*" } else { "×" };
    let counts = taken[crate::game::side(taker)];
    let text: String = (0..5)
        .rev()
        .map(|j| match counts[j] as usize {
            n if counted && n >= 3 => format!("{}{times}{n}", set[j]),
            n => set[j].repeat(n),
        })
        .collect();
    if text.is_empty() {
        "-".to_string()
    } else {
        text
    }
}

/// The message line as drawn: the message in its tone's style, or nothing.
pub(crate) fn message_line(message: Option<&(String, Tone)>, palette: Palette) -> Line<'static> {
    match message {
        Some((text, tone)) => Line::styled(text.clone(), tone_style(palette, *tone)),
        None => Line::default(),
    }
}

/// How a message of `tone` is drawn.
pub(crate) fn tone_style(palette: Palette, tone: Tone) -> Style {
    match tone {
        Tone::Error => fg(palette, Tui::Red).add_modifier(Modifier::BOLD),
        Tone::Info => fg(palette, Tui::Cyan),
    }
}

/// Draws the input line after `prompt` and places the cursor at its end (`cursor`).
pub(crate) fn draw_input(frame: &mut Frame, area: Rect, prompt: &str, input: &str, cursor: bool) {
    let text = format!("{prompt}{input}");
    let x = area.x + u16::try_from(text.chars().count()).unwrap_or(area.width);
    frame.render_widget(Paragraph::new(Line::styled(text, bold())), area);
    if cursor && x < area.x + area.width {
        frame.set_cursor_position(Cursor::new(x, area.y));
    }
}

/// The footer's keys in lines of `width`, each key whole (a key is never cut in two), at most
/// [`FOOTER_MAX_LINES`]; the first keys (help, quit) come first.
pub(crate) fn key_lines(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for label in text.split("  ").filter(|l| !l.is_empty()) {
        let needed = line.chars().count() + 2 + label.chars().count();
        if !line.is_empty() && needed > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str("  ");
        }
        line.push_str(label);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.truncate(FOOTER_MAX_LINES);
    lines
}

/// The most lines the footer takes.
pub(crate) const FOOTER_MAX_LINES: usize = 2;

/// Draws the footer's lines of keys (from [`key_lines`]) in `area`, in the terminal's own
/// colour: a fixed grey is unreadable on a dark theme or a light one.
pub(crate) fn draw_keys(frame: &mut Frame, area: Rect, keys: &[String]) {
    let lines: Vec<Line> = keys.iter().map(|l| Line::raw(l.clone())).collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// The footer: the keys that apply now, from the game's key table.
pub(crate) fn footer_text(app: &App) -> String {
    if app.offers.premove.is_some() {
        return "Esc cancel the premove  ? help  ^Q quit".to_string();
    }
    keys::footer(GAME_KEYS, |w| app.keys_apply(w))
}
