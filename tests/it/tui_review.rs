//! The review screen as a state: the review job it asks of the search service, results (and
//! failures) filling it in, what it keeps in the cache and when, the keys, the graph under the
//! mouse, and a `TestBackend` snapshot.

use crate::common;

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::game::Game;
use knightfall::review::analyse::{PositionEval, Settings};
use knightfall::review::judge::Eval;
use knightfall::store::Listed;
use knightfall::tui::job::EngineEvent;
use knightfall::tui::review::{ReviewScreen, View};
use knightfall::tui::screen::{Action, Drawn, Effect, Palette};
use knightfall::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const TRAP: &str = "[White \"Victim\"]\n[Black \"Trapper\"]\n[Result \"0-1\"]\n\n\
    1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1\n";

fn listed(pgns: &[&str]) -> Vec<Listed> {
    pgns.iter()
        .enumerate()
        .map(|(i, p)| {
            Listed::of_game(
                format!("game{i}.pgn").into(),
                1,
                &Game::from_pgn(p).unwrap(),
            )
        })
        .collect()
}

fn screen(pgns: &[&str], from_game: bool) -> ReviewScreen {
    let settings = Settings {
        movetime_ms: 100,
        threads: 1,
        tablebases: None,
        engine: None,
    };
    let palette = Palette {
        no_color: false,
        truecolor: true,
        ascii: false,
        theme: Default::default(),
    };
    ReviewScreen::new(listed(pgns), settings, palette, from_game)
}

fn key(s: &mut ReviewScreen, code: KeyCode) -> Vec<Effect> {
    s.update(
        Action::Key(KeyEvent::new(code, KeyModifiers::NONE)),
        Instant::now(),
    )
}

/// The review job's generation among `fx` (the test fails when there is none).
fn job(fx: &[Effect]) -> u64 {
    fx.iter()
        .find_map(|e| match e {
            Effect::Review(j) => Some(j.generation),
            _ => None,
        })
        .expect("a review job")
}

fn reviewed(generation: u64, ply: usize, cp: i32) -> Action {
    Action::Engine(EngineEvent::Reviewed {
        generation,
        ply,
        eval: Ok(PositionEval {
            eval: Eval::Cp(cp),
            line: Vec::new(),
            depth: 10,
        }),
    })
}

fn render(s: &ReviewScreen, w: u16, h: u16) -> (String, Drawn) {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut drawn = Drawn::default();
    term.draw(|f| drawn = ui::review::draw(f, s)).unwrap();
    (common::screen_text(&term), drawn)
}

/// Fills in every position of the trap game, White's 5. Nxf7 the blunder.
fn fill(s: &mut ReviewScreen, generation: u64) {
    // Positions 0..=14: level, then Black winning from 9 on (after 5. Nxf7).
    for ply in 0..=14 {
        let cp = match ply {
            0..=8 => 20,
            _ => -900,
        };
        s.update(reviewed(generation, ply, cp), Instant::now());
    }
}

#[test]
fn a_chosen_game_is_reviewed_at_once_and_kept_when_done() {
    let mut s = screen(&[TRAP], false);
    let fx = s.start(Some(0));
    let generation = job(&fx);
    assert_eq!(s.view, View::Review);
    assert!(s.searching);
    fill(&mut s, generation);
    // A result for another review is not this one's.
    s.update(reviewed(generation + 1000, 3, 500), Instant::now());
    let fx = s.update(
        Action::Engine(EngineEvent::ReviewDone { generation }),
        Instant::now(),
    );
    assert!(!s.searching);
    let Some(Effect::KeepReview { review, .. }) = fx.first() else {
        panic!("the review is kept: {fx:?}");
    };
    assert!(review.is_complete());
    assert_eq!(review.eval(3), Some(Eval::Cp(20)));
    // n goes to the blunder (ply 9, after 5. Nxf7); the list marks it.
    key(&mut s, KeyCode::Char('n'));
    assert_eq!(s.ply, 9);
    let (text, _) = render(&s, 100, 30);
    assert!(text.contains("Nxf7??"), "{text}");
    insta::assert_snapshot!("review_100x30_blunder", text);
    // Leaving keeps nothing more: all of it is cached already.
    let fx = key(&mut s, KeyCode::Char('q'));
    assert!(matches!(fx.as_slice(), [Effect::Close]), "{fx:?}");
}

#[test]
fn without_24_bit_colour_the_review_draws_only_256_colour_indices() {
    use ratatui::style::Color as Tui;
    let mut s = screen(&[TRAP], false);
    s.palette.truecolor = false;
    let generation = job(&s.start(Some(0)));
    fill(&mut s, generation);
    key(&mut s, KeyCode::Char('n'));
    let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
    term.draw(|f| {
        ui::review::draw(f, &s);
    })
    .unwrap();
    let cells = &term.backend().buffer().content;
    for cell in cells {
        for c in [cell.fg, cell.bg] {
            assert!(
                !matches!(c, Tui::Rgb(..)),
                "24-bit {c:?} under {:?}",
                cell.symbol()
            );
        }
    }
    // The blunder keeps its colour, as an index.
    assert!(cells.iter().any(|c| c.fg == Tui::Indexed(166)));
}

#[test]
fn a_failed_position_says_so_and_a_review_left_half_done_is_kept() {
    let mut s = screen(&[TRAP], true);
    let fx = s.start(Some(0));
    let generation = job(&fx);
    s.update(reviewed(generation, 13, -900), Instant::now());
    s.update(
        Action::Engine(EngineEvent::Reviewed {
            generation,
            ply: 12,
            eval: Err("the search was made to fail".into()),
        }),
        Instant::now(),
    );
    assert_eq!(s.failed, 1);
    let (text, _) = render(&s, 100, 30);
    assert!(
        text.contains("The search of position 12 failed (the search was made to fail)"),
        "{text}"
    );
    // Opened from a game: q goes back to it, the search stops and what was found is kept.
    let fx = key(&mut s, KeyCode::Char('q'));
    assert!(matches!(fx.first(), Some(Effect::Stop)), "{fx:?}");
    let kept = fx.iter().find_map(|e| match e {
        Effect::KeepReview { review: r, .. } => Some(r.done()),
        _ => None,
    });
    assert_eq!(kept, Some(1));
    assert!(matches!(fx.last(), Some(Effect::Close)), "{fx:?}");
}

#[test]
fn the_list_chooses_a_game_and_esc_goes_back_to_it() {
    let other = "1. d4 d5 2. c4 e6 *";
    let mut s = screen(&[TRAP, other], false);
    assert!(s.start(None).is_empty());
    assert_eq!(s.view, View::Pick);
    let (text, _) = render(&s, 100, 30);
    assert!(text.contains("Review which game? (2)"), "{text}");
    key(&mut s, KeyCode::Down);
    let fx = key(&mut s, KeyCode::Enter);
    let first = job(&fx);
    assert_eq!(s.plies(), 4);
    // Esc: back to the list, the search stopped.
    let fx = key(&mut s, KeyCode::Esc);
    assert!(matches!(fx.first(), Some(Effect::Stop)), "{fx:?}");
    assert_eq!(s.view, View::Pick);
    // Reopened: a new job, and the old job's results are not taken.
    let fx = key(&mut s, KeyCode::Enter);
    let second = job(&fx);
    assert_ne!(first, second);
    s.update(reviewed(first, 2, 55), Instant::now());
    assert_eq!(s.review.as_ref().unwrap().done(), 0);
}

#[test]
fn a_click_on_the_graph_shows_that_move() {
    let mut s = screen(&[TRAP], false);
    let generation = job(&s.start(Some(0)));
    fill(&mut s, generation);
    key(&mut s, KeyCode::End);
    assert_eq!(s.ply, 14);
    let (_, drawn) = render(&s, 100, 30);
    let (x, y, w, _) = drawn.graph.expect("the graph was drawn");
    let action = drawn.click(x, y).expect("a click on the graph");
    s.update(action, Instant::now());
    assert_eq!(s.ply, 0);
    let action = drawn.click(x + w - 1, y).expect("its right edge");
    s.update(action, Instant::now());
    assert_eq!(s.ply, 14);
    // The help lists the keys that work here.
    key(&mut s, KeyCode::Char('?'));
    let (text, _) = render(&s, 100, 30);
    assert!(text.contains("better"), "{text}");
}

#[test]
fn a_review_whose_search_fails_says_so_and_keeps_what_it_found() {
    let mut s = screen(&[TRAP], false);
    let generation = job(&s.start(Some(0)));
    s.update(reviewed(generation, 14, -900), Instant::now());
    s.update(
        Action::Engine(EngineEvent::Failed {
            generation,
            message: "a worker panicked".into(),
        }),
        Instant::now(),
    );
    assert!(!s.searching);
    assert!(s.message.contains("a worker panicked"), "{}", s.message);
    let fx = key(&mut s, KeyCode::Char('q'));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::KeepReview { review: r, .. } if r.done() == 1)),
        "{fx:?}"
    );
}

#[test]
fn the_board_is_seen_from_the_persons_side() {
    let game = |white: &str, black: &str| {
        format!("[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n")
    };
    for (white, black, from_black) in [
        ("Knightfall 0.1.0 (level 3)", "Human", true),
        ("Human", "Knightfall 0.1.0", false),
        ("Ana", "Bob", false),
        ("Knightfall 0.1.0", "Stockfish", true),
    ] {
        let mut s = screen(&[&game(white, black)], false);
        s.start(Some(0));
        assert_eq!(s.flipped, from_black, "{white} - {black}");
    }
}

#[test]
fn a_game_is_deleted_from_the_list_only_after_a_yes() {
    let mut s = screen(&[TRAP, TRAP], false);
    key(&mut s, KeyCode::Char('d'));
    assert!(s.message.contains("Delete game0.pgn?"), "{}", s.message);
    let fx = key(&mut s, KeyCode::Char('n'));
    assert!(fx.is_empty());
    assert_eq!(s.listed.len(), 2);
    key(&mut s, KeyCode::Down);
    key(&mut s, KeyCode::Delete);
    let fx = key(&mut s, KeyCode::Char('y'));
    assert!(
        matches!(fx.as_slice(), [Effect::Delete(p)] if p.ends_with("game1.pgn")),
        "{fx:?}"
    );
    assert_eq!(s.listed.len(), 1);
    assert_eq!(s.selected, 0);
}

/// Whether the first cell of `word` in the move list (the right half of the screen) is dimmed.
fn dimmed_in_list(term: &Terminal<TestBackend>, word: &str) -> bool {
    let buffer = term.backend().buffer();
    let area = buffer.area;
    for y in 0..area.height {
        let row: Vec<&str> = (0..area.width).map(|x| buffer[(x, y)].symbol()).collect();
        let text: String = row.concat();
        // Column of the match, counted in cells (every cell here holds one character).
        if let Some(at) = text.find(&format!(" {word} ")) {
            let x = text[..at + 1].chars().count() as u16;
            if x >= area.width / 2 {
                return buffer[(x, y)]
                    .modifier
                    .contains(ratatui::style::Modifier::DIM);
            }
        }
    }
    panic!("{word} is not in the move list");
}

#[test]
fn book_moves_are_dimmed_in_the_move_list() {
    let mut s = screen(&[TRAP], false);
    let fx = s.start(Some(0));
    fill(&mut s, job(&fx));
    key(&mut s, KeyCode::Char('n'));
    let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
    term.draw(|f| {
        ui::review::draw(f, &s);
    })
    .unwrap();
    // 2. Nf3 is in the book; 5. Nxf7, the blunder, is the player's own.
    assert!(dimmed_in_list(&term, "Nf3"));
    assert!(!dimmed_in_list(&term, "Nxf7??"));
}

/// A review of `moves` whose positions are searched to the scores and lines given (in SAN).
fn reviewed_with_lines(moves: &str, evals: &[(i32, &str)]) -> ReviewScreen {
    use shakmaty::Position;
    let pgn = format!("[White \"Ana\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n{moves} *\n");
    let game = Game::from_pgn(&pgn).unwrap();
    let mut s = screen(&[&pgn], false);
    let generation = job(&s.start(Some(0)));
    for (ply, (cp, line)) in evals.iter().enumerate() {
        let mut pos = game.position_at(ply).clone();
        let mut moves = Vec::new();
        for san in line.split_whitespace() {
            let m = san
                .parse::<shakmaty::san::San>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let eval = Ok(PositionEval {
            eval: Eval::Cp(*cp),
            line: moves,
            depth: 10,
        });
        let event = EngineEvent::Reviewed {
            generation,
            ply,
            eval,
        };
        s.update(Action::Engine(event), Instant::now());
    }
    s
}

#[test]
fn a_reason_that_names_the_better_move_does_not_say_it_again() {
    // 2. Qg4?? hangs the queen; 2...d6?? misses taking it.
    let mut s = reviewed_with_lines(
        "1. e4 f5 2. Qg4 d6",
        &[
            (30, "e4"),
            (60, "e5"),
            (80, "exf5 Nf6 d4"),
            (-900, "fxg4"),
            (150, "Qxf5"),
        ],
    );
    key(&mut s, KeyCode::End);
    let (text, _) = render(&s, 80, 24);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("misses 2... fxg4, which takes the queen on g4 for nothing. (b shows it)"),
        "{text}"
    );
    assert!(!flat.contains("was best"), "{text}");
    key(&mut s, KeyCode::Char('b'));
    let (text, _) = render(&s, 80, 24);
    assert!(text.contains("The board shows it (b: back)."), "{text}");
    // The move that hung the queen says what was better, with its line.
    key(&mut s, KeyCode::Char('b'));
    key(&mut s, KeyCode::Left);
    let (text, _) = render(&s, 80, 24);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "hangs the queen on g4: 2... fxg4. exf5 was best (b shows it): 2. exf5 Nf6 3. d4"
        ),
        "{text}"
    );
}
