//! The training screen: pick an ending and a difficulty from a list (or type any 3- or
//! 4-piece ending, or a FEN), then play it against perfect defence from the built-in tables,
//! move by move graded (see [`crate::train`]); or practise the player's own mistakes; or solve
//! puzzles. Every finished start is counted in the player's progress: the screen hands the
//! runner the result, which it merges into the record on disk (another Knightfall may be
//! training too), and gets the merged record back.
//!
//! One thing is on the board at a time ([`OnBoard`]), so starting one puts away what was there.
//! Each has its file: the endgame drill (`drill`), the mistakes (`mistakes`), the puzzles
//! (`puzzles`), the list (`list`), and the keys and commands (`keys`). The modules are listed
//! in dependency order: each uses only those above it (`tests/it/deps.rs` checks it).
//!
//! The tables are the ones built into the program, read from memory, so probing them in
//! `update` touches no file; the imported puzzles are read from the library as they are
//! drawn, a step into an index.

mod drill;
mod mistakes;
mod puzzles;
mod list;
mod keys;

use std::sync::Arc;
use std::time::Instant;

use shakmaty::{Chess, Move, Position, Square};

use super::chrome::help::Help;
use super::input;
use super::job::EngineEvent;
use super::screen::{Action, Effect, Palette, Tone};
use crate::game::Game;
use crate::rng::Rng;
use crate::tablebase::Tablebases;
use crate::train::ending::OFFERED;
use crate::train::mistake::Mistake;
use crate::train::progress::{Change, Progress};
use crate::train::puzzle::{Filter, Puzzle};
use crate::train::{Difficulty, Drill, Ending};

pub use drill::Drilling;
pub use keys::{TRAIN_KEYS, TrainCommand};
pub use list::{Row, Start};

pub use mistakes::{Answer, CHECK_MS, Practice};
pub use puzzles::{Imported, Said, Solve, Stage};

/// The list's row of the player's mistakes.
pub const MISTAKES_ROW: usize = 0;
/// The list's row of the puzzles.
pub const PUZZLES_ROW: usize = 1;
/// The list's row of the first ending.
pub const FIRST_ENDING: usize = 2;

/// What the screen shows: the list, or the one thing on the board.
#[derive(Clone, Debug)]
pub enum OnBoard {
    /// The list of the mistakes, the puzzles and the endings.
    List,
    /// An endgame drill.
    Drill(Drilling),
    /// A round of the player's mistakes.
    Mistakes(Practice),
    /// A puzzle.
    Puzzle(Solve),
}

/// The screen's state.
pub struct Train {
    /// The built-in tables.
    pub tables: Arc<Tablebases>,
    /// The player's record.
    pub progress: Progress,
    /// The endings in the list: the offered ones, then any the player typed.
    pub endings: Vec<Ending>,
    /// The row chosen in the list.
    pub choice: usize,
    /// The difficulty of the next start.
    pub difficulty: Difficulty,
    /// What is on the board: a drill, a round of mistakes, a puzzle, or the list.
    pub board: OnBoard,
    /// The player's own mistakes, from the reviews of their games.
    pub mistakes: Vec<Mistake>,
    /// Today, in days since 1970-01-01, as the runner read it: the mistakes due, and the day a
    /// drill is recorded on.
    pub today: i64,
    /// The built-in puzzles.
    pub puzzles: Vec<Puzzle>,
    /// The puzzles imported from lichess's database, when there are any.
    pub imported: Option<Imported>,
    /// Which puzzles are offered: a theme, a rating range.
    pub filter: Filter,
    /// The hint shown: the piece's square, and the whole move once asked twice.
    pub hint: Option<(Square, Option<Move>)>,
    /// The input line.
    pub input: String,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// What the player must read before going on (a damaged record kept aside under a new
    /// name): shown over the screen until a key is pressed, whatever the screen opened on.
    pub notice: Option<String>,
    /// The help overlay.
    pub help: Help,
    /// Board turned from the player's side.
    pub flipped: bool,
    /// Colours and glyphs.
    pub palette: Palette,
    /// Opened from another screen: q goes back to it.
    pub from_game: bool,
    rng: Rng,
}

impl Train {
    /// A training screen on the list of endings; `seed` draws the starts.
    pub fn new(
        tables: Arc<Tablebases>,
        progress: Progress,
        palette: Palette,
        from_game: bool,
        seed: u64,
    ) -> Train {
        Train {
            tables,
            progress,
            endings: OFFERED
                .iter()
                .filter_map(|name| Ending::parse(name).ok())
                .collect(),
            // The first ending; the runner chooses the mistakes row when some are due.
            choice: FIRST_ENDING,
            difficulty: Difficulty::default(),
            board: OnBoard::List,
            mistakes: Vec::new(),
            today: 0,
            puzzles: crate::train::puzzle::built_in(),
            imported: None,
            filter: Filter::default(),
            hint: None,
            input: String::new(),
            message: None,
            notice: None,
            help: Help::default(),
            flipped: false,
            palette,
            from_game,
            rng: Rng::new(seed),
        }
    }

    /// Whether a board is shown (a drill, a mistake or a puzzle), rather than the list.
    pub fn on_board(&self) -> bool {
        !matches!(self.board, OnBoard::List)
    }

    /// The drill on the board, if one is being played.
    pub fn drill(&self) -> Option<&Drill> {
        match &self.board {
            OnBoard::Drill(d) => Some(&d.drill),
            _ => None,
        }
    }

    fn drill_mut(&mut self) -> Option<&mut Drill> {
        match &mut self.board {
            OnBoard::Drill(d) => Some(&mut d.drill),
            _ => None,
        }
    }

    /// The round of mistakes being practised, if one is.
    pub fn practice(&self) -> Option<&Practice> {
        match &self.board {
            OnBoard::Mistakes(p) => Some(p),
            _ => None,
        }
    }

    /// The puzzle on the board, if one is being solved.
    pub fn solve(&self) -> Option<&Solve> {
        match &self.board {
            OnBoard::Puzzle(s) => Some(s),
            _ => None,
        }
    }

    /// The game on the board: the drill's, the mistake's or the puzzle's.
    pub fn board_game(&self) -> Option<&Game> {
        match &self.board {
            OnBoard::Drill(d) => Some(&d.drill.game),
            OnBoard::Mistakes(p) => Some(&p.game),
            OnBoard::Puzzle(s) => Some(&s.game),
            OnBoard::List => None,
        }
    }

    /// The position on the board, or none while choosing.
    pub fn pos(&self) -> Option<&Chess> {
        self.board_game().map(Game::position)
    }

    /// The last move on the board.
    pub(crate) fn last_move(&self) -> Option<Move> {
        self.board_game().and_then(|g| g.moves().last().copied())
    }

    /// The side the player plays on the board, if one is shown.
    pub fn player(&self) -> Option<shakmaty::Color> {
        match &self.board {
            OnBoard::Drill(d) => Some(d.drill.player),
            OnBoard::Mistakes(p) => Some(p.current.mover()),
            OnBoard::Puzzle(s) => Some(s.puzzle.solver()),
            OnBoard::List => None,
        }
    }

    /// The board is seen from the player's side unless turned.
    pub fn seen_from_black(&self) -> bool {
        (self.player() == Some(shakmaty::Color::Black)) != self.flipped
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(k) => self.on_key(k, &mut fx),
            Action::Click(sq) => self.on_click(sq, &mut fx),
            Action::Note(text, tone) => self.say(text, tone),
            Action::Trained(progress) => self.merged(*progress),
            Action::Engine(EngineEvent::Warning(text)) => self.say(text, Tone::Error),
            Action::Engine(ev) => self.on_engine(&ev, &mut fx),
            Action::Tick
            | Action::Front
            | Action::Graph { .. }
            | Action::Saved(_)
            | Action::Play(_)
            | Action::GameRead { .. }
            | Action::Peer(_)
            | Action::Meeting(_)
            | Action::Kept(..)
            | Action::Checked(..) => {}
        }
        fx
    }

    /// Takes the record as saved, with other instances' results in it.
    fn merged(&mut self, progress: Progress) {
        let (before, after) = (
            self.progress.puzzle_rating.shown(),
            progress.puzzle_rating.shown(),
        );
        // A puzzle just solved said the rating this instance worked out; the one kept moved
        // from the other instances' puzzles too.
        if let Some((text, _)) = &mut self.message
            && before != after
        {
            *text = text.replace(&before, &after);
        }
        self.progress = progress;
    }

    /// What must be kept when the screen goes: a drill left unfinished counts as tried.
    pub(crate) fn farewell(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        self.count(&mut fx);
        fx
    }

    /// A search report, for the move being judged on the board.
    fn on_engine(&mut self, ev: &EngineEvent, fx: &mut Vec<Effect>) {
        match self.board {
            OnBoard::Puzzle(_) => self.puzzle_answered(ev),
            OnBoard::Mistakes(_) => self.practice_checked(ev, fx),
            OnBoard::Drill(_) | OnBoard::List => {}
        }
    }

    /// A move typed or clicked on the board.
    fn try_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        // A square alone with one of the mover's pieces on it selects it, on any board.
        if let Some(from) = self.pos().and_then(|pos| input::selected(text, pos)) {
            self.input = from.to_string();
            self.say(
                format!("{from} selected: type or click its target."),
                Tone::Info,
            );
            return;
        }
        match self.board {
            OnBoard::Mistakes(_) => self.try_practice_move(text, fx),
            OnBoard::Puzzle(_) => self.try_puzzle_move(text, fx),
            OnBoard::Drill(_) => self.try_drill_move(text, fx),
            OnBoard::List => {}
        }
    }

    fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Some((text.into(), tone));
    }

    /// A hint in two steps: first the piece that moves (marked), then, asked again, the move
    /// (`says` names who plays it); `note` follows the first step's words.
    fn show_hint(&mut self, best: Move, pos: &Chess, says: &str, note: &str) {
        match (self.hint, best.from()) {
            (Some((sq, None)), _) => {
                let san = shakmaty::san::SanPlus::from_move(pos.clone(), best).to_string();
                self.hint = Some((sq, Some(best)));
                self.say(format!("{says} {san}."), Tone::Info);
            }
            (_, Some(sq)) => {
                self.hint = Some((sq, None));
                let role = pos
                    .board()
                    .piece_at(sq)
                    .map_or("piece", |p| crate::game::input::role_word(p.role));
                self.say(format!("Move the {role} on {sq}{note}."), Tone::Info);
            }
            _ => {}
        }
    }

    /// Counts a result in the record shown and asks for it to be saved: the runner merges it
    /// into the record on disk, with whatever other running Knightfalls saved, and hands the
    /// merged record back ([`Action::Trained`]).
    fn keep(&mut self, change: Change, fx: &mut Vec<Effect>) {
        change.apply(&mut self.progress);
        fx.push(Effect::SaveTraining(vec![change]));
    }
}
