//! The new-game screen as a state of its own: the choices it makes, and the game below playing
//! them (the two halves the runner joins: `Effect::Play` from the screen becomes
//! `Action::Play` for the game), opened from a game and left with Esc, the unfinished game it
//! offers, and a `TestBackend` snapshot.

use crate::common;

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::game::Game;
use knightfall::player::Source;
use knightfall::store::{GameKind, Unfinished};
use knightfall::tui::app::{Action, App, Effect, Mode, Settings, Side};
use knightfall::tui::job::{EngineEvent, Purpose};
use knightfall::tui::screen::{Choice, Open, Palette};
use knightfall::tui::setup::{Field, SetupScreen};
use knightfall::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::uci::UciMove;

fn screen(settings: Settings, resume: Option<Game>, from_game: bool) -> SetupScreen {
    let resume = resume
        .map(|game| Unfinished {
            path: "current.pgn".into(),
            game,
        })
        .into_iter()
        .collect();
    SetupScreen::new(settings, resume, from_game, Palette::default(), 7)
}

fn press(s: &mut SetupScreen, codes: &[KeyCode]) -> Vec<Effect> {
    let mut fx = Vec::new();
    for &code in codes {
        fx = s.update(
            Action::Key(KeyEvent::new(code, KeyModifiers::NONE)),
            Instant::now(),
        );
    }
    fx
}

/// The choice Enter hands to the game (the test fails when Enter does not).
fn enter(s: &mut SetupScreen) -> Choice {
    match press(s, &[KeyCode::Enter]).as_slice() {
        [Effect::Play(choice)] => (**choice).clone(),
        fx => panic!("Enter should play the choice: {fx:?}"),
    }
}

/// A game that has not started, as the runner keeps it below the new-game screen at start.
fn waiting_game() -> App {
    App::new(Settings::default(), Game::new(), Mode::Play, Instant::now())
}

fn search_level(fx: &[Effect]) -> Option<Option<u8>> {
    fx.iter().find_map(|e| match e {
        Effect::Search(r) => Some(r.limits.level),
        _ => None,
    })
}

#[test]
fn the_screen_chooses_colour_and_opponent_level_and_the_game_plays_them() {
    let mut s = screen(Settings::default(), None, false);
    assert_eq!(
        s.fields(),
        [
            Field::YouPlay,
            Field::Opponent,
            Field::TimeControl,
            Field::ThinkTime
        ]
    );
    assert_eq!(s.settings.level, 10);
    press(&mut s, &[KeyCode::Down, KeyCode::Left]);
    assert_eq!(s.settings.level, 9);
    press(&mut s, &[KeyCode::Right, KeyCode::Right]);
    assert_eq!(s.settings.level, 1, "level wraps from 10 to 1");
    // Up from the first row wraps to the last; Down from the last to the first.
    press(
        &mut s,
        &[KeyCode::Up, KeyCode::Up, KeyCode::Down, KeyCode::Right],
    );
    assert_eq!(
        (&s.settings.white, &s.settings.black),
        (&Side::Engine, &Side::Human)
    );
    let choice = enter(&mut s);
    let mut app = waiting_game();
    let fx = app.update(Action::Play(Box::new(choice)), Instant::now());
    assert!(fx.iter().any(|e| matches!(e, Effect::SaveSettings)));
    assert!(app.flipped, "Black's view");
    // The engine plays White at level 1 and moves first.
    assert_eq!(search_level(&fx), Some(Some(1)), "the engine moves first");
    assert_eq!(app.game.names[0], "Knightfall 0.1.0 (level 1)");
}

#[test]
fn random_colour_and_configured_engines() {
    let spec = knightfall::external::EngineSpec {
        name: "Fairy".into(),
        command: "/usr/games/fairy-stockfish".into(),
        options: vec![("UCI_Elo".into(), "1500".into())],
    };
    let settings = Settings {
        engines: vec![spec],
        ..Settings::default()
    };
    let mut s = screen(settings, None, false);
    press(&mut s, &[KeyCode::Right, KeyCode::Right]);
    assert!(s.settings.random_colour);
    press(&mut s, &[KeyCode::Down, KeyCode::Right]);
    assert_eq!(s.settings.black, Side::Named("Fairy".into()));
    press(&mut s, &[KeyCode::Right]);
    assert_eq!(
        s.settings.black,
        Side::Engine,
        "after the engines, level 1 again"
    );
    assert_eq!(s.settings.level, 1);
    press(&mut s, &[KeyCode::Left]);
    assert_eq!(s.settings.black, Side::Named("Fairy".into()));
    let mut humans_white = 0;
    for seed in 0..40 {
        let mut s = s.clone();
        s.seed = seed;
        let choice = enter(&mut s);
        assert!(choice.settings.white.is_human() != choice.settings.black.is_human());
        let mut app = waiting_game();
        app.update(Action::Play(Box::new(choice)), Instant::now());
        humans_white += usize::from(app.settings.white.is_human());
        let engine = if app.settings.white.is_human() { 1 } else { 0 };
        assert_eq!(app.game.names[engine], "Fairy");
    }
    assert!(
        (5..35).contains(&humans_white),
        "{humans_white} of 40 games as White"
    );
}

#[test]
fn a_random_colour_comes_from_the_seed_alone() {
    let mut s = screen(Settings::default(), None, false);
    press(&mut s, &[KeyCode::Right, KeyCode::Right]);
    assert!(s.settings.random_colour);
    let human_white = |s: &mut SetupScreen| enter(s).settings.white.is_human();
    // The same screen and the same keys: the same colour, however often.
    let first = human_white(&mut s.clone());
    for _ in 0..20 {
        assert_eq!(human_white(&mut s.clone()), first);
    }
    // Enter again on the same screen draws anew: both colours come up.
    let draws: Vec<bool> = (0..20).map(|_| human_white(&mut s)).collect();
    assert!(draws.contains(&true) && draws.contains(&false), "{draws:?}");
}

#[test]
fn new_opens_the_screen_over_the_game_and_esc_goes_back_unchanged() {
    let mut app = App::new(
        Settings {
            white: Side::Human,
            black: Side::Engine,
            ..Settings::default()
        },
        Game::new(),
        Mode::Play,
        Instant::now(),
    );
    let fx = common::type_line(&mut app, "e4");
    let generation = fx
        .iter()
        .find_map(|e| match e {
            Effect::Search(r) => Some(r.generation),
            _ => None,
        })
        .unwrap();
    let reply = "e7e5"
        .parse::<UciMove>()
        .unwrap()
        .to_move(app.game.position())
        .unwrap();
    app.update(
        Action::Engine(EngineEvent::Done {
            generation,
            purpose: Purpose::Play,
            best: Some(reply),
            score: 0,
            source: Source::Search,
            note: None,
        }),
        Instant::now(),
    );
    let fx = common::type_line(&mut app, "new");
    assert!(fx.is_empty(), "it asks first: {fx:?}");
    let fx = app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)),
        Instant::now(),
    );
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Open(o) if matches!(**o, Open::Setup { .. }))),
        "{fx:?}"
    );
    // The screen the runner opens: the game's settings, Esc back to it.
    let mut s = screen(app.settings.clone(), None, true);
    press(&mut s, &[KeyCode::Down, KeyCode::Left]);
    assert_eq!(s.settings.level, 9);
    let fx = press(&mut s, &[KeyCode::Esc]);
    assert!(matches!(fx.as_slice(), [Effect::Close]), "{fx:?}");
    app.update(Action::Front, Instant::now());
    assert_eq!(
        (app.settings.level, app.game.ply()),
        (10, 2),
        "nothing changed"
    );
    // Again; Enter starts the new game with the new choice, and the game left behind is kept,
    // marked abandoned.
    let mut s = screen(app.settings.clone(), None, true);
    press(&mut s, &[KeyCode::Down, KeyCode::Left]);
    let fx = app.update(Action::Play(Box::new(enter(&mut s))), Instant::now());
    let left = fx.iter().find_map(|e| match e {
        Effect::Archive(g, _) => Some(g.clone()),
        _ => None,
    });
    let left = left.expect("the old game is archived");
    assert!(left.is_abandoned() && left.ply() == 2);
    assert!(left.to_pgn().contains("[Termination \"abandoned\"]"));
    assert_eq!((app.game.ply(), app.settings.level), (0, 9));
}

#[test]
fn a_watched_game_left_for_a_game_of_ones_own_is_kept_with_the_games_watched() {
    let engines = Settings {
        white: Side::Engine,
        black: Side::Engine,
        ..Settings::default()
    };
    let watched = Game::from_pgn("1. e4 e5 *").unwrap();
    let mut app = App::new(engines, watched, Mode::Watch, Instant::now());
    app.start(Instant::now());
    assert_eq!(app.kept_as(), GameKind::Watched);
    // The player chooses a game of their own on the new-game screen: the watched game left
    // unfinished goes where watched games go, not among theirs.
    let mut s = screen(Settings::default(), None, true);
    let fx = app.update(Action::Play(Box::new(enter(&mut s))), Instant::now());
    let left: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Archive(g, kind) => Some((g.ply(), g.is_abandoned(), *kind)),
            _ => None,
        })
        .collect();
    assert_eq!(left, [(2, true, GameKind::Watched)], "{fx:?}");
    assert_eq!(app.kept_as(), GameKind::Played);
}

#[test]
fn the_screen_offers_the_unfinished_game() {
    let mut unfinished = Game::new();
    for m in ["e4", "e5", "Nf3"] {
        unfinished.play_text(m, None).unwrap();
    }
    let mut s = screen(Settings::default(), Some(unfinished), false);
    assert_eq!(s.fields()[0], Field::Resume);
    let mut app = waiting_game();
    app.update(Action::Play(Box::new(enter(&mut s))), Instant::now());
    assert_eq!(app.game.sans(), ["e4", "e5", "Nf3"]);
    assert_eq!(
        app.search.pending.map(|p| p.1),
        Some(Purpose::Play),
        "Black's engine to move"
    );
    // Or a new game instead.
    let mut s = screen(Settings::default(), Some(Game::new()), false);
    press(&mut s, &[KeyCode::Right]);
    assert!(enter(&mut s).resume.is_none());
}

#[test]
fn several_unfinished_games_are_offered_and_the_chosen_one_leaves_its_file() {
    let game = |moves: &[&str], white: &str| {
        let mut g = Game::new();
        for m in moves {
            g.play_text(m, None).unwrap();
        }
        g.names = [white.to_string(), "B".to_string()];
        g
    };
    let offered = vec![
        Unfinished {
            path: "games/current.pgn".into(),
            game: game(&["e4", "e5"], "Ana"),
        },
        Unfinished {
            path: "games/current-4242.pgn".into(),
            game: game(&["d4"], "Bob"),
        },
    ];
    let mut s = SetupScreen::new(Settings::default(), offered, false, Palette::default(), 7);
    let text = |s: &SetupScreen| {
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        term.draw(|f| {
            ui::setup::draw(f, s);
        })
        .unwrap();
        format!("{:?}", term.backend().buffer())
    };
    assert!(text(&s).contains("resume 1 of 2"), "{}", text(&s));
    assert!(text(&s).contains("Ana vs B, move 2"), "{}", text(&s));
    press(&mut s, &[KeyCode::Right]);
    assert!(text(&s).contains("resume 2 of 2"), "{}", text(&s));
    assert!(text(&s).contains("Bob vs B, move 1"), "{}", text(&s));
    press(&mut s, &[KeyCode::Right]);
    assert!(text(&s).contains("new game"), "{}", text(&s));
    press(&mut s, &[KeyCode::Right, KeyCode::Right]);
    let choice = enter(&mut s);
    let chosen = choice.resume.as_ref().unwrap();
    assert_eq!(
        chosen.path,
        std::path::PathBuf::from("games/current-4242.pgn")
    );
    // The game is played, written to this instance's autosave, then its old file is let go.
    let mut app = waiting_game();
    let fx = app.update(Action::Play(Box::new(choice)), Instant::now());
    assert_eq!(app.game.sans(), ["d4"]);
    let autosave = fx.iter().position(|e| matches!(e, Effect::Autosave));
    let adopted = fx
        .iter()
        .position(|e| matches!(e, Effect::Adopted(p) if p.ends_with("current-4242.pgn")));
    assert!(
        autosave.is_some() && adopted.is_some() && autosave < adopted,
        "{fx:?}"
    );
}

#[test]
fn the_clocks_offered_are_the_usual_ones_and_a_clock_hides_the_engines_time_per_move() {
    let mut s = screen(Settings::default(), None, false);
    let tc_row = s
        .fields()
        .iter()
        .position(|f| *f == Field::TimeControl)
        .unwrap();
    s.field = tc_row;
    assert!(
        s.fields().contains(&Field::ThinkTime),
        "no clock: the time per move is asked"
    );
    let mut seen = vec![s.settings.tc.clone()];
    for _ in 0..9 {
        press(&mut s, &[KeyCode::Right]);
        seen.push(s.settings.tc.clone());
    }
    assert_eq!(
        seen,
        [
            "", "1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0"
        ]
    );
    assert!(!s.fields().contains(&Field::ThinkTime), "{:?}", s.fields());
    press(&mut s, &[KeyCode::Right]);
    assert_eq!(s.settings.tc, "");
    assert!(s.fields().contains(&Field::ThinkTime));
}

#[test]
fn a_clock_of_ones_own_is_typed_on_the_clock_row_checked_and_kept_among_the_choices() {
    let mut s = screen(Settings::default(), None, false);
    s.field = s
        .fields()
        .iter()
        .position(|f| *f == Field::TimeControl)
        .unwrap();
    let chars = |t: &str| t.chars().map(KeyCode::Char).collect::<Vec<_>>();
    // A clock that does not read as one is refused with the reason, and nothing changes.
    press(&mut s, &chars("+"));
    let fx = press(&mut s, &[KeyCode::Enter]);
    assert!(
        fx.is_empty(),
        "Enter on a typed clock does not start: {fx:?}"
    );
    assert!(
        s.note.as_deref().unwrap().contains("bad time control"),
        "{:?}",
        s.note
    );
    assert_eq!(s.settings.tc, "");
    // Esc drops the entry, not the screen.
    assert!(press(&mut s, &[KeyCode::Esc]).is_empty());
    assert!(s.custom_tc.is_none());
    // 7+2, with a slip taken back; q typed on the row is no way out.
    press(&mut s, &chars("7+3"));
    press(&mut s, &[KeyCode::Backspace]);
    press(&mut s, &chars("2"));
    assert_eq!(s.custom_tc.as_deref(), Some("7+2"));
    press(&mut s, &[KeyCode::Enter]);
    assert_eq!(s.settings.tc, "7+2");
    assert!(!s.fields().contains(&Field::ThinkTime));
    let screen_text = {
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        term.draw(|f| {
            ui::setup::draw(f, &s);
        })
        .unwrap();
        common::screen_text(&term)
    };
    assert!(screen_text.contains("7+2"), "{screen_text}");
    // ←→ go round the usual clocks and back to this one.
    let mut seen = Vec::new();
    for _ in 0..11 {
        press(&mut s, &[KeyCode::Right]);
        seen.push(s.settings.tc.clone());
    }
    assert_eq!(seen.first().map(String::as_str), Some(""));
    assert_eq!(seen.last().map(String::as_str), Some("7+2"));
    // Enter now starts the game on it.
    assert_eq!(enter(&mut s).settings.tc, "7+2");
}

#[test]
fn leaving_the_screen_lets_a_watched_game_go_on() {
    let settings = Settings {
        white: Side::Engine,
        black: Side::Engine,
        ..Settings::default()
    };
    let mut app = App::new(settings, Game::new(), Mode::Watch, Instant::now());
    assert!(search_level(&app.start(Instant::now())).is_some());
    // The search stops while the screen is up; back from it, the engine thinks again.
    let fx = common::type_line(&mut app, "new");
    assert!(fx.iter().any(|e| matches!(e, Effect::Stop)), "{fx:?}");
    assert!(fx.iter().any(|e| matches!(e, Effect::Open(_))), "{fx:?}");
    let fx = app.update(Action::Front, Instant::now());
    assert!(search_level(&fx).is_some(), "White thinks again");
}

#[test]
fn esc_at_start_leaves_and_the_screen_draws_its_keys() {
    let mut s = screen(Settings::default(), None, false);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| {
        ui::setup::draw(f, &s);
    })
    .unwrap();
    insta::assert_snapshot!("setup_80x24", common::screen_text(&term));
    let fx = press(&mut s, &[KeyCode::Esc]);
    assert!(matches!(fx.as_slice(), [Effect::Quit]), "{fx:?}");
}

#[test]
fn the_time_on_another_screen_is_the_persons_but_not_a_stopped_engines() {
    let t0 = Instant::now();
    let at = |s| t0 + std::time::Duration::from_secs(s);
    let settings = Settings {
        white: Side::Human,
        black: Side::Engine,
        tc: "5+0".into(),
        ..Settings::default()
    };
    let mut app = App::new(settings, Game::new(), Mode::Play, t0);
    app.start(t0);
    // The first moves, whose clocks do not run yet.
    let fx = type_line_at(&mut app, "e4", t0);
    let m = "e7e5"
        .parse::<UciMove>()
        .unwrap()
        .to_move(app.game.position())
        .unwrap();
    app.update(reply(&fx, m), t0);
    assert_eq!(app.game.ply(), 2);
    // White thinks 3 s, looks at the new-game screen for 5 s, and comes back: 8 s used.
    app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL)),
        at(3),
    );
    app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)),
        at(3),
    );
    app.update(Action::Front, at(8));
    assert_eq!(app.thinking_time(), std::time::Duration::from_secs(8));
    // Two engines: the one to move had 2 s when its search stopped, and goes on from there.
    let settings = Settings {
        white: Side::Engine,
        black: Side::Engine,
        tc: "5+0".into(),
        ..Settings::default()
    };
    let mut app = App::new(settings, Game::new(), Mode::Watch, t0);
    let mut fx = app.start(t0);
    for m in ["d2d4", "d7d5"] {
        let m = m
            .parse::<UciMove>()
            .unwrap()
            .to_move(app.game.position())
            .unwrap();
        fx = app.update(reply(&fx, m), t0);
    }
    assert_eq!(app.game.ply(), 2);
    type_line_at(&mut app, "new", at(2));
    let fx = app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)),
        at(2),
    );
    assert!(fx.iter().any(|e| matches!(e, Effect::Open(_))), "{fx:?}");
    let fx = app.update(Action::Front, at(30));
    assert!(search_level(&fx).is_some(), "the engine thinks again");
    assert_eq!(app.thinking_time(), std::time::Duration::from_secs(2));
    // And its search knows those 2 s are gone from its 5 minutes.
    let wtime = fx.iter().find_map(|e| match e {
        Effect::Search(r) => r.limits.wtime,
        _ => None,
    });
    assert_eq!(wtime, Some(298_000));
}

/// The engine's answer `m` to the search among `fx`.
fn reply(fx: &[Effect], m: shakmaty::Move) -> Action {
    let (generation, purpose) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Search(r) => Some((r.generation, r.purpose)),
            _ => None,
        })
        .expect("a search");
    Action::Engine(EngineEvent::Done {
        generation,
        purpose,
        best: Some(m),
        score: 0,
        source: Source::Search,
        note: None,
    })
}

/// `text` and Enter typed at `now`.
fn type_line_at(app: &mut App, text: &str, now: Instant) -> Vec<Effect> {
    for c in text.chars() {
        app.update(
            Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
            now,
        );
    }
    app.update(
        Action::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        now,
    )
}

#[test]
fn a_resumed_game_runs_no_engine_that_only_its_file_names() {
    let text = "[White \"Human\"]\n[Black \"Evil\"]\n[BlackEngine \"uci:/usr/bin/touch PWNED\"]\n\n1. e4 *\n";
    let unfinished = Game::from_pgn(text).unwrap();
    let mut s = screen(Settings::default(), Some(unfinished), false);
    let mut app = waiting_game();
    let fx = app.update(Action::Play(Box::new(enter(&mut s))), Instant::now());
    assert_eq!(app.game.sans(), ["e4"]);
    // Black is Knightfall (the settings' opponent), not the command from the file.
    assert_eq!(app.settings.black, Side::Engine);
    assert!(
        fx.iter().all(|e| !matches!(e, Effect::Search(r) if matches!(r.mover, knightfall::tui::job::Mover::External(_)))),
        "{fx:?}"
    );
    let said = app.line.message.clone().map(|m| m.0).unwrap_or_default();
    assert!(
        said.contains("/usr/bin/touch PWNED") && said.contains("does not name"),
        "{said}"
    );
}

#[test]
fn a_clock_typed_is_taken_when_the_player_moves_off_its_row() {
    let mut s = screen(Settings::default(), None, false);
    s.field = s
        .fields()
        .iter()
        .position(|f| *f == Field::TimeControl)
        .unwrap();
    let clock_row = s.field;
    let chars = |t: &str| t.chars().map(KeyCode::Char).collect::<Vec<_>>();
    // One that does not read as a clock keeps the row, with the reason.
    press(&mut s, &chars("+"));
    press(&mut s, &[KeyCode::Up]);
    assert_eq!(s.field, clock_row);
    assert!(s.note.as_deref().unwrap().contains("bad time control"));
    press(&mut s, &[KeyCode::Esc]);
    // 7+2 and Up: taken, and the row above chosen.
    press(&mut s, &chars("7+2"));
    press(&mut s, &[KeyCode::Up]);
    assert_eq!(s.settings.tc, "7+2");
    assert!(s.custom_tc.is_none());
    assert_eq!(s.field, clock_row - 1);
    assert_eq!(enter(&mut s).settings.tc, "7+2");
}

#[test]
fn the_resume_row_shortens_names_by_meaning_and_keeps_the_date_whole_or_drops_it() {
    let row = |names: [&str; 2], date: &str| {
        let mut g = Game::new();
        for m in ["e4", "e5", "Nf3"] {
            g.play_text(m, None).unwrap();
        }
        g.names = names.map(String::from);
        g.date = date.to_string();
        let s = screen(Settings::default(), Some(g), false);
        let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
        term.draw(|f| {
            ui::setup::draw(f, &s);
        })
        .unwrap();
        let text = common::screen_text(&term);
        text.lines()
            .find(|l| l.contains(", move 2"))
            .unwrap_or_else(|| panic!("{text}"))
            .trim_matches(|c: char| c == ' ' || c == '│')
            .to_string()
    };
    // The version goes first; the person Knightfall calls Human is you.
    assert_eq!(
        row(["Human", "Knightfall 0.1.0 (level 2)"], "2026.11.20"),
        "You vs Knightfall (level 2), move 2, 2026.11.20"
    );
    // Two engines: the level's word goes too, and the date stays whole, or goes whole.
    assert_eq!(
        row(
            ["Knightfall 0.1.0 (level 2)", "Knightfall 0.1.0"],
            "2026.11.20"
        ),
        "Knightfall L2 vs Knightfall, move 2, 2026.11.20"
    );
    assert_eq!(
        row(
            ["Knightfall 0.1.0 (level 2)", "Knightfall 0.1.0 (level 10)"],
            "2026.11.20"
        ),
        "Knightfall L2 vs Knightfall L10, move 2"
    );
    // Names too long for the date with them: the date goes, whole, and a name is cut at a
    // word, never inside one.
    let long = row(
        [
            "Grandmaster Anna Karenina Smith",
            "Stockfish 16.1 (level 2)",
        ],
        "2026.11.20",
    );
    assert!(!long.contains("2026") && !long.contains(", 20"), "{long}");
    assert!(long.contains("…") && long.ends_with(", move 2"), "{long}");
    for word in long.split([' ', '…', ',']).filter(|w| !w.is_empty()) {
        assert!(
            [
                "Grandmaster",
                "Anna",
                "Karenina",
                "Smith",
                "vs",
                "Stockfish",
                "L2",
                "move",
                "2"
            ]
            .contains(&word),
            "{word:?} is cut in {long}"
        );
    }
}
