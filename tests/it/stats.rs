//! The player's statistics as they meet them: `knightfall stats` piped prints the figures as
//! text (or how to bring games in when there are none); on the home screen, `i` opens the
//! statistics screen, whose pages are drawn as snapshots, and a game of its best and worst
//! opens on the review screen.

use crate::common::knightfall_at;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::game::Game;
use knightfall::player::Player;
use knightfall::review::analyse::{self, PositionEval};
use knightfall::review::judge::Eval;
use knightfall::store::Paths;
use knightfall::store::library::Library;
use knightfall::store::library::import::Summary;
use knightfall::store::library::reviews::Origin;
use knightfall::tui::app::{App, Mode, Settings};
use knightfall::tui::event::Event;
use knightfall::tui::home::HomeScreen;
use knightfall::tui::runner::{Front, Runner};
use knightfall::tui::screen::Palette;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::Color;

/// A game as lichess exports it.
fn game(date: &str, players: [&str; 2], result: &str, tc: &str, eco: &str, moves: &str) -> String {
    let opening = match eco {
        "C20" => "King's Pawn Game: Wayward Queen Attack",
        "B20" => "Sicilian Defense",
        _ => "Barnes Opening: Fool's Mate",
    };
    format!(
        "[Event \"Rated game\"]\n[Site \"https://lichess.org/{date}\"]\n[Date \"{date}\"]\n\
         [White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[TimeControl \"{tc}\"]\n\
         [ECO \"{eco}\"]\n[Opening \"{opening}\"]\n\n{moves} {result}\n\n",
        players[0], players[1]
    )
}

/// A home whose library holds four games of anna's, three of them reviewed, and one of
/// others.
fn home_with_games(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join(name);
    std::fs::create_dir_all(home.join("games")).unwrap();
    let text = [
        game(
            "2024.03.01",
            ["anna", "bob"],
            "1-0",
            "180+2",
            "C20",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
        ),
        game(
            "2024.03.05",
            ["carl", "anna"],
            "1-0",
            "60+0",
            "C20",
            "1. e4 e5 2. Qh5 Ke7 3. Qxe5#",
        ),
        game(
            "2024.02.10",
            ["anna", "dora"],
            "1/2-1/2",
            "900+10",
            "B20",
            "1. e4 c5",
        ),
        game(
            "2024.02.11",
            ["eve", "frank"],
            "0-1",
            "180+2",
            "C20",
            "1. e4 e5",
        ),
        game(
            "2024.04.01",
            ["gus", "anna"],
            "0-1",
            "-",
            "A00",
            "1. f3 e5 2. g4 Qh4#",
        ),
    ]
    .concat();
    let file = tmp.path().join("lichess.pgn");
    std::fs::write(&file, text).unwrap();
    let mut library = Library::open(&home.join("library.sqlite")).unwrap();
    let mut summary = Summary::default();
    library.import(&file, &mut summary).unwrap();
    assert_eq!(summary.imported, 5);
    let id = |date: &str| {
        library
            .list()
            .unwrap()
            .iter()
            .find(|e| e.date == date)
            .unwrap()
            .id
    };
    let cp = Eval::Cp;
    let reviews = [
        // Black's 3...Nf6 allows mate.
        (
            id("2024.03.01"),
            vec![
                cp(20),
                cp(20),
                cp(30),
                cp(30),
                cp(40),
                cp(40),
                Eval::Mate(1),
                Eval::Checkmate(Color::White),
            ],
        ),
        // Anna's 2...Ke7 allows mate.
        (
            id("2024.03.05"),
            vec![
                cp(20),
                cp(20),
                cp(30),
                cp(30),
                Eval::Mate(1),
                Eval::Checkmate(Color::White),
            ],
        ),
        // White's 2.g4 allows mate.
        (
            id("2024.04.01"),
            vec![
                cp(20),
                cp(-30),
                cp(-40),
                Eval::Mate(-1),
                Eval::Checkmate(Color::Black),
            ],
        ),
    ];
    for (id, evals) in reviews {
        let (mut review, _) = library.review(id).unwrap().unwrap();
        for (slot, eval) in review.evals.iter_mut().zip(evals) {
            *slot = Some(PositionEval {
                eval,
                line: Vec::new(),
                depth: 10,
            });
        }
        library.save_review(id, &review, Origin::Engine).unwrap();
    }
    (tmp, home)
}

#[test]
fn stats_piped_prints_the_players_figures_as_text() {
    let (_tmp, home) = home_with_games("piped");
    let (ok, out, err) = knightfall_at(&home, &["stats", "--player", "ANNA"]);
    assert!(ok, "{err}");
    for line in [
        "Games of anna: 4 finished, 3 reviewed",
        "  with White      2    1      1     0  75.0%",
        "  with Black      2    1      0     1  50.0%",
        "  in all          4    2      1     1  62.5%",
        "  bullet       1    0      0     1    0.0%         1      19.0         1.00             50.00",
        "  blitz        1    1      0     0  100.0%         1     100.0         0.00              0.00",
        "  rapid        1    0      1     0   50.0%         0         -            -                 -",
        "  unknown      1    1      0     0  100.0%         1     100.0         0.00              0.00",
        "  King's Pawn Game  C20      2    1      0     1   50.0%",
        "  King's Pawn Game  C20     1   2  50.0%",
        "  2024.03      2      59.5",
        "  opening                0         0         1         0.33",
        "  12.50 mistakes and blunders per 100 of your moves",
        "What went wrong in your mistakes and blunders",
        "  allowed mate",
        "Worst games, by your accuracy",
        "2024.03.05  Black  lost  vs carl  C20 King's Pawn Game: Wayward Queen Attack",
    ] {
        assert!(out.contains(line), "no {line:?} in:\n{out}");
    }
    // The same with the name in the settings.
    std::fs::write(home.join("config.toml"), "name = \"anna\"\n").unwrap();
    let (ok, named, err) = knightfall_at(&home, &["stats"]);
    assert!(ok, "{err}");
    assert_eq!(named, out);
}

#[test]
fn stats_without_games_of_the_player_says_how_to_bring_them_in() {
    let tmp = tempfile::tempdir().unwrap();
    let (ok, out, err) = knightfall_at(tmp.path(), &["stats"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with(
            "No finished games of yours in the library, and no name of yours set. Import your \
             games with `knightfall games import FILE.pgn`"
        ),
        "{out}"
    );
    assert!(out.contains("--player NAME"), "{out}");
    let (_tmp, home) = home_with_games("nobody");
    let (ok, out, _) = knightfall_at(&home, &["stats", "--player", "zed"]);
    assert!(ok);
    assert!(
        out.starts_with("No finished games of zed in the library."),
        "{out}"
    );
}

/// A runner as `knightfall` starts one, the home screen over a game, files kept in `home`.
fn runner(home: &Path) -> Runner {
    let app = App::new(Settings::default(), Game::new(), Mode::Play, Instant::now());
    let review = analyse::Settings {
        movetime_ms: 20,
        threads: 1,
        tablebases: None,
        engine: None,
    };
    let paths = Paths {
        config: home.join("config.toml"),
        data: home.join("games"),
        autosave: home.join("games/current.pgn"),
    };
    Runner::new(
        vec![
            Front::Game(Box::new(app)),
            Front::Home(Box::new(HomeScreen::new(
                Vec::new(),
                false,
                Palette::default(),
            ))),
        ],
        Player::new(knightfall::engine::Config::default(), None, None),
        Some(paths),
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

fn screen(r: &mut Runner, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| r.draw(f)).unwrap();
    crate::common::screen_text(&term)
}

#[test]
fn the_home_screen_says_how_to_bring_games_in_when_there_are_none() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("games")).unwrap();
    let mut r = runner(tmp.path());
    press(&mut r, KeyCode::Char('i'));
    let shown = screen(&mut r, 80, 24);
    assert!(shown.contains("Statistics"), "{shown}");
    assert!(shown.contains("No finished games of yours"), "{shown}");
}

#[test]
fn the_statistics_screen_shows_each_page_and_reviews_a_game_from_the_last() {
    let (_tmp, home) = home_with_games("screen");
    std::fs::write(home.join("config.toml"), "name = \"anna\"\n").unwrap();
    let mut r = runner(&home);
    press(&mut r, KeyCode::Char('i'));
    insta::assert_snapshot!("stats_accuracy_80x24", screen(&mut r, 80, 24));
    press(&mut r, KeyCode::Tab);
    insta::assert_snapshot!("stats_results_80x24", screen(&mut r, 80, 24));
    press(&mut r, KeyCode::Right);
    insta::assert_snapshot!("stats_openings_80x24", screen(&mut r, 80, 24));
    press(&mut r, KeyCode::Char('4'));
    insta::assert_snapshot!("stats_mistakes_80x24", screen(&mut r, 80, 24));
    // On a shorter screen "What went wrong" is cut short, never moved up under the speeds'
    // box, which would draw over its title.
    for h in 16..24 {
        let shown = screen(&mut r, 80, h);
        assert!(
            !shown.contains("allowed mate") || shown.contains("┌ What went wrong"),
            "{h} rows:\n{shown}"
        );
    }
    press(&mut r, KeyCode::Char('5'));
    press(&mut r, KeyCode::Down);
    press(&mut r, KeyCode::Down);
    insta::assert_snapshot!("stats_games_80x24", screen(&mut r, 80, 24));
    // The worst game, on the review screen; q comes back.
    press(&mut r, KeyCode::Enter);
    let review = screen(&mut r, 120, 40);
    assert!(review.contains("carl - anna"), "{review}");
    press(&mut r, KeyCode::Char('q'));
    let back = screen(&mut r, 80, 24);
    assert!(back.contains("5 Best and worst"), "{back}");
    // Esc: back to the home screen.
    press(&mut r, KeyCode::Esc);
    assert!(screen(&mut r, 80, 24).contains("Analysis board"));
}

#[test]
fn the_library_opens_the_statistics_and_they_go_back_to_it() {
    let (_tmp, home) = home_with_games("from-library");
    std::fs::write(home.join("config.toml"), "name = \"anna\"\n").unwrap();
    let mut r = runner(&home);
    press(&mut r, KeyCode::Char('r'));
    assert!(screen(&mut r, 80, 24).contains("s stats"));
    press(&mut r, KeyCode::Char('s'));
    let shown = screen(&mut r, 80, 24);
    assert!(shown.contains("1 Accuracy"), "{shown}");
    press(&mut r, KeyCode::Esc);
    let back = screen(&mut r, 80, 24);
    assert!(back.contains("s stats"), "{back}");
    assert!(!back.contains("1 Accuracy"), "{back}");
}
