//! What changed in the game after an event, said once as lines of plain words: each move as
//! it was played ("Knightfall plays knight from g8 to f6."), the engine starting to think,
//! whose move it is with their time, the game's messages (a refused move and why, a question,
//! the result), and the clock at one minute, thirty and ten seconds.

use std::time::Duration;

use shakmaty::Position;

use super::words;
use crate::tui::app::App;

/// The times left at which the player to move is told.
const MARKS: [(u64, &str); 3] = [
    (60, "One minute left."),
    (30, "Thirty seconds left."),
    (10, "Ten seconds left."),
];

/// What was said so far, so nothing is said twice.
#[derive(Debug, Default)]
pub(crate) struct Narrator {
    /// The plies said.
    ply: usize,
    /// The last message said.
    message: Option<String>,
    /// The ply whose thinking was said.
    thinking: Option<usize>,
    /// The ply whose turn was said.
    turn: Option<usize>,
    /// The ply the clock marks count for, and how many of them were said (or had passed
    /// when the turn began).
    marks: Option<(usize, usize)>,
    /// The chat with a friend as last said.
    chat: Vec<(Option<String>, String)>,
    /// The game said: when it started and its players (a new game is said from its start).
    game: (Option<String>, [String; 2]),
}

impl Narrator {
    /// A narrator that starts from the game as `app` has it (its moves so far said in a line).
    pub(crate) fn new(app: &App) -> (Narrator, Vec<String>) {
        let mut lines = Vec::new();
        let game = &app.game;
        let clock = match game.clocks() {
            Some(c) => format!(", {} on the clock", c.tc),
            None => String::new(),
        };
        let name = |c| app.shown_name(c);
        let (white, black) = (shakmaty::Color::White, shakmaty::Color::Black);
        let who = match (
            app.settings.side(white).is_human(),
            app.settings.side(black).is_human(),
        ) {
            (true, false) => format!("you play White against {}", name(black)),
            (false, true) => format!("you play Black against {}", name(white)),
            _ => format!("White {} against Black {}", name(white), name(black)),
        };
        lines.push(format!(
            "Knightfall in plain text: {who}{clock}. Type help for what you can ask."
        ));
        if game.ply() > 0 {
            lines.push(format!(
                "The game goes on at move {}, {} to play.",
                game.position().fullmoves(),
                crate::tui::app::color_name(game.turn())
            ));
        }
        // The game's welcome ("You play White. Type a move...") is the opening line's.
        let welcome = app
            .line
            .message
            .as_ref()
            .map(|(text, _)| text.clone())
            .filter(|text| text.starts_with("You play "));
        let narrator = Narrator {
            ply: game.ply(),
            game: Narrator::which(app),
            message: welcome,
            chat: app
                .remote
                .as_ref()
                .map(|r| r.chat.clone())
                .unwrap_or_default(),
            ..Narrator::default()
        };
        (narrator, lines)
    }

    fn which(app: &App) -> (Option<String>, [String; 2]) {
        (app.game.started.clone(), app.game.names.clone())
    }

    /// Whether `app` plays the game this narrator has said, not a new one. A game gets its
    /// start time at its first move: until then, the players tell.
    pub(crate) fn same_game(&mut self, app: &App) -> bool {
        let (started, names) = Narrator::which(app);
        let same = names == self.game.1
            && match (&self.game.0, &started) {
                (Some(was), Some(is)) => was == is,
                (Some(_), None) => false,
                (None, _) => true,
            };
        if same {
            self.game.0 = started;
        }
        same
    }

    /// The game is in front again (another screen was over it): whose move it is is said
    /// again.
    pub(crate) fn again(&mut self) {
        self.turn = None;
        self.thinking = None;
    }

    /// Forgets the last message said: the next is said even in the same words.
    pub(crate) fn forget_message(&mut self) {
        self.message = None;
    }

    /// What to say of the game as `app` has it now.
    pub(crate) fn after(&mut self, app: &App) -> Vec<String> {
        let mut lines = Vec::new();
        let game = &app.game;
        if game.ply() < self.ply {
            lines.push(format!(
                "Taken back: move {}, {} to play.",
                game.position().fullmoves(),
                crate::tui::app::color_name(game.turn())
            ));
            self.ply = game.ply();
            self.turn = None;
        }
        while self.ply < game.ply() {
            let before = game.position_at(self.ply);
            let mover = before.turn();
            let who = said_name(app, mover);
            let verb = if who == "You" { "play" } else { "plays" };
            lines.push(format!(
                "{who} {verb} {}.",
                words::moved(before, &game.moves()[self.ply])
            ));
            self.ply += 1;
        }
        if let Some(remote) = &app.remote {
            for (who, text) in new_lines(&self.chat, &remote.chat) {
                lines.push(match who {
                    Some(name) => format!("{name} says: {text}"),
                    None => format!("You say: {text}"),
                });
            }
            self.chat.clone_from(&remote.chat);
        }
        if let Some((text, _)) = &app.line.message
            && self.message.as_ref() != Some(text)
        {
            lines.push(plain(text));
            self.message = Some(text.clone());
        }
        if game.is_over() {
            return lines;
        }
        let turn = game.turn();
        let ply = game.ply();
        // A person's side searching is a hint being worked out: its own message says so.
        // Said to a person waiting for the engine, not between two engines watched.
        let person_waits = app.settings.side(!turn).is_human();
        if app.search.analysis.thinking == Some(turn)
            && !app.settings.side(turn).is_human()
            && person_waits
            && self.thinking != Some(ply)
        {
            self.thinking = Some(ply);
            lines.push(format!("{} thinks...", said_name(app, turn)));
        }
        let person = app.settings.side(turn).is_human();
        let left = game
            .clocks()
            .map(|c| c.left(turn).saturating_sub(app.thinking_time()));
        if person && self.turn != Some(ply) {
            self.turn = Some(ply);
            lines.push(match left {
                Some(left) => format!("Your move, {} left.", words::clock(left)),
                None => "Your move.".to_string(),
            });
        }
        if person && let Some(left) = left {
            let passed = |left: Duration| MARKS.iter().filter(|(s, _)| left <= secs(*s)).count();
            // Marks already passed when the turn began are not said: "Your move" gave the time.
            let (_, said) = self
                .marks
                .filter(|(at, _)| *at == ply)
                .unwrap_or((ply, passed(left)));
            let now = passed(left);
            for (_, mark) in MARKS.iter().take(now).skip(said) {
                lines.push((*mark).to_string());
            }
            self.marks = Some((ply, said.max(now)));
        }
        lines
    }
}

/// A side's name as said on every move: Knightfall at any level is "Knightfall" (the opening
/// line gives its version and level), a person "You" or their name, an engine its name.
fn said_name(app: &App, color: shakmaty::Color) -> String {
    use crate::store::settings::Side;
    match app.settings.side(color) {
        // Knightfall against itself: the sides by colour.
        Side::Engine if *app.settings.side(!color) == Side::Engine => {
            crate::tui::app::color_name(color).to_string()
        }
        Side::Engine => "Knightfall".to_string(),
        _ => app.shown_name(color),
    }
}

/// The lines of `now` after those of `before` (the chat keeps only its last lines, so the
/// two overlap where the end of `before` is the start of `now`).
fn new_lines<'a, T: PartialEq>(before: &[T], now: &'a [T]) -> &'a [T] {
    let most = before.len().min(now.len());
    let kept = (0..=most)
        .rev()
        .find(|&k| before[before.len() - k..] == now[..k])
        .unwrap_or(0);
    &now[kept..]
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// A message of the game screen as the plain text says it: its keys named as the words typed.
fn plain(text: &str) -> String {
    text.replace("; ? for help", "; help for the questions")
        .replace("? for help", "help for the questions")
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use std::time::{Duration, Instant};

    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::{Narrator, new_lines};
    use crate::game::Game;
    use crate::tui::app::{Action, App, Mode, Settings, Side};

    fn typed(app: &mut App, text: &str, at: Instant) {
        let key = |code| Action::Key(KeyEvent::new(code, KeyModifiers::NONE));
        for c in text.chars() {
            app.update(key(KeyCode::Char(c)), at);
        }
        app.update(key(KeyCode::Enter), at);
    }

    #[test]
    fn moves_turns_and_the_clocks_marks_are_said_once_each() {
        let settings = Settings {
            white: Side::Human,
            black: Side::Human,
            tc: "1+0".into(),
            ..Settings::default()
        };
        let t0 = Instant::now();
        let mut app = App::new(settings, Game::new(), Mode::Play, t0);
        app.start(t0);
        let (mut narrator, opening) = Narrator::new(&app);
        assert!(opening[0].contains("White Human against Black Human, 1+0 on the clock"));
        typed(&mut app, "e4", t0);
        typed(&mut app, "e5", t0);
        let said = narrator.after(&app);
        assert_eq!(
            said[..2],
            [
                "Human plays pawn from e2 to e4.",
                "Human plays pawn from e7 to e5."
            ]
        );
        // The minute had passed when the turn began: the turn's line gives the time.
        assert!(
            said.contains(&"Your move, 1:00 left.".to_string()),
            "{said:?}"
        );
        assert!(!said.iter().any(|l| l.contains("One minute")), "{said:?}");
        assert!(narrator.after(&app).is_empty());
        let at = |s| t0 + Duration::from_secs(s);
        app.update(Action::Tick, at(20));
        assert!(narrator.after(&app).is_empty());
        app.update(Action::Tick, at(31));
        assert_eq!(narrator.after(&app), ["Thirty seconds left."]);
        app.update(Action::Tick, at(32));
        assert!(narrator.after(&app).is_empty());
        app.update(Action::Tick, at(51));
        assert_eq!(narrator.after(&app), ["Ten seconds left."]);
        typed(&mut app, "Nf3", at(52));
        let said = narrator.after(&app);
        assert_eq!(said[0], "Human plays knight from g1 to f3.");
        // Black's turn: its own marks from its own time.
        assert!(
            said.contains(&"Your move, 1:00 left.".to_string()),
            "{said:?}"
        );
    }

    #[test]
    fn only_the_chat_lines_not_said_yet_are_new() {
        assert_eq!(new_lines(&[1, 2, 3], &[1, 2, 3, 4]), [4]);
        // The chat keeps its last lines: the oldest went as the newest came.
        assert_eq!(new_lines(&[1, 2, 3], &[2, 3, 4, 5]), [4, 5]);
        assert_eq!(new_lines::<i32>(&[], &[7]), [7]);
        assert!(new_lines(&[1, 2], &[1, 2]).is_empty());
    }
}
