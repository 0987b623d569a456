//! The new-game screen: resume the unfinished game or start one, which colour the person plays
//! (or a random one, both, or neither to watch), the opponent (Knightfall at a level or a
//! configured engine), the clock and the engine's time per move. `new` inside a game opens it
//! prefilled with the current choices; Esc then goes back to the game unchanged.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent};
use shakmaty::Color;

use super::{App, Effect, Mode, Screen, Settings, Side, TC_CHOICES, THINK_CHOICES, Tone};
use crate::engine::strength::MAX_LEVEL;

/// A row of the new-game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Resume the unfinished game, or start a new one (shown only when there is one).
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
pub fn opponent_label(settings: &Settings) -> String {
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

impl App {
    /// The rows of the new-game screen, top to bottom.
    pub fn setup_fields(&self) -> Vec<Field> {
        let mut fields = Vec::with_capacity(5);
        if self.setup.resume.is_some() {
            fields.push(Field::Resume);
        }
        fields.extend([
            Field::YouPlay,
            Field::Opponent,
            Field::TimeControl,
            Field::ThinkTime,
        ]);
        fields
    }

    /// Whether the new-game screen was opened from a game (Esc goes back to it).
    pub fn in_game_setup(&self) -> bool {
        self.setup.backup.is_some()
    }

    /// Opens the new-game screen over the game, prefilled with its settings.
    pub(super) fn open_setup(&mut self) {
        self.setup.backup = Some(self.settings.clone());
        self.screen = Screen::Setup;
        self.setup.field = 0;
        self.line.text.clear();
    }

    pub(super) fn on_setup_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        let rows = self.setup_fields().len();
        match key.code {
            KeyCode::Up => self.setup.field = (self.setup.field + rows - 1) % rows,
            KeyCode::Down | KeyCode::Tab => self.setup.field = (self.setup.field + 1) % rows,
            KeyCode::Left | KeyCode::Right | KeyCode::Char(' ') => {
                let forward = key.code != KeyCode::Left;
                self.cycle_setup(forward);
            }
            KeyCode::Enter => self.start_from_setup(fx),
            KeyCode::Esc | KeyCode::Char('q') => match self.setup.backup.take() {
                // Opened from a game: back to it, nothing changed.
                Some(saved) => {
                    self.settings = saved;
                    self.screen = Screen::Game;
                    // An engine's move may have arrived meanwhile; the next one is due now.
                    self.maybe_search(fx);
                }
                None => fx.push(Effect::Quit),
            },
            KeyCode::F(1) | KeyCode::Char('?') => self.show_help = true,
            _ => {}
        }
    }

    fn cycle_setup(&mut self, forward: bool) {
        let step = |i: usize, n: usize| {
            if forward {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            }
        };
        let Some(&field) = self.setup_fields().get(self.setup.field) else {
            return;
        };
        let s = &mut self.settings;
        match field {
            Field::Resume => self.setup.resume_chosen = !self.setup.resume_chosen,
            Field::YouPlay => {
                let i = YouPlay::ALL
                    .iter()
                    .position(|&y| y == YouPlay::of(s))
                    .unwrap_or(0);
                let opp = opponent(s);
                let choice = YouPlay::ALL[step(i, YouPlay::ALL.len())];
                (s.white, s.black) = match choice {
                    YouPlay::White | YouPlay::Random => (Side::Human, opp),
                    YouPlay::Black => (opp, Side::Human),
                    YouPlay::Both => (Side::Human, Side::Human),
                    YouPlay::Neither => (opp.clone(), opp),
                };
                s.random_colour = choice == YouPlay::Random;
            }
            Field::Opponent => {
                let list = opponents(s);
                let current = (opponent(s), s.level);
                let i = list
                    .iter()
                    .position(|(side, level)| {
                        *side == current.0 && (*side != Side::Engine || *level == current.1)
                    })
                    .unwrap_or(MAX_LEVEL as usize - 1);
                let (side, level) = list[step(i, list.len())].clone();
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
            Field::TimeControl => {
                let i = TC_CHOICES.iter().position(|t| *t == s.tc).unwrap_or(0);
                s.tc = TC_CHOICES[step(i, TC_CHOICES.len())].to_string();
            }
            Field::ThinkTime => {
                let i = THINK_CHOICES
                    .iter()
                    .position(|t| *t == s.think_ms)
                    .unwrap_or(2);
                s.think_ms = THINK_CHOICES[step(i, THINK_CHOICES.len())];
            }
        }
    }

    /// Enter: resume the unfinished game or start a new one with the choices made.
    fn start_from_setup(&mut self, fx: &mut Vec<Effect>) {
        self.setup.backup = None;
        if self.settings.random_colour {
            let human_white = crate::book::BookRng::from_entropy().below(2) == 0;
            let opp = opponent(&self.settings);
            (self.settings.white, self.settings.black) = if human_white {
                (Side::Human, opp)
            } else {
                (opp, Side::Human)
            };
        }
        let humans = [Color::White, Color::Black]
            .iter()
            .filter(|&&c| self.settings.side(c).is_human())
            .count();
        if humans == 0 {
            self.mode = Mode::Watch;
            if self.watch.min_delay.is_zero() {
                self.watch.min_delay = Duration::from_millis(800);
            }
        } else {
            self.mode = Mode::Play;
        }
        self.screen = Screen::Game;
        self.watch.think_ms = [self.settings.think_ms; 2];
        self.flipped = !self.settings.white.is_human() && self.settings.black.is_human();
        fx.push(Effect::SaveSettings);
        let resumed = if self.setup.resume_chosen {
            self.setup.resume.take()
        } else {
            None
        };
        let game = match resumed {
            Some(game) => {
                // The unfinished game goes on between its own players.
                self.settings.adopt_players(&game);
                self.flipped = !self.settings.white.is_human() && self.settings.black.is_human();
                game
            }
            None => self.fresh_game(),
        };
        self.setup.resume = None;
        self.begin_game(game, fx);
        let you = match (
            self.settings.white.is_human(),
            self.settings.black.is_human(),
        ) {
            (true, false) => "You play White. ",
            (false, true) => "You play Black. ",
            _ => "",
        };
        self.say(
            format!("{you}Type a move (e2e4 or Nf3) or a command; ? for help."),
            Tone::Info,
        );
    }
}
