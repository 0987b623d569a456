//! The analysis board as a state: keys and engine reports in, effects out, no thread and no
//! terminal. Where the board goes (PageUp, the side lines), what it asks of the search service
//! (the capped analysis, deeper on Space), how a failed search shows, the help overlay, and
//! `TestBackend` snapshots of the screen.

use crate::common;

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::engine::Info;
use knightfall::line_tree::Tree;
use knightfall::player::Source;
use knightfall::tablebase::Tablebases;
use knightfall::tui::board::{Board, CAP_DEPTH, CAP_MS, Progress};
use knightfall::tui::job::{EngineEvent, Purpose, Request};
use knightfall::tui::screen::{Action, Drawn, Effect, Palette};
use knightfall::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

const GAME: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Bg4 6. d3 Bxf3 7. Qxf3 f6 \
                    8. Rd1 g6 9. Nd2 b5 10. Nb3 Kf7 11. d4 exd4 12. Rxd4 Qe7 13. Be3 Ke6 *";

fn palette() -> Palette {
    Palette {
        no_color: false,
        truecolor: true,
        ascii: false,
        theme: Default::default(),
    }
}

/// A board over `pgn`'s moves at its last one, started; returns it and its first effects.
fn board(pgn: &str) -> (Board, Vec<Effect>) {
    let tree = Tree::from_pgn(pgn).unwrap();
    let mut at = 0;
    while let Some(&c) = tree.node(at).children.first() {
        at = c;
    }
    let mut b = Board::new(tree, at, palette(), false);
    let fx = b.start();
    (b, fx)
}

fn key(b: &mut Board, code: KeyCode) -> Vec<Effect> {
    b.update(
        Action::Key(KeyEvent::new(code, KeyModifiers::NONE)),
        Instant::now(),
    )
}

fn ctrl(b: &mut Board, c: char) -> Vec<Effect> {
    b.update(
        Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
        Instant::now(),
    )
}

fn type_line(b: &mut Board, text: &str) -> Vec<Effect> {
    for c in text.chars() {
        key(b, KeyCode::Char(c));
    }
    key(b, KeyCode::Enter)
}

/// The search among `fx` (the test fails when there is none).
fn search(fx: &[Effect]) -> &Request {
    fx.iter()
        .find_map(|e| match e {
            Effect::Search(r) => Some(r.as_ref()),
            _ => None,
        })
        .expect("a search request")
}

fn info(pos: &Chess, multipv: u32, depth: u32, score: i32, moves: &[&str]) -> Action {
    let mut p = pos.clone();
    let pv: Vec<Move> = moves
        .iter()
        .map(|u| {
            let m = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
            p.play_unchecked(m);
            m
        })
        .collect();
    Action::Engine(EngineEvent::Info {
        generation: 0,
        info: Info {
            depth,
            seldepth: depth,
            score,
            nodes: 123_456,
            nps: 1_000_000,
            time_ms: 100,
            hashfull: 0,
            tb_hits: 0,
            pv,
            multipv,
        },
    })
}

/// `action` with the generation of `req`.
fn tagged(action: Action, req: &Request) -> Action {
    match action {
        Action::Engine(EngineEvent::Info { info, .. }) => Action::Engine(EngineEvent::Info {
            generation: req.generation,
            info,
        }),
        other => other,
    }
}

fn render(b: &Board, w: u16, h: u16) -> (String, Drawn) {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut drawn = Drawn::default();
    term.draw(|f| drawn = ui::board_screen::draw(f, b)).unwrap();
    (common::screen_text(&term), drawn)
}

#[test]
fn the_analysis_asks_for_its_lines_up_to_the_cap() {
    let (b, fx) = board(GAME);
    let req = search(&fx);
    assert_eq!(req.purpose, Purpose::Analyse);
    assert_eq!(&req.pos, b.pos());
    assert_eq!(req.limits.multipv, 3);
    assert_eq!(req.limits.depth, Some(CAP_DEPTH));
    assert_eq!(req.limits.movetime, Some(CAP_MS));
    // The repetition keys of the line: one per position before the one searched.
    assert_eq!(req.history.len(), 26);
    assert_eq!(b.progress, Progress::Running);
}

#[test]
fn page_up_moves_the_whole_board_ten_moves_back_and_analyses_there() {
    let (mut b, fx) = board(GAME);
    let first = search(&fx).generation;
    assert_eq!(b.game.ply(), 26);
    let fx = key(&mut b, KeyCode::PageUp);
    // Board, line, path and analysis all move together: 20 plies back, after 3... a6.
    assert_eq!(b.game.ply(), 6);
    assert_eq!(b.game.sans().last().map(String::as_str), Some("a6"));
    let req = search(&fx);
    assert_ne!(req.generation, first);
    assert_eq!(&req.pos, b.pos());
    assert_eq!(req.history.len(), 6);
    // A report for the position left behind is not taken for this one.
    let stale = info(&b.tree.node(b.tree.path(b.at)[0]).pos, 1, 9, 50, &["e2e4"]);
    b.update(stale, Instant::now());
    assert!(b.lines.iter().all(Option::is_none), "{:?}", b.lines);
    // PageDown goes back to where it was; PageUp again stops at the start.
    key(&mut b, KeyCode::PageDown);
    assert_eq!(b.game.ply(), 26);
    key(&mut b, KeyCode::PageUp);
    key(&mut b, KeyCode::PageUp);
    assert_eq!(b.game.ply(), 0);
    let fx = key(&mut b, KeyCode::PageUp);
    assert!(fx.is_empty(), "nothing to do at the start: {fx:?}");
}

#[test]
fn lines_and_sources_fill_in_and_the_cap_says_how_to_go_deeper() {
    let (mut b, fx) = board("1. e4 e5 2. Nf3 *");
    let req = search(&fx).clone();
    let pos = b.pos().clone();
    for (k, line) in [["b8c6", "f1b5"], ["g8f6", "f3e5"], ["d7d6", "d2d4"]]
        .iter()
        .enumerate()
    {
        let action = info(&pos, k as u32 + 1, 12, 20 - 10 * k as i32, line);
        b.update(tagged(action, &req), Instant::now());
    }
    let book = vec![(
        "b8c6".parse::<UciMove>().unwrap().to_move(&pos).unwrap(),
        90,
    )];
    b.update(
        Action::Engine(EngineEvent::Sources {
            generation: req.generation,
            book,
            tablebase: Vec::new(),
        }),
        Instant::now(),
    );
    assert_eq!(b.book_moves, [("Nc6".to_string(), 100)]);
    let sans: Vec<_> = b.lines.iter().flatten().map(|l| l.san.clone()).collect();
    assert_eq!(
        sans,
        ["2... Nc6 3. Bb5", "2... Nf6 3. Nxe5", "2... d6 3. d4"]
    );
    // Black to move: a score for Black is negative from White's view.
    assert_eq!(b.lines[0].as_ref().map(|l| l.score_white), Some(-20));
    b.update(
        Action::Engine(EngineEvent::Done {
            generation: req.generation,
            purpose: Purpose::Analyse,
            best: None,
            score: 20,
            source: Source::Search,
            note: None,
        }),
        Instant::now(),
    );
    assert_eq!(b.progress, Progress::Stopped(12));
    let (screen, _) = render(&b, 100, 30);
    assert!(
        screen.contains("stopped at depth 12 - Space goes deeper"),
        "{screen}"
    );
    insta::assert_snapshot!("board_100x30_stopped", screen);
    // Space: the same position, further.
    let fx = key(&mut b, KeyCode::Char(' '));
    let deeper = search(&fx);
    assert_eq!(deeper.limits.depth, Some(CAP_DEPTH + 10));
    assert_eq!(deeper.limits.movetime, Some(2 * CAP_MS));
    assert_eq!(&deeper.pos, b.pos());
    assert_eq!(b.progress, Progress::Running);
    // A change of position starts afresh at the usual cap.
    let fx = key(&mut b, KeyCode::Left);
    assert_eq!(search(&fx).limits.depth, Some(CAP_DEPTH));
}

#[test]
fn a_failed_search_shows_on_the_board() {
    let (mut b, fx) = board("1. d4 *");
    let req = search(&fx);
    b.update(
        Action::Engine(EngineEvent::Failed {
            generation: req.generation,
            message: "index out of bounds".into(),
        }),
        Instant::now(),
    );
    assert_eq!(b.progress, Progress::Failed);
    let (screen, _) = render(&b, 100, 30);
    assert!(
        screen.contains("The analysis failed (index out of bounds)"),
        "{screen}"
    );
    assert!(screen.contains("Space tries again"), "{screen}");
    // Space tries the same position again.
    let fx = key(&mut b, KeyCode::Char(' '));
    assert_eq!(search(&fx).limits.depth, Some(CAP_DEPTH));
}

#[test]
fn f1_opens_the_boards_help_and_the_next_key_only_closes_it() {
    let (mut b, _) = board("1. d4 *");
    key(&mut b, KeyCode::F(1));
    assert!(b.help.shown);
    let (screen, _) = render(&b, 100, 30);
    assert!(screen.contains("Help: the keys that work now"), "{screen}");
    assert!(screen.contains("deeper"), "{screen}");
    key(&mut b, KeyCode::Esc);
    assert!(!b.help.shown);
    // Nothing was swallowed: the move is typed whole.
    type_line(&mut b, "d5");
    assert_eq!(b.game.sans(), ["d4", "d5"]);
    assert_eq!(b.message, None);
}

#[test]
fn moves_typed_and_clicked_make_side_lines_and_a_save_asks_the_runner() {
    let (mut b, _) = board("1. e4 e5 *");
    key(&mut b, KeyCode::Left);
    type_line(&mut b, "c5");
    assert_eq!(b.game.sans(), ["e4", "c5"]);
    assert!(b.message.as_ref().unwrap().0.contains("A side line"));
    // Clicks select and move through the same path as typing.
    let (_, drawn) = render(&b, 100, 30);
    let area = drawn.board.expect("the board was drawn");
    let cell = |file: u16, rank: u16| {
        (
            area.x + file * area.cell_w + 1,
            area.y + (7 - rank) * area.cell_h,
        )
    };
    for (file, rank) in [(6, 0), (5, 2)] {
        let (x, y) = cell(file, rank);
        let action = drawn.click(x, y).expect("a square");
        b.update(action, Instant::now());
    }
    assert_eq!(b.game.sans(), ["e4", "c5", "Nf3"]);
    // The runner gives the board its wall clock; the saved tree is dated by it.
    b.wall = Some(knightfall::game::WallClock::read(Instant::now()));
    let fx = ctrl(&mut b, 's');
    let Some(Effect::SaveLines { file, text, .. }) =
        fx.iter().find(|e| matches!(e, Effect::SaveLines { .. }))
    else {
        panic!("no save: {fx:?}");
    };
    assert_eq!(file, &None);
    assert!(text.contains("1. e4 e5 (1... c5 2. Nf3) *"), "{text}");
    let today = knightfall::game::Moment::now().date();
    assert!(text.contains(&format!("[Date \"{today}\"]")), "{text}");
    b.update(Action::Saved("lines.pgn".into()), Instant::now());
    assert_eq!(b.saved, (Some("lines.pgn".into()), false));
    // Leaving with nothing new to save just closes.
    let fx = key(&mut b, KeyCode::Char('q'));
    assert!(matches!(fx.last(), Some(Effect::Close)), "{fx:?}");
    assert!(!fx.iter().any(|e| matches!(e, Effect::SaveLines { .. })));
}

#[test]
fn leaving_keeps_lines_that_changed() {
    let (mut b, _) = board("1. e4 *");
    type_line(&mut b, "e5");
    let fx = ctrl(&mut b, 'c');
    assert!(
        fx.iter().any(|e| matches!(e, Effect::SaveLines { .. })),
        "{fx:?}"
    );
    assert!(matches!(fx.last(), Some(Effect::Quit)), "{fx:?}");
}

#[test]
fn tablebase_verdicts_show_in_range() {
    let tree = Tree::new(
        "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap(),
        None,
    );
    let mut b = Board::new(tree, 0, palette(), true);
    let fx = b.start();
    let req = search(&fx);
    let tables = Tablebases::embedded();
    let ranked = tables.rank_root_moves(b.pos()).unwrap();
    b.update(
        Action::Engine(EngineEvent::Sources {
            generation: req.generation,
            book: Vec::new(),
            tablebase: ranked,
        }),
        Instant::now(),
    );
    assert!(b.tb_moves.iter().any(|(_, v)| v.starts_with("win, DTZ")));
    let (screen, _) = render(&b, 80, 24);
    assert!(screen.contains("Tablebase"), "{screen}");
    // Opened from a game, q goes back to it.
    assert!(screen.contains("q back"), "{screen}");
}

#[test]
fn ctrl_c_leaves_even_over_the_help_and_a_warning_given_at_start_stays() {
    let tree = Tree::from_pgn("1. e4 *").unwrap();
    let mut b = Board::new(tree, 1, palette(), false);
    b.message = Some((
        "Tablebases: /nowhere is not a folder".into(),
        knightfall::tui::screen::Tone::Error,
    ));
    b.start();
    assert!(b.message.as_ref().unwrap().0.contains("/nowhere"));
    key(&mut b, KeyCode::F(1));
    let fx = ctrl(&mut b, 'c');
    assert!(matches!(fx.last(), Some(Effect::Quit)), "{fx:?}");
}
