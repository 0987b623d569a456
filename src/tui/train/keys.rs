//! The training screen's keys and clicks: the key table, the commands its rows and the typed
//! words run, and the input line (a command, an ending or a FEN on the list, a move on the
//! board).

use std::str::FromStr;

use crossterm::event::{KeyCode, KeyEvent};
use shakmaty::Square;

use super::{OnBoard, Train};
use crate::game::Game;
use crate::theme::Theme;
use crate::train::{Difficulty, Drill, Ending};
use crate::tui::chrome::command::{self, Command, Common, Unknown};
use crate::tui::chrome::help::Help;
use crate::tui::chrome::keys::{self, KeyHelp, Keys, When, ctrl, key};
use crate::tui::chrome::run::{self, Screen};
use crate::tui::input;
use crate::tui::screen::{Effect, Tone};

/// The training screen's own commands (the ones every screen has are [`Common`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainCommand {
    /// The row above in the list.
    Up,
    /// The row below.
    Down,
    /// An easier start of the endings.
    Easier,
    /// A harder one.
    Harder,
    /// Enter: the line typed (a command, an ending or a FEN on the list, a move on the board),
    /// or with nothing typed on the list, the chosen row started.
    Enter,
    /// Esc: what is typed and the message go.
    Clear,
    /// `hint`: the piece to move, then the move.
    Hint,
    /// `undo`, `takeback`: the last move and the reply taken back (a mistake or a puzzle:
    /// tried again).
    Undo,
    /// `retry`: the position (or the puzzle) again.
    Retry,
    /// `next`: the next mistake or puzzle, or a new start of the ending.
    Next,
    /// `solution`: a puzzle's solution.
    Solution,
    /// `filter [MOTIF] [LOW-HIGH]`: the puzzles offered.
    Filter,
    /// `list`: back to the list.
    List,
    /// `fen`: the position's FEN.
    Fen,
}

impl FromStr for TrainCommand {
    type Err = Unknown;

    fn from_str(word: &str) -> Result<TrainCommand, Unknown> {
        Ok(match word.to_ascii_lowercase().as_str() {
            "hint" => TrainCommand::Hint,
            "undo" | "takeback" => TrainCommand::Undo,
            "retry" => TrainCommand::Retry,
            "next" => TrainCommand::Next,
            "solution" => TrainCommand::Solution,
            "filter" => TrainCommand::Filter,
            "list" => TrainCommand::List,
            "fen" => TrainCommand::Fen,
            _ => return Err(Unknown(word.to_string())),
        })
    }
}

const fn own(command: TrainCommand) -> Command<TrainCommand> {
    Command::Own(command)
}

/// The training screen's keys and commands. The first row with a key wins: Esc clears the
/// input line before it goes back.
pub const TRAIN_KEYS: &[KeyHelp<Command<TrainCommand>>] = &[
    keys::help(),
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), own(TrainCommand::Up)),
            (key(KeyCode::Down), own(TrainCommand::Down)),
        ]),
        shown: "↑ ↓",
        word: "",
        label: "↑↓ choose",
        help: "choose your mistakes, the puzzles or an ending (or type one, like KRvKP, or a FEN)",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Left), own(TrainCommand::Easier)),
            (key(KeyCode::Right), own(TrainCommand::Harder)),
        ]),
        shown: "← →",
        word: "",
        label: "←→ difficulty",
        help: "easy, medium or hard: short or long wins by the tables",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(TrainCommand::Enter)),
        shown: "Enter",
        word: "",
        label: "Enter start",
        help: "start: your mistakes that are due, a puzzle, or a drill of the chosen ending",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(TrainCommand::Enter)),
        shown: "Enter",
        word: "",
        label: "",
        help: "on a board: play the move typed, or run the command typed",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('t')], own(TrainCommand::Hint)),
        shown: "Ctrl-T",
        word: "hint",
        label: "^T hint",
        help: "a hint: first the piece to move, then the move",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('z')], own(TrainCommand::Undo)),
        shown: "Ctrl-Z",
        word: "undo",
        label: "^Z take back",
        help: "take back your last move and the reply",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('r')], own(TrainCommand::Retry)),
        shown: "Ctrl-R",
        word: "retry",
        label: "^R retry",
        help: "start this position (or puzzle) again",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('n')], own(TrainCommand::Next)),
        shown: "Ctrl-N",
        word: "next",
        label: "^N next",
        help: "the next mistake or puzzle, or a new start of the same ending",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('v')], own(TrainCommand::Solution)),
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
        help: "puzzles of one theme or rating range: filter fork, filter mate in 2, filter 1200-1600 (alone: all)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('q'))], own(TrainCommand::List)),
        shown: "q",
        word: "list",
        label: "q list",
        help: "back to the list",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Esc)], own(TrainCommand::Clear)),
        shown: "Esc",
        word: "",
        label: "",
        help: "clear what is typed and the message",
        when: When::Typing,
    },
    keys::back(
        "back",
        "q back",
        "opened from another screen: back to it",
        When::Opened,
    ),
    keys::back(
        "quit",
        "q quit",
        "started on its own (knightfall train): leave Knightfall",
        When::Alone,
    ),
    keys::exit(),
    KeyHelp {
        keys: Keys::All(&[ctrl('f')], Command::Common(Common::Flip)),
        shown: "Ctrl-F",
        word: "flip",
        label: "",
        help: "turn the board around",
        when: When::Playing,
    },
    keys::theme(),
    keys::fen(own(TrainCommand::Fen), When::Playing),
];

impl Train {
    /// Which rows of [`TRAIN_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        match when {
            When::Choosing => !self.on_board(),
            When::Playing => self.on_board(),
            // The input line on a board is for moves and takes Esc; on the list it takes Esc
            // only while an ending or a FEN is typed, and Esc goes back otherwise.
            When::Typing => self.on_board() || !self.input.is_empty(),
            When::Opened | When::Alone => {
                !self.on_board() && keys::opened_or_alone(when, self.from_game)
            }
            w => keys::opened_or_alone(w, self.from_game),
        }
    }

    /// The command `key` gives now, from [`TRAIN_KEYS`]; `None`: the key has no command here
    /// (a character is then typed on the input line).
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<TrainCommand>> {
        use TrainCommand::{Down, Easier, Harder, Up};
        match keys::command(TRAIN_KEYS, key, &self.input, |w| self.keys_apply(w))? {
            // The list stays as it is while an ending or a FEN is typed for it.
            Command::Own(Up | Down | Easier | Harder) if !self.input.is_empty() => None,
            command => Some(command),
        }
    }

    pub(super) fn on_click(&mut self, sq: Square, fx: &mut Vec<Effect>) {
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

    pub(super) fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        // The key that closes the notice does nothing else: it was pressed to close it.
        if self.notice.is_some() && !keys::is_exit(&key) {
            self.notice = None;
            return;
        }
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

    /// Runs a command given by its key or typed as a word (with what was typed after it).
    fn run(&mut self, command: Command<TrainCommand>, arg: Option<&str>, fx: &mut Vec<Effect>) {
        match command {
            Command::Common(common) => run::run(self, common, arg, fx),
            Command::Own(own) => self.command(own, arg, fx),
        }
    }

    /// Runs one of the screen's own commands.
    fn command(&mut self, command: TrainCommand, arg: Option<&str>, fx: &mut Vec<Effect>) {
        match command {
            TrainCommand::Up => self.choice = self.choice.saturating_sub(1),
            TrainCommand::Down => self.choice = (self.choice + 1).min(self.endings.len()),
            TrainCommand::Easier | TrainCommand::Harder => {
                let all = Difficulty::ALL;
                let i = all.iter().position(|&d| d == self.difficulty).unwrap_or(1);
                let j = if command == TrainCommand::Easier {
                    i.saturating_sub(1)
                } else {
                    (i + 1).min(all.len() - 1)
                };
                self.difficulty = all[j];
            }
            TrainCommand::Enter => {
                let text = std::mem::take(&mut self.input);
                self.submit(text.trim(), fx);
            }
            TrainCommand::Clear => {
                self.input.clear();
                self.message = None;
            }
            TrainCommand::List => {
                self.count(fx);
                self.board = OnBoard::List;
                self.hint = None;
                self.input.clear();
                self.message = None;
            }
            TrainCommand::Fen => {
                if let Some(fen) = self.board_game().map(Game::fen) {
                    self.say(fen, Tone::Info);
                }
            }
            TrainCommand::Hint => match self.board {
                OnBoard::Mistakes(_) => self.practice_hint(),
                OnBoard::Puzzle(_) => self.puzzle_hint(fx),
                OnBoard::Drill(_) | OnBoard::List => self.give_hint(),
            },
            TrainCommand::Undo | TrainCommand::Retry => {
                self.again(command == TrainCommand::Retry);
            }
            TrainCommand::Next => match self.board {
                OnBoard::Puzzle(_) => {
                    self.count_puzzle(false, fx);
                    self.start_puzzle();
                }
                OnBoard::Mistakes(_) => self.next_practice(),
                OnBoard::Drill(_) | OnBoard::List => {
                    self.count(fx);
                    self.start();
                }
            },
            TrainCommand::Solution => self.show_solution(fx),
            TrainCommand::Filter => self.set_filter(arg),
        }
    }

    /// Undo or retry: a puzzle or a mistake is tried again either way; a drill takes back the
    /// last move, or (`retry`) starts again.
    fn again(&mut self, retry: bool) {
        match &mut self.board {
            OnBoard::Puzzle(s) => {
                s.retry();
                self.hint = None;
                let task = s.task();
                self.say(format!("Again: {task}."), Tone::Info);
            }
            OnBoard::Mistakes(p) => {
                p.retry();
                self.hint = None;
                let task = p.task();
                self.say(task, Tone::Info);
            }
            OnBoard::Drill(d) if retry => {
                let d = &mut d.drill;
                d.retry();
                self.hint = None;
                let task = d.task();
                self.say(format!("Again from the start: {task}."), Tone::Info);
            }
            OnBoard::Drill(_) | OnBoard::List if !retry => {
                let taken = self.drill_mut().is_some_and(Drill::take_back);
                self.hint = None;
                if taken {
                    self.say("Taken back: your move.", Tone::Info);
                } else {
                    self.say("Nothing to take back.", Tone::Info);
                }
            }
            // Nothing on the board to start again.
            OnBoard::Drill(_) | OnBoard::List => {}
        }
    }

    /// A typed line: a command word that applies now, an ending or a FEN on the list, a move
    /// on the board.
    fn submit(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let (word, arg) = command::split(text);
        if let Ok(command) = word.parse::<Command<TrainCommand>>()
            && keys::offered(
                TRAIN_KEYS,
                command,
                |w| self.keys_apply(w),
                |word| word.parse().ok(),
            )
        {
            return self.run(command, arg, fx);
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
}

/// Training, as the common commands see it: a drill left unfinished counts as tried when it
/// goes.
impl Screen for Train {
    fn help(&mut self) -> &mut Help {
        &mut self.help
    }

    fn say(&mut self, text: String, tone: Tone) {
        Train::say(self, text, tone);
    }

    fn theme(&self) -> Theme {
        self.palette.theme
    }

    fn flipped(&mut self) -> Option<&mut bool> {
        Some(&mut self.flipped)
    }

    fn leaving(&mut self, fx: &mut Vec<Effect>) {
        self.count(fx);
    }
}
