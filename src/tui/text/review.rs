//! The review in plain text: the list of games numbered (a number typed opens one), then the
//! game reviewed: what the engine found when it is done (the summary, each side's accuracy and
//! mistakes), and each move stepped to with its verdict, the reason, and the better move with
//! its line, all in words.

use crossterm::event::KeyCode;

use super::words;
use crate::tui::review::{ReviewScreen, View};

/// The most games of a list read out at once.
const LISTED: usize = 20;

/// What the words of the review screen in plain text do (besides its own: next, previous,
/// better, practise, list, back).
pub(crate) const HELP: &[&str] = &[
    "Reviewing: forward or f, backward or b: a move on or back. start, end. go 23: after White's 23rd move, go 23 black: after Black's.",
    "next, previous: the next or the last inaccuracy, mistake or blunder. better: play the engine's move instead on the board, again to go back.",
    "summary: the review's verdict again. The questions of the game work on the position shown: board, square f7, pieces, where queen.",
    "Choosing a game: its number; list: the games again. Reviewing one of several: list goes back to them. q: leave the review.",
];

/// What was said of the review screen.
#[derive(Debug, Default)]
pub(crate) struct Teller {
    view: Option<View>,
    /// The game reviewed (its moves), when one is.
    game: Option<usize>,
    ply: Option<usize>,
    better: bool,
    done: bool,
    message: String,
    /// The position shown was said before the engine reached it: its verdict is said when it
    /// comes.
    waiting: bool,
}

impl Teller {
    /// Forgets the last message said: the next is said even in the same words.
    pub(crate) fn forget_message(&mut self) {
        self.message = String::new();
    }

    /// What to say of `screen` as it is now.
    pub(crate) fn after(&mut self, screen: &ReviewScreen) -> Vec<String> {
        let mut lines = Vec::new();
        if self.view != Some(screen.view) {
            self.view = Some(screen.view);
            if screen.view == View::Pick {
                self.game = None;
                lines.extend(list(screen));
            }
        }
        if let Some(review) = screen
            .review
            .as_ref()
            .filter(|_| screen.view == View::Review)
        {
            let moves = review.game.moves().len();
            if self.game != Some(moves) || self.ply.is_none() {
                self.game = Some(moves);
                self.ply = Some(screen.ply);
                self.done = false;
                let names = &review.game.names;
                let count = match moves.div_ceil(2) {
                    1 => "1 move".to_string(),
                    n => format!("{n} moves"),
                };
                let filling = if review.is_complete() {
                    ""
                } else {
                    " The engine looks at every position; the verdicts fill in as it goes."
                };
                lines.push(format!(
                    "Reviewing {} against {}, {count}, searched by {}.{filling}",
                    names[0],
                    names[1],
                    review.searched_by()
                ));
            }
            if !self.done && (!screen.searching || review.is_complete()) {
                self.done = true;
                lines.extend(verdict(screen));
                lines.push(
                    "Type forward for the first move, next for the first mistake, help for more."
                        .into(),
                );
            }
            let waiting = unsearched(screen);
            let reached = self.waiting && !waiting;
            if self.ply != Some(screen.ply) || self.better != screen.show_better || reached {
                self.ply = Some(screen.ply);
                self.better = screen.show_better;
                self.waiting = waiting;
                lines.push(shown(screen));
            }
        }
        if screen.message != self.message {
            self.message.clone_from(&screen.message);
            if !screen.message.is_empty() {
                lines.push(words::sans_in(&screen.message));
            }
        }
        lines
    }
}

/// The games to choose from, numbered as on the screen.
pub(crate) fn list(screen: &ReviewScreen) -> Vec<String> {
    let n = screen.listed.len();
    let mut lines = vec![match n {
        0 => "No game to review.".to_string(),
        1 => "One game to review; type 1 to review it.".to_string(),
        n => format!("{n} games to review; type a game's number to review it."),
    }];
    // Newest first, as the screen lists them: the first ones are read out.
    for (i, listed) in screen.listed.iter().enumerate().take(LISTED) {
        lines.push(format!("{}. {}", i + 1, listed.line()));
    }
    if n > LISTED {
        lines.push(format!(
            "Games {} to {n} are older; type any number from 1 to {n}.",
            LISTED + 1
        ));
    }
    lines
}

/// The review's verdict: its summary (or how far it got), each side's accuracy and mistakes.
pub(crate) fn verdict(screen: &ReviewScreen) -> Vec<String> {
    let Some(review) = &screen.review else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let summary = crate::review::summary::summary(review);
    match &summary {
        Some(summary) => {
            // The turning point and the move missed there are said from the game's position.
            let game = &review.game;
            let positions: Vec<_> = (0..=game.moves().len())
                .map(|ply| game.position_at(ply))
                .collect();
            lines.push(words::sans_in_from(summary, &positions));
        }
        None => lines.push(format!(
            "The review stopped with {} of {} positions searched.",
            review.done(),
            review.game.moves().len() + 1
        )),
    }
    let counts = review.counts();
    let accuracy = review.accuracy();
    for (i, side) in ["White", "Black"].into_iter().enumerate() {
        let [inaccuracies, mistakes, blunders] = counts[i];
        // The summary gives the accuracy already.
        let acc = match accuracy[i] {
            Some(a) if summary.is_none() => format!(", accuracy {a:.0}%"),
            _ => String::new(),
        };
        lines.push(format!(
            "{side}: {}, {}, {}{acc}.",
            count(inaccuracies, "inaccuracy", "inaccuracies"),
            count(mistakes, "mistake", "mistakes"),
            count(blunders, "blunder", "blunders"),
        ));
    }
    lines
}

fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {many}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// Whether the move to the position shown waits for the engine: one of its two positions is
/// not searched yet (a book move and the start wait for nothing).
fn unsearched(screen: &ReviewScreen) -> bool {
    let (Some(review), Some(i)) = (&screen.review, screen.ply.checked_sub(1)) else {
        return false;
    };
    !review.is_book(i) && (review.eval(i).is_none() || review.eval(i + 1).is_none())
}

/// The position shown: the move that led to it with its verdict, the reason and the better
/// move with its line; or the engine's better move, when the board shows it.
pub(crate) fn shown(screen: &ReviewScreen) -> String {
    let Some(review) = &screen.review else {
        return String::new();
    };
    let Some(i) = screen.ply.checked_sub(1) else {
        return "The start position.".to_string();
    };
    let game = &review.game;
    let before = game.position_at(i);
    let who = crate::tui::app::color_name(review.mover(i));
    let number = shakmaty::Position::fullmoves(before);
    let played = words::moved(before, &game.moves()[i]);
    let mut text = format!("Move {number}, {who}: {played}.");
    if review.is_book(i) {
        text.push_str(" A book move.");
        return text;
    }
    let (Some(b), Some(a)) = (review.eval(i), review.eval(i + 1)) else {
        text.push_str(" Not searched yet.");
        return text;
    };
    let Some(note) = review.note(i) else {
        text.push_str(&format!(" Good; {}.", words::eval(a)));
        return text;
    };
    text.push_str(&format!(
        " {}, from {} to {}.",
        // The reason's line starts before the move (what it missed) or after it (what it
        // allowed): either way it is said as played there.
        words::sans_in_from(&note.what(), &[before, game.position_at(i + 1)]),
        words::eval(b),
        words::eval(a)
    ));
    if let Some(first) = note.line.first().filter(|_| note.better.is_some()) {
        let best = words::moved(before, first);
        if note.names_the_better_move() {
            // The reason said the move and its line: a screen reader should not read them twice.
            if screen.show_better {
                text.push_str(&format!(" Shown instead: {best}."));
            }
            return text;
        }
        let line = words::line(before, note.line.iter().take(6));
        if screen.show_better {
            text.push_str(&format!(" Shown instead: {best}. The line: {line}."));
        } else {
            text.push_str(&format!(" Better was {best}. The line: {line}."));
        }
    }
    text
}

/// The keys `line` stands for on the review screen (a numbered choice takes a line of them),
/// or what to say back; `None` when the line is not the screen's.
pub(crate) fn keys(screen: &ReviewScreen, line: &str) -> Option<Result<Vec<KeyCode>, Vec<String>>> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    let reviewing = screen.view == View::Review;
    Some(Ok(match (first, rest.as_slice()) {
        (n, []) if screen.view == View::Pick && n.parse::<usize>().is_ok() => {
            let n: usize = n.parse().ok()?;
            if n == 0 || n > screen.listed.len() {
                return Some(Err(vec![format!(
                    "There is no game {n}: type 1 to {}.",
                    screen.listed.len()
                )]));
            }
            // From wherever the choice is, up to the first, down to the one chosen.
            let mut keys = vec![KeyCode::Up; screen.selected];
            keys.extend(std::iter::repeat_n(KeyCode::Down, n - 1));
            keys.push(KeyCode::Enter);
            keys
        }
        ("forward" | "f" | "on", []) if reviewing && screen.ply >= screen.plies() => {
            return Some(Err(vec!["That is the last move: start, or go N.".into()]));
        }
        ("backward" | "b", []) if reviewing && screen.ply == 0 => {
            return Some(Err(vec![
                "This is the start position: forward, or go N.".into(),
            ]));
        }
        ("forward" | "f" | "on", []) if reviewing => vec![KeyCode::Right],
        ("backward" | "b", []) if reviewing => vec![KeyCode::Left],
        ("start", []) if reviewing => vec![KeyCode::Home],
        ("end", []) if reviewing => vec![KeyCode::End],
        ("go", [n, side @ ..]) if reviewing => {
            let n: u32 = n.parse().ok()?;
            let black = matches!(side, ["black" | "b"]);
            let ply = after_move(screen, n, black);
            let mut keys = vec![KeyCode::Home];
            keys.extend(std::iter::repeat_n(KeyCode::Right, ply));
            keys
        }
        _ => return None,
    }))
}

/// The ply after move `n` of White (or of Black, `black`), or the nearest the game has.
fn after_move(screen: &ReviewScreen, n: u32, black: bool) -> usize {
    use shakmaty::Position;
    let Some(review) = &screen.review else {
        return 0;
    };
    let plies = review.game.moves().len();
    (0..plies)
        .find(|&i| {
            let pos = review.game.position_at(i);
            pos.fullmoves().get() == n && pos.turn().is_black() == black
        })
        .map_or(plies, |i| i + 1)
}
