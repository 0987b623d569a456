//! The library screen run by the runner as the program runs it, over a library of its own: the
//! home screen's Review opens it with every game newest first, words typed narrow it, Enter
//! opens the chosen game's review and Esc comes back to the same game and words; the review
//! of every game runs from it in the background and waits while a game is played.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::game::Game;
use knightfall::player::Player;
use knightfall::review::analyse;
use knightfall::store::Paths;
use knightfall::store::library::Library;
use knightfall::store::library::import::Summary;
use knightfall::tui::app::{App, Mode, Settings};
use knightfall::tui::event::Event;
use knightfall::tui::home::HomeScreen;
use knightfall::tui::runner::{Front, Runner};
use knightfall::tui::screen::Palette;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn paths(home: &Path) -> Paths {
    Paths {
        config: home.join("config.toml"),
        data: home.join("games"),
        autosave: home.join("games/current.pgn"),
    }
}

/// A game in lichess's export style, on day `day` of March 2024.
fn game(day: usize, white: &str, black: &str, opening: &str, moves: &str) -> String {
    format!(
        "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/g{day:05}\"]\n\
         [Date \"2024.03.{day:02}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
         [Result \"1-0\"]\n[TimeControl \"180+2\"]\n[ECO \"C20\"]\n[Opening \"{opening}\"]\n\n\
         {moves} 1-0\n\n"
    )
}

/// A home whose library holds five short games, the newest played by bob.
fn home_with_games(dir: &Path) -> PathBuf {
    let home = dir.join("home");
    std::fs::create_dir_all(home.join("games")).unwrap();
    let mate = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#";
    let mut text = String::new();
    text.push_str(&game(1, "anna", "carl", "King's Pawn Game", mate));
    text.push_str(&game(2, "anna", "dora", "Scholar's Mate", mate));
    text.push_str(&game(
        3,
        "eve",
        "anna",
        "King's Pawn Game",
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
    ));
    text.push_str(&game(
        4,
        "anna",
        "carl",
        "Scholar's Mate",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#",
    ));
    text.push_str(&game(5, "bob", "carl", "King's Pawn Game", mate));
    let file = dir.join("lichess.pgn");
    std::fs::write(&file, text).unwrap();
    let mut library = Library::open(&paths(&home).library()).unwrap();
    let mut summary = Summary::default();
    library.import(&file, &mut summary).unwrap();
    assert_eq!(summary.imported, 5, "{summary:?}");
    home
}

/// A runner as `knightfall` starts one: a game nobody chose yet, the home screen over it
/// (opened from the game when `from_game`, so Esc goes back to it).
fn runner(home: &Path, from_game: bool) -> Runner {
    let app = App::new(Settings::default(), Game::new(), Mode::Play, Instant::now());
    let review = analyse::Settings {
        movetime_ms: 20,
        threads: 1,
        tablebases: None,
        engine: None,
    };
    let player = Player::new(knightfall::engine::Config::default(), None, None);
    let home_screen = HomeScreen::new(Vec::new(), from_game, Palette::default());
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

/// The line of the game marked as chosen.
fn chosen(text: &str) -> &str {
    text.lines()
        .find(|l| l.contains('▸'))
        .unwrap_or_else(|| panic!("no game chosen:\n{text}"))
}

/// Steps the runner through the events that arrive until `done`, for at most `secs`.
fn until(r: &mut Runner, secs: u64, done: impl Fn(&mut Runner) -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while !done(r) {
        assert!(Instant::now() < end, "timed out");
        if let Some(ev) = r.waiting_event() {
            r.step(Some(ev), Instant::now());
        } else {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Steps the runner through every event waiting.
fn drain(r: &mut Runner) {
    while let Some(ev) = r.waiting_event() {
        r.step(Some(ev), Instant::now());
    }
}

#[test]
fn the_library_narrows_as_words_are_typed_and_a_review_comes_back_to_the_same_place() {
    let tmp = tempfile::tempdir().unwrap();
    let home = home_with_games(tmp.path());
    let mut r = runner(&home, false);
    press(&mut r, KeyCode::Char('r'));
    let all = screen(&mut r, 80, 24);
    insta::assert_snapshot!("library_80x24", all);
    assert!(all.contains("Library: 5 games"), "{all}");
    assert!(chosen(&all).contains("bob"), "newest first:\n{all}");
    // Two words: both must match, in any column.
    press(&mut r, KeyCode::Char('/'));
    type_text(&mut r, "anna scholar");
    let narrowed = screen(&mut r, 80, 24);
    assert!(narrowed.contains("2 of 5 games match"), "{narrowed}");
    assert!(narrowed.contains("Filter: anna scholar"), "{narrowed}");
    assert!(
        !narrowed.contains("eve") && !narrowed.contains("bob"),
        "{narrowed}"
    );
    press(&mut r, KeyCode::Down);
    let second = chosen(&screen(&mut r, 80, 24)).to_string();
    assert!(
        second.contains("2024.03.02") && second.contains("dora"),
        "{second}"
    );
    // Enter reviews it.
    press(&mut r, KeyCode::Enter);
    let review = screen(&mut r, 100, 30);
    assert!(review.contains("anna - dora"), "{review}");
    until(&mut r, 60, |r| !screen(r, 100, 30).contains("Analysing"));
    // Esc comes back to the same game among the same games, the words kept.
    press(&mut r, KeyCode::Esc);
    let back = screen(&mut r, 80, 24);
    assert!(back.contains("2 of 5 games match"), "{back}");
    assert!(back.contains("Filter: anna scholar"), "{back}");
    assert!(chosen(&back).contains("dora"), "{back}");
    // The review's findings are the library's now, shown on its line.
    let library = Library::open(&paths(&home).library()).unwrap();
    let dora = library
        .list()
        .unwrap()
        .into_iter()
        .find(|e| e.black == "dora")
        .unwrap();
    let kept = dora.review.expect("the review kept in the library");
    assert!(kept.done > 0);
    assert!(chosen(&back).contains(&kept.words()), "{back}");
    // Esc on a narrowed list clears the words first (every game again) rather than leave.
    assert!(back.contains("Esc clear"), "{back}");
    press(&mut r, KeyCode::Esc);
    let cleared = screen(&mut r, 80, 24);
    assert!(cleared.contains("Library: 5 games"), "{cleared}");
    assert!(chosen(&cleared).contains("dora"), "{cleared}");
    // Esc while typing clears the words too.
    press(&mut r, KeyCode::Char('/'));
    type_text(&mut r, "eve");
    press(&mut r, KeyCode::Esc);
    assert!(screen(&mut r, 80, 24).contains("Library: 5 games"));
    // On the whole library, Esc goes back to the home screen.
    press(&mut r, KeyCode::Esc);
    let home = screen(&mut r, 80, 24);
    assert!(home.contains("Analysis board"), "{home}");
}

#[test]
fn the_review_of_every_game_runs_from_the_library_and_waits_while_a_game_is_played() {
    let tmp = tempfile::tempdir().unwrap();
    let home = home_with_games(tmp.path());
    let mut r = runner(&home, true);
    press(&mut r, KeyCode::Char('r'));
    press(&mut r, KeyCode::Char('A'));
    until(&mut r, 60, |r| {
        r.review_all()
            .is_some_and(|b| b.progress.positions_done > 0)
    });
    // At 80 columns too, the progress is whole, over two lines if need be.
    let shown = screen(&mut r, 80, 24);
    assert!(shown.contains("Reviewing every game: "), "{shown}");
    assert!(shown.contains("of 5 games"), "{shown}");
    assert!(shown.contains("(A stops)"), "{shown}");
    // Back to the game (the home screen was opened over it): the review waits.
    press(&mut r, KeyCode::Esc);
    press(&mut r, KeyCode::Esc);
    assert!(r.review_all().is_some_and(|b| b.paused && b.running));
    // Nothing found while it waits.
    drain(&mut r);
    let waiting = r.review_all().map(|b| b.progress.positions_done);
    std::thread::sleep(Duration::from_millis(300));
    drain(&mut r);
    assert_eq!(r.review_all().map(|b| b.progress.positions_done), waiting);
    // The program's end stops it, every position found kept.
    drop(r);
    let library = Library::open(&paths(&home).library()).unwrap();
    let found: i64 = library
        .list()
        .unwrap()
        .iter()
        .filter_map(|e| e.review.map(|s| s.done))
        .sum();
    assert!(found as u64 >= waiting.unwrap_or(0), "{found} {waiting:?}");
}
