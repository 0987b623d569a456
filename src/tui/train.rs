//! The training screen: pick an ending and a difficulty from a list (or type any 3- or
//! 4-piece ending, or a FEN), then play it against perfect defence from the built-in tables,
//! move by move graded (see [`crate::train`]). Every finished start is counted in the
//! player's progress: the screen hands the runner the result, which it merges into the record
//! on disk (another Knightfall may be training too), and gets the merged record back.
//!
//! The tables are the ones built into the program, read from memory, so probing them in
//! `update` touches no file.

use std::sync::Arc;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Chess, Move, Position, Square};

use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, ctrl, key};
use super::chrome::theme;
use super::input;
use super::practice::{Answer, Practice};
use super::screen::{Action, Effect, Palette, Tone};
use super::solve::{Said, Solve, Stage};
use crate::game::Game;
use crate::rng::Rng;
use crate::store::training::{Change, Progress};
use crate::tablebase::Tablebases;
use crate::train::ending::OFFERED;
use crate::train::mistake::Mistake;
use crate::train::puzzle::Puzzle;
use crate::train::themes::Theme;
use crate::train::{Difficulty, Drill, Ending, Goal, State, Verdict};

/// The training screen's keys and commands.
pub const TRAIN_KEYS: &[KeyHelp<&str>] = &[
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('?')), key(KeyCode::F(1))], "help"),
        shown: "? F1",
        word: "help",
        label: "? help",
        help: "this help",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Up), key(KeyCode::Down)], ""),
        shown: "↑ ↓",
        word: "",
        label: "↑↓ choose",
        help: "choose your mistakes, the puzzles or an ending (or type one, like KRvKP, or a FEN)",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Left), key(KeyCode::Right)], ""),
        shown: "← →",
        word: "",
        label: "←→ difficulty",
        help: "easy, medium or hard: short or long wins by the tables",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], ""),
        shown: "Enter",
        word: "",
        label: "Enter start",
        help: "start: your mistakes that are due, a puzzle, or a drill of the chosen ending",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('t')], "hint"),
        shown: "Ctrl-T",
        word: "hint",
        label: "^T hint",
        help: "a hint: first the piece to move, then the move",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('z')], "undo"),
        shown: "Ctrl-Z",
        word: "undo",
        label: "^Z take back",
        help: "take back your last move and the reply",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('r')], "retry"),
        shown: "Ctrl-R",
        word: "retry",
        label: "^R retry",
        help: "start this position (or puzzle) again",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('n')], "next"),
        shown: "Ctrl-N",
        word: "next",
        label: "^N next",
        help: "the next mistake or puzzle, or a new start of the same ending",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('v')], "solution"),
        shown: "Ctrl-V",
        word: "solution",
        label: "",
        help: "a puzzle's solution (it then counts as not solved)",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::None,
        shown: "",
        word: "filter",
        label: "",
        help: "puzzles of one theme or rating range: filter fork, filter 1200-1600 (alone: all)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('q'))], "list"),
        shown: "q",
        word: "list",
        label: "q list",
        help: "back to the list",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Esc), key(KeyCode::Char('q'))], "back"),
        shown: "Esc q",
        word: "back",
        label: "q back",
        help: "back to where training was opened from",
        when: When::Opened,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Esc), key(KeyCode::Char('q'))], "quit"),
        shown: "Esc q",
        word: "quit",
        label: "q quit",
        help: "leave Knightfall",
        when: When::Alone,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('q'), ctrl('c')], "exit"),
        shown: "Ctrl-Q Ctrl-C",
        word: "exit",
        label: "",
        help: "leave Knightfall",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('f')], "flip"),
        shown: "Ctrl-F",
        word: "flip",
        label: "",
        help: "turn the board around",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('k')], "theme"),
        shown: "Ctrl-K",
        word: "theme",
        label: "",
        help: "board colours: the next theme (or theme NAME)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('e')], "fen"),
        shown: "Ctrl-E",
        word: "fen",
        label: "",
        help: "show the position's FEN",
        when: When::Playing,
    },
];

/// What each offered ending teaches, for the list.
pub(crate) fn about(name: &str) -> &'static str {
    match name {
        "KQvK" => "queen and king mate the lone king",
        "KRvK" => "rook and king mate the lone king",
        "KPvK" => "win with a pawn: opposition, key squares",
        "KvKP" => "stop the pawn and hold the draw",
        "KBBvK" => "two bishops mate",
        "KBNvK" => "bishop and knight mate, in the right corner",
        "KQvKR" => "queen against rook",
        "KQvKP" => "queen against a running pawn",
        "KRvKP" => "rook against pawn",
        "KPvKP" => "pawn against pawn: who queens first",
        _ => "",
    }
}

/// What the screen opens on.
#[derive(Clone, Debug)]
pub enum Start {
    /// The list of endings, at this difficulty.
    List(Difficulty),
    /// A drill of this ending at this difficulty.
    Ending(Ending, Difficulty),
    /// A drill from this position.
    Fen(String),
    /// The player's mistakes that are due.
    Mistakes,
    /// The puzzles: the one with this id, or the next one.
    Puzzles(Option<String>),
}

/// The list's row of the player's mistakes.
pub const MISTAKES_ROW: usize = 0;
/// The list's row of the puzzles.
pub const PUZZLES_ROW: usize = 1;
/// The list's row of the first ending.
pub const FIRST_ENDING: usize = 2;

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
    /// The drill on the board, if one is being played.
    pub drill: Option<Drill>,
    /// The player's own mistakes, from the reviews of their games.
    pub mistakes: Vec<Mistake>,
    /// Today, in days since 1970-01-01 (for the schedule).
    pub today: i64,
    /// The round of mistakes being practised, if one is.
    pub practice: Option<Practice>,
    /// The puzzles to solve (the built-in set).
    pub puzzles: Vec<Puzzle>,
    /// Which puzzles are offered: a theme, a rating range.
    pub filter: (Option<Theme>, Option<(i32, i32)>),
    /// The puzzle on the board, if one is being solved.
    pub solve: Option<Solve>,
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
    /// The drill on the board was counted in the progress already.
    counted: bool,
    /// A move was played in the drill on the board (taken back or not).
    played: bool,
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
            drill: None,
            mistakes: Vec::new(),
            today: 0,
            practice: None,
            puzzles: crate::train::puzzle::built_in(),
            filter: (None, None),
            solve: None,
            hint: None,
            input: String::new(),
            message: None,
            notice: None,
            help: Help::default(),
            flipped: false,
            palette,
            from_game,
            counted: false,
            played: false,
            rng: Rng::new(seed),
        }
    }

    /// Starts a drill of `ending` at once (from the command line); a message says why not.
    pub fn open_ending(&mut self, ending: Ending) {
        self.start_ending(ending);
    }

    /// Starts a drill from `fen` at once (from the command line); a message says why not.
    pub fn open_fen(&mut self, fen: &str) {
        self.start_fen(fen);
    }

    /// Which rows of [`TRAIN_KEYS`] apply now.
    pub(crate) fn keys_apply(&self, when: When) -> bool {
        match when {
            When::Choosing => !self.on_board(),
            When::Playing => self.on_board(),
            When::Opened | When::Alone => {
                !self.on_board() && keys::opened_or_alone(when, self.from_game)
            }
            w => keys::opened_or_alone(w, self.from_game),
        }
    }

    /// Whether a board is shown (a drill, a mistake or a puzzle), rather than the list.
    pub fn on_board(&self) -> bool {
        self.drill.is_some() || self.practice.is_some() || self.solve.is_some()
    }

    /// The game on the board: the drill's, the mistake's or the puzzle's.
    pub fn board_game(&self) -> Option<&Game> {
        match (&self.drill, &self.practice, &self.solve) {
            (Some(d), _, _) => Some(&d.game),
            (None, Some(p), _) => Some(&p.game),
            (None, None, Some(s)) => Some(&s.game),
            (None, None, None) => None,
        }
    }

    /// The puzzles the filter lets through.
    pub fn offered(&self) -> Vec<&Puzzle> {
        self.puzzles
            .iter()
            .filter(|p| self.filter.0.is_none_or(|t| p.themes.contains(&t)))
            .filter(|p| {
                self.filter
                    .1
                    .is_none_or(|(lo, hi)| (lo..=hi).contains(&p.rating))
            })
            .collect()
    }

    /// The position on the board, or none while choosing.
    pub fn pos(&self) -> Option<&Chess> {
        self.board_game().map(Game::position)
    }

    /// The last move on the board.
    pub(crate) fn last_move(&self) -> Option<Move> {
        self.board_game().and_then(|g| g.moves().last().copied())
    }

    /// The board is seen from the player's side unless turned.
    pub fn seen_from_black(&self) -> bool {
        let player = match (&self.drill, &self.practice, &self.solve) {
            (Some(d), _, _) => Some(d.player),
            (None, Some(p), _) => Some(p.current.mover()),
            (None, None, Some(s)) => Some(s.puzzle.solver()),
            (None, None, None) => None,
        };
        (player == Some(shakmaty::Color::Black)) != self.flipped
    }

    /// How many mistakes are due today and how many are learned, for the list (drawn every
    /// frame: one pass, nothing copied).
    pub fn mistake_counts(&self) -> (usize, usize) {
        let (mut due, mut learned) = (0, 0);
        for m in &self.mistakes {
            let card = self.progress.mistakes.get(&m.id());
            due += usize::from(card.is_none_or(|c| c.is_due(self.today)));
            learned += usize::from(card.is_some_and(|c| c.is_learned()));
        }
        (due, learned)
    }

    /// The mistakes due today (or never practised), the longest overdue first.
    pub fn due(&self) -> Vec<Mistake> {
        let mut due: Vec<(i64, &Mistake)> = self
            .mistakes
            .iter()
            .filter_map(|m| {
                let card = self.progress.mistakes.get(&m.id());
                let day = card.map_or(self.today, |c| c.due);
                (day <= self.today).then_some((day, m))
            })
            .collect();
        due.sort_by_key(|(day, _)| *day);
        due.into_iter().map(|(_, m)| m.clone()).collect()
    }

    /// Opens a round of `mistakes` at once (one game's, from its review), whatever is due.
    pub fn practise(&mut self, mistakes: Vec<Mistake>) {
        match Practice::new(mistakes) {
            Some(p) => self.begin_practice(p),
            None => self.say(
                "No mistakes or blunders of yours in this game to practise.",
                Tone::Info,
            ),
        }
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(k) => self.on_key(k, &mut fx),
            Action::Click(sq) => self.on_click(sq, &mut fx),
            Action::Note(text, tone) => self.say(text, tone),
            Action::Trained(progress) => self.merged(*progress),
            Action::Engine(super::job::EngineEvent::Warning(text)) => self.say(text, Tone::Error),
            Action::Engine(ev) => self.on_engine(&ev, &mut fx),
            Action::Tick
            | Action::Front
            | Action::Graph { .. }
            | Action::Saved(_)
            | Action::Play(_)
            | Action::GameRead { .. } => {}
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

    fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Some((text.into(), tone));
    }

    fn on_click(&mut self, sq: Square, fx: &mut Vec<Effect>) {
        if self.help.shown {
            return;
        }
        let Some(game) = self.board_game().cloned() else {
            return;
        };
        match input::take_click(&game, &mut self.input, sq) {
            input::Taken::Play(text) => self.try_move(&text, fx),
            input::Taken::AskPromotion => self.say(input::PROMOTE_ASKED, Tone::Info),
            input::Taken::Done => {}
        }
    }

    fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        // The key that closes the notice does nothing else: it was pressed to close it.
        if self.notice.is_some() && !keys::is_exit(&key) {
            self.notice = None;
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if self.help.takes(&key) {
            return;
        }
        let typing = !self.input.is_empty();
        // Enter, the arrows and Esc (while typing) act on the list or the input line, below.
        let own = matches!(
            key.code,
            KeyCode::Enter | KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
        ) || (typing && key.code == KeyCode::Esc);
        if !own
            && let Some(row) = keys::command(TRAIN_KEYS, &key, &self.input, |w| self.keys_apply(w))
        {
            return self.command(row, None, fx);
        }
        if ctrl || input::edit(&mut self.input, &key) {
            return;
        }
        match key.code {
            KeyCode::Esc => {
                self.input.clear();
                self.message = None;
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.input);
                self.submit(text.trim(), fx);
            }
            _ if typing || self.on_board() => {}
            KeyCode::Up => self.choice = self.choice.saturating_sub(1),
            KeyCode::Down => self.choice = (self.choice + 1).min(self.endings.len()),
            KeyCode::Left | KeyCode::Right => {
                let all = Difficulty::ALL;
                let i = all.iter().position(|&d| d == self.difficulty).unwrap_or(1);
                let j = if key.code == KeyCode::Left {
                    i.saturating_sub(1)
                } else {
                    (i + 1).min(all.len() - 1)
                };
                self.difficulty = all[j];
            }
            _ => {}
        }
    }

    /// A command, by its word: from the key table or typed.
    fn command(&mut self, word: &str, arg: Option<&str>, fx: &mut Vec<Effect>) {
        match word {
            "help" => self.help.open(),
            "back" | "quit" => {
                self.count(fx);
                fx.push(Effect::Close);
            }
            "exit" => {
                self.count(fx);
                fx.push(Effect::Quit);
            }
            "list" => {
                self.count(fx);
                self.drill = None;
                self.practice = None;
                self.solve = None;
                self.hint = None;
                self.input.clear();
                self.message = None;
            }
            "theme" => {
                let (text, tone) = theme::change(self.palette.theme, arg, fx);
                self.say(text, tone);
            }
            "flip" => self.flipped = !self.flipped,
            "fen" => {
                if let Some(fen) = self.board_game().map(Game::fen) {
                    self.say(fen, Tone::Info);
                }
            }
            "hint" if self.practice.is_some() => self.practice_hint(),
            "hint" if self.solve.is_some() => self.puzzle_hint(fx),
            "undo" | "retry" if self.solve.is_some() => {
                if let Some(s) = &mut self.solve {
                    s.retry();
                    self.hint = None;
                    let task = s.task();
                    self.say(format!("Again: {task}."), Tone::Info);
                }
            }
            "next" if self.solve.is_some() => {
                self.count_puzzle(false, fx);
                self.start_puzzle();
            }
            "solution" => self.show_solution(fx),
            "filter" => self.set_filter(arg),
            "hint" => self.give_hint(),
            "undo" | "retry" if self.practice.is_some() => {
                if let Some(p) = &mut self.practice {
                    p.retry();
                    self.hint = None;
                    let task = p.task();
                    self.say(task, Tone::Info);
                }
            }
            "next" if self.practice.is_some() => self.next_practice(),
            "undo" => {
                let taken = self.drill.as_mut().is_some_and(Drill::take_back);
                self.hint = None;
                if taken {
                    self.say("Taken back: your move.", Tone::Info);
                } else {
                    self.say("Nothing to take back.", Tone::Info);
                }
            }
            "retry" => {
                if let Some(d) = &mut self.drill {
                    d.retry(&self.tables);
                    self.hint = None;
                    let task = d.task();
                    self.say(format!("Again from the start: {task}."), Tone::Info);
                }
            }
            "next" => {
                self.count(fx);
                self.start();
            }
            _ => {}
        }
    }

    /// A typed line: a command word, an ending or a FEN on the list, a move on the board.
    fn submit(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let (word, arg) = match text.split_once(char::is_whitespace) {
            Some((w, a)) => (w, Some(a.trim()).filter(|a| !a.is_empty())),
            None => (text, None),
        };
        let lower = word.to_ascii_lowercase();
        let known = TRAIN_KEYS
            .iter()
            .any(|row| !row.word.is_empty() && row.word == lower && self.keys_apply(row.when))
            || (lower == "takeback" && self.on_board())
            || lower == "filter";
        if known {
            let word = if lower == "takeback" { "undo" } else { &lower };
            return self.command(word, arg, fx);
        }
        if self.on_board() {
            if !text.is_empty() {
                self.try_move(text, fx);
            }
            return;
        }
        if text.is_empty() {
            return self.start();
        }
        if text.contains('/') {
            return self.start_fen(text);
        }
        if let Ok(d) = Difficulty::parse(text) {
            self.difficulty = d;
            return;
        }
        match Ending::parse(text) {
            Ok(ending) => self.start_ending(ending),
            Err(e) => self.say(e, Tone::Error),
        }
    }

    /// Puts `ending` on the list (if it is not there) and chooses it (the list's first rows
    /// are the player's mistakes and the puzzles, the endings follow).
    fn choose(&mut self, ending: Ending) {
        self.choice = FIRST_ENDING
            + match self.endings.iter().position(|e| *e == ending) {
                Some(i) => i,
                None => {
                    self.endings.push(ending);
                    self.endings.len() - 1
                }
            };
    }

    /// Starts what the list's chosen row offers: the mistakes due, or a drill of the chosen
    /// ending and difficulty.
    fn start(&mut self) {
        if self.choice == MISTAKES_ROW {
            return self.start_practice();
        }
        if self.choice == PUZZLES_ROW {
            return self.start_puzzle();
        }
        if let Some(ending) = self.endings.get(self.choice - FIRST_ENDING).cloned() {
            self.start_ending(ending);
        }
    }

    /// The next puzzle: the one nearest the player's rating among those the filter lets
    /// through and not tried yet (or tried, once every one has been).
    pub fn start_puzzle(&mut self) {
        self.start_puzzle_after("");
    }

    /// [`Train::start_puzzle`], its message after `said` (a sentence, or nothing).
    fn start_puzzle_after(&mut self, said: &str) {
        let rating = self.progress.puzzle_rating.rating.round() as i32;
        let offered = self.offered();
        let fresh: Vec<&&Puzzle> = offered
            .iter()
            .filter(|p| !self.progress.puzzles.contains_key(&p.id))
            .collect();
        let pool: Vec<&Puzzle> = if fresh.is_empty() {
            offered.clone()
        } else {
            fresh.into_iter().copied().collect()
        };
        let current = self.solve.as_ref().map(|s| s.puzzle.id.clone());
        let Some(p) = pool
            .iter()
            .filter(|p| Some(&p.id) != current.as_ref() || pool.len() == 1)
            .min_by_key(|p| ((p.rating - rating).abs(), p.id.clone()))
            .map(|p| (*p).clone())
        else {
            return self.say(
                "No puzzle fits the filter; filter alone shows them all again.",
                Tone::Error,
            );
        };
        let solve = Solve::new(p);
        let said = format!(
            "{said}Puzzle {} (rated {}): {}.",
            solve.puzzle.id,
            solve.puzzle.rating,
            solve.task()
        );
        self.solve = Some(solve);
        self.drill = None;
        self.practice = None;
        self.hint = None;
        self.input.clear();
        self.say(said, Tone::Info);
    }

    /// Opens the puzzle with `id` (a message says when there is none).
    pub fn open_puzzle(&mut self, id: &str) {
        match self.puzzles.iter().find(|p| p.id == id) {
            Some(p) => {
                let solve = Solve::new(p.clone());
                let said = format!("Puzzle {id} (rated {}): {}.", p.rating, solve.task());
                self.solve = Some(solve);
                self.say(said, Tone::Info);
            }
            None => self.say(
                format!("There is no puzzle {id:?} in the set."),
                Tone::Error,
            ),
        }
    }

    /// `filter fork`, `filter 1200-1600`, both, or `filter` alone for every puzzle.
    fn set_filter(&mut self, arg: Option<&str>) {
        let mut theme = None;
        let mut range = None;
        for word in arg.unwrap_or("").split_whitespace() {
            if let Some(t) = Theme::parse(word) {
                theme = Some(t);
            } else if let Some((lo, hi)) = word.split_once('-')
                && let (Ok(lo), Ok(hi)) = (lo.parse::<i32>(), hi.parse::<i32>())
                && lo <= hi
            {
                range = Some((lo, hi));
            } else {
                let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
                return self.say(
                    format!(
                        "{word:?} is neither a theme ({}) nor a rating range like 1200-1600",
                        names.join(", ")
                    ),
                    Tone::Error,
                );
            }
        }
        self.filter = (theme, range);
        let offered = self.offered();
        let n = offered.len();
        // The puzzle on the board goes when the filter would not have chosen it.
        let stale = self
            .solve
            .as_ref()
            .is_some_and(|s| !offered.iter().any(|p| p.id == s.puzzle.id));
        if n > 0 && stale {
            return self.start_puzzle_after(&format!("{n} puzzles let through. "));
        }
        self.say(format!("{n} puzzles let through."), Tone::Info);
    }

    fn puzzle_hint(&mut self, fx: &mut Vec<Effect>) {
        let Some(s) = &mut self.solve else {
            return;
        };
        let (Stage::Solving, Some(best)) = (&s.stage, s.expected()) else {
            return;
        };
        let pos = s.game.position().clone();
        s.helped = true;
        self.show_hint(
            best,
            &pos,
            "The solution plays",
            " (a hint counts as not solved)",
        );
        self.count_puzzle(false, fx);
    }

    fn show_solution(&mut self, fx: &mut Vec<Effect>) {
        let Some(s) = &mut self.solve else {
            return;
        };
        s.helped = true;
        let line = s.solution();
        self.say(format!("The solution: {line}."), Tone::Info);
        self.count_puzzle(false, fx);
    }

    /// Counts the puzzle on the board once, on its first try (a hint or the solution shown
    /// count as not solved; leaving a puzzle untouched counts nothing).
    fn count_puzzle(&mut self, solved: bool, fx: &mut Vec<Effect>) {
        let Some(s) = &mut self.solve else {
            return;
        };
        let touched = s.helped || s.game.moves().len() > 1 || solved;
        if s.counted || !touched {
            return;
        }
        s.counted = true;
        let change = Change::puzzle(&s.puzzle, solved && !s.helped);
        self.keep(change, fx);
    }

    fn try_puzzle_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let Some(s) = &mut self.solve else {
            return;
        };
        if s.stage != Stage::Solving {
            return self.say(
                "Ctrl-R tries it again, Ctrl-N is the next puzzle.",
                Tone::Info,
            );
        }
        let m = match s.game.parse_move(text) {
            Ok(m) => m,
            Err(e) => return self.say(e.to_string(), Tone::Error),
        };
        let san = shakmaty::san::SanPlus::from_move(s.game.position().clone(), m).to_string();
        self.hint = None;
        match s.play(m, fx) {
            Said::Right(reply) => {
                self.say(format!("{san}: right. Reply: {reply}. Go on."), Tone::Info)
            }
            Said::Solved => {
                let helped = s.helped;
                self.count_puzzle(true, fx);
                let rating = self.progress.puzzle_rating.shown();
                let said = if helped {
                    format!("{san}: solved, with help. Ctrl-N: the next puzzle.")
                } else {
                    format!("{san}: solved! Your puzzle rating: {rating}. Ctrl-N: the next.")
                };
                fx.push(Effect::Bell);
                self.say(said, Tone::Info);
            }
            Said::Wrong => {
                self.count_puzzle(false, fx);
                self.say(format!("{san} is not it…"), Tone::Error);
            }
        }
    }

    /// A round of the mistakes due, or a word on why there is none.
    pub fn start_practice(&mut self) {
        if let Some(p) = Practice::new(self.due()) {
            return self.begin_practice(p);
        }
        let said = if self.mistakes.is_empty() {
            "No mistakes to practise yet: review a game you played (r when it ends, or \
             knightfall review), and its mistakes and blunders come here."
                .to_string()
        } else {
            let next = self
                .mistakes
                .iter()
                .filter_map(|m| self.progress.mistakes.get(&m.id()).map(|c| c.due))
                .min()
                .map_or_else(String::new, |d| {
                    format!("; the next is due on {}", crate::game::date_of_day(d))
                });
            format!(
                "None of your {} mistakes is due today{next}.",
                self.mistakes.len()
            )
        };
        self.say(said, Tone::Info);
    }

    fn begin_practice(&mut self, p: Practice) {
        self.say(
            format!("{} From {}", p.task(), p.current.source),
            Tone::Info,
        );
        self.practice = Some(p);
        self.drill = None;
        self.hint = None;
        self.input.clear();
    }

    fn next_practice(&mut self) {
        let Some(p) = &mut self.practice else {
            return;
        };
        if p.advance() {
            let said = format!("{} From {}", p.task(), p.current.source);
            self.hint = None;
            self.say(said, Tone::Info);
        } else {
            let (answered, right) = p.score;
            self.practice = None;
            self.say(
                format!("Round over: {right} of {answered} found. q leaves, Enter starts the next round."),
                Tone::Info,
            );
        }
    }

    fn practice_hint(&mut self) {
        let Some(p) = &mut self.practice else {
            return;
        };
        if p.answer != Answer::Waiting {
            return;
        }
        let best = p.current.best;
        let pos = p.game.position().clone();
        p.hinted = true;
        self.show_hint(best, &pos, "The engine plays", "");
    }

    /// Records a graded answer in the schedule and asks for the progress to be written.
    fn record_answer(&mut self, grade: Option<u8>, fx: &mut Vec<Effect>) {
        let (Some(grade), Some(p)) = (grade, &self.practice) else {
            return;
        };
        let change = Change::Answer {
            id: p.current.id(),
            grade,
            today: self.today,
        };
        self.keep(change, fx);
    }

    /// Says how the answer went, once it is in.
    fn say_answer(&mut self) {
        let Some(p) = &self.practice else {
            return;
        };
        let (text, tone) = match &p.answer {
            Answer::Solved(t) => (format!("{t} Ctrl-N: the next."), Tone::Info),
            Answer::Missed(t) => (
                format!("{t} Ctrl-R: try again, Ctrl-N: the next."),
                Tone::Error,
            ),
            Answer::Checking { .. } => ("Checking your move…".to_string(), Tone::Info),
            Answer::Waiting => return,
        };
        if let Answer::Missed(_) = p.answer {
            let best = p.current.best;
            self.hint = best.from().map(|sq| (sq, Some(best)));
        } else {
            self.hint = None;
        }
        self.say(text, tone);
    }

    fn on_engine(&mut self, ev: &super::job::EngineEvent, fx: &mut Vec<Effect>) {
        if let Some(s) = &mut self.solve {
            let waiting = matches!(s.stage, Stage::Failed(Some(_)));
            let reply = s.on_engine(ev);
            if waiting && s.stage == Stage::Failed(None) {
                let best = s.expected();
                let line = s.solution();
                let said = match reply {
                    Some(r) => format!(
                        "Answered by {r}. The solution: {line}. Ctrl-R: again, Ctrl-N: the next."
                    ),
                    None => format!("The solution: {line}. Ctrl-R: again, Ctrl-N: the next."),
                };
                self.hint = best.and_then(|b| b.from().map(|sq| (sq, None)));
                self.say(said, Tone::Error);
            }
            return;
        }
        let Some(p) = &mut self.practice else {
            return;
        };
        let was_checking = matches!(p.answer, Answer::Checking { .. });
        let grade = p.on_engine(ev);
        if was_checking && !matches!(p.answer, Answer::Checking { .. }) {
            self.record_answer(grade, fx);
            self.say_answer();
        }
    }

    /// Starts a drill of `ending` at the chosen difficulty, and chooses it on the list; a
    /// message says why not, and the list stays as it was.
    fn start_ending(&mut self, ending: Ending) {
        let seed = self.rng.next_u64();
        match Drill::new(&ending, self.difficulty, &self.tables, Rng::new(seed)) {
            Ok(drill) => {
                self.choose(ending);
                self.begin(drill);
            }
            Err(e) => self.say(e, Tone::Error),
        }
    }

    fn start_fen(&mut self, fen: &str) {
        let seed = self.rng.next_u64();
        match Drill::from_fen(fen, &self.tables, Rng::new(seed)) {
            Ok(drill) => {
                self.choose(drill.ending.clone());
                self.begin(drill);
            }
            Err(e) => self.say(e, Tone::Error),
        }
    }

    fn begin(&mut self, drill: Drill) {
        let par = match drill.goal {
            Goal::Win => format!(" Par {} moves.", drill.par()),
            Goal::Draw => format!(" Hold it for {} moves.", crate::train::drill::HOLD_MOVES),
        };
        self.say(format!("{}.{par}", drill.task()), Tone::Info);
        self.drill = Some(drill);
        self.hint = None;
        self.input.clear();
        self.counted = false;
        self.played = false;
    }

    fn give_hint(&mut self) {
        let Some(drill) = &mut self.drill else {
            return;
        };
        if drill.state != State::Playing {
            return self.say(
                "This attempt is over: Ctrl-Z takes back, Ctrl-R retries.",
                Tone::Info,
            );
        }
        let pos = drill.pos().clone();
        // The second press shows the same hint's move: one hint, not two.
        let best = match self.hint {
            Some((_, None)) => drill.best(&self.tables).map(|r| r.mv),
            _ => drill.hint(&self.tables),
        };
        let Some(best) = best else {
            return self.say("The tables have no move here.", Tone::Error);
        };
        self.show_hint(best, &pos, "The tables play", "");
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
                    .map_or("piece", |p| role_name(p.role));
                self.say(format!("Move the {role} on {sq}{note}."), Tone::Info);
            }
            _ => {}
        }
    }

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
        if self.practice.is_some() {
            return self.try_practice_move(text, fx);
        }
        if self.solve.is_some() {
            return self.try_puzzle_move(text, fx);
        }
        let Some(drill) = &mut self.drill else {
            return;
        };
        if drill.state != State::Playing {
            return self.say(
                "This attempt is over: Ctrl-Z takes back, Ctrl-R retries, Ctrl-N is the next.",
                Tone::Info,
            );
        }
        let m = match drill.game.parse_move(text) {
            Ok(m) => m,
            Err(e) => return self.say(e.to_string(), Tone::Error),
        };
        match drill.play(m, &self.tables) {
            Ok(verdict) => {
                self.played = true;
                let said = said_of(drill, &verdict);
                let (failed, done) = (
                    matches!(drill.state, State::Failed(_)),
                    drill.state == State::Done,
                );
                self.hint = None;
                self.say(said, if failed { Tone::Error } else { Tone::Info });
                if done {
                    fx.push(Effect::Bell);
                    self.count(fx);
                }
            }
            Err(e) => self.say(e, Tone::Error),
        }
    }

    fn try_practice_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let Some(p) = &mut self.practice else {
            return;
        };
        if p.answer != Answer::Waiting {
            return self.say(
                "Ctrl-R tries this one again, Ctrl-N goes to the next.",
                Tone::Info,
            );
        }
        let m = match p.game.parse_move(text) {
            Ok(m) => m,
            Err(e) => return self.say(e.to_string(), Tone::Error),
        };
        let grade = p.try_move(m, fx);
        self.record_answer(grade, fx);
        self.say_answer();
    }

    /// Counts the drill on the board in the progress, once, if a move was played in it: done
    /// when its goal was reached, else tried; and asks for the progress to be written.
    fn count(&mut self, fx: &mut Vec<Effect>) {
        let Some(d) = &self.drill else {
            return;
        };
        if self.counted || !self.played {
            return;
        }
        let done = d.state == State::Done;
        let over_par = (d.goal == Goal::Win).then(|| d.moves_played().saturating_sub(d.par()));
        let change = Change::ending(&d.ending.to_string(), done, d.clean(), over_par);
        self.counted = true;
        self.keep(change, fx);
    }

    /// Counts a result in the record shown and asks for it to be saved: the runner merges it
    /// into the record on disk, with whatever other running Knightfalls saved, and hands the
    /// merged record back ([`Action::Trained`]).
    fn keep(&mut self, change: Change, fx: &mut Vec<Effect>) {
        change.apply(&mut self.progress);
        fx.push(Effect::SaveTraining(vec![change]));
    }
}

/// The message after a move: the verdict, and the result once the attempt is over.
fn said_of(drill: &Drill, v: &Verdict) -> String {
    let mut text = match (&drill.state, &v.better) {
        (State::Failed(why), Some(better)) => {
            format!("{}: {} {better} kept it.", v.played, lower_first(why))
        }
        (State::Failed(why), None) => format!("{}: {}", v.played, lower_first(why)),
        (_, None) => format!("{}: the tables' best.", v.played),
        (_, Some(better)) => format!("{} keeps it, but {better} was quicker.", v.played),
    };
    if let Some(reply) = &v.reply {
        text.push_str(&format!(" Reply: {reply}."));
    }
    if let Some(summary) = drill.summary().filter(|_| drill.state == State::Done) {
        text.push(' ');
        text.push_str(&summary);
        text.push_str(" Ctrl-N for the next.");
    }
    text
}

/// `text` with its first letter in lower case, to follow a colon.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}

fn role_name(role: shakmaty::Role) -> &'static str {
    match role {
        shakmaty::Role::King => "king",
        shakmaty::Role::Queen => "queen",
        shakmaty::Role::Rook => "rook",
        shakmaty::Role::Bishop => "bishop",
        shakmaty::Role::Knight => "knight",
        shakmaty::Role::Pawn => "pawn",
    }
}
