//! The new-game screen: resume the unfinished game or start one, which colour the person plays
//! (or a random one, both, or neither to watch), the opponent (Knightfall at a level or a
//! configured engine), the clock and the engine's time per move. `new` inside a game opens it
//! over the game, prefilled with the current choices; Esc then goes back to the game unchanged.
//! Enter closes it and hands the choice to the game below ([`Effect::Play`]).

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};

use super::chrome::command::Command;
use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, key};
use super::chrome::run::{self, Screen};
use super::screen::{Action, Choice, Effect, Open, Palette, Tone};
use crate::engine::strength::MAX_LEVEL;
use crate::store::Unfinished;
use crate::store::settings::{Settings, Side, TC_CHOICES, THINK_CHOICES};

/// The new-game screen's own commands (the ones every screen has are [`Common`](super::chrome::command::Common)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupCommand {
    /// The row above.
    RowUp,
    /// The row below.
    RowDown,
    /// The choice before, on the row.
    Back,
    /// The next choice, on the row.
    On,
    /// Take the clock typed on the time-control row.
    TakeClock,
    /// Drop the clock typed.
    DropClock,
    /// Resume or start the game as chosen.
    Start,
    /// The training screen.
    Train,
    /// The friend screen: host or join a game against a friend.
    Friend,
}

const fn own(command: SetupCommand) -> Command<SetupCommand> {
    Command::Own(command)
}

/// The new-game screen's keys. The first row with a key wins: while a clock is typed, Enter
/// and Esc are the clock's.
pub const SETUP_KEYS: &[KeyHelp<Command<SetupCommand>>] = &[
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), own(SetupCommand::RowUp)),
            (key(KeyCode::Down), own(SetupCommand::RowDown)),
            (key(KeyCode::Tab), own(SetupCommand::RowDown)),
        ]),
        shown: "↑ ↓ Tab",
        word: "",
        label: "↑↓ choose",
        help: "the row to change",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Left), own(SetupCommand::Back)),
            (key(KeyCode::Right), own(SetupCommand::On)),
            (key(KeyCode::Char(' ')), own(SetupCommand::On)),
        ]),
        shown: "← → Space",
        word: "",
        label: "←→ change",
        help: "the choice on the row",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(SetupCommand::TakeClock)),
        shown: "Enter",
        word: "",
        label: "",
        help: "take the clock typed (like 7+2)",
        when: When::Typing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Esc)], own(SetupCommand::DropClock)),
        shown: "Esc",
        word: "",
        label: "",
        help: "drop the clock typed",
        when: When::Typing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(SetupCommand::Start)),
        shown: "Enter",
        word: "",
        label: "Enter start",
        help: "resume or start the game as chosen",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('t'))], own(SetupCommand::Train)),
        shown: "t",
        word: "",
        label: "t train",
        help: "training: your mistakes again, puzzles and endgames",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('f'))], own(SetupCommand::Friend)),
        shown: "f",
        word: "",
        label: "f a friend",
        help: "a friend at another Knightfall: host a game with these colours and clock, or join",
        when: When::Always,
    },
    keys::help(),
    keys::back(
        "",
        "Esc back",
        "opened from another screen: back to it, nothing changed",
        When::Opened,
    ),
    keys::back(
        "",
        "Esc quit",
        "at the start: leave Knightfall",
        When::Alone,
    ),
    keys::exit(),
];

/// A row of the new-game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Resume an unfinished game (one of several), or start a new one (shown only when there
    /// is one).
    Resume,
    /// Which colour the person plays.
    YouPlay,
    /// Who plays against them.
    Opponent,
    /// The clock.
    TimeControl,
    /// The engine's time per move without a clock.
    ThinkTime,
}

/// Which colour the person at the keyboard plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YouPlay {
    /// White against the opponent.
    White,
    /// Black against the opponent.
    Black,
    /// A colour drawn at the start of each game.
    Random,
    /// Both sides (two people at one keyboard).
    Both,
    /// Neither: the opponent plays itself, to watch.
    Neither,
}

impl YouPlay {
    const ALL: [YouPlay; 5] = [
        YouPlay::White,
        YouPlay::Black,
        YouPlay::Random,
        YouPlay::Both,
        YouPlay::Neither,
    ];

    /// The words on the screen.
    pub fn label(self) -> &'static str {
        match self {
            YouPlay::White => "White",
            YouPlay::Black => "Black",
            YouPlay::Random => "random colour",
            YouPlay::Both => "both sides",
            YouPlay::Neither => "neither (watch)",
        }
    }

    /// What `settings` say the person plays.
    pub fn of(settings: &Settings) -> YouPlay {
        match (settings.white.is_human(), settings.black.is_human()) {
            (true, true) => YouPlay::Both,
            (false, false) => YouPlay::Neither,
            _ if settings.random_colour => YouPlay::Random,
            (true, false) => YouPlay::White,
            (false, true) => YouPlay::Black,
        }
    }
}

/// The opponent the settings name: the engine side (Black first), or Knightfall at the level.
pub fn opponent(settings: &Settings) -> Side {
    [&settings.black, &settings.white]
        .into_iter()
        .find(|s| !s.is_human())
        .cloned()
        .unwrap_or(Side::Engine)
}

/// The opponents to choose from: Knightfall at each level, then the configured engines (and the
/// command-line engine in use, if any).
fn opponents(settings: &Settings) -> Vec<(Side, u8)> {
    let mut list: Vec<(Side, u8)> = (1..=MAX_LEVEL).map(|l| (Side::Engine, l)).collect();
    list.extend(
        settings
            .engines
            .iter()
            .map(|e| (Side::Named(e.name.clone()), 0)),
    );
    if let current @ Side::Uci(_) = opponent(settings) {
        list.push((current, 0));
    }
    list
}

/// The opponent row's text: `Knightfall 3 ~1015`, `Knightfall 10 full`, or an engine's name.
pub(crate) fn opponent_label(settings: &Settings) -> String {
    match opponent(settings) {
        Side::Engine => {
            // The settings file is not range-checked when read, so clamp here as `level()` does.
            match settings.level.clamp(1, MAX_LEVEL) {
                MAX_LEVEL => format!("Knightfall {MAX_LEVEL} full"),
                n => format!(
                    "Knightfall {n} ~{}",
                    crate::engine::strength::LEVEL_ELO[n as usize - 1]
                ),
            }
        }
        side => settings
            .engine_spec(&side)
            .map_or_else(|| side.to_string(), |spec| spec.name),
    }
}

/// The new-game screen's state: the choices being made.
#[derive(Clone, Debug)]
pub struct SetupScreen {
    /// The settings as chosen so far.
    pub settings: Settings,
    /// The chosen row.
    pub field: usize,
    /// The unfinished games the screen offers to resume, newest first.
    pub resume: Vec<Unfinished>,
    /// Which of them the resume row names; `None` says "new game".
    pub resume_chosen: Option<usize>,
    /// Opened over a game (Esc goes back to it) rather than at start (Esc leaves).
    pub from_game: bool,
    /// The help overlay.
    pub help: Help,
    /// Something the player should know before choosing (a setting the config file has that
    /// Knightfall does not know, a book that did not load).
    pub note: Option<String>,
    /// Colours and glyphs.
    pub palette: Palette,
    /// A clock being typed on the time-control row (`7+2`), until Enter takes it.
    pub custom_tc: Option<String>,
    /// The player's own clock (typed, or kept from last time), offered after the usual ones.
    own_tc: Option<String>,
    /// What draws a random colour: chance comes in from outside (the runner's entropy, a
    /// test's number), so the same screen and keys always give the same game.
    pub seed: u64,
}

/// `tc` when it is a clock of the player's own: one that reads as a clock and is none of the
/// usual ones.
fn own_clock(tc: &str) -> Option<String> {
    (!TC_CHOICES.contains(&tc) && crate::game::TimeControl::parse(tc).is_ok())
        .then(|| tc.to_string())
}

/// The characters a typed clock is made of: minutes (or seconds with `s`) `+` increment.
fn clock_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '+' | '.' | 's')
}

impl SetupScreen {
    /// The screen, prefilled with `settings`, offering the games of `resume` (the newest first
    /// chosen); `seed` draws a random colour.
    pub fn new(
        settings: Settings,
        resume: Vec<Unfinished>,
        from_game: bool,
        palette: Palette,
        seed: u64,
    ) -> SetupScreen {
        SetupScreen {
            field: 0,
            resume_chosen: (!resume.is_empty()).then_some(0),
            resume,
            from_game,
            help: Help::default(),
            note: None,
            custom_tc: None,
            own_tc: own_clock(&settings.tc),
            settings,
            palette,
            seed,
        }
    }

    /// Engines on both sides, to watch: the opponent chosen plays itself.
    pub fn watch(&mut self) {
        let opp = opponent(&self.settings);
        (self.settings.white, self.settings.black) = (opp.clone(), opp);
        self.settings.random_colour = false;
        self.field = self
            .fields()
            .iter()
            .position(|&f| f == Field::Opponent)
            .unwrap_or(0);
    }

    /// The rows of the screen, top to bottom.
    pub fn fields(&self) -> Vec<Field> {
        let mut fields = Vec::with_capacity(5);
        if !self.resume.is_empty() {
            fields.push(Field::Resume);
        }
        fields.extend([Field::YouPlay, Field::Opponent, Field::TimeControl]);
        // The engine's time per move matters only without a clock.
        if self.settings.tc.is_empty() {
            fields.push(Field::ThinkTime);
        }
        fields
    }

    /// A row's name and the choice on it, as the screen shows them.
    pub fn row(&self, field: Field) -> (&'static str, String) {
        let s = &self.settings;
        match field {
            Field::Resume => (
                "Game",
                match self.resume_chosen {
                    Some(i) if self.resume.len() > 1 => {
                        format!("resume {} of {}", i + 1, self.resume.len())
                    }
                    Some(_) => "resume".to_string(),
                    None => "new game".to_string(),
                },
            ),
            Field::YouPlay => ("You play", YouPlay::of(s).label().to_string()),
            Field::Opponent => (
                if YouPlay::of(s) == YouPlay::Neither {
                    "Engine (both sides)"
                } else {
                    "Opponent"
                },
                if YouPlay::of(s) == YouPlay::Both {
                    "-".to_string()
                } else {
                    opponent_label(s)
                },
            ),
            Field::TimeControl => (
                "Time control (min+inc)",
                match &self.custom_tc {
                    Some(typed) => format!("{typed}_"),
                    None if s.tc.is_empty() => "none".to_string(),
                    None => s.tc.clone(),
                },
            ),
            Field::ThinkTime => ("Engine time per move", format!("{} ms", s.think_ms)),
        }
    }

    /// Which rows of [`SETUP_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        match when {
            When::Typing => self.custom_tc.is_some() && self.on_clock_row(),
            _ => keys::opened_or_alone(when, self.from_game),
        }
    }

    /// Whether the time-control row is the chosen one.
    fn on_clock_row(&self) -> bool {
        self.fields().get(self.field) == Some(&Field::TimeControl)
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        match action {
            Action::Key(key) if self.help.takes(&key) => Vec::new(),
            Action::Key(key) => self.on_key(&key),
            _ => Vec::new(),
        }
    }

    /// The command `key` gives now, from [`SETUP_KEYS`]; `None`: the key has no command here
    /// (on the time-control row, a clock's character is then typed).
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<SetupCommand>> {
        keys::lookup(SETUP_KEYS, key, |w| self.keys_apply(w))
    }

    fn on_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        let mut fx = Vec::new();
        match self.command_for(key) {
            Some(Command::Common(common)) => run::run(self, common, None, &mut fx),
            Some(Command::Own(own)) => self.command(own, &mut fx),
            None => self.type_clock(key),
        }
        fx
    }

    /// Runs one of the screen's own commands.
    fn command(&mut self, command: SetupCommand, fx: &mut Vec<Effect>) {
        let rows = self.fields().len();
        match command {
            // A clock typed is taken on the way off its row, as Enter would; one that does not
            // read as a clock keeps the row, with the reason.
            SetupCommand::RowUp | SetupCommand::RowDown if self.custom_tc.is_some() => {
                self.take_clock();
                if self.custom_tc.is_none() {
                    let rows = self.fields().len();
                    self.field = match command {
                        SetupCommand::RowUp => (self.field + rows - 1) % rows,
                        _ => (self.field + 1) % rows,
                    };
                }
            }
            SetupCommand::RowUp => self.field = (self.field + rows - 1) % rows,
            SetupCommand::RowDown => self.field = (self.field + 1) % rows,
            SetupCommand::Back => self.cycle(false),
            SetupCommand::On => self.cycle(true),
            SetupCommand::TakeClock => self.take_clock(),
            SetupCommand::DropClock => {
                self.custom_tc = None;
                self.note = None;
            }
            SetupCommand::Start => fx.extend(self.start()),
            SetupCommand::Train => fx.push(Effect::Open(Box::new(Open::Train))),
            SetupCommand::Friend => fx.push(self.friend(None)),
        }
    }

    /// Typing on the time-control row: digits, `+`, `.` and `s` make a clock of the player's
    /// own, Backspace takes a character back.
    fn type_clock(&mut self, key: &KeyEvent) {
        if !self.on_clock_row()
            || key
                .modifiers
                .contains(crossterm::event::KeyModifiers::CONTROL)
        {
            return;
        }
        match (key.code, self.custom_tc.as_mut()) {
            (KeyCode::Char(c), entry) if clock_char(c) => {
                let entry = match entry {
                    Some(entry) => entry,
                    None => self.custom_tc.insert(String::new()),
                };
                if entry.len() < 16 {
                    entry.push(c);
                }
                self.note = None;
            }
            (KeyCode::Backspace, Some(entry)) => {
                entry.pop();
            }
            _ => {}
        }
    }

    /// Takes the clock typed when it reads as one, and says why not otherwise.
    fn take_clock(&mut self) {
        let Some(text) = self.custom_tc.as_ref().map(|t| t.trim().to_string()) else {
            return;
        };
        match crate::game::TimeControl::parse(&text) {
            Ok(_) => {
                self.own_tc = own_clock(&text);
                self.settings.tc = text;
                self.custom_tc = None;
                self.note = None;
            }
            Err(e) => self.note = Some(format!("{e}; Esc drops it")),
        }
    }

    /// Where the choice on row `field` stands among the row's choices, in the order a step on
    /// takes them, and how many there are.
    pub fn place(&self, field: Field) -> (usize, usize) {
        let s = &self.settings;
        match field {
            // The games, then "new game", round.
            Field::Resume => (
                self.resume_chosen.unwrap_or(self.resume.len()),
                self.resume.len() + 1,
            ),
            Field::YouPlay => (
                YouPlay::ALL
                    .iter()
                    .position(|&y| y == YouPlay::of(s))
                    .unwrap_or(0),
                YouPlay::ALL.len(),
            ),
            Field::Opponent => {
                let list = opponents(s);
                let current = (opponent(s), s.level);
                let i = list
                    .iter()
                    .position(|(side, level)| {
                        *side == current.0 && (*side != Side::Engine || *level == current.1)
                    })
                    .unwrap_or(MAX_LEVEL as usize - 1);
                (i, list.len())
            }
            Field::TimeControl => {
                let choices = self.clocks();
                (
                    choices.iter().position(|t| *t == s.tc).unwrap_or(0),
                    choices.len(),
                )
            }
            Field::ThinkTime => (
                THINK_CHOICES
                    .iter()
                    .position(|t| *t == s.think_ms)
                    .unwrap_or(2),
                THINK_CHOICES.len(),
            ),
        }
    }

    /// The clocks offered: the usual ones, then a clock of the player's own.
    fn clocks(&self) -> Vec<String> {
        let mut choices: Vec<String> = TC_CHOICES.iter().map(|t| t.to_string()).collect();
        choices.extend(self.own_tc.clone());
        choices
    }

    fn cycle(&mut self, forward: bool) {
        let Some(&field) = self.fields().get(self.field) else {
            return;
        };
        let (i, n) = self.place(field);
        let next = if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        };
        let clocks = self.clocks();
        let s = &mut self.settings;
        match field {
            Field::Resume => {
                self.resume_chosen = (next < self.resume.len()).then_some(next);
            }
            Field::YouPlay => {
                let opp = opponent(s);
                let choice = YouPlay::ALL[next];
                (s.white, s.black) = match choice {
                    YouPlay::White | YouPlay::Random => (Side::Human, opp),
                    YouPlay::Black => (opp, Side::Human),
                    YouPlay::Both => (Side::Human, Side::Human),
                    YouPlay::Neither => (opp.clone(), opp),
                };
                s.random_colour = choice == YouPlay::Random;
            }
            Field::Opponent => {
                let (side, level) = opponents(s)[next].clone();
                if side == Side::Engine {
                    s.level = level;
                    (s.white_level, s.black_level) = (None, None);
                }
                for seat in [&mut s.white, &mut s.black] {
                    if !seat.is_human() {
                        *seat = side.clone();
                    }
                }
            }
            // A clock of the player's own stays among the choices, after the usual ones.
            Field::TimeControl => {
                s.tc = clocks[next].clone();
                self.custom_tc = None;
            }
            Field::ThinkTime => s.think_ms = THINK_CHOICES[next],
        }
    }

    /// The friend screen, hosting with the colour and clock chosen here, offering the games
    /// against a friend left unfinished (`chosen` named first).
    fn friend(&self, chosen: Option<usize>) -> Effect {
        let games: Vec<Unfinished> = self
            .resume
            .iter()
            .filter(|u| crate::net::record::Seat::of(&u.game).is_some())
            .cloned()
            .collect();
        let you = match YouPlay::of(&self.settings) {
            YouPlay::White => Some(shakmaty::Color::White),
            YouPlay::Black => Some(shakmaty::Color::Black),
            YouPlay::Random | YouPlay::Both | YouPlay::Neither => None,
        };
        Effect::Open(Box::new(Open::Friend {
            resume: games,
            chosen,
            you,
            clock: Some(self.settings.tc.clone()),
        }))
    }

    /// Enter: the choice, for the game below, with a random colour drawn from the seed (which
    /// moves on, so the next draw is another); a game against a friend chosen to resume goes
    /// on against the friend, from the friend screen.
    fn start(&mut self) -> Vec<Effect> {
        if let Some(i) = self.resume_chosen
            && let Some(u) = self.resume.get(i)
            && crate::net::record::Seat::of(&u.game).is_some()
        {
            let among = self.resume[..i]
                .iter()
                .filter(|u| crate::net::record::Seat::of(&u.game).is_some())
                .count();
            return vec![self.friend(Some(among))];
        }
        let mut settings = self.settings.clone();
        if settings.random_colour {
            let mut rng = crate::rng::Rng::new(self.seed);
            let human_white = rng.below(2) == 0;
            self.seed = rng.next_u64();
            let opp = opponent(&settings);
            (settings.white, settings.black) = if human_white {
                (Side::Human, opp)
            } else {
                (opp, Side::Human)
            };
        }
        let resume = self
            .resume_chosen
            .and_then(|i| (i < self.resume.len()).then(|| self.resume.swap_remove(i)));
        self.resume_chosen = None;
        vec![Effect::Play(Box::new(Choice { settings, resume }))]
    }
}

/// The new-game screen, as the common commands see it: it has no board, and at the start
/// (over a game nobody chose yet) going back leaves Knightfall.
impl Screen for SetupScreen {
    fn help(&mut self) -> &mut Help {
        &mut self.help
    }

    fn say(&mut self, text: String, _tone: Tone) {
        self.note = Some(text);
    }

    fn theme(&self) -> crate::theme::Theme {
        self.palette.theme
    }

    fn flipped(&mut self) -> Option<&mut bool> {
        None
    }

    fn leaving(&mut self, _fx: &mut Vec<Effect>) {}

    fn back(&self) -> Effect {
        if self.from_game {
            Effect::Close
        } else {
            Effect::Quit
        }
    }
}
