//! The home screen and the settings screen, run by the runner as the program runs them: the
//! home screen opens every part of Knightfall; the settings are changed on screen, saved into
//! the config file with its comments and unknown keys kept, and taken by the game at once; an
//! engine is added once it answers as a UCI engine, and removed after a question.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::game::Game;
use knightfall::player::Player;
use knightfall::review::analyse;
use knightfall::store::Paths;
use knightfall::tui::app::{App, Mode, Settings};
use knightfall::tui::event::Event;
use knightfall::tui::home::{HomeScreen, Item};
use knightfall::tui::runner::{Front, Runner};
use knightfall::tui::screen::{Action, Effect, Open, Palette};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn temp_home(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("knightfall-home-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("games")).unwrap();
    dir
}

fn paths(home: &Path) -> Paths {
    Paths {
        config: home.join("config.toml"),
        data: home.join("games"),
        autosave: home.join("games/current.pgn"),
    }
}

/// A runner as `knightfall` with no command starts one: a game nobody chose yet, the home
/// screen over it, files kept in `home`.
fn runner(home: &Path) -> Runner {
    let app = App::new(Settings::default(), Game::new(), Mode::Play, Instant::now());
    let review = analyse::Settings {
        movetime_ms: 50,
        threads: 1,
        tablebases: None,
        engine: None,
    };
    let player = Player::new(knightfall::engine::Config::default(), None, None);
    let home_screen = HomeScreen::new(Vec::new(), false, Palette::default());
    Runner::new(
        vec![
            Front::Game(Box::new(app)),
            Front::Home(Box::new(home_screen)),
        ],
        player,
        Some(paths(home)),
        review,
        Palette::default(),
    )
}

fn press(r: &mut Runner, code: KeyCode) {
    r.step(
        Some(Event::Key(KeyEvent::new(code, KeyModifiers::NONE))),
        Instant::now(),
    );
}

fn type_text(r: &mut Runner, text: &str) {
    for c in text.chars() {
        press(r, KeyCode::Char(c));
    }
}

fn screen(r: &mut Runner, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| r.draw(f)).unwrap();
    crate::common::screen_text(&term)
}

fn opened(fx: &[Effect]) -> Option<&Open> {
    fx.iter().find_map(|e| match e {
        Effect::Open(open) => Some(&**open),
        _ => None,
    })
}

#[test]
fn each_item_of_the_home_screen_opens_its_part() {
    let key = |c: char| Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let mut home = HomeScreen::new(Vec::new(), false, Palette::default());
    let now = Instant::now();
    assert!(matches!(
        opened(&home.update(key('p'), now)),
        Some(Open::Setup { watch: false, .. })
    ));
    assert!(matches!(
        opened(&home.update(key('w'), now)),
        Some(Open::Setup { watch: true, .. })
    ));
    assert!(matches!(
        opened(&home.update(key('r'), now)),
        Some(Open::Games)
    ));
    assert!(matches!(
        opened(&home.update(key('b'), now)),
        Some(Open::Board { at: 0, .. })
    ));
    assert!(matches!(
        opened(&home.update(key('t'), now)),
        Some(Open::Train)
    ));
    assert!(matches!(
        opened(&home.update(key('s'), now)),
        Some(Open::Settings)
    ));
    // The arrows and Enter reach the same: the last item leaves.
    home.choice = 0;
    home.update(Action::Key(KeyEvent::from(KeyCode::Up)), now);
    assert_eq!(home.chosen(), Item::Quit);
    let fx = home.update(Action::Key(KeyEvent::from(KeyCode::Enter)), now);
    assert!(matches!(fx.as_slice(), [Effect::Quit]), "{fx:?}");
    // Esc leaves at the start, and goes back to the game when opened from one.
    let fx = home.update(Action::Key(KeyEvent::from(KeyCode::Esc)), now);
    assert!(matches!(fx.as_slice(), [Effect::Quit]), "{fx:?}");
    let mut over_game = HomeScreen::new(Vec::new(), true, Palette::default());
    let fx = over_game.update(Action::Key(KeyEvent::from(KeyCode::Esc)), now);
    assert!(matches!(fx.as_slice(), [Effect::Close]), "{fx:?}");
}

#[test]
fn play_and_watch_from_the_home_screen_start_the_game_below() {
    let home = temp_home("play");
    let mut r = runner(&home);
    let first = screen(&mut r, 80, 24);
    for item in [
        "Play",
        "Review",
        "Analysis board",
        "Train",
        "Watch",
        "Settings",
    ] {
        assert!(first.contains(item), "{item} not offered:\n{first}");
    }
    press(&mut r, KeyCode::Char('w'));
    let setup = screen(&mut r, 80, 24);
    assert!(setup.contains("neither (watch)"), "{setup}");
    // Esc: back home; watch again, and Enter plays it in the game below.
    press(&mut r, KeyCode::Esc);
    assert!(screen(&mut r, 80, 24).contains("Analysis board"));
    press(&mut r, KeyCode::Char('w'));
    press(&mut r, KeyCode::Enter);
    assert_eq!(r.game().unwrap().mode, Mode::Watch);
    assert!(screen(&mut r, 120, 40).contains("cmd>"));
    drop(r);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn review_from_the_home_screen_opens_the_library_with_the_games_folders_games() {
    let home = temp_home("review");
    let mut r = runner(&home);
    press(&mut r, KeyCode::Char('r'));
    let none = screen(&mut r, 120, 40);
    assert!(none.contains("No games yet"), "{none}");
    assert!(none.contains("knightfall games import"), "{none}");
    press(&mut r, KeyCode::Esc);
    std::fs::write(
        home.join("games/20261101-120000.pgn"),
        "[Event \"Casual\"]\n[Date \"2026.11.01\"]\n[White \"Human\"]\n[Black \"Knightfall 0.1.0 (level 3)\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    std::fs::write(
        home.join("games/20261102-120000.pgn"),
        "[Event \"Casual\"]\n[Date \"2026.11.02\"]\n[White \"Human\"]\n[Black \"Human\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n",
    )
    .unwrap();
    // The games folder's new games are brought into the library as it opens, newest first.
    press(&mut r, KeyCode::Char('r'));
    let list = screen(&mut r, 120, 40);
    assert!(list.contains("Library: 2 games"), "{list}");
    let (newer, older) = (list.find("2026.11.02"), list.find("2026.11.01"));
    assert!(newer.is_some() && newer < older, "{list}");
    // `f`: the folder's files, as they are.
    press(&mut r, KeyCode::Char('f'));
    let files = screen(&mut r, 120, 40);
    assert!(files.contains("  4 moves  "), "{files}");
    assert!(files.contains("  1 move  "), "{files}");
    drop(r);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn settings_changed_on_screen_are_saved_with_the_files_comments_and_taken_at_once() {
    let home = temp_home("settings");
    let config = "# my settings\nlevel = 4 # about 1400\nmy_note = \"kept\"\ntheme = \"classic\"\n";
    std::fs::write(home.join("config.toml"), config).unwrap();
    let mut r = runner(&home);
    press(&mut r, KeyCode::Char('s'));
    let shown = screen(&mut r, 80, 24);
    assert!(shown.contains("Board colours"), "{shown}");
    assert!(
        shown.contains("4 (~"),
        "the level as the file has it:\n{shown}"
    );
    // Board colours: the next theme; two rows down, the bell off.
    press(&mut r, KeyCode::Right);
    press(&mut r, KeyCode::Down);
    press(&mut r, KeyCode::Down);
    press(&mut r, KeyCode::Right);
    // Your name, typed.
    for _ in 0..3 {
        press(&mut r, KeyCode::Down);
    }
    press(&mut r, KeyCode::Enter);
    type_text(&mut r, "DrNykterstein");
    press(&mut r, KeyCode::Enter);
    // The level one down.
    press(&mut r, KeyCode::Down);
    press(&mut r, KeyCode::Left);
    let saved = std::fs::read_to_string(home.join("config.toml")).unwrap();
    for kept in [
        "# my settings",
        "level = 3 # about 1400",
        "my_note = \"kept\"",
    ] {
        assert!(saved.contains(kept), "{kept:?} lost:\n{saved}");
    }
    for changed in [
        "theme = \"green\"",
        "sound = false",
        "name = \"DrNykterstein\"",
    ] {
        assert!(saved.contains(changed), "{changed:?} not saved:\n{saved}");
    }
    let shown = screen(&mut r, 80, 24);
    assert!(shown.contains("Saved"), "{shown}");
    // The game below took the look, the sound and the name at once.
    let game = r.game().unwrap();
    assert_eq!(game.settings.theme.name(), "green");
    assert!(!game.settings.sound);
    assert_eq!(game.settings.name, "DrNykterstein");
    // A name typed and dropped with Esc changes nothing.
    press(&mut r, KeyCode::Up);
    press(&mut r, KeyCode::Enter);
    type_text(&mut r, "x");
    press(&mut r, KeyCode::Esc);
    assert_eq!(
        std::fs::read_to_string(home.join("config.toml")).unwrap(),
        saved
    );
    // Back home, then Play: the new-game screen starts from the level chosen.
    press(&mut r, KeyCode::Esc);
    press(&mut r, KeyCode::Char('p'));
    let setup = screen(&mut r, 80, 24);
    assert!(setup.contains("Knightfall 3 ~"), "{setup}");
    drop(r);
    let _ = std::fs::remove_dir_all(&home);
}

/// Steps the runner through the events that arrive until `done`, for at most `secs`.
fn until(r: &mut Runner, secs: u64, done: impl Fn(&mut Runner) -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while !done(r) {
        assert!(Instant::now() < end, "timed out");
        if let Some(ev) = r.waiting_event() {
            r.step(Some(ev), Instant::now());
        } else {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn an_engine_is_added_once_it_answers_uci_and_removed_after_a_question() {
    let home = temp_home("engines");
    let mut r = runner(&home);
    press(&mut r, KeyCode::Char('s'));
    // The last row adds an engine.
    press(&mut r, KeyCode::Up);
    press(&mut r, KeyCode::Enter);
    type_text(&mut r, "nonesuch-engine-9");
    press(&mut r, KeyCode::Enter);
    until(&mut r, 20, |r| screen(r, 120, 40).contains("Not added"));
    let shown = screen(&mut r, 120, 40);
    assert!(shown.contains("no program nonesuch-engine-9"), "{shown}");
    // What was typed comes back to mend; nothing was saved.
    assert!(
        shown.contains("nonesuch-engine-9 = nonesuch-engine-9_"),
        "{shown}"
    );
    assert!(!home.join("config.toml").exists());
    press(&mut r, KeyCode::Esc);
    press(&mut r, KeyCode::Enter);
    type_text(
        &mut r,
        &format!("kf = {} uci", env!("CARGO_BIN_EXE_knightfall")),
    );
    press(&mut r, KeyCode::Enter);
    let config = home.join("config.toml");
    until(&mut r, 30, |_| {
        std::fs::read_to_string(&config).is_ok_and(|c| c.contains("[[engines]]"))
    });
    let saved = std::fs::read_to_string(&config).unwrap();
    assert!(saved.contains("name = \"kf\""), "{saved}");
    let shown = screen(&mut r, 120, 40);
    assert!(shown.contains("Added kf"), "{shown}");
    // The new engine's row is chosen: x asks, n keeps, x and y remove.
    assert!(screen(&mut r, 120, 40).contains("x remove"));
    press(&mut r, KeyCode::Char('x'));
    assert!(screen(&mut r, 120, 40).contains("Remove the engine kf"));
    press(&mut r, KeyCode::Char('n'));
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("[[engines]]")
    );
    press(&mut r, KeyCode::Char('x'));
    press(&mut r, KeyCode::Char('y'));
    let saved = std::fs::read_to_string(&config).unwrap();
    assert!(!saved.contains("[[engines]]"), "{saved}");
    drop(r);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_config_file_that_cannot_be_read_keeps_the_settings_screen_shut() {
    let home = temp_home("bad-config");
    std::fs::write(home.join("config.toml"), "level = [ not toml").unwrap();
    let mut r = runner(&home);
    press(&mut r, KeyCode::Char('s'));
    let shown = screen(&mut r, 120, 40);
    assert!(shown.contains("has an error"), "{shown}");
    assert!(shown.contains("Analysis board"), "still home:\n{shown}");
    assert_eq!(
        std::fs::read_to_string(home.join("config.toml")).unwrap(),
        "level = [ not toml"
    );
    drop(r);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn h_after_a_game_opens_the_home_screen_but_not_while_the_game_goes_on() {
    let settings = Settings {
        white: knightfall::tui::app::Side::Human,
        black: knightfall::tui::app::Side::Human,
        ..Settings::default()
    };
    let now = Instant::now();
    let typed = |app: &mut App, text: &str| {
        let mut fx = Vec::new();
        for c in text.chars() {
            fx = app.update(Action::Key(KeyEvent::from(KeyCode::Char(c))), now);
        }
        fx.extend(app.update(Action::Key(KeyEvent::from(KeyCode::Enter)), now));
        fx
    };
    let going = Game::from_pgn("1. e4 e5 *").unwrap();
    let mut app = App::new(settings.clone(), going, Mode::Play, now);
    let fx = typed(&mut app, "home");
    assert!(opened(&fx).is_none(), "{fx:?}");
    let said = format!("{:?}", app.line.message);
    assert!(said.contains("when the game is over"), "{said}");
    let over = Game::from_pgn("1. f3 e5 2. g4 Qh4# 0-1").unwrap();
    let mut app = App::new(settings, over, Mode::Play, now);
    let fx = app.update(Action::Key(KeyEvent::from(KeyCode::Char('h'))), now);
    assert!(matches!(opened(&fx), Some(Open::Home)), "{fx:?}");
}
