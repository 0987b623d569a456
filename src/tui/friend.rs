//! The friend screen: host a game (your colour, the clock, the port) and wait for the friend
//! with the code and addresses it shows, or join one with the code and address the friend's
//! Knightfall shows; a game against a friend left unfinished is resumed from here too. The
//! wait runs in the background ([`Effect::Meet`]); once the two have met, the game below plays
//! against the friend.

use std::net::SocketAddr;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::Color;

use super::chrome::command::Command;
use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, ctrl, key};
use super::chrome::run::{self, Boardless};
use super::screen::{Action, Effect, Heard, Meet, Palette, Tone};
use crate::net::channel::Role;
use crate::net::code::Code;
use crate::net::message::Colour;
use crate::net::record::Seat;
use crate::store::Unfinished;
use crate::store::settings::TC_CHOICES;

/// The friend screen's own commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FriendCommand {
    /// The row above.
    Up,
    /// The row below.
    Down,
    /// The choice before, on the row.
    Before,
    /// The next choice, on the row.
    Next,
    /// Clear the row's text.
    Clear,
    /// Host or join, as the row chosen says.
    Start,
    /// Stop waiting for the friend.
    CallOff,
}

const fn own(command: FriendCommand) -> Command<FriendCommand> {
    Command::Own(command)
}

/// The friend screen's keys. While it waits for the friend, Esc stops waiting.
pub const FRIEND_KEYS: &[KeyHelp<Command<FriendCommand>>] = &[
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Esc), key(KeyCode::Char('q'))],
            own(FriendCommand::CallOff),
        ),
        shown: "Esc q",
        word: "",
        label: "Esc stop waiting",
        help: "stop waiting for your friend: the code shown no longer works",
        when: When::Waiting,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), own(FriendCommand::Up)),
            (key(KeyCode::Down), own(FriendCommand::Down)),
            (key(KeyCode::Tab), own(FriendCommand::Down)),
        ]),
        shown: "↑ ↓ Tab",
        word: "",
        label: "↑↓ choose",
        help: "the row to change",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Left), own(FriendCommand::Before)),
            (key(KeyCode::Right), own(FriendCommand::Next)),
        ]),
        shown: "← →",
        word: "",
        label: "←→ change",
        help: "the choice on the row (the game, your colour, the clock); on the others, type",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('u')], own(FriendCommand::Clear)),
        shown: "Ctrl-U",
        word: "",
        label: "",
        help: "clear the row's text",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(FriendCommand::Start)),
        shown: "Enter",
        word: "",
        label: "Enter host/join",
        help: "on the host's rows, host and wait for your friend; on the join rows, join",
        when: When::Choosing,
    },
    keys::help(),
    keys::back(
        "",
        "Esc back",
        "back to the screen before, nothing started",
        When::Opened,
    ),
    keys::exit(),
];

/// A row of the friend screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// A new game, or a game against a friend left unfinished (shown when there is one).
    Game,
    /// The host's colour.
    YouPlay,
    /// The host's clock, typed or chosen.
    Clock,
    /// The port the host listens on.
    Port,
    /// The code the host's Knightfall showed, to join with.
    Code,
    /// The host's address, to join.
    Address,
}

impl Row {
    /// Whether the row is the host's (else the guest's).
    pub fn hosts(self) -> bool {
        matches!(self, Row::YouPlay | Row::Clock | Row::Port)
    }

    /// Whether its value is typed.
    pub fn typed(self) -> bool {
        matches!(self, Row::Clock | Row::Port | Row::Code | Row::Address)
    }

    /// Whether `c` may be typed on the row, and how many characters it holds at most.
    fn takes(self, c: char) -> (bool, usize) {
        match self {
            Row::Clock => (c.is_ascii_digit() || matches!(c, '+' | '.' | 's'), 16),
            Row::Port => (c.is_ascii_digit(), 5),
            Row::Code => (c.is_ascii_alphanumeric() || c == '-', 40),
            Row::Address => (c.is_ascii_graphic(), 100),
            Row::Game | Row::YouPlay => (false, 0),
        }
    }
}

/// What the screen waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// The friend, hosting: listening with the code on the port, reachable at the addresses
    /// (none known until the runner says).
    Host {
        /// The code and port listened with, once listening.
        invite: Option<(Code, u16)>,
        /// The addresses this machine may be reached at.
        addresses: Vec<SocketAddr>,
    },
    /// The host's answer, joining this address.
    Join(String),
}

/// The friend screen's state.
#[derive(Clone, Debug)]
pub struct FriendScreen {
    /// The row chosen, in [`FriendScreen::rows`].
    pub row: usize,
    /// The games against a friend left unfinished, newest first.
    pub games: Vec<Unfinished>,
    /// The one the game row names (`None`: a new game).
    pub chosen: Option<usize>,
    /// The host's colour (`None`: drawn at random).
    pub you: Option<Color>,
    /// The host's clock (`MIN+INC`; empty for none).
    pub clock: String,
    /// The port to listen on.
    pub port: String,
    /// The code to join with.
    pub code: String,
    /// The address to join.
    pub address: String,
    /// What the screen waits for, while it does.
    pub waiting: Option<Waiting>,
    /// The help overlay.
    pub help: Help,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// Colours and glyphs.
    pub palette: Palette,
}

impl FriendScreen {
    /// The screen offering `games` to resume (game `chosen` named first), a new game hosted
    /// with `you` playing that colour on `clock`.
    pub fn new(
        games: Vec<Unfinished>,
        chosen: Option<usize>,
        you: Option<Color>,
        clock: String,
        palette: Palette,
    ) -> FriendScreen {
        let games: Vec<Unfinished> = games
            .into_iter()
            .filter(|u| Seat::of(&u.game).is_some())
            .collect();
        FriendScreen {
            row: 0,
            chosen: chosen.filter(|&i| i < games.len()),
            games,
            you,
            clock,
            port: crate::net::meet::DEFAULT_PORT.to_string(),
            code: String::new(),
            address: String::new(),
            waiting: None,
            help: Help::default(),
            message: None,
            palette,
        }
    }

    /// The seat of the game chosen to resume, if one is.
    pub fn resumed(&self) -> Option<Seat> {
        Seat::of(&self.games.get(self.chosen?)?.game)
    }

    /// The rows, top to bottom: a game resumed keeps its colours and clock, and is hosted or
    /// joined as it was.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::with_capacity(6);
        if !self.games.is_empty() {
            rows.push(Row::Game);
        }
        match self.resumed().map(|s| s.role) {
            Some(Role::Host) => rows.push(Row::Port),
            Some(Role::Guest) => rows.extend([Row::Code, Row::Address]),
            None => rows.extend([Row::YouPlay, Row::Clock, Row::Port, Row::Code, Row::Address]),
        }
        rows
    }

    /// The row chosen.
    pub fn chosen_row(&self) -> Row {
        let rows = self.rows();
        rows[self.row.min(rows.len() - 1)]
    }

    /// The text of `row`, if it is typed.
    pub fn text(&self, row: Row) -> Option<&String> {
        match row {
            Row::Clock => Some(&self.clock),
            Row::Port => Some(&self.port),
            Row::Code => Some(&self.code),
            Row::Address => Some(&self.address),
            Row::Game | Row::YouPlay => None,
        }
    }

    fn text_mut(&mut self, row: Row) -> Option<&mut String> {
        match row {
            Row::Clock => Some(&mut self.clock),
            Row::Port => Some(&mut self.port),
            Row::Code => Some(&mut self.code),
            Row::Address => Some(&mut self.address),
            Row::Game | Row::YouPlay => None,
        }
    }

    /// Whether a plain character is typed now (on a row whose value is typed).
    pub fn typing(&self) -> bool {
        self.waiting.is_none() && self.chosen_row().typed()
    }

    /// Which rows of [`FRIEND_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        let waiting = self.waiting.is_some();
        match when {
            When::Waiting => waiting,
            When::Choosing => !waiting,
            When::Opened => !waiting,
            When::Always => true,
            _ => false,
        }
    }

    /// The command `key` gives now; `None` on a typed row for a plain character (it is
    /// typed).
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<FriendCommand>> {
        keys::while_typing(FRIEND_KEYS, key, self.typing(), |w| self.keys_apply(w))
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(key) if self.help.takes(&key) => {}
            Action::Key(key) => match self.command_for(&key) {
                Some(Command::Common(common)) => run::run(self, common, None, &mut fx),
                Some(Command::Own(own)) => self.command(own, &mut fx),
                None => self.type_key(&key),
            },
            Action::Meeting(heard) => self.heard(heard),
            Action::Note(text, tone) => self.message = Some((text, tone)),
            _ => {}
        }
        fx
    }

    fn command(&mut self, command: FriendCommand, fx: &mut Vec<Effect>) {
        let n = self.rows().len();
        match command {
            FriendCommand::Up => self.row = (self.row.min(n - 1) + n - 1) % n,
            FriendCommand::Down => self.row = (self.row.min(n - 1) + 1) % n,
            FriendCommand::Before => self.cycle(false),
            FriendCommand::Next => self.cycle(true),
            FriendCommand::Clear => {
                if let Some(text) = self.text_mut(self.chosen_row()) {
                    text.clear();
                }
            }
            FriendCommand::Start => fx.extend(self.start()),
            FriendCommand::CallOff => {
                self.waiting = None;
                self.message = Some(("You stopped waiting.".into(), Tone::Info));
                fx.push(Effect::CallOff);
            }
        }
    }

    /// A plain key on a typed row: a character the row takes, or Backspace.
    fn type_key(&mut self, key: &KeyEvent) {
        if self.waiting.is_some() || key.modifiers.contains(KeyModifiers::CONTROL) {
            return;
        }
        let row = self.chosen_row();
        let Some(text) = self.text_mut(row) else {
            return;
        };
        match key.code {
            KeyCode::Char(c) => {
                let (takes, most) = row.takes(c);
                if takes && text.chars().count() < most {
                    text.push(c);
                }
            }
            KeyCode::Backspace => {
                text.pop();
            }
            _ => {}
        }
    }

    fn cycle(&mut self, forward: bool) {
        let step = |i: usize, n: usize| {
            if forward {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            }
        };
        match self.chosen_row() {
            Row::Game => {
                // The games, then "a new game", round.
                let n = self.games.len() + 1;
                let i = self.chosen.unwrap_or(self.games.len());
                let next = step(i, n);
                self.chosen = (next < self.games.len()).then_some(next);
                self.row = 0;
            }
            Row::YouPlay => {
                let all = [None, Some(Color::White), Some(Color::Black)];
                let i = all.iter().position(|&c| c == self.you).unwrap_or(0);
                self.you = all[step(i, all.len())];
            }
            Row::Clock => {
                let i = TC_CHOICES.iter().position(|&t| t == self.clock);
                let next = match i {
                    Some(i) => step(i, TC_CHOICES.len()),
                    None if forward => 0,
                    None => TC_CHOICES.len() - 1,
                };
                self.clock = TC_CHOICES[next].to_string();
            }
            Row::Port | Row::Code | Row::Address => {}
        }
    }

    /// Enter: hosts or joins as the row chosen (or the game resumed) says, once what is
    /// typed reads well; says what is wrong otherwise.
    fn start(&mut self) -> Option<Effect> {
        let hosts = match self.resumed() {
            Some(seat) => seat.role == Role::Host,
            None => self.chosen_row().hosts(),
        };
        let left = self.chosen.and_then(|i| self.games.get(i)).cloned();
        let result = if hosts {
            self.host(left)
        } else {
            self.join(left)
        };
        match result {
            Ok((meet, waiting)) => {
                self.message = None;
                self.waiting = Some(waiting);
                Some(Effect::Meet(Box::new(meet)))
            }
            Err(why) => {
                self.message = Some((why, Tone::Error));
                None
            }
        }
    }

    fn host(&self, left: Option<Unfinished>) -> Result<(Meet, Waiting), String> {
        let port: u16 = match self.port.trim().parse() {
            Ok(port) => port,
            Err(_) => {
                return Err(format!(
                    "{:?} is no port: type one from 1 to 65535",
                    self.port
                ));
            }
        };
        let clock = self.clock.trim().to_string();
        if !clock.is_empty() {
            crate::game::TimeControl::parse(&clock).map_err(|e| format!("The clock: {e}"))?;
        }
        let guest = self.you.map(|you| match you {
            Color::White => Colour::Black,
            Color::Black => Colour::White,
        });
        Ok((
            Meet::Host {
                port,
                guest,
                clock,
                left,
            },
            Waiting::Host {
                invite: None,
                addresses: Vec::new(),
            },
        ))
    }

    fn join(&self, left: Option<Unfinished>) -> Result<(Meet, Waiting), String> {
        if self.code.trim().is_empty() {
            return Err(
                "Type the code your friend's Knightfall shows, like 7-maple-anchor.".into(),
            );
        }
        // Read as spoken: the words in any case.
        let code: Code = self.code.trim().to_ascii_lowercase().parse()?;
        let address = self.address.trim().to_string();
        if address.is_empty() {
            return Err(
                "Type the address your friend's Knightfall shows, like 192.168.1.20:7777.".into(),
            );
        }
        Ok((
            Meet::Join {
                code,
                address: address.clone(),
                left,
            },
            Waiting::Join(address),
        ))
    }

    /// What the wait for the friend brought.
    fn heard(&mut self, heard: Heard) {
        match heard {
            Heard::Invite {
                code,
                port,
                addresses,
            } => {
                if let Some(Waiting::Host {
                    invite,
                    addresses: known,
                }) = &mut self.waiting
                {
                    *invite = Some((code, port));
                    *known = addresses;
                }
            }
            Heard::Note(text) => self.message = Some((text, Tone::Error)),
            Heard::Failed(why) => {
                self.waiting = None;
                self.message = Some((why, Tone::Error));
            }
        }
    }
}

/// The friend screen, as the common commands see it: no board, always opened from another.
impl Boardless for FriendScreen {
    fn chrome(&mut self) -> (&mut Help, &mut Option<(String, Tone)>) {
        (&mut self.help, &mut self.message)
    }

    fn board_theme(&self) -> crate::theme::Theme {
        self.palette.theme
    }

    fn opened(&self) -> bool {
        true
    }
}
