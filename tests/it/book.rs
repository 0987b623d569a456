//! Polyglot book: keys, lookups, move choice, errors, the embedded book, the builder and the
//! `knightfall book` command, against the vectors in `../shared/data/polyglot`.

use crate::common;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use knightfall::book::{
    self, Book, BookBuilder, BookEntry, BookError, BookOptions, BuildOptions, Selection,
    encode_move, polyglot_key,
};
use knightfall::rng::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use common::{position, shared};

fn play_uci(pos: &mut Chess, uci: &str) {
    let m = uci
        .parse::<UciMove>()
        .unwrap()
        .to_move(pos)
        .unwrap_or_else(|e| panic!("illegal move {uci}: {e}"));
    pos.play_unchecked(m);
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim_end().split(',').map(str::to_string).collect())
        .collect()
}

/// A scratch directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "knightfall-book-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn keys_match_all_generated_pairs() {
    let Some(path) = shared("data/polyglot/polyglot_keys_generated.csv") else {
        return;
    };
    let rows = csv_rows(&path);
    assert_eq!(rows.len(), 11_392);
    let (mut ep_hashed, mut pinned) = (0, 0);
    for row in &rows {
        let pos = position(&row[0]);
        let expected = u64::from_str_radix(&row[1], 16).unwrap();
        assert_eq!(polyglot_key(&pos), expected, "key of {}", row[0]);
        if row[3] == "1" {
            ep_hashed += 1;
        }
        if row[2] == "0" && row[3] == "1" {
            // A capturer pinned against its king: Polyglot still hashes the file, so the
            // "legal" rule would give a different key.
            pinned += 1;
            let legal = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
            assert_ne!(legal, expected, "{}", row[0]);
        }
    }
    assert_eq!((ep_hashed, pinned), (430, 1));
}

#[test]
fn keys_match_the_spec_by_fen_and_by_moves() {
    let Some(path) = shared("data/polyglot/polyglot_spec_keys.csv") else {
        return;
    };
    let rows = csv_rows(&path);
    assert_eq!(rows.len(), 9);
    for row in rows {
        let expected = u64::from_str_radix(&row[3], 16).unwrap();
        assert_eq!(polyglot_key(&position(&row[1])), expected, "{}", row[1]);
        assert_eq!(polyglot_key(&position(&row[2])), expected, "{}", row[2]);
        let mut pos = Chess::default();
        for uci in row[0].split_whitespace() {
            play_uci(&mut pos, uci);
        }
        assert_eq!(polyglot_key(&pos), expected, "after {}", row[0]);
    }
}

#[test]
fn performance_bin_lookups_match() {
    let (Some(bin), Some(csv)) = (
        shared("data/polyglot/performance.bin"),
        shared("data/polyglot/performance_bin_lookups.csv"),
    ) else {
        return;
    };
    let book = Book::open(&bin).unwrap();
    assert_eq!(book.len(), 92_954);
    let rows = csv_rows(&csv);
    let mut by_fen: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    for row in rows {
        match by_fen.iter_mut().find(|(f, _)| *f == row[1]) {
            Some((_, v)) => v.push(row),
            None => by_fen.push((row[1].clone(), vec![row])),
        }
    }
    assert_eq!(by_fen.len(), 5);
    for (fen, rows) in by_fen {
        let pos = position(&fen);
        let key = u64::from_str_radix(&rows[0][2], 16).unwrap();
        assert_eq!(polyglot_key(&pos), key, "{fen}");
        let got: Vec<(String, u16, u32)> = book
            .moves(&pos)
            .iter()
            .map(|m| (m.uci(), m.weight, m.learn))
            .collect();
        let want: Vec<(String, u16, u32)> = rows
            .iter()
            .map(|r| (r[4].clone(), r[6].parse().unwrap(), r[7].parse().unwrap()))
            .collect();
        assert_eq!(got, want, "{fen}");
        // The raw entries carry the same moves, castling as king-takes-rook.
        let raw: HashSet<u16> = book.entries_for_key(key).map(|e| e.raw_move).collect();
        for r in &rows {
            assert!(
                raw.contains(&u16::from_str_radix(&r[3], 16).unwrap()),
                "{r:?}"
            );
        }
        for m in book.moves(&pos) {
            assert!(raw.contains(&encode_move(&m.mv)));
        }
    }
}

#[test]
fn performance_bin_mainline_follows_best() {
    let (Some(bin), Some(csv)) = (
        shared("data/polyglot/performance.bin"),
        shared("data/polyglot/performance_bin_mainline.csv"),
    ) else {
        return;
    };
    let book = Book::open(&bin).unwrap();
    let row = &csv_rows(&csv)[0];
    let options = BookOptions {
        selection: Selection::Best,
        min_weight: 0,
        max_ply: u32::MAX,
    };
    let mut rng = Rng::new(1);
    let mut pos = Chess::default();
    let mut line = Vec::new();
    while let Some(m) = book.pick(&pos, &options, &mut rng) {
        line.push(m.to_uci(CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
        assert!(line.len() < 200);
    }
    assert_eq!(line.join(" "), row[1]);
    assert_eq!(line.len(), 29);
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    assert_eq!(fen, row[2]);
}

#[test]
fn lasker_trap_entries_read_exactly() {
    let (Some(bin), Some(csv)) = (
        shared("data/polyglot/lasker-trap.bin"),
        shared("data/polyglot/lasker-trap_entries.csv"),
    ) else {
        return;
    };
    let book = Book::open(&bin).unwrap();
    let got: Vec<BookEntry> = book.entries().collect();
    let want: Vec<BookEntry> = csv_rows(&csv)
        .iter()
        .map(|r| BookEntry {
            key: u64::from_str_radix(&r[1], 16).unwrap(),
            raw_move: u16::from_str_radix(&r[2], 16).unwrap(),
            weight: r[3].parse().unwrap(),
            learn: r[4].parse().unwrap(),
        })
        .collect();
    assert_eq!(got, want);
    assert_eq!(book::to_bytes(&got), std::fs::read(&bin).unwrap());
}

#[test]
fn promotions_and_castling_encode_as_polyglot() {
    let pos = position("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mut seen = HashMap::new();
    for m in pos.legal_moves() {
        seen.insert(
            m.to_uci(CastlingMode::Standard).to_string(),
            encode_move(&m),
        );
    }
    // e1h1 = from e1 (4) << 6 | to h1 (7); e1a1 = 4 << 6 | 0.
    assert_eq!(seen["e1g1"], (4 << 6) | 7);
    assert_eq!(seen["e1c1"], 4 << 6);
    // b7xa8=Q: from b7 (49), to a8 (56), queen 4; =N is 1.
    assert_eq!(seen["b7a8q"], 56 | (49 << 6) | (4 << 12));
    assert_eq!(seen["b7a8n"], 56 | (49 << 6) | (1 << 12));
    assert_eq!(seen["b7b8r"], 57 | (49 << 6) | (3 << 12));
    assert_eq!(seen["b7b8b"], 57 | (49 << 6) | (2 << 12));
    for (uci, raw) in &seen {
        let m = book::decode_move(&pos, *raw).unwrap();
        assert_eq!(m.to_uci(CastlingMode::Standard).to_string(), *uci);
    }
    // A rook move to e1's neighbour is not castling: Ra1-b1 decodes as itself.
    assert!(book::decode_move(&pos, 1).is_some());
}

#[test]
fn bad_files_give_clear_errors() {
    let dir = TempDir::new("bad");
    let good = {
        let a = BookEntry {
            key: 0x1234_5678_9abc_def0,
            raw_move: 0x031c,
            weight: 5,
            learn: 0,
        };
        let b = BookEntry {
            key: 0x8000_0000_0000_0001,
            raw_move: 0x02db,
            weight: 3,
            learn: 0,
        };
        vec![a, b]
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty.bin", vec![], "is empty"),
        (
            "truncated.bin",
            book::to_bytes(&good)[..20].to_vec(),
            "is truncated: 20 bytes",
        ),
        (
            "unsorted.bin",
            book::to_bytes(&[good[1], good[0]]),
            "is not sorted by key: entry 1",
        ),
        (
            "games.pgn",
            b"[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
                .to_vec(),
            "is not a Polyglot opening book: it starts with plain text",
        ),
        (
            "zeros.bin",
            vec![0; 48],
            "is not a Polyglot opening book: entry 0",
        ),
    ];
    for (name, bytes, message) in cases {
        let path = dir.path(name);
        std::fs::write(&path, &bytes).unwrap();
        let err = Book::open(&path).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(message), "{name}: {text}");
        assert!(text.contains(&path.display().to_string()), "{name}: {text}");
    }
    let missing = dir.path("missing.bin");
    let err = Book::open(&missing).unwrap_err();
    assert!(matches!(err, BookError::Read { .. }));
    assert!(err.to_string().contains("missing.bin"), "{err}");
    // The same checks guard in-memory data.
    assert!(matches!(
        Book::from_bytes("mem", Cow::Owned(vec![1; 17])),
        Err(BookError::Truncated { extra: 1, .. })
    ));
    let ok = Book::from_bytes("mem", Cow::Owned(book::to_bytes(&good))).unwrap();
    assert_eq!(ok.len(), 2);
    assert_eq!(ok.entries_for_key(good[1].key).count(), 1);
    assert_eq!(ok.entries_for_key(7).count(), 0);
}

#[test]
fn move_choice_weights_min_weight_and_max_ply() {
    let book = Book::embedded().unwrap();
    let start = Chess::default();
    let moves = book.moves(&start);
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    assert_eq!(moves[0].uci(), "e2e4");

    // Weighted random follows the weights (fixed seed, so the counts are exact each run).
    let options = BookOptions::default();
    let mut rng = Rng::new(20240601);
    let mut counts: HashMap<String, u64> = HashMap::new();
    let n = 20_000u64;
    for _ in 0..n {
        let m = book.pick(&start, &options, &mut rng).unwrap();
        *counts
            .entry(m.to_uci(CastlingMode::Standard).to_string())
            .or_default() += 1;
    }
    for m in &moves {
        let expected = n as f64 * f64::from(m.weight) / total as f64;
        let got = *counts.get(&m.uci()).unwrap_or(&0) as f64;
        assert!(
            (got - expected).abs() <= 4.0 * expected.sqrt() + 3.0,
            "{}: {got} vs {expected}",
            m.uci()
        );
    }

    // min_weight drops light entries; Best takes the heaviest.
    let heavy = BookOptions {
        min_weight: 3000,
        ..BookOptions::default()
    };
    let allowed: HashSet<&str> = ["e2e4", "d2d4", "g1f3", "c2c4"].into();
    for _ in 0..500 {
        let m = book.pick(&start, &heavy, &mut rng).unwrap();
        assert!(allowed.contains(m.to_uci(CastlingMode::Standard).to_string().as_str()));
    }
    let none = BookOptions {
        min_weight: u16::MAX,
        ..BookOptions::default()
    };
    assert_eq!(book.pick(&start, &none, &mut rng), None);
    let best = BookOptions {
        selection: Selection::Best,
        ..BookOptions::default()
    };
    let m = book.pick(&start, &best, &mut rng).unwrap();
    assert_eq!(m.to_uci(CastlingMode::Standard).to_string(), "e2e4");

    // max_ply counts plies of the game from its fullmove number.
    let mut pos = Chess::default();
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        play_uci(&mut pos, uci);
    }
    assert_eq!(book::game_ply(&pos), 4);
    let short = BookOptions {
        max_ply: 4,
        ..BookOptions::default()
    };
    assert!(book.pick(&pos, &short, &mut rng).is_none());
    let longer = BookOptions {
        max_ply: 5,
        ..BookOptions::default()
    };
    assert!(book.pick(&pos, &longer, &mut rng).is_some());
    // Not in the book: no move, no panic.
    let bare = position("8/8/8/4k3/8/8/8/K7 w - - 0 1");
    assert!(book.moves(&bare).is_empty());
    assert_eq!(book.pick(&bare, &options, &mut rng), None);
}

#[test]
fn embedded_book_is_the_gnu_chess_book_and_its_moves_are_legal() {
    let book = Book::embedded().unwrap();
    assert_eq!(book.len(), 180_358);
    assert_eq!(book.name(), book::EMBEDDED_NAME);
    // Walk every book line to ply 10: each entry of each reached position is a legal move.
    let mut seen = HashSet::new();
    let mut frontier = vec![Chess::default()];
    let (mut positions, mut entries) = (0, 0);
    for _ in 0..10 {
        let mut next = Vec::new();
        for pos in frontier {
            let key = polyglot_key(&pos);
            if !seen.insert(key) {
                continue;
            }
            let raw: Vec<BookEntry> = book.entries_for_key(key).collect();
            let moves = book.moves(&pos);
            assert_eq!(
                raw.len(),
                moves.len(),
                "{}",
                Fen::from_position(&pos, EnPassantMode::Legal)
            );
            positions += usize::from(!raw.is_empty());
            entries += raw.len();
            for m in moves {
                let mut after = pos.clone();
                after.play_unchecked(m.mv);
                next.push(after);
            }
        }
        frontier = next;
    }
    // python-chess, walking the same lines, finds the same counts.
    assert_eq!((positions, entries), (10_402, 18_782));
}

#[test]
fn embedded_book_gives_varied_openings() {
    // 100 book walks with the default settings reach many distinct positions after move 6.
    let book = Book::embedded().unwrap();
    let mut rng = Rng::new(7);
    let options = BookOptions::default();
    let mut distinct = HashSet::new();
    for _ in 0..100 {
        let mut pos = Chess::default();
        for _ in 0..12 {
            let Some(m) = book.pick(&pos, &options, &mut rng) else {
                break;
            };
            assert!(pos.is_legal(m));
            pos.play_unchecked(m);
        }
        distinct.insert(polyglot_key(&pos));
    }
    assert!(distinct.len() >= 60, "{} distinct", distinct.len());
}

const SMALL_PGN: &str = r#"[Event "a"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0

[Event "b"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nf6 {comment} (2... d6 3. d4) 3. Nxe5 1/2-1/2

[Event "c"]
[Result "0-1"]

1. e4 c5 2. Nf3 d6 0-1

[Event "d"]
[Result "1-0"]

1. e4 e5 2. Ke3 Nc6 1-0

[Event "e"]
[Result "*"]

1. d4 d5 *

[Event "f"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]
[Result "1-0"]

1. e4 Kd7 1-0
"#;

fn weights_at(book: &Book, moves: &[&str]) -> Vec<(String, u16)> {
    let mut pos = Chess::default();
    for m in moves {
        play_uci(&mut pos, m);
    }
    book.moves(&pos)
        .iter()
        .map(|m| (m.uci(), m.weight))
        .collect()
}

#[test]
fn builder_counts_results_like_polyglot() {
    let mut builder = BookBuilder::new(BuildOptions {
        max_ply: 4,
        min_games: 1,
    });
    builder.add_pgn("small.pgn", SMALL_PGN.as_bytes()).unwrap();
    let stats = builder.stats().clone();
    assert_eq!(stats.games, 5);
    assert_eq!(stats.skipped.len(), 1, "{:?}", stats.skipped);
    assert!(
        stats.skipped[0].contains("small.pgn: game 4: illegal move Ke3"),
        "{:?}",
        stats.skipped
    );
    let entries = builder.entries();
    let bytes = book::to_bytes(&entries);
    let book = Book::from_bytes("built", Cow::Owned(bytes)).unwrap();

    // 1. e4: games a (win, 2), b (draw, 1), c (loss, 0) -> 3; 1. d4 in the unfinished game -> 1.
    assert_eq!(
        weights_at(&book, &[]),
        vec![("e2e4".to_string(), 3), ("d2d4".to_string(), 1)]
    );
    // Black's replies score for Black: e5 lost once, drew once -> 1; c5 won -> 2.
    assert_eq!(
        weights_at(&book, &["e2e4"]),
        vec![("c7c5".to_string(), 2), ("e7e5".to_string(), 1)]
    );
    // Ply 4 is the limit: moves at plies 0..=3 only.
    assert_eq!(
        weights_at(&book, &["e2e4", "e7e5", "g1f3"]),
        // Nc6 only lost (0 points): dropped, as Polyglot drops moves that never scored.
        vec![("g8f6".to_string(), 1)]
    );
    assert!(weights_at(&book, &["e2e4", "e7e5", "g1f3", "b8c6"]).is_empty());
    // The FEN game is recorded from its own start position.
    let fen_start = position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    let got: Vec<(String, u16)> = book
        .moves(&fen_start)
        .iter()
        .map(|m| (m.uci(), m.weight))
        .collect();
    assert_eq!(got, vec![("e2e4".to_string(), 2)]);

    // min_games drops moves seen in fewer games.
    let mut strict = BookBuilder::new(BuildOptions {
        max_ply: 4,
        min_games: 2,
    });
    strict.add_pgn("small.pgn", SMALL_PGN.as_bytes()).unwrap();
    let strict = Book::from_bytes("strict", Cow::Owned(book::to_bytes(&strict.entries()))).unwrap();
    assert_eq!(weights_at(&strict, &[]), vec![("e2e4".to_string(), 3)]);
    assert_eq!(
        weights_at(&strict, &["e2e4"]),
        vec![("e7e5".to_string(), 1)]
    );
}

/// Runs python-chess on `book` if it is importable; returns its dump of the book moves of the
/// positions after each line in `lines` (one line of `uci:weight` items per position).
fn python_dump(book: &Path, lines: &[String]) -> Option<Vec<String>> {
    let probe = Command::new("python3")
        .args(["-c", "import chess.polyglot"])
        .output();
    if !matches!(probe, Ok(ref o) if o.status.success()) {
        eprintln!("python3 with python-chess not available: checked with our own reader only");
        return None;
    }
    let script = r#"
import sys, chess, chess.polyglot
book = chess.polyglot.open_reader(sys.argv[1])
for line in sys.stdin.read().splitlines():
    board = chess.Board()
    for m in line.split():
        board.push_uci(m)
    print(" ".join(f"{e.move.uci()}:{e.weight}" for e in book.find_all(board)))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .arg(book)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(lines.join("\n").as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python-chess failed");
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

#[test]
fn built_book_from_engine_games_reads_back_and_python_chess_agrees() {
    let Some(pgn) = shared("data/games/sunfish_3fold_engine_games.pgn") else {
        return;
    };
    let dir = TempDir::new("build");
    let out = dir.path("sunfish.bin");
    let mut builder = BookBuilder::new(BuildOptions::default());
    builder.add_pgn_file(&pgn).unwrap();
    assert_eq!(builder.stats().games, 713, "{:?}", builder.stats().skipped);
    let entries = builder.entries();
    book::write_book(&out, &entries).unwrap();
    let book = Book::open(&out).unwrap();
    assert_eq!(book.len(), entries.len());
    assert!(book.len() > 1000, "{} entries", book.len());

    // Follow a few lines through the built book and compare with python-chess.
    let mut lines = vec![String::new()];
    let mut rng = Rng::new(3);
    let options = BookOptions {
        min_weight: 0,
        max_ply: u32::MAX,
        ..BookOptions::default()
    };
    for _ in 0..30 {
        let mut pos = Chess::default();
        let mut line = Vec::new();
        while let Some(m) = book.pick(&pos, &options, &mut rng) {
            line.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
            lines.push(line.join(" "));
            if line.len() >= 12 {
                break;
            }
        }
    }
    let ours: Vec<String> = lines
        .iter()
        .map(|line| {
            let mut pos = Chess::default();
            for m in line.split_whitespace() {
                play_uci(&mut pos, m);
            }
            let mut items: Vec<String> = book
                .moves(&pos)
                .iter()
                .map(|m| format!("{}:{}", m.uci(), m.weight))
                .collect();
            items.sort();
            items.join(" ")
        })
        .collect();
    assert!(!ours[0].is_empty());
    if let Some(theirs) = python_dump(&out, &lines) {
        let theirs: Vec<String> = theirs
            .iter()
            .map(|l| {
                let mut items: Vec<&str> = l.split_whitespace().collect();
                items.sort();
                items.join(" ")
            })
            .collect();
        assert_eq!(ours, theirs);
    }
}

#[test]
fn builder_survives_pgn_edge_cases() {
    let Some(dir) = shared("data/games/edge-cases") else {
        return;
    };
    let mut builder = BookBuilder::new(BuildOptions::default());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 12);
    for f in &files {
        builder.add_pgn_file(f).unwrap();
    }
    let stats = builder.stats();
    // Variants (antichess, crazyhouse, Chess960) and UCI movetext are skipped with a reason.
    assert!(stats.games >= 5, "{stats:?}");
    assert!(
        stats.skipped.iter().any(|s| s.contains("variant")),
        "{stats:?}"
    );
    let entries = builder.entries();
    Book::from_bytes("edge", Cow::Owned(book::to_bytes(&entries))).unwrap();
}

fn knightfall(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn cli_probe_lists_moves_by_weight() {
    let out = knightfall(&["book", "probe", "startpos"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "e2e4 12135");
    assert_eq!(lines[1], "d2d4 11257");
    assert_eq!(lines.len(), 13);

    // Not in the book: nothing, exit 0.
    let out = knightfall(&["book", "probe", "8/8/8/4k3/8/8/8/K7 w - - 0 1"]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());

    let Some(bin) = shared("data/polyglot/performance.bin") else {
        return;
    };
    let out = knightfall(&[
        "book",
        "probe",
        "--book",
        bin.to_str().unwrap(),
        "r1bqr1k1/pp1nbppp/2p2n2/3p2B1/3P4/2NBP3/PPQ1NPPP/R3K2R w KQ - 5 10",
    ]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "e1g1 159\ne1c1 18\nh2h3 16\n"
    );
}

#[test]
fn cli_reports_bad_books_and_fens() {
    let dir = TempDir::new("cli");
    let bad = dir.path("half.bin");
    std::fs::write(&bad, [0x80u8; 24]).unwrap();
    let out = knightfall(&["book", "probe", "--book", bad.to_str().unwrap(), "startpos"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("half.bin") && err.contains("truncated"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let out = knightfall(&["book", "probe", "not a fen"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("FEN"), "{err}");
}

#[test]
fn cli_build_writes_a_readable_book() {
    let dir = TempDir::new("clibuild");
    let pgn = dir.path("games.pgn");
    std::fs::write(&pgn, SMALL_PGN).unwrap();
    let out_path = dir.path("out.bin");
    let out = knightfall(&[
        "book",
        "build",
        "--out",
        out_path.to_str().unwrap(),
        "--max-ply",
        "4",
        pgn.to_str().unwrap(),
    ]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    assert!(err.contains("illegal move Ke3"), "{err}");
    assert!(err.contains("from 5 games (1 skipped)"), "{err}");
    let out = knightfall(&[
        "book",
        "probe",
        "--book",
        out_path.to_str().unwrap(),
        "startpos",
    ]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "e2e4 3\nd2d4 1\n");

    // Too strict a filter leaves nothing: an error, and no file.
    let empty = dir.path("empty.bin");
    let out = knightfall(&[
        "book",
        "build",
        "--out",
        empty.to_str().unwrap(),
        "--min-games",
        "50",
        pgn.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(!empty.exists());
}

#[test]
fn devices_pipes_and_huge_files_are_refused_before_reading() {
    let dir = TempDir::new("special");
    let fifo = dir.0.join("book.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success(),
        "mkfifo"
    );
    let huge = dir.0.join("huge.bin");
    // Sparse: 2 GiB long, nothing written.
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let fifo = fifo.to_str().unwrap();
    let huge = huge.to_str().unwrap();
    for (path, expected) in [
        ("/dev/zero", "is not a regular file"),
        (fifo, "is not a regular file"),
        (huge, "more than the 1073741824 bytes"),
        (dir.0.to_str().unwrap(), "is not a regular file"),
    ] {
        let err = Book::open(path).unwrap_err().to_string();
        assert!(err.contains(expected), "{path}: {err}");
        // The CLI says the same and fails.
        let out = knightfall(&["book", "probe", "--book", path, "startpos"]);
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{stderr}");
    }
    // Over UCI: a message, the engine keeps answering, and quit still quits.
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        for path in ["/dev/zero", fifo] {
            writeln!(stdin, "setoption name BookFile value {path}").unwrap();
        }
        writeln!(stdin, "isready").unwrap();
        writeln!(stdin, "quit").unwrap();
    }
    // Neither path may block the engine: it answers and quits.
    let out = common::finish(child);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("is not a regular file").count(), 2, "{text}");
    assert!(text.contains("readyok"), "{text}");
}

#[test]
fn build_refuses_to_overwrite_its_input() {
    let dir = TempDir::new("overwrite");
    let pgn = dir.0.join("games.pgn");
    let text = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n";
    std::fs::write(&pgn, text).unwrap();
    let path = pgn.to_str().unwrap();
    let out = knightfall(&["book", "build", "--out", path, "--min-games", "1", path]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is one of the input files"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&pgn).unwrap(),
        text,
        "the input is intact"
    );
}

#[test]
fn game_ply_saturates_at_the_largest_move_number() {
    let pos = common::position("4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295");
    assert_eq!(book::game_ply(&pos), u32::MAX);
    let pos = common::position("4k3/8/8/8/8/8/8/4K3 b - - 0 10");
    assert_eq!(book::game_ply(&pos), 19);
}

#[test]
fn the_result_tag_decides_and_the_movetext_fills_in() {
    // White's first move scores 2 when White won, 1 for a draw or an unknown result, 0 lost.
    let first_weight = |pgn: &str| {
        let mut builder = BookBuilder::new(BuildOptions {
            max_ply: 1,
            min_games: 1,
        });
        builder.add_pgn("one.pgn", pgn.as_bytes()).unwrap();
        let entries = builder.entries();
        if entries.is_empty() {
            return None;
        }
        let book = Book::from_bytes("one", Cow::Owned(book::to_bytes(&entries))).unwrap();
        weights_at(&book, &[]).first().map(|(_, w)| *w)
    };
    // The tag wins over the movetext's termination.
    assert_eq!(first_weight("[Result \"1-0\"]\n\n1. e4 e5 0-1\n"), Some(2));
    assert_eq!(
        first_weight("[Result \"1/2-1/2\"]\n\n1. e4 e5 1-0\n"),
        Some(1)
    );
    // `*`, a missing tag and an unreadable one leave it to the termination.
    assert_eq!(first_weight("[Result \"*\"]\n\n1. e4 e5 1-0\n"), Some(2));
    assert_eq!(first_weight("[Event \"x\"]\n\n1. e4 e5 1-0\n"), Some(2));
    assert_eq!(first_weight("[Result \"2-0\"]\n\n1. e4 e5 1-0\n"), Some(2));
    // Unknown both ways counts as a draw; a loss scores nothing and is dropped.
    assert_eq!(first_weight("[Result \"*\"]\n\n1. e4 e5 *\n"), Some(1));
    assert_eq!(first_weight("[Result \"0-1\"]\n\n1. e4 e5 *\n"), None);
}
