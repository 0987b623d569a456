//! The plain-text mode where its player meets it: a game against the engine in a
//! pseudo-terminal, read line by line, with questions asked on the way; no line holds an
//! escape sequence, a box-drawing character or a figurine, and none is said twice in a row.

#![allow(
    clippy::unwrap_used,
    reason = "a test's helpers fail loudly, where the failure is"
)]

use knightfall::game::Game;

use crate::friend::type_line;
use crate::tui_pty::{STTY_AFTER, Session, archived, start, temp_home};

/// Waits until the output holds `text` `times` times.
fn said(s: &Session, text: &str, times: usize) {
    s.wait_for(text, 30, |s| s.text().matches(text).count() >= times);
}

#[test]
fn a_game_in_plain_text_is_said_in_words_and_answers_questions() {
    let home = temp_home("text");
    let mut s = start(
        &home,
        &format!("\"$KNIGHTFALL_BIN\" --text play --white human --level 1 --tc 5+3{STTY_AFTER}"),
    );
    said(&s, "Your move, 5:00 left.", 1);
    type_line(&mut s, "e4");
    said(&s, "You play pawn from e2 to e4.", 1);
    said(&s, "Your move, ", 2);
    let questions = [
        ("rank 2", "Rank 2: white pawn a2, white pawn b2"),
        ("file e", "File e: white king e1, white pawn e4"),
        ("where knight", "White knights on b1 g1."),
        ("square f7", "f7: black pawn. Defended by black: king e8."),
        (
            "square f3",
            "f3: empty. Reached by white: queen d1, knight g1, pawn g2.",
        ),
        (
            "legal g1",
            "White knight: knight from g1 to e2; knight from g1 to f3",
        ),
        ("pieces white", "White: king e1, queen d1, rooks a1 h1"),
        ("material", "White 39 points, Black 39: even."),
        ("rank 9", "There is no rank 9: ranks go from 1 to 8."),
        ("where dragon", "dragon is no piece"),
    ];
    for (asked, answer) in questions {
        type_line(&mut s, asked);
        said(&s, answer, 1);
    }
    type_line(&mut s, "Ke3");
    said(&s, "no king of yours can move to e3", 1);
    type_line(&mut s, "resign");
    said(&s, "Resign this game? (y/n)", 1);
    type_line(&mut s, "y");
    said(&s, "Black wins (resignation)", 1);
    type_line(&mut s, "quit");
    s.wait_for("the shell", 30, |s| s.text().contains("DONE"));
    let out = s.text();
    assert!(out.contains("EXIT=0"), "{out}");
    assert!(!out.contains('\u{1b}'), "an escape sequence: {out:?}");
    let drawn = |c: char| ('\u{2500}'..='\u{259f}').contains(&c);
    let figurine = |c: char| ('\u{2654}'..='\u{265f}').contains(&c);
    assert!(!out.chars().any(|c| drawn(c) || figurine(c)), "{out}");
    // Said once each: no line repeats the one before it (the player's own lines, echoed by
    // the terminal, aside).
    let typed = ["e4", "Ke3", "resign", "y", "quit"];
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !typed.contains(l) && !questions.iter().any(|q| q.0 == *l))
        .collect();
    for pair in lines.windows(2) {
        assert_ne!(pair[0], pair[1], "said twice:\n{out}");
    }
    let games = archived(&home);
    assert_eq!(games.len(), 1, "{games:?}");
    let game = Game::from_pgn(&games[0]).unwrap();
    assert_eq!(game.sans()[0], "e4");
    let _ = std::fs::remove_dir_all(&home);
}
