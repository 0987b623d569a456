//! The terminal game's engine path through the real worker thread: the app asks, the worker's
//! `Player` searches, and the analysis panel's state shows what the search really did.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::engine::Config;
use knightfall::game::Game;
use knightfall::player::{Player, Source};
use knightfall::tui::app::{App, Mode, Settings, Side};
use knightfall::tui::event::Event;
use knightfall::tui::runner::{Runner, Step};

fn runner(settings: Settings, game: Game) -> Runner {
    let app = App::new(settings, game, Mode::Play, Instant::now());
    let mut runner = Runner::for_game(app, Player::new(Config::default(), None, None));
    assert!(!runner.start(Instant::now()));
    runner
}

fn app_of(r: &Runner) -> &App {
    r.game().expect("the runner holds a game")
}

/// The message line's text.
fn message_of(r: &Runner) -> String {
    app_of(r)
        .line
        .message
        .clone()
        .map(|m| m.0)
        .unwrap_or_default()
}

fn type_line(runner: &mut Runner, text: &str) {
    for c in text.chars().chain(['\r']) {
        let code = if c == '\r' {
            KeyCode::Enter
        } else {
            KeyCode::Char(c)
        };
        let key = Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        assert_eq!(runner.step(Some(key), Instant::now()), Step::Continue);
    }
}

/// Runs the loop until `done` holds (or fails after `secs`).
fn run_until(runner: &mut Runner, secs: u64, done: impl Fn(&App) -> bool) {
    // A heartbeat, so that the deadline is checked even when nothing else happens.
    let beat = runner.sender();
    std::thread::spawn(move || {
        while beat.send(Event::Resize).is_ok() {
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    let end = Instant::now() + Duration::from_secs(secs);
    while !done(app_of(runner)) {
        assert!(Instant::now() < end, "timed out");
        let ev = runner.next_event().expect("the channel is open");
        assert_eq!(runner.step(ev, Instant::now()), Step::Continue);
    }
}

#[test]
fn level_one_replies_from_a_depth_one_search_and_hints_search_fully() {
    let settings = Settings {
        white: Side::Human,
        black: Side::Engine,
        think_ms: 1000,
        level: 1,
        ..Settings::default()
    };
    let mut r = runner(settings, Game::new());
    type_line(&mut r, "e2e4");
    run_until(&mut r, 30, |app| app.game.ply() == 2);
    let a = &app_of(&r).search.analysis;
    assert_eq!(a.source, Source::Search);
    assert_eq!(a.depth, 1, "{a:?}");
    assert!(a.nodes > 0 && a.nodes <= 400, "{a:?}");
    // A hint is full strength in the same engine, without clearing anything: level 10, which
    // has no caps (`level_ten_searches_fully`). How deep its second of search gets depends on
    // the machine, so the depth is not asserted.
    type_line(&mut r, "hint");
    run_until(&mut r, 30, |app| app.search.pending.is_none());
    let a = &app_of(&r).search.analysis;
    assert_eq!(a.level, 10, "{a:?}");
    assert!(a.depth >= 1 && !a.pv.is_empty(), "{a:?}");
    // And the next reply is level 1 again.
    type_line(&mut r, "d2d4");
    run_until(&mut r, 30, |app| app.game.ply() == 4);
    let a = &app_of(&r).search.analysis;
    assert_eq!(a.depth, 1, "{a:?}");
    assert!(a.nodes <= 400, "{a:?}");
}

#[test]
fn level_ten_searches_fully() {
    let settings = Settings {
        white: Side::Human,
        black: Side::Engine,
        think_ms: 500,
        level: 10,
        ..Settings::default()
    };
    let mut r = runner(settings, Game::new());
    type_line(&mut r, "e2e4");
    run_until(&mut r, 30, |app| app.game.ply() == 2);
    let a = &app_of(&r).search.analysis;
    assert_eq!(a.level, 10, "{a:?}");
    assert!(a.depth >= 1, "{a:?}");
    // No caps, no noise, no oversights: the engine's own search.
    let caps = knightfall::engine::strength::settings(10);
    let full = (caps.depth, caps.nodes, caps.noise, caps.blunder_percent);
    assert_eq!(full, (None, None, 0, 0), "{caps:?}");
}

#[test]
fn the_search_probes_the_built_in_tablebases() {
    // Five pieces: above the tables at the root, but every capture lands in a 4-piece table.
    let game = Game::from_fen("8/8/3k4/8/1r6/3K4/1R1P4/8 w - - 0 1").unwrap();
    let settings = Settings {
        white: Side::Engine,
        black: Side::Human,
        think_ms: 500,
        ..Settings::default()
    };
    let with_tables = |settings: &Settings, game: Game| {
        let app = App::new(settings.clone(), game, Mode::Play, Instant::now());
        let tables = std::sync::Arc::new(knightfall::tablebase::Tablebases::embedded());
        let mut r = Runner::for_game(app, Player::new(Config::default(), None, Some(tables)));
        assert!(!r.start(Instant::now()));
        run_until(&mut r, 30, |app| app.game.ply() == 1);
        r
    };
    let r = with_tables(&settings, game);
    let a = &app_of(&r).search.analysis;
    assert_eq!(a.source, Source::Search);
    assert!(a.tb_hits > 0, "{a:?}");
    // Four pieces (Black to move after Rxb4 Kc5): the tables choose at the root.
    let r = with_tables(
        &Settings {
            white: Side::Human,
            black: Side::Engine,
            ..settings
        },
        Game::from_fen("8/8/8/2k5/1R6/3K4/3P4/8 b - - 0 1").unwrap(),
    );
    let a = &app_of(&r).search.analysis;
    assert_eq!(a.source, Source::Tablebase, "{a:?}");
    assert!(a.pv.contains("tablebase loss"), "{a:?}");
}

/// A game where Black is the external engine `command`, after White's e2e4 and Black's answer
/// (or failure): the game and the message line.
fn against_external(command: &str) -> (Game, String) {
    let settings = Settings {
        white: Side::Human,
        black: Side::Uci(command.to_string()),
        think_ms: 200,
        ..Settings::default()
    };
    let mut r = runner(settings, Game::new());
    type_line(&mut r, "e2e4");
    run_until(&mut r, 30, |app| app.game.is_over() || app.game.ply() == 2);
    let message = message_of(&r);
    (app_of(&r).game.clone(), message)
}

/// A UCI engine in a few lines of shell that answers `go` with `reply`.
fn scripted(reply: &str) -> String {
    format!(
        "sh -c 'while read l; do case \"$l\" in uci) echo \"id name Scripted\"; echo uciok;; isready) echo readyok;; go*) {reply};; esac; done'"
    )
}

#[test]
fn a_broken_external_engine_forfeits_its_game() {
    use knightfall::game::Reason;
    let abandoned = Reason::Abandoned;
    for (command, expected, reason) in [
        (
            "/no/such/engine".to_string(),
            "engine could not be started",
            abandoned,
        ),
        (scripted("exit 3"), "exited (exit status: 3)", abandoned),
        (
            scripted("echo bestmove e2e5"),
            "played the illegal move e2e5",
            Reason::Forfeit,
        ),
        (
            scripted("echo bestmove 0000"),
            "played no move",
            Reason::Forfeit,
        ),
        (
            scripted("echo info depth 3 score cp 12 pv d7d5; echo bestmove d7d5"),
            "",
            Reason::Forfeit,
        ),
    ] {
        let (game, message) = against_external(&command);
        if expected.is_empty() {
            // A working script: its move is played and the game goes on.
            assert_eq!(game.sans(), ["e4", "d5"], "{message}");
            assert!(!game.is_over());
            continue;
        }
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.reason, reason, "{command}: {message}");
        // The PGN says what happened.
        let pgn = game.to_pgn();
        assert!(pgn.contains("{Black forfeits: "), "{pgn}");
        assert!(pgn.contains(expected), "{pgn}");
        assert_eq!(outcome.winner, Some(shakmaty::Color::White));
        assert!(message.contains("Black forfeits"), "{message}");
        assert!(message.contains(expected), "{command}: {message}");
    }
}

#[test]
fn every_level_replies_within_its_published_caps() {
    use knightfall::engine::strength::settings;
    // The published level table: depth and node caps per level; the game must play by it.
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/LEVELS.md")).unwrap();
    for level in 1..=9u8 {
        let caps = settings(level);
        let (depth, nodes) = (caps.depth.unwrap(), caps.nodes.unwrap());
        let row = format!("| {level} | {depth} | {} |", group(nodes));
        assert!(readme.contains(&row), "docs/LEVELS.md lacks {row:?}");
        let mut r = runner(
            Settings {
                white: Side::Human,
                black: Side::Engine,
                think_ms: 2000,
                level,
                ..Settings::default()
            },
            Game::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap(),
        );
        type_line(&mut r, "Bb5");
        run_until(&mut r, 30, |app| app.game.ply() == 2);
        let a = &app_of(&r).search.analysis;
        assert!(a.depth >= 1 && a.depth <= depth, "level {level}: {a:?}");
        assert!(a.nodes <= nodes, "level {level}: {a:?}");
        eprintln!("level {level}: depth {} nodes {}", a.depth, a.nodes);
    }
}

/// `80000` as the level table writes it: `80,000`.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn mate_scores_read_from_white_s_view_in_whole_moves() {
    use knightfall::tui::ui::analysis::format_score;
    // Black mates in 2 (...Ra1+ Kg2 ...Rb2#, or the like).
    let settings = Settings {
        white: Side::Human,
        black: Side::Engine,
        think_ms: 500,
        ..Settings::default()
    };
    let mut r = runner(
        settings,
        Game::from_fen("6k1/8/8/8/r7/1r6/8/7K b - - 0 1").unwrap(),
    );
    run_until(&mut r, 30, |app| app.game.ply() == 1);
    let score = app_of(&r).search.analysis.score_white.expect("a score");
    assert_eq!(
        format_score(score),
        "#-2",
        "{:?}",
        app_of(&r).search.analysis
    );
    // White to move, mated in 1: Black's mate in one more move.
    let settings = Settings {
        white: Side::Engine,
        black: Side::Human,
        think_ms: 500,
        ..Settings::default()
    };
    let mut r = runner(
        settings,
        Game::from_fen("6k1/8/8/8/8/r7/1r6/7K w - - 0 1").unwrap(),
    );
    run_until(&mut r, 30, |app| app.game.ply() == 1);
    let score = app_of(&r).search.analysis.score_white.expect("a score");
    assert_eq!(
        format_score(score),
        "#-1",
        "{:?}",
        app_of(&r).search.analysis
    );
}

#[test]
fn the_engine_takes_a_draw_only_when_worse_or_the_game_is_dead_level() {
    let offer = |game: Game| {
        let settings = Settings {
            white: Side::Human,
            black: Side::Engine,
            ..Settings::default()
        };
        let mut r = runner(settings, game);
        type_line(&mut r, "draw");
        type_line(&mut r, "y");
        run_until(&mut r, 30, |app| app.search.pending.is_none());
        let message = message_of(&r);
        (app_of(&r).game.is_over(), message)
    };
    // 1. e4 c5: Black stands a little worse, as in most openings; it plays on.
    let (over, message) = offer(Game::from_pgn("1. e4 c5 *").unwrap());
    assert!(!over && message.contains("declines"), "{message}");
    // A queen down: it takes the half point.
    let (over, message) = offer(Game::from_fen("4k3/8/8/8/8/8/3QK3/8 w - - 0 30").unwrap());
    assert!(over, "{message}");
    // A level rook ending at move 60: a draw.
    let (over, message) = offer(Game::from_fen("8/4k3/8/r7/8/8/4K3/7R w - - 0 60").unwrap());
    assert!(over, "{message}");
    // The same ending at move 12 is still a game.
    let (over, message) = offer(Game::from_fen("8/4k3/8/r7/8/8/4K3/7R w - - 0 12").unwrap());
    assert!(!over, "{message}");
}

/// Presses or releases the left button at the middle of `sq`'s cell, as drawn by the last
/// frame (White at the bottom, 80x24: cells 5 wide and 2 high from column 2).
fn mouse(runner: &mut Runner, sq: &str, down: bool) {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let sq: shakmaty::Square = sq.parse().unwrap();
    let column = 2 + 5 * u16::from(sq.file() as u8) + 2;
    let row = 2 * (7 - u16::from(sq.rank() as u8));
    let kind = if down {
        MouseEventKind::Down(MouseButton::Left)
    } else {
        MouseEventKind::Up(MouseButton::Left)
    };
    let event = MouseEvent {
        kind,
        column,
        row,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    runner.step(Some(Event::Mouse(event)), Instant::now());
}

fn frame(runner: &mut Runner) -> String {
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    term.draw(|f| runner.draw(f)).unwrap();
    let buf = term.backend().buffer();
    (0..24)
        .map(|y| (0..80).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

#[test]
fn a_piece_is_dragged_and_dropped_or_clicked_twice_and_a_promotion_is_picked() {
    let settings = Settings {
        white: Side::Human,
        black: Side::Human,
        ..Settings::default()
    };
    let game = Game::from_fen("7k/4P3/8/8/8/8/3P4/4K3 w - - 0 1").unwrap();
    let mut r = runner(settings, game);
    frame(&mut r);
    // Drag d2 to d4: pressed on d2, released on d4.
    mouse(&mut r, "d2", true);
    assert_eq!(
        app_of(&r).line.text,
        "d2",
        "the piece picked up is selected"
    );
    mouse(&mut r, "d4", false);
    assert_eq!(app_of(&r).game.sans(), ["d4"]);
    // Click, click: h8 then g8 (press and release on each).
    frame(&mut r);
    for sq in ["h8", "g8"] {
        mouse(&mut r, sq, true);
        mouse(&mut r, sq, false);
    }
    assert_eq!(app_of(&r).game.sans(), ["d4", "Kg8"]);
    // Dragged to the last rank, the pawn waits for its piece; the picker shows on e8-e5.
    frame(&mut r);
    mouse(&mut r, "e7", true);
    mouse(&mut r, "e8", false);
    assert_eq!(app_of(&r).game.sans().len(), 2, "no piece chosen yet");
    assert!(
        message_of(&r).contains("Promote to which piece?"),
        "{}",
        message_of(&r)
    );
    let screen = frame(&mut r);
    let board: Vec<&str> = screen.lines().collect();
    // e8, e7, e6, e5 hold a queen, rook, bishop and knight (rows 1, 3, 5, 7; column 24).
    let at = |row: usize| board[row].chars().nth(24).unwrap();
    assert_eq!(
        [at(1), at(3), at(5), at(7)],
        ['♛', '♜', '♝', '♞'],
        "\n{screen}"
    );
    // A click beside the picker puts it away; the knight from it promotes to a knight.
    mouse(&mut r, "a1", true);
    mouse(&mut r, "a1", false);
    assert!(app_of(&r).line.text.is_empty());
    frame(&mut r);
    mouse(&mut r, "e7", true);
    mouse(&mut r, "e8", false);
    frame(&mut r);
    mouse(&mut r, "e5", true);
    mouse(&mut r, "e5", false);
    assert_eq!(app_of(&r).game.sans(), ["d4", "Kg8", "e8=N"]);
}
