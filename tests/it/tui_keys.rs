//! Every key a screen handles is found through its key table, and every row of the table does
//! something: for each screen, in the states where its rows apply, each row's keys give a
//! command (and running it is fine), every row is reached in some state, and every other key of
//! a broad set (every character, with Ctrl and without, the F keys, the arrows and the other
//! named keys) gives none and changes nothing but what is typed on the input line: no effect,
//! no message, the screen drawn the same. A typed word of a row parses to the row's command.

use std::fmt::Debug;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::game::Game;
use knightfall::line_tree::Tree;
use knightfall::review::analyse;
use knightfall::store::Listed;
use knightfall::store::library::Entry;
use knightfall::store::library::stats::{Played, Record, Stats};
use knightfall::store::settings::{Settings, Side};
use knightfall::tablebase::Tablebases;
use knightfall::train::progress::Progress;
use knightfall::tui::app::{App, GAME_KEYS, GameCommand, Mode};
use knightfall::tui::board::{BOARD_KEYS, Board, BoardCommand};
use knightfall::tui::chrome::command::{Command, Unknown};
use knightfall::tui::chrome::keys::{KeyHelp, When};
use knightfall::tui::home::{HOME_KEYS, HomeCommand, HomeScreen};
use knightfall::tui::library::{LIBRARY_KEYS, LibraryCommand, LibraryScreen};
use knightfall::tui::review::{REVIEW_KEYS, ReviewCommand, ReviewScreen};
use knightfall::tui::screen::{Action, Effect, Palette};
use knightfall::tui::settings::{Row, SETTINGS_KEYS, SettingsCommand, SettingsScreen};
use knightfall::tui::setup::{SETUP_KEYS, SetupCommand, SetupScreen};
use knightfall::tui::stats::{Page, STATS_KEYS, StatsCommand, StatsScreen};
use knightfall::tui::train::{TRAIN_KEYS, Train, TrainCommand};
use knightfall::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// A screen as this test drives it.
trait Probe {
    /// The screen's own commands.
    type Own: Copy + PartialEq + Debug + 'static;
    /// Its key table.
    const TABLE: &'static [KeyHelp<Command<Self::Own>>];
    fn applies(&self, when: When) -> bool;
    fn command_for(&self, key: &KeyEvent) -> Option<Command<Self::Own>>;
    fn press(&mut self, key: KeyEvent) -> Vec<Effect>;
    /// What is typed: the input line, or the clock typed on the new-game screen.
    fn typed(&self) -> String;
    /// Whether something is typed on an input line, where a letter is typed rather than a
    /// command (`letters_are_typed` checks such a state).
    fn typing(&self) -> bool {
        false
    }
    /// The message line.
    fn message(&self) -> String;
    fn help_shown(&self) -> bool;
    fn draw(&self, frame: &mut ratatui::Frame);
}

/// The screen as drawn at 100x30.
fn drawn<S: Probe>(s: &S) -> String {
    let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
    term.draw(|f| s.draw(f)).unwrap();
    format!("{:?}", term.backend().buffer())
}

fn event(code: KeyCode, ctrl: bool) -> KeyEvent {
    let modifiers = if ctrl {
        KeyModifiers::CONTROL
    } else {
        KeyModifiers::NONE
    };
    KeyEvent::new(code, modifiers)
}

/// Every character, every F key and the named keys, each with Ctrl and without.
fn every_key() -> Vec<KeyEvent> {
    let mut codes: Vec<KeyCode> = (' '..='~')
        .chain(['é', '£', 'ß'])
        .map(KeyCode::Char)
        .collect();
    codes.extend((1..=12).map(KeyCode::F));
    codes.extend([
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Backspace,
        KeyCode::Delete,
        KeyCode::Insert,
        KeyCode::Enter,
        KeyCode::Esc,
    ]);
    codes
        .into_iter()
        .flat_map(|c| [event(c, false), event(c, true)])
        .collect()
}

/// Whether a row that applies in `s` has `key`.
fn bound<S: Probe>(s: &S, key: &KeyEvent) -> bool {
    S::TABLE
        .iter()
        .filter(|r| s.applies(r.when))
        .any(|r| r.keys.iter().any(|(b, _)| b.matches(key)))
}

/// A screen's state by name, and how to make it afresh.
type State<S> = (&'static str, fn() -> S);

/// Checks the screen in each of `states` (each made afresh as often as needed); `modal` names
/// the states where a question takes every key.
fn check<S: Probe>(states: &[State<S>], modal: &[&str]) {
    let mut reached = vec![false; S::TABLE.len()];
    for (name, make) in states {
        let s = make();
        for (i, row) in S::TABLE.iter().enumerate() {
            if !s.applies(row.when) || s.typing() {
                continue;
            }
            for (b, command) in row.keys.iter() {
                let key = event(b.code, b.ctrl);
                let got = s.command_for(&key);
                assert!(
                    got.is_some(),
                    "{name}: {key:?} of the row {:?} gives no command",
                    row.shown
                );
                reached[i] |= got == Some(command);
                // Its command runs.
                make().press(key);
            }
        }
        if modal.contains(name) {
            continue;
        }
        for key in every_key() {
            if bound(&s, &key) {
                continue;
            }
            assert_eq!(
                s.command_for(&key),
                None,
                "{name}: {key:?} has no row but gives a command"
            );
            let mut t = make();
            let before = (t.typed(), t.message());
            let screen = drawn(&t);
            let fx = t.press(key);
            assert!(fx.is_empty(), "{name}: {key:?} has no row but did {fx:?}");
            assert_eq!(
                t.message(),
                before.1,
                "{name}: {key:?} has no row but spoke"
            );
            assert!(!t.help_shown(), "{name}: {key:?}");
            let plain = key.modifiers == KeyModifiers::NONE;
            let typed = match key.code {
                KeyCode::Char(c) if plain => t.typed() == format!("{}{c}", before.0),
                KeyCode::Backspace if plain => {
                    let mut less = before.0.clone();
                    less.pop();
                    t.typed() == less
                }
                _ => false,
            };
            assert!(
                t.typed() == before.0 || typed,
                "{name}: {key:?} has no row but changed the typed text to {:?}",
                t.typed()
            );
            if !typed {
                assert_eq!(drawn(&t), screen, "{name}: {key:?} has no row but showed");
            }
        }
    }
    for (row, reached) in S::TABLE.iter().zip(reached) {
        let has_keys = row.keys.iter().next().is_some();
        assert!(
            reached || !has_keys,
            "the row {:?} does what it says in no state",
            row.shown
        );
    }
}

/// A plain letter is typed while something is, and is no command then.
fn letters_are_typed<S: Probe>(s: &S) {
    assert!(s.typing());
    for c in ' '..='~' {
        assert_eq!(
            s.command_for(&event(KeyCode::Char(c), false)),
            None,
            "{c:?}"
        );
    }
}

/// Every row's typed word parses to a command one of its keys gives (to some command, for a
/// row with no key), and a word of no row is refused by name.
fn words_parse<S>(table: &[KeyHelp<Command<S>>])
where
    S: FromStr<Err = Unknown> + Copy + PartialEq + Debug,
{
    for row in table.iter().filter(|r| !r.word.is_empty()) {
        let command = row
            .word
            .parse::<Command<S>>()
            .unwrap_or_else(|e| panic!("{e}"));
        let keyed = row.keys.iter().map(|(_, c)| c).collect::<Vec<_>>();
        assert!(
            keyed.is_empty() || keyed.contains(&command),
            "{:?} parses to {command:?}, not its keys' {keyed:?}",
            row.word
        );
    }
    let refused = "flpi".parse::<Command<S>>().unwrap_err();
    assert_eq!(refused.to_string(), "unknown command 'flpi': type help");
}

fn palette() -> Palette {
    Palette {
        no_color: true,
        truecolor: false,
        ascii: false,
        theme: Default::default(),
    }
}

// The game.

impl Probe for App {
    type Own = GameCommand;
    const TABLE: &'static [KeyHelp<Command<GameCommand>>] = GAME_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<GameCommand>> {
        App::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        self.line.text.clone()
    }
    fn typing(&self) -> bool {
        !self.line.text.is_empty()
    }
    fn message(&self) -> String {
        format!("{:?}", self.line.message)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::draw(frame, self);
    }
}

fn game(white: Side, black: Side, mode: Mode, pgn: &str) -> App {
    let settings = Settings {
        white,
        black,
        ..Settings::default()
    };
    let game = if pgn.is_empty() {
        Game::new()
    } else {
        Game::from_pgn(pgn).unwrap()
    };
    App::new(settings, game, mode, Instant::now())
}

fn playing() -> App {
    game(Side::Human, Side::Engine, Mode::Play, "")
}

fn watching() -> App {
    game(Side::Engine, Side::Engine, Mode::Watch, "")
}

fn asked_to_resign() -> App {
    let mut app = playing();
    app.press(event(KeyCode::Char('r'), true));
    assert!(app.offers.confirm.is_some());
    app
}

fn over() -> App {
    game(
        Side::Human,
        Side::Human,
        Mode::Play,
        "1. f3 e5 2. g4 Qh4# 0-1",
    )
}

fn typing_a_move() -> App {
    let mut app = game(Side::Human, Side::Human, Mode::Play, "1. e4 e5");
    app.line.text = "Nf".to_string();
    app
}

#[test]
fn every_key_the_game_handles_is_in_its_table() {
    check::<App>(
        &[
            ("playing", playing),
            ("watching", watching),
            ("asked to resign", asked_to_resign),
            ("over", over),
            ("typing a move", typing_a_move),
        ],
        &[],
    );
    letters_are_typed(&typing_a_move());
    words_parse(GAME_KEYS);
}

// The analysis board.

impl Probe for Board {
    type Own = BoardCommand;
    const TABLE: &'static [KeyHelp<Command<BoardCommand>>] = BOARD_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<BoardCommand>> {
        Board::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        self.input.clone()
    }
    fn typing(&self) -> bool {
        !self.input.is_empty()
    }
    fn message(&self) -> String {
        format!("{:?}", self.message)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::board_screen::draw(frame, self);
    }
}

/// A board with a side line, in the middle of its main line.
fn board(from_game: bool) -> Board {
    let tree = Tree::from_pgn("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 *").unwrap();
    let at = tree.node(0).children[0];
    let mut b = Board::new(tree, at, palette(), from_game);
    b.start();
    b
}

fn board_alone() -> Board {
    board(false)
}

fn board_opened() -> Board {
    board(true)
}

fn board_typing() -> Board {
    let mut b = board(false);
    b.input = "e".to_string();
    b
}

#[test]
fn every_key_the_board_handles_is_in_its_table() {
    check::<Board>(
        &[
            ("alone", board_alone),
            ("opened from a game", board_opened),
            ("typing a move", board_typing),
        ],
        &[],
    );
    let typing = board_typing();
    letters_are_typed(&typing);
    // The arrows and the page keys wait for the move typed: it is for the position shown.
    for code in [KeyCode::Left, KeyCode::Down, KeyCode::Home, KeyCode::PageUp] {
        assert_eq!(typing.command_for(&event(code, false)), None, "{code:?}");
    }
    words_parse(BOARD_KEYS);
}

// The review.

impl Probe for ReviewScreen {
    type Own = ReviewCommand;
    const TABLE: &'static [KeyHelp<Command<ReviewCommand>>] = REVIEW_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<ReviewCommand>> {
        ReviewScreen::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        String::new()
    }
    fn message(&self) -> String {
        self.message.clone()
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::review::draw(frame, self);
    }
}

fn review(games: usize, from_game: bool, open: bool) -> ReviewScreen {
    let listed = (0..games)
        .map(|i| {
            let game = Game::from_pgn("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0").unwrap();
            Listed::of_game(format!("game{i}.pgn").into(), 1, &game)
        })
        .collect();
    let settings = analyse::Settings {
        movetime_ms: 100,
        threads: 1,
        tablebases: None,
        engine: None,
    };
    let mut s = ReviewScreen::new(listed, settings, palette(), from_game);
    if open {
        s.start(Some(0));
        s.ply = 2;
    }
    s
}

fn choosing_alone() -> ReviewScreen {
    review(3, false, false)
}

fn choosing_opened() -> ReviewScreen {
    review(3, true, false)
}

fn reviewing_from_a_list() -> ReviewScreen {
    review(3, false, true)
}

fn reviewing_alone() -> ReviewScreen {
    review(1, false, true)
}

fn reviewing_opened() -> ReviewScreen {
    review(1, true, true)
}

fn asked_to_delete() -> ReviewScreen {
    let mut s = choosing_alone();
    s.press(event(KeyCode::Char('d'), false));
    assert!(s.confirm_delete.is_some());
    s
}

#[test]
fn every_key_the_review_handles_is_in_its_table() {
    check::<ReviewScreen>(
        &[
            ("choosing alone", choosing_alone),
            ("choosing opened from a game", choosing_opened),
            ("reviewing from a list", reviewing_from_a_list),
            ("reviewing alone", reviewing_alone),
            ("reviewing opened from a game", reviewing_opened),
            ("asked to delete", asked_to_delete),
        ],
        &["asked to delete"],
    );
    // Asked to delete, y deletes and any other key keeps the game.
    for key in every_key() {
        let mut s = asked_to_delete();
        let fx = s.press(key);
        let yes =
            matches!(key.code, KeyCode::Char('y' | 'Y')) && key.modifiers == KeyModifiers::NONE;
        assert_eq!(s.listed.len(), if yes { 2 } else { 3 }, "{key:?}");
        assert_eq!(!fx.is_empty(), yes, "{key:?}: {fx:?}");
        assert!(s.confirm_delete.is_none(), "{key:?}");
    }
}

// The new-game screen.

impl Probe for SetupScreen {
    type Own = SetupCommand;
    const TABLE: &'static [KeyHelp<Command<SetupCommand>>] = SETUP_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<SetupCommand>> {
        SetupScreen::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        self.custom_tc.clone().unwrap_or_default()
    }
    fn message(&self) -> String {
        format!("{:?}", self.note)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::setup::draw(frame, self);
    }
}

fn setup(from_game: bool) -> SetupScreen {
    SetupScreen::new(Settings::default(), Vec::new(), from_game, palette(), 7)
}

fn setup_alone() -> SetupScreen {
    setup(false)
}

fn setup_opened() -> SetupScreen {
    setup(true)
}

fn typing_a_clock() -> SetupScreen {
    let mut s = setup(false);
    s.press(event(KeyCode::Down, false));
    s.press(event(KeyCode::Down, false));
    s.press(event(KeyCode::Char('7'), false));
    assert_eq!(s.custom_tc.as_deref(), Some("7"));
    s
}

#[test]
fn every_key_the_new_game_screen_handles_is_in_its_table() {
    check::<SetupScreen>(
        &[
            ("at the start", setup_alone),
            ("opened from a game", setup_opened),
            ("typing a clock", typing_a_clock),
        ],
        &[],
    );
}

// The home screen.

impl Probe for HomeScreen {
    type Own = HomeCommand;
    const TABLE: &'static [KeyHelp<Command<HomeCommand>>] = HOME_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<HomeCommand>> {
        HomeScreen::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        String::new()
    }
    fn message(&self) -> String {
        format!("{:?}", self.message)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::home::draw(frame, self);
    }
}

#[test]
fn every_key_the_home_screen_handles_is_in_its_table() {
    check::<HomeScreen>(
        &[
            ("at the start", || {
                HomeScreen::new(Vec::new(), false, palette())
            }),
            ("opened from a game", || {
                HomeScreen::new(Vec::new(), true, palette())
            }),
        ],
        &[],
    );
}

// The settings screen.

impl Probe for SettingsScreen {
    type Own = SettingsCommand;
    const TABLE: &'static [KeyHelp<Command<SettingsCommand>>] = SETTINGS_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<SettingsCommand>> {
        SettingsScreen::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        self.typing.clone().unwrap_or_default()
    }
    fn message(&self) -> String {
        format!("{:?}", self.message)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::settings::draw(frame, self);
    }
}

fn settings_screen() -> SettingsScreen {
    let settings = Settings {
        engines: vec![knightfall::external::EngineSpec {
            name: "sf".into(),
            command: "stockfish".into(),
            options: Vec::new(),
        }],
        ..Settings::default()
    };
    SettingsScreen::new(settings, palette(), 2)
}

fn on_an_engine() -> SettingsScreen {
    let mut s = settings_screen();
    s.row = s.rows().len() - 2;
    s
}

fn asked_to_remove() -> SettingsScreen {
    let mut s = on_an_engine();
    s.press(event(KeyCode::Char('x'), false));
    assert!(s.removing.is_some());
    s
}

fn typing_a_name() -> SettingsScreen {
    let mut s = settings_screen();
    s.row = 5;
    s.press(event(KeyCode::Enter, false));
    s.press(event(KeyCode::Char('A'), false));
    assert_eq!(s.typing.as_deref(), Some("A"));
    s
}

#[test]
fn every_key_the_settings_screen_handles_is_in_its_table() {
    check::<SettingsScreen>(
        &[
            ("on a setting", settings_screen),
            ("on an engine", on_an_engine),
            ("asked to remove an engine", asked_to_remove),
            ("typing a name", typing_a_name),
        ],
        &["asked to remove an engine"],
    );
    // While typing, every letter is text, even `?` and `q`.
    let mut s = typing_a_name();
    for c in ['?', 'q', 'x', 'y'] {
        assert_eq!(s.command_for(&event(KeyCode::Char(c), false)), None);
        s.press(event(KeyCode::Char(c), false));
    }
    assert_eq!(s.typing.as_deref(), Some("A?qxy"));
}

#[test]
fn the_review_and_board_engines_step_through_knightfall_and_the_configured_ones() {
    let mut s = settings_screen();
    for row in [Row::ReviewEngine, Row::AnalysisEngine] {
        s.row = s.rows().iter().position(|&r| r == row).unwrap();
        assert_eq!(s.value(row), "Knightfall");
        let fx = s.press(event(KeyCode::Right, false));
        assert_eq!(s.value(row), "sf");
        assert!(
            fx.iter().any(|e| matches!(e, Effect::SaveConfig(_))),
            "saved at once"
        );
        s.press(event(KeyCode::Right, false));
        assert_eq!(s.value(row), "Knightfall");
        s.press(event(KeyCode::Left, false));
        assert_eq!(s.value(row), "sf");
    }
    assert_eq!(
        (
            s.settings.review_engine.as_str(),
            s.settings.analysis_engine.as_str()
        ),
        ("sf", "sf")
    );
    // A `uci:` command of the player's own (from the config file) shows, and steps on.
    s.settings.review_engine = "uci:/usr/games/stockfish".into();
    assert_eq!(s.value(Row::ReviewEngine), "uci:/usr/games/stockfish");
    s.row = s
        .rows()
        .iter()
        .position(|&r| r == Row::ReviewEngine)
        .unwrap();
    s.press(event(KeyCode::Right, false));
    assert_eq!(s.value(Row::ReviewEngine), "Knightfall");
    // The engine removed is nobody's review or board engine any more.
    let mut s = asked_to_remove();
    s.settings.analysis_engine = "SF".into();
    s.press(event(KeyCode::Char('y'), false));
    assert!(s.settings.engines.is_empty());
    assert_eq!(s.value(Row::AnalysisEngine), "Knightfall");
}

// Training.

impl Probe for Train {
    type Own = TrainCommand;
    const TABLE: &'static [KeyHelp<Command<TrainCommand>>] = TRAIN_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<TrainCommand>> {
        Train::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        self.input.clone()
    }
    fn typing(&self) -> bool {
        !self.input.is_empty()
    }
    fn message(&self) -> String {
        format!("{:?}", self.message)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::train::draw(frame, self);
    }
}

fn training(from_game: bool) -> Train {
    static TABLES: OnceLock<Arc<Tablebases>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| Arc::new(Tablebases::embedded()));
    Train::new(
        Arc::clone(tables),
        Progress::default(),
        palette(),
        from_game,
        42,
    )
}

fn training_list_alone() -> Train {
    training(false)
}

fn training_list_opened() -> Train {
    training(true)
}

fn training_typing_an_ending() -> Train {
    let mut t = training(false);
    t.input = "KQ".to_string();
    t
}

fn training_drill() -> Train {
    let mut t = training(true);
    t.open_ending(knightfall::train::Ending::parse("KQvK").unwrap());
    assert!(t.drill().is_some());
    t
}

fn training_puzzle() -> Train {
    let mut t = training(false);
    t.start_puzzle();
    assert!(t.solve().is_some());
    t
}

#[test]
fn every_key_training_handles_is_in_its_table() {
    check::<Train>(
        &[
            ("the list alone", training_list_alone),
            ("the list opened from a game", training_list_opened),
            ("typing an ending", training_typing_an_ending),
            ("a drill", training_drill),
            ("a puzzle", training_puzzle),
        ],
        &[],
    );
    let typing = training_typing_an_ending();
    letters_are_typed(&typing);
    // The list waits for the ending typed for it.
    for code in [KeyCode::Up, KeyCode::Down, KeyCode::Left, KeyCode::Right] {
        assert_eq!(typing.command_for(&event(code, false)), None, "{code:?}");
    }
    words_parse(TRAIN_KEYS);
}

// The statistics screen.

impl Probe for StatsScreen {
    type Own = StatsCommand;
    const TABLE: &'static [KeyHelp<Command<StatsCommand>>] = STATS_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<StatsCommand>> {
        StatsScreen::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        String::new()
    }
    fn message(&self) -> String {
        format!("{:?}", self.message)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::stats::draw(frame, self);
    }
}

/// The statistics of one reviewed game, on `page`.
fn stats(from_game: bool, page: Page) -> StatsScreen {
    let played = Played {
        id: 1,
        date: "2024.03.01".into(),
        white: true,
        opponent: "bob".into(),
        points: 1.0,
        accuracy: 91.5,
        opening: "C20 King's Pawn Game".into(),
    };
    let stats = Stats {
        names: vec!["anna".into()],
        colours: [
            Record {
                wins: 1,
                draws: 0,
                losses: 0,
            },
            Record::default(),
        ],
        best: vec![played],
        ..Stats::default()
    };
    let mut screen = StatsScreen::new(stats, palette(), from_game);
    screen.page = page;
    screen
}

#[test]
fn every_key_the_statistics_screen_handles_is_in_its_table() {
    check::<StatsScreen>(
        &[
            ("alone", || stats(false, Page::Accuracy)),
            ("opened", || stats(true, Page::Results)),
            ("the best and worst games", || stats(true, Page::Games)),
        ],
        &[],
    );
}

// The library screen.

impl Probe for LibraryScreen {
    type Own = LibraryCommand;
    const TABLE: &'static [KeyHelp<Command<LibraryCommand>>] = LIBRARY_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<LibraryCommand>> {
        LibraryScreen::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        self.filter.clone()
    }
    fn message(&self) -> String {
        format!("{:?}", self.message)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::library::draw(frame, self);
    }
}

fn library(from_game: bool) -> LibraryScreen {
    let entries = (0..3)
        .map(|i| Entry {
            id: i,
            white: format!("white{i}"),
            black: "black".into(),
            result: "1-0".into(),
            date: "2024.01.01".into(),
            time_control: "180+2".into(),
            site: String::new(),
            opening: "C20 King's Pawn Game".into(),
            plies: 20,
            review: None,
        })
        .collect();
    LibraryScreen::new(entries, from_game, palette())
}

fn library_alone() -> LibraryScreen {
    library(false)
}

fn library_opened() -> LibraryScreen {
    library(true)
}

fn library_typing() -> LibraryScreen {
    let mut s = library(false);
    s.press(event(KeyCode::Char('/'), false));
    s.press(event(KeyCode::Char('w'), false));
    assert_eq!(s.filter, "w");
    s
}

fn library_filtered() -> LibraryScreen {
    let mut s = library_typing();
    s.press(event(KeyCode::Enter, false));
    assert!(!s.typing && s.filter == "w");
    s
}

#[test]
fn every_key_the_library_screen_handles_is_in_its_table() {
    check::<LibraryScreen>(
        &[
            ("alone", library_alone),
            ("opened from another screen", library_opened),
            ("typing words", library_typing),
            ("narrowed, typing no more", library_filtered),
        ],
        &[],
    );
    // While typing, every letter is a word's, even `?`, `q`, `A` and `/`.
    let mut s = library_typing();
    for c in ['?', 'q', 'A', '/', 'k'] {
        assert_eq!(s.command_for(&event(KeyCode::Char(c), false)), None);
        s.press(event(KeyCode::Char(c), false));
    }
    assert_eq!(s.filter, "w?qA/k");
}

// The friend screen.

impl Probe for knightfall::tui::friend::FriendScreen {
    type Own = knightfall::tui::friend::FriendCommand;
    const TABLE: &'static [KeyHelp<Command<Self::Own>>] = knightfall::tui::friend::FRIEND_KEYS;
    fn applies(&self, when: When) -> bool {
        self.keys_apply(when)
    }
    fn command_for(&self, key: &KeyEvent) -> Option<Command<Self::Own>> {
        knightfall::tui::friend::FriendScreen::command_for(self, key)
    }
    fn press(&mut self, key: KeyEvent) -> Vec<Effect> {
        self.update(Action::Key(key), Instant::now())
    }
    fn typed(&self) -> String {
        self.text(self.chosen_row()).cloned().unwrap_or_default()
    }
    fn typing(&self) -> bool {
        knightfall::tui::friend::FriendScreen::typing(self)
    }
    fn message(&self) -> String {
        format!("{:?}", self.message)
    }
    fn help_shown(&self) -> bool {
        self.help.shown
    }
    fn draw(&self, frame: &mut ratatui::Frame) {
        ui::friend::draw(frame, self);
    }
}

fn friend_form() -> knightfall::tui::friend::FriendScreen {
    knightfall::tui::friend::FriendScreen::new(Vec::new(), None, None, "5+3".into(), palette())
}

fn friend_on_the_code_row() -> knightfall::tui::friend::FriendScreen {
    let mut s = friend_form();
    for _ in 0..3 {
        s.press(event(KeyCode::Down, false));
    }
    assert!(s.typing());
    letters_are_typed(&s);
    s
}

fn friend_waiting() -> knightfall::tui::friend::FriendScreen {
    let mut s = friend_form();
    let fx = s.press(event(KeyCode::Enter, false));
    assert_eq!(fx.len(), 1, "{fx:?}");
    assert!(s.waiting.is_some());
    s
}

#[test]
fn every_key_the_friend_screen_handles_is_in_its_table() {
    check::<knightfall::tui::friend::FriendScreen>(
        &[
            ("on the colour row", friend_form),
            ("on the code row", friend_on_the_code_row),
            ("waiting", friend_waiting),
        ],
        &[],
    );
}
