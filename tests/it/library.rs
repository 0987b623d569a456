//! The library as the player meets it, the binary run as a process on a home of its own:
//! games imported from PGN once each, refusals named, the list printed, and two imports at once
//! both kept (SQLite's locking).

use crate::common::knightfall_at;
use std::path::Path;
use std::process::Command;

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
    let (ok, _, err) = knightfall_at(&home, &["games", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 2, already there 0, refused 2"),
        "{err}"
    );
    assert!(
        err.contains("refused 2 (Crazyhouse 1, illegal move 1)"),
        "{err}"
    );
    assert!(
        err.contains("game 3: Crazyhouse is not standard chess"),
        "{err}"
    );
    assert!(err.contains("game 4: move 3 (Ke3)"), "{err}");
    assert!(home.join("library.sqlite").exists());
    // Again: nothing added.
    let (ok, _, err) = knightfall_at(&home, &["games", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 0, already there 2, refused 2"),
        "{err}"
    );
    let (ok, out, err) = knightfall_at(&home, &["games", "list"]);
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
    let (ok, _, err) = knightfall_at(
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
    let (ok, out, _) = knightfall_at(&home, &["games", "list"]);
    assert!(ok);
    assert_eq!(out.lines().count(), 600);
}

/// A Chess960 game as lichess exports it: its own start position, and the variant named.
fn chess960_game(n: usize) -> String {
    format!(
        "[Event \"Rated Chess960 game\"]\n[Site \"https://lichess.org/c960{n:04}\"]\n\
         [Date \"2024.03.05\"]\n[White \"anna1985\"]\n[Black \"rival\"]\n[Result \"1-0\"]\n\
         [Variant \"Chess960\"]\n[TimeControl \"180+2\"]\n\
         [FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\
         [SetUp \"1\"]\n\n9. g3 {{ [%clk 0:03:00] }} 9... Nd7 {{ [%clk 0:03:00] }} 1-0\n\n"
    )
}

#[test]
fn a_zstd_export_is_imported_as_the_plain_one_and_variants_are_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let mut text = String::new();
    for n in 0..30 {
        text.push_str(&lichess_game(
            n,
            "1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] }",
        ));
        if n % 10 == 0 {
            text.push_str(&chess960_game(n));
        }
    }
    let file = tmp.path().join("lichess_db.pgn.zst");
    std::fs::write(&file, zstd::encode_all(text.as_bytes(), 3).unwrap()).unwrap();
    let (ok, _, err) = knightfall_at(&home, &["games", "import", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 30, already there 0, refused 3 (Chess960 3)"),
        "{err}"
    );
    assert!(
        err.contains("lichess_db.pgn.zst game 2: Chess960 is not standard chess"),
        "{err}"
    );
    // The same games plain are the same games.
    let plain = tmp.path().join("lichess_db.pgn");
    std::fs::write(&plain, &text).unwrap();
    let (ok, _, err) = knightfall_at(&home, &["games", "import", plain.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 0, already there 30, refused 3"),
        "{err}"
    );
}

#[test]
fn the_names_given_are_kept_as_accounts_in_the_config_with_its_comments() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let config = home.join("config.toml");
    std::fs::write(&config, "# my settings\nlevel = 5 # about 1800\n").unwrap();
    let file = tmp.path().join("lichess.pgn");
    std::fs::write(&file, lichess_game(1, "1. e4 e5")).unwrap();
    let file = file.to_str().unwrap();
    let (ok, _, err) = knightfall_at(
        &home,
        &[
            "games", "import", "--name", "anna1985", "--name", "Anna_C", file,
        ],
    );
    assert!(ok, "{err}");
    assert!(err.contains("Your accounts"), "{err}");
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(
        text.contains("accounts = [\"anna1985\", \"Anna_C\"]"),
        "{text}"
    );
    assert!(
        text.starts_with("# my settings\nlevel = 5 # about 1800"),
        "{text}"
    );
    // A name kept already, in another case, is not kept twice; no question is asked.
    let (ok, _, err) = knightfall_at(&home, &["games", "import", "--name", "ANNA1985", file]);
    assert!(ok, "{err}");
    assert!(!err.contains("--name"), "{err}");
    let again = std::fs::read_to_string(&config).unwrap();
    assert_eq!(again, text);
}

#[test]
fn without_a_name_and_not_on_a_terminal_the_player_in_most_games_is_named_with_how_to_give_it() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let file = tmp.path().join("lichess.pgn");
    let text: String = (0..3).map(|n| lichess_game(n, "1. e4 e5")).collect();
    std::fs::write(&file, text).unwrap();
    let (ok, _, err) = knightfall_at(&home, &["games", "import", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        err.contains(
            "anna1985 plays in most of these games: if that is you, import with --name anna1985"
        ),
        "{err}"
    );
    assert!(!home.join("config.toml").exists());
}

#[test]
fn on_a_terminal_the_player_in_most_games_is_asked_about_and_kept_when_confirmed() {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::io::{Read, Write};

    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let file = tmp.path().join("lichess.pgn");
    let text: String = (0..3).map(|n| lichess_game(n, "1. e4 e5")).collect();
    std::fs::write(&file, text).unwrap();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_knightfall"));
    cmd.args(["games", "import", file.to_str().unwrap()]);
    cmd.env("KNIGHTFALL_HOME", &home);
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 1024];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !seen.contains("Are you anna1985? [Y/n]") {
        assert!(std::time::Instant::now() < until, "no question: {seen}");
        if let Ok(bytes) = rx.recv_timeout(std::time::Duration::from_millis(100)) {
            seen.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    writer.write_all(b"\r").unwrap();
    writer.flush().unwrap();
    assert!(child.wait().unwrap().success());
    let config = std::fs::read_to_string(home.join("config.toml")).unwrap();
    assert!(config.contains("accounts = [\"anna1985\"]"), "{config}");
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
    let (ok, out, err) = knightfall_at(&home, &["games", "list"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("Human\tKnightfall 0.1.0\t0-1"), "{out}");
    assert!(out.trim_end().ends_with("unreviewed"), "{out}");
    // Reviewed by the review command (into the review cache): the library has the review.
    let (ok, _, err) = knightfall_at(
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
    let (ok, out, err) = knightfall_at(&home, &["games", "list"]);
    assert!(ok, "{err}");
    let review = out.trim_end().rsplit('\t').next().unwrap();
    assert!(review.contains('/'), "accuracies, not {review:?}: {out}");
}

/// Lichess's analysis in the export: `[%eval]` and `[%clk]` after every move, none after a mate.
const ANALYSED: &str = "1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval 0.19] [%clk 0:03:00] } \
    2. Qh5 { [%eval -0.2] [%clk 0:02:59] } 2... Nc6 { [%eval -0.1] [%clk 0:02:58] } \
    3. Bc4 { [%eval -0.25] [%clk 0:02:57] } 3... Nf6 { [%eval #1] [%clk 0:02:50] } \
    4. Qxf7# { [%clk 0:02:56] }";

#[test]
fn a_game_the_file_evaluates_throughout_is_reviewed_from_those_evaluations_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let file = tmp.path().join("lichess.pgn");
    // Evaluated in part (the analysis of one move missing): not reviewed from the file.
    let partial = ANALYSED.replace("[%eval -0.1] ", "");
    std::fs::write(
        &file,
        lichess_game(1, ANALYSED) + &lichess_game(2, &partial),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let (ok, _, err) = knightfall_at(&home, &["games", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 2, already there 0, reviewed from the file's evaluations 1"),
        "{err}"
    );
    let (ok, out, err) = knightfall_at(&home, &["games", "list"]);
    assert!(ok, "{err}");
    let review_of = |opponent: &str| {
        let line = out.lines().find(|l| l.contains(opponent)).unwrap();
        line.rsplit('\t').next().unwrap().to_string()
    };
    // Black's 3...Nf6 let the mate in: Black's accuracy is the lower.
    let review = review_of("opponent1\t");
    let (white, black) = review
        .strip_prefix("from the file ")
        .and_then(|a| a.split_once('/'))
        .unwrap_or_else(|| panic!("{review}"));
    assert!(
        white.parse::<f64>().unwrap() > black.parse::<f64>().unwrap(),
        "{review}"
    );
    assert_eq!(review_of("opponent2\t"), "unreviewed");
    // Again: nothing new, and the review is not made twice.
    let (ok, _, err) = knightfall_at(&home, &["games", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 0, already there 2, refused 0"),
        "{err}"
    );
}

/// A game in chess.com's export style: a link for a site, the clock in seconds with no
/// increment, `[%clk]` alone, the position reached and the opening as a link.
fn chesscom_game(n: usize, white: &str, black: &str, result: &str, tc: &str) -> String {
    format!(
        "[Event \"Live Chess\"]\n[Site \"Chess.com\"]\n[Date \"2024.04.{day:02}\"]\n[Round \"-\"]\n\
         [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
         [CurrentPosition \"r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq -\"]\n\
         [Timezone \"UTC\"]\n[ECO \"C44\"]\n\
         [ECOUrl \"https://www.chess.com/openings/Scotch-Game\"]\n[UTCDate \"2024.04.{day:02}\"]\n\
         [UTCTime \"18:{n:02}:00\"]\n[WhiteElo \"1510\"]\n[BlackElo \"1490\"]\n[TimeControl \"{tc}\"]\n\
         [Termination \"{black} won by resignation\"]\n[StartTime \"18:{n:02}:00\"]\n\
         [EndDate \"2024.04.{day:02}\"]\n[EndTime \"18:{n:02}:59\"]\n\
         [Link \"https://www.chess.com/game/live/10345678{n:03}\"]\n\n\
         1. e4 {{[%clk 0:09:58.1]}} 1... e5 {{[%clk 0:09:57.3]}} 2. Nf3 {{[%clk 0:09:55]}} \
         2... Nc6 {{[%clk 0:09:51.2]}} 3. d4 {{[%clk 0:09:50.4]}} {result}\n\n",
        day = n % 28 + 1
    )
}

/// A library of lichess and chess.com games for the filters: anna1985 throughout.
fn filled_home(tmp: &Path) -> std::path::PathBuf {
    let home = tmp.join("home");
    let file = tmp.join("mixed.pgn");
    let mut text = lichess_game(1, ANALYSED);
    text.push_str(&lichess_game(
        2,
        "1. d4 { [%clk 0:03:00] } d5 { [%clk 0:03:00] }",
    ));
    text.push_str(&chesscom_game(3, "anna1985", "rook_lover", "0-1", "600"));
    text.push_str(&chesscom_game(4, "knight_rider", "anna1985", "0-1", "180"));
    text.push_str(&chesscom_game(
        5,
        "knight_rider",
        "anna1985",
        "1/2-1/2",
        "180",
    ));
    std::fs::write(&file, text).unwrap();
    let (ok, _, err) = knightfall_at(&home, &["games", "import", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("imported 5"), "{err}");
    home
}

/// The White and Black of each game `games list ARGS` prints.
fn listed(home: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["games", "list"];
    all.extend_from_slice(args);
    let (ok, out, err) = knightfall_at(home, &all);
    assert!(ok, "{args:?}: {err}");
    out.lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            format!("{}-{}", f[1], f[2])
        })
        .collect()
}

#[test]
fn the_list_takes_the_games_the_filters_give() {
    let tmp = tempfile::tempdir().unwrap();
    let home = filled_home(tmp.path());
    assert_eq!(listed(&home, &[]).len(), 5);
    // chess.com names no opening: the moves do.
    let (_, out, _) = knightfall_at(&home, &["games", "list", "--player", "rook_lover"]);
    assert!(out.contains("\t0-1\tC44 Scotch Game\t600\t"), "{out}");
    assert_eq!(
        listed(&home, &["--player", "ANNA1985", "--color", "black"]),
        ["knight_rider-anna1985", "knight_rider-anna1985"]
    );
    assert_eq!(
        listed(&home, &["--player", "anna1985", "--result", "win"]),
        [
            "knight_rider-anna1985",
            "anna1985-opponent2",
            "anna1985-opponent1"
        ]
    );
    assert_eq!(
        listed(&home, &["--player", "anna1985", "--result", "loss"]),
        ["anna1985-rook_lover"]
    );
    assert_eq!(
        listed(&home, &["--result", "draw"]),
        ["knight_rider-anna1985"]
    );
    assert_eq!(
        listed(&home, &["--since", "2024-04-05", "--until", "2024.04.05"]),
        ["knight_rider-anna1985"]
    );
    assert_eq!(listed(&home, &["--since", "2024-04"]).len(), 3);
    assert_eq!(listed(&home, &["--opening", "c4"]).len(), 3, "ECO's start");
    assert_eq!(listed(&home, &["--opening", "scotch"]).len(), 3, "the name");
    assert_eq!(listed(&home, &["--time-control", "10+0"]).len(), 1);
    assert_eq!(listed(&home, &["--time-control", "180"]).len(), 2);
    assert_eq!(listed(&home, &["--time-control", "blitz"]).len(), 4);
    assert_eq!(listed(&home, &["--time-control", "rapid"]).len(), 1);
    assert_eq!(listed(&home, &["--reviewed"]), ["anna1985-opponent1"]);
    assert_eq!(listed(&home, &["--unreviewed", "--limit", "2"]).len(), 2);
    // A value is a value, never SQL.
    assert!(listed(&home, &["--player", "x' OR '1'='1"]).is_empty());
    let (ok, _, err) = knightfall_at(&home, &["games", "list", "--result", "win"]);
    assert!(!ok && err.contains("--player"), "{err}");
    let (ok, _, err) = knightfall_at(&home, &["games", "list", "--since", "yesterday"]);
    assert!(!ok && err.contains("is not a date"), "{err}");
}

#[test]
fn an_export_gives_the_games_back_with_their_reviews_and_reads_back_as_the_same_games() {
    let tmp = tempfile::tempdir().unwrap();
    let home = filled_home(tmp.path());
    let (ok, pgn, err) = knightfall_at(&home, &["games", "export"]);
    assert!(ok, "{err}");
    assert!(
        err.contains("5 games written, 1 of them with their review"),
        "{err}"
    );
    assert_eq!(pgn.matches("[Event ").count(), 5, "{pgn}");
    // The reviewed game: every move evaluated, 3...Nf6 a blunder ($4), its accuracies.
    assert!(pgn.contains("Nf6 $4 { [%eval #1] }"), "{pgn}");
    assert!(pgn.contains("[BlackAccuracy "), "{pgn}");
    assert!(
        pgn.contains("from the evaluations of the file imported"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[Site \"https://lichess.org/abc00001\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[Link \"https://www.chess.com/game/live/10345678003\"]"),
        "{pgn}"
    );
    assert_eq!(pgn.matches("[%eval").count(), 6, "the one review's");
    let (ok, some, _) = knightfall_at(
        &home,
        &["games", "export", "--player", "rook_lover", "--limit", "1"],
    );
    assert!(ok);
    assert_eq!(some.matches("[Event ").count(), 1, "{some}");
    // The export read into the library it came from: the same games.
    let file = tmp.path().join("mine.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let file = file.to_str().unwrap();
    let (ok, _, err) = knightfall_at(&home, &["games", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 0, already there 5, refused 0"),
        "{err}"
    );
    // Into another: the same games, the review again from its evaluations.
    let other = tmp.path().join("other");
    let (ok, _, err) = knightfall_at(&other, &["games", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 5, already there 0, reviewed from the file's evaluations 1"),
        "{err}"
    );
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
    let (ok, _, err) = knightfall_at(home, &["games", "import", file.to_str().unwrap()]);
    assert!(ok, "{err}");
}

#[test]
fn review_all_reviews_every_game_once_and_a_second_run_finds_nothing_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    short_games(tmp.path(), &home, 3);
    let args = ["review", "--all", "--movetime", "20", "--threads", "1"];
    let (ok, _, err) = knightfall_at(&home, &args);
    assert!(ok, "{err}");
    assert!(err.contains("Reviewed 3 games"), "{err}");
    let (ok, out, err) = knightfall_at(&home, &["games", "list"]);
    assert!(ok, "{err}");
    // Each side's accuracy on every game.
    for line in out.lines() {
        let review = line.rsplit('\t').next().unwrap();
        assert!(
            review.split('/').all(|a| a.parse::<f64>().is_ok()),
            "{line}"
        );
    }
    let (ok, _, err) = knightfall_at(&home, &args);
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
    let (ok, _, err) = knightfall_at(
        &home,
        &["review", "--all", "--movetime", "20", "--threads", "1"],
    );
    assert!(ok, "{err}");
    let left = 3 - kept.iter().filter(|s| s.0).count();
    let games = if left == 1 { "game" } else { "games" };
    assert!(err.contains(&format!("Reviewed {left} {games} (")), "{err}");
    let all: i64 = statuses().iter().map(|s| s.1).sum();
    let searched: i64 = err
        .split(&format!(" {games} ("))
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!(found + searched, all, "{err}");
    assert!(statuses().iter().all(|s| s.0));
}

/// Two `review --all` at once on one library review different games: between them every game
/// once, and no position searched twice.
#[test]
fn two_reviews_of_the_whole_library_at_once_share_the_games() {
    use knightfall::store::library::Library;
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    short_games(tmp.path(), &home, 3);
    let start = || {
        Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .args(["review", "--all", "--movetime", "100", "--threads", "1"])
            .env("KNIGHTFALL_HOME", &home)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(), start());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let mut games = 0;
    let mut positions = 0;
    for out in [&a, &b] {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        // "Reviewed 2 games (21 positions) in 2 s.", or nothing left when it began.
        if let Some(rest) = err.split("Reviewed ").nth(1) {
            let mut words = rest.split([' ', '(']).filter(|w| !w.is_empty());
            games += words.next().unwrap().parse::<i64>().unwrap();
            positions += words.nth(1).unwrap().parse::<i64>().unwrap();
        } else {
            assert!(
                err.contains("Every game of the library is reviewed"),
                "{err}"
            );
        }
    }
    let library = Library::open(&home.join("library.sqlite")).unwrap();
    let entries = library.list().unwrap();
    assert!(
        entries
            .iter()
            .all(|e| e.review.is_some_and(|s| s.complete()))
    );
    let all: i64 = entries.iter().map(|e| e.review.map_or(0, |s| s.done)).sum();
    let (ea, eb) = (
        String::from_utf8_lossy(&a.stderr),
        String::from_utf8_lossy(&b.stderr),
    );
    assert_eq!(games, 3, "{ea}\n{eb}");
    assert_eq!(positions, all, "{ea}\n{eb}");
}
