//! The first screen: everything Knightfall does, one key away. Play (the new-game screen, which
//! offers the unfinished game), the library of games to review, the analysis board, training,
//! watching engines play, and the settings. Opened from a game, Esc goes back to it.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};

use super::chrome::command::{Command, Common};
use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, key};
use super::chrome::run::{self, Boardless};
use super::screen::{Action, Effect, Open, Palette, Tone};
use crate::store::Unfinished;

/// What the home screen offers, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// A game against Knightfall or an engine (or the unfinished one).
    Play,
    /// A game against a friend at another Knightfall.
    Friend,
    /// The library of games, to review.
    Review,
    /// The analysis board.
    Board,
    /// Mistakes, puzzles and endings.
    Train,
    /// The player's statistics from the library.
    Stats,
    /// Engines playing each other.
    Watch,
    /// The settings.
    Settings,
    /// Leave Knightfall.
    Quit,
}

impl Item {
    /// Every item, in the order shown.
    pub const ALL: [Item; 9] = [
        Item::Play,
        Item::Friend,
        Item::Review,
        Item::Board,
        Item::Train,
        Item::Stats,
        Item::Watch,
        Item::Settings,
        Item::Quit,
    ];

    /// The item's key as [`HOME_KEYS`] gives it, the first of its row; `None` for Quit, which
    /// the arrows and Enter reach (Esc and q go back instead when the screen is over a game).
    pub fn key(self) -> Option<char> {
        HOME_KEYS
            .iter()
            .flat_map(|row| row.keys.iter())
            .find_map(|(binding, command)| match (binding.code, command) {
                (KeyCode::Char(c), Command::Own(HomeCommand::Go(item)))
                    if item == self && !binding.ctrl =>
                {
                    Some(c)
                }
                _ => None,
            })
    }

    /// Its name on the screen.
    pub fn name(self) -> &'static str {
        match self {
            Item::Play => "Play",
            Item::Friend => "Play a friend",
            Item::Review => "Review",
            Item::Board => "Analysis board",
            Item::Train => "Train",
            Item::Stats => "Statistics",
            Item::Watch => "Watch",
            Item::Settings => "Settings",
            Item::Quit => "Quit",
        }
    }

    /// What it does, in a few words.
    pub fn about(self) -> &'static str {
        match self {
            Item::Play => "a game against Knightfall at your level, or an engine",
            Item::Friend => "host or join a game with a friend at another Knightfall",
            Item::Review => "the library: your games and those imported, move by move",
            Item::Board => "set up any line and let the engine think",
            Item::Train => "your mistakes again, puzzles, the endings to know",
            Item::Stats => "your accuracy over time, results, openings and mistakes",
            Item::Watch => "Knightfall or your engines playing each other",
            Item::Settings => "board, sound, your name, engines, the game's defaults",
            Item::Quit => "leave Knightfall",
        }
    }
}

/// The home screen's own commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HomeCommand {
    /// The item above.
    Up,
    /// The item below.
    Down,
    /// The item chosen.
    Choose,
    /// This item, by its key.
    Go(Item),
}

const fn own(command: HomeCommand) -> Command<HomeCommand> {
    Command::Own(command)
}

const fn go(item: Item) -> Command<HomeCommand> {
    own(HomeCommand::Go(item))
}

/// The home screen's keys.
pub const HOME_KEYS: &[KeyHelp<Command<HomeCommand>>] = &[
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), own(HomeCommand::Up)),
            (key(KeyCode::Char('k')), own(HomeCommand::Up)),
            (key(KeyCode::Down), own(HomeCommand::Down)),
            (key(KeyCode::Char('j')), own(HomeCommand::Down)),
            (key(KeyCode::Tab), own(HomeCommand::Down)),
        ]),
        shown: "↑ ↓ k j Tab",
        word: "",
        label: "↑↓ choose",
        help: "the item above or below",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(HomeCommand::Choose)),
        shown: "Enter",
        word: "",
        label: "Enter open",
        help: "open the item chosen",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Char('p')), go(Item::Play)),
            (key(KeyCode::Char('n')), go(Item::Play)),
        ]),
        shown: "p n",
        word: "",
        label: "",
        help: "play: the new-game screen (it offers an unfinished game too)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('f'))], go(Item::Friend)),
        shown: "f",
        word: "",
        label: "",
        help: "play a friend at another Knightfall: host a game, or join theirs",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('r'))], go(Item::Review)),
        shown: "r",
        word: "",
        label: "",
        help: "review: the library of your games and those imported, to choose one",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('b'))], go(Item::Board)),
        shown: "b",
        word: "",
        label: "",
        help: "the analysis board, from the start position",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('t'))], go(Item::Train)),
        shown: "t",
        word: "",
        label: "",
        help: "training: your mistakes again, puzzles and endgames",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('i'))], go(Item::Stats)),
        shown: "i",
        word: "",
        label: "",
        help: "statistics (insights) from your games in the library",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('w'))], go(Item::Watch)),
        shown: "w",
        word: "",
        label: "",
        help: "watch: the new-game screen with engines on both sides",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('s'))], go(Item::Settings)),
        shown: "s",
        word: "",
        label: "",
        help: "the settings, kept in the config file",
        when: When::Always,
    },
    keys::help(),
    keys::back(
        "",
        "Esc back to the game",
        "opened from a game: back to it",
        When::Opened,
    ),
    keys::back("", "q quit", "at the start: leave Knightfall", When::Alone),
    keys::exit(),
];

/// The home screen's state.
#[derive(Clone, Debug)]
pub struct HomeScreen {
    /// The item chosen, in [`Item::ALL`].
    pub choice: usize,
    /// The unfinished games the new-game screen will offer to resume.
    pub resume: Vec<Unfinished>,
    /// Opened over a game (Esc goes back to it) rather than at start (Esc leaves).
    pub from_game: bool,
    /// The help overlay.
    pub help: Help,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// Colours and glyphs.
    pub palette: Palette,
}

impl HomeScreen {
    /// The screen, offering `resume` to the new-game screen.
    pub fn new(resume: Vec<Unfinished>, from_game: bool, palette: Palette) -> HomeScreen {
        HomeScreen {
            choice: 0,
            resume,
            from_game,
            help: Help::default(),
            message: None,
            palette,
        }
    }

    /// The item chosen.
    pub fn chosen(&self) -> Item {
        Item::ALL[self.choice.min(Item::ALL.len() - 1)]
    }

    /// Which rows of [`HOME_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        keys::opened_or_alone(when, self.from_game)
    }

    /// The command `key` gives now.
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<HomeCommand>> {
        keys::lookup(HOME_KEYS, key, |w| self.keys_apply(w))
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        match action {
            Action::Key(key) if self.help.takes(&key) => Vec::new(),
            Action::Key(key) => {
                let mut fx = Vec::new();
                match self.command_for(&key) {
                    Some(Command::Common(common)) => run::run(self, common, None, &mut fx),
                    Some(Command::Own(own)) => self.command(own, &mut fx),
                    None => {}
                }
                fx
            }
            // The new-game screen opened from here chose a game: the game below plays it.
            Action::Play(choice) => vec![Effect::Play(choice)],
            Action::Note(text, tone) => {
                self.message = Some((text, tone));
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn command(&mut self, command: HomeCommand, fx: &mut Vec<Effect>) {
        let n = Item::ALL.len();
        match command {
            HomeCommand::Up => self.choice = (self.choice + n - 1) % n,
            HomeCommand::Down => self.choice = (self.choice + 1) % n,
            HomeCommand::Choose => self.open(self.chosen(), fx),
            HomeCommand::Go(item) => {
                self.choice = Item::ALL.iter().position(|&i| i == item).unwrap_or(0);
                self.open(item, fx);
            }
        }
    }

    fn open(&mut self, item: Item, fx: &mut Vec<Effect>) {
        self.message = None;
        let open = match item {
            Item::Play => Open::Setup {
                resume: self.resume.clone(),
                watch: false,
            },
            Item::Friend => Open::Friend {
                resume: self.resume.clone(),
                chosen: None,
                you: None,
                clock: None,
            },
            Item::Watch => Open::Setup {
                resume: Vec::new(),
                watch: true,
            },
            Item::Review => Open::Games,
            Item::Board => Open::Board {
                tree: crate::line_tree::Tree::new(shakmaty::Chess::default(), None),
                at: 0,
            },
            Item::Train => Open::Train,
            Item::Stats => Open::Stats,
            Item::Settings => Open::Settings,
            Item::Quit => {
                run::run(self, Common::Exit, None, fx);
                return;
            }
        };
        fx.push(Effect::Open(Box::new(open)));
    }
}

/// The home screen, as the common commands see it: no board; at the start, going back leaves.
impl Boardless for HomeScreen {
    fn chrome(&mut self) -> (&mut Help, &mut Option<(String, Tone)>) {
        (&mut self.help, &mut self.message)
    }

    fn board_theme(&self) -> crate::theme::Theme {
        self.palette.theme
    }

    fn opened(&self) -> bool {
        self.from_game
    }
}
