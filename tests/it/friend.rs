//! Two real Knightfalls in two pseudo-terminals over loopback: `host` prints the code, `join`
//! connects with it, and the two play a game to mate through their game screens, with a chat
//! line each way, a draw offer declined and a takeback accepted; both keep the same game.

#![allow(
    clippy::unwrap_used,
    reason = "a test's helpers fail loudly, where the failure is"
)]

use std::path::Path;

use knightfall::game::Game;

use crate::tui_pty::{STTY_AFTER, Session, archived, start, temp_home};

/// The host's invitation as it printed it: the code and the port.
fn invitation(host: &Session) -> Option<(String, String)> {
    let text = host.text();
    let line = text
        .lines()
        .find(|l| l.contains("On this machine: knightfall join"))?;
    let mut words = line.split_whitespace().skip(5);
    let code = words.next()?.to_string();
    let port = words.next()?.rsplit(':').next()?.to_string();
    Some((code, port))
}

/// Types `line` and Enter.
fn type_line(s: &mut Session, line: &str) {
    s.send(line.as_bytes());
    s.send(b"\r");
}

/// Waits until `s` shows `text` somewhere on its screen.
fn sees(s: &Session, text: &str) {
    s.wait_for_screen(text, 20, |screen| screen.contains(text));
}

/// The game kept in `home`'s games folder.
fn kept(home: &Path) -> Game {
    let games = archived(home);
    assert_eq!(games.len(), 1, "{games:?}");
    Game::from_pgn(&games[0]).unwrap()
}

#[test]
fn two_knightfalls_play_a_game_over_loopback_and_keep_the_same_record() {
    let (host_home, guest_home) = (temp_home("friend-host"), temp_home("friend-guest"));
    let mut host = start(
        &host_home,
        &format!("\"$KNIGHTFALL_BIN\" host --port 0 --tc 5+3 --color white --name Ana{STTY_AFTER}"),
    );
    host.wait_for("the invitation", 20, |s| invitation(s).is_some());
    let (code, port) = invitation(&host).unwrap();
    let mut guest = start(
        &guest_home,
        &format!("\"$KNIGHTFALL_BIN\" join {code} 127.0.0.1:{port} --name Bob{STTY_AFTER}"),
    );
    sees(&host, "You play White against Bob");
    sees(&guest, "You play Black against Ana");

    type_line(&mut host, "e4");
    sees(&guest, "1. e4");
    type_line(&mut guest, "e5");
    sees(&host, "1. e4       e5");
    // A line of chat each way, shown under the moves.
    type_line(&mut guest, "say good luck!");
    sees(&host, "Bob: good luck!");
    type_line(&mut host, "say you too");
    sees(&guest, "Ana: you too");
    // A draw offered and declined.
    host.send(b"\x04");
    sees(&guest, "Ana offers a draw: accept? (y/n)");
    guest.send(b"n");
    sees(&host, "Bob declines a draw.");

    type_line(&mut host, "Bc4");
    sees(&guest, "2. Bc4");
    type_line(&mut guest, "Nc6");
    sees(&host, "2. Bc4      Nc6");
    type_line(&mut host, "Qh5");
    sees(&guest, "3. Qh5");
    type_line(&mut guest, "Nf6");
    sees(&host, "3. Qh5      Nf6");
    // A takeback asked for and allowed: the move is gone on both boards.
    guest.send(b"\x1a");
    sees(&host, "Bob asks to take back their last move: allow? (y/n)");
    host.send(b"y");
    sees(&guest, "Black move taken back.");
    host.wait_for_screen("the takeback", 20, |s| !s.contains("Nf6"));
    type_line(&mut guest, "Nf6");
    sees(&host, "3. Qh5      Nf6");
    type_line(&mut host, "Qxf7#");
    sees(&host, "White wins (checkmate)");
    sees(&guest, "White wins (checkmate)");

    type_line(&mut host, "quit");
    type_line(&mut guest, "quit");
    for s in [&host, &guest] {
        s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
        let out = s.text();
        assert!(out.contains("EXIT=0"), "{out}");
        assert!(out.contains("icanon echo"), "terminal not restored: {out}");
    }
    let (a, b) = (kept(&host_home), kept(&guest_home));
    assert_eq!(a.sans(), ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    assert_eq!(a.sans(), b.sans());
    assert_eq!(a.names, ["Ana".to_string(), "Bob".to_string()]);
    assert_eq!(a.names, b.names);
    assert_eq!(a.outcome(), b.outcome());
    // The same clock after every move, to the tenth of a second the record keeps.
    let clocks = |g: &Game| {
        let pgn = g.to_pgn();
        pgn.match_indices("[%clk ")
            .map(|(i, _)| pgn[i..i + 18].to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(clocks(&a).len(), 7, "{}", a.to_pgn());
    assert_eq!(clocks(&a), clocks(&b));
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}
