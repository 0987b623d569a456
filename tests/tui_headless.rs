//! `knightfall watch --headless`: engine games without a screen, written as PGN that reads back
//! with legal moves and results that match the final positions.

#![allow(
    clippy::unwrap_used,
    reason = "a test's helpers fail loudly, where the failure is"
)]

use std::process::Command;

use knightfall::game::Game;

/// Runs `watch --headless` with `args` and `--pgn`; returns stdout and the PGN written.
fn headless(tag: &str, args: &[&str]) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("knightfall-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["watch", "--headless"])
        .args(args)
        .arg("--pgn")
        .arg(&pgn)
        .env("KNIGHTFALL_HOME", &dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (stdout, text)
}

#[test]
fn headless_games_are_legal_and_written() {
    let (stdout, text) = headless("headless", &["--games", "2", "--tc", "1s+0.02"]);
    assert!(stdout.contains("game 2/2: "), "{stdout}");
    assert!(stdout.contains("illegal moves 0"), "{stdout}");
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
    // Players that do not exist are named before anything starts.
    let home = std::env::temp_dir().join(format!("knightfall-noengine-{}", std::process::id()));
    for (args, expected) in [
        (
            &["play", "--black", "uci:/no/such/engine"][..],
            "could not be started: no program /no/such/engine",
        ),
        (
            &["play", "--white", "Stockfish 1500"][..],
            "no engine named \"Stockfish 1500\"",
        ),
        (
            &["watch", "--headless", "--black", "uci:"][..],
            "uci: needs the engine's command",
        ),
        (
            &["watch", "--headless", "--black", "uci:sh -c 'echo hello'"][..],
            "sh exited",
        ),
        (&["watch", "--headless", "--white-level", "11"][..], "11"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .args(args)
            .env("KNIGHTFALL_HOME", &home)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn headless_levels_and_an_external_engine() {
    let bin = env!("CARGO_BIN_EXE_knightfall");
    let greedy = format!("uci:{bin} uci --bot greedy");
    let (stdout, text) = headless(
        "headless-ext",
        &[
            "--games",
            "2",
            "--tc",
            "2s+0.05",
            "--white-level",
            "3",
            "--black",
            &greedy,
        ],
    );
    assert!(stdout.contains("illegal moves 0"), "{stdout}");
    let white = text
        .matches("[White \"Knightfall 0.1.0 (level 3)\"]")
        .count();
    assert_eq!(white, 2, "{text}");
    // The external engine is named by its own `id name`.
    let black = text
        .matches("[Black \"Knightfall 0.1.0 Greedy bot\"]")
        .count();
    assert_eq!(black, 2, "{text}");
}

#[test]
fn a_broken_settings_file_is_named_and_kept_as_it_is() {
    let home = std::env::temp_dir().join(format!("knightfall-badconfig-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let config = home.join("config.toml");
    // A level out of a byte's range and an engine without a name: a typo must not cost the
    // player the engines and tables listed in the file.
    let text = "level = 300\nsyzygy = \"/my/tables\"\n\n[[engines]]\ncommand = \"stockfish\"\n";
    std::fs::write(&config, text).unwrap();
    for args in [&["play"][..], &["watch", "--headless", "--games", "1"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .args(args)
            .env("KNIGHTFALL_HOME", &home)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("settings file") && err.contains("config.toml") && err.contains("line"),
            "{args:?}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&config).unwrap(), text);
    }
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_second_series_into_the_same_file_keeps_the_first() {
    let dir = std::env::temp_dir().join(format!("knightfall-append-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("series.pgn");
    for run in 1..=2 {
        let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .args(["watch", "--headless", "--games", "1"])
            .args(["--white-level", "1", "--black-level", "1", "--pgn"])
            .arg(&pgn)
            .env("KNIGHTFALL_HOME", &dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches("[Event ").count(), run, "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_that_does_not_fit_on_the_disk_leaves_the_file_as_it_was() {
    use std::os::unix::process::CommandExt as _;
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let before =
        "[Event \"kept\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    std::fs::write(&pgn, before).unwrap();
    // A file-size limit a few bytes past the file fails the next write part way, as a full disk
    // does; SIGXFSZ is ignored so the write fails instead of the process being killed.
    let limit = before.len() as libc::rlim_t + 16;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_knightfall"));
    cmd.args([
        "watch",
        "--headless",
        "--games",
        "2",
        "--tc",
        "1s+0.02",
        "--pgn",
    ])
    .arg(&pgn)
    .env("KNIGHTFALL_HOME", dir.path());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("game 1 could not be added to") && err.contains("left as it was"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), before);
}

#[test]
fn a_series_without_a_file_keeps_its_games_in_the_games_folder_and_keeps_score() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["watch", "--headless", "--games", "2"])
        .args([
            "--white-level",
            "1",
            "--black-level",
            "1",
            "--tc",
            "1s+0.02",
        ])
        .env("KNIGHTFALL_HOME", home.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Each game's line carries the score so far.
    assert!(
        stdout.contains("game 1/2: ") && stdout.contains("; so far White "),
        "{stdout}"
    );
    assert_eq!(stdout.matches("kept as ").count(), 2, "{stdout}");
    let kept: Vec<_> = std::fs::read_dir(home.path().join("games"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".pgn"))
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    for file in kept {
        let game = Game::from_pgn(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
        assert!(game.outcome().is_some(), "every kept game is finished");
    }
}
