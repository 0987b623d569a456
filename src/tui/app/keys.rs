//! Keys and clicks on the game screen: the input line, board browsing, piece selection and
//! moves typed in UCI or SAN.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Position, Square};

use super::{App, Effect, Mode, Tone, color_name};
use crate::tui::input;
use crate::tui::keys::{self, KeyHelp, When, ctrl, key};

/// The game screen's keys and commands. A letter without Ctrl counts only on an empty input
/// line (otherwise it is being typed); rows without keys are the screen's own navigation.
pub const GAME_KEYS: &[KeyHelp] = &[
    keys::HELP,
    KeyHelp {
        keys: &[ctrl('q'), ctrl('c')],
        shown: "Ctrl-Q Ctrl-C",
        word: "quit",
        label: "^Q quit",
        help: "leave (the game is saved as PGN)",
        when: When::Always,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('r')), key(KeyCode::Char('R'))],
        shown: "r",
        word: "review",
        label: "r review",
        help: "a finished game's review",
        when: When::Over,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char(' ')), ctrl('p')],
        shown: "Space Ctrl-P",
        word: "pause",
        label: "space pause",
        help: "watching: pause and resume",
        when: When::Watching,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('>'))],
        shown: ">",
        word: "step",
        label: "> step",
        help: "watching: one move while paused",
        when: When::Watching,
    },
    KeyHelp {
        keys: &[ctrl('z')],
        shown: "Ctrl-Z",
        word: "undo",
        label: "^Z undo",
        help: "take back (your move and the engine's reply)",
        when: When::Always,
    },
    keys::FLIP,
    keys::THEME,
    KeyHelp {
        keys: &[ctrl('t')],
        shown: "Ctrl-T",
        word: "hint",
        label: "^T hint",
        help: "the engine's suggestion for your move",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('d')],
        shown: "Ctrl-D",
        word: "draw",
        label: "^D draw",
        help: "offer a draw (the engine judges by its score)",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('r')],
        shown: "Ctrl-R",
        word: "resign",
        label: "^R resign",
        help: "resign the game",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('s')],
        shown: "Ctrl-S",
        word: "save",
        label: "^S save",
        help: "save the game as PGN (save FILE: to that file)",
        when: When::Always,
    },
    KeyHelp {
        keys: &[ctrl('n')],
        shown: "Ctrl-N",
        word: "new",
        label: "^N new",
        help: "new game: choose colour, opponent and clock",
        when: When::Always,
    },
    KeyHelp {
        keys: &[ctrl('b')],
        shown: "Ctrl-B",
        word: "board",
        label: "^B board",
        help: "the analysis board at this move",
        when: When::Always,
    },
    KeyHelp {
        keys: &[ctrl('l')],
        shown: "Ctrl-L",
        word: "moves",
        label: "^L moves",
        help: "list the legal moves",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('v')],
        shown: "Ctrl-V",
        word: "line",
        label: "^V line",
        help: "show or hide the engine's expected line",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('g')],
        shown: "Ctrl-G",
        word: "eval",
        label: "^G eval",
        help: "show or hide the evaluation (kept in the config)",
        when: When::Playing,
    },
    KeyHelp {
        keys: &[ctrl('o')],
        shown: "Ctrl-O",
        word: "sound",
        label: "^O sound",
        help: "bell on the engine's moves and at low time: on/off",
        when: When::Playing,
    },
    keys::FEN,
    KeyHelp {
        keys: &[],
        shown: "←→ Home End",
        word: "",
        label: "←→ browse",
        help: "earlier positions (PgUp PgDn: ten moves; Esc: back)",
        when: When::Always,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('y')), key(KeyCode::Char('Y'))],
        shown: "y",
        word: "yes",
        label: "y yes",
        help: "yes; after a game: play again with the same settings",
        when: When::Asking,
    },
    KeyHelp {
        keys: &[
            key(KeyCode::Char('n')),
            key(KeyCode::Char('N')),
            key(KeyCode::Esc),
        ],
        shown: "n Esc",
        word: "no",
        label: "n no",
        help: "answer no",
        when: When::Asking,
    },
];

impl App {
    /// Which rows of [`GAME_KEYS`] apply now.
    pub(crate) fn keys_apply(&self, when: When) -> bool {
        let asking = self.offers.confirm.is_some() || self.offers.ask_again;
        match when {
            When::Always => true,
            When::Asking => asking,
            When::Over => self.game.is_over(),
            When::Playing => self.mode == Mode::Play && !self.game.is_over(),
            When::Watching => self.mode == Mode::Watch && !self.game.is_over(),
            When::InGame => !self.game.is_over(),
            When::Opened | When::Alone | When::Choosing | When::Reviewing => false,
        }
    }

    pub(super) fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            fx.push(Effect::Stop);
            fx.push(Effect::Quit);
            return;
        }
        if self.show_help {
            // Any key closes the help.
            self.show_help = false;
            return;
        }
        if let Some(row) =
            keys::command_row(GAME_KEYS, &key, &self.line.text, |w| self.keys_apply(w))
            && !row.word.is_empty()
        {
            self.command(row.word, None, fx);
            return;
        }
        if ctrl {
            return;
        }
        match key.code {
            _ if input::edit(&mut self.line.text, &key) => {}
            KeyCode::Esc => {
                self.line.text.clear();
                self.view = None;
                self.line.message = None;
                self.offers.premove = None;
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.line.text);
                self.submit(text.trim(), fx);
            }
            KeyCode::Left | KeyCode::Up => {
                let ply = self.shown_ply();
                if ply > 0 {
                    self.view = Some(ply - 1);
                }
            }
            KeyCode::Right | KeyCode::Down => {
                if let Some(ply) = self.view {
                    self.view = (ply + 1 < self.game.ply()).then_some(ply + 1);
                }
            }
            KeyCode::Home => self.view = Some(0),
            KeyCode::End => self.view = None,
            // A page of the move list: ten moves.
            KeyCode::PageUp => self.view = Some(self.shown_ply().saturating_sub(20)),
            KeyCode::PageDown => {
                let ply = self.shown_ply() + 20;
                self.view = (ply < self.game.ply()).then_some(ply);
            }
            _ => {}
        }
    }

    pub(super) fn on_click(&mut self, sq: Square, fx: &mut Vec<Effect>) {
        if self.show_help {
            return;
        }
        match input::take_click(&self.game, &mut self.line.text, sq) {
            input::Taken::Play(text) => self.submit(&text, fx),
            input::Taken::AskPromotion => self.say(input::PROMOTE_ASKED, Tone::Info),
            input::Taken::Done => {}
        }
    }

    /// The square typed so far when the input names one of the mover's pieces.
    pub fn selected(&self) -> Option<Square> {
        input::selected(&self.line.text, self.game.position())
    }

    /// Legal targets of the selected piece, for highlighting.
    pub fn targets(&self) -> Vec<Square> {
        self.selected()
            .map(|from| input::targets(self.game.position(), from))
            .unwrap_or_default()
    }

    pub(super) fn submit(&mut self, text: &str, fx: &mut Vec<Effect>) {
        // Typing something else answers a pending question with no.
        self.offers.confirm = None;
        if text.is_empty() {
            return;
        }
        let (word, arg) = match text.split_once(char::is_whitespace) {
            Some((w, a)) => (w, Some(a.trim())),
            None => (text, None),
        };
        let lower = word.to_ascii_lowercase();
        // The table's words, and a few other spellings.
        let known = GAME_KEYS
            .iter()
            .any(|row| row.word == lower && row.word != "yes" && row.word != "no")
            || ["exit", "q", "resume"].contains(&lower.as_str());
        if known {
            self.command(&lower, arg, fx);
            return;
        }
        self.try_move(text, fx);
    }

    pub(super) fn try_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        if self.game.is_over() {
            self.say("The game is over: type new to play again.", Tone::Error);
            return;
        }
        // A move typed while looking at an earlier position is meant for the game: back to it.
        self.view = None;
        let vs_engine = self.person_vs_engine();
        if !self.human_to_move() {
            if vs_engine {
                // A premove: tried the moment the engine has moved.
                self.offers.premove = Some(text.to_string());
                self.say(
                    format!(
                        "Premove {text}: played after the engine's move if legal (Esc cancels)."
                    ),
                    Tone::Info,
                );
            } else {
                self.say(
                    format!(
                        "Not your move: the engine plays {}.",
                        color_name(self.game.turn())
                    ),
                    Tone::Error,
                );
            }
            return;
        }
        // A square alone with one of your pieces on it selects it (its targets light up).
        let own = text.trim().parse::<Square>().ok().filter(|&sq| {
            let pos = self.game.position();
            pos.board()
                .piece_at(sq)
                .is_some_and(|p| p.color == pos.turn())
        });
        if let Some(from) = own {
            self.line.text = from.to_string();
            let example = self
                .targets()
                .first()
                .map(|t| format!(" (e.g. {from}{t})"))
                .unwrap_or_default();
            self.say(
                format!("{from} selected: type or click its target{example}."),
                Tone::Info,
            );
            return;
        }
        match self.game.parse_move(text) {
            Ok(m) => {
                self.view = None;
                self.play_move(m, fx);
            }
            Err(e) => self.say(format!("{e}"), Tone::Error),
        }
    }
}
