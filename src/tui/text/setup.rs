//! The new-game choices in plain text, as numbered questions: the rows numbered with the
//! choice on each; a row's number reads out its choices, numbered, and a choice's number takes
//! it (a clock may be typed, like 7+2); `start` starts the game as chosen.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};

use super::plain;

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
    /// The row asked about: its place, the choice on it then, and how many there are.
    asking: Option<(usize, usize, usize)>,
    /// The row a choice was just taken on: said even when the choice is the one it had.
    taken: Option<usize>,
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
            self.taken = None;
            lines.push(format!(
                "Now {} rows{}:",
                rows.len(),
                if rows.len() < self.said.len() {
                    " (the engine's time per move goes with a clock)"
                } else {
                    ""
                }
            ));
            lines.extend(numbered(&rows));
        } else {
            let taken = self.taken.take();
            for (i, row) in rows.iter().enumerate() {
                if self.said.get(i) != Some(row) || taken == Some(i) {
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
        if let Some((row, current, count)) = self.asking {
            if let Ok(n) = line.parse::<usize>() {
                let Some(chosen) = n.checked_sub(1).filter(|&i| i < count) else {
                    return Some(Err(vec![format!(
                        "Choose from 1 to {count}, or type choices for the rows."
                    )]));
                };
                self.asking = None;
                self.taken = Some(row);
                let mut keys = to_row(screen, row);
                keys.extend(std::iter::repeat_n(
                    plain(KeyCode::Right),
                    (chosen + count - current) % count,
                ));
                return Some(Ok(keys));
            }
            if fields.get(row) == Some(&Field::TimeControl)
                && crate::game::TimeControl::parse(line).is_ok()
            {
                self.asking = None;
                self.taken = Some(row);
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
        let (choices, current) = choices(screen, row);
        let name = screen.row(fields[row]).0;
        let listed: Vec<String> = choices
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let now = if i == current { " (as now)" } else { "" };
                format!("{} {c}{now}", i + 1)
            })
            .collect();
        let typed = if fields[row] == Field::TimeControl {
            ", or type a clock like 7+2"
        } else {
            ""
        };
        let said = if choices.len() < 2 {
            vec![format!(
                "{name}: {} is the only choice.",
                screen.row(fields[row]).1
            )]
        } else {
            self.asking = Some((row, current, choices.len()));
            vec![format!(
                "{name}: {}. Type a number to choose{typed}.",
                listed.join(", ")
            )]
        };
        Some(Err(said))
    }
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

/// The choices of row `row` in the screen's order, and which of them is chosen now: found by
/// stepping a copy of the screen once round the row.
fn choices(screen: &SetupScreen, row: usize) -> (Vec<String>, usize) {
    let mut copy = screen.clone();
    let now = Instant::now();
    for key in to_row(&copy, row) {
        copy.update(Action::Key(key), now);
    }
    let Some(&field) = copy.fields().get(row) else {
        return (Vec::new(), 0);
    };
    let (current, n) = copy.place(field);
    let mut said = vec![String::new(); n];
    for k in 0..n.min(MOST) {
        said[(current + k) % n] = copy.row(field).1;
        copy.update(Action::Key(plain(KeyCode::Right)), now);
    }
    (said, current)
}
