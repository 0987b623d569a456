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
    // The players, so the opponent (a level, another engine) is always in view.
    let [white, black] = &app.game.names;
    let block = super::titled(&format!("{white} vs {black}"), area);
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
                for color in Color::ALL {
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

/// What each side has captured, and who is ahead in material on the board: `Captured ♟♟♞ | ♙
/// White +5`.
pub(crate) fn captured_line(app: &App, width: u16) -> Line<'static> {
    let taken = app.game.captured();
    let glyphs = |side: usize| -> String {
        // White takes Black's pieces and the other way round.
        let set: [&str; 5] = match (side, app.settings.ascii) {
            (0, false) => ["♟", "♞", "♝", "♜", "♛"],
            (1, false) => ["♙", "♘", "♗", "♖", "♕"],
            (0, true) => ["p", "n", "b", "r", "q"],
            _ => ["P", "N", "B", "R", "Q"],
        };
        (0..5)
            .rev()
            .map(|j| set[j].repeat(taken[side][j] as usize))
            .collect()
    };
    let lead = app.game.material_lead();
    let ahead = match lead {
        0 => String::new(),
        n if n > 0 => format!("  White +{n}"),
        n => format!("  Black +{}", -n),
    };
    let (white, black) = (glyphs(0), glyphs(1));
    if white.is_empty() && black.is_empty() && lead == 0 {
        return Line::raw("");
    }
    let none = |s: String| if s.is_empty() { "-".to_string() } else { s };
    let (white, black) = (none(white), none(black));
    // Who is ahead goes first when the line is short of room; nothing is cut mid-word.
    let mut rest = format!("{white} | {black}{ahead}");
    let room = usize::from(width).saturating_sub("Captured ".len());
    if rest.chars().count() > room {
        rest = super::fit(&format!("{}  {white} | {black}", ahead.trim()), room);
    }
    Line::from(vec![Span::styled("Captured ", bold()), Span::raw(rest)])
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
