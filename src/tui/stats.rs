//! The statistics screen: the player's figures from the library on five pages (accuracy over
//! time, results by colour and speed, openings, mistakes by phase and speed, the best and
//! worst games), a page at a time; a game of the last page opens on the review screen. The
//! figures are counted when the screen opens ([`load`]); the screen itself reads no file.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};

use super::chrome::command::Command;
use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, key};
use super::chrome::run::{self, Boardless};
use super::screen::{Action, Effect, Open, Palette, Tone};
use crate::store::Paths;
use crate::store::library::stats::{self as figures, Played, Stats};

/// A page of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// Accuracy over time: each reviewed game and the moving mean.
    Accuracy,
    /// Results with each colour and at each speed.
    Results,
    /// The openings played most, and lost most.
    Openings,
    /// Mistakes by phase and by speed.
    Mistakes,
    /// The best and the worst games.
    Games,
}

impl Page {
    /// Every page, in order.
    pub const ALL: [Page; 5] = [
        Page::Accuracy,
        Page::Results,
        Page::Openings,
        Page::Mistakes,
        Page::Games,
    ];

    /// Its name on its tab.
    pub fn name(self) -> &'static str {
        match self {
            Page::Accuracy => "Accuracy",
            Page::Results => "Results",
            Page::Openings => "Openings",
            Page::Mistakes => "Mistakes",
            Page::Games => "Best and worst",
        }
    }

    fn index(self) -> usize {
        Page::ALL.iter().position(|&p| p == self).unwrap_or(0)
    }
}

/// The statistics screen's own commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsCommand {
    /// The next page.
    Next,
    /// The page before.
    Previous,
    /// This page.
    Go(Page),
    /// The game above.
    Up,
    /// The game below.
    Down,
    /// Review the game chosen.
    Review,
}

const fn own(command: StatsCommand) -> Command<StatsCommand> {
    Command::Own(command)
}

const fn go(page: Page) -> Command<StatsCommand> {
    own(StatsCommand::Go(page))
}

/// The statistics screen's keys.
pub const STATS_KEYS: &[KeyHelp<Command<StatsCommand>>] = &[
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Right), own(StatsCommand::Next)),
            (key(KeyCode::Char('l')), own(StatsCommand::Next)),
            (key(KeyCode::Tab), own(StatsCommand::Next)),
            (key(KeyCode::Left), own(StatsCommand::Previous)),
            (key(KeyCode::Char('h')), own(StatsCommand::Previous)),
            (key(KeyCode::BackTab), own(StatsCommand::Previous)),
        ]),
        shown: "← → h l Tab",
        word: "",
        label: "←→ page",
        help: "the page before or after",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Char('1')), go(Page::Accuracy)),
            (key(KeyCode::Char('2')), go(Page::Results)),
            (key(KeyCode::Char('3')), go(Page::Openings)),
            (key(KeyCode::Char('4')), go(Page::Mistakes)),
            (key(KeyCode::Char('5')), go(Page::Games)),
        ]),
        shown: "1 2 3 4 5",
        word: "",
        label: "",
        help: "a page by its number: accuracy, results, openings, mistakes, best and worst games",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), own(StatsCommand::Up)),
            (key(KeyCode::Char('k')), own(StatsCommand::Up)),
            (key(KeyCode::Down), own(StatsCommand::Down)),
            (key(KeyCode::Char('j')), own(StatsCommand::Down)),
        ]),
        shown: "↑ ↓ k j",
        word: "",
        label: "↑↓ choose",
        help: "on the best and worst games: the game above or below",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(StatsCommand::Review)),
        shown: "Enter",
        word: "",
        label: "Enter review",
        help: "review the game chosen",
        when: When::Choosing,
    },
    keys::help(),
    keys::back(
        "",
        "Esc back",
        "back to the screen it was opened from",
        When::Opened,
    ),
    keys::back(
        "",
        "q quit",
        "started on its own (knightfall stats): leave Knightfall",
        When::Alone,
    ),
    keys::exit(),
];

/// The statistics screen's state.
pub struct StatsScreen {
    /// The figures.
    pub stats: Stats,
    /// The page shown.
    pub page: Page,
    /// The game chosen, in [`StatsScreen::listed`].
    pub chosen: usize,
    /// Opened from another screen (Esc goes back to it) rather than on its own.
    pub from_game: bool,
    /// The help overlay.
    pub help: Help,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// Colours and glyphs.
    pub palette: Palette,
}

impl StatsScreen {
    /// The screen over `stats`, whose best and worst games open from the library.
    pub fn new(stats: Stats, palette: Palette, from_game: bool) -> StatsScreen {
        StatsScreen {
            stats,
            page: Page::Accuracy,
            chosen: 0,
            from_game,
            help: Help::default(),
            message: None,
            palette,
        }
    }

    /// The games listed on the last page, the best then the worst.
    pub fn listed(&self) -> impl Iterator<Item = &Played> {
        self.stats.best.iter().chain(&self.stats.worst)
    }

    /// Which rows of [`STATS_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        match when {
            When::Choosing => self.page == Page::Games && self.listed().next().is_some(),
            _ => keys::opened_or_alone(when, self.from_game),
        }
    }

    /// The command `key` gives now.
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<StatsCommand>> {
        keys::lookup(STATS_KEYS, key, |w| self.keys_apply(w))
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(key) if self.help.takes(&key) => {}
            Action::Key(key) => match self.command_for(&key) {
                Some(Command::Common(common)) => run::run(self, common, None, &mut fx),
                Some(Command::Own(own)) => {
                    self.message = None;
                    self.command(own, &mut fx);
                }
                None => {}
            },
            Action::Note(text, tone) => self.message = Some((text, tone)),
            _ => {}
        }
        fx
    }

    fn command(&mut self, command: StatsCommand, fx: &mut Vec<Effect>) {
        let pages = Page::ALL.len();
        let games = self.listed().count().max(1);
        match command {
            StatsCommand::Next => self.page = Page::ALL[(self.page.index() + 1) % pages],
            StatsCommand::Previous => {
                self.page = Page::ALL[(self.page.index() + pages - 1) % pages];
            }
            StatsCommand::Go(page) => self.page = page,
            StatsCommand::Up => self.chosen = (self.chosen + games - 1) % games,
            StatsCommand::Down => self.chosen = (self.chosen + 1) % games,
            // Opened as the library screen opens a game: its review is kept in the library.
            StatsCommand::Review => {
                if let Some(played) = self.listed().nth(self.chosen) {
                    fx.push(Effect::Open(Box::new(Open::Kept { id: played.id })));
                }
            }
        }
    }
}

/// The statistics screen, as the common commands see it: no board.
impl Boardless for StatsScreen {
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

/// The screen for the player named `player` (the settings' name when `None`), counted from
/// the library at `paths`; what to say instead when the library holds no finished game of
/// theirs. Called by whatever opens the screen, which may read files, as the screen may not.
pub fn load(
    paths: &Paths,
    player: Option<&str>,
    palette: Palette,
    from_game: bool,
) -> anyhow::Result<Result<StatsScreen, String>> {
    let stats = figures::load(paths, player)?;
    if stats.games() == 0 {
        return Ok(Err(figures::none(paths, player)));
    }
    Ok(Ok(StatsScreen::new(stats, palette, from_game)))
}
