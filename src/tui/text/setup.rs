//! The new-game choices in plain text, as numbered questions: the rows numbered with the
//! choice on each; a row's number reads out its choices, numbered, and a choice's number takes
//! it (a clock may be typed, like 7+2); `start` starts the game as chosen.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::screen::Action;
use crate::tui::setup::{Field, SetupScreen};

/// What the plain text says of the new-game screen's words.
pub(crate) const HELP: &[&str] = &[
    "A new game: a row's number reads its choices out, then a choice's number takes it. On the clock's row a clock may be typed too, like 7+2.",
    "start: start the game as chosen (or resume the one chosen). choices: the rows again. q: back, or leave.",
];

/// The most choices a row offers (the levels, the clocks, the engines).
const MOST: usize = 64;

/// What was said of the new-game screen, and the row whose choices were read out.
#[derive(Debug, Default)]
pub(crate) struct Teller {
    /// The rows as last said.
    said: Vec<(&'static str, String)>,
    /// The row asked about: its place, and its choices.
    asking: Option<(usize, Vec<String>)>,
}

impl Teller {
    /// What to say of `screen` as it is now: every row the first time, a row that changed after.
    pub(crate) fn after(&mut self, screen: &SetupScreen) -> Vec<String> {
        let rows: Vec<(&'static str, String)> =
            screen.fields().into_iter().map(|f| screen.row(f)).collect();
        let mut lines = Vec::new();
        if self.said.is_empty() {
            lines.push(
                "A new game. Type a row's number to hear its choices, start to play.".to_string(),
            );
            lines.extend(numbered(&rows));
        } else if rows.len() != self.said.len() {
            lines.push("The rows are now:".to_string());
            lines.extend(numbered(&rows));
        } else {
            for (i, row) in rows.iter().enumerate() {
                if self.said.get(i) != Some(row) {
                    lines.push(format!("{}: {}.", row.0, row.1));
                }
            }
        }
        if let Some(note) = &screen.note
            && self.said.is_empty()
        {
            lines.push(note.clone());
        }
        self.said = rows;
        lines
    }

    /// The keys `line` stands for on `screen`, or what to say back; `None` when the line is
    /// not one of the screen's words.
    pub(crate) fn keys(
        &mut self,
        screen: &SetupScreen,
        line: &str,
    ) -> Option<Result<Vec<KeyEvent>, Vec<String>>> {
        let fields = screen.fields();
        match line {
            "start" | "play" => return Some(Ok(vec![plain(KeyCode::Enter)])),
            "choices" | "rows" => {
                self.asking = None;
                let rows: Vec<_> = fields.iter().map(|&f| screen.row(f)).collect();
                return Some(Err(numbered(&rows)));
            }
            _ => {}
        }
        if let Some((row, choices)) = self.asking.clone() {
            if let Ok(n) = line.parse::<usize>() {
                let Some(chosen) = n.checked_sub(1).filter(|&i| i < choices.len()) else {
                    return Some(Err(vec![format!(
                        "Choose from 1 to {}, or a row with its number after choices.",
                        choices.len()
                    )]));
                };
                self.asking = None;
                let mut keys = to_row(screen, row);
                keys.extend(std::iter::repeat_n(plain(KeyCode::Right), chosen));
                return Some(Ok(keys));
            }
            if fields.get(row) == Some(&Field::TimeControl)
                && crate::game::TimeControl::parse(line).is_ok()
            {
                self.asking = None;
                let mut keys = to_row(screen, row);
                keys.extend(line.chars().map(|c| plain(KeyCode::Char(c))));
                keys.push(plain(KeyCode::Enter));
                return Some(Ok(keys));
            }
            return None;
        }
        let n: usize = line.parse().ok()?;
        let Some(row) = n.checked_sub(1).filter(|&i| i < fields.len()) else {
            return Some(Err(vec![format!(
                "There are {} rows: type 1 to {}.",
                fields.len(),
                fields.len()
            )]));
        };
        let choices = choices(screen, row);
        let name = screen.row(fields[row]).0;
        let mut said = vec![format!(
            "{name}: {}. Type a number to choose{}.",
            choices
                .iter()
                .enumerate()
                .map(|(i, c)| match i {
                    0 => format!("1 {c} (as now)"),
                    i => format!("{} {c}", i + 1),
                })
                .collect::<Vec<_>>()
                .join(", "),
            if fields[row] == Field::TimeControl {
                ", or type a clock like 7+2"
            } else {
                ""
            }
        )];
        if choices.len() < 2 {
            said = vec![format!(
                "{name}: {} is the only choice.",
                screen.row(fields[row]).1
            )];
        } else {
            self.asking = Some((row, choices));
        }
        Some(Err(said))
    }
}

fn plain(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn numbered(rows: &[(&'static str, String)]) -> Vec<String> {
    rows.iter()
        .enumerate()
        .map(|(i, (name, value))| format!("{}. {name}: {value}.", i + 1))
        .collect()
}

/// The keys that choose row `row` from the one chosen now.
fn to_row(screen: &SetupScreen, row: usize) -> Vec<KeyEvent> {
    let mut keys = vec![plain(KeyCode::Up); screen.field];
    keys.extend(std::iter::repeat_n(plain(KeyCode::Down), row));
    keys
}

/// The choices of row `row`, in the order a step on takes them, the one chosen now first:
/// found by stepping a copy of the screen round until it comes back.
fn choices(screen: &SetupScreen, row: usize) -> Vec<String> {
    let mut copy = screen.clone();
    let now = Instant::now();
    for key in to_row(&copy, row) {
        copy.update(Action::Key(key), now);
    }
    let Some(&field) = copy.fields().get(row) else {
        return Vec::new();
    };
    let mut seen = vec![copy.row(field).1];
    for _ in 0..MOST {
        copy.update(Action::Key(plain(KeyCode::Right)), now);
        let value = copy.row(field).1;
        if seen.contains(&value) {
            break;
        }
        seen.push(value);
    }
    seen
}
