//! The settings screen: what the config file keeps, changed on screen and saved at once, with
//! the file's comments and the keys Knightfall does not know kept as they are. The board's
//! look, the bell, the evaluation, your name, the defaults of a new game, the search threads,
//! more tablebases, and the engines to play against (added once they answer as UCI engines).

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::chrome::command::{Command, Common};
use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, ctrl, key};
use super::chrome::run::{self, Boardless, Screen};
use super::screen::{Action, Effect, Palette, Tone};
use crate::engine::strength::{LEVEL_ELO, MAX_LEVEL, label_for_elo};
use crate::external::EngineSpec;
use crate::store::settings::{Settings, TC_CHOICES, THINK_CHOICES};
use crate::theme::Theme;

/// A row of the settings screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// The board's colours.
    Theme,
    /// Figurines or ASCII letters.
    Pieces,
    /// The bell at low time and flag fall.
    Sound,
    /// The bell on the engine's moves too.
    MoveBell,
    /// The evaluation during a game against the engine.
    ShowEval,
    /// Your name in games from elsewhere.
    Name,
    /// The opponent's level for a new game.
    Level,
    /// The clock for a new game.
    Clock,
    /// The engine's time per move without a clock.
    ThinkTime,
    /// Search threads at full strength.
    Threads,
    /// More Syzygy tables.
    Syzygy,
    /// The engine reviews search with.
    ReviewEngine,
    /// The engine the analysis board runs.
    AnalysisEngine,
    /// A configured engine, by its place in the list.
    Engine(usize),
    /// A new engine, typed as `NAME = COMMAND` or a command.
    AddEngine,
}

impl Row {
    /// Whether the row is changed by typing (Enter starts), not by stepping through choices.
    pub fn typed(self) -> bool {
        matches!(self, Row::Name | Row::Syzygy | Row::AddEngine)
    }
}

/// The settings screen's own commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsCommand {
    /// The row above.
    Up,
    /// The row below.
    Down,
    /// The choice before, on the row.
    Before,
    /// The next choice, on the row.
    Next,
    /// Start typing the row's text (a text row), or the next choice.
    Edit,
    /// Take the text typed.
    Take,
    /// Drop the text typed.
    Drop,
    /// Clear the text typed, to type it anew.
    Clear,
    /// Remove the engine chosen (asks first).
    Remove,
    /// Yes to the question.
    Yes,
    /// No to the question.
    No,
}

const fn own(command: SettingsCommand) -> Command<SettingsCommand> {
    Command::Own(command)
}

/// The settings screen's keys. While text is typed, Enter and Esc are the text's; while a
/// question waits, y and n answer it.
pub const SETTINGS_KEYS: &[KeyHelp<Command<SettingsCommand>>] = &[
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('y')), key(KeyCode::Enter)],
            own(SettingsCommand::Yes),
        ),
        shown: "y Enter",
        word: "",
        label: "y yes",
        help: "yes: remove the engine",
        when: When::Asking,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('n')), key(KeyCode::Esc)],
            own(SettingsCommand::No),
        ),
        shown: "n Esc",
        word: "",
        label: "n no",
        help: "no: keep it",
        when: When::Asking,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(SettingsCommand::Take)),
        shown: "Enter",
        word: "",
        label: "Enter keep",
        help: "keep the text typed",
        when: When::Typing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Esc)], own(SettingsCommand::Drop)),
        shown: "Esc",
        word: "",
        label: "Esc drop",
        help: "drop the text typed, the setting unchanged",
        when: When::Typing,
    },
    KeyHelp {
        keys: Keys::All(&[ctrl('u')], own(SettingsCommand::Clear)),
        shown: "Ctrl-U",
        word: "",
        label: "",
        help: "clear the text typed",
        when: When::Typing,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), own(SettingsCommand::Up)),
            (key(KeyCode::Down), own(SettingsCommand::Down)),
            (key(KeyCode::Tab), own(SettingsCommand::Down)),
        ]),
        shown: "↑ ↓ Tab",
        word: "",
        label: "↑↓ choose",
        help: "the setting above or below",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Left), own(SettingsCommand::Before)),
            (key(KeyCode::Right), own(SettingsCommand::Next)),
            (key(KeyCode::Char(' ')), own(SettingsCommand::Next)),
        ]),
        shown: "← → Space",
        word: "",
        label: "←→ change",
        help: "the setting's choice before or after (saved at once)",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(SettingsCommand::Edit)),
        shown: "Enter",
        word: "",
        label: "Enter edit",
        help: "type your name, tablebase folders or an engine; elsewhere the next choice",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Delete), key(KeyCode::Char('x'))],
            own(SettingsCommand::Remove),
        ),
        shown: "Delete x",
        word: "",
        label: "x remove",
        help: "on an engine's row: remove it from the config (asks first)",
        when: When::Removable,
    },
    // Not while typing: `?` is then a character of the text.
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('?')), key(KeyCode::F(1))],
            Command::Common(Common::Help),
        ),
        shown: "? F1",
        word: "",
        label: "? help",
        help: "this help",
        when: When::Choosing,
    },
    keys::back(
        "",
        "Esc back",
        "back to the screen it was opened from",
        When::Choosing,
    ),
    keys::exit(),
];

/// The settings screen's state.
#[derive(Clone, Debug)]
pub struct SettingsScreen {
    /// The settings as the config file has them, with the changes made here.
    pub settings: Settings,
    /// The row chosen.
    pub row: usize,
    /// Text being typed on a text row, until Enter keeps it.
    pub typing: Option<String>,
    /// The engine whose removal waits for y or n.
    pub removing: Option<usize>,
    /// The engine being checked before it is added.
    pub checking: Option<String>,
    /// The help overlay.
    pub help: Help,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// Colours and glyphs.
    pub palette: Palette,
    /// The threads the machine has (the most the threads row offers).
    pub cores: usize,
}

/// The longest text typed on a row.
const MAX_TYPED: usize = 512;

impl SettingsScreen {
    /// The screen over `settings` as read from the config file; `cores` bounds the threads.
    pub fn new(settings: Settings, palette: Palette, cores: usize) -> SettingsScreen {
        SettingsScreen {
            settings,
            row: 0,
            typing: None,
            removing: None,
            checking: None,
            help: Help::default(),
            message: None,
            palette,
            cores: cores.max(1),
        }
    }

    /// The rows, top to bottom.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = vec![
            Row::Theme,
            Row::Pieces,
            Row::Sound,
            Row::MoveBell,
            Row::ShowEval,
            Row::Name,
            Row::Level,
            Row::Clock,
            Row::ThinkTime,
            Row::Threads,
            Row::Syzygy,
            Row::ReviewEngine,
            Row::AnalysisEngine,
        ];
        rows.extend((0..self.settings.engines.len()).map(Row::Engine));
        rows.push(Row::AddEngine);
        rows
    }

    /// The row chosen.
    pub fn chosen(&self) -> Row {
        let rows = self.rows();
        rows[self.row.min(rows.len() - 1)]
    }

    /// Which rows of [`SETTINGS_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        let asking = self.removing.is_some();
        let typing = self.typing.is_some();
        match when {
            When::Always => true,
            When::Asking => asking,
            When::Typing => typing && !asking,
            When::Choosing => !typing && !asking,
            When::Removable => !typing && !asking && matches!(self.chosen(), Row::Engine(_)),
            _ => false,
        }
    }

    /// The command `key` gives now; `None` while typing: the key is typed.
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<SettingsCommand>> {
        keys::while_typing(SETTINGS_KEYS, key, self.typing.is_some(), |w| {
            self.keys_apply(w)
        })
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
            Action::Note(text, tone) => self.message = Some((text, tone)),
            Action::Checked(spec, result) => self.checked(*spec, result, &mut fx),
            _ => {}
        }
        fx
    }

    fn command(&mut self, command: SettingsCommand, fx: &mut Vec<Effect>) {
        let n = self.rows().len();
        match command {
            SettingsCommand::Up => self.row = (self.row + n - 1) % n,
            SettingsCommand::Down => self.row = (self.row + 1) % n,
            SettingsCommand::Before => self.step(false, fx),
            SettingsCommand::Next => self.step(true, fx),
            SettingsCommand::Edit => {
                let row = self.chosen();
                if row.typed() {
                    self.typing = Some(match row {
                        Row::Name => self.settings.name.clone(),
                        Row::Syzygy => self.settings.syzygy.clone(),
                        _ => String::new(),
                    });
                    self.message = None;
                } else {
                    self.step(true, fx);
                }
            }
            SettingsCommand::Take => self.take(fx),
            SettingsCommand::Drop => {
                self.typing = None;
                self.message = None;
            }
            SettingsCommand::Clear => {
                if let Some(text) = self.typing.as_mut() {
                    text.clear();
                }
            }
            SettingsCommand::Remove => {
                if let Row::Engine(i) = self.chosen() {
                    self.removing = Some(i);
                    let name = &self.settings.engines[i].name;
                    self.say(
                        format!("Remove the engine {name} from the config file? (y/n)"),
                        Tone::Info,
                    );
                }
            }
            SettingsCommand::Yes => {
                if let Some(i) = self.removing.take()
                    && i < self.settings.engines.len()
                {
                    let gone = self.settings.engines.remove(i);
                    // Reviews and the board no longer name it: Knightfall's own again.
                    let s = &mut self.settings;
                    for chosen in [&mut s.review_engine, &mut s.analysis_engine] {
                        if chosen.trim().eq_ignore_ascii_case(&gone.name) {
                            chosen.clear();
                        }
                    }
                    self.row = self.row.min(self.rows().len() - 1);
                    self.save(format!("Removed {}.", gone.name), fx);
                }
            }
            SettingsCommand::No => {
                self.removing = None;
                self.say("Kept.".into(), Tone::Info);
            }
        }
    }

    /// A key while typing: a character added, Backspace takes one back.
    fn type_key(&mut self, key: &KeyEvent) {
        let Some(text) = self.typing.as_mut() else {
            return;
        };
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char(c) if !ctrl && text.chars().count() < MAX_TYPED => text.push(c),
            KeyCode::Backspace if !ctrl => {
                text.pop();
            }
            _ => {}
        }
    }

    /// Enter on a text row: the text kept, when it is one the row can take.
    fn take(&mut self, fx: &mut Vec<Effect>) {
        let Some(text) = self.typing.take() else {
            return;
        };
        let text = text.trim().to_string();
        match self.chosen() {
            Row::Name => {
                self.settings.name = text;
                let said = if self.settings.name.is_empty() {
                    "Your name cleared.".to_string()
                } else {
                    format!("Your name is {}.", self.settings.name)
                };
                self.save(said, fx);
            }
            Row::Syzygy => {
                self.settings.syzygy = text;
                self.save(
                    "Tablebase folders kept; they are read at the next start.".into(),
                    fx,
                );
            }
            Row::AddEngine => match engine_spec(&text) {
                Ok(spec) if self.settings.engines.iter().any(|e| e.name == spec.name) => {
                    self.typing = Some(text);
                    self.say(
                        format!("There is an engine named {} already.", spec.name),
                        Tone::Error,
                    );
                }
                Ok(spec) => {
                    self.checking = Some(spec.name.clone());
                    self.say(
                        format!("Starting {} to see that it speaks UCI...", spec.name),
                        Tone::Info,
                    );
                    fx.push(Effect::CheckEngine(Box::new(spec)));
                }
                Err(why) => {
                    self.typing = Some(text);
                    self.say(why, Tone::Error);
                }
            },
            _ => {}
        }
    }

    /// The answer to [`Effect::CheckEngine`]: the engine added and saved, or why not.
    fn checked(&mut self, spec: EngineSpec, result: Result<(), String>, fx: &mut Vec<Effect>) {
        self.checking = None;
        if self.chosen() != Row::AddEngine {
            self.row = self.rows().len() - 1;
        }
        match result {
            Ok(()) if !self.settings.engines.iter().any(|e| e.name == spec.name) => {
                let name = spec.name.clone();
                self.settings.engines.push(spec);
                self.save(
                    format!("Added {name}: the new-game screen offers it as an opponent."),
                    fx,
                );
            }
            Ok(()) => {}
            Err(why) => {
                // What was typed comes back, to mend.
                self.typing = Some(format!("{} = {}", spec.name, spec.command));
                self.say(format!("Not added: {why}"), Tone::Error);
            }
        }
    }

    /// The row's choice before or after the one it has; saved at once.
    fn step(&mut self, forward: bool, fx: &mut Vec<Effect>) {
        let row = self.chosen();
        let s = &mut self.settings;
        match row {
            Row::Theme => {
                let i = Theme::ALL.iter().position(|&t| t == s.theme).unwrap_or(0);
                s.theme = Theme::ALL[turn(i, Theme::ALL.len(), forward)];
            }
            Row::Pieces => s.ascii = !s.ascii,
            Row::Sound => s.sound = !s.sound,
            Row::MoveBell => s.move_bell = !s.move_bell,
            Row::ShowEval => s.show_eval = !s.show_eval,
            Row::Level => {
                let level = usize::from(s.level.clamp(1, MAX_LEVEL)) - 1;
                s.level = turn(level, usize::from(MAX_LEVEL), forward) as u8 + 1;
                (s.white_level, s.black_level) = (None, None);
            }
            Row::Clock => {
                // A clock of the player's own stays among the choices, after the usual ones.
                let mut choices: Vec<String> = TC_CHOICES.iter().map(|t| t.to_string()).collect();
                if !choices.contains(&s.tc) {
                    choices.push(s.tc.clone());
                }
                let i = choices.iter().position(|t| *t == s.tc).unwrap_or(0);
                s.tc = choices[turn(i, choices.len(), forward)].clone();
            }
            Row::ThinkTime => {
                let i = THINK_CHOICES
                    .iter()
                    .position(|&t| t == s.think_ms)
                    .unwrap_or(2);
                s.think_ms = THINK_CHOICES[turn(i, THINK_CHOICES.len(), forward)];
            }
            Row::Threads => {
                // 0 is every core; then 1 up to the cores there are.
                s.threads = turn(s.threads.min(self.cores), self.cores + 1, forward);
            }
            Row::ReviewEngine => s.review_engine = next_engine(s, &s.review_engine, forward),
            Row::AnalysisEngine => {
                s.analysis_engine = next_engine(s, &s.analysis_engine, forward);
            }
            Row::Name | Row::Syzygy | Row::AddEngine | Row::Engine(_) => return,
        }
        let later = if row == Row::Threads {
            " (from the next start)"
        } else {
            ""
        };
        self.save(
            format!("{}: {}{later}. Saved.", row_name(row), self.value(row)),
            fx,
        );
    }

    /// Saves the settings and says `said` (the runner's answer replaces it if the save fails).
    fn save(&mut self, said: String, fx: &mut Vec<Effect>) {
        self.palette.theme = self.settings.theme;
        self.palette.ascii = self.settings.ascii;
        self.say(said, Tone::Info);
        fx.push(Effect::SaveConfig(Box::new(self.settings.clone())));
    }

    /// The value a row shows.
    pub fn value(&self, row: Row) -> String {
        let s = &self.settings;
        let on = |b: bool| if b { "on" } else { "off" }.to_string();
        match row {
            Row::Theme => s.theme.name().to_string(),
            Row::Pieces => if s.ascii { "letters" } else { "figurines" }.to_string(),
            Row::Sound => on(s.sound),
            Row::MoveBell => on(s.move_bell),
            Row::ShowEval => if s.show_eval { "shown" } else { "hidden" }.to_string(),
            Row::Name if s.name.is_empty() => "-".to_string(),
            Row::Name => s.name.clone(),
            Row::Level => {
                let level = s.level.clamp(1, MAX_LEVEL);
                let elo = LEVEL_ELO[usize::from(level) - 1];
                format!("{level} (~{elo}, {})", label_for_elo(elo))
            }
            Row::Clock => clock_words(&s.tc),
            Row::ThinkTime => format!("{} ms", s.think_ms),
            Row::Threads if s.threads == 0 => format!("every core ({})", self.cores),
            Row::Threads => s.threads.to_string(),
            Row::Syzygy if s.syzygy.is_empty() => "built-in only".to_string(),
            Row::Syzygy => s.syzygy.clone(),
            Row::ReviewEngine => engine_words(&s.review_engine),
            Row::AnalysisEngine => engine_words(&s.analysis_engine),
            Row::Engine(i) => s
                .engines
                .get(i)
                .map(|e| format!("{}: {}", e.name, e.command))
                .unwrap_or_default(),
            Row::AddEngine => match &self.checking {
                Some(name) => format!("checking {name}..."),
                None => "NAME = COMMAND".to_string(),
            },
        }
    }
}

/// The engine after (or before) `now` among Knightfall's own and the configured engines, for
/// `review_engine` or `analysis_engine`; a `uci:` command of the player's own stays a choice.
fn next_engine(s: &Settings, now: &str, forward: bool) -> String {
    let mut choices: Vec<String> = std::iter::once(String::new())
        .chain(s.engines.iter().map(|e| e.name.clone()))
        .collect();
    if !choices.iter().any(|c| c.eq_ignore_ascii_case(now.trim())) && !is_own(now) {
        choices.push(now.to_string());
    }
    let i = choices
        .iter()
        .position(|c| c.eq_ignore_ascii_case(now.trim()) || c.is_empty() && is_own(now))
        .unwrap_or(0);
    choices[turn(i, choices.len(), forward)].clone()
}

/// Whether `text` names Knightfall's own engine for a review or the board.
fn is_own(text: &str) -> bool {
    matches!(
        text.trim().to_ascii_lowercase().as_str(),
        "" | "knightfall" | "engine"
    )
}

/// How the review or analysis engine `text` shows.
fn engine_words(text: &str) -> String {
    if is_own(text) {
        "Knightfall".to_string()
    } else {
        text.to_string()
    }
}

/// A row's name on the screen.
pub fn row_name(row: Row) -> &'static str {
    match row {
        Row::Theme => "Board colours",
        Row::Pieces => "Pieces",
        Row::Sound => "Bell at low time",
        Row::MoveBell => "Bell on engine moves",
        Row::ShowEval => "Evaluation in games",
        Row::Name => "Your name",
        Row::Level => "New game: level",
        Row::Clock => "New game: clock",
        Row::ThinkTime => "Engine time a move",
        Row::Threads => "Threads (level 10)",
        Row::Syzygy => "More tablebases",
        Row::ReviewEngine => "Review engine",
        Row::AnalysisEngine => "Analysis engine",
        Row::Engine(_) => "Engine",
        Row::AddEngine => "Add an engine",
    }
}

/// What a row is for, in a line.
pub fn row_about(row: Row) -> &'static str {
    match row {
        Row::Theme => "the board's colours on every screen",
        Row::Pieces => "figurines, or letters for terminals without them",
        Row::Sound => "the terminal bell when your time runs low and when a flag falls",
        Row::MoveBell => "the bell on each of the engine's moves too",
        Row::ShowEval => "the evaluation during a game against the engine (as on lichess)",
        Row::Name => {
            "as lichess or chess.com spell you: reviews and training take that player's moves as yours"
        }
        Row::Level => "the opponent's level the new-game screen starts from",
        Row::Clock => "the clock the new-game screen starts from",
        Row::ThinkTime => "the engine's time a move in games without a clock",
        Row::Threads => "search threads at full strength (from the next start)",
        Row::Syzygy => "folders with more Syzygy tables, DIR:DIR (from the next start)",
        Row::ReviewEngine => "reviews search with Knightfall or an engine added below",
        Row::AnalysisEngine => "the analysis board runs Knightfall or an engine added below",
        Row::Engine(_) => "an engine to play against; x removes it",
        Row::AddEngine => "Enter, then NAME = COMMAND (or the command alone), like sf = stockfish",
    }
}

/// A clock setting in words.
fn clock_words(tc: &str) -> String {
    if tc.is_empty() {
        "no clock".to_string()
    } else {
        tc.to_string()
    }
}

/// `i` one step on (or back) among `n`, round.
fn turn(i: usize, n: usize, forward: bool) -> usize {
    if forward {
        (i + 1) % n
    } else {
        (i + n - 1) % n
    }
}

/// The engine `text` names: `NAME = COMMAND`, or a command named after its program.
pub fn engine_spec(text: &str) -> Result<EngineSpec, String> {
    let (name, command) = match text.split_once('=') {
        Some((name, command)) => (name.trim(), command.trim()),
        None => ("", text.trim()),
    };
    if command.is_empty() {
        return Err("Type the engine's command, like sf = /usr/games/stockfish.".into());
    }
    if shell_words::split(command).map_or(true, |w| w.is_empty()) {
        return Err(format!(
            "{command:?} is not a command: a quote is not closed."
        ));
    }
    let mut spec = EngineSpec::from_command(command);
    if !name.is_empty() {
        spec.name = name.to_string();
    }
    // A name that reads as a player word would be taken as one on the command line.
    if matches!(
        spec.name.to_ascii_lowercase().as_str(),
        "human" | "engine" | "knightfall"
    ) || spec.name.starts_with("uci:")
    {
        return Err(format!(
            "{} names a player already; choose another name.",
            spec.name
        ));
    }
    Ok(spec)
}

/// The settings screen, as the common commands see it: no board; back closes it.
impl Boardless for SettingsScreen {
    fn chrome(&mut self) -> (&mut Help, &mut Option<(String, Tone)>) {
        (&mut self.help, &mut self.message)
    }

    fn board_theme(&self) -> Theme {
        self.palette.theme
    }

    fn opened(&self) -> bool {
        // Settings always open from another screen.
        true
    }
}
