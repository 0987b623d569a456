//! The training screen's keys and clicks: the key table, the commands its rows and the typed
//! words run, and the input line (a command, an ending or a FEN on the list, a move on the
//! board).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::Square;

use super::{OnBoard, Train};
use crate::game::Game;
use crate::train::{Difficulty, Drill, Ending};
use crate::tui::input;
use crate::tui::keys::{self, KeyHelp, When, ctrl, key};
use crate::tui::screen::{Effect, Tone};

/// The training screen's keys and commands.
pub const TRAIN_KEYS: &[KeyHelp] = &[
    keys::HELP,
    KeyHelp {
        keys: &[key(KeyCode::Up), key(KeyCode::Down)],
        shown: "↑ ↓",
        word: "",
        label: "↑↓ choose",
        help: "choose your mistakes, the puzzles or an ending (or type one, like KRvKP, or a FEN)",
        when: When::Choosing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Left), key(KeyCode::Right)],
        shown: "← →",
        word: "",
        label: "←→ difficulty",
        help: "easy, medium or hard: short or long wins by the tables",
        when: When::Choosing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Enter)],
        shown: "Enter",
        word: "",
        label: "Enter start",
        help: "start: your mistakes that are due, a puzzle, or a drill of the chosen ending",
        when: When::Choosing,
    },
    KeyHelp {
        keys: &[ctrl('t')],
        shown: "Ctrl-T",
        word: "hint",
        label: "^T hint",
        help: "a hint: first the piece to move, then the move",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('z')],
        shown: "Ctrl-Z",
        word: "undo",
        label: "^Z take back",
        help: "take back your last move and the reply",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('r')],
        shown: "Ctrl-R",
        word: "retry",
        label: "^R retry",
        help: "start this position (or puzzle) again",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('n')],
        shown: "Ctrl-N",
        word: "next",
        label: "^N next",
        help: "the next mistake or puzzle, or a new start of the same ending",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('v')],
        shown: "Ctrl-V",
        word: "solution",
        label: "",
        help: "a puzzle's solution (it then counts as not solved)",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[],
        shown: "",
        word: "filter",
        label: "",
        help: "puzzles of one theme or rating range: filter fork, filter 1200-1600 (alone: all)",
        when: When::Always,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('q'))],
        shown: "q",
        word: "list",
        label: "q list",
        help: "back to the list",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Esc), key(KeyCode::Char('q'))],
        shown: "Esc q",
        word: "back",
        label: "q back",
        help: "back to where training was opened from",
        when: When::Opened,
    },
    KeyHelp {
        keys: &[key(KeyCode::Esc), key(KeyCode::Char('q'))],
        shown: "Esc q",
        word: "quit",
        label: "q quit",
        help: "leave Knightfall",
        when: When::Alone,
    },
    keys::EXIT,
    KeyHelp {
        keys: &[ctrl('f')],
        shown: "Ctrl-F",
        word: "flip",
        label: "",
        help: "turn the board around",
        when: When::Playing,
    },
    keys::THEME,
    KeyHelp {
        keys: &[ctrl('e')],
        shown: "Ctrl-E",
        word: "fen",
        label: "",
        help: "show the position's FEN",
        when: When::Playing,
    },
];

impl Train {
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

    pub(super) fn on_click(&mut self, sq: Square, fx: &mut Vec<Effect>) {
        if self.show_help {
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
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if self.show_help && !keys::is_exit(&key) {
            self.show_help = false;
            return;
        }
        let typing = !self.input.is_empty();
        // Enter, the arrows and Esc (while typing) act on the list or the input line, below.
        let own = matches!(
            key.code,
            KeyCode::Enter | KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
        ) || (typing && key.code == KeyCode::Esc);
        if !own
            && let Some(row) =
                keys::command_row(TRAIN_KEYS, &key, &self.input, |w| self.keys_apply(w))
        {
            return self.command(row.word, None, fx);
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
            "help" => self.show_help = true,
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
                self.board = OnBoard::List;
                self.hint = None;
                self.input.clear();
                self.message = None;
            }
            "theme" => match keys::theme_after(self.palette.theme, arg) {
                Ok(theme) => {
                    fx.push(Effect::Theme(theme));
                    self.say(keys::theme_said(theme), Tone::Info);
                }
                Err(e) => self.say(e, Tone::Error),
            },
            "flip" => self.flipped = !self.flipped,
            "fen" => {
                if let Some(fen) = self.board_game().map(Game::fen) {
                    self.say(fen, Tone::Info);
                }
            }
            "hint" if self.practice().is_some() => self.practice_hint(),
            "hint" if self.solve().is_some() => self.puzzle_hint(fx),
            "undo" | "retry" if self.solve().is_some() => {
                if let OnBoard::Puzzle(s) = &mut self.board {
                    s.retry();
                    self.hint = None;
                    let task = s.task();
                    self.say(format!("Again: {task}."), Tone::Info);
                }
            }
            "next" if self.solve().is_some() => {
                self.count_puzzle(false, fx);
                self.start_puzzle();
            }
            "solution" => self.show_solution(fx),
            "filter" => self.set_filter(arg),
            "hint" => self.give_hint(),
            "undo" | "retry" if self.practice().is_some() => {
                if let OnBoard::Mistakes(p) = &mut self.board {
                    p.retry();
                    self.hint = None;
                    let task = p.task();
                    self.say(task, Tone::Info);
                }
            }
            "next" if self.practice().is_some() => self.next_practice(),
            "undo" => {
                let taken = self.drill_mut().is_some_and(Drill::take_back);
                self.hint = None;
                if taken {
                    self.say("Taken back: your move.", Tone::Info);
                } else {
                    self.say("Nothing to take back.", Tone::Info);
                }
            }
            "retry" => {
                if let OnBoard::Drill(d) = &mut self.board {
                    let d = &mut d.drill;
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
}
