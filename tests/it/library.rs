//! The library as the player meets it, the binary run as a process on a home of its own:
//! games imported from PGN once each, refusals named, the list printed, and two imports at once
//! both kept (SQLite's locking).

use std::path::Path;
use std::process::Command;

fn knightfall(home: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(args)
        .env("KNIGHTFALL_HOME", home)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A game in lichess's export style.
fn lichess_game(n: usize, moves: &str) -> String {
    format!(
        "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abc{n:05}\"]\n[Date \"2024.03.{:02}\"]\n\
         [White \"anna1985\"]\n[Black \"opponent{n}\"]\n[Result \"1-0\"]\n[UTCDate \"2024.03.{:02}\"]\n\
         [UTCTime \"12:00:00\"]\n[TimeControl \"180+2\"]\n[ECO \"C20\"]\n[Opening \"King's Pawn Game\"]\n\n\
         {moves} 1-0\n\n",
        n % 28 + 1,
        n % 28 + 1
    )
}

#[test]
fn games_are_imported_once_each_and_refusals_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let file = tmp.path().join("lichess.pgn");
    let mut text = String::new();
    text.push_str(&lichess_game(
        1,
        "1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:00] } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
    ));
    text.push_str(&lichess_game(2, "1. e4 e5 2. Nf3 Nc6"));
    text.push_str("[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n");
    text.push_str(&lichess_game(3, "1. e4 e5 2. Ke3"));
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let (ok, _, err) = knightfall(&home, &["games", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 2, already there 0, refused 2"),
        "{err}"
    );
    assert!(err.contains("game 3: the game is Crazyhouse"), "{err}");
    assert!(err.contains("game 4: move 3 (Ke3)"), "{err}");
    assert!(home.join("library.sqlite").exists());
    // Again: nothing added.
    let (ok, _, err) = knightfall(&home, &["games", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 0, already there 2, refused 2"),
        "{err}"
    );
    let (ok, out, err) = knightfall(&home, &["games", "list"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    // Newest first, each with its opening and clock.
    assert!(
        lines[0].starts_with("2024.03.03\tanna1985\topponent2\t1-0\tC20 King's Pawn Game\t180+2"),
        "{out}"
    );
    assert!(
        lines[1].contains("opponent1") && lines[1].ends_with("7 plies\tunreviewed"),
        "{out}"
    );
}

#[test]
fn a_file_that_cannot_be_read_is_named_and_the_others_are_imported() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let good = tmp.path().join("good.pgn");
    std::fs::write(&good, lichess_game(5, "1. d4 d5")).unwrap();
    let (ok, _, err) = knightfall(
        &home,
        &["games", "import", "/dev/zero", good.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    assert!(err.contains("imported 1"), "{err}");
    assert!(err.contains("/dev/zero"), "{err}");
}

#[test]
fn two_imports_at_once_keep_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let mut files = Vec::new();
    for part in 0..2 {
        let file = tmp.path().join(format!("part{part}.pgn"));
        let text: String = (0..300)
            .map(|i| lichess_game(part * 1000 + i, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"))
            .collect();
        std::fs::write(&file, text).unwrap();
        files.push(file);
    }
    std::fs::create_dir_all(&home).unwrap();
    // Both at once: one waits for the other's transactions, neither loses a game.
    let spawned: Vec<_> = files
        .iter()
        .map(|f| {
            Command::new(env!("CARGO_BIN_EXE_knightfall"))
                .args(["games", "import"])
                .arg(f)
                .env("KNIGHTFALL_HOME", &home)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in spawned {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (ok, out, _) = knightfall(&home, &["games", "list"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 600);
}

#[test]
fn the_games_folder_is_in_the_library_with_its_reviews() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let games = home.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let finished = games.join("20240301-120000.pgn");
    std::fs::write(
        &finished,
        "[Event \"Knightfall game\"]\n[Date \"2024.03.01\"]\n[White \"Human\"]\n[Black \"Knightfall 0.1.0\"]\n\
         [Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    )
    .unwrap();
    // A game under way stays out of the library until it ends.
    std::fs::write(
        games.join("current.pgn"),
        "[Event \"Knightfall game\"]\n[White \"Human\"]\n[Black \"Knightfall 0.1.0\"]\n[Result \"*\"]\n\n1. e4 *\n",
    )
    .unwrap();
    let (ok, out, err) = knightfall(&home, &["games", "list"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("Human\tKnightfall 0.1.0\t0-1"), "{out}");
    assert!(out.trim_end().ends_with("unreviewed"), "{out}");
    // Reviewed by the review command (into the review cache): the library has the review.
    let (ok, _, err) = knightfall(
        &home,
        &[
            "review",
            finished.to_str().unwrap(),
            "--movetime",
            "20",
            "--threads",
            "1",
            "--out",
            tmp.path().join("annotated.pgn").to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    // The file is unchanged, but its review is new: the cache is looked at again.
    let (ok, out, err) = knightfall(&home, &["games", "list"]);
    assert!(ok, "{err}");
    let review = out.trim_end().rsplit('\t').next().unwrap();
    assert!(review.contains('/'), "accuracies, not {review:?}: {out}");
}

/// A library of `n` short games (the first `n` of three), imported into `home`.
fn short_games(tmp: &Path, home: &Path, n: usize) {
    let games = [
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O",
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6",
    ];
    let text: String = games
        .iter()
        .take(n)
        .enumerate()
        .map(|(i, moves)| lichess_game(i + 1, moves))
        .collect();
    let file = tmp.join("short.pgn");
    std::fs::write(&file, text).unwrap();
    let (ok, _, err) = knightfall(home, &["games", "import", file.to_str().unwrap()]);
    assert!(ok, "{err}");
}

#[test]
fn review_all_reviews_every_game_once_and_a_second_run_finds_nothing_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    short_games(tmp.path(), &home, 3);
    let args = ["review", "--all", "--movetime", "20", "--threads", "1"];
    let (ok, _, err) = knightfall(&home, &args);
    assert!(ok, "{err}");
    assert!(err.contains("Reviewed 3 games"), "{err}");
    let (ok, out, err) = knightfall(&home, &["games", "list"]);
    assert!(ok, "{err}");
    // Each side's accuracy on every game.
    for line in out.lines() {
        let review = line.rsplit('\t').next().unwrap();
        assert!(
            review.split('/').all(|a| a.parse::<f64>().is_ok()),
            "{line}"
        );
    }
    let (ok, _, err) = knightfall(&home, &args);
    assert!(ok, "{err}");
    assert!(
        err.contains("Every game of the library is reviewed (3 games)"),
        "{err}"
    );
}

/// A signal stops `review --all` at once, every position found kept; run again, it goes on
/// from there.
#[test]
fn review_all_stopped_by_a_signal_goes_on_where_it_stopped() {
    use knightfall::store::library::Library;
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    short_games(tmp.path(), &home, 3);
    let child = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["review", "--all", "--movetime", "150", "--threads", "1"])
        .env("KNIGHTFALL_HOME", &home)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let library = Library::open(&home.join("library.sqlite")).unwrap();
    let statuses = || -> Vec<(bool, i64)> {
        library
            .list()
            .unwrap()
            .iter()
            .map(|e| e.review.map_or((false, 0), |s| (s.complete(), s.done)))
            .collect()
    };
    // Once the first game is kept whole and the next begun.
    let end = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !statuses().iter().any(|s| s.0) || statuses().iter().filter(|s| s.1 > 0).count() < 2 {
        assert!(std::time::Instant::now() < end, "no game reviewed");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let stopped_at = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        stopped_at.elapsed() < std::time::Duration::from_secs(3),
        "it took {:?} to stop",
        stopped_at.elapsed()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(128 + libc::SIGTERM), "{err}");
    assert!(err.contains("Stopped after"), "{err}");
    let kept = statuses();
    assert!(kept.iter().filter(|s| s.0).count() < 3, "{kept:?}");
    let found: i64 = kept.iter().map(|s| s.1).sum();
    // Run again: the rest, no position searched twice.
    let (ok, _, err) = knightfall(
        &home,
        &["review", "--all", "--movetime", "20", "--threads", "1"],
    );
    assert!(ok, "{err}");
    let left = 3 - kept.iter().filter(|s| s.0).count();
    assert!(err.contains(&format!("Reviewed {left} games")), "{err}");
    let all: i64 = statuses().iter().map(|s| s.1).sum();
    let searched: i64 = err
        .split(" games (")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!(found + searched, all, "{err}");
    assert!(statuses().iter().all(|s| s.0));
}
