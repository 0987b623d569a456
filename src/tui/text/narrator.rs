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
    /// The clock marks said on the current ply.
    marks: (usize, usize),
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
        let narrator = Narrator {
            ply: game.ply(),
            ..Narrator::default()
        };
        (narrator, lines)
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
            let who = app.shown_name(mover);
            let verb = if who == "You" { "play" } else { "plays" };
            lines.push(format!(
                "{who} {verb} {}.",
                words::moved(before, &game.moves()[self.ply])
            ));
            self.ply += 1;
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
        if app.search.analysis.thinking == Some(turn) && self.thinking != Some(ply) {
            self.thinking = Some(ply);
            lines.push(format!("{} thinks...", app.shown_name(turn)));
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
            if self.marks.0 != ply {
                // Marks already passed when the turn began are not said again.
                self.marks = (ply, MARKS.iter().filter(|(s, _)| left <= secs(*s)).count());
            }
            while let Some((s, said)) = MARKS.get(self.marks.1)
                && left <= secs(*s)
            {
                lines.push((*said).to_string());
                self.marks.1 += 1;
            }
        }
        lines
    }
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// A message of the game screen as the plain text says it: its keys named as the words typed.
fn plain(text: &str) -> String {
    text.replace("; ? for help", "; help for the questions")
        .replace("? for help", "help for the questions")
}
