//! The analysis board: both sides' moves are the player's (typed or clicked), every line tried is
//! kept (going back and playing another move starts a side line), and the engine analyses the
//! position shown, several best lines at once, beside the opening book's moves and, in tablebase
//! range, every move's tablebase verdict. The analysis stops at a cap (depth or time, whichever
//! comes first) so a board left alone goes quiet; Space goes deeper, any change starts afresh.

use std::path::PathBuf;
use std::time::Instant;

use std::str::FromStr;

use crossterm::event::{KeyCode, KeyEvent};
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use super::chrome::command::{self, Command, Common, Unknown};
use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, ctrl, key};
use super::chrome::run::{self, Screen};
use super::input;
use super::job::{EngineEvent, Mover, Purpose, Request, next_generation};
use super::screen::Palette;
use super::screen::{Action, Effect, Tone};
use crate::engine::{Info, Limits};
use crate::game::{Game, WallClock};
use crate::line_tree::Tree;
use crate::tablebase::{RootMove, Wdl};

/// Lines analysed at first.
pub(crate) const DEFAULT_LINES: u32 = 3;
/// The most lines the board shows.
pub(crate) const MAX_LINES: u32 = 10;
/// Where an analysis stops unless asked to go deeper: this depth or [`CAP_MS`], whichever is
/// first. Past depth 30 a position rarely changes its verdict, and 30 s is long to wait.
pub const CAP_DEPTH: u32 = 30;
/// The time cap of one analysis, in milliseconds.
pub const CAP_MS: u64 = 30_000;

/// The analysis board's own commands (the ones every screen has are [`Common`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardCommand {
    /// `deeper`: analyse on past the cap the analysis stopped at.
    Deeper,
    /// `more`: one line more.
    More,
    /// `fewer`: one line fewer.
    Fewer,
    /// `lines N`: that many lines.
    Lines,
    /// `main`: the line shown becomes the main line.
    Main,
    /// `save [FILE]`: every line as PGN.
    Save,
    /// `fen`: the position's FEN.
    Fen,
    /// The arrows, Home, End and the page keys: through the tree of lines.
    Browse(Browse),
    /// Esc: what is typed and the message go.
    Clear,
    /// Enter: the line typed, as a move or a command.
    Enter,
}

/// Where browsing takes the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Browse {
    /// A move back.
    Back,
    /// A move on, along the first move tried.
    On,
    /// The move tried before this one from the same position.
    Above,
    /// The move tried after this one from the same position.
    Below,
    /// The start.
    Start,
    /// The end of the line.
    End,
    /// Ten moves back.
    PageBack,
    /// Ten moves on.
    PageOn,
}

impl FromStr for BoardCommand {
    type Err = Unknown;

    fn from_str(word: &str) -> Result<BoardCommand, Unknown> {
        Ok(match word.to_ascii_lowercase().as_str() {
            "deeper" => BoardCommand::Deeper,
            "more" => BoardCommand::More,
            "fewer" => BoardCommand::Fewer,
            "lines" => BoardCommand::Lines,
            "main" => BoardCommand::Main,
            "save" => BoardCommand::Save,
            "fen" => BoardCommand::Fen,
            _ => return Err(Unknown(word.to_string())),
        })
    }
}

const fn own(command: BoardCommand) -> Command<BoardCommand> {
    Command::Own(command)
}

const fn browse(to: Browse) -> Command<BoardCommand> {
    Command::Own(BoardCommand::Browse(to))
}

/// The analysis board's keys and commands.
pub const BOARD_KEYS: &[KeyHelp<Command<BoardCommand>>] = &[
    keys::help(),
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('q'))], Command::Common(Common::Back)),
        shown: "q",
        word: "back",
        label: "q back",
        help: "opened from a game: back to it",
        when: When::Opened,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('q'))], Command::Common(Common::Back)),
        shown: "q",
        word: "quit",
        label: "q quit",
        help: "started on its own (knightfall board): leave the board",
        when: When::Alone,
    },
    keys::exit(),
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Left), browse(Browse::Back)),
            (key(KeyCode::Right), browse(Browse::On)),
        ]),
        shown: "← →",
        word: "",
        label: "←→ back/forward",
        help: "a move back, a move forward along the line",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), browse(Browse::Above)),
            (key(KeyCode::Down), browse(Browse::Below)),
        ]),
        shown: "↑ ↓",
        word: "",
        label: "↑↓ other line",
        help: "the other moves tried from the same position",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Home), browse(Browse::Start)),
            (key(KeyCode::End), browse(Browse::End)),
            (key(KeyCode::PageUp), browse(Browse::PageBack)),
            (key(KeyCode::PageDown), browse(Browse::PageOn)),
        ]),
        shown: "Home End PgUp PgDn",
        word: "",
        label: "",
        help: "the start, the end, ten moves back or on",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char(' '))], own(BoardCommand::Deeper)),
        shown: "Space",
        word: "deeper",
        label: "space deeper",
        help: "analyse deeper than where the analysis stopped",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('+'))], own(BoardCommand::More)),
        shown: "+",
        word: "more",
        label: "+/- lines",
        help: "analyse one line more (lines N: that many, up to 10)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('-'))], own(BoardCommand::Fewer)),
        shown: "-",
        word: "fewer",
        label: "",
        help: "analyse one line fewer",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('p')], own(BoardCommand::Main)),
        shown: "Ctrl-P",
        word: "main",
        label: "^P main line",
        help: "make the line shown the main line",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('s')], own(BoardCommand::Save)),
        shown: "Ctrl-S",
        word: "save",
        label: "^S save",
        help: "save every line as PGN (save FILE: to that file)",
        when: When::Always,
    },
    keys::flip(),
    keys::theme(),
    keys::fen(own(BoardCommand::Fen), When::Always),
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Esc)], own(BoardCommand::Clear)),
        shown: "Esc",
        word: "",
        label: "",
        help: "clear what is typed and the message",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(BoardCommand::Enter)),
        shown: "Enter",
        word: "",
        label: "",
        help: "play the move typed, or run the command typed",
        when: When::Always,
    },
];

/// One analysed line, as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The depth it was found at.
    pub depth: u32,
    /// The score from White's view (engine scale).
    pub score_white: i32,
    /// The line in SAN with move numbers.
    pub san: String,
}

/// Where the analysis of the position shown stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Searching.
    Running,
    /// Stopped at its cap, at this depth.
    Stopped(u32),
    /// Nothing to search: the game is over in this position.
    Over,
    /// The search failed.
    Failed,
}

/// The board's state.
pub struct Board {
    /// Every line played.
    pub tree: Tree,
    /// The position shown.
    pub at: usize,
    /// The game from the start to the position shown.
    pub game: Game,
    /// The input line.
    pub input: String,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// The help overlay.
    pub help: Help,
    /// Lines asked of the engine.
    pub lines_wanted: u32,
    /// The engine's lines for the position shown, best first.
    pub lines: Vec<Option<Line>>,
    /// The book's moves for the position shown: SAN and share of the weight in percent.
    pub book_moves: Vec<(String, u32)>,
    /// Every move's tablebase verdict for the position shown, best first: SAN and verdict.
    pub tb_moves: Vec<(String, String)>,
    /// The search counts for the position shown: nodes and nodes per second.
    pub nodes: (u64, u64),
    /// Where the analysis stands.
    pub progress: Progress,
    /// The analysis cap: depth and milliseconds.
    pub cap: (u32, u64),
    /// Where the tree was last saved, and whether it changed since.
    pub saved: (Option<PathBuf>, bool),
    /// Opened from a game: `q` goes back to it.
    pub from_game: bool,
    /// Board seen from Black's side.
    pub flipped: bool,
    /// Colours and glyphs.
    pub palette: Palette,
    /// The system clock as the runner read it, which dates a saved tree by the events' time
    /// (`None`, as in tests: saved undated).
    pub wall: Option<WallClock>,
    /// Another UCI engine to analyse with instead of Knightfall's own (`analysis_engine`).
    pub engine: Option<crate::external::EngineSpec>,
    /// The time of the last action.
    now: Option<Instant>,
    generation: u64,
}

impl Board {
    /// A board over `tree` at its node `at`; [`Board::start`] starts its analysis.
    pub fn new(tree: Tree, at: usize, palette: Palette, from_game: bool) -> Board {
        Board {
            game: tree.game_to(at),
            tree,
            at,
            input: String::new(),
            message: None,
            help: Help::default(),
            lines_wanted: DEFAULT_LINES,
            lines: Vec::new(),
            book_moves: Vec::new(),
            tb_moves: Vec::new(),
            nodes: (0, 0),
            progress: Progress::Running,
            cap: (CAP_DEPTH, CAP_MS),
            saved: (None, false),
            from_game,
            flipped: false,
            palette,
            wall: None,
            engine: None,
            now: None,
            generation: 0,
        }
    }

    /// The effects that start the board: the analysis of the position shown.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        // A message from before the start (a book or a table that did not load) stays.
        let said = self.message.take();
        self.show(self.at, &mut fx);
        self.message = match (said, self.message.take()) {
            (Some((a, tone)), Some((b, _))) => Some((format!("{b} {a}"), tone)),
            (said, shown) => said.or(shown),
        };
        fx
    }

    /// What must be kept when the board goes: its lines, saved if they changed.
    pub(crate) fn farewell(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        if self.saved.1 && self.tree.len() > 1 {
            self.save(None, &mut fx);
            self.saved.1 = false;
        }
        fx
    }

    /// Which rows of [`BOARD_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        keys::opened_or_alone(when, self.from_game)
    }

    /// The board as drawn: the position shown with its last move, the selection and targets.
    pub fn pos(&self) -> &Chess {
        &self.tree.node(self.at).pos
    }

    /// The move that led to the position shown.
    pub(crate) fn last_move(&self) -> Option<Move> {
        self.game.moves().last().copied()
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, now: Instant) -> Vec<Effect> {
        self.now = Some(now);
        let mut fx = Vec::new();
        match action {
            Action::Key(k) => self.on_key(k, &mut fx),
            Action::Click(sq) => {
                if self.help.shown {
                    return fx;
                }
                match input::take_click(&self.game, &mut self.input, sq) {
                    input::Taken::Play(text) => self.try_move(&text, &mut fx),
                    input::Taken::AskPromotion => self.say(input::PROMOTE_ASKED, Tone::Info),
                    input::Taken::Done => {}
                }
            }
            Action::Engine(ev) => self.on_engine(ev),
            Action::Note(text, tone) => self.say(text, tone),
            Action::Saved(path) => {
                self.say(format!("Saved to {}", path.display()), Tone::Info);
                self.saved = (Some(path), false);
            }
            Action::Front => self.restart(&mut fx),
            Action::Tick
            | Action::Graph { .. }
            | Action::Play(_)
            | Action::Trained(_)
            | Action::GameRead { .. }
            | Action::Peer(_)
            | Action::Meeting(_)
            | Action::Kept(..)
            | Action::Checked(..) => {}
        }
        fx
    }

    fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Some((text.into(), tone));
    }

    /// Shows node `at` and starts its analysis.
    fn show(&mut self, at: usize, fx: &mut Vec<Effect>) {
        self.at = at;
        self.game = self.tree.game_to(at);
        self.message = self
            .game
            .outcome()
            .map(|o| (format!("{}.", o.announce()), Tone::Info));
        self.book_moves.clear();
        self.tb_moves.clear();
        self.cap = (CAP_DEPTH, CAP_MS);
        self.restart(fx);
    }

    /// Stops the analysis under way and starts one of the position shown, to the cap.
    fn restart(&mut self, fx: &mut Vec<Effect>) {
        self.generation = next_generation();
        self.lines = vec![None; self.lines_wanted as usize];
        self.nodes = (0, 0);
        let pos = self.pos().clone();
        if pos.legal_moves().is_empty() {
            self.lines.clear();
            self.progress = Progress::Over;
            fx.push(Effect::Stop);
            return;
        }
        self.progress = Progress::Running;
        let limits = Limits {
            depth: Some(self.cap.0),
            movetime: Some(self.cap.1),
            multipv: self.lines_wanted,
            ..Limits::default()
        };
        fx.push(Effect::Search(Box::new(Request {
            generation: self.generation,
            purpose: Purpose::Analyse,
            pos,
            history: self.game.history_keys().to_vec(),
            limits,
            mover: match &self.engine {
                Some(spec) => Mover::External(spec.clone()),
                None => Mover::Knightfall,
            },
            start_fen: self.game.start_fen().map(str::to_string),
            moves: self.game.moves().to_vec(),
        })));
    }

    fn on_engine(&mut self, ev: EngineEvent) {
        match ev {
            EngineEvent::Info { generation, info } if generation == self.generation => {
                self.take(&info);
            }
            EngineEvent::Sources {
                generation,
                book,
                tablebase,
            } if generation == self.generation => self.take_sources(&book, &tablebase),
            EngineEvent::Done { generation, .. } if generation == self.generation => {
                let depth = self.lines.iter().flatten().map(|l| l.depth).max();
                self.progress = Progress::Stopped(depth.unwrap_or(0));
            }
            EngineEvent::Failed {
                generation,
                message,
            } if generation == self.generation => {
                self.progress = Progress::Failed;
                self.say(
                    format!("The analysis failed ({message}); move or press Space to try again."),
                    Tone::Error,
                );
            }
            EngineEvent::Warning(text) => self.say(text, Tone::Error),
            _ => {}
        }
    }

    /// Takes in an analysis report.
    fn take(&mut self, info: &Info) {
        let pos = self.pos();
        let k = info.multipv.max(1) as usize - 1;
        let line = Line {
            depth: info.depth,
            score_white: pos.turn().fold_wb(info.score, -info.score),
            san: crate::pgn::numbered_san(pos, info.pv.iter().take(12)),
        };
        if let Some(slot) = self.lines.get_mut(k) {
            *slot = Some(line);
        }
        self.nodes = (info.nodes, info.nps);
    }

    /// Takes in the book's moves and the tablebase verdicts of the position shown.
    fn take_sources(&mut self, book: &[(Move, u16)], tablebase: &[RootMove]) {
        let pos = self.pos().clone();
        let total: u32 = book.iter().map(|&(_, w)| u32::from(w)).sum();
        self.book_moves = book
            .iter()
            .map(|&(m, w)| {
                (
                    SanPlus::from_move(pos.clone(), m).to_string(),
                    (u32::from(w) * 100).checked_div(total).unwrap_or(0),
                )
            })
            .collect();
        self.tb_moves = tablebase
            .iter()
            .map(|r| {
                let verdict = match r.wdl {
                    Wdl::Win => format!("win, DTZ {}", r.dtz.abs()),
                    Wdl::Loss => format!("loss, DTZ {}", r.dtz.abs()),
                    Wdl::CursedWin => "win, but for the 50-move rule".to_string(),
                    Wdl::BlessedLoss => "loss, but for the 50-move rule".to_string(),
                    Wdl::Draw => "draw".to_string(),
                };
                (SanPlus::from_move(pos.clone(), r.mv).to_string(), verdict)
            })
            .collect();
    }

    /// The player's move `m` from the position shown: into the tree, and shown.
    fn play(&mut self, m: Move, fx: &mut Vec<Effect>) {
        let before = self.tree.len();
        let next = self.tree.play(self.at, m);
        if next == self.at {
            self.say("The board holds as many positions as it can.", Tone::Error);
            return;
        }
        let from = self.at;
        self.show(next, fx);
        if self.tree.len() > before {
            self.saved.1 = true;
            let tried = self.tree.node(from).children.len();
            if tried > 1 && self.message.is_none() {
                self.say(
                    format!(
                        "A side line: {tried} moves tried from the position before (↑↓ switch)."
                    ),
                    Tone::Info,
                );
            }
        }
    }

    /// The node one line over (`down`: the next move tried from the same position).
    fn sibling(&self, down: bool) -> Option<usize> {
        let (parent, _) = self.tree.node(self.at).parent?;
        let children = &self.tree.node(parent).children;
        let k = children.iter().position(|&c| c == self.at)?;
        let j = if down { k + 1 } else { k.checked_sub(1)? };
        children.get(j).copied()
    }

    /// The node `n` moves along the line from the one shown: back towards the start, or on
    /// along the first moves.
    fn along(&self, n: i32) -> usize {
        let mut at = self.at;
        for _ in 0..n.unsigned_abs() {
            let next = if n < 0 {
                self.tree.node(at).parent.map(|(p, _)| p)
            } else {
                self.tree.node(at).children.first().copied()
            };
            match next {
                Some(x) => at = x,
                None => break,
            }
        }
        at
    }

    /// The date of the last action, as a PGN `Date` (unknown without a wall clock).
    fn date(&self) -> String {
        match (self.wall, self.now) {
            (Some(wall), Some(now)) => wall.at(now).date(),
            _ => "????.??.??".to_string(),
        }
    }

    /// Asks for the tree to be saved as PGN with its side lines: to `file`, or to the file it
    /// was saved to before, or a new file in the games folder.
    fn save(&mut self, file: Option<&str>, fx: &mut Vec<Effect>) {
        let tags = [
            ("Event", "Knightfall analysis".to_string()),
            ("Site", "Knightfall".to_string()),
            ("Date", self.date()),
            ("White", "?".to_string()),
            ("Black", "?".to_string()),
            ("Result", "*".to_string()),
        ];
        fx.push(Effect::SaveLines {
            file: file.map(PathBuf::from).or_else(|| self.saved.0.clone()),
            prefix: "analysis",
            text: self.tree.to_pgn(&tags),
        });
    }

    /// The command `key` gives now, from [`BOARD_KEYS`]; `None`: the key has no command here
    /// (a character is then typed on the input line).
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<BoardCommand>> {
        match keys::command(BOARD_KEYS, key, &self.input, |w| self.keys_apply(w))? {
            // A move half typed is for the position shown: the board stays on it.
            Command::Own(BoardCommand::Browse(_)) if !self.input.is_empty() => None,
            command => Some(command),
        }
    }

    fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        if self.help.takes(&key) {
            return;
        }
        match self.command_for(&key) {
            Some(command) => self.run(command, None, fx),
            None => {
                input::edit(&mut self.input, &key);
            }
        }
    }

    /// Shows the node `to` names, if it is another.
    fn browse(&mut self, to: Browse, fx: &mut Vec<Effect>) {
        let target = match to {
            Browse::Back => self.tree.node(self.at).parent.map(|(p, _)| p),
            Browse::On => self.tree.node(self.at).children.first().copied(),
            Browse::Above | Browse::Below => {
                let s = self.sibling(to == Browse::Below);
                if s.is_none() {
                    self.say("No other move was tried here.", Tone::Info);
                }
                s
            }
            Browse::Start => Some(0),
            Browse::End => Some(self.along(i32::MAX)),
            // Ten moves (twenty plies) along the line shown, as the game's move list pages.
            Browse::PageBack => Some(self.along(-20)),
            Browse::PageOn => Some(self.along(20)),
        };
        if let Some(at) = target.filter(|&t| t != self.at) {
            self.show(at, fx);
        }
    }

    fn set_lines(&mut self, n: u32, fx: &mut Vec<Effect>) {
        let n = n.clamp(1, MAX_LINES);
        if n != self.lines_wanted {
            self.lines_wanted = n;
            self.restart(fx);
        }
        self.say(format!("Analysing {n} lines."), Tone::Info);
    }

    /// Runs a command given by its key or typed as a word (with what was typed after it).
    fn run(&mut self, command: Command<BoardCommand>, arg: Option<&str>, fx: &mut Vec<Effect>) {
        match command {
            Command::Common(common) => run::run(self, common, arg, fx),
            Command::Own(own) => self.command(own, arg, fx),
        }
    }

    /// Runs one of the board's own commands.
    fn command(&mut self, command: BoardCommand, arg: Option<&str>, fx: &mut Vec<Effect>) {
        match command {
            BoardCommand::Browse(to) => self.browse(to, fx),
            BoardCommand::Clear => {
                self.input.clear();
                self.message = None;
            }
            BoardCommand::Enter => {
                let text = std::mem::take(&mut self.input);
                self.submit(text.trim(), fx);
            }
            BoardCommand::Save => self.save(arg, fx),
            BoardCommand::Main => {
                let main = self
                    .tree
                    .path(self.at)
                    .windows(2)
                    .all(|w| self.tree.node(w[0]).children.first() == Some(&w[1]));
                if main {
                    self.say("This is the main line already.", Tone::Info);
                } else {
                    self.tree.promote(self.at);
                    self.saved.1 = true;
                    self.say("This line is now the main line.", Tone::Info);
                }
            }
            BoardCommand::More => self.set_lines(self.lines_wanted + 1, fx),
            BoardCommand::Fewer => self.set_lines(self.lines_wanted.saturating_sub(1), fx),
            BoardCommand::Lines => match arg.and_then(|w| w.parse::<u32>().ok()) {
                Some(n) if (1..=MAX_LINES).contains(&n) => self.set_lines(n, fx),
                _ => self.say(
                    format!("lines takes a number from 1 to {MAX_LINES}"),
                    Tone::Error,
                ),
            },
            BoardCommand::Deeper => match self.progress {
                Progress::Over => self.say("The game is over in this position.", Tone::Info),
                Progress::Running => self.say(
                    format!(
                        "Analysing to depth {} or {} s.",
                        self.cap.0,
                        self.cap.1 / 1000
                    ),
                    Tone::Info,
                ),
                Progress::Stopped(_) | Progress::Failed => {
                    if self.progress != Progress::Failed {
                        self.cap = (self.cap.0 + 10, self.cap.1 + CAP_MS);
                    }
                    self.restart(fx);
                    self.say(
                        format!(
                            "Going deeper: to depth {} or {} s.",
                            self.cap.0,
                            self.cap.1 / 1000
                        ),
                        Tone::Info,
                    );
                }
            },
            BoardCommand::Fen => {
                let fen = self.tree.fen(self.at);
                self.say(fen, Tone::Info);
            }
        }
    }

    /// A typed line: a command word (with its argument) or a move.
    fn submit(&mut self, text: &str, fx: &mut Vec<Effect>) {
        if text.is_empty() {
            return;
        }
        let (word, arg) = command::split(text);
        match word.parse::<Command<BoardCommand>>() {
            Ok(command) => self.run(command, arg, fx),
            Err(_) => self.try_move(text, fx),
        }
    }

    fn try_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        // A square alone with one of the mover's pieces on it selects it.
        if let Some(from) = input::selected(text, self.pos()) {
            self.input = from.to_string();
            self.say(
                format!("{from} selected: type or click its target."),
                Tone::Info,
            );
            return;
        }
        match self.game.parse_move(text) {
            Ok(m) => self.play(m, fx),
            Err(e) => self.say(e.to_string(), Tone::Error),
        }
    }
}

/// The board, as the common commands see it: its lines are saved and its analysis stopped
/// when it goes.
impl Screen for Board {
    fn help(&mut self) -> &mut Help {
        &mut self.help
    }

    fn say(&mut self, text: String, tone: Tone) {
        Board::say(self, text, tone);
    }

    fn theme(&self) -> crate::theme::Theme {
        self.palette.theme
    }

    fn flipped(&mut self) -> Option<&mut bool> {
        Some(&mut self.flipped)
    }

    fn leaving(&mut self, fx: &mut Vec<Effect>) {
        fx.extend(self.farewell());
        fx.push(Effect::Stop);
    }
}
