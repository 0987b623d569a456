//! `knightfall watch --headless`: engine games without a screen, written as PGN that reads back
//! with legal moves and results that match the final positions.

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
fn a_series_without_a_file_keeps_its_games_apart_from_the_players_and_keeps_score() {
    let home = tempfile::tempdir().unwrap();
    // A game of the player's own, already in the games folder.
    let games = home.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let own = games.join("20260101-120000.pgn");
    std::fs::write(
        &own,
        "[White \"Human\"]\n[Black \"Knightfall\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    )
    .unwrap();
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
    assert_eq!(
        stdout
            .matches(&format!("{}", games.join("watched").display()))
            .count(),
        2,
        "{stdout}"
    );
    // Kept with the games watched; the player's own games folder holds only their game.
    let kept = watched_games(home.path());
    assert_eq!(kept.len(), 2);
    for game in kept {
        assert!(game.outcome().is_some(), "every kept game is finished");
    }
    assert_eq!(pgn_files(&games), [own]);
    // The player's list of games: their own first, the watched ones after it, marked, and
    // still open to review.
    let review = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .arg("review")
            .args(args)
            .env("KNIGHTFALL_HOME", home.path())
            .output()
            .unwrap()
    };
    let list = review(&[]);
    let list = String::from_utf8_lossy(&list.stdout);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 3, "{list}");
    assert!(
        lines[0].contains("Human - Knightfall") && !lines[0].contains("watched"),
        "{list}"
    );
    for line in &lines[1..] {
        assert!(
            line.contains("/watched/") && line.contains("watched: Knightfall"),
            "{list}"
        );
    }
    let annotated = home.path().join("annotated.pgn");
    let reviewed = review(&[
        "--game",
        "2",
        "--movetime",
        "5",
        "--out",
        annotated.to_str().unwrap(),
    ]);
    assert!(reviewed.status.success(), "{reviewed:?}");
    assert!(
        std::fs::read_to_string(&annotated)
            .unwrap()
            .contains("[%eval ")
    );
}

/// The PGN files in `dir`.
fn pgn_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                .collect()
        })
        .unwrap_or_default()
}

/// The complete games of the PGN file `path` (each with a result of its own).
fn complete_games(path: &std::path::Path) -> Vec<Game> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| Game::from_pgn(&format!("[Event {g}")).unwrap())
        .inspect(|g| assert!(g.outcome().is_some(), "{}", g.to_pgn()))
        .collect()
}

/// The games kept with the games watched in `home`'s games folder.
fn watched_games(home: &std::path::Path) -> Vec<Game> {
    pgn_files(&home.join("games/watched"))
        .iter()
        .map(|p| Game::from_pgn(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

/// Waits up to `secs` for `child` to end.
fn wait_a_while(child: &mut std::process::Child, secs: u64) -> std::process::ExitStatus {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > end {
            let _ = child.kill();
            panic!("still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_signal_stops_the_series_keeping_every_game_played_and_exits_0() {
    for (signal, after_a_game) in [
        (libc::SIGTERM, true),
        (libc::SIGINT, false),
        (libc::SIGHUP, false),
        (libc::SIGQUIT, false),
    ] {
        let home = tempfile::tempdir().unwrap();
        let pgn = home.path().join("series.pgn");
        let mut child = Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .args([
                "watch",
                "--headless",
                "--games",
                "5",
                "--tc",
                "2s+0",
                "--pgn",
            ])
            .arg(&pgn)
            .env("KNIGHTFALL_HOME", home.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Mid-game: the book's moves are played at once, so the game has moves by then.
        std::thread::sleep(std::time::Duration::from_millis(1500));
        if after_a_game {
            let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
            while complete_games(&pgn).is_empty() && std::time::Instant::now() < end {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            // Into the next game, far enough for it to have moves to keep.
            std::thread::sleep(std::time::Duration::from_millis(1500));
        }
        let written = complete_games(&pgn).len();
        // SAFETY: kill(2) with a child's process id and a signal number.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let status = wait_a_while(&mut child, 30);
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(0), "signal {signal}: {status:?} {err}");
        // Every finished game is in the file, whole; the one in progress is kept with the
        // games watched, unfinished, with its moves.
        assert!(complete_games(&pgn).len() >= written.max(after_a_game as usize));
        let kept = watched_games(home.path());
        assert_eq!(kept.len(), 1, "signal {signal}: {err}");
        assert!(kept[0].outcome().is_none() && kept[0].ply() > 0);
        assert!(err.contains("the unfinished game is kept as"), "{err}");
    }
}

#[test]
fn a_closed_output_ends_the_series_after_writing_the_game_that_ended() {
    let home = tempfile::tempdir().unwrap();
    let pgn = home.path().join("series.pgn");
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args([
            "watch",
            "--headless",
            "--games",
            "3",
            "--tc",
            "1s+0",
            "--pgn",
        ])
        .arg(&pgn)
        .env("KNIGHTFALL_HOME", home.path())
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // The game that ended was written before its line was printed to nobody.
    assert_eq!(complete_games(&pgn).len(), 1);
}

#[test]
fn a_file_size_limit_leaves_only_whole_games_and_keeps_the_one_that_did_not_fit() {
    use std::os::unix::process::CommandExt;
    let home = tempfile::tempdir().unwrap();
    let pgn = home.path().join("series.pgn");
    // Whole games up to a few bytes short of the limit: the next game cannot fit, however short
    // it is, and the limit is far above any one game, so the games folder can keep it.
    let limit: usize = 100_000;
    let one =
        "[Event \"kept\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
    let before = one.repeat((limit - 16) / one.len());
    std::fs::write(&pgn, &before).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_knightfall"));
    cmd.args([
        "watch",
        "--headless",
        "--games",
        "5",
        "--tc",
        "1s+0",
        "--pgn",
    ])
    .arg(&pgn)
    .env("KNIGHTFALL_HOME", home.path());
    // SAFETY: setrlimit(2) in the child before exec touches no memory of the parent.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: limit as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // A failed write, not SIGXFSZ: the program says which game did not fit and where it is.
    assert_eq!(out.status.code(), Some(1), "{:?} {err}", out.status);
    assert!(err.contains("game 1 could not be added"), "{err}");
    assert!(err.contains("it is kept as"), "{err}");
    // The file is as it was: whole games only, each read back with its result.
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), before);
    complete_games(&pgn);
    let kept = watched_games(home.path());
    assert_eq!(kept.len(), 1);
    assert!(kept[0].outcome().is_some());
}
