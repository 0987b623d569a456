//! Syzygy probing against `../shared/syzygy` and the expectations in
//! `../shared/data/syzygy-vectors`, root move choice, damaged tables, and `knightfall tb`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use knightfall::tablebase::{RootMove, Tablebases, TbError, Wdl, material_of};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Position};

use common::{position, shared};

/// The built-in tables with `../shared/syzygy` on top, as `--syzygy ../shared/syzygy` loads them.
fn tables() -> Option<Tablebases> {
    let dir = shared("syzygy")?;
    let tb = Tablebases::load(Some(dir.to_str().unwrap()));
    assert!(tb.warnings().is_empty(), "{:?}", tb.warnings());
    Some(tb)
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim_end().split(',').map(str::to_string).collect())
        .collect()
}

/// Whether the tables in `../shared/syzygy` cover `pos`: every 3-4 piece table is there, and
/// the 5-piece ones listed in SOURCES.md (whose promotions and captures stay covered).
fn covered(pos: &Chess) -> bool {
    let pieces = pos.board().occupied().count();
    if pieces <= 4 {
        return true;
    }
    if pieces > 5 {
        return false;
    }
    let m = material_of(pos);
    let (w, b) = m.split_once('v').unwrap();
    let five = ["KQRvKR", "KRRvKR", "KRBvKR", "KRNvKR", "KRPvKR"];
    five.contains(&format!("{w}v{b}").as_str()) || five.contains(&format!("{b}v{w}").as_str())
}

fn wdl_of(n: i32) -> Wdl {
    match n {
        -2 => Wdl::Loss,
        -1 => Wdl::BlessedLoss,
        0 => Wdl::Draw,
        1 => Wdl::CursedWin,
        2 => Wdl::Win,
        _ => panic!("bad wdl {n}"),
    }
}

/// Checks `epd,material,wdl,dtz` rows; returns how many were checked.
fn check_material_csv(tb: &Tablebases, path: &Path) -> usize {
    let rows = csv_rows(path);
    for row in &rows {
        let pos = position(&row[0]);
        assert_eq!(material_of(&pos).len(), row[1].len(), "{row:?}");
        let wdl: i32 = row[2].parse().unwrap();
        let dtz: i32 = row[3].parse().unwrap();
        let probe = tb.probe(&pos).unwrap_or_else(|e| panic!("{}: {e}", row[0]));
        assert_eq!(probe.wdl, wdl_of(wdl), "wdl of {}", row[0]);
        assert_eq!(probe.dtz, dtz, "dtz of {}", row[0]);
    }
    rows.len()
}

#[test]
fn generated_3_4_piece_vectors() {
    let (Some(tb), Some(csv)) = (
        tables(),
        shared("data/syzygy-vectors/syzygy_generated_3-4piece.csv"),
    ) else {
        return;
    };
    assert_eq!(check_material_csv(&tb, &csv), 3_500);
}

#[test]
fn built_in_tables_answer_every_3_4_piece_vector() {
    let Some(csv) = shared("data/syzygy-vectors/syzygy_generated_3-4piece.csv") else {
        return;
    };
    let tb = Tablebases::embedded();
    assert_eq!((tb.file_count(), tb.max_pieces()), (70, 4));
    assert_eq!(knightfall::tablebase::embedded::size(), 4_346_080);
    assert_eq!(check_material_csv(&tb, &csv), 3_500);
    // Directories that cannot be used cost only themselves.
    let tb = Tablebases::load(Some("/no/such/dir"));
    assert_eq!(tb.max_pieces(), 4);
    assert!(
        tb.warnings()[0].contains("/no/such/dir"),
        "{:?}",
        tb.warnings()
    );
}

#[test]
fn five_piece_vectors() {
    let (Some(tb), Some(csv)) = (
        tables(),
        shared("data/syzygy-vectors/syzygy_5piece_dev.csv"),
    ) else {
        return;
    };
    assert_eq!(tb.max_pieces(), 5);
    assert_eq!(check_material_csv(&tb, &csv), 1_000);
}

#[test]
fn shakmaty_vectors_where_tables_exist() {
    let (Some(tb), Some(csv)) = (tables(), shared("data/syzygy-vectors/shakmaty_chess.csv")) else {
        return;
    };
    let (mut checked, mut skipped) = (0, 0);
    for row in csv_rows(&csv) {
        let pos = position(&row[0]);
        if !covered(&pos) {
            skipped += 1;
            continue;
        }
        let wdl: i32 = row[1].parse().unwrap();
        let dtz: i32 = row[2].parse().unwrap();
        let probe = tb.probe(&pos).unwrap_or_else(|e| panic!("{}: {e}", row[0]));
        assert_eq!(probe.wdl, wdl_of(wdl), "wdl of {}", row[0]);
        assert_eq!(probe.dtz, dtz, "dtz of {}", row[0]);
        checked += 1;
    }
    eprintln!("shakmaty_chess.csv: {checked} checked, {skipped} need tables we lack");
    assert_eq!((checked, skipped), (200, 16));
}

/// Whether the side to move has any capture (en passant included): only then can the raw
/// table value (`wdl_table`) differ from the resolved WDL.
fn has_capture(pos: &Chess) -> bool {
    pos.legal_moves().iter().any(|m| m.is_capture())
}

#[test]
fn python_chess_handpicked_vectors() {
    let (Some(tb), Some(csv)) = (
        tables(),
        shared("data/syzygy-vectors/syzygy_handpicked_pychess.csv"),
    ) else {
        return;
    };
    let text = std::fs::read_to_string(&csv).unwrap();
    let (mut checked, mut skipped) = (0, 0);
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        let pos = position(f[0]);
        let expected: i32 = f[2].parse().unwrap();
        if !covered(&pos) {
            skipped += 1;
            continue;
        }
        match f[1] {
            "wdl" => assert_eq!(tb.probe_wdl(&pos).unwrap(), wdl_of(expected), "{line}"),
            "dtz" => assert_eq!(tb.probe_dtz(&pos).unwrap(), expected, "{line}"),
            // The raw table value equals the resolved WDL when no capture is possible.
            "wdl_table" if !has_capture(&pos) => {
                assert_eq!(tb.probe_wdl(&pos).unwrap(), wdl_of(expected), "{line}")
            }
            // A probe that ignores en passant is not part of our API.
            "wdl_table" | "dtz_no_ep" => {
                skipped += 1;
                continue;
            }
            other => panic!("unknown probe {other}"),
        }
        checked += 1;
    }
    eprintln!("handpicked: {checked} checked, {skipped} skipped");
    assert_eq!(checked, 11);
}

#[test]
fn python_chess_endgame_epd() {
    let (Some(tb), Some(epd)) = (tables(), shared("data/syzygy-vectors/endgame_pychess.epd"))
    else {
        return;
    };
    let text = std::fs::read_to_string(&epd).unwrap();
    let (mut checked, mut skipped) = (0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let pos = position(&fields[..4].join(" "));
        let ops = fields[4..].join(" ");
        let op = |name: &str| -> i32 {
            ops.split(';')
                .map(str::trim)
                .find_map(|o| o.strip_prefix(name).map(|v| v.trim().parse().unwrap()))
                .unwrap_or_else(|| panic!("no {name} in {line}"))
        };
        if !covered(&pos) {
            skipped += 1;
            continue;
        }
        let probe = tb.probe(&pos).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(probe.wdl, wdl_of(op("wdl ")), "{line}");
        assert_eq!(probe.dtz, op("dtz "), "{line}");
        if !has_capture(&pos) {
            assert_eq!(probe.wdl, wdl_of(op("wdl_table ")), "{line}");
        }
        checked += 1;
    }
    eprintln!("endgame_pychess.epd: {checked} checked, {skipped} need tables we lack");
    assert_eq!((checked, skipped), (200, 0));
}

#[test]
fn out_of_range_positions_are_errors_or_none() {
    let Some(mut tb) = tables() else {
        return;
    };
    let castling = position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(matches!(tb.probe_wdl(&castling), Err(TbError::Castling)));
    assert!(tb.root_move(&castling).is_none());
    assert!(tb.probe_wdl_search(&castling).is_none());
    let six = position("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1");
    assert!(matches!(
        tb.probe_dtz(&six),
        Err(TbError::TooManyPieces { pieces: 6, max: 5 })
    ));
    assert!(tb.root_move(&six).is_none());
    assert!(tb.probe_wdl_search(&six).is_none());
    // A 5-piece material whose table is absent names it.
    let missing = position("3K4/8/3k4/8/4p3/4B3/5P2/8 w - - 0 5");
    let err = tb.probe(&missing).unwrap_err();
    assert!(matches!(err, TbError::MissingTable { .. }), "{err}");
    assert!(err.to_string().contains("KBPvKP"), "{err}");
    assert!(tb.probe_wdl_search(&missing).is_none());
    assert!(tb.root_move(&missing).is_none());
    // Mate and stalemate have no root move.
    let mated = position("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    assert!(mated.is_checkmate());
    assert!(matches!(tb.rank_root_moves(&mated), Err(TbError::NoMoves)));
    let stalemate = position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(matches!(
        tb.rank_root_moves(&stalemate),
        Err(TbError::NoMoves)
    ));

    // The probe limit narrows what the search and root probe touch.
    let krk = position("8/8/8/4k3/8/8/8/KR6 w - - 0 1");
    assert_eq!(tb.probe_wdl_search(&krk), Some(Wdl::Win));
    tb.set_probe_limit(2);
    assert_eq!(tb.probe_pieces(), 2);
    assert_eq!(tb.probe_wdl_search(&krk), None);
    assert!(tb.root_move(&krk).is_none());
    tb.set_probe_limit(7);
    assert_eq!(tb.probe_pieces(), 5);
}

/// Plays `root_move` for both sides from `pos`; returns the final position and plies played.
fn play_out(tb: &Tablebases, mut pos: Chess, max_plies: usize) -> (Chess, usize) {
    for ply in 0..max_plies {
        if pos.is_game_over() {
            return (pos, ply);
        }
        let RootMove { mv, .. } = tb
            .root_move(&pos)
            .unwrap_or_else(|| panic!("no root move in {}", fen(&pos)));
        pos.play_unchecked(mv);
        assert!(
            pos.halfmoves() < 100,
            "fifty-move rule reached in {}",
            fen(&pos)
        );
    }
    (pos, max_plies)
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

#[test]
fn root_moves_convert_wins_within_the_fifty_move_rule() {
    let (Some(tb), Some(small), Some(five)) = (
        tables(),
        shared("data/syzygy-vectors/syzygy_generated_3-4piece.csv"),
        shared("data/syzygy-vectors/syzygy_5piece_dev.csv"),
    ) else {
        return;
    };
    // Won positions with the longest DTZ of each file, plus a spread of others, are played out
    // by the tables for both sides: every one ends in mate, never at the fifty-move limit.
    let mut won: Vec<(Chess, i32)> = Vec::new();
    for (path, take) in [(&small, 12), (&five, 12)] {
        let mut rows: Vec<(Chess, i32)> = csv_rows(path)
            .iter()
            .filter(|r| r[2] == "2")
            .map(|r| (position(&r[0]), r[3].parse().unwrap()))
            .collect();
        rows.sort_by_key(|(_, d)| -d);
        won.extend(rows.iter().take(take / 2).cloned());
        let step = rows.len() / (take / 2);
        won.extend(rows.iter().step_by(step.max(1)).take(take / 2).cloned());
    }
    for (start, dtz) in won {
        let root = tb.root_move(&start).unwrap();
        assert_eq!(root.wdl, Wdl::Win, "{}", fen(&start));
        assert_eq!(root.dtz, dtz, "root dtz of {}", fen(&start));
        let (end, plies) = play_out(&tb, start.clone(), 400);
        assert!(
            end.is_checkmate(),
            "{} -> {} after {plies}",
            fen(&start),
            fen(&end)
        );
        // The winner was the side to move at the start.
        assert_eq!(end.turn(), !start.turn(), "{}", fen(&start));
    }
}

#[test]
fn root_moves_hold_draws_and_resist_losses() {
    let (Some(tb), Some(csv)) = (
        tables(),
        shared("data/syzygy-vectors/syzygy_5piece_dev.csv"),
    ) else {
        return;
    };
    let rows = csv_rows(&csv);
    // Drawn KR* v KR positions stay drawn for 30 plies of table play by both sides.
    let drawn: Vec<Chess> = rows
        .iter()
        .filter(|r| r[2] == "0")
        .map(|r| position(&r[0]))
        .take(15)
        .collect();
    assert!(drawn.len() >= 10);
    for start in drawn {
        let mut pos = start.clone();
        for _ in 0..30 {
            if pos.is_game_over() {
                break;
            }
            let m = tb.root_move(&pos).unwrap();
            assert_eq!(m.wdl, Wdl::Draw, "{}", fen(&pos));
            pos.play_unchecked(m.mv);
            assert_eq!(tb.probe_wdl(&pos).unwrap(), Wdl::Draw, "{}", fen(&pos));
        }
    }
    // In lost positions the chosen move leaves the opponent the longest way to the next
    // zeroing move: checked against every legal move by brute force.
    let lost: Vec<Chess> = rows
        .iter()
        .filter(|r| r[2] == "-2")
        .map(|r| position(&r[0]))
        .take(20)
        .collect();
    for pos in lost {
        let root = tb.root_move(&pos).unwrap();
        assert_eq!(root.wdl, Wdl::Loss);
        let plies_after = |mv: &shakmaty::Move| -> i32 {
            let mut after = pos.clone();
            after.play_unchecked(*mv);
            if after.is_checkmate() {
                return 0;
            }
            let d = tb.probe_dtz(&after).unwrap();
            assert!(d > 0, "a losing position cannot have a non-losing move");
            if mv.is_zeroing() { 0 } else { d }
        };
        let best = pos.legal_moves().iter().map(plies_after).max().unwrap();
        assert_eq!(plies_after(&root.mv), best, "{}", fen(&pos));
    }
}

#[test]
fn root_move_counts_the_halfmove_clock() {
    let Some(tb) = tables() else {
        return;
    };
    // KQ v K, 10 plies from mate: a win with a fresh clock, only a cursed win with 95 plies
    // already gone.
    let fresh = position("8/8/8/3k4/8/8/8/KQ6 w - - 0 1");
    let dtz = tb.probe_dtz(&fresh).unwrap();
    assert!(dtz > 6, "dtz {dtz}");
    let root = tb.root_move(&fresh).unwrap();
    assert_eq!((root.wdl, root.dtz), (Wdl::Win, dtz));
    let late = position("8/8/8/3k4/8/8/8/KQ6 w - - 95 80");
    let root = tb.root_move(&late).unwrap();
    assert_eq!(root.wdl, Wdl::CursedWin);
    // A pawn move resets the clock, so with 99 plies gone the winning pawn push is the move.
    let pawn = position("8/8/8/8/8/k7/6P1/6K1 w - - 99 90");
    let root = tb.root_move(&pawn).unwrap();
    assert_eq!(root.wdl, Wdl::Win);
    assert_eq!(knightfall::tablebase::uci(&root.mv).get(..2), Some("g2"));
}

/// A scratch directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("knightfall-tb-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy_table(src: &Path, dir: &Path, name: &str, edit: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = std::fs::read(src.join(name)).unwrap();
    edit(&mut bytes);
    std::fs::write(dir.join(name), bytes).unwrap();
}

/// Positions of a material from the vector file, to probe damaged copies with.
fn sample(csv: &Path, material: &str, n: usize) -> Vec<Chess> {
    csv_rows(csv)
        .iter()
        .filter(|r| r[1] == material)
        .take(n)
        .map(|r| position(&r[0]))
        .collect()
}

#[test]
fn damaged_tables_fail_their_probe_only() {
    let (Some(src), Some(csv)) = (
        shared("syzygy"),
        shared("data/syzygy-vectors/syzygy_generated_3-4piece.csv"),
    ) else {
        return;
    };
    let tmp = TempDir::new("damaged");
    let dir = &tmp.0;
    let keep = |_: &mut Vec<u8>| {};
    // Intact: the 3-piece tables (captures from 4 pieces land there) and KRvK.
    for entry in std::fs::read_dir(&src).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.len() == "KRvK.rtbw".len() {
            copy_table(&src, dir, &name, keep);
        }
    }
    // Wrong size: KQvK.rtbw loses 10 bytes (rejected when loading).
    copy_table(&src, dir, "KQvK.rtbw", |b| b.truncate(b.len() - 10));
    // Truncated by whole 64-byte blocks, so the size check passes: KBNvK.
    copy_table(&src, dir, "KBNvK.rtbw", |b| b.truncate(b.len() - 64 * 100));
    copy_table(&src, dir, "KBNvK.rtbz", |b| {
        b.truncate(b.len() / 2 / 64 * 64 + 16)
    });
    // Bad magic: KRvKN. Garbage in the data blocks: KQvKR.
    copy_table(&src, dir, "KRvKN.rtbw", |b| {
        b[0..4].copy_from_slice(b"XXXX")
    });
    copy_table(&src, dir, "KRvKN.rtbz", keep);
    copy_table(&src, dir, "KQvKR.rtbw", |b| {
        let mut rng = knightfall::rng::Rng::new(0x9e37_79b9);
        for byte in b.iter_mut().skip(200) {
            *byte = rng.next_u64() as u8;
        }
    });
    copy_table(&src, dir, "KQvKR.rtbz", keep);
    // Only the header survives: KRvKP.
    copy_table(&src, dir, "KRvKP.rtbw", |b| b.truncate(16));
    copy_table(&src, dir, "KRvKP.rtbz", |b| b.truncate(16));

    let tb = Tablebases::open(dir.to_str().unwrap()).unwrap();
    assert_eq!(tb.warnings().len(), 1, "{:?}", tb.warnings());
    assert!(
        tb.warnings()[0].contains("KQvK.rtbw"),
        "{:?}",
        tb.warnings()
    );

    // The intact table still answers.
    for pos in sample(&csv, "KRvK", 20) {
        tb.probe(&pos).unwrap();
    }
    // Skipped at load: a missing-table error.
    for pos in sample(&csv, "KQvK", 5) {
        assert!(matches!(
            tb.probe_wdl(&pos),
            Err(TbError::MissingTable { .. })
        ));
        assert!(tb.probe_wdl_search(&pos).is_none());
    }
    // Truncated, bad magic, header only: errors, never a panic; each table warns once and is
    // not probed again.
    for (material, n) in [("KBNvK", 200), ("KRvKN", 20), ("KRvKP", 20)] {
        let mut errors = 0;
        for pos in sample(&csv, material, n) {
            match tb.probe(&pos) {
                Err(TbError::Corrupt { .. }) => errors += 1,
                Err(e) => panic!("{material}: unexpected error {e}"),
                Ok(_) => {}
            }
            let _ = tb.root_move(&pos);
        }
        assert!(errors > 0, "{material}: damage went unnoticed");
        let warned = tb.take_warnings();
        let about: Vec<_> = warned.iter().filter(|w| w.contains(material)).collect();
        assert_eq!(about.len(), 1, "{material}: {warned:?}");
        assert!(about[0].contains("no longer used") && !about[0].contains('\n'));
        let pos = &sample(&csv, material, 1)[0];
        assert!(tb.probe_wdl_search(pos).is_none());
        assert!(tb.take_warnings().is_empty());
    }
    // Random garbage cannot always be detected (the format has no checksums), but probing it
    // must not bring the program down.
    for pos in sample(&csv, "KQvKR", 200) {
        let _ = tb.probe(&pos);
        let _ = tb.probe_wdl_search(&pos);
        let _ = tb.root_move(&pos);
    }
}

fn knightfall(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(args)
        .env_remove("SYZYGY_PATH")
        .output()
        .unwrap()
}

#[test]
fn cli_probe_prints_wdl_and_dtz() {
    let Some(dir) = shared("syzygy") else {
        return;
    };
    let dir = dir.to_str().unwrap();
    let out = knightfall(&[
        "tb",
        "probe",
        "--syzygy",
        dir,
        "8/8/3k4/8/7q/r7/R7/1K6 b - -",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "wdl 2 dtz 1\n");
    let out = knightfall(&[
        "tb",
        "probe",
        "--syzygy",
        dir,
        "B3K2B/8/8/8/8/8/4k3/8 b - -",
    ]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "wdl -2 dtz -33\n");
    // Several directories, the first without tables.
    let two = format!("{}:{dir}", std::env::temp_dir().display());
    let out = knightfall(&[
        "tb",
        "probe",
        "--syzygy",
        &two,
        "8/R1KQ4/8/1k6/1r6/8/8/8 b - -",
    ]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "wdl -2 dtz -4\n");
    // With --moves, the best move follows.
    let out = knightfall(&[
        "tb",
        "probe",
        "--moves",
        "--syzygy",
        dir,
        "8/8/3k4/8/7q/r7/R7/1K6 b - -",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().nth(1), Some("a3a2 win dtz 1"), "{text}");

    // A missing table: a clear message and failure.
    let out = knightfall(&[
        "tb",
        "probe",
        "--syzygy",
        dir,
        "3K4/8/3k4/8/4p3/4B3/5P2/8 w - - 0 5",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("table for KBPvKP is missing"), "{err}");
    // No directory given: the built-in tables answer 3-4 pieces and explain the rest.
    let out = knightfall(&["tb", "probe", "8/8/8/4k3/8/8/8/KR6 w - - 0 1"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "wdl 2 dtz 29\n");
    let out = knightfall(&["tb", "probe", "8/8/3k4/8/7q/r7/R7/1K6 b - -"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("5 pieces") && err.contains("--syzygy"),
        "{err}"
    );
    // A directory that is not there: a warning, and the built-in tables still answer.
    let out = knightfall(&[
        "tb",
        "probe",
        "--syzygy",
        "/no/such/dir",
        "8/8/8/4k3/8/8/8/KR6 w - -",
    ]);
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("warning: cannot read Syzygy directory /no/such/dir")
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "wdl 2 dtz 29\n");
}
