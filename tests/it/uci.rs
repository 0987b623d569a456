//! UCI transcripts: the real binary driven through a pipe.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start knightfall");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns everything read, that line last.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no line starting with {prefix:?}; got {seen:#?}"),
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

const WAIT: Duration = Duration::from_secs(20);

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.split_whitespace().nth(1).unwrap().to_string()
}

fn assert_legal(moves: &[&str], best: &str) {
    let mut pos = Chess::default();
    for m in moves {
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    let m = best.parse::<UciMove>().unwrap();
    assert!(m.to_move(&pos).is_ok(), "{best} is not legal");
}

#[test]
fn handshake_and_search() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let lines = e.until("uciok", WAIT);
    assert!(lines[0].starts_with("id name Knightfall"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Move Overhead"))
    );
    e.send("setoption name Hash value 32");
    e.send("setoption name OwnBook value false");
    e.send("isready");
    e.until("readyok", WAIT);
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 6");
    let lines = e.until("bestmove", WAIT);
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")));
    assert_legal(&["e2e4", "e7e5", "g1f3"], &bestmove(&lines));
    e.quit();
}

#[test]
fn plain_binary_speaks_uci_when_piped() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok", WAIT);
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    e.send("go depth 4");
    let lines = e.until("bestmove", WAIT);
    assert!(lines.iter().any(|l| l.contains("score mate 1")));
    assert_eq!(bestmove(&lines), "a1a8");
    e.quit();
}

#[test]
fn garbage_is_reported_and_ignored() {
    let mut e = Engine::start(&["uci"]);
    e.send("hello engine");
    assert!(e.until("info string", WAIT)[0].contains("unknown command"));
    e.send("position fen not/a/fen w - - 0 1");
    assert!(e.until("info string", WAIT)[0].contains("position ignored"));
    e.send("position startpos moves e2e5");
    assert!(e.until("info string", WAIT)[0].contains("e2e5"));
    e.send("go depth banana");
    assert!(e.until("info string", WAIT)[0].contains("depth needs a whole number, not banana"));
    e.send("stop");
    e.until("bestmove", WAIT);
    e.send("setoption name Hash value -5");
    assert!(e.until("info string", WAIT)[0].contains("Hash"));
    e.send("setoption name NoSuchThing value 1");
    assert!(e.until("info string", WAIT)[0].contains("unknown option"));
    // The last position was refused: rather than search one the GUI no longer has, the
    // engine says so and answers no move, held for `go infinite` until `stop`.
    e.send("go depth 3");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("no search: the last position was refused") && l.contains("e2e5")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines), "0000");
    e.send("go infinite");
    e.send("isready");
    assert!(
        !e.until("readyok", WAIT)
            .iter()
            .any(|l| l.starts_with("bestmove"))
    );
    e.send("stop");
    assert_eq!(bestmove(&e.until("bestmove", WAIT)), "0000");
    // A position accepted again is searched: a legal first move.
    e.send("position startpos");
    e.send("go depth 3");
    let best = bestmove(&e.until("bestmove", WAIT));
    assert_legal(&[], &best);
    // So is the start position after `ucinewgame` following a refused one.
    e.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    e.until("info string", WAIT);
    e.send("ucinewgame");
    e.send("go depth 3");
    assert_legal(&[], &bestmove(&e.until("bestmove", WAIT)));
    e.quit();
}

#[test]
fn stale_castling_rights_and_en_passant_squares_are_dropped_like_other_engines_do() {
    let mut e = Engine::start(&["uci"]);
    // Black's rook has left h8 and a8 is empty, and no pawn stands on e4 to be taken en
    // passant, but the GUI still says kq and e3: the position is played without them.
    e.send("position fen 4k1r1/8/8/8/8/8/8/R3K2R b KQkq e3 0 1");
    e.send("go depth 3");
    let lines = e.until("bestmove", WAIT);
    assert!(
        !lines.iter().any(|l| l.contains("position ignored")),
        "{lines:?}"
    );
    let pos = common::position("4k1r1/8/8/8/8/8/8/R3K2R b KQ - 0 1");
    let best: UciMove = bestmove(&lines).parse().unwrap();
    assert!(best.to_move(&pos).is_ok(), "{lines:?}");
    e.quit();
}

#[test]
fn stop_ends_an_infinite_search() {
    let mut e = Engine::start(&["uci"]);
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 3", WAIT);
    thread::sleep(Duration::from_millis(200));
    // Only the stop can end it: an infinite search never answers by itself.
    e.send("stop");
    let lines = e.until("bestmove", WAIT);
    assert_legal(&[], &bestmove(&lines));
    e.quit();
}

#[test]
fn infinite_search_waits_for_stop_even_when_done() {
    let mut e = Engine::start(&["uci"]);
    // Mate in one is found immediately; the answer must still wait for `stop`.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    e.send("go infinite depth 3");
    e.until("info depth 3", WAIT);
    thread::sleep(Duration::from_millis(300));
    assert!(e.lines.try_recv().is_err(), "bestmove before stop");
    e.send("stop");
    assert_eq!(bestmove(&e.until("bestmove", WAIT)), "a1a8");
    e.quit();
}

#[test]
fn clock_search_answers_in_time() {
    let mut e = Engine::start(&["uci"]);
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves d2d4");
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let lines = e.until("bestmove", WAIT);
    // The clock ends the search, and by the engine's own count it spent a small part of it.
    let spent: u64 = last_word_after(&lines, "time").expect("a time in the info lines");
    assert!(spent < 500, "{lines:#?}");
    assert_legal(&["d2d4"], &bestmove(&lines));
    e.quit();
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::start(&["uci"]);
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000");
    thread::sleep(Duration::from_millis(1500));
    // Still pondering: no answer although the time share is long gone.
    assert!(
        e.lines.try_iter().all(|l| !l.starts_with("bestmove")),
        "answered while pondering"
    );
    e.send("ponderhit");
    let lines = e.until("bestmove", WAIT);
    assert_legal(&["e2e4", "e7e5"], &bestmove(&lines));
    e.quit();
}

#[test]
fn checkmated_position_answers_null_move() {
    let mut e = Engine::start(&["uci"]);
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 3");
    assert_eq!(bestmove(&e.until("bestmove", WAIT)), "0000");
    e.quit();
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut e = Engine::start(&["uci"]);
    e.send("isready");
    e.until("readyok", WAIT);
    drop(e.stdin);
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn invalid_utf8_is_ignored() {
    let mut e = Engine::start(&["uci"]);
    e.stdin.write_all(b"\xff\xfe garbage\n").unwrap();
    e.send("isready");
    let lines = e.until("readyok", WAIT);
    assert!(lines.iter().any(|l| l.contains("not valid UTF-8")));
    e.quit();
}

#[test]
fn a_long_move_list_is_accepted() {
    let mut e = Engine::start(&["uci"]);
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    // Knights shuffle back and forth: repetition history of 80 plies.
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for i in 0..80 {
        let uci = cycle[i % 4];
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
        moves.push(uci);
    }
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 5");
    let best = bestmove(&e.until("bestmove", WAIT));
    assert_legal(&moves, &best);
    e.quit();
}

#[test]
fn book_moves_by_default_and_owbook_off() {
    let mut e = Engine::start(&["uci"]);
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:#?}"
    );
    assert_legal(&[], &bestmove(&lines));
    e.send("setoption name OwnBook value false");
    e.send("go depth 4");
    let lines = e.until("bestmove", WAIT);
    assert!(!lines.iter().any(|l| l.contains("book move")));
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")));
    e.send("setoption name BookFile value /no/such/book.bin");
    let line = &e.until("info string", WAIT)[0];
    assert!(
        line.contains("book not loaded") && line.contains("/no/such/book.bin"),
        "{line}"
    );
    e.quit();
}

#[test]
fn tablebase_root_move_and_probes() {
    let Some(dir) = common::shared("syzygy") else {
        return;
    };
    let dir = dir.to_str().unwrap();
    let mut e = Engine::start(&["uci"]);
    e.send(&format!("setoption name SyzygyPath value {dir}"));
    assert!(e.until("info string", WAIT)[0].contains("tablebases:"));
    // KRvK: the root move comes from the tables.
    e.send("position fen 8/8/4k3/8/2K5/3R4/8/8 w - - 0 1");
    e.send("go movetime 1000");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines.iter().any(|l| l.contains("string tb win dtz")),
        "{lines:#?}"
    );
    // Six pieces: the search runs and probes after captures into five-piece positions.
    e.send("position fen 8/8/3k4/8/1r6/3K4/1R1P4/7R b - - 0 1");
    e.send("go depth 8");
    let lines = e.until("bestmove", WAIT);
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:#?}");
    e.quit();
}

#[test]
fn built_in_tablebases_need_no_path() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    e.until("uciok", WAIT);
    // KRvK: the root move comes from the built-in tables, exactly as the tables rank it.
    e.send("position fen 8/8/4k3/8/2K5/3R4/8/8 w - - 0 1");
    e.send("go movetime 1000");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string tb win dtz ")),
        "{lines:#?}"
    );
    // Five pieces: the search probes the 4-piece tables after captures.
    e.send("position fen 8/8/3k4/8/1r6/3K4/1R1P4/8 w - - 0 1");
    e.send("go depth 8");
    let lines = e.until("bestmove", WAIT);
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:#?}");
    // A directory that is not there: a message, and the built-in tables stay.
    e.send("setoption name SyzygyPath value /no/such/dir");
    let line = e
        .until("info string tablebases: cannot", WAIT)
        .pop()
        .unwrap();
    assert!(line.contains("/no/such/dir"), "{line}");
    e.send("position fen 8/8/4k3/8/2K5/3R4/8/8 w - - 0 1");
    e.send("go movetime 1000");
    let lines = e.until("bestmove", WAIT);
    assert!(lines.iter().any(|l| l.contains("string tb win")));
    e.quit();
}

#[test]
fn skill_level_option() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let lines = e.until("uciok", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Skill Level type spin default 10 min 1 max 10")
    );
    e.send("setoption name Skill Level value 11");
    assert!(e.until("info string", WAIT)[0].contains("Skill Level"));
    e.send("setoption name Skill Level value 1");
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves e2e4");
    e.send("go wtime 60000 btime 60000");
    let lines = e.until("bestmove", WAIT);
    // Level 1 looks one ply deep only, however much time it has.
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 2 ")),
        "{lines:#?}"
    );
    assert_legal(&["e2e4"], &bestmove(&lines));
    e.quit();
}

#[test]
fn uci_elo_selects_the_nearest_measured_level() {
    let elo = knightfall::engine::strength::LEVEL_ELO;
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let lines = e.until("uciok", WAIT);
    assert!(lines.iter().any(|l| l
        == &format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            elo[9], elo[0], elo[9]
        )));
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_LimitStrength type check default false")
    );
    e.send(&format!("setoption name UCI_Elo value {}", elo[0] - 1));
    assert!(e.until("info string", WAIT)[0].contains("UCI_Elo must be a number"));
    e.send("setoption name UCI_LimitStrength value maybe");
    assert!(e.until("info string", WAIT)[0].contains("UCI_LimitStrength must be"));
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {}", elo[3] + 1));
    assert_eq!(
        e.until("info string", WAIT).last().unwrap(),
        &format!("info string UCI_Elo {} plays at level 4", elo[3] + 1)
    );
    e.send(&format!("setoption name UCI_Elo value {}", elo[0] + 2));
    assert!(e.until("info string", WAIT)[0].ends_with("plays at level 1"));
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves d2d4");
    e.send("go wtime 60000 btime 60000");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 2 ")),
        "{lines:#?}"
    );
    assert_legal(&["d2d4"], &bestmove(&lines));
    // Limiting strength off again: Skill Level (10, full strength) rules.
    e.send("setoption name UCI_LimitStrength value false");
    e.send("go depth 4");
    let lines = e.until("bestmove", WAIT);
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")));
    e.quit();
}

#[test]
fn test_bots_speak_uci() {
    let mut e = Engine::start(&["uci", "--bot", "greedy"]);
    e.send("uci");
    let lines = e.until("uciok", WAIT);
    assert!(lines[0].ends_with("Greedy bot"), "{lines:#?}");
    e.send("position fen 4k3/2q1p3/8/3N4/8/8/8/4K3 w - - 0 1");
    e.send("go wtime 1000 btime 1000");
    assert_eq!(bestmove(&e.until("bestmove", WAIT)), "d5c7");
    e.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    e.send("go movetime 10");
    assert_eq!(bestmove(&e.until("bestmove", WAIT)), "0000");
    e.quit();

    let mut e = Engine::start(&["uci", "--bot", "random"]);
    e.send("uci");
    assert!(e.until("uciok", WAIT)[0].ends_with("Random bot"));
    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    e.send("stop");
    assert_legal(&["e2e4", "e7e5"], &bestmove(&e.until("bestmove", WAIT)));
    e.quit();
}

impl Engine {
    /// Fails if any line arrives within `d` (the engine must be waiting).
    fn silent_for(&mut self, d: Duration) {
        if let Ok(line) = self.lines.recv_timeout(d) {
            panic!("expected silence, got {line:?}");
        }
    }

    /// Fails if a `bestmove` arrives within `d` (progress reports may).
    fn no_bestmove_for(&mut self, d: Duration) {
        let end = Instant::now() + d;
        while let Ok(line) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            assert!(
                !line.starts_with("bestmove"),
                "answered before stop: {line}"
            );
        }
    }
}

#[test]
fn go_reports_bad_words_and_still_ends() {
    let mut e = Engine::start(&["uci"]);
    e.send("setoption name OwnBook value false");
    e.send("position startpos");
    // searchmoves restricts the root; the rest of the line applies.
    e.send("go searchmoves e2e4 movetime 50");
    let lines = e.until("bestmove", WAIT);
    assert_eq!(bestmove(&lines), "e2e4");
    e.send("go searchmoves a2a3 b2b4 h7h5 depth 5");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l == "info string go: searchmoves: h7h5 is not a legal move here"),
        "{lines:#?}"
    );
    assert!(
        ["a2a3", "b2b4"].contains(&bestmove(&lines).as_str()),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("info depth 5 ")));
    // A malformed number is reported and the search still ends by itself.
    e.send("go movetime 1.5");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines[0].contains("movetime needs a whole number, not 1.5"),
        "{lines:#?}"
    );
    e.send("go depth");
    let lines = e.until("bestmove", WAIT);
    assert!(lines[0].contains("depth needs a number"), "{lines:#?}");
    e.send("go wtime abc btime 100 winc 0 binc 0");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines[0].contains("wtime needs a whole number"),
        "{lines:#?}"
    );
    // Only infinite (and ponder) wait for stop.
    e.send("go infinite");
    e.no_bestmove_for(Duration::from_millis(1500));
    e.send("stop");
    e.until("bestmove", WAIT);
    e.quit();
}

#[test]
fn the_bots_wait_for_stop_on_go_infinite() {
    for bot in ["random", "greedy"] {
        let mut e = Engine::start(&["uci", "--bot", bot]);
        e.send("position startpos");
        e.send("go infinite");
        e.silent_for(Duration::from_millis(300));
        e.send("stop");
        let lines = e.until("bestmove", WAIT);
        assert_legal(&[], &bestmove(&lines));
        e.send("go ponder wtime 1000 btime 1000");
        e.silent_for(Duration::from_millis(200));
        e.send("ponderhit");
        e.until("bestmove", WAIT);
        e.send("go movetime 10");
        e.until("bestmove", WAIT);
        e.quit();
    }
}

#[test]
fn readyok_means_the_new_hash_table_is_in_place() {
    let mut e = Engine::start(&["uci"]);
    e.send("setoption name OwnBook value false");
    e.send("setoption name Hash value 2048");
    e.send("isready");
    e.until("readyok", Duration::from_secs(60));
    // The table's memory is written before readyok, so the first search on a clock pays
    // nothing for it: the process already holds the 2 GB.
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string(format!("/proc/{}/status", e.child.id())).unwrap();
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap();
        assert!(kb >= 2000 * 1024, "{kb} kB resident after readyok");
    }
    e.send("position startpos");
    e.send("go wtime 1000 btime 1000");
    e.until("bestmove", WAIT);
    // An isready during a search is answered while it runs (the search waits for stop).
    e.send("go infinite");
    e.send("isready");
    let lines = e.until("readyok", WAIT);
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    e.until("bestmove", WAIT);
    // Out-of-range sizes are refused with a message.
    e.send("setoption name Hash value 5000");
    assert!(e.until("info string", WAIT)[0].contains("Hash must be a number from 1 to 4096"));
    e.quit();
}

#[test]
fn a_found_mate_ends_the_search_at_a_real_depth() {
    let mut e = Engine::start(&["uci"]);
    e.send("position fen 6k1/8/8/8/r7/1r6/8/7K b - - 0 1");
    // Far longer than the wait for the answer: only the mate found can end the search in time.
    e.send("go movetime 600000");
    let lines = e.until("bestmove", WAIT);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains("score mate 2"), "{last}");
    let depth: u32 = last.split_whitespace().nth(2).unwrap().parse().unwrap();
    let seldepth: u32 = last.split_whitespace().nth(4).unwrap().parse().unwrap();
    assert!(depth <= 12 && seldepth >= depth, "{last}");
    e.quit();
}

/// The `multipv` lines of the last completed depth in `lines`: (k, score words, first move).
/// The number after `word` in the last line that has one.
fn last_word_after(lines: &[String], word: &str) -> Option<u64> {
    lines.iter().rev().find_map(|l| {
        let mut words = l.split_whitespace();
        words.find(|w| *w == word)?;
        words.next()?.parse().ok()
    })
}

fn last_depth_lines(lines: &[String]) -> Vec<(u32, String, String)> {
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    let depth = infos.last().unwrap().split_whitespace().nth(2).unwrap();
    infos
        .iter()
        .filter(|l| l.split_whitespace().nth(2) == Some(depth))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let at = |key: &str| w.iter().position(|x| *x == key).unwrap();
            let k = w[at("multipv") + 1].parse().unwrap();
            let score = format!("{} {}", w[at("score") + 1], w[at("score") + 2]);
            (k, score, w[at("pv") + 1].to_string())
        })
        .collect()
}

#[test]
fn multipv_reports_the_best_lines_with_distinct_first_moves() {
    let mut e = Engine::start(&["uci"]);
    let lines = options(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name MultiPV type spin default 1 min 1 max 64"),
        "{lines:?}"
    );
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4");
    e.send("go depth 7");
    let lines = e.until("bestmove", WAIT);
    let last = last_depth_lines(&lines);
    assert_eq!(
        last.iter().map(|l| l.0).collect::<Vec<_>>(),
        [1, 2, 3],
        "{lines:#?}"
    );
    let firsts: std::collections::HashSet<&String> = last.iter().map(|l| &l.2).collect();
    assert_eq!(firsts.len(), 3, "distinct first moves: {last:?}");
    let cps: Vec<i32> = last
        .iter()
        .map(|l| l.1.strip_prefix("cp ").unwrap().parse().unwrap())
        .collect();
    assert!(cps.windows(2).all(|w| w[0] >= w[1]), "best first: {cps:?}");
    assert_eq!(bestmove(&lines), last[0].2, "bestmove is line 1");

    // A mate in 2 for Black, with 5 lines: the two mating moves lead, scored as mates.
    e.send("setoption name MultiPV value 5");
    e.send("position fen 6k1/8/8/8/r7/1r6/8/7K b - - 0 1");
    e.send("go depth 6");
    let lines = e.until("bestmove", WAIT);
    let last = last_depth_lines(&lines);
    assert_eq!(last.len(), 5, "{lines:#?}");
    assert_eq!(last[0].1, "mate 2");
    assert_eq!(last[1].1, "mate 2");
    let mates: std::collections::HashSet<&str> = [last[0].2.as_str(), last[1].2.as_str()].into();
    assert_eq!(mates, ["a4a2", "b3b2"].into(), "{last:?}");

    // More lines than legal moves: one line per legal move (the king has three).
    e.send("position fen 8/8/8/8/8/5k2/8/4K3 w - - 0 1");
    e.send("go depth 4");
    let lines = e.until("bestmove", WAIT);
    assert_eq!(last_depth_lines(&lines).len(), 3, "{lines:#?}");

    // Out of range is refused and the setting kept.
    e.send("setoption name MultiPV value 0");
    let lines = e.until("info string", WAIT);
    assert_eq!(
        lines.last().unwrap(),
        "info string MultiPV must be a number from 1 to 64"
    );
    e.quit();
}

#[test]
fn threads_go_up_to_the_cores_and_search_together() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    let lines = e.until("uciok", WAIT);
    let option = format!("option name Threads type spin default 1 min 1 max {cores}");
    assert!(lines.contains(&option), "{lines:#?}");
    for bad in ["0".to_string(), (cores + 1).to_string(), "many".to_string()] {
        e.send(&format!("setoption name Threads value {bad}"));
        let lines = e.until("info string", WAIT);
        assert_eq!(
            lines.last().unwrap(),
            &format!("info string Threads must be a number from 1 to {cores} (the cores here)")
        );
    }
    e.send(&format!("setoption name Threads value {cores}"));
    e.send("setoption name OwnBook value false");
    // A clock search (no depth asked) and a stop, each with every thread searching.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
    e.send("go movetime 400");
    let lines = e.until("bestmove", WAIT);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 8 ")),
        "{lines:#?}"
    );
    assert_legal(
        &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"],
        &bestmove(&lines),
    );
    e.send("position startpos moves d2d4");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let lines = e.until("bestmove", WAIT);
    assert_legal(&["d2d4"], &bestmove(&lines));
    // The shared table leaves the answer right: the scholar's mate, Qxf7#.
    e.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    e.send("go depth 4");
    let lines = e.until("bestmove", WAIT);
    assert_eq!(bestmove(&lines), "h5f7");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:#?}"
    );
    e.quit();
}

/// The last `info depth` line's score words and the bestmove of one search.
fn score_and_move(e: &mut Engine, go: &str) -> (String, String) {
    e.send(go);
    if go.contains("infinite") {
        thread::sleep(Duration::from_millis(700));
        e.send("stop");
    }
    let lines = e.until("bestmove", WAIT);
    (last_depth_lines(&lines).remove(0).1, bestmove(&lines))
}

/// The engine's option lines, from the `uci` handshake.
fn options(e: &mut Engine) -> Vec<String> {
    e.send("uci");
    e.until("uciok", WAIT)
}

#[test]
fn contempt_plays_on_in_a_game_and_analysis_calls_a_draw_a_draw() {
    let mut e = Engine::start(&["uci"]);
    let lines = options(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Contempt type spin default 0 min -100 max 100"),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_AnalyseMode type check default false")
    );
    e.send("setoption name OwnBook value false");
    // Black is a little worse and ...Nf6 repeats the position after 1. Nf3 Nf6.
    let repeat = "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3";
    e.send("setoption name Contempt value 0");
    e.send(repeat);
    assert_eq!(
        score_and_move(&mut e, "go depth 8"),
        ("cp 0".to_string(), "g8f6".to_string())
    );
    e.send("setoption name Contempt value 100");
    e.send("ucinewgame");
    e.send(repeat);
    let (score, best) = score_and_move(&mut e, "go depth 8");
    assert_ne!(best, "g8f6", "{score}");
    let cp: i32 = score.strip_prefix("cp ").unwrap().parse().unwrap();
    assert!((-100..0).contains(&cp), "{score}");
    // An analysis keeps the draw: an infinite search, or any search in analysis mode.
    e.send("ucinewgame");
    e.send(repeat);
    assert_eq!(score_and_move(&mut e, "go infinite").1, "g8f6");
    e.send("setoption name UCI_AnalyseMode value true");
    e.send("ucinewgame");
    e.send(repeat);
    assert_eq!(
        score_and_move(&mut e, "go depth 8"),
        ("cp 0".to_string(), "g8f6".to_string())
    );
    e.send("setoption name Contempt value 500");
    e.until(
        "info string Contempt must be a number from -100 to 100",
        WAIT,
    );
    e.send("setoption name UCI_AnalyseMode value perhaps");
    e.until("info string UCI_AnalyseMode must be true or false", WAIT);
    e.quit();
}

#[test]
fn a_line_too_long_is_skipped_and_unknown_commands_are_quoted_briefly() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    e.until("uciok", WAIT);
    // Two megabytes without an end: refused as one line, not held or echoed.
    e.send(&"x".repeat(2 << 20));
    e.send("isready");
    let lines = e.until("readyok", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l == "info string ignoring a line longer than 1048576 bytes"),
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| l.len() < 200), "a long echo");
    e.send(&format!("frobnicate {}", "y".repeat(500)));
    e.send("isready");
    let lines = e.until("readyok", WAIT);
    let quoted = lines
        .iter()
        .find(|l| l.starts_with("info string unknown command: frobnicate"))
        .expect("the unknown command is named");
    assert!(
        quoted.ends_with('…') && quoted.chars().count() < 120,
        "{quoted}"
    );
    // And the engine still plays.
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove", WAIT);
    assert_legal(&[], &bestmove(&lines));
    e.quit();
}

/// The `uci` answer, byte for byte: the option table's listing must not drift. The Threads
/// maximum is the number of cores, and the UCI_Elo range is level 1's and level 10's measured
/// rating.
#[test]
fn the_uci_answer_is_pinned() {
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    let expected = format!(
        "id name Knightfall {version}
id author the Knightfall developers
option name Hash type spin default 16 min 1 max 4096
option name Threads type spin default 1 min 1 max {cores}
option name Move Overhead type spin default 30 min 0 max 5000
option name MultiPV type spin default 1 min 1 max 64
option name Clear Hash type button
option name Ponder type check default false
option name Contempt type spin default 0 min -100 max 100
option name UCI_AnalyseMode type check default false
option name Skill Level type spin default 10 min 1 max 10
option name UCI_LimitStrength type check default false
option name UCI_Elo type spin default 2337 min 963 max 2337
option name OwnBook type check default true
option name BookFile type string default <embedded>
option name SyzygyPath type string default <empty>
option name SyzygyProbeLimit type spin default 7 min 0 max 7
uciok",
        version = env!("CARGO_PKG_VERSION")
    );
    let mut e = Engine::start(&["uci"]);
    assert_eq!(options(&mut e).join("\n"), expected);
    e.quit();
}

/// What `setoption` answers to bad values (and the few good ones that answer), word for word.
#[test]
fn setoption_messages_are_pinned() {
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    let script = [
        (
            "setoption name Hash value 0",
            "Hash must be a number from 1 to 4096",
        ),
        (
            "setoption name Hash",
            "Hash must be a number from 1 to 4096",
        ),
        (
            "setoption name hash value -5",
            "Hash must be a number from 1 to 4096",
        ),
        (
            "setoption name Threads value 0",
            &format!("Threads must be a number from 1 to {cores} (the cores here)"),
        ),
        (
            "setoption name Move Overhead value -0",
            "Move Overhead must be a number from 0 to 5000",
        ),
        (
            "setoption name Move Overhead value 5001",
            "Move Overhead must be a number from 0 to 5000",
        ),
        (
            "setoption name MultiPV value 65",
            "MultiPV must be a number from 1 to 64",
        ),
        (
            "setoption name Contempt value -101",
            "Contempt must be a number from -100 to 100",
        ),
        (
            "setoption name Contempt value 99999999999",
            "Contempt must be a number from -100 to 100",
        ),
        (
            "setoption name UCI_AnalyseMode value yes",
            "UCI_AnalyseMode must be true or false",
        ),
        (
            "setoption name Skill Level value 0",
            "Skill Level must be a number from 1 to 10",
        ),
        ("setoption name UCI_LimitStrength value TRUE", ""),
        (
            "setoption name UCI_Elo value 1500",
            "UCI_Elo 1500 plays at level 6",
        ),
        (
            "setoption name UCI_Elo value 962",
            "UCI_Elo must be a number from 963 to 2337",
        ),
        (
            "setoption name OwnBook value 1",
            "OwnBook must be true or false",
        ),
        (
            "setoption name SyzygyProbeLimit value 8",
            "SyzygyProbeLimit must be a number from 0 to 7",
        ),
        ("setoption name Ponder value banana", ""),
        ("setoption name Clear Hash value x", ""),
        ("setoption   name   Skill   Level   value  5", ""),
        (
            "setoption name Nonsense value 1",
            "unknown option: Nonsense",
        ),
        (
            "setoption value 3",
            "setoption: expected 'setoption name <id> [value <x>]'",
        ),
        (
            "setoption name",
            "setoption: expected 'setoption name <id> [value <x>]'",
        ),
        (
            "setoption name Hash value 1 value 2",
            "Hash must be a number from 1 to 4096",
        ),
    ];
    let mut e = Engine::start(&["uci"]);
    for (line, _) in &script {
        e.send(line);
    }
    e.send("isready");
    let got: Vec<String> = e.until("readyok", WAIT);
    let expected: Vec<String> = script
        .iter()
        .filter(|(_, answer)| !answer.is_empty())
        .map(|(_, answer)| format!("info string {answer}"))
        .chain(["readyok".to_string()])
        .collect();
    assert_eq!(got, expected);
    e.quit();
}
