//! The library in plain text: the games, newest first, numbered (the first ones read out);
//! `find WORDS` narrows them as typing does on the screen, a number reviews that game.

use crossterm::event::KeyCode;

use crate::tui::library::LibraryScreen;

/// The most games read out at once.
const LISTED: usize = 20;

/// What the plain text adds to the library's own words.
pub(crate) const HELP: &[&str] = &[
    "The library: your games, newest first. A game's number reviews it (the review says help for its words).",
    "To narrow the list, find WORDS: only the games with those words (a player, an opening, a result, a year). all: every game again. list: the games again. q: leave.",
];

/// What was said of the library.
#[derive(Debug, Default)]
pub(crate) struct Teller {
    /// The words and how many games they let through, as last said.
    listed: Option<(String, usize)>,
    message: Option<String>,
}

impl Teller {
    /// Forgets the last message said: the next is said even in the same words.
    pub(crate) fn forget_message(&mut self) {
        self.message = None;
    }

    /// What to say of `screen` as it is now.
    pub(crate) fn after(&mut self, screen: &LibraryScreen) -> Vec<String> {
        let mut lines = Vec::new();
        let now = (screen.filter.clone(), screen.shown.len());
        if self.listed.as_ref() != Some(&now) {
            self.listed = Some(now);
            lines.extend(list(screen));
        }
        let message = screen.message.as_ref().map(|(text, _)| text);
        if message != self.message.as_ref() {
            self.message = message.cloned();
            lines.extend(message.cloned());
        }
        lines
    }
}

/// The games shown, numbered, the first ones read out.
pub(crate) fn list(screen: &LibraryScreen) -> Vec<String> {
    let n = screen.shown.len();
    let words = screen.filter.trim();
    let mut lines = vec![match (n, words.is_empty()) {
        (0, true) => format!("The library is empty. {}", screen.empty),
        (0, false) => format!("No game has the words {words}; all shows every game."),
        (n, true) => format!("The library: {n} games, newest first; a number reviews one."),
        (1, false) => format!("1 game with the words {words}; type 1 to review it."),
        (n, false) => format!("{n} games with the words {words}; a number reviews one."),
    }];
    for (i, &row) in screen.shown.iter().enumerate().take(LISTED) {
        let e = &screen.rows[row].entry;
        let opening = without_eco(&e.opening);
        let mut about: Vec<String> = [&e.result, &e.date, &e.time_control, &opening]
            .into_iter()
            .filter(|s| !s.is_empty() && *s != "?" && *s != "-")
            .cloned()
            .collect();
        about.push(match &e.review {
            Some(r) if r.complete() => match r.accuracy {
                [Some(w), Some(b)] => format!("reviewed, accuracy White {w:.0}%, Black {b:.0}%"),
                _ => "reviewed".to_string(),
            },
            Some(_) => "partly reviewed".to_string(),
            None => "not reviewed".to_string(),
        });
        lines.push(format!(
            "{}. {} against {}, {}.",
            i + 1,
            e.white,
            e.black,
            about.join(", ")
        ));
    }
    if n > LISTED {
        lines.push(format!(
            "Games {} to {n} are older: type any number up to {n}, or find words.",
            LISTED + 1
        ));
    }
    lines
}

/// An opening's name without its ECO code ("A00 Barnes Opening" is "Barnes Opening"): letters
/// and digits that say nothing aloud.
fn without_eco(opening: &str) -> String {
    match opening.split_once(' ') {
        Some((code, name))
            if code.len() == 3
                && code.starts_with(|c: char| ('A'..='E').contains(&c))
                && code[1..].chars().all(|c| c.is_ascii_digit()) =>
        {
            name.to_string()
        }
        _ => opening.to_string(),
    }
}

/// The keys `line` stands for on the library, or what to say back; `None` when the line is
/// not one of its words.
pub(crate) fn keys(
    screen: &LibraryScreen,
    line: &str,
) -> Option<Result<Vec<KeyCode>, Vec<String>>> {
    let n: usize = line.parse().ok()?;
    if n == 0 || n > screen.shown.len() {
        return Some(Err(vec![match screen.shown.len() {
            0 => "There is no game here to review.".to_string(),
            shown => format!("There is no game {n} here: type 1 to {shown}."),
        }]));
    }
    let mut keys = vec![KeyCode::Home];
    keys.extend(std::iter::repeat_n(KeyCode::Down, n - 1));
    keys.push(KeyCode::Enter);
    Some(Ok(keys))
}

/// The words `line` narrows the list to (`find WORDS`; `all`: none); `None` when it is not
/// such a line. The list is narrowed as the screen's typing does, without the typing mode, in
/// which q would be typed rather than leave.
pub(crate) fn narrowed(line: &str) -> Option<String> {
    match line {
        "all" => Some(String::new()),
        _ => line.strip_prefix("find ").map(|w| w.trim().to_string()),
    }
}
