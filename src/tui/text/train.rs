//! Training in plain text: the list numbered (a number typed starts that row), then what is
//! on the board: the task and every piece where it stands when it starts, each move as it is
//! played by either side, and the screen's verdicts (right, wrong and why, solved, mated),
//! with every move in words.

use crossterm::event::KeyCode;
use shakmaty::{Chess, Color, Position};

use super::{ask, words};
use crate::tui::train::{FIRST_ENDING, OnBoard, Train};

/// What the plain text adds to the training screen's own words (hint, undo, retry, next,
/// solution, filter, list).
pub(crate) const HELP: &[&str] = &[
    "On the list: a row's number starts it (your mistakes, a puzzle, or an ending's drill); easy, medium, hard: the endings' difficulty; or type an ending like KRvKP, or a FEN.",
    "On a board: type your move as e4, Nf3 or g1f3. hint: the piece to move, again for the move. undo, retry, next, solution (puzzles), list: back to the list. quit: leave.",
    "The questions of the game work on the board: board, pieces, square f7, where queen, legal g1.",
];

/// What was said of the training screen.
#[derive(Debug, Default)]
pub(crate) struct Teller {
    /// On the list (said once each time it comes back).
    listed: bool,
    /// The start on the board: what it is and its first position.
    start: Option<String>,
    /// The moves on the board said.
    ply: usize,
    message: Option<String>,
    notice: Option<String>,
    /// The endings' difficulty said.
    difficulty: Option<crate::train::Difficulty>,
}

impl Teller {
    /// Forgets the last message said: the next is said even in the same words.
    pub(crate) fn forget_message(&mut self) {
        self.message = None;
    }

    /// What to say of `train` as it is now.
    pub(crate) fn after(&mut self, train: &Train) -> Vec<String> {
        let mut lines = Vec::new();
        if train.notice != self.notice {
            self.notice.clone_from(&train.notice);
            lines.extend(train.notice.clone());
        }
        match train.board_game() {
            None => {
                self.start = None;
                if !self.listed {
                    self.listed = true;
                    lines.extend(list(train));
                } else if self.difficulty != Some(train.difficulty) {
                    lines.push(format!(
                        "The endings are now played at {} difficulty.",
                        train.difficulty.name()
                    ));
                }
                self.difficulty = Some(train.difficulty);
            }
            Some(game) => {
                self.listed = false;
                let start = format!(
                    "{} {}",
                    kind(train),
                    shakmaty::fen::Fen::from_position(
                        game.position_at(0),
                        shakmaty::EnPassantMode::Legal
                    )
                );
                if self.start.as_ref() != Some(&start) || game.ply() < self.ply {
                    let again = self.start.as_ref() == Some(&start);
                    self.start = Some(start);
                    self.ply = 0;
                    lines.extend(opening(train, again));
                }
                while self.ply < game.ply() {
                    let before = game.position_at(self.ply);
                    let mover = before.turn();
                    let who = if Some(mover) == train.player() {
                        "You play".to_string()
                    } else {
                        format!("{} plays", crate::tui::app::color_name(mover))
                    };
                    lines.push(format!(
                        "{who} {}.",
                        words::moved(before, &game.moves()[self.ply])
                    ));
                    self.ply += 1;
                }
            }
        }
        let message = train.message.as_ref().map(|(text, _)| text);
        if message != self.message.as_ref() {
            self.message = message.cloned();
            // A mistake's reason shows its line from the position after the move played.
            let starts: Vec<Chess> = match &train.board {
                OnBoard::Mistakes(p) => {
                    let before = p.current.pos();
                    let mut after = before.clone();
                    after.play_unchecked(p.current.played);
                    vec![before, after]
                }
                _ => Vec::new(),
            };
            let starts: Vec<&Chess> = starts.iter().collect();
            lines.extend(message.map(|text| words::sans_in_from(&without_reply(text), &starts)));
        }
        lines
    }
}

/// What kind of thing is on the board.
fn kind(train: &Train) -> &'static str {
    match train.board {
        OnBoard::Drill(_) => "drill",
        OnBoard::Mistakes(_) => "mistake",
        OnBoard::Puzzle(_) => "puzzle",
        OnBoard::List => "list",
    }
}

/// The list, numbered: the mistakes, the puzzles, the endings.
fn list(train: &Train) -> Vec<String> {
    let mut lines = vec![format!(
        "Training. Type a number to start it. The endings are played at {} difficulty (easy, medium or hard changes it).",
        train.difficulty.name()
    )];
    for (i, row) in train.rows().iter().enumerate() {
        let about = if row.about.is_empty() {
            String::new()
        } else {
            format!(", {}", row.about)
        };
        let name = match ending_words(&row.name) {
            Some(words) => format!("{} ({})", words::plain(&words), row.name),
            None => row.name.clone(),
        };
        lines.push(format!("{}. {name}: {}{about}.", i + 1, row.record));
    }
    lines
}

/// What a start on the board says first: what it is, and where every piece stands (or, on a
/// retry, that it starts again).
fn opening(train: &Train, again: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let Some(game) = train.board_game() else {
        return lines;
    };
    match &train.board {
        OnBoard::Puzzle(s) => {
            let themes: Vec<&str> = s.puzzle.motifs.iter().map(|m| m.words()).collect();
            let about = if themes.is_empty() {
                String::new()
            } else {
                format!(", {}", themes.join(", "))
            };
            lines.push(format!(
                "Puzzle {}, rated {}{about}.",
                s.puzzle.id, s.puzzle.rating
            ));
        }
        OnBoard::Drill(d) => {
            let name = d.drill.ending.to_string();
            let words = ending_words(&name).unwrap_or_else(|| name.clone());
            lines.push(format!("Drill: {words} ({name})."));
        }
        OnBoard::Mistakes(p) => lines.push(format!(
            "Your mistake {} of {}.",
            p.score.0 + 1,
            p.score.0 + 1 + p.queue.len()
        )),
        OnBoard::List => {}
    }
    if again {
        lines.push("Again from the start.".into());
    }
    let start = game.position_at(0);
    lines.extend(Color::ALL.iter().map(|&c| ask::pieces(start, c)));
    if let OnBoard::Puzzle(_) | OnBoard::Mistakes(_) = train.board {
        // The board as the task begins: after the opponent's move for a puzzle.
        if game.ply() == 0 {
            lines.push(format!(
                "{} to move.",
                crate::tui::app::color_name(start.turn())
            ));
        }
    }
    lines
}

/// The keys a word of the plain text stands for on the training screen; `None` when the word
/// is not one of them.
pub(crate) fn keys(train: &Train, line: &str) -> Option<Vec<KeyCode>> {
    if train.on_board() {
        return None;
    }
    let rows = FIRST_ENDING + train.endings.len();
    if let Ok(n) = line.parse::<usize>() {
        if n == 0 || n > rows {
            return Some(Vec::new());
        }
        let mut keys = vec![KeyCode::Up; train.choice];
        keys.extend(std::iter::repeat_n(KeyCode::Down, n - 1));
        keys.push(KeyCode::Enter);
        return Some(keys);
    }
    let wanted = crate::train::Difficulty::ALL
        .iter()
        .position(|d| d.name().eq_ignore_ascii_case(line))?;
    let now = crate::train::Difficulty::ALL
        .iter()
        .position(|&d| d == train.difficulty)
        .unwrap_or(0);
    Some(if wanted >= now {
        vec![KeyCode::Right; wanted - now]
    } else {
        vec![KeyCode::Left; now - wanted]
    })
}

/// An ending's name in words: "KQvK" is "king and queen against king".
fn ending_words(name: &str) -> Option<String> {
    let (a, b) = name.split_once('v')?;
    let side = |letters: &str| -> Option<String> {
        let names: Option<Vec<&str>> = letters
            .chars()
            .map(|c| shakmaty::Role::from_char(c.to_ascii_lowercase()).map(words::role))
            .collect();
        let names = names?;
        let (last, rest) = names.split_last()?;
        Some(if rest.is_empty() {
            (*last).to_string()
        } else {
            format!("{} and {last}", rest.join(", "))
        })
    };
    Some(format!("{} against {}", side(a)?, side(b)?))
}

/// A message without the reply it names ("Reply: king to c8.", "Answered by Rxd4."): the
/// reply is said as a move of its own.
fn without_reply(text: &str) -> String {
    let mut text = text.to_string();
    for (mark, lead) in [(" Reply: ", " "), ("Answered by ", "")] {
        if let Some(at) = text.find(mark) {
            let rest = &text[at + mark.len()..];
            let after = rest.find(". ").map_or("", |end| &rest[end + 2..]);
            let before = text[..at].to_string();
            text = if before.is_empty() || after.is_empty() {
                format!("{before}{after}")
            } else {
                format!("{before}{lead}{after}")
            };
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{ending_words, without_reply};

    #[test]
    fn endings_and_replies_are_said_once_in_words() {
        assert_eq!(
            ending_words("KQvK").as_deref(),
            Some("king and queen against king")
        );
        assert_eq!(
            ending_words("KBNvK").as_deref(),
            Some("king, bishop and knight against king")
        );
        assert_eq!(ending_words("Mistakes"), None);
        assert_eq!(
            without_reply("king to c6: the tables' best. Reply: king to c8. Go on."),
            "king to c6: the tables' best. Go on."
        );
        assert_eq!(
            without_reply("bishop takes b4: right. Reply: queen takes d1, check."),
            "bishop takes b4: right."
        );
        assert_eq!(
            without_reply("Answered by Rxd4. The solution: 39... Qd1+. retry: again."),
            "The solution: 39... Qd1+. retry: again."
        );
    }
}
