//! Lichess's puzzle database as the player meets it, the binary run as a process on a home of
//! its own: the sample of lichess's file (`../shared/data/puzzles`) imported once, bad rows
//! named by line, lichess's columns exported back as they came, and `train puzzles --id`
//! refusing an id that is nowhere.

use crate::common::knightfall_at;
use std::path::PathBuf;
use std::process::Command;

use crate::common::shared;

/// The sample of lichess's puzzle database: 100 rows in its layout, DailyDate included.
fn sample() -> Option<PathBuf> {
    shared("data/puzzles/lichess-format-sample.csv")
}

/// The rows of CSV `text`, header first.
fn rows(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[test]
fn the_sample_is_imported_once_and_exported_with_lichess_columns() {
    let Some(sample) = sample() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let (ok, _, err) = knightfall_at(&home, &["puzzles", "export", "--imported"]);
    assert!(!ok);
    assert!(err.contains("no puzzle is imported yet"), "{err}");
    let file = sample.to_str().unwrap();
    let (ok, _, err) = knightfall_at(&home, &["puzzles", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 100, already there 0, refused 0"),
        "{err}"
    );
    assert!(err.contains("holds 100 puzzles"), "{err}");
    // Again: nothing added.
    let (ok, _, err) = knightfall_at(&home, &["puzzles", "import", file]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 0, already there 100, refused 0"),
        "{err}"
    );
    // Back out: lichess's ten columns as the file had them, DailyDate left behind.
    let (ok, out, err) = knightfall_at(&home, &["puzzles", "export", "--imported"]);
    assert!(ok, "{err}");
    let original: Vec<Vec<String>> = rows(&std::fs::read_to_string(&sample).unwrap())
        .into_iter()
        .map(|mut r| {
            r.truncate(10);
            r
        })
        .collect();
    assert_eq!(original[0][9], "OpeningTags");
    assert_eq!(rows(&out), original);
    // Filtered by a theme in words and a rating range.
    let (ok, out, err) = knightfall_at(
        &home,
        &[
            "puzzles",
            "export",
            "--imported",
            "--theme",
            "kingside attack",
            "--rating",
            "500-1000",
        ],
    );
    assert!(ok, "{err}");
    let wanted: Vec<&Vec<String>> = original[1..]
        .iter()
        .filter(|r| r[7].split(' ').any(|t| t == "kingsideAttack"))
        .filter(|r| (500..=1000).contains(&r[3].parse::<i32>().unwrap()))
        .collect();
    let got = rows(&out);
    assert!(!wanted.is_empty());
    assert_eq!(got.len(), wanted.len() + 1, "{out}");
    assert!(got[1..].iter().zip(wanted).all(|(a, b)| a == b), "{out}");
    let (ok, _, err) = knightfall_at(
        &home,
        &["puzzles", "export", "--imported", "--theme", "nonsense"],
    );
    assert!(!ok);
    assert!(err.contains("kingsideAttack"), "{err}");
}

#[test]
fn a_compressed_file_is_imported_as_its_text() {
    let Some(sample) = sample() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let packed = tmp.path().join("lichess_db_puzzle.csv.zst");
    let text = std::fs::read(&sample).unwrap();
    std::fs::write(&packed, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
    let (ok, _, err) = knightfall_at(&home, &["puzzles", "import", packed.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 100, already there 0, refused 0"),
        "{err}"
    );
}

#[test]
fn bad_rows_are_named_by_line_and_the_rest_imported() {
    let Some(sample) = sample() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let text = std::fs::read_to_string(&sample).unwrap();
    let mut lines: Vec<String> = text.lines().take(6).map(str::to_string).collect();
    // Line 3: a move that is not legal; line 4: a position that is not one; line 5: a rating
    // that is no number.
    lines[2] = lines[2].replacen("a5b6 h7h6", "a5b6 h7h9", 1);
    lines[3] = lines[3].replacen("r4rk1/", "r4rkk1/", 1);
    lines[4] = lines[4].replacen(",620,", ",six hundred,", 1);
    let file = tmp.path().join("bad.csv");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let (ok, _, err) = knightfall_at(&home, &["puzzles", "import", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        err.contains("imported 2, already there 0, refused 3"),
        "{err}"
    );
    assert!(
        err.contains("bad.csv line 3: puzzle 09mGO: h7h9 is not a legal move"),
        "{err}"
    );
    assert!(err.contains("bad.csv line 4: puzzle 09mHi: "), "{err}");
    assert!(
        err.contains("bad.csv line 5: Rating \"six hundred\" is not a number"),
        "{err}"
    );
}

#[test]
fn a_file_without_a_column_a_puzzle_needs_is_refused_with_the_columns_named() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let file = tmp.path().join("short.csv");
    std::fs::write(
        &file,
        "PuzzleId,FEN,Rating,Themes\nx1,8/8/8/8/8/8/8/K6k w - - 0 1,1500,endgame\n",
    )
    .unwrap();
    let (ok, _, err) = knightfall_at(&home, &["puzzles", "import", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("refused 1"), "{err}");
    assert!(
        err.contains("is not lichess's puzzle database: the header has no Moves column"),
        "{err}"
    );
}

#[test]
fn two_imports_at_once_keep_every_puzzle() {
    let Some(sample) = sample() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let text = std::fs::read_to_string(&sample).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let files: Vec<PathBuf> = [&lines[1..51], &lines[51..]]
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let file = tmp.path().join(format!("part{i}.csv"));
            std::fs::write(&file, format!("{}\n{}\n", lines[0], part.join("\n"))).unwrap();
            file
        })
        .collect();
    let spawned: Vec<_> = files
        .iter()
        .map(|f| {
            Command::new(env!("CARGO_BIN_EXE_knightfall"))
                .args(["puzzles", "import"])
                .arg(f)
                .env("KNIGHTFALL_HOME", &home)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in spawned {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(err.contains("imported 50, already there 0"), "{err}");
    }
    let (ok, out, _) = knightfall_at(&home, &["puzzles", "export", "--imported"]);
    assert!(ok);
    assert_eq!(rows(&out).len(), 101);
}

#[test]
fn train_refuses_an_id_that_is_neither_built_in_nor_imported() {
    let Some(sample) = sample() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let (ok, _, err) = knightfall_at(&home, &["train", "puzzles", "--id", "09lz3"]);
    assert!(!ok);
    assert!(
        err.contains("no puzzle \"09lz3\" in the built-in set nor among the imported ones"),
        "{err}"
    );
    // No library is made just to look.
    assert!(!home.join("library.sqlite").exists());
    let (ok, _, err) = knightfall_at(&home, &["puzzles", "import", sample.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, _, err) = knightfall_at(&home, &["train", "puzzles", "--id", "nope1"]);
    assert!(!ok);
    assert!(err.contains("no puzzle \"nope1\""), "{err}");
}
