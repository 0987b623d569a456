//! App-state tests: key events in, state and effects out (no terminal, no engine thread).

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::engine::Info;
use knightfall::game::{Game, Reason};
use knightfall::player::Source;
use knightfall::store::GameKind;
use knightfall::tui::app::{Action, App, Effect, Mode, Settings, Side, Tone};
use knightfall::tui::job::{EngineEvent, Purpose};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Move};

fn settings(white: Side, black: Side) -> Settings {
    Settings {
        white,
        black,
        ..Settings::default()
    }
}

fn new_app(white: Side, black: Side) -> App {
    let mut app = App::new(
        settings(white, black),
        Game::new(),
        Mode::Play,
        Instant::now(),
    );
    app.no_color = true;
    app
}

fn key(code: KeyCode) -> Action {
    Action::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Ctrl-D and yes to "Offer a draw?": the effects of the offer.
fn offer_draw(app: &mut App) -> Vec<Effect> {
    app.update(ctrl('d'), Instant::now());
    app.update(key(KeyCode::Char('y')), Instant::now())
}

fn ctrl(c: char) -> Action {
    Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

fn type_line(app: &mut App, text: &str) -> Vec<Effect> {
    for c in text.chars() {
        assert!(app.update(key(KeyCode::Char(c)), Instant::now()).is_empty());
    }
    app.update(key(KeyCode::Enter), Instant::now())
}

fn search_of(fx: &[Effect]) -> Option<(u64, Purpose)> {
    fx.iter().find_map(|e| match e {
        Effect::Search(r) => Some((r.generation, r.purpose)),
        _ => None,
    })
}

fn uci(app: &App, text: &str) -> Move {
    text.parse::<UciMove>()
        .unwrap()
        .to_move(app.game.position())
        .unwrap()
}

fn done(generation: u64, purpose: Purpose, best: Option<Move>, score: i32) -> Action {
    Action::Engine(EngineEvent::Done {
        generation,
        purpose,
        best,
        score,
        source: Source::Search,
        note: None,
    })
}

fn message(app: &App) -> String {
    app.line
        .message
        .as_ref()
        .map(|m| m.0.clone())
        .unwrap_or_default()
}

#[test]
fn moves_in_uci_and_san_and_engine_reply() {
    let mut app = new_app(Side::Human, Side::Engine);
    assert!(
        app.start(Instant::now()).is_empty(),
        "the human moves first"
    );
    let fx = type_line(&mut app, "e2e4");
    assert_eq!(app.game.sans(), ["e4"]);
    let (generation, purpose) = search_of(&fx).expect("the engine starts thinking");
    assert_eq!(purpose, Purpose::Play);
    assert!(fx.iter().any(|e| matches!(e, Effect::Autosave)));
    // Typed while the engine thinks: a premove, played the moment the engine has moved.
    type_line(&mut app, "d2d4");
    assert!(message(&app).contains("Premove d2d4"), "{}", message(&app));
    assert_eq!(app.offers.premove.as_deref(), Some("d2d4"));
    let reply = uci(&app, "c7c5");
    let fx = app.update(
        done(generation, Purpose::Play, Some(reply), -20),
        Instant::now(),
    );
    assert_eq!(app.game.sans(), ["e4", "c5", "d4"]);
    let (generation, _) = search_of(&fx).expect("the engine thinks again");
    assert!(
        message(&app).is_empty(),
        "the premove notice is gone: {}",
        message(&app)
    );
    // An illegal premove is cancelled with the reason; Esc cancels one too.
    type_line(&mut app, "Qh5");
    app.update(
        done(generation, Purpose::Play, Some(uci(&app, "d8a5")), 0),
        Instant::now(),
    );
    assert_eq!(app.game.ply(), 4);
    assert!(
        message(&app).contains("Premove Qh5 cancelled"),
        "{}",
        message(&app)
    );
    let fx = type_line(&mut app, "Bd2");
    assert_eq!(app.game.sans(), ["e4", "c5", "d4", "Qa5+", "Bd2"]);
    assert!(search_of(&fx).is_some());
    type_line(&mut app, "Nf3");
    assert!(app.offers.premove.is_some());
    app.update(key(KeyCode::Esc), Instant::now());
    assert!(app.offers.premove.is_none());
}

#[test]
fn the_input_line_helps_where_moves_clash() {
    let mut app = app_hh();
    // A square holding one of your pieces selects it rather than failing as a move.
    type_line(&mut app, "e2");
    assert!(message(&app).contains("e2 selected"), "{}", message(&app));
    assert_eq!(app.selected().map(|s| s.to_string()).as_deref(), Some("e2"));
    assert_eq!(app.game.ply(), 0);
    app.update(key(KeyCode::Esc), Instant::now());
    // A move typed while browsing an earlier position is meant for the game: the board goes
    // back to it and the move is played there.
    type_line(&mut app, "e4");
    type_line(&mut app, "e5");
    app.update(key(KeyCode::Left), Instant::now());
    app.update(key(KeyCode::Left), Instant::now());
    assert!(app.view.is_some());
    type_line(&mut app, "Nf3");
    assert!(app.view.is_none(), "back to the game");
    assert_eq!(app.game.sans(), ["e4", "e5", "Nf3"]);
    // Castling in lower case.
    type_line(&mut app, "Nc6");
    type_line(&mut app, "Bc4");
    type_line(&mut app, "Nf6");
    type_line(&mut app, "o-o");
    assert_eq!(app.game.sans().last().map(String::as_str), Some("O-O"));
    // SAN promotion without the piece gets the same help as UCI.
    let mut app = App::new(
        Settings {
            white: Side::Human,
            black: Side::Human,
            ..Settings::default()
        },
        Game::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
        Mode::Play,
        Instant::now(),
    );
    type_line(&mut app, "a8");
    assert!(message(&app).contains("e.g. a8=Q"), "{}", message(&app));
    let mut capture = App::new(
        settings(Side::Human, Side::Human),
        Game::from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
        Mode::Play,
        Instant::now(),
    );
    type_line(&mut capture, "axb8");
    assert!(
        message(&capture).contains("e.g. axb8=Q"),
        "{}",
        message(&capture)
    );
    type_line(&mut app, "a8q");
    assert_eq!(app.game.sans(), ["a8=Q+"]);
    assert!(message(&app).is_empty(), "the error went with the move");
}

#[test]
fn bad_input_is_refused_with_the_reason_and_changes_nothing() {
    let mut app = new_app(Side::Human, Side::Human);
    let cases = [
        ("e9e4", "malformed"),
        ("hello", "malformed"),
        ("e3e4", "no piece on e3"),
        ("e7e5", "not yours"),
        ("e2e5", "not legal"),
        ("Ke2", "no king of yours can move to e2"),
        ("Nf4", "no knight of yours can move to f4"),
        ("e5", "no pawn of yours can move to e5"),
        ("Ng1", "no knight of yours can move to g1"),
    ];
    for (text, reason) in cases {
        let fx = type_line(&mut app, text);
        assert!(fx.is_empty(), "{text}");
        let (msg, tone) = app.line.message.clone().unwrap();
        assert_eq!(tone, Tone::Error);
        assert!(msg.contains(reason), "{text}: {msg}");
        assert_eq!(app.game.ply(), 0);
        assert!(app.line.text.is_empty());
    }
    let mut app = App::new(
        settings(Side::Human, Side::Human),
        Game::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
        Mode::Play,
        Instant::now(),
    );
    type_line(&mut app, "a7a8");
    assert!(message(&app).contains("promotion piece missing"));
    type_line(&mut app, "a7a8n");
    assert_eq!(app.game.sans(), ["a8=N"]);
}

#[test]
fn stale_engine_results_are_dropped() {
    let mut app = new_app(Side::Human, Side::Engine);
    let fx = type_line(&mut app, "e2e4");
    let (generation, _) = search_of(&fx).unwrap();
    let reply = uci(&app, "e7e5");
    // Undo while the engine thinks: the search is stopped and its answer ignored.
    let fx = app.update(ctrl('z'), Instant::now());
    assert!(fx.iter().any(|e| matches!(e, Effect::Stop)));
    assert_eq!(app.game.ply(), 0);
    app.update(
        done(generation, Purpose::Play, Some(reply), 0),
        Instant::now(),
    );
    assert_eq!(app.game.ply(), 0);
    // Progress for an old generation is ignored too.
    app.update(
        Action::Engine(EngineEvent::Info {
            generation,
            info: Info {
                depth: 9,
                seldepth: 9,
                score: 0,
                nodes: 1,
                nps: 1,
                time_ms: 1,
                hashfull: 0,
                tb_hits: 0,
                pv: vec![],
                multipv: 1,
            },
        }),
        Instant::now(),
    );
    assert_eq!(app.search.analysis.depth, 0);
}

#[test]
fn undo_against_the_engine_takes_back_both_moves() {
    let mut app = new_app(Side::Human, Side::Engine);
    let fx = type_line(&mut app, "d2d4");
    let (generation, _) = search_of(&fx).unwrap();
    let reply = uci(&app, "d7d5");
    app.update(
        done(generation, Purpose::Play, Some(reply), 0),
        Instant::now(),
    );
    assert_eq!(app.game.ply(), 2);
    let fx = type_line(&mut app, "undo");
    assert_eq!(app.game.ply(), 0);
    assert!(search_of(&fx).is_none(), "the human is to move again");
    assert_eq!(message(&app), "Move taken back.");
    // Human against human, undo takes back one move.
    let mut app = app_hh();
    type_line(&mut app, "e4");
    type_line(&mut app, "e5");
    app.update(ctrl('z'), Instant::now());
    assert_eq!(app.game.sans(), ["e4"]);
}

fn app_hh() -> App {
    new_app(Side::Human, Side::Human)
}

#[test]
fn flip_help_fen_moves_and_quit() {
    let mut app = app_hh();
    assert!(!app.flipped);
    app.update(ctrl('f'), Instant::now());
    assert!(app.flipped);
    type_line(&mut app, "flip");
    assert!(!app.flipped);
    app.update(key(KeyCode::Char('?')), Instant::now());
    assert!(app.help.shown);
    app.update(key(KeyCode::Char('x')), Instant::now());
    assert!(!app.help.shown, "any key closes the help");
    assert!(app.line.text.is_empty());
    type_line(&mut app, "fen");
    assert_eq!(
        message(&app),
        "FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    type_line(&mut app, "moves");
    assert!(message(&app).starts_with("20 legal moves: Na3 Nc3 Nf3 Nh3 a3 a4"));
    let fx = app.update(ctrl('c'), Instant::now());
    assert!(fx.iter().any(|e| matches!(e, Effect::Quit)));
    let fx = type_line(&mut app, "quit");
    assert!(fx.iter().any(|e| matches!(e, Effect::Quit)));
    let fx = type_line(&mut app, "save games/x.pgn");
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Save(Some(f)) if f == "games/x.pgn"))
    );
}

#[test]
fn browsing_earlier_positions() {
    let mut app = app_hh();
    for m in ["e4", "e5", "Nf3"] {
        type_line(&mut app, m);
    }
    app.update(key(KeyCode::Left), Instant::now());
    assert_eq!(app.shown_ply(), 2);
    app.update(key(KeyCode::Home), Instant::now());
    assert_eq!(app.shown_ply(), 0);
    app.update(key(KeyCode::Right), Instant::now());
    assert_eq!(app.shown_ply(), 1);
    app.update(key(KeyCode::End), Instant::now());
    assert_eq!(app.shown_ply(), 3);
    assert_eq!(app.view, None);
}

#[test]
fn game_end_announces_and_offers_another() {
    let mut app = app_hh();
    for m in ["f2f3", "e7e5", "g2g4", "Qh4#"] {
        type_line(&mut app, m);
    }
    let o = app.game.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), Reason::Checkmate)
    );
    assert_eq!(
        message(&app),
        "Black wins (checkmate). Play again with the same settings? (y/n; r reviews this game)"
    );
    type_line(&mut app, "a3");
    assert!(message(&app).contains("game is over"));
    app.update(key(KeyCode::Char('y')), Instant::now());
    assert_eq!(app.game.ply(), 0);
    assert!(!app.game.is_over());
}

#[test]
fn resign_and_draws() {
    let mut app = new_app(Side::Human, Side::Engine);
    type_line(&mut app, "resign");
    assert!(message(&app).contains("Resign this game? (y/n)"));
    assert!(!app.game.is_over(), "it asks first");
    app.update(key(KeyCode::Char('n')), Instant::now());
    assert!(!app.game.is_over());
    app.update(ctrl('r'), Instant::now());
    let fx = app.update(key(KeyCode::Char('y')), Instant::now());
    // The finished game is kept in its own file at once.
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Archive(g, GameKind::Played) if g.is_over()))
    );
    assert_eq!(
        app.game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::Black), Reason::Resignation))
    );
    // Human against human: the other side accepts by offering back.
    let mut app = app_hh();
    type_line(&mut app, "draw");
    assert!(message(&app).contains("White offers a draw"));
    type_line(&mut app, "e4");
    type_line(&mut app, "draw");
    assert_eq!(app.game.outcome().unwrap().reason, Reason::Agreement);
    // Against the engine the offer is asked first: n plays on, nothing is searched.
    let mut app = new_app(Side::Human, Side::Engine);
    let fx = app.update(ctrl('d'), Instant::now());
    assert!(search_of(&fx).is_none());
    assert!(message(&app).contains("Offer a draw?"), "{}", message(&app));
    let fx = app.update(key(KeyCode::Char('n')), Instant::now());
    assert!(search_of(&fx).is_none());
    assert!(!app.game.is_over());
    // With a yes it judges by its score (its own view).
    let fx = offer_draw(&mut app);
    let (generation, purpose) = search_of(&fx).unwrap();
    assert_eq!(purpose, Purpose::DrawOffer);
    // Root is White's move: +20 for White is -20 for the engine, not enough to accept.
    app.update(
        done(generation, Purpose::DrawOffer, None, 20),
        Instant::now(),
    );
    assert!(!app.game.is_over());
    assert!(message(&app).contains("declines"), "{}", message(&app));
    let fx = offer_draw(&mut app);
    let (generation, _) = search_of(&fx).unwrap();
    app.update(
        done(generation, Purpose::DrawOffer, None, 150),
        Instant::now(),
    );
    assert_eq!(app.game.outcome().unwrap().reason, Reason::Agreement);
}

#[test]
fn the_bell_rings_at_low_time_and_flag_fall_and_on_moves_only_when_asked() {
    let bells = |fx: &[Effect]| fx.iter().filter(|e| matches!(e, Effect::Bell)).count();
    let settings = Settings {
        white: Side::Human,
        black: Side::Engine,
        tc: "1+0".into(),
        ..Settings::default()
    };
    let t0 = Instant::now();
    let at = |s| t0 + Duration::from_secs(s);
    let mut app = App::new(settings.clone(), Game::new(), Mode::Play, t0);
    app.start(t0);
    let fx = type_line(&mut app, "e4");
    assert_eq!(bells(&fx), 0, "not on the person's own move");
    let (generation, _) = search_of(&fx).unwrap();
    let m = uci(&app, "e7e5");
    let fx = app.update(done(generation, Purpose::Play, Some(m), 0), at(1));
    assert_eq!(bells(&fx), 0, "the engine's move is silent by default");
    // A minute's clock: below 6 s left the bell rings, once, and again when the flag falls.
    assert_eq!(bells(&app.update(Action::Tick, at(50))), 0);
    assert_eq!(bells(&app.update(Action::Tick, at(56))), 1);
    assert_eq!(bells(&app.update(Action::Tick, at(57))), 0);
    assert_eq!(bells(&app.update(Action::Tick, at(63))), 1);
    assert!(app.game.is_over());
    // With move_bell the engine's moves ring too; Ctrl-O turns every bell off, and is saved.
    let with_moves = Settings {
        move_bell: true,
        ..settings
    };
    let mut app = App::new(with_moves, Game::new(), Mode::Play, t0);
    app.start(t0);
    let fx = type_line(&mut app, "e4");
    let (generation, _) = search_of(&fx).unwrap();
    let m = uci(&app, "e7e5");
    let fx = app.update(done(generation, Purpose::Play, Some(m), 0), at(1));
    assert_eq!(bells(&fx), 1, "the engine moved");
    let fx = app.update(ctrl('o'), at(2));
    assert!(fx.iter().any(|e| matches!(e, Effect::SaveSwitches)));
    assert!(!app.settings.sound);
    let fx = type_line(&mut app, "Nf3");
    let (generation, _) = search_of(&fx).unwrap();
    let m = uci(&app, "g8f6");
    let fx = app.update(done(generation, Purpose::Play, Some(m), 0), at(3));
    assert_eq!(bells(&fx), 0);
    // Two people at one keyboard hear nothing.
    let mut hh = app_hh();
    assert_eq!(bells(&type_line(&mut hh, "e4")), 0);
    assert_eq!(bells(&type_line(&mut hh, "e5")), 0);
}

#[test]
fn a_weak_level_judges_a_draw_offer_at_full_strength() {
    let level_of = |fx: &[Effect]| {
        fx.iter().find_map(|e| match e {
            Effect::Search(r) => Some((r.purpose, r.limits.level)),
            _ => None,
        })
    };
    let level_three = || {
        App::new(
            Settings {
                level: 3,
                ..settings(Side::Human, Side::Engine)
            },
            Game::new(),
            Mode::Play,
            Instant::now(),
        )
    };
    let mut app = level_three();
    // On the person's turn: a search of its own, at full strength, not level 3's.
    let fx = offer_draw(&mut app);
    let (purpose, level) = level_of(&fx).unwrap();
    assert_eq!(purpose, Purpose::DrawOffer);
    assert_eq!(level, Some(10));
    // While level 3 thinks: its move's score (its own opinion) does not judge the offer; a
    // full-strength search does, once the move is made.
    let mut app = level_three();
    let fx = type_line(&mut app, "e4");
    let (generation, _) = search_of(&fx).unwrap();
    type_line(&mut app, "draw");
    app.update(key(KeyCode::Char('y')), Instant::now());
    let m = uci(&app, "e7e5");
    // Level 3 rates itself -3.00 (it would take the draw on that): no verdict from it.
    let fx = app.update(
        done(generation, Purpose::Play, Some(m), -300),
        Instant::now(),
    );
    assert_eq!(app.game.sans(), ["e4", "e5"]);
    assert!(!app.game.is_over());
    let (purpose, level) = level_of(&fx).unwrap();
    assert_eq!(purpose, Purpose::DrawOffer);
    assert_eq!(level, Some(10));
}

#[test]
fn a_weak_level_on_the_clock_takes_a_persons_time_but_recaptures_at_once() {
    let settings = Settings {
        white: Side::Human,
        black: Side::Engine,
        level: 3,
        tc: "5+0".into(),
        ..Settings::default()
    };
    let t0 = Instant::now();
    let at = |ms| t0 + Duration::from_millis(ms);
    let mut app = App::new(settings, Game::new(), Mode::Play, t0);
    app.start(t0);
    let left = |app: &App| app.game.clocks().unwrap().left(Color::Black);
    // The first moves are immediate: the engine's is charged what it took, nothing more.
    for (mine, reply, ms) in [("e2e4", "d7d5", 0), ("e4d5", "d8d5", 100)] {
        for c in mine.chars() {
            app.update(key(KeyCode::Char(c)), at(ms));
        }
        let fx = app.update(key(KeyCode::Enter), at(ms));
        let (generation, _) = search_of(&fx).unwrap();
        let m = uci(&app, reply);
        app.update(done(generation, Purpose::Play, Some(m), 0), at(ms + 5));
    }
    // 2... Qxd5 took back on d5 at once, though found in 5 ms: a recapture needs no thought.
    assert_eq!(app.game.sans().len(), 4, "{:?}", app.game.sans());
    assert!(left(&app) >= Duration::from_millis(299_990));
    // A quiet move found in 5 ms is held until a person's time has passed, and charged that.
    for c in "Nc3".chars() {
        app.update(key(KeyCode::Char(c)), at(200));
    }
    let fx = app.update(key(KeyCode::Enter), at(200));
    let (generation, _) = search_of(&fx).unwrap();
    let m = uci(&app, "d5a5");
    let info = knightfall::engine::Info {
        depth: 3,
        seldepth: 3,
        score: 20,
        nodes: 900,
        nps: 180_000,
        time_ms: 5,
        hashfull: 0,
        tb_hits: 0,
        pv: vec![m],
        multipv: 1,
    };
    app.update(
        Action::Engine(EngineEvent::Info { generation, info }),
        at(204),
    );
    app.update(done(generation, Purpose::Play, Some(m), 0), at(205));
    assert_eq!(app.game.ply(), 5, "held");
    // Held, the move is not on the screen before it is played.
    let shown = || {
        let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
        term.draw(|f| {
            knightfall::tui::ui::draw(f, &app);
        })
        .unwrap();
        let buf = term.backend().buffer().clone();
        (0..40)
            .map(|y| (0..120).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let screen = shown();
    assert!(!screen.contains("Qa5"), "{screen}");
    assert!(screen.contains("Line -"), "{screen}");
    assert!(app.needs_ticks());
    app.update(Action::Tick, at(250));
    assert_eq!(app.game.ply(), 5, "still thinking, as a person would");
    let mut t = 250;
    while app.game.ply() == 5 && t < 30_000 {
        t += 100;
        app.update(Action::Tick, at(t));
    }
    assert_eq!(app.game.ply(), 6, "played within the pace");
    let used = Duration::from_secs(300).saturating_sub(left(&app));
    assert!(used >= Duration::from_millis(300), "{used:?}");
    assert!(used <= Duration::from_secs(12), "{used:?}");
}

#[test]
fn a_draw_offer_shows_no_line_for_the_persons_side() {
    let mut app = new_app(Side::Human, Side::Engine);
    let fx = type_line(&mut app, "e4");
    let (generation, _) = search_of(&fx).unwrap();
    let reply = uci(&app, "e7e5");
    app.update(
        done(generation, Purpose::Play, Some(reply), -10),
        Instant::now(),
    );
    let before = app.search.analysis.clone();
    // White's turn: the judgement searches White's position, and finds White's best move.
    let fx = offer_draw(&mut app);
    let (generation, purpose) = search_of(&fx).unwrap();
    assert_eq!(purpose, Purpose::DrawOffer);
    let best = uci(&app, "g1f3");
    for depth in 1..=6 {
        let info = Info {
            depth,
            seldepth: depth,
            score: -219,
            nodes: 1000 * u64::from(depth),
            nps: 1_000_000,
            time_ms: 10,
            hashfull: 0,
            tb_hits: 0,
            pv: vec![best],
            multipv: 1,
        };
        app.update(
            Action::Engine(EngineEvent::Info { generation, info }),
            Instant::now(),
        );
    }
    app.update(
        done(generation, Purpose::DrawOffer, Some(best), -219),
        Instant::now(),
    );
    assert!(message(&app).contains("declines"), "{}", message(&app));
    // The panel still shows the engine's own last move, nothing of White's.
    assert_eq!(app.search.analysis.pv, before.pv);
    assert_eq!(app.search.analysis.score_white, before.score_white);
    assert!(!app.search.analysis.pv.contains("Nf3"));
    assert!(
        app.search
            .analysis
            .history
            .iter()
            .all(|it| !it.pv.contains("Nf3"))
    );
}

#[test]
fn hint_suggests_a_move_in_san() {
    let mut app = new_app(Side::Human, Side::Engine);
    let fx = type_line(&mut app, "hint");
    let (generation, purpose) = search_of(&fx).unwrap();
    assert_eq!(purpose, Purpose::Hint);
    let m = uci(&app, "g1f3");
    app.update(done(generation, Purpose::Hint, Some(m), 30), Instant::now());
    assert_eq!(message(&app), "Hint: Nf3");
    assert_eq!(app.game.ply(), 0, "a hint plays nothing");
    // The board marks it until a move is made.
    assert_eq!(app.search.hint, Some(m));
    type_line(&mut app, "e4");
    assert_eq!(app.search.hint, None);
}

#[test]
fn selected_piece_targets_and_click_moves() {
    let mut app = app_hh();
    for c in "g1".chars() {
        app.update(key(KeyCode::Char(c)), Instant::now());
    }
    let mut t: Vec<String> = app.targets().iter().map(|s| s.to_string()).collect();
    t.sort();
    assert_eq!(t, ["f3", "h3"]);
    app.update(key(KeyCode::Esc), Instant::now());
    app.update(Action::Click(shakmaty::Square::E2), Instant::now());
    assert_eq!(app.line.text, "e2");
    app.update(Action::Click(shakmaty::Square::E4), Instant::now());
    assert_eq!(app.game.sans(), ["e4"]);
    let _ = CastlingMode::Standard;
}

#[test]
fn engine_moves_first_when_it_plays_white() {
    let mut app = new_app(Side::Engine, Side::Human);
    assert!(app.flipped, "the human sees the board from Black's side");
    let fx = app.start(Instant::now());
    let (generation, purpose) = search_of(&fx).unwrap();
    assert_eq!(purpose, Purpose::Play);
    let m = uci(&app, "e2e4");
    app.update(done(generation, Purpose::Play, Some(m), 30), Instant::now());
    assert_eq!(app.game.sans(), ["e4"]);
    assert_eq!(app.search.analysis.score_white, Some(30));
}

#[test]
fn watch_pause_stops_the_search_and_the_clocks() {
    let settings = Settings {
        white: Side::Engine,
        black: Side::Engine,
        tc: "1+0".to_string(),
        ..Settings::default()
    };
    let mut app = App::new(settings, Game::new(), Mode::Watch, Instant::now());
    let fx = app.start(Instant::now());
    let (generation, _) = search_of(&fx).unwrap();
    assert!(app.needs_ticks(), "clocks run");
    let fx = app.update(key(KeyCode::Char(' ')), Instant::now());
    assert!(app.watch.paused);
    assert!(fx.iter().any(|e| matches!(e, Effect::Stop)));
    assert!(
        !app.needs_ticks(),
        "no ticks while paused: idle CPU stays at zero"
    );
    let frozen = app.thinking_time();
    // Time passes (the events say so): the paused clock does not move.
    app.update(Action::Tick, Instant::now() + Duration::from_secs(30));
    assert_eq!(app.thinking_time(), frozen);
    // The stopped search's answer is stale.
    let m = uci(&app, "e2e4");
    app.update(done(generation, Purpose::Play, Some(m), 0), Instant::now());
    assert_eq!(app.game.ply(), 0);
    // One step: a search starts, its move is played, and the game stays paused.
    let fx = app.update(key(KeyCode::Char('>')), Instant::now());
    let (generation, _) = search_of(&fx).unwrap();
    app.update(done(generation, Purpose::Play, Some(m), 0), Instant::now());
    assert_eq!(app.game.sans(), ["e4"]);
    assert!(app.watch.paused && app.search.pending.is_none());
    let fx = app.update(key(KeyCode::Char(' ')), Instant::now());
    assert!(!app.watch.paused);
    assert!(search_of(&fx).is_some());
}

#[test]
fn a_watched_game_that_ends_is_kept_apart_from_the_players_games() {
    let settings = settings(Side::Engine, Side::Engine);
    let fool = Game::from_pgn("1. f3 e5 2. g4 *").unwrap();
    let mut app = App::new(settings, fool, Mode::Watch, Instant::now());
    let fx = app.start(Instant::now());
    let (generation, _) = search_of(&fx).unwrap();
    let mate = uci(&app, "d8h4");
    let fx = app.update(
        done(generation, Purpose::Play, Some(mate), 0),
        Instant::now(),
    );
    assert!(app.game.is_over());
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Archive(g, GameKind::Watched) if g.is_over())),
        "{fx:?}"
    );
}

#[test]
fn watching_a_typed_word_is_a_command_or_refused_by_name() {
    let settings = settings(Side::Engine, Side::Engine);
    let mut app = App::new(settings, Game::new(), Mode::Watch, Instant::now());
    app.start(Instant::now());
    type_line(&mut app, "flpi");
    assert_eq!(message(&app), "unknown command 'flpi': type help");
    assert_eq!(app.line.message.as_ref().unwrap().1, Tone::Error);
    type_line(&mut app, "pause");
    assert!(app.watch.paused);
    // The words are the key table's, in any case.
    type_line(&mut app, "RESUME");
    assert!(!app.watch.paused);
}

#[test]
fn an_engine_failure_is_reported_not_fatal() {
    let mut app = new_app(Side::Human, Side::Engine);
    let fx = type_line(&mut app, "e4");
    let (generation, _) = search_of(&fx).unwrap();
    app.update(
        Action::Engine(EngineEvent::Failed {
            generation,
            message: "boom".to_string(),
        }),
        Instant::now(),
    );
    assert!(app.search.pending.is_none());
    assert!(message(&app).contains("The engine failed (boom)"));
    // Undo gives the move back to the human.
    app.update(ctrl('z'), Instant::now());
    assert_eq!(app.game.ply(), 0);
}

#[test]
fn watch_delay_holds_a_quick_move_until_the_minimum_time() {
    let settings = Settings {
        white: Side::Engine,
        black: Side::Engine,
        tc: "1+0".into(),
        ..Settings::default()
    };
    let t0 = Instant::now();
    let mut app = App::new(settings, Game::new(), Mode::Watch, t0);
    app.watch.min_delay = Duration::from_millis(150);
    let fx = app.start(t0);
    let (generation, _) = search_of(&fx).unwrap();
    let m = uci(&app, "d2d4");
    // The engine answers in 20 ms; the move waits for the rest of the 150 ms.
    let at = |ms| t0 + Duration::from_millis(ms);
    app.update(done(generation, Purpose::Play, Some(m), 0), at(20));
    assert_eq!(app.game.ply(), 0, "held back by the delay");
    assert!(app.needs_ticks());
    app.update(Action::Tick, at(120));
    assert_eq!(app.game.ply(), 0);
    let fx = app.update(Action::Tick, at(170));
    assert_eq!(app.game.sans(), ["d4"]);
    let (generation, _) = search_of(&fx).expect("Black starts thinking");
    // An engine's clock runs from its first move: White's found in 20 ms is charged 20 ms, not
    // the delay.
    let left = |app: &App, c| app.game.clocks().unwrap().left(c);
    assert_eq!(left(&app, Color::White), Duration::from_millis(59_980));
    let m = uci(&app, "d7d5");
    app.update(done(generation, Purpose::Play, Some(m), 0), at(200));
    let fx = app.update(Action::Tick, at(330));
    assert_eq!(app.game.sans(), ["d4", "d5"]);
    assert_eq!(left(&app, Color::Black), Duration::from_millis(59_970));
    // White's second move: found in 20 ms, held back by the delay, charged 20 ms.
    let (generation, _) = search_of(&fx).unwrap();
    let m = uci(&app, "c2c4");
    app.update(done(generation, Purpose::Play, Some(m), 0), at(350));
    assert_eq!(app.game.ply(), 2, "held back by the delay");
    app.update(Action::Tick, at(490));
    assert_eq!(app.game.sans(), ["d4", "d5", "c4"]);
    // The delay is the viewer's: White's clock lost only the (instant) thinking time.
    assert_eq!(
        left(&app, Color::White),
        Duration::from_millis(59_960),
        "White paid its 20 ms twice, alone"
    );
}

#[test]
fn a_persons_clock_starts_with_their_first_move_an_engines_at_once() {
    let settings = Settings {
        white: Side::Human,
        black: Side::Engine,
        tc: "3+2".into(),
        ..Settings::default()
    };
    let t0 = Instant::now();
    let at = |s| t0 + Duration::from_secs(s);
    let mut app = App::new(settings, Game::new(), Mode::Play, t0);
    app.start(t0);
    // A minute reading the board costs White nothing, and cannot lose on time.
    app.update(Action::Tick, at(60));
    assert_eq!(app.thinking_time(), Duration::ZERO);
    for c in "e4".chars() {
        app.update(key(KeyCode::Char(c)), at(200));
    }
    let fx = app.update(key(KeyCode::Enter), at(200));
    assert!(!app.game.is_over());
    let left = |app: &App, c| app.game.clocks().unwrap().left(c);
    assert_eq!(left(&app, Color::White), Duration::from_secs(182));
    // The engine's first move is on its clock: it has nothing to read. From then on each
    // side's clock runs.
    let (generation, _) = search_of(&fx).unwrap();
    let m = uci(&app, "e7e5");
    app.update(done(generation, Purpose::Play, Some(m), 0), at(205));
    assert_eq!(left(&app, Color::Black), Duration::from_secs(177));
    app.update(Action::Tick, at(215));
    assert_eq!(app.thinking_time(), Duration::from_secs(10));
    for c in "Nf3".chars() {
        app.update(key(KeyCode::Char(c)), at(215));
    }
    app.update(key(KeyCode::Enter), at(215));
    assert_eq!(left(&app, Color::White), Duration::from_secs(174));
}

#[test]
fn an_engine_that_never_answers_its_first_move_has_the_game_aborted() {
    // A person against an external engine that hangs on its first `go`, and two engines
    // watched, the first of which hangs: the first move is no shelter for an engine, but a
    // flag before both sides have moved aborts the game, as on lichess: no result, no loss.
    let hung = Side::Uci("hang".into());
    for (white, black, mode, flagged) in [
        (Side::Human, hung.clone(), Mode::Play, Color::Black),
        (hung.clone(), Side::Engine, Mode::Watch, Color::White),
        (Side::Human, Side::Engine, Mode::Play, Color::Black),
    ] {
        let settings = Settings {
            tc: "3s+0".into(),
            ..settings(white, black)
        };
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut app = App::new(settings, Game::new(), mode, t0);
        app.watch.min_delay = Duration::ZERO;
        let mut fx = app.start(t0);
        if flagged == Color::Black {
            fx = app.update(Action::Tick, at(10));
            assert!(search_of(&fx).is_none());
            for c in "e4".chars() {
                app.update(key(KeyCode::Char(c)), at(20));
            }
            fx = app.update(key(KeyCode::Enter), at(20));
        }
        assert_eq!(search_of(&fx).map(|s| s.1), Some(Purpose::Play));
        assert!(app.needs_ticks(), "the engine's clock runs");
        // Another engine's view is not one of Knightfall's levels.
        let level = app.search.analysis.level;
        match app.settings.side(flagged) {
            Side::Engine => assert!(level > 0),
            _ => assert_eq!(level, 0),
        }
        app.update(Action::Tick, at(2_000));
        assert!(!app.game.is_over());
        let fx = app.update(Action::Tick, at(3_500));
        let outcome = app.game.outcome().expect("ended");
        assert_eq!((outcome.winner, outcome.reason), (None, Reason::Aborted));
        assert!(app.game.is_aborted());
        assert!(fx.iter().any(|e| matches!(e, Effect::Stop)), "{fx:?}");
        // The panel no longer says the engine is thinking.
        assert_eq!(app.search.analysis.thinking, None);
        // It is kept all the same, as a game without a result, and the message says why.
        assert!(
            fx.iter().any(|e| matches!(e, Effect::Archive(..))),
            "{fx:?}"
        );
        let says = message(&app);
        let who = if flagged == Color::White {
            "White"
        } else {
            "Black"
        };
        assert!(
            says.starts_with(&format!("{who}'s time ran out before its first move"))
                && says.contains("aborted, with no result"),
            "{says}"
        );
        let pgn = app.game.to_pgn();
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        assert!(
            pgn.contains("[Termination \"Aborted on time before both sides had moved\"]"),
            "{pgn}"
        );
        assert!(pgn.trim_end().ends_with(" *"), "{pgn}");
        assert!(!pgn.contains("1-0") && !pgn.contains("0-1"), "{pgn}");
    }
}

#[test]
fn a_flag_after_both_sides_have_moved_loses_on_time() {
    let settings = Settings {
        tc: "3s+0".into(),
        ..settings(Side::Human, Side::Uci("hang".into()))
    };
    let t0 = Instant::now();
    let at = |ms| t0 + Duration::from_millis(ms);
    let mut app = App::new(settings, Game::new(), Mode::Play, t0);
    app.start(t0);
    let fx = type_line(&mut app, "e4");
    let (generation, _) = search_of(&fx).unwrap();
    app.update(
        done(generation, Purpose::Play, Some(uci(&app, "e7e5")), 0),
        at(100),
    );
    // Each side has moved once: the person's clock runs, and a flag now is a loss.
    app.update(Action::Tick, at(4_000));
    let outcome = app.game.outcome().expect("flagged");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Color::Black), Reason::Time)
    );
    assert!(app.game.to_pgn().contains("[Result \"0-1\"]"));
}

#[test]
fn a_draw_offered_while_the_engine_thinks_is_judged_with_its_move() {
    let mut app = new_app(Side::Human, Side::Engine);
    let fx = type_line(&mut app, "e4");
    let (generation, _) = search_of(&fx).unwrap();
    type_line(&mut app, "draw");
    let fx = app.update(key(KeyCode::Char('y')), Instant::now());
    assert!(search_of(&fx).is_none(), "the running search answers");
    let m = uci(&app, "e7e5");
    // The engine (Black, to move) rates its position +0.10: it declines and plays on.
    app.update(done(generation, Purpose::Play, Some(m), 10), Instant::now());
    assert_eq!(app.game.sans(), ["e4", "e5"]);
    assert!(message(&app).contains("declines"));
    assert!(app.offers.draw_offer.is_none());
}

#[test]
fn page_keys_browse_ten_moves_at_a_time() {
    let mut app = app_hh();
    for m in "a3 a6 b3 b6 c3 c6 d3 d6 e3 e6 f3 f6 g3 g6 h3 h6 a4 a5 b4 b5 c4 c5 d4 d5".split(' ') {
        type_line(&mut app, m);
    }
    assert_eq!(app.game.ply(), 24);
    app.update(key(KeyCode::PageUp), Instant::now());
    assert_eq!(app.shown_ply(), 4);
    app.update(key(KeyCode::PageUp), Instant::now());
    assert_eq!(app.shown_ply(), 0);
    app.update(key(KeyCode::PageDown), Instant::now());
    assert_eq!(app.shown_ply(), 20);
    app.update(key(KeyCode::PageDown), Instant::now());
    assert_eq!(app.view, None);
}

#[test]
fn undo_after_the_end_reopens_the_game_with_the_clocks_held() {
    let settings = Settings {
        white: Side::Human,
        black: Side::Engine,
        tc: "1s+0".into(),
        ..Settings::default()
    };
    let t0 = Instant::now();
    let at = |ms| t0 + Duration::from_millis(ms);
    let mut app = App::new(settings, Game::new(), Mode::Play, t0);
    let fx = type_line(&mut app, "e4");
    let (generation, _) = search_of(&fx).unwrap();
    app.update(
        done(generation, Purpose::Play, Some(uci(&app, "e7e5")), 0),
        at(100),
    );
    // White's second runs out.
    app.update(Action::Tick, at(600));
    assert!(!app.game.is_over());
    let fx = app.update(Action::Tick, at(1200));
    assert_eq!(app.game.outcome().unwrap().reason, Reason::Time);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Archive(..))),
        "kept as it ended"
    );
    // Undo reopens the position before the last move pair, says so, and holds the clocks.
    app.update(ctrl('z'), at(1300));
    assert!(!app.game.is_over());
    assert_eq!(app.game.ply(), 0);
    assert!(
        message(&app).contains("saved as it was"),
        "{}",
        message(&app)
    );
    app.update(Action::Tick, at(5000));
    assert!(!app.game.is_over(), "no flag while the clocks wait");
    assert!(!app.needs_ticks());
    // The next move starts them again.
    let fx = type_line(&mut app, "d4");
    assert!(search_of(&fx).is_some());
    assert!(app.needs_ticks());
}

#[test]
fn a_hint_under_way_is_void_when_the_board_opens() {
    let mut app = new_app(Side::Human, Side::Engine);
    let fx = type_line(&mut app, "hint");
    let (generation, purpose) = search_of(&fx).unwrap();
    assert_eq!(purpose, Purpose::Hint);
    assert!(message(&app).contains("Thinking about a hint"));
    // Untimed: the board may open; the hint's search stops and its line goes.
    let fx = app.update(ctrl('b'), Instant::now());
    assert!(fx.iter().any(|e| matches!(e, Effect::Stop)), "{fx:?}");
    assert!(fx.iter().any(|e| matches!(e, Effect::Open(_))), "{fx:?}");
    assert_eq!(message(&app), "");
    // Its answer, if it comes after all, is stale.
    let m = uci(&app, "e2e4");
    app.update(done(generation, Purpose::Hint, Some(m), 30), Instant::now());
    assert_eq!(message(&app), "");
    // Back on the game, White (the person) is to move: no search starts.
    let fx = app.update(Action::Front, Instant::now());
    assert!(search_of(&fx).is_none(), "{fx:?}");
}
