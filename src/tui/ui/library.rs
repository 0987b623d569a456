//! Drawing the library screen: the games in columns under a heading, the chosen one marked,
//! the review of every game's progress above them, and the words typed on the input line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tui, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::chrome::{Below, Chrome};
use super::{fg, fit, input, titled};
use crate::store::library::Entry;
use crate::store::library::reviews::{Origin, Status};
use crate::tui::chrome::keys;
use crate::tui::job::BulkReport;
use crate::tui::library::{LIBRARY_KEYS, LibraryScreen};
use crate::tui::screen::{Drawn, Palette};

/// Draws the screen.
pub fn draw(frame: &mut Frame, screen: &LibraryScreen) -> Drawn {
    let input =
        (screen.typing || !screen.filter.is_empty()).then_some(("Filter: ", &*screen.filter));
    let chrome = Chrome {
        what: "the library",
        quit: if screen.from_game { "Esc" } else { "q" },
        below: Some(Below {
            message: input::message_line(screen.message.as_ref(), screen.palette),
            input,
            footer: keys::footer(LIBRARY_KEYS, |w| screen.keys_apply(w)),
        }),
        help: screen
            .help
            .shown
            .then(|| keys::help_lines(LIBRARY_KEYS, false, |w| screen.keys_apply(w))),
    };
    super::chrome::draw(frame, chrome, |frame, area| {
        draw_list(frame, area, screen);
        Drawn::default()
    })
}

/// The columns' widths: date, White, Black, result, opening, clock, review.
struct Columns {
    name: usize,
    opening: usize,
    clock: usize,
    review: usize,
}

const DATE: usize = 10;
const RESULT: usize = 7;

impl Columns {
    /// Widths for `width` cells, the names as wide as the widest needs up to a quarter of
    /// what the columns of text share.
    fn for_width(width: usize, screen: &LibraryScreen) -> Columns {
        let longest = |f: &dyn Fn(&Entry) -> usize, most: usize| {
            screen
                .rows
                .iter()
                .map(|r| f(&r.entry))
                .max()
                .unwrap_or(0)
                .min(most)
        };
        let clock = longest(&|e| e.time_control.chars().count(), 9).max(5);
        let wide = width >= 110;
        let review = longest(&|e| e.review.map_or(0, |s| review_words(s, wide).len()), 23).max(6);
        // The mark, and a space between columns.
        let fixed = 1 + DATE + RESULT + clock + review + 6;
        let shared = width.saturating_sub(fixed);
        let name = longest(
            &|e| e.white.chars().count().max(e.black.chars().count()),
            24,
        )
        .min((shared / 4).max(6))
        .max(5);
        Columns {
            name,
            opening: shared.saturating_sub(2 * name),
            clock,
            review,
        }
    }
}

/// A review's status in a few words, the file's origin shorter where room is short.
fn review_words(status: Status, wide: bool) -> String {
    let words = status.words();
    match (status.origin, wide) {
        (Origin::File, false) => words.replacen("from the file ", "file ", 1),
        _ => words,
    }
}

/// `text` on one line of `width`, or on two, broken after a comma, when it is longer.
fn two_lines(text: &str, width: usize) -> Vec<String> {
    if text.chars().count() <= width {
        return vec![text.to_string()];
    }
    let head: String = text.chars().take(width).collect();
    match head.rfind(", ") {
        Some(at) => vec![
            text[..=at].to_string(),
            fit(text[at + 1..].trim_start(), width),
        ],
        None => vec![fit(text, width)],
    }
}

/// `text` in exactly `width` cells: cut to fit, or padded.
fn cell(text: &str, width: usize) -> String {
    let text = fit(text, width);
    format!("{text:width$}")
}

fn draw_list(frame: &mut Frame, area: Rect, screen: &LibraryScreen) {
    let palette = screen.palette;
    let title = if screen.shown.len() == screen.rows.len() {
        format!("Library: {} games", screen.rows.len())
    } else {
        format!(
            "Library: {} of {} games match",
            screen.shown.len(),
            screen.rows.len()
        )
    };
    let block = titled(&title, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let mut lines = Vec::new();
    if let Some(bulk) = &screen.bulk {
        for line in two_lines(&bulk_words(bulk), width) {
            lines.push(Line::styled(line, fg(palette, Tui::Cyan)));
        }
    }
    if screen.rows.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::raw(screen.empty.clone()));
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
        return;
    }
    let cols = Columns::for_width(width, screen);
    let heading = format!(
        " {} {} {} {} {} {} {}",
        cell("Date", DATE),
        cell("White", cols.name),
        cell("Black", cols.name),
        cell("Result", RESULT),
        cell("Opening", cols.opening),
        cell("Clock", cols.clock),
        cell("Review", cols.review),
    );
    lines.push(Line::styled(
        fit(&heading, width),
        Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
    ));
    let height = usize::from(inner.height).saturating_sub(lines.len()).max(1);
    screen.page.set(height);
    // The list scrolls only when the choice would leave it.
    let mut top = screen.top.get().min(screen.shown.len().saturating_sub(1));
    if screen.selected < top {
        top = screen.selected;
    } else if screen.selected >= top + height {
        top = screen.selected + 1 - height;
    }
    screen.top.set(top);
    if screen.shown.is_empty() {
        lines.push(Line::styled(
            "No game matches every word typed.",
            fg(palette, Tui::Yellow),
        ));
    }
    let wide = width >= 110;
    for (place, &i) in screen.shown.iter().enumerate().skip(top).take(height) {
        let entry = &screen.rows[i].entry;
        lines.push(row_line(
            entry,
            &cols,
            place == screen.selected,
            wide,
            palette,
        ));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// One game's line.
fn row_line(
    entry: &Entry,
    cols: &Columns,
    chosen: bool,
    wide: bool,
    palette: Palette,
) -> Line<'static> {
    // Marked as well as reversed: reverse video alone is lost on some terminals.
    let mark = match (chosen, palette.ascii) {
        (false, _) => " ",
        (true, false) => "▸",
        (true, true) => ">",
    };
    let or_dash = |s: &str| {
        if s.is_empty() {
            "-".to_string()
        } else {
            s.to_string()
        }
    };
    let text = format!(
        "{mark}{} {} {} {} {} {} ",
        cell(&entry.date, DATE),
        cell(&entry.white, cols.name),
        cell(&entry.black, cols.name),
        cell(&entry.result, RESULT),
        cell(&or_dash(&entry.opening), cols.opening),
        cell(&or_dash(&entry.time_control), cols.clock),
    );
    let (review, colour) = match entry.review {
        None => ("unreviewed".to_string(), Tui::DarkGray),
        Some(status) if status.complete() => (review_words(status, wide), Tui::Green),
        Some(status) => (review_words(status, wide), Tui::Yellow),
    };
    let review = Span::styled(cell(&review, cols.review), fg(palette, colour));
    let line = Line::from(vec![Span::raw(text), review]);
    if chosen {
        line.style(Style::default().add_modifier(Modifier::REVERSED))
    } else {
        line
    }
}

/// The review of every game's progress in a line.
fn bulk_words(bulk: &BulkReport) -> String {
    let p = &bulk.progress;
    if let Some(why) = &bulk.error {
        return format!("The review of every game failed: {why}");
    }
    if bulk.running && bulk.paused {
        return format!(
            "Review of every game paused while a game is played: {}",
            p.words()
        );
    }
    if bulk.running {
        return format!("Reviewing every game: {} (A stops)", p.words());
    }
    if p.stopped {
        return format!(
            "Review of every game stopped: {} done, every position found kept (A goes on)",
            p.games_words()
        );
    }
    if p.games == 0 {
        return "Every game is reviewed.".to_string();
    }
    let mut text = match p.failed {
        0 => format!("Every game reviewed: {} games", p.games_done),
        n => format!(
            "Every game reviewed: {} games; the search failed in {n} positions, their games left",
            p.games_done
        ),
    };
    if p.elsewhere > 0 {
        text.push_str(&format!(
            "; {} left to another Knightfall reviewing them",
            p.elsewhere
        ));
    }
    text + "."
}

#[cfg(test)]
mod tests {
    use super::two_lines;

    #[test]
    fn a_long_progress_breaks_after_a_comma_and_keeps_its_end() {
        let text = "Reviewing every game: 1 of 29 games, 36 of 2,276 positions, about 25 min left (A stops)";
        assert_eq!(two_lines(text, 100), vec![text.to_string()]);
        assert_eq!(
            two_lines(text, 78),
            vec![
                "Reviewing every game: 1 of 29 games, 36 of 2,276 positions,".to_string(),
                "about 25 min left (A stops)".to_string()
            ]
        );
    }
}
