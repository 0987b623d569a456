//! The commands run as a user would: `eval`, `analyse`, `bench`, and the refusals of `train`.

use crate::common;
use crate::common::knightfall_at;

use std::process::Command;

use knightfall::engine::params;

fn knightfall(args: &[&str]) -> (bool, String, String) {
    // A home of the tests' own: a review cached or a temporary file cleaned never touches the
    // files of whoever runs the tests.
    let home = std::env::temp_dir().join(format!("knightfall-cli-{}", std::process::id()));
    knightfall_at(&home, args)
}

/// What `review` lists for the games folder of `home`, one game a line.
fn review_list(home: &std::path::Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .arg("review")
        .env("KNIGHTFALL_HOME", home)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn eval_prints_the_notebook_values() {
    let cases = [
        ("5rk1/1b3p2/8/3p4/3p2P1/2Q4B/5P1K/R3R3 b - - 0 36", "1240"),
        ("5rk1/1b3p2/8/3p4/6P1/2p4B/5P1K/R3R3 w - - 0 37", "350"),
        ("4k3/8/8/8/Q7/8/8/4K3 w - - 0 1", "900"),
        ("4k3/8/8/7Q/8/8/8/4K3 b - - 0 1", "895"),
        ("4k3/8/7q/8/8/8/8/4K3 w - - 0 1", "-890"),
    ];
    for (fen, expected) in cases {
        let (ok, out, _) = knightfall(&["eval", "--profile", "simplified", fen]);
        assert!(ok);
        assert_eq!(last_line(&out), expected, "{fen}");
    }
    // The fields may also come as separate words; tapered is the default.
    let (ok, out, _) = knightfall(&[
        "eval",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "w",
        "KQkq",
        "-",
        "0",
        "1",
    ]);
    assert!(ok);
    assert!(out.contains("tapered"));
    // Everything cancels out at the start but White's tempo (all pieces on: its middlegame part).
    assert_eq!(last_line(&out), weight(params::TEMPO).0.to_string());
}

fn weight(index: usize) -> params::S {
    knightfall::engine::eval::tapered_weights()[index]
}

#[test]
fn eval_rejects_bad_input_clearly() {
    let (ok, _, err) = knightfall(&["eval", "rnbqkbnr/pppppppp/8/8 w - - 0 1"]);
    assert!(!ok);
    assert!(err.contains("bad FEN"), "{err}");
    let (ok, _, err) = knightfall(&["eval", "--profile", "fancy", "8/8/8/8/8/8/8/K1k5 w - - 0 1"]);
    assert!(!ok);
    assert!(err.contains("unknown profile"), "{err}");
}

#[test]
fn analyse_prints_info_and_san() {
    let (ok, out, _) = knightfall(&[
        "analyse",
        "--depth",
        "5",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    ]);
    assert!(ok);
    assert!(out.lines().any(|l| l.starts_with("info depth 5 ")));
    assert!(out.contains("bestmove Ra8# score mate 1"), "{out}");
    assert_eq!(last_line(&out), "pv 1. Ra8#");
    let (ok, _, err) = knightfall(&["analyse", "--depth", "3", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert!(!ok);
    assert!(err.contains("illegal position"), "{err}");
}

#[test]
fn bench_is_deterministic() {
    let (ok, a, _) = knightfall(&["bench", "--depth", "5"]);
    assert!(ok);
    let (_, b, _) = knightfall(&["bench", "--depth", "5"]);
    let nodes = |s: &str| last_line(s).split_whitespace().next().unwrap().to_string();
    assert!(last_line(&a).ends_with(" nps"));
    assert_eq!(nodes(&a), nodes(&b));
    assert_eq!(a.lines().filter(|l| l.starts_with("position ")).count(), 40);
}

#[test]
fn analyse_reports_the_tablebase_result() {
    let Some(dir) = common::shared("syzygy") else {
        return;
    };
    let dir = dir.to_str().unwrap();
    let (ok, out, _) = knightfall(&[
        "analyse",
        "--depth",
        "4",
        "--syzygy",
        dir,
        "8/8/4k3/8/2K5/3R4/8/8 w - - 0 1",
    ]);
    assert!(ok);
    assert!(out.contains("tablebase: win, DTZ "), "{out}");
}

#[test]
fn hash_sizes_are_checked() {
    for size in [
        "0",
        "100000",
        "18446744073709551615",
        "17592186044416",
        "big",
    ] {
        for command in ["analyse", "bench"] {
            let mut args = vec![command, "--hash", size];
            if command == "analyse" {
                args.extend(["--depth", "1", "8/8/8/4k3/8/8/8/KR6 w - - 0 1"]);
            }
            let (ok, _, err) = knightfall(&args);
            assert!(!ok, "{command} --hash {size} was accepted");
            assert!(err.contains("--hash"), "{command} --hash {size}: {err}");
        }
    }
    let (ok, out, _) = knightfall(&[
        "analyse",
        "--hash",
        "1",
        "--depth",
        "2",
        "8/8/8/4k3/8/8/8/KR6 w - - 0 1",
    ]);
    assert!(ok, "{out}");
}

#[test]
fn eval_trace_terms_add_up_to_the_evaluation() {
    // KQ v K at phase 4 of 24: the queen's value; the tables; a queen on h1 reaching 16 squares
    // (g1, f1, h2-h8, g2-a8); one attacker of the king zone d2-f5, which the notebooks' weight
    // counts as nothing, and three safe queen checks (h2, h5, h8; e4 and d5 are covered by the
    // king); weak squares at the kings, attacked and held by no pawn or piece but king and
    // queen: Black's d5 e4 f3 (the queen) and d2 e2 f2 (White's king) against White's d4 e4 f4
    // (Black's king), three more for Black; White's tempo; and the mop-up term driving the king
    // (60 * 0 from the centre + 12 * (14 - 4) between the kings + 200). Both kings stand on three
    // open files and have twelve squares of space: no difference.
    let (ok, out, _) = knightfall(&["eval", "--trace", "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"]);
    assert!(ok);
    let taper = |s: params::S| (s.0 * 4 + s.1 * 20) / 24;
    let material = taper(weight(params::MATERIAL + 4));
    let mobility = taper(weight(params::MOBILITY_QUEEN + 16));
    let tempo = taper(weight(params::TEMPO));
    let king_safety =
        taper(weight(params::SAFE_CHECK + 3) * 3 + weight(params::KING_ZONE_WEAK) * -3);
    // The tables' part, from White's view: the queen on h1 and the king on e1 as White sees
    // them, less the Black king on e5 as Black sees it (e4). The evaluation tapers the sum of
    // everything once; the tables' line takes up the rounding.
    let tables = weight(params::PST + 4 * 64 + 7) + weight(params::PST + 5 * 64 + 4)
        - weight(params::PST + 5 * 64 + 28);
    let total = taper(
        weight(params::MATERIAL + 4)
            + tables
            + weight(params::MOBILITY_QUEEN + 16)
            + weight(params::SAFE_CHECK + 3) * 3
            + weight(params::KING_ZONE_WEAK) * -3
            + weight(params::TEMPO),
    ) + 320;
    let pst = total - material - mobility - king_safety - tempo - 320;
    assert!((pst - taper(tables)).abs() <= 2, "{pst} {}", taper(tables));
    let lines: Vec<String> = out.lines().map(String::from).collect();
    assert_eq!(
        lines,
        [
            "profile tapered (phase 4 of 24)".to_string(),
            format!("material: {material}"),
            format!("pst: {pst}"),
            format!("mobility: {mobility}"),
            format!("king safety: {king_safety}"),
            "threats: 0".to_string(),
            "passed pawns: 0".to_string(),
            "pawn structure: 0".to_string(),
            "pieces: 0".to_string(),
            format!("tempo: {tempo}"),
            "mop-up: 320".to_string(),
            // Against a bare king a queen's advantage counts in full.
            "endgame scale: 0".to_string(),
            "cannot win: 0".to_string(),
            format!("total: {total}"),
        ]
    );
    // A lone knight cannot mate: its side's advantage is taken away, and the trace says so.
    let (_, traced, _) = knightfall(&["eval", "--trace", "8/8/4k3/8/8/2N5/8/4K3 w - - 0 1"]);
    let lines: Vec<&str> = traced.lines().collect();
    assert_eq!(lines.last(), Some(&"total: 0"), "{traced}");
    // The endgame scale takes the endgame half, the cannot-win line the rest.
    let line = |name: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(name))
            .unwrap()
            .parse::<i32>()
            .unwrap()
    };
    assert!(line("endgame scale: ") < -100, "{traced}");
    assert!(line("cannot win: ") < 0, "{traced}");
    for profile in ["tapered", "simplified"] {
        for fen in [
            "8/8/4k3/8/8/2N5/1p6/4K3 w - - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            // Opposite-coloured bishops and a bishop and knight against a knight: scaled.
            "8/5k2/4b3/1p6/1P3P2/2B5/6K1/8 w - - 0 1",
            "2k5/1n6/4K3/1N1B4/8/8/8/8 b - - 0 1",
        ] {
            let (_, traced, _) = knightfall(&["eval", "--profile", profile, "--trace", fen]);
            let (_, plain, _) = knightfall(&["eval", "--profile", profile, fen]);
            let value = |line: &str| line.rsplit(' ').next().unwrap().parse::<i32>().unwrap();
            let lines: Vec<&str> = traced.lines().skip(1).collect();
            let (total, terms) = lines.split_last().unwrap();
            assert!(total.starts_with("total: "), "{traced}");
            let sum: i32 = terms.iter().map(|l| value(l)).sum();
            assert_eq!(sum, value(total), "{traced}");
            assert_eq!(value(total), value(plain.lines().last().unwrap()), "{fen}");
        }
    }
}

#[test]
fn version_names_the_commit_and_help_lists_the_game_first() {
    let (ok, out, _) = knightfall(&["--version"]);
    assert!(ok);
    let version = out.trim();
    assert!(
        version.starts_with(concat!("knightfall ", env!("CARGO_PKG_VERSION"), " ("))
            && version.ends_with(')'),
        "{version}"
    );
    let (_, help, _) = knightfall(&["--help"]);
    let order: Vec<usize> = ["play", "watch", "review", "board", "uci", "bench"]
        .iter()
        .map(|c| help.find(&format!("\n  {c} ")).unwrap_or(usize::MAX))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{help}");
}

#[test]
fn bash_completion_loads_and_completes_commands_and_options() {
    let script = format!(
        "source <(\"{bin}\" completions bash) || exit 3
         COMP_WORDS=(knightfall pl); COMP_CWORD=1; _knightfall knightfall pl knightfall
         echo \"commands: ${{COMPREPLY[*]}}\"
         COMP_WORDS=(knightfall review --mo); COMP_CWORD=2; _knightfall knightfall --mo review
         echo \"options: ${{COMPREPLY[*]}}\"",
        bin = env!("CARGO_BIN_EXE_knightfall")
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("commands: play\n"), "{text}");
    assert!(text.contains("options: --movetime\n"), "{text}");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let (ok, out, err) = knightfall(&["completions", shell]);
        assert!(ok && out.contains("knightfall"), "{shell}: {err}");
    }
    let (ok, _, err) = knightfall(&["completions", "tcsh"]);
    assert!(!ok && err.contains("invalid value"), "{err}");
}

#[test]
fn the_manual_page_shows_every_command() {
    let (ok, page, err) = knightfall(&["man"]);
    assert!(ok, "{err}");
    assert!(page.contains(".TH knightfall 1"), "{page}");
    let commands = [
        "play",
        "watch",
        "review",
        "board",
        "uci",
        "analyse",
        "eval",
        "book",
        "tb",
        "bench",
        "completions",
        "man",
    ];
    for c in commands {
        assert!(
            page.contains(&format!(".SH \"KNIGHTFALL {}\"", c.to_uppercase())),
            "no section for {c}"
        );
    }
    // As `man -l` shows it (.ci/run installs man where it is missing).
    if !common::installed("man") {
        common::skip_unless_ci("man is not installed");
        return;
    }
    let file = std::env::temp_dir().join(format!("knightfall-{}.1", std::process::id()));
    std::fs::write(&file, &page).unwrap();
    let shown = Command::new("man")
        .args(["-l", "-P", "cat"])
        .arg(&file)
        .env("MANWIDTH", "100")
        .output();
    let _ = std::fs::remove_file(&file);
    let shown = shown.unwrap();
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.status.success(), "{text}");
    for c in commands {
        assert!(
            text.contains(&format!("KNIGHTFALL {}", c.to_uppercase())),
            "man -l shows no {c}:\n{text}"
        );
    }
    assert!(text.contains("--movetime"), "{text}");
}

#[test]
fn play_refuses_a_pgn_that_is_not_a_regular_file_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let fifo = dir.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for file in ["/dev/zero", fifo.to_str().unwrap(), dir.to_str().unwrap()] {
        // Without a terminal too: the file is judged first, and nothing is read from it.
        let (ok, _, err) = knightfall(&["play", "--pgn", file]);
        assert!(!ok, "{file}");
        assert!(err.contains("is not a regular file"), "{file}: {err}");
    }
}

#[test]
fn play_asks_which_game_of_a_file_of_several() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("two.pgn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let (ok, _, err) = knightfall(&["play", "--pgn", file]);
    assert!(!ok);
    assert!(
        err.contains("holds 2 games: choose one with --game N"),
        "{err}"
    );
    let (ok, _, err) = knightfall(&["play", "--pgn", file, "--game", "3"]);
    assert!(!ok);
    assert!(err.contains("--game 3 is not one"), "{err}");
    // The second is taken: what stops it now is only that no terminal is there to play on.
    let (ok, _, err) = knightfall(&["play", "--pgn", file, "--game", "2"]);
    assert!(!ok);
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn old_mac_line_ends_do_not_run_two_games_together() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let file = dir.join("cr.pgn");
    let pgn = "[Event \"a\"]\r[White \"A\"]\r\r1. e4 e5 *\r\r[Event \"b\"]\r[White \"B\"]\r\r1. d4 d5 *\r";
    std::fs::write(&file, pgn).unwrap();
    let (ok, out, err) = knightfall(&["review", file.to_str().unwrap()]);
    assert!(!ok, "{out}");
    assert!(err.contains("choose one of these games"), "{err}");
    let listed: Vec<&str> = out.lines().collect();
    assert_eq!(listed.len(), 2, "{out}");
    assert!(
        listed[0].contains("A - ?") && listed[1].contains("B - ?"),
        "{out}"
    );
}

#[test]
fn a_tag_too_long_to_read_is_named_as_that_not_as_unterminated() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long-tag.pgn");
    let pgn = format!(
        "[Event \"{}\"]\n[White \"A\"]\n\n1. e4 e5 *\n",
        "x".repeat(1 << 20)
    );
    std::fs::write(&file, pgn).unwrap();
    let out = dir.path().join("out.pgn");
    let (ok, _, err) = knightfall(&[
        "review",
        "--out",
        out.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("the tag on line 1 is 1048586 bytes long; tags are read up to 8192 bytes"),
        "{err}"
    );
    assert!(!err.contains("unterminated"), "{err}");
    assert!(!out.exists());
}

#[test]
fn a_fen_with_stale_castling_rights_is_read_alike_from_a_pgn_over_uci_and_as_an_argument() {
    // The white rooks have left a1 and h1, yet the FEN still gives White both castlings.
    let stale = "r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1";
    let kingless = "r6r/8/8/8/8/8/8/1R2K1R1 w - - 0 1";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stale.pgn");
    let out = dir.path().join("out.pgn");
    let pgn = |fen: &str| format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. Rg8+ Rxg8 *\n");
    let review = |out: &std::path::Path| {
        knightfall(&[
            "review",
            "--movetime",
            "10",
            "--out",
            out.to_str().unwrap(),
            file.to_str().unwrap(),
        ])
    };
    std::fs::write(&file, pgn(stale)).unwrap();
    let (ok, _, err) = review(&out);
    assert!(ok, "{err}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(
        written.contains("[FEN \"r3k2r/8/8/8/8/8/8/1R2K1R1 w kq - 0 1\"]"),
        "{written}"
    );
    let (ok, outp, err) = knightfall(&["analyse", "--depth", "2", stale]);
    assert!(ok, "{err}");
    assert!(outp.contains("bestmove"), "{outp}");
    // What the engine answers to the position, up to its move or its complaint.
    let uci = |fen: &str| {
        use std::io::{BufRead as _, Write as _};
        let mut child = Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .arg("uci")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "position fen {fen} moves g1g8\ngo depth 2").unwrap();
        let mut seen = String::new();
        for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            seen.push_str(&line);
            seen.push('\n');
            if line.starts_with("bestmove") || line.contains("FEN") {
                break;
            }
        }
        drop(stdin);
        child.wait().unwrap();
        seen
    };
    let answer = uci(stale);
    assert!(answer.contains("bestmove h8g8"), "{answer}");
    // A position that cannot arise is refused in all three, with the same reason.
    std::fs::write(&file, pgn(kingless)).unwrap();
    let (ok, _, err) = review(&dir.path().join("none.pgn"));
    assert!(!ok);
    assert!(err.contains("illegal position in FEN"), "{err}");
    let (ok, _, err) = knightfall(&["analyse", "--depth", "2", kingless]);
    assert!(!ok);
    assert!(err.contains("illegal position in FEN"), "{err}");
    let answer = uci(kingless);
    assert!(answer.contains("illegal position in FEN"), "{answer}");
}

#[test]
fn a_junk_token_in_the_moves_is_named_not_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("junk.pgn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5\n2. Nf3 zz9 Nc6 3. Bb5 a6 *\n",
    )
    .unwrap();
    let out = dir.path().join("out.pgn");
    let (ok, _, err) = knightfall(&[
        "review",
        "--out",
        out.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert!(!ok, "a game with a skipped token was reviewed");
    assert!(
        err.contains("\"zz9\" on line 6 of the PGN is not a move; it follows Nf3"),
        "{err}"
    );
    assert!(!out.exists());
    let (ok, _, err) = knightfall(&["board", file.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("\"zz9\" on line 6"), "{err}");
    // What the reader reads is still read: castling with zeros, a promotion with check, move
    // numbers without a space, comments, annotations and a side line.
    std::fs::write(
        &file,
        "[Event \"b\"]\n\n1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.0-0 {castles} Nxe4!? (4...Bc5 $1) 5.Re1 d5 *\n",
    )
    .unwrap();
    let (ok, _, err) = knightfall(&[
        "review",
        "--out",
        out.to_str().unwrap(),
        "--movetime",
        "10",
        file.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("5. Re1"), "{written}");
}

#[test]
fn review_lists_every_unfinished_autosave_first_and_not_an_ended_one() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().to_path_buf();
    let games = home.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let list = || review_list(&home);
    let game = |white: &str, result: &str| {
        format!("[White \"{white}\"]\n[Black \"B\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n")
    };
    std::fs::write(games.join("20260101-000001.pgn"), game("Kept", "1-0")).unwrap();
    std::fs::write(games.join("current.pgn"), game("Here", "*")).unwrap();
    // A second Knightfall's autosave, left by a crash.
    std::fs::write(games.join("current-4242.pgn"), game("Beside", "*")).unwrap();
    let text = list();
    let at = |w: &str| text.find(&format!("{w} - B")).unwrap_or(usize::MAX);
    assert!(
        at("Here") < at("Beside") && at("Beside") < at("Kept") && at("Kept") < usize::MAX,
        "{text}"
    );
    assert_eq!(text.lines().count(), 3, "{text}");
    // An autosave of a game that ended is its archived game's copy: not listed twice.
    std::fs::write(games.join("current.pgn"), game("Kept", "1-0")).unwrap();
    let text = list();
    assert_eq!(text.matches("Kept - B").count(), 1, "{text}");
}

#[test]
fn review_lists_games_newest_first_with_their_time_and_the_boards_files_apart() {
    let home = tempfile::tempdir().unwrap();
    let games = home.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let pgn = |date: &str, time: &str, white: &str| {
        format!(
            "[Date \"{date}\"]\n[UTCTime \"{time}\"]\n[White \"{white}\"]\n[Black \"B\"]\n\
             [Result \"1-0\"]\n\n1. e4 e5 1-0\n"
        )
    };
    std::fs::write(
        games.join("20261120-100000.pgn"),
        pgn("2026.11.20", "10:00:00", "Older"),
    )
    .unwrap();
    std::fs::write(
        games.join("20261121-090000.pgn"),
        pgn("2026.11.21", "09:00:00", "Newer"),
    )
    .unwrap();
    std::fs::write(
        games.join("analysis-20261122-080000.pgn"),
        pgn("2026.11.22", "08:00:00", "Lines"),
    )
    .unwrap();
    let list = review_list(home.path());
    let at = |what: &str| {
        list.find(what)
            .unwrap_or_else(|| panic!("{what:?} not in:\n{list}"))
    };
    assert!(
        at("Newer") < at("Older") && at("Older") < at("Lines"),
        "{list}"
    );
    assert!(list.contains("2026.11.21 09:00"), "{list}");
    assert!(list.contains("board: Lines"), "{list}");
}

#[test]
fn an_autosave_also_kept_in_its_own_file_is_listed_once() {
    let home = tempfile::tempdir().unwrap();
    let games = home.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let pgn = |moves: &str| {
        format!(
            "[Date \"2026.11.21\"]\n[UTCTime \"09:00:00\"]\n[White \"Ana\"]\n[Black \"B\"]\n\
             [Result \"*\"]\n\n{moves} *\n"
        )
    };
    let list = || review_list(home.path());
    std::fs::write(games.join("20261121-090000.pgn"), pgn("1. e4 e5")).unwrap();
    std::fs::write(games.join("current.pgn"), pgn("1. e4 e5")).unwrap();
    let shown = list();
    assert_eq!(shown.matches("Ana - B").count(), 1, "{shown}");
    assert!(!shown.contains("current.pgn"), "{shown}");
    // The autosave went further than the kept file: both are listed, the autosave first.
    std::fs::write(games.join("current.pgn"), pgn("1. e4 e5 2. Nf3")).unwrap();
    let shown = list();
    assert_eq!(shown.matches("Ana - B").count(), 2, "{shown}");
    assert!(
        shown.find("current.pgn") < shown.find("20261121-090000.pgn"),
        "{shown}"
    );
}

#[test]
fn puzzles_are_built_from_games_exported_as_lichess_csv_and_bad_files_refused() {
    let dir = tempfile::tempdir().unwrap();
    // A game whose 3... Nf6?? allows Qxf7#.
    let pgn = dir.path().join("games.pgn");
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let out = dir.path().join("puzzles.csv");
    let out_s = out.to_str().unwrap();
    let (ok, stdout, stderr) = knightfall(&[
        "puzzles",
        "build",
        "--out",
        out_s,
        "--nodes",
        "100000",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("puzzles written"), "{stdout}");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(
        csv.starts_with("PuzzleId,FEN,Moves,Rating,Themes\n"),
        "{csv}"
    );
    assert!(csv.contains(",g8f6 h5f7,"), "{csv}");
    assert!(csv.contains("mateIn1"), "{csv}");
    // The file is not written over.
    let (ok, _, stderr) = knightfall(&["puzzles", "build", "--out", out_s, pgn.to_str().unwrap()]);
    assert!(!ok && stderr.contains("exists already"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), csv);
    // Exported, each puzzle checked.
    let (ok, stdout, stderr) = knightfall(&["puzzles", "export", "--file", out_s]);
    assert!(ok, "{stderr}");
    assert_eq!(stdout, csv);
    // Without a file: the built-in set, exactly as shipped.
    let (ok, stdout, _) = knightfall(&["puzzles", "export"]);
    assert!(ok);
    assert_eq!(
        stdout,
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/puzzles.csv"))
            .unwrap()
    );
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "PuzzleId,FEN,Moves,Rating,Themes\nx,8/8/8/8/8/8/8/K6k w - - 0 1,a1a9 h1h2,1500,\n",
    )
    .unwrap();
    let (ok, _, stderr) = knightfall(&["puzzles", "export", "--file", bad.to_str().unwrap()]);
    assert!(!ok && stderr.contains("line 2"), "{stderr}");
}

#[test]
fn puzzles_rate_rates_a_file_again_easiest_first() {
    let dir = tempfile::tempdir().unwrap();
    // Rated the other way round: a back-rank mate in two, then a mate in one.
    let file = dir.path().join("in.csv");
    std::fs::write(
        &file,
        "PuzzleId,FEN,Moves,Rating,Themes\n\
         b2,3r2k1/5ppp/4q3/8/8/8/P3RPPP/4R1K1 b - - 0 1,e6a2 e2e8 d8e8 e1e8,500,\n\
         m1,r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3,g8f6 h5f7,2500,\n",
    )
    .unwrap();
    let out = dir.path().join("rated.csv");
    let out_s = out.to_str().unwrap();
    let args = [
        "puzzles",
        "rate",
        "--file",
        file.to_str().unwrap(),
        "--out",
        out_s,
    ];
    let (ok, stdout, stderr) = knightfall(&args);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("2 puzzles written"), "{stdout}");
    let csv = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert_eq!((rows[0][0], rows[1][0]), ("m1", "b2"), "{csv}");
    let ratings: Vec<i32> = rows.iter().map(|r| r[3].parse().unwrap()).collect();
    assert!(ratings[0] < 963 && ratings[1] > ratings[0], "{csv}");
    // The themes are found afresh.
    assert!(
        rows[0][4].contains("mateIn1") && rows[1][4].contains("backRankMate"),
        "{csv}"
    );
    // The same file rates the same; the output is not written over.
    let (ok, _, stderr) = knightfall(&args);
    assert!(!ok && stderr.contains("exists already"), "{stderr}");
    let again = dir.path().join("again.csv");
    let (ok, _, stderr) = knightfall(&[
        "puzzles",
        "rate",
        "--file",
        file.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert_eq!(std::fs::read_to_string(&again).unwrap(), csv);
}

/// Runs knightfall with `args` and standard output `out`; returns whether it was killed by a
/// signal or its exit code, and its standard error.
fn run_with_stdout(args: &[&str], out: std::process::Stdio) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(args)
        .stdout(out)
        .stderr(std::process::Stdio::piped())
        .env(
            "KNIGHTFALL_HOME",
            std::env::temp_dir().join("knightfall-cli-output"),
        )
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn every_command_ends_quietly_on_a_closed_pipe_and_says_so_on_a_full_disk() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("two.pgn");
    let game = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n\n";
    std::fs::write(&games, format!("{game}{game}")).unwrap();
    let games = games.to_str().unwrap();
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let commands: [&[&str]; 6] = [
        &["completions", "bash"],
        &["man"],
        &["eval", "--trace", after_e4],
        &["analyse", "--depth", "6", after_e4],
        &["review", games],
        &["book", "probe", after_e4],
    ];
    for args in commands {
        // A pipe whose reader is gone before the command writes a byte: every write fails
        // with EPIPE.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let (code, err) = run_with_stdout(args, writer.into());
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let (code, err) = run_with_stdout(args, full.into());
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn temporary_files_a_kill_left_anywhere_knightfall_writes_go_at_the_next_start() {
    let home = tempfile::tempdir().unwrap();
    let reviews = home.path().join("games").join("reviews");
    std::fs::create_dir_all(&reviews).unwrap();
    let stale = [
        home.path().join(".training.toml.qi5TVK.tmp"),
        home.path().join(".config.toml.AbC123.tmp"),
        reviews.join(".0123456789abcdef.txt.Zz9Yx8.tmp"),
        home.path().join("games").join(".current.pgn.k3Jd8s.tmp"),
    ];
    let fresh = home.path().join(".training.toml.fReSh1.tmp");
    let not_ours = home.path().join("notes.tmp");
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for f in stale.iter().chain([&not_ours]) {
        std::fs::write(f, "half").unwrap();
        std::fs::File::options()
            .write(true)
            .open(f)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    std::fs::write(&fresh, "under way").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .arg("review")
        .env("KNIGHTFALL_HOME", home.path())
        .output()
        .unwrap();
    for f in &stale {
        assert!(!f.exists(), "{} left: {out:?}", f.display());
    }
    assert!(fresh.exists(), "a write under way stays");
    assert!(not_ours.exists(), "not a temporary file of Knightfall's");
    // `puzzles build --out`'s folder is the player's: only that file's temporaries go.
    let out_dir = tempfile::tempdir().unwrap();
    let built = out_dir.path().join(".puzzles.csv.Qw3rTy.tmp");
    let other = out_dir.path().join(".other.csv.Qw3rTy.tmp");
    for f in [&built, &other] {
        std::fs::write(f, "half").unwrap();
        std::fs::File::options()
            .write(true)
            .open(f)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    let out = out_dir.path().join("puzzles.csv");
    std::fs::write(&out, "").unwrap();
    let (ok, _, err) = knightfall(&["puzzles", "build", "--out", out.to_str().unwrap(), "x.pgn"]);
    assert!(!ok && err.contains("exists already"), "{err}");
    assert!(!built.exists());
    assert!(other.exists());
}

#[test]
fn a_fifo_as_the_config_file_is_refused_not_waited_on() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&config)
            .status()
            .unwrap()
            .success()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["train", "endgames", "KQvK"])
        .env("KNIGHTFALL_HOME", home.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > end {
            let _ = child.kill();
            panic!("still waiting on the FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("is not a regular file"), "{err}");
}

#[test]
fn an_ending_with_nothing_to_play_for_is_refused_for_what_it_is() {
    let home = tempfile::tempdir().unwrap();
    let run = |ending: &str| {
        let out = common::finish(
            Command::new(env!("CARGO_BIN_EXE_knightfall"))
                .args(["train", "endgames", ending])
                .env("KNIGHTFALL_HOME", home.path())
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap(),
        );
        assert!(!out.status.success(), "{ending} opened a drill");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // Bishop against bishop is a draw for both sides: no side is the stronger one to put first.
    let said = run("KBvKB");
    assert!(
        said.contains("KBvKB is a draw whichever side you play"),
        "{said}"
    );
    assert!(!said.contains("stronger side"), "{said}");
    assert!(!said.contains("like KBvKB"), "{said}");
    // A lost side is told to play the winning one.
    let said = run("KvKQ");
    assert!(said.contains("lost for its first side"), "{said}");
    assert!(said.contains("like KQvK"), "{said}");
    // Nothing was written.
    assert_eq!(std::fs::read_dir(home.path()).unwrap().count(), 0);
}

/// Three finished games in one file, as a lichess export writes them (White is `Ann`, `Bob`,
/// `Cid` in turn, each game's moves its own).
const THREE_GAMES: &str = "[Event \"Rated blitz game\"]\n[Site \"https://lichess.org/aaaa\"]\n\
    [Date \"2026.11.01\"]\n[White \"Ann\"]\n[Black \"Zed\"]\n[Result \"1-0\"]\n[UTCDate \"2026.11.01\"]\n\
    [UTCTime \"10:00:00\"]\n[ECO \"C20\"]\n[Opening \"King's Pawn Game\"]\n\n\
    1. e4 { [%clk 0:03:00] } 1... e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\n\
    [Event \"Rated blitz game\"]\n[Site \"https://lichess.org/bbbb\"]\n[Date \"2026.11.02\"]\n\
    [White \"Bob\"]\n[Black \"Zed\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\n\
    [Event \"Rated blitz game\"]\n[Site \"https://lichess.org/cccc\"]\n[Date \"2026.11.03\"]\n\
    [White \"Cid\"]\n[Black \"Zed\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 e6 1/2-1/2\n";

#[test]
fn a_file_of_several_games_in_the_games_folder_lists_every_game_and_opens_the_one_chosen() {
    let home = tempfile::tempdir().unwrap();
    let games = home.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("lichess_export.pgn"), THREE_GAMES).unwrap();
    let (ok, list, err) = knightfall_at(home.path(), &["review"]);
    assert!(!ok && err.contains("choose one of these games"), "{err}");
    assert_eq!(list.lines().count(), 3, "{list}");
    for (n, white) in [(1, "Ann"), (2, "Bob"), (3, "Cid")] {
        let line = list.lines().nth(n - 1).unwrap();
        assert!(
            line.trim_start().starts_with(&n.to_string())
                && line.contains(&format!("{white} - Zed")),
            "{list}"
        );
    }
    assert!(
        list.contains("2026.11.01 10:00  Ann - Zed  1-0  4 moves  C20 King's Pawn Game"),
        "{list}"
    );
    // Each game opened is that game, and its review is its own, not another game's of the file.
    for (n, white, last) in [
        ("2", "Bob", "Qh4#"),
        ("3", "Cid", "e6"),
        ("1", "Ann", "Qxf7#"),
    ] {
        let out = home.path().join(format!("review-{n}.pgn"));
        let (ok, _, err) = knightfall_at(
            home.path(),
            &[
                "review",
                "--game",
                n,
                "--movetime",
                "5",
                "--threads",
                "1",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert!(ok, "{err}");
        let written = std::fs::read_to_string(&out).unwrap();
        assert!(
            written.contains(&format!("[White \"{white}\"]")),
            "{written}"
        );
        assert!(written.contains(last), "{written}");
    }
    let cached = std::fs::read_dir(games.join("reviews"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "tsv"))
        .count();
    assert_eq!(cached, 3, "one cached review per game");
    // The same file named on the command line lists the same games.
    let file = games.join("lichess_export.pgn");
    let (_, named, _) = knightfall_at(home.path(), &["review", file.to_str().unwrap()]);
    assert_eq!(named.lines().count(), 3, "{named}");
}

#[test]
fn a_bad_move_in_a_later_game_of_a_file_is_named_by_its_line_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.pgn");
    // Game 2's junk token is on line 9 of the file (line 5 of its own text).
    std::fs::write(
        &file,
        "[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n[Black \"C\"]\n\n1. d4 d5\n2. c4 zz9 *\n",
    )
    .unwrap();
    let out = dir.path().join("out.pgn");
    let (ok, _, err) = knightfall(&[
        "review",
        "--game",
        "2",
        "--out",
        out.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("\"zz9\" on line 9 of the PGN is not a move; it follows c4"),
        "{err}"
    );
}

#[test]
fn only_the_exact_autosave_names_are_autosaves() {
    let home = tempfile::tempdir().unwrap();
    let games = home.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let game = |white: &str| {
        format!(
            "[White \"{white}\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
        )
    };
    // A player's own files whose names begin like an autosave's: finished games, listed as such.
    std::fs::write(games.join("currently-mine.pgn"), game("Mine")).unwrap();
    std::fs::write(games.join("current-x1.pgn"), game("Other")).unwrap();
    // A finished game in a real autosave is its archived copy: not listed.
    std::fs::write(games.join("current-4242.pgn"), game("Autosave")).unwrap();
    let list = review_list(home.path());
    assert!(list.contains("Mine - B"), "{list}");
    assert!(list.contains("Other - B"), "{list}");
    assert!(!list.contains("Autosave - B"), "{list}");
}

#[test]
fn puzzles_build_reads_one_game_at_a_time_from_a_file_of_any_size() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("huge.pgn");
    // A game whose 3... Nf6?? allows Qxf7#, then 300 MB (a sparse file, taking no disk) that is
    // no game: far more than a build may hold at once.
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n",
    )
    .unwrap();
    std::fs::File::options()
        .write(true)
        .open(&pgn)
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let out = dir.path().join("puzzles.csv");
    let log = dir.path().join("log");
    #[allow(
        clippy::zombie_processes,
        reason = "wait4 below reaps it, and tells its peak memory"
    )]
    let child = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["puzzles", "build", "--nodes", "20000", "--out"])
        .arg(&out)
        .arg(&pgn)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    // The child's peak resident memory, as the system counted it.
    let mut status = 0;
    // SAFETY: `rusage` is plain integers, for which all zeros is a value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: out-parameters that live through the call, for a child of ours waited for once.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{log}"
    );
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(csv.contains(",g8f6 h5f7,"), "{csv}");
    assert!(log.contains("huge.pgn game 2: skipped"), "{log}");
    let peak_mb = usage.ru_maxrss / 1024;
    assert!(peak_mb < 100, "peak {peak_mb} MB");
}

#[test]
fn puzzles_export_reads_lichess_puzzle_file_with_its_themes() {
    let Some(sample) = common::shared("data/puzzles/lichess-format-sample.csv") else {
        return;
    };
    let (ok, stdout, stderr) =
        knightfall(&["puzzles", "export", "--file", sample.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows[0], "PuzzleId,FEN,Moves,Rating,Themes");
    assert_eq!(rows.len(), 101, "{stdout}");
    // Its first puzzle, with the themes of its Themes column (not its RatingDeviation's, 77).
    assert!(
        rows[1].starts_with(
            "09lz3,r1b1rbk1/2qn1ppp/pp1ppn2/6N1/2PP1B2/3B1N2/PPQ2PPP/3R1RK1 b - - 2 14,h7h6 d3h7 f6h7 c2h7,961,"
        ) && rows[1].contains("mateIn2"),
        "{}",
        rows[1]
    );
    // The same file with a byte-order mark, as a spreadsheet saves it.
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("bom.csv");
    let mut text = "\u{feff}".as_bytes().to_vec();
    text.extend(std::fs::read(&sample).unwrap());
    std::fs::write(&bom, text).unwrap();
    let (ok, again, stderr) = knightfall(&["puzzles", "export", "--file", bom.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert_eq!(again, stdout);
}
