//! `knightfall watch --headless`: engine games without a screen, written as PGN that reads back
//! with legal moves and results that match the final positions.

use std::process::Command;

use knightfall::game::Game;

#[test]
fn headless_games_are_legal_and_written() {
    let dir = std::env::temp_dir().join(format!("knightfall-headless-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args([
            "watch",
            "--headless",
            "--games",
            "2",
            "--tc",
            "1s+0.02",
            "--pgn",
        ])
        .arg(&pgn)
        .env("KNIGHTFALL_HOME", &dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("game 2/2: "), "{stdout}");
    assert!(stdout.contains("illegal moves 0"), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = text
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .collect();
    assert_eq!(games.len(), 2);
    for g in games {
        let game = Game::from_pgn(&format!("[Event {g}")).unwrap();
        let o = game.outcome().expect("every game is finished");
        assert!(
            g.contains(&format!("[Result \"{}\"]", o.result_str())),
            "{g}"
        );
        assert!(game.ply() > 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_flags_are_refused_with_a_message() {
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["watch", "--headless", "--tc", "fast"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad time control"));
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["play", "--fen", "not a fen"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("terminal") || err.contains("FEN"), "{err}");
}
