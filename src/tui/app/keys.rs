//! Keys and clicks on the game screen: its key table and commands, the input line, board
//! browsing, piece selection and moves typed in UCI or SAN.

use std::str::FromStr;

use crossterm::event::{KeyCode, KeyEvent};
use shakmaty::{Position, Square};

use super::{App, Effect, Mode, Tone, color_name};
use crate::tui::chrome::command::{self, Command, Common, Unknown};
use crate::tui::chrome::keys::{self, KeyHelp, Keys, When, ctrl, key};
use crate::tui::input;

/// The game screen's own commands (the ones every screen has are [`Common`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameCommand {
    /// `review`: a finished game's review.
    Review,
    /// `pause`: pause watching, or resume it.
    Pause,
    /// `resume`: resume watching.
    Resume,
    /// `step`: one move while watching is paused.
    Step,
    /// `undo`: take back the last move (and the engine's reply).
    Undo,
    /// `hint`: the engine's suggestion.
    Hint,
    /// `draw`: offer a draw.
    Draw,
    /// `resign`: resign, once confirmed.
    Resign,
    /// `save [FILE]`: save the game as PGN.
    Save,
    /// `new`: the new-game screen.
    New,
    /// `home`: the home screen (play, review, board, train, watch, settings).
    Home,
    /// `board`: the analysis board at the move shown.
    Board,
    /// `moves`: the legal moves.
    Moves,
    /// `line`: show or hide the engine's expected line.
    Line,
    /// `eval`: show or hide the evaluation.
    Eval,
    /// `sound`: the bell on or off.
    Sound,
    /// `blindfold`: the pieces hidden or shown.
    Blindfold,
    /// `peek`: the hidden pieces shown for a moment.
    Peek,
    /// `fen`: the position's FEN.
    Fen,
    /// `say TEXT`: a line of chat to the friend.
    Say,
    /// `claim`: the win, once a friend whose link broke has been gone long enough.
    Claim,
    /// `yes`: the answer to a question, or another game after one ended.
    Yes,
    /// `no`: the answer to a question.
    No,
    /// The arrows, Home, End and the page keys: through the game's earlier positions.
    Browse(Browse),
    /// Esc: back to the game now; the line typed, the message and a premove go.
    Clear,
    /// Enter: the line typed, as a move or a command.
    Enter,
}

/// Where browsing takes the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Browse {
    /// A move back.
    Back,
    /// A move on.
    On,
    /// The start.
    Start,
    /// The game now.
    Now,
    /// Ten moves back.
    PageBack,
    /// Ten moves on.
    PageOn,
}

impl FromStr for GameCommand {
    type Err = Unknown;

    fn from_str(word: &str) -> Result<GameCommand, Unknown> {
        Ok(match word.to_ascii_lowercase().as_str() {
            "review" => GameCommand::Review,
            "pause" => GameCommand::Pause,
            "resume" => GameCommand::Resume,
            "step" => GameCommand::Step,
            "undo" => GameCommand::Undo,
            "hint" => GameCommand::Hint,
            "draw" => GameCommand::Draw,
            "resign" => GameCommand::Resign,
            "save" => GameCommand::Save,
            "new" => GameCommand::New,
            "home" | "menu" => GameCommand::Home,
            "board" => GameCommand::Board,
            "moves" => GameCommand::Moves,
            "line" => GameCommand::Line,
            "eval" => GameCommand::Eval,
            "sound" => GameCommand::Sound,
            "blindfold" => GameCommand::Blindfold,
            "peek" => GameCommand::Peek,
            "fen" => GameCommand::Fen,
            "say" | "chat" => GameCommand::Say,
            "claim" => GameCommand::Claim,
            "yes" => GameCommand::Yes,
            "no" => GameCommand::No,
            _ => return Err(Unknown(word.to_string())),
        })
    }
}

const fn own(command: GameCommand) -> Command<GameCommand> {
    Command::Own(command)
}

const fn browse(to: Browse) -> Command<GameCommand> {
    Command::Own(GameCommand::Browse(to))
}

/// The game screen's keys and commands. A letter without Ctrl counts only on an empty input
/// line (otherwise it is being typed). The first row with a key wins, so the answers to a
/// question come before the other use of Esc.
pub const GAME_KEYS: &[KeyHelp<Command<GameCommand>>] = &[
    keys::help(),
    KeyHelp {
        keys: Keys::All(&[ctrl('q'), ctrl('c')], Command::Common(Common::Back)),
        shown: "Ctrl-Q Ctrl-C",
        word: "quit",
        label: "^Q quit",
        help: "leave (the game is saved as PGN)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('r')), key(KeyCode::Char('R'))],
            own(GameCommand::Review),
        ),
        shown: "r",
        word: "review",
        label: "r review",
        help: "a finished game's review",
        when: When::Over,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('h'))], own(GameCommand::Home)),
        shown: "h",
        word: "home",
        label: "h home",
        help: "the home screen: play, review, the board, training, watching, the settings",
        when: When::Over,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char(' ')), ctrl('p')],
            own(GameCommand::Pause),
        ),
        shown: "Space Ctrl-P",
        word: "pause",
        label: "space pause",
        help: "watching: pause and resume",
        when: When::Watching,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('>'))], own(GameCommand::Step)),
        shown: ">",
        word: "step",
        label: "> step",
        help: "watching: one move while paused",
        when: When::Watching,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('z')], own(GameCommand::Undo)),
        shown: "Ctrl-Z",
        word: "undo",
        label: "^Z undo",
        help: "take back (your move and the engine's reply; a friend is asked first)",
        when: When::Always,
    },
    keys::flip(),
    keys::theme(),
    KeyHelp {
        keys: Keys::All(&[ctrl('t')], own(GameCommand::Hint)),
        shown: "Ctrl-T",
        word: "hint",
        label: "^T hint",
        help: "the engine's suggestion for your move",
        when: When::Engine,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('d')], own(GameCommand::Draw)),
        shown: "Ctrl-D",
        word: "draw",
        label: "^D draw",
        help: "offer a draw (the engine judges by its score; a friend answers)",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('r')], own(GameCommand::Resign)),
        shown: "Ctrl-R",
        word: "resign",
        label: "^R resign",
        help: "resign the game",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('s')], own(GameCommand::Save)),
        shown: "Ctrl-S",
        word: "save",
        label: "^S save",
        help: "save the game as PGN (save FILE: to that file)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('n')], own(GameCommand::New)),
        shown: "Ctrl-N",
        word: "new",
        label: "^N new",
        help: "new game: choose colour, opponent and clock",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('b')], own(GameCommand::Board)),
        shown: "Ctrl-B",
        word: "board",
        label: "^B board",
        help: "the analysis board at this move",
        when: When::Analysable,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('l')], own(GameCommand::Moves)),
        shown: "Ctrl-L",
        word: "moves",
        label: "^L moves",
        help: "list the legal moves",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('v')], own(GameCommand::Line)),
        shown: "Ctrl-V",
        word: "line",
        label: "^V line",
        help: "show or hide the engine's expected line",
        when: When::Engine,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('g')], own(GameCommand::Eval)),
        shown: "Ctrl-G",
        word: "eval",
        label: "^G eval",
        help: "show or hide the evaluation (kept in the config)",
        when: When::Engine,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('o')], own(GameCommand::Sound)),
        shown: "Ctrl-O",
        word: "sound",
        label: "^O sound",
        help: "bell at low time and flag fall: on/off",
        when: When::Playing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('x')], own(GameCommand::Blindfold)),
        shown: "Ctrl-X",
        word: "blindfold",
        label: "",
        help: "blindfold: hide the pieces, or show them again (kept in the config)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('w')], own(GameCommand::Peek)),
        shown: "Ctrl-W",
        word: "peek",
        label: "",
        help: "blindfold: show the pieces for three seconds",
        when: When::Always,
    },
    keys::fen(own(GameCommand::Fen), When::Always),
    KeyHelp {
        keys: Keys::None,
        shown: "say TEXT",
        word: "say",
        label: "say chat",
        help: "a line to your friend (Enter sends it)",
        when: When::Friend,
    },
    KeyHelp {
        keys: Keys::None,
        shown: "claim",
        word: "claim",
        label: "",
        help: "the win, when your friend has been gone 2:00 (draw: a draw)",
        when: When::Friend,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('y')), key(KeyCode::Char('Y'))],
            own(GameCommand::Yes),
        ),
        shown: "y",
        word: "yes",
        label: "y yes",
        help: "yes; after a game: play again with the same settings",
        when: When::Asking,
    },
    KeyHelp {
        keys: Keys::All(
            &[
                key(KeyCode::Char('n')),
                key(KeyCode::Char('N')),
                key(KeyCode::Esc),
            ],
            own(GameCommand::No),
        ),
        shown: "n Esc",
        word: "no",
        label: "n no",
        help: "answer no",
        when: When::Asking,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Left), browse(Browse::Back)),
            (key(KeyCode::Up), browse(Browse::Back)),
            (key(KeyCode::Right), browse(Browse::On)),
            (key(KeyCode::Down), browse(Browse::On)),
            (key(KeyCode::Home), browse(Browse::Start)),
            (key(KeyCode::End), browse(Browse::Now)),
            (key(KeyCode::PageUp), browse(Browse::PageBack)),
            (key(KeyCode::PageDown), browse(Browse::PageOn)),
            (key(KeyCode::Esc), own(GameCommand::Clear)),
        ]),
        shown: "←→↑↓ Home End",
        word: "",
        label: "←→ browse",
        help: "earlier positions (PgUp PgDn: ten moves; Esc: back)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(GameCommand::Enter)),
        shown: "Enter",
        word: "",
        label: "",
        help: "play the move typed, or run the command typed",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::None,
        shown: "a move",
        word: "",
        label: "",
        help: "premove: played after the engine's move (Esc cancels)",
        when: When::Playing,
    },
];

impl App {
    /// Which rows of [`GAME_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        let asking = self.offers.confirm.is_some() || self.offers.ask_again;
        match when {
            When::Always => true,
            When::Asking => asking,
            When::Over => self.game.is_over(),
            When::Playing => self.mode == Mode::Play && !self.game.is_over(),
            When::Watching => self.mode == Mode::Watch && !self.game.is_over(),
            When::InGame => !self.game.is_over(),
            When::Friend => self.remote.is_some() && !self.game.is_over(),
            When::Engine => {
                self.mode == Mode::Play && !self.game.is_over() && self.remote.is_none()
            }
            When::Analysable => self.analysable(),
            When::Opened
            | When::Alone
            | When::Choosing
            | When::Reviewing
            | When::Removable
            | When::Waiting
            | When::Typing => false,
        }
    }

    /// Whether the game may be looked into on the analysis board now: on the clock against the
    /// engine the board would be a way to cheat it, so not before the game is over.
    pub(super) fn analysable(&self) -> bool {
        self.game.is_over()
            || self.remote.is_none() && (self.game.clocks().is_none() || !self.person_vs_engine())
    }

    /// The command `key` gives now, from [`GAME_KEYS`]; `None`: the key has no command here
    /// (a character is then typed on the input line). A key offered only when it works is
    /// taken at other times too, so that pressing it says why it does nothing.
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<GameCommand>> {
        keys::command(GAME_KEYS, key, &self.line.text, |w| {
            w == When::Analysable || self.keys_apply(w)
        })
    }

    pub(super) fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        if self.help.takes(&key) {
            return;
        }
        match self.command_for(&key) {
            Some(command) => self.run(command, None, fx),
            None => {
                input::edit(&mut self.line.text, &key);
            }
        }
    }

    /// Takes the board through the game's earlier positions.
    pub(super) fn browse(&mut self, to: Browse) {
        let ply = self.shown_ply();
        match to {
            Browse::Back => {
                if ply > 0 {
                    self.view = Some(ply - 1);
                }
            }
            Browse::On => {
                if let Some(ply) = self.view {
                    self.view = (ply + 1 < self.game.ply()).then_some(ply + 1);
                }
            }
            Browse::Start => self.view = Some(0),
            Browse::Now => self.view = None,
            // A page of the move list: ten moves.
            Browse::PageBack => self.view = Some(ply.saturating_sub(20)),
            Browse::PageOn => self.view = (ply + 20 < self.game.ply()).then_some(ply + 20),
        }
    }

    /// Esc: back to the game now, with nothing typed, no message and no premove.
    pub(super) fn clear(&mut self) {
        self.line.text.clear();
        self.view = None;
        self.line.message = None;
        self.offers.premove = None;
    }

    pub(super) fn on_click(&mut self, sq: Square, fx: &mut Vec<Effect>) {
        if self.help.shown {
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

    /// A typed line: a command word (with its argument) or a move.
    pub(super) fn submit(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let (word, arg) = command::split(text);
        let parsed = word.parse::<Command<GameCommand>>();
        // Typing anything but an answer answers a pending question with no.
        if !matches!(parsed, Ok(Command::Own(GameCommand::Yes | GameCommand::No))) {
            if let Some(super::Confirm::Friend(offer)) = self.offers.confirm.take() {
                self.answer_friend(offer, false, fx);
            }
            self.offers.confirm = None;
        }
        if text.is_empty() {
            return;
        }
        match parsed {
            Ok(command) => self.run(command, arg, fx),
            // Watching engines, nothing typed is a move: a word that is no command is refused
            // as such.
            Err(unknown) if self.mode == Mode::Watch => self.say(unknown.to_string(), Tone::Error),
            Err(_) => self.try_move(text, fx),
        }
    }

    pub(super) fn try_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        if self.game.is_over() {
            self.say("The game is over: type new to play again.", Tone::Error);
            return;
        }
        // A move typed while looking at an earlier position is meant for the game: back to it.
        self.view = None;
        if self.link_lost() {
            self.say(
                "The link to your friend is lost: the game waits as it stands.",
                Tone::Error,
            );
            return;
        }
        let vs_engine = self.person_vs_engine();
        if !self.human_to_move() {
            if vs_engine {
                // A premove: tried the moment the engine has moved.
                self.offers.premove = Some(text.to_string());
                self.say(
                    format!(
                        "Premove {text}: played after {}'s move if legal (Esc cancels).",
                        self.opponent_word()
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
