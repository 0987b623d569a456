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

/// Fails if `out` holds an escape sequence, a box-drawing character or a figurine, or a line
/// that repeats the one before it (the player's own lines, `typed`, echoed by the terminal,
/// aside).
fn plain_and_said_once(out: &str, typed: &[&str]) {
    assert!(!out.contains('\u{1b}'), "an escape sequence: {out:?}");
    let drawn = |c: char| ('\u{2500}'..='\u{259f}').contains(&c);
    let figurine = |c: char| ('\u{2654}'..='\u{265f}').contains(&c);
    assert!(!out.chars().any(|c| drawn(c) || figurine(c)), "{out}");
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !typed.contains(l))
        .collect();
    for pair in lines.windows(2) {
        assert_ne!(pair[0], pair[1], "said twice:\n{out}");
    }
}

/// Types `word` to leave, waits for the shell and checks Knightfall ended well; the whole
/// output.
fn leave(s: &mut Session, word: &str) -> String {
    type_line(s, word);
    s.wait_for("the shell", 30, |s| s.text().contains("DONE"));
    let out = s.text();
    assert!(out.contains("EXIT=0"), "{out}");
    out
}

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
        (
            "score",
            "The evaluation is kept hidden in a game against the engine until it ends",
        ),
        ("rank 9", "There is no rank 9: ranks go from 1 to 8."),
        ("where dragon", "There is no piece called dragon"),
    ];
    for (asked, answer) in questions {
        type_line(&mut s, asked);
        said(&s, answer, 1);
    }
    type_line(&mut s, "Ke3");
    said(&s, "No king of yours can move to e3", 1);
    type_line(&mut s, "resign");
    said(&s, "Resign this game? (y/n)", 1);
    type_line(&mut s, "y");
    said(&s, "Black wins (resignation)", 1);
    let out = leave(&mut s, "quit");
    let typed = ["e4", "Ke3", "resign", "y", "quit"];
    plain_and_said_once(&out, &[&typed, &questions.map(|q| q.0)[..]].concat());
    let games = archived(&home);
    assert_eq!(games.len(), 1, "{games:?}");
    let game = Game::from_pgn(&games[0]).unwrap();
    assert_eq!(game.sans()[0], "e4");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_new_game_choices_are_numbered_questions() {
    let home = temp_home("text-setup");
    let mut s = start(&home, &format!("\"$KNIGHTFALL_BIN\" --text{STTY_AFTER}"));
    said(&s, "A new game. Type a row's number", 1);
    said(&s, "1. You play: White.", 1);
    type_line(&mut s, "1");
    said(
        &s,
        "You play: 1 White (as now), 2 Black, 3 random colour, 4 both sides, 5 neither (watch).",
        1,
    );
    type_line(&mut s, "2");
    said(&s, "You play: Black.", 1);
    type_line(&mut s, "3");
    said(&s, "or type a clock like 7+2.", 1);
    type_line(&mut s, "7+2");
    said(&s, "Time control (min+inc): 7+2.", 1);
    type_line(&mut s, "9");
    said(&s, "There are 3 rows: type 1 to 3.", 1);
    type_line(&mut s, "start");
    said(&s, "you play Black against Knightfall", 1);
    said(&s, "7+2 on the clock", 1);
    said(&s, "Knightfall plays ", 1);
    said(&s, "Your move, 7:", 1);
    let out = leave(&mut s, "quit");
    plain_and_said_once(&out, &["1", "2", "3", "7+2", "9", "start", "quit"]);
    let _ = std::fs::remove_dir_all(&home);
}

/// `knightfall review --text` of `pgn`, searched `movetime` milliseconds a position, in a new
/// home named `name`.
fn text_review(name: &str, pgn: &str, movetime: u32) -> (std::path::PathBuf, Session) {
    let home = temp_home(name);
    let file = home.join("game.pgn");
    std::fs::write(&file, pgn).unwrap();
    let s = start(
        &home,
        &format!(
            "\"$KNIGHTFALL_BIN\" review --text {} --movetime {movetime}{STTY_AFTER}",
            file.display()
        ),
    );
    (home, s)
}

/// [`text_review`] of the scholar's mate (Ann against Bob), said to have begun.
fn scholar_review(name: &str, movetime: u32) -> (std::path::PathBuf, Session) {
    let (home, s) = text_review(
        name,
        "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
        movetime,
    );
    said(&s, "Reviewing Ann against Bob, 4 moves", 1);
    (home, s)
}

#[test]
fn a_review_in_plain_text_walks_the_moves_with_their_verdicts_and_better_lines() {
    let (home, mut s) = scholar_review("text-review", 50);
    said(&s, "Type forward for the first move", 1);
    assert!(s.text().contains("Black: "), "{}", s.text());
    type_line(&mut s, "forward");
    said(&s, "Move 1, White: pawn from e2 to e4.", 1);
    // The blunder that allows the mate: the last one flagged.
    type_line(&mut s, "end");
    said(&s, "queen from h5 takes pawn on f7, checkmate.", 1);
    type_line(&mut s, "previous");
    said(&s, "Move 3, Black: knight from g8 to f6. Blunder", 1);
    said(&s, "Better was ", 1);
    type_line(&mut s, "square f7");
    said(&s, "f7: black pawn. Attacked by white: ", 1);
    type_line(&mut s, "go 2 black");
    said(&s, "Move 2, Black: knight from b8 to c6.", 1);
    type_line(&mut s, "summary");
    said(&s, "Accuracy", 1);
    let out = leave(&mut s, "q");
    plain_and_said_once(
        &out,
        &[
            "forward",
            "end",
            "previous",
            "square f7",
            "go 2 black",
            "summary",
            "q",
        ],
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_move_stepped_to_before_the_engine_reaches_it_is_said_again_with_its_verdict() {
    // Three seconds a position: the move is stepped to long before its positions are done.
    let (home, mut s) = scholar_review("text-review-wait", 3000);
    type_line(&mut s, "go 3 black");
    said(&s, "Move 3, Black: knight from g8 to f6.", 1);
    // Nothing more is typed: the verdict is said when the engine has it.
    said(&s, "Move 3, Black: knight from g8 to f6. Blunder", 1);
    let out = leave(&mut s, "q");
    plain_and_said_once(&out, &["go 3 black", "q"]);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_puzzle_and_a_kqvk_drill_are_played_in_plain_text() {
    use shakmaty::CastlingMode;
    let home = temp_home("text-train");
    // A built-in puzzle of two moves of the solver's, played from its solution.
    let puzzle = knightfall::train::puzzle::built_in()
        .into_iter()
        .find(|p| p.moves.len() == 4)
        .unwrap();
    let mut s = start(
        &home,
        &format!(
            "\"$KNIGHTFALL_BIN\" --text train puzzles --id {}{STTY_AFTER}",
            puzzle.id
        ),
    );
    said(&s, &format!("Puzzle {}, rated", puzzle.id), 1);
    said(&s, "to move: find the best move", 1);
    let uci = |i: usize| puzzle.moves[i].to_uci(CastlingMode::Standard).to_string();
    type_line(&mut s, &uci(1));
    said(&s, "You play ", 1);
    type_line(&mut s, &uci(3));
    said(&s, "solved! Your puzzle rating", 1);
    said(&s, "next: the next.", 1);
    // Back to the list, and the queen's mate against the tables, asking for hints.
    type_line(&mut s, "list");
    said(&s, "3. King and queen against king (KQvK): ", 1);
    type_line(&mut s, "easy");
    type_line(&mut s, "3");
    said(&s, "Drill: king and queen against king (KQvK).", 1);
    said(&s, "to play and win. Par ", 1);
    let mut moves = 0;
    while !s.text().contains("checkmate") {
        assert!(moves < 40, "no mate in 40 moves:\n{}", s.text());
        let before = s.text().matches("The tables play ").count();
        type_line(&mut s, "hint");
        type_line(&mut s, "hint");
        said(&s, "The tables play ", before + 1);
        let out = s.text();
        let said_move = out.rsplit("The tables play ").next().unwrap();
        let mut words = said_move.split_whitespace();
        let role = words.next().unwrap();
        let square: String = words
            .find(|w| w.len() >= 2 && w.as_bytes()[1].is_ascii_digit())
            .unwrap()
            .chars()
            .take(2)
            .collect();
        let letter = match role {
            "queen" => "Q",
            "king" => "K",
            other => panic!("{other} in a KQvK drill"),
        };
        let mine = s.text().matches("You play ").count();
        type_line(&mut s, &format!("{letter}{square}"));
        said(&s, "You play ", mine + 1);
        moves += 1;
    }
    let out = leave(&mut s, "quit");
    plain_and_said_once(&out, &["list", "easy", "3", "hint", "quit"]);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_game_against_a_friend_is_said_in_plain_text_on_both_sides() {
    use crate::friend::{guest_in, host_in};
    let (host_home, guest_home) = (temp_home("text-host"), temp_home("text-guest"));
    let (mut host, code, port) = host_in(&host_home, "--text --color white");
    let mut guest = guest_in(&guest_home, &code, &port, "--text");
    said(&host, "you play White against Bob", 1);
    said(&guest, "you play Black against Ana", 1);
    type_line(&mut host, "e4");
    said(&guest, "Ana plays pawn from e2 to e4.", 1);
    type_line(&mut guest, "say good luck!");
    said(&host, "Bob says: good luck!", 1);
    said(&guest, "You say: good luck!", 1);
    type_line(&mut guest, "e5");
    said(&host, "Bob plays pawn from e7 to e5.", 1);
    type_line(&mut host, "square e5");
    said(&host, "e5: black pawn.", 1);
    let host_out = leave(&mut host, "quit");
    let guest_out = leave(&mut guest, "quit");
    let typed = ["e4", "e5", "say good luck!", "square e5", "quit"];
    plain_and_said_once(&host_out, &typed);
    plain_and_said_once(&guest_out, &typed);
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}

#[test]
fn the_library_in_plain_text_narrows_and_opens_a_review() {
    let home = temp_home("text-library");
    let file = home.join("two.pgn");
    std::fs::write(
        &file,
        "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n[Date \"2026.01.02\"]\n\n\
         1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
         [White \"Cid\"]\n[Black \"Ann\"]\n[Result \"0-1\"]\n[Date \"2026.02.03\"]\n\n\
         1. f3 e5 2. g4 Qh4# 0-1\n",
    )
    .unwrap();
    let mut s = start(
        &home,
        &format!(
            "\"$KNIGHTFALL_BIN\" games import {} >/dev/null 2>&1 </dev/null && \
             \"$KNIGHTFALL_BIN\" --text games && \
             \"$KNIGHTFALL_BIN\" stats --text --player Ann{STTY_AFTER}",
            file.display()
        ),
    );
    said(&s, "The library: 2 games, newest first", 1);
    said(&s, "1. Cid against Ann, 0-1, 2026.02.03, Barnes Opening", 1);
    type_line(&mut s, "find bob");
    said(&s, "1 game with the words bob; type 1 to review it.", 1);
    type_line(&mut s, "1");
    said(&s, "Reviewing Ann against Bob, 4 moves", 1);
    said(&s, "Type forward for the first move", 1);
    type_line(&mut s, "q");
    said(&s, "1. Ann against Bob, 1-0, 2026.01.02", 2);
    said(&s, "reviewed, accuracy White", 1);
    type_line(&mut s, "all");
    said(&s, "The library: 2 games, newest first", 2);
    // Narrowed to nothing, a number says so and q still leaves (it is not typed as a word).
    type_line(&mut s, "find zed");
    said(&s, "No game has the words zed; all shows every game.", 1);
    type_line(&mut s, "1");
    said(&s, "There is no game here to review.", 1);
    // The statistics, in plain text, are the figures as a script reads them.
    let out = leave(&mut s, "q");
    assert!(
        out.contains("Games of Ann: 2 finished, 1 reviewed"),
        "{out}"
    );
    assert!(out.contains("with White      1    1"), "{out}");
    plain_and_said_once(&out, &["find bob", "1", "q", "all", "find zed"]);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_reason_that_names_the_better_move_is_not_followed_by_it_again() {
    // 2. Qg4?? hangs the queen and 2...d6?? does not take it.
    let (home, mut s) = text_review(
        "text-review-missed",
        "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n1. e4 f5 2. Qg4 d6 *\n",
        50,
    );
    said(&s, "Type forward for the first move", 1);
    type_line(&mut s, "end");
    said(
        &s,
        "Move 2, Black: pawn from d7 to d6. Blunder: misses 2... pawn from f5 takes queen \
         on g4, which takes the queen on g4 for nothing",
        1,
    );
    type_line(&mut s, "better");
    said(&s, "Shown instead: pawn from f5 takes queen on g4.", 1);
    let out = leave(&mut s, "q");
    assert!(!out.contains("Better was"), "{out}");
    let _ = std::fs::remove_dir_all(&home);
}
