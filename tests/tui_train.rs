//! The training screen as a state: keys in, effects out. The list of endings, a drill started
//! from it and played to the end against the tables, a move that throws the win away and its
//! take-back, hints, typed endings and FENs (bad ones refused with a reason), the record kept,
//! and the screen drawn at both sizes.

#![allow(
    clippy::unwrap_used,
    reason = "a test's helpers fail loudly, where the failure is"
)]

mod common;

use std::sync::Arc;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::store::training::Progress;
use knightfall::tablebase::Tablebases;
use knightfall::train::{Goal, State};
use knightfall::tui::screen::{Action, Effect, Palette, Tone};
use knightfall::tui::train::Train;
use knightfall::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::Position;

fn train() -> Train {
    Train::new(
        Arc::new(Tablebases::embedded()),
        Progress::default(),
        Palette::default(),
        false,
        42,
    )
}

fn key(t: &mut Train, code: KeyCode) -> Vec<Effect> {
    t.update(
        Action::Key(KeyEvent::new(code, KeyModifiers::NONE)),
        Instant::now(),
    )
}

fn ctrl(t: &mut Train, c: char) -> Vec<Effect> {
    t.update(
        Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
        Instant::now(),
    )
}

fn type_line(t: &mut Train, text: &str) -> Vec<Effect> {
    for c in text.chars() {
        key(t, KeyCode::Char(c));
    }
    key(t, KeyCode::Enter)
}

fn message(t: &Train) -> String {
    t.message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default()
}

fn screen(t: &Train, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| {
        ui::train::draw(f, t);
    })
    .unwrap();
    common::screen_text(&term)
}

/// The tables' best move for the drill on the board, in SAN.
fn best_san(t: &Train) -> String {
    let d = t.drill.as_ref().unwrap();
    let best = t.tables.root_move(d.pos()).unwrap().mv;
    shakmaty::san::SanPlus::from_move(d.pos().clone(), best).to_string()
}

#[test]
fn a_drill_from_the_list_is_played_to_the_win_and_counted() {
    let mut t = train();
    let list = screen(&t, 120, 40);
    assert!(list.contains("KBNvK"), "{list}");
    assert!(list.contains("not tried"));
    // The second ending (KRvK), easy.
    key(&mut t, KeyCode::Down);
    key(&mut t, KeyCode::Left);
    key(&mut t, KeyCode::Enter);
    let d = t.drill.as_ref().expect("a drill started");
    assert_eq!(d.ending.to_string(), "KRvK");
    assert_eq!(d.goal, Goal::Win);
    assert!(
        message(&t).contains("to play and win. Par"),
        "{}",
        message(&t)
    );
    let mut saved = Vec::new();
    for _ in 0..60 {
        if t.drill.as_ref().unwrap().state != State::Playing {
            break;
        }
        let san = best_san(&t);
        saved.extend(type_line(&mut t, &san));
    }
    let d = t.drill.as_ref().unwrap();
    assert_eq!(d.state, State::Done);
    assert!(d.pos().is_checkmate());
    assert!(message(&t).contains("Won in"), "{}", message(&t));
    let progress = saved
        .iter()
        .find_map(|e| match e {
            Effect::SaveTraining(p) => Some(p.clone()),
            _ => None,
        })
        .expect("the record written when the drill ends");
    let r = &progress.endings["KRvK"];
    assert_eq!(
        (r.tried, r.done, r.clean, r.best_over_par),
        (1, 1, 1, Some(0))
    );
    // Counted once: the next start does not count the finished one again.
    let fx = ctrl(&mut t, 'n');
    assert!(!fx.iter().any(|e| matches!(e, Effect::SaveTraining(_))));
    assert_eq!(t.drill.as_ref().unwrap().moves_played(), 0);
    // Back on the list, the record shows.
    key(&mut t, KeyCode::Char('q'));
    assert!(t.drill.is_none());
    assert!(screen(&t, 120, 40).contains("1/1 done, won at par"));
}

#[test]
fn a_thrown_win_is_refuted_taken_back_and_counted_as_tried_when_left() {
    let mut t = train();
    // KQvK: Qb8+ lets the king take the queen.
    type_line(&mut t, "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1");
    assert_eq!(t.drill.as_ref().unwrap().ending.to_string(), "KQvK");
    type_line(&mut t, "Qb8+");
    let said = message(&t);
    assert!(said.contains("throws the win away"), "{said}");
    assert!(said.contains("Reply: Kxb8"), "{said}");
    assert_eq!(t.message.as_ref().unwrap().1, Tone::Error);
    // No further move in a failed attempt.
    type_line(&mut t, "Kb6");
    assert!(message(&t).contains("attempt is over"), "{}", message(&t));
    ctrl(&mut t, 'z');
    let d = t.drill.as_ref().unwrap();
    assert_eq!(d.state, State::Playing);
    assert_eq!(d.game.fen(), "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1");
    assert!(screen(&t, 120, 40).contains("take-backs 1"));
    // Leaving counts the start as tried, not done.
    let fx = key(&mut t, KeyCode::Char('q'));
    let Some(Effect::SaveTraining(p)) = fx.iter().find(|e| matches!(e, Effect::SaveTraining(_)))
    else {
        panic!("no record written: {fx:?}");
    };
    let r = &p.endings["KQvK"];
    assert_eq!((r.tried, r.done), (1, 0));
}

#[test]
fn a_hint_shows_the_piece_then_the_move_and_counts_once() {
    let mut t = train();
    type_line(&mut t, "KQvK");
    let best = best_san(&t);
    ctrl(&mut t, 't');
    assert!(message(&t).starts_with("Move the "), "{}", message(&t));
    assert!(t.hint.is_some_and(|(_, m)| m.is_none()));
    ctrl(&mut t, 't');
    assert_eq!(message(&t), format!("The tables play {best}."));
    assert_eq!(t.drill.as_ref().unwrap().hints, 1);
    type_line(&mut t, &best);
    assert!(t.hint.is_none());
    assert!(message(&t).contains("the tables' best"), "{}", message(&t));
}

#[test]
fn bad_input_says_why_and_changes_nothing() {
    let mut t = train();
    for bad in [
        "KQRBvK",
        "KXvK",
        "KvKQ",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "nonsense",
    ] {
        type_line(&mut t, bad);
        assert!(t.drill.is_none(), "{bad}");
        let (text, tone) = t.message.clone().unwrap();
        assert_eq!(tone, Tone::Error, "{bad}: {text}");
        t.message = None;
    }
    assert_eq!(t.endings.len(), knightfall::train::ending::OFFERED.len());
    // A typed ending joins the list and starts; a typed difficulty is taken.
    type_line(&mut t, "hard");
    type_line(&mut t, "kbvkp");
    let d = t.drill.as_ref().unwrap();
    assert_eq!(d.ending.to_string(), "KBvKP");
    assert_eq!(d.goal, Goal::Draw);
    assert_eq!(d.difficulty.name(), "hard");
    // An illegal move on the board is refused.
    let before = d.game.fen();
    type_line(&mut t, "Qh8");
    assert_eq!(t.drill.as_ref().unwrap().game.fen(), before);
    assert_eq!(t.message.as_ref().unwrap().1, Tone::Error);
}

#[test]
fn the_board_is_seen_from_the_players_side_and_fits_80x24() {
    let mut t = train();
    // Black to play and win.
    type_line(&mut t, "8/8/8/8/2k5/8/6q1/K7 b - - 0 1");
    assert_eq!(t.drill.as_ref().unwrap().player, shakmaty::Color::Black);
    assert!(t.seen_from_black());
    let big = screen(&t, 120, 40);
    assert!(big.contains("Black to play and win"), "{big}");
    let small = screen(&t, 80, 24);
    assert!(small.contains("Black to play and win"), "{small}");
    assert!(small.contains("^T hint"), "{small}");
    let list_small = {
        key(&mut t, KeyCode::Char('q'));
        screen(&t, 80, 24)
    };
    assert!(list_small.contains("KQvK"), "{list_small}");
}
