//! End to end in a pseudo-terminal: the real binary draws its first frame, takes `e2e4`, the
//! engine replies, `undo` takes both moves back, `quit` leaves, and the terminal is back in
//! cooked mode with echo (checked with `stty` in the same terminal after the program exits).
//! A second run ends the game with SIGTERM and checks the same. Other runs read the screen as a
//! terminal shows it (through a VT100 emulator): the level's depth and nodes in the analysis
//! panel, tablebase hits, the engine opening as White, and an external engine killed mid-game.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use common::{Fake, FakeEngine, alive, gone_within};
use knightfall::game::Game;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

use crate::common;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const ROWS: u16 = 32;
const COLS: u16 = 100;

pub(crate) struct Session {
    output: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    pub(crate) child: Box<dyn portable_pty::Child + Send + Sync>,
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

pub(crate) fn start(home: &Path, script: &str) -> Session {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new("sh");
    cmd.args(["-c", script]);
    cmd.env("KNIGHTFALL_BIN", env!("CARGO_BIN_EXE_knightfall"));
    cmd.env("KNIGHTFALL_HOME", home);
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("NO_COLOR");
    let child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let writer = pair.master.take_writer().unwrap();
    let output = Arc::new(Mutex::new(Vec::new()));
    let sink = output.clone();
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    Session {
        output,
        writer,
        child,
        _master: pair.master,
    }
}

impl Session {
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// The screen as the terminal shows it now.
    pub(crate) fn screen(&self) -> String {
        let size = |n: u16| std::num::NonZero::new(n).unwrap();
        let mut parser = vt100::Parser::new(size(ROWS), size(COLS), 0);
        parser.process(&self.output.lock().unwrap());
        parser.screen().contents()
    }

    pub(crate) fn wait_for_screen(
        &self,
        what: &str,
        secs: u64,
        cond: impl Fn(&str) -> bool,
    ) -> String {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.screen();
            if cond(&screen) {
                return screen;
            }
            if Instant::now() > end {
                panic!("timed out waiting for {what}; screen:\n{screen}");
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    pub(crate) fn wait_for(&self, what: &str, secs: u64, cond: impl Fn(&Session) -> bool) {
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            if cond(self) {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
        panic!("timed out waiting for {what}; output:\n{}", self.text());
    }

    pub(crate) fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }
}

fn saved_plies(home: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(home.join("games/current.pgn")).ok()?;
    Game::from_pgn(&text).ok().map(|g| g.ply())
}

pub(crate) fn temp_home(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("knightfall-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) const STTY_AFTER: &str = "; RC=$?; echo; echo EXIT=$RC; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; echo DONE";

#[test]
fn play_reply_undo_quit_restores_terminal() {
    let home = temp_home("play");
    let script = format!(
        "\"$KNIGHTFALL_BIN\" play --white human --black engine --think-ms 200 --tc none --no-book{STTY_AFTER}"
    );
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e2e4\r");
    s.wait_for("the engine's reply", 20, |_| saved_plies(&home) == Some(2));
    s.send(b"undo\r");
    // With every move taken back the autosave holds nothing to resume.
    s.wait_for("the undo", 10, |_| !home.join("games/current.pgn").exists());
    s.send(b"quit\r");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let out = s.text();
    assert!(out.contains("EXIT=0"), "{out}");
    assert!(out.contains("icanon echo"), "terminal not restored: {out}");
    assert!(out.contains("\x1b[?1049l"), "alternate screen not left");
    assert!(s.child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn sigterm_and_sigquit_restore_terminal_and_keep_the_game() {
    for signal in ["-TERM", "-QUIT"] {
        let home = temp_home(&format!("term{signal}"));
        let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
        let mut s = start(&home, &script);
        s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
        s.send(b"d2d4\r");
        s.wait_for("the move", 10, |_| saved_plies(&home) == Some(1));
        let pid = s.child.process_id().unwrap();
        // The shell's only child is the game.
        let status = std::process::Command::new("pkill")
            .args([signal, "-P", &pid.to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
        let out = s.text();
        assert!(
            out.contains("icanon echo"),
            "{signal}: terminal not restored: {out}"
        );
        assert!(out.contains("EXIT=0"), "{signal}: {out}");
        assert_eq!(saved_plies(&home), Some(1));
        assert_eq!(archived(&home).len(), 1, "{signal}: the game is kept");
        let _ = std::fs::remove_dir_all(&home);
    }
}

#[test]
fn ctrl_c_quits_and_restores_terminal() {
    let home = temp_home("ctrlc");
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e4\r");
    s.wait_for("the move", 10, |_| saved_plies(&home) == Some(1));
    s.send(b"\x03");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let out = s.text();
    assert!(out.contains("EXIT=0"), "{out}");
    assert!(out.contains("icanon echo"), "terminal not restored: {out}");
    assert!(out.contains("Game saved to"), "{out}");
    let _ = std::fs::remove_dir_all(&home);
}

/// The number after `label` on the screen (`Positions 26`, `Tables 1.2k` read as 1200).
fn figure(screen: &str, label: &str) -> Option<u64> {
    let at = screen.find(label)? + label.len();
    let word: String = screen[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == 'k' || *c == 'M')
        .collect();
    let (num, scale) = match word.strip_suffix('k') {
        Some(n) => (n, 1e3),
        None => match word.strip_suffix('M') {
            Some(n) => (n, 1e6),
            None => (word.as_str(), 1.0),
        },
    };
    num.parse::<f64>().ok().map(|n| (n * scale) as u64)
}

/// The review cache's files of positions (`games/reviews/*.tsv`).
fn cache_files(home: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(home.join("games/reviews"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
                .collect()
        })
        .unwrap_or_default()
}

fn saved_pgn(home: &Path) -> String {
    std::fs::read_to_string(home.join("games/current.pgn")).unwrap_or_default()
}

#[test]
fn level_one_replies_from_a_depth_one_search_on_screen() {
    let home = temp_home("level1");
    let script = format!(
        "\"$KNIGHTFALL_BIN\" play --white human --black engine --level 1 --no-book --tc none{STTY_AFTER}"
    );
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e2e4\r");
    s.wait_for("the engine's reply", 20, |_| saved_plies(&home) == Some(2));
    let screen = s.wait_for_screen("the panel", 10, |sc| sc.contains("Engine depth 1 "));
    let nodes = figure(&screen, "Positions ").expect("nodes on the panel");
    assert!((1..=400).contains(&nodes), "{nodes} nodes:\n{screen}");
    assert!(saved_pgn(&home).contains("[Black \"Knightfall 0.1.0 (level 1)\"]"));
    // A hint is a search of its own in the same panel (its level is checked in
    // tests/it/tui_worker.rs; how deep a timed search gets depends on the machine).
    s.send(b"hint\r");
    s.wait_for_screen("the hint", 20, |sc| sc.contains("Hint: "));
    s.send(b"quit\r");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn naming_black_human_makes_the_engine_open_as_white() {
    let home = temp_home("black");
    let script = format!("\"$KNIGHTFALL_BIN\" play --black human --level 3{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the engine's first move", 20, |_| {
        saved_plies(&home) == Some(1)
    });
    let pgn = saved_pgn(&home);
    assert!(
        pgn.contains("[White \"Knightfall 0.1.0 (level 3)\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Black \"Human\"]"), "{pgn}");
    s.wait_for_screen("Black to move", 10, |sc| sc.contains("Black to move"));
    s.send(b"quit\r");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_panel_shows_tablebase_hits_from_inside_the_search() {
    let home = temp_home("tb");
    // Five pieces, no tables given: the built-in 4-piece tables answer after every capture.
    let script = format!(
        "\"$KNIGHTFALL_BIN\" play --white engine --black human --level 10 --think-ms 1500 --tc none --fen '8/8/3k4/8/1r6/3K4/1R1P4/8 w - - 0 1'{STTY_AFTER}"
    );
    let mut s = start(&home, &script);
    s.wait_for("the engine's move", 20, |_| saved_plies(&home) == Some(1));
    let screen = s.wait_for_screen("tablebase hits", 10, |sc| sc.contains("Tables "));
    assert!(figure(&screen, "Tables ").unwrap() > 0, "{screen}");
    assert!(screen.contains("From its search"), "{screen}");
    s.send(b"quit\r");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn killing_an_external_engine_mid_game_ends_the_game_with_a_message() {
    let home = temp_home("external");
    // The opponent is another process speaking UCI (Knightfall itself, thinking 5 s a move),
    // in a position out of its book.
    let script = format!(
        "\"$KNIGHTFALL_BIN\" play --white human --black \"uci:$KNIGHTFALL_BIN uci\" --think-ms 5000 --tc none --fen '{KIWIPETE}'{STTY_AFTER}"
    );
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"a2a3\r");
    let screen = s.wait_for_screen("its thinking", 20, |sc| {
        sc.contains("thinking for Black") && figure(sc, "Positions ").is_some_and(|n| n > 0)
    });
    assert!(
        screen.contains("Line 1..."),
        "its PV in the panel:\n{screen}"
    );
    assert_eq!(saved_plies(&home), Some(1));
    let engine = format!("{} uci", env!("CARGO_BIN_EXE_knightfall"));
    let killed = std::process::Command::new("pkill")
        .args(["-KILL", "-f", "-x", &engine])
        .status()
        .unwrap();
    assert!(killed.success(), "no external engine process to kill");
    let screen = s.wait_for_screen("the forfeit", 20, |sc| sc.contains("forfeits"));
    assert!(
        screen.contains("Black forfeits: knightfall exited"),
        "{screen}"
    );
    assert!(screen.contains("White wins"), "{screen}");
    let pgn = saved_pgn(&home);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        pgn.contains("[Termination \"White won by forfeit (engine failure)\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("{Black forfeits: knightfall exited (signal: 9"),
        "{pgn}"
    );
    s.send(b"n");
    s.send(b"quit\r");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_watch_delay_costs_the_players_no_clock_time() {
    let home = temp_home("watchclock");
    // The README's example: one minute each, and the default 800 ms between moves on screen.
    let script = format!("\"$KNIGHTFALL_BIN\" watch --tc 1+0{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("four moves", 30, |_| {
        saved_plies(&home).is_some_and(|n| n >= 4)
    });
    let pgn = saved_pgn(&home);
    // Book moves take no thinking time: every clock still shows a full minute (or nearly).
    let clocks: Vec<&str> = pgn.split("[%clk ").skip(1).take(4).collect();
    assert_eq!(clocks.len(), 4, "{pgn}");
    for c in clocks {
        assert!(
            c.starts_with("0:01:00") || c.starts_with("0:00:59.9") || c.starts_with("0:00:59.8"),
            "a move cost the delay: {pgn}"
        );
    }
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

/// The archived games (every PGN in the games folder but the autosave).
pub(crate) fn archived(home: &Path) -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(home.join("games"))
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| {
        let name = p.file_name().unwrap().to_string_lossy();
        p.extension().is_some_and(|e| e == "pgn") && !name.starts_with("current")
    });
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn every_game_that_ends_is_kept_the_moment_it_ends() {
    let home = temp_home("archive");
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    for m in ["f3", "e5", "g4", "Qh4"] {
        s.send(format!("{m}\r").as_bytes());
    }
    s.wait_for_screen("the mate", 10, |sc| sc.contains("Play again"));
    // Already on disk, before anything else happens.
    let games = archived(&home);
    assert_eq!(games.len(), 1, "{games:?}");
    assert!(games[0].contains("[Result \"0-1\"]"), "{}", games[0]);
    assert!(
        games[0].contains("[Termination \"Black won by checkmate\"]"),
        "{}",
        games[0]
    );
    assert!(games[0].contains("2. g4 Qh4# 0-1"), "{}", games[0]);
    // The opening, named by lichess's table.
    assert!(games[0].contains("[ECO \"A00\"]"), "{}", games[0]);
    assert!(
        games[0].contains("[Opening \"Barnes Opening: Fool's Mate\"]"),
        "{}",
        games[0]
    );
    // Play again: the next game's moves do not touch the finished one.
    s.send(b"y");
    s.send(b"e4\r");
    s.wait_for("the new game's move", 10, |_| saved_plies(&home) == Some(1));
    s.send(b"resign\r");
    s.wait_for_screen("the question", 10, |sc| {
        sc.contains("Resign this game? (y/n)")
    });
    s.send(b"y");
    s.wait_for_screen("the resignation", 10, |sc| sc.contains("resignation"));
    s.send(b"n");
    s.send(b"quit\r");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let games = archived(&home);
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games.iter().any(|g| g.contains("2. g4 Qh4# 0-1")));
    let second = games
        .iter()
        .find(|g| g.contains("1. e4"))
        .expect("the second game");
    assert!(
        second.contains("[Termination \"White won by resignation\"]")
            || second.contains("[Termination \"Black won by resignation\"]"),
        "{second}"
    );
    assert!(
        second.contains("[Opening \"King's Pawn Game\"]"),
        "{second}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_damaged_autosave_is_kept_aside_not_overwritten() {
    let home = temp_home("damaged");
    std::fs::create_dir_all(home.join("games")).unwrap();
    // White's king cannot reach e3 in one move.
    let damaged = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 Kd6 *\n";
    std::fs::write(home.join("games/current.pgn"), damaged).unwrap();
    let aside = |home: &Path| -> Vec<String> {
        std::fs::read_dir(home.join("games"))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("current-damaged-"))
            .collect()
    };
    // --resume says what is wrong and where the file went.
    let script = format!("\"$KNIGHTFALL_BIN\" play --resume{STTY_AFTER}");
    let s = start(&home, &script);
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let out = s.text();
    assert!(
        out.contains("cannot be read") && out.contains("current-damaged-"),
        "{out}"
    );
    assert!(out.contains("EXIT=1"), "{out}");
    let kept = aside(&home);
    assert_eq!(kept.len(), 1);
    let path = home.join("games").join(&kept[0]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
    // A new game says so too and autosaves beside it.
    std::fs::write(home.join("games/current.pgn"), damaged).unwrap();
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("the warning", 20, |sc| sc.contains("could not be read"));
    s.send(b"d4\r");
    s.wait_for("the autosave", 10, |_| saved_plies(&home) == Some(1));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(!aside(&home).is_empty());
    for name in aside(&home) {
        let text = std::fs::read_to_string(home.join("games").join(name)).unwrap();
        assert_eq!(text, damaged);
    }
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn save_refuses_to_replace_what_is_not_a_game_and_leaves_no_tmp() {
    let home = temp_home("save");
    let notes = home.join("notes.txt");
    std::fs::write(&notes, "my notes").unwrap();
    // The autosave slot is a directory: every autosave fails, and must leave nothing behind.
    std::fs::create_dir_all(home.join("games/current.pgn")).unwrap();
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e4\r");
    s.wait_for_screen("the failed autosave", 10, |sc| {
        sc.contains("Autosave failed")
    });
    s.send(format!("save {}\r", notes.display()).as_bytes());
    s.wait_for_screen("the refusal", 10, |sc| sc.contains("is not a PGN game"));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
    // A file that starts with a bracket is not a game either: an INI or TOML section.
    let ini = home.join("tools.ini");
    std::fs::write(&ini, "[engines]\n").unwrap();
    s.send(format!("save {}\r", ini.display()).as_bytes());
    s.wait_for_screen("the second refusal", 10, |sc| {
        sc.contains("tools.ini exists and is not a PGN game")
    });
    assert_eq!(std::fs::read_to_string(&ini).unwrap(), "[engines]\n");
    let game = home.join("game.pgn");
    s.send(format!("save {}\r", game.display()).as_bytes());
    s.wait_for_screen("the save", 10, |sc| sc.contains("Saved to"));
    assert!(std::fs::read_to_string(&game).unwrap().contains("1. e4 *"));
    // Saving again over one's own game is fine.
    s.send(b"e5\r");
    s.send(format!("save {}\r", game.display()).as_bytes());
    s.wait_for("the second save", 10, |_| {
        std::fs::read_to_string(&game).is_ok_and(|t| t.contains("1. e4 e5 *"))
    });
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let leftovers: Vec<_> = walk(&home)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&home);
}

/// Every file below `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Runs Knightfall with the given arguments in a 32x100 terminal that Python's `pty` module
/// opens, types what it is given once the screen is up, then closes the terminal (SIGHUP, and
/// every later write fails) and prints the program's exit code.
const HANG_UP: &str = r#"
import fcntl, os, pty, select, struct, sys, termios, time
binary, home, keys, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.environ["KNIGHTFALL_HOME"] = home
    os.environ["TERM"] = "xterm-256color"
    os.execv(binary, [binary] + args)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
def drain(secs):
    out, end = b"", time.time() + secs
    while time.time() < end:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out
seen, end = b"", time.time() + 20
while b"help" not in seen and time.time() < end:
    seen += drain(0.1)
os.write(fd, keys.encode())
time.sleep(1)
drain(0.3)
os.close(fd)
print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"#;

/// The exit code of Knightfall run with `args` in a terminal closed after `keys`.
fn hang_up(home: &Path, keys: &str, args: &[&str]) -> Option<String> {
    let ran = std::process::Command::new("python3")
        .args(["-c", HANG_UP, env!("CARGO_BIN_EXE_knightfall")])
        .arg(home)
        .arg(keys)
        .args(args)
        .output();
    let Ok(out) = ran else {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(!ci, "python3 is needed for this test");
        eprintln!("skipping: no python3");
        return None;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn closing_the_terminal_exits_cleanly_and_keeps_the_game() {
    let home = temp_home("hup");
    // During a game: the game is kept, and the goodbye line to a closed terminal is no panic.
    let args = ["play", "--white", "human", "--black", "human"];
    let Some(code) = hang_up(&home, "d4\r", &args) else {
        return;
    };
    assert_eq!(code, "0");
    assert!(archived(&home).iter().any(|g| g.contains("1. d4 *")));
    // On the new-game screen (no cursor shown): the terminal's clean-up says nothing either.
    assert_eq!(
        hang_up(&home, "", &["play", "--setup"]).as_deref(),
        Some("0")
    );
    // On the board after two moves: its lines are saved, and saying so to a closed terminal is
    // no panic either.
    assert_eq!(hang_up(&home, "e4\re5\r", &["board"]).as_deref(), Some("0"));
    let saved = std::fs::read_dir(home.join("games"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("analysis-"))
        .count();
    assert_eq!(saved, 1);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn two_running_games_keep_separate_autosaves() {
    let home = temp_home("two");
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut first = start(&home, &script);
    first.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    first.send(b"d4\r");
    first.wait_for("the first autosave", 10, |_| saved_plies(&home) == Some(1));
    let mut second = start(&home, &script);
    second.wait_for_screen("the warning", 20, |sc| {
        sc.contains("The autosave is held (process")
    });
    second.send(b"e4\r");
    second.send(b"e5\r");
    let own = |home: &Path| -> Option<String> {
        std::fs::read_dir(home.join("games"))
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .find(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.starts_with("current-")
                    && name.ends_with(".pgn")
                    && !name.starts_with("current-damaged")
            })
            .and_then(|p| std::fs::read_to_string(p).ok())
    };
    second.wait_for("the second autosave", 10, |_| {
        own(&home).is_some_and(|t| t.contains("1. e4 e5"))
    });
    // The first game's autosave is untouched by the second game.
    first.send(b"Nf6\r");
    first.wait_for("the first game's move", 10, |_| {
        saved_plies(&home) == Some(2)
    });
    assert!(
        saved_pgn(&home).contains("1. d4 Nf6"),
        "{}",
        saved_pgn(&home)
    );
    for s in [&mut first, &mut second] {
        s.send(b"\x11");
        s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    }
    let games = archived(&home);
    assert!(games.iter().any(|g| g.contains("1. d4 Nf6")), "{games:?}");
    assert!(games.iter().any(|g| g.contains("1. e4 e5")), "{games:?}");
    // The lock went with its game: a third Knightfall has current.pgn again.
    let mut third = start(&home, &script);
    let screen = third.wait_for_screen("the third game", 20, |sc| sc.contains("move>"));
    assert!(!screen.contains("autosave is held"), "{screen}");
    third.send(b"\x11");
    third.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn planted_links_are_not_followed_and_a_stale_lock_holds_nothing() {
    let home = temp_home("links");
    let games = home.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let victim = home.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, games.join("current.pgn.tmp")).unwrap();
    // A lock file naming a live process that is not a Knightfall (process 1) holds nothing.
    std::fs::write(games.join("current.lock"), "1\n").unwrap();
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
    assert!(!screen.contains("autosave is held"), "{screen}");
    s.send(b"e4\r");
    s.wait_for("the autosave", 10, |_| saved_plies(&home) == Some(1));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    // A link planted as the lock is not followed either: the game keeps an autosave of its own.
    std::fs::remove_file(games.join("current.lock")).unwrap();
    std::os::unix::fs::symlink(&victim, games.join("current.lock")).unwrap();
    let mut s = start(&home, &script);
    s.wait_for_screen("the warning", 20, |sc| sc.contains("cannot be used"));
    s.send(b"d4\r");
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let _ = std::fs::remove_dir_all(&home);
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_fifo_or_a_device_planted_as_an_autosave_neither_blocks_nor_fills_the_memory() {
    let home = temp_home("fifo");
    let games = home.join("games");
    std::fs::create_dir_all(&games).unwrap();
    // The autosave a FIFO (opening it for reading waits for a writer for ever), the autosave of
    // a Knightfall that is gone a link to an endless device, and its lock free.
    mkfifo(&games.join("current.pgn"));
    let gone = games.join("current-999999999.pgn");
    std::os::unix::fs::symlink("/dev/zero", &gone).unwrap();
    let script =
        format!("\"$KNIGHTFALL_BIN\" play --setup --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the new-game screen", 20, |sc| sc.contains("New game"));
    assert!(!screen.contains("resume"), "{screen}");
    s.send(b"\r");
    s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
    s.send(b"e4\r");
    // The game autosaves in place of the FIFO, which it replaces rather than writes into.
    s.wait_for("the autosave", 10, |_| saved_plies(&home) == Some(1));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    assert!(
        std::fs::symlink_metadata(&gone).unwrap().is_symlink(),
        "the link is left as it was"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_crashed_game_whose_process_id_was_given_again_is_still_offered() {
    let home = temp_home("reused-pid");
    let games = home.join("games");
    std::fs::create_dir_all(&games).unwrap();
    // A Knightfall that ran beside another crashed; its process id now belongs to a live
    // process (this test's own). Its lock is free: the game is offered.
    let pid = std::process::id();
    std::fs::write(
        games.join(format!("current-{pid}.pgn")),
        "[White \"Crashed\"]\n[Black \"C\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n",
    )
    .unwrap();
    std::fs::write(
        games.join(format!("current-{pid}.lock")),
        format!("{pid}\n"),
    )
    .unwrap();
    let script =
        format!("\"$KNIGHTFALL_BIN\" play --setup --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the offer", 20, |sc| sc.contains("New game"));
    assert!(screen.contains("Crashed vs C"), "{screen}");
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    // A game another running Knightfall holds is not offered: its lock is taken.
    let holder = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut first = start(&home, &holder);
    first.wait_for_screen("the first game", 20, |sc| sc.contains("move>"));
    let mut second = start(&home, &holder);
    second.wait_for_screen("the second game", 20, |sc| {
        sc.contains("The autosave is held")
    });
    second.send(b"d4\r");
    let own = |home: &Path| {
        std::fs::read_dir(home.join("games"))
            .unwrap()
            .filter_map(|e| e.ok())
            .any(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.starts_with("current-") && n.ends_with(".pgn") && !n.contains(&pid.to_string())
            })
    };
    second.wait_for("the second autosave", 10, |_| own(&home));
    let mut third = start(&home, &script);
    let screen = third.wait_for_screen("the offer", 20, |sc| sc.contains("New game"));
    assert!(!screen.contains("1. d4"), "{screen}");
    assert!(!screen.contains("move 1,"), "{screen}");
    for s in [&mut third, &mut second, &mut first] {
        s.send(b"\x11");
        s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    }
    // The second game was kept in the archive and its autosave and lock were put away.
    let left: Vec<String> = std::fs::read_dir(&games)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("current-") && !n.contains(&pid.to_string()))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&home);
}

/// `screen` with its words one space apart: a message line wraps where its length puts the
/// words.
fn flat(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn review_screen_fills_in_and_steps_to_the_blunders() {
    let home = temp_home("review");
    let pgn = home.join("shilling.pgn");
    std::fs::write(
        &pgn,
        "[White \"Victim\"]\n[Black \"Trapper\"]\n[Result \"0-1\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1\n",
    )
    .unwrap();
    let script = format!(
        "\"$KNIGHTFALL_BIN\" review {} --movetime 100{STTY_AFTER}",
        pgn.display()
    );
    let mut s = start(&home, &script);
    // The search fills the screen in: accuracy for both sides once every position is known.
    let screen = s.wait_for_screen("the finished review", 30, |sc| {
        sc.contains("accuracy; 100 ms a position") && sc.contains('%')
    });
    assert!(screen.contains("Victim - Trapper"), "{screen}");
    assert!(
        screen.contains("Nxf7??"),
        "the blunder marked in the list:\n{screen}"
    );
    // n jumps to the first flagged move; its verdict and the better move are shown ("Bxf7+
    // was best (b shows it): ..."), or only the key when the reason names the move ("misses
    // 3... Nf6, which ... (b shows it)"): which move is flagged first hangs on a timed search.
    s.send(b"n");
    s.wait_for_screen("the first flagged move", 10, |sc| {
        flat(sc).contains("(b shows it)")
    });
    // b shows the engine's move on the board instead; b again goes back.
    s.send(b"b");
    s.wait_for_screen("the better move on the board", 10, |sc| {
        flat(sc).contains("The board shows")
    });
    s.send(b"\x1b[F");
    let screen = s.wait_for_screen("the last move", 10, |sc| sc.contains("Nf3#"));
    // A click on the graph's left edge goes to the start (SGR mouse report, 1-based).
    let (row, line) = screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("┌ Evaluation"))
        .expect("the graph");
    let col = line.chars().position(|c| c == '┌').unwrap() + 1;
    s.send(format!("\x1b[<0;{};{}M", col + 1, row + 3).as_bytes());
    // The start says the game in short: the turning point and each side's accuracy.
    s.wait_for_screen("the start", 10, |sc| {
        sc.contains("until") && sc.contains("Accuracy: White")
    });
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let text = s.text();
    assert!(text.contains("EXIT=0"), "{text}");
    assert!(text.contains("icanon") && text.contains("echo"), "{text}");
    // The review was cached for next time, with a note of its time per position (not the
    // default), by which the training list finds it.
    let cached = cache_files(&home);
    assert_eq!(cached.len(), 1, "{cached:?}");
    let notes = std::fs::read_dir(home.join("games/reviews"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "latest"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect::<Vec<_>>();
    assert_eq!(notes, ["100\n"]);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_review_the_command_wrote_opens_on_the_screen_without_a_search() {
    let home = temp_home("review-cli");
    let pgn = home.join("shilling.pgn");
    std::fs::write(
        &pgn,
        "[White \"Victim\"]\n[Black \"Trapper\"]\n[Result \"0-1\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1\n",
    )
    .unwrap();
    let review = |out: &str, fail: bool, time: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_knightfall"));
        cmd.arg("review")
            .arg(&pgn)
            .args(time)
            .arg("--out")
            .arg(home.join(out))
            .env("KNIGHTFALL_HOME", &home);
        if fail {
            cmd.env("KNIGHTFALL_FAIL_SEARCH", "1");
        }
        cmd.output().unwrap()
    };
    // The command reviews the game into a file, at a time per position of the player's.
    let first = review("annotated.pgn", false, &["--movetime", "30"]);
    assert!(first.status.success(), "{first:?}");
    // The screen opens it at the default time with every search made to fail: the review comes
    // whole from the cache, at the time it was made, and nothing is searched.
    let script = format!(
        "KNIGHTFALL_FAIL_SEARCH=1 \"$KNIGHTFALL_BIN\" review {}{STTY_AFTER}",
        pgn.display()
    );
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the review from the cache", 10, |sc| {
        sc.contains("accuracy; 30 ms a position") && sc.contains("Nxf7??")
    });
    assert!(!screen.contains("failed"), "{screen}");
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    // Kept once, under the time it was made at, not again under the default.
    assert_eq!(cache_files(&home).len(), 1, "{:?}", cache_files(&home));
    // The command again, at the default time, searches nothing either: the same game back.
    let again = review("again.pgn", true, &[]);
    assert!(
        again.status.success() && again.stderr.is_empty(),
        "{again:?}"
    );
    assert_eq!(
        std::fs::read_to_string(home.join("again.pgn")).unwrap(),
        std::fs::read_to_string(home.join("annotated.pgn")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn review_game_n_opens_the_nth_game_of_the_games_folder_list() {
    let home = temp_home("review-n");
    let games = home.join("games");
    std::fs::create_dir_all(&games).unwrap();
    // Newest first, as `review` lists them: Third, Second, First.
    for (stamp, name) in [("0001", "First"), ("0002", "Second"), ("0003", "Third")] {
        std::fs::write(
            games.join(format!("20260101-00{stamp}.pgn")),
            format!("[White \"{name}\"]\n[Black \"Other\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"),
        )
        .unwrap();
    }
    let script = format!("\"$KNIGHTFALL_BIN\" review --game 3 --movetime 20{STTY_AFTER}");
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the review", 30, |sc| sc.contains("- Other"));
    assert!(screen.contains("First - Other"), "{screen}");
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_review_left_half_done_is_kept_for_next_time() {
    let home = temp_home("review-partial");
    let games = home.join("games");
    std::fs::create_dir_all(&games).unwrap();
    // Out of the opening book from the first move, so every position takes its full time.
    let moves = "1. h4 h5 2. a4 a5 3. Rh3 Rh6 4. Raa3 Raa6 5. Nc3 Nc6 6. Nf3 Nf6 7. e3 e6 *";
    for (stamp, name) in [("0001", "First"), ("0002", "Second")] {
        std::fs::write(
            games.join(format!("20260101-00{stamp}.pgn")),
            format!("[White \"{name}\"]\n[Black \"Other\"]\n[Result \"*\"]\n\n{moves}\n"),
        )
        .unwrap();
    }
    let script = format!("\"$KNIGHTFALL_BIN\" review --movetime 400{STTY_AFTER}");
    let mut s = start(&home, &script);
    // Games not finished are not the library's: `f` lists the games folder's files.
    s.wait_for_screen("the library", 20, |sc| sc.contains("No games yet"));
    s.send(b"f");
    s.wait_for_screen("the list", 20, |sc| sc.contains("Review which game?"));
    s.send(b"\r");
    // A few positions in (of 15), back to the list, then quit.
    s.wait_for_screen("some progress", 30, |sc| {
        ["Analysing   3/", "Analysing   4/", "Analysing   5/"]
            .iter()
            .any(|p| sc.contains(p))
    });
    s.send(b"\x1b");
    s.wait_for_screen("the list again", 10, |sc| sc.contains("Review which game?"));
    s.send(b"q");
    s.wait_for_screen("the library again", 10, |sc| sc.contains("No games yet"));
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let cached = cache_files(&home);
    assert_eq!(cached.len(), 1, "{cached:?}");
    let lines = std::fs::read_to_string(&cached[0]).unwrap().lines().count();
    assert!((3..15).contains(&lines), "{lines} positions cached");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_end_of_a_game_offers_its_review() {
    let home = temp_home("review-after");
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    for m in ["f3", "e5", "g4", "Qh4"] {
        s.send(format!("{m}\r").as_bytes());
    }
    s.wait_for_screen("the offer", 10, |sc| sc.contains("r reviews this game"));
    s.send(b"r");
    // The review of the game just played, filled in; the first key there is not lost.
    s.wait_for_screen("the review", 30, |sc| {
        sc.contains("Human - Human") && sc.contains("ms a position")
    });
    s.send(b"n");
    // 2. g4 allows mate in one, so there is at least that flagged move, with the better one
    // (named by its reason or after it).
    s.wait_for_screen("the first flagged move", 10, |sc| {
        flat(sc).contains("(b shows it)")
    });
    // q goes back to the finished game, which asks again; after "no", typing `review` opens
    // it again, as the message says.
    s.send(b"q");
    s.wait_for_screen("the game again", 20, |sc| sc.contains("y again"));
    s.send(b"n");
    s.wait_for_screen("the hint", 10, |sc| {
        sc.contains("review to review the game")
    });
    s.send(b"review\r");
    s.wait_for_screen("the review again", 30, |sc| {
        sc.contains("Human - Human") && sc.contains("ms a position")
    });
    s.send(b"q");
    s.wait_for_screen("the game once more", 20, |sc| sc.contains("move>"));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    assert_eq!(archived(&home).len(), 1);
    assert_eq!(
        std::fs::read_dir(home.join("games/reviews"))
            .unwrap()
            .count(),
        1
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn analysis_board_lines_book_side_lines_saved_and_reopened() {
    let home = temp_home("board");
    let script = format!("\"$KNIGHTFALL_BIN\" board{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("the book's first moves", 20, |sc| {
        sc.contains("Book") && sc.contains("e4 ") && sc.contains('%')
    });
    for m in ["e4", "e5", "Nf3"] {
        s.send(format!("{m}\r").as_bytes());
    }
    // Three engine lines with distinct first moves for Black, and the book's answers.
    let screen = s.wait_for_screen("three lines", 20, |sc| {
        sc.contains("Engine: 3 lines") && sc.matches(" 2... ").count() >= 3
    });
    assert!(screen.contains("Nc6"), "{screen}");
    assert!(screen.contains("C40 King's Knight Opening"), "{screen}");
    // Back one move and another: a side line, the main line kept.
    s.send(b"\x1b[D");
    s.send(b"Nc3\r");
    s.wait_for_screen("the side line", 10, |sc| sc.contains("A side line"));
    s.send(b"\x13");
    s.wait_for_screen("the save", 10, |sc| sc.contains("Saved to"));
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let saved: Vec<_> = std::fs::read_dir(home.join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("analysis-"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let text = std::fs::read_to_string(&saved[0]).unwrap();
    assert!(text.contains("1. e4 e5 2. Nf3 (2. Nc3) *"), "{text}");

    // Reopened: the main line's end, the side line still there (↓ goes to it).
    let script = format!(
        "\"$KNIGHTFALL_BIN\" board {}{STTY_AFTER}",
        saved[0].display()
    );
    let mut s = start(&home, &script);
    s.wait_for_screen("the saved lines", 20, |sc| sc.contains("2. Nf3 (+1 other)"));
    s.send(b"\x1b[B");
    s.wait_for_screen("the side line", 10, |sc| sc.contains("Vienna"));
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));

    // In tablebase range every move has its verdict.
    let script =
        format!("\"$KNIGHTFALL_BIN\" board --fen '8/8/8/4k3/8/8/8/4K2Q w - - 0 1'{STTY_AFTER}");
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the tablebase", 20, |sc| sc.contains("Tablebase"));
    assert!(screen.contains("win, DTZ"), "{screen}");
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_board_saves_a_game_back_with_its_tags_and_keeps_other_games() {
    let home = temp_home("board-tags");
    let game = home.join("game.pgn");
    std::fs::write(
        &game,
        "[Event \"Club\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let multi = home.join("multi.pgn");
    let two =
        "[White \"A\"]\n[Result \"*\"]\n\n1. d4 *\n\n[White \"B\"]\n[Result \"*\"]\n\n1. c4 *\n";
    std::fs::write(&multi, two).unwrap();
    let script = format!("\"$KNIGHTFALL_BIN\" board {}{STTY_AFTER}", game.display());
    let mut s = start(&home, &script);
    s.wait_for_screen("the game", 20, |sc| sc.contains("Qxf7#"));
    s.send(format!("save {}\r", multi.display()).as_bytes());
    s.wait_for_screen("the refusal", 10, |sc| sc.contains("holds several games"));
    assert_eq!(std::fs::read_to_string(&multi).unwrap(), two);
    s.send(format!("save {}\r", game.display()).as_bytes());
    s.wait_for_screen("the save", 10, |sc| sc.contains("Saved to"));
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let text = std::fs::read_to_string(&game).unwrap();
    for tag in [
        "[Event \"Club\"]",
        "[White \"Ann\"]",
        "[Black \"Bob\"]",
        "[Result \"1-0\"]",
    ] {
        assert!(text.contains(tag), "{tag} in\n{text}");
    }
    assert!(text.contains("4. Qxf7# 1-0"), "{text}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_board_opens_from_a_watched_game_but_not_on_the_clock_against_the_engine() {
    let home = temp_home("board-from-game");
    let script = format!(
        "\"$KNIGHTFALL_BIN\" play --white human --black engine --tc 5+0 --think-ms 100{STTY_AFTER}"
    );
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e4\r");
    s.wait_for_screen("the reply", 20, |sc| sc.contains("Line 1..."));
    s.send(b"\x02");
    s.wait_for_screen("the refusal", 10, |sc| {
        sc.contains("not while the engine's clock runs")
    });
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));

    let script = format!("\"$KNIGHTFALL_BIN\" watch --think-ms 100 --tc none{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("a move or two", 20, |sc| sc.contains("  1. "));
    s.send(b"\x02");
    let screen = s.wait_for_screen("the board", 20, |sc| sc.contains("Engine: 3 lines"));
    assert!(
        screen.contains("1. "),
        "the game's moves are the board's line:\n{screen}"
    );
    // q goes back to the game, which goes on; its keys reach it.
    s.send(b"q");
    s.wait_for_screen("the game again", 20, |sc| sc.contains("space pause"));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_resumed_game_goes_on_between_its_own_players() {
    let home = temp_home("resume-players");
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e4\r");
    s.wait_for("the autosave", 10, |_| saved_plies(&home) == Some(1));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    // The saved settings say Black is the engine; the game says Human. The game wins.
    let script = format!("\"$KNIGHTFALL_BIN\" play --resume --think-ms 100{STTY_AFTER}");
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the resumed game", 20, |sc| sc.contains("Black to move"));
    assert!(screen.contains("Human vs Human"), "{screen}");
    thread::sleep(Duration::from_millis(700));
    assert_eq!(saved_plies(&home), Some(1), "nobody moved for Black");
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_resumed_game_goes_on_against_its_uci_engine_once_the_player_names_it() {
    let home = temp_home("resume-uci");
    let bot = "--black \"uci:$KNIGHTFALL_BIN uci --bot random\"";
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human {bot}{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e4\r");
    s.wait_for("the bot's reply", 20, |_| saved_plies(&home) == Some(2));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    // The engine's name ("Knightfall ... bot") does not say how to start it; the game does,
    // but a file decides no program to run: the player is told how to say so.
    let script = format!("\"$KNIGHTFALL_BIN\" play --resume{STTY_AFTER}");
    let s = start(&home, &script);
    s.wait_for("the refusal", 20, |s| s.text().contains("DONE"));
    let text = s.text();
    assert!(text.contains("runs no program a file names"), "{text}");
    assert!(text.contains("--resume --black \"uci:"), "{text}");
    assert_eq!(saved_plies(&home), Some(2), "the game is untouched");
    // Named, it goes on against that engine.
    let script = format!("\"$KNIGHTFALL_BIN\" play --resume {bot}{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("the resumed game", 20, |sc| sc.contains("White to move"));
    s.send(b"d4\r");
    s.wait_for("the bot's second reply", 20, |_| {
        saved_plies(&home) == Some(4)
    });
    let pgn = std::fs::read_to_string(home.join("games/current.pgn")).unwrap();
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(pgn.contains("bot\"]"), "{pgn}");
    assert!(pgn.contains("[BlackEngine \"uci:"), "{pgn}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_level_beyond_ten_in_the_settings_file_opens_as_level_ten() {
    let home = temp_home("level-eleven");
    std::fs::write(home.join("config.toml"), "level = 11\n").unwrap();
    let script = format!("\"$KNIGHTFALL_BIN\" play --setup{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("the new-game screen", 20, |sc| {
        sc.contains("Knightfall 10 full")
    });
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_board_pages_back_as_one_view_and_f1_opens_its_help() {
    let home = temp_home("board-page");
    let pgn = home.join("game.pgn");
    std::fs::write(
        &pgn,
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Bg4 6. d3 Bxf3 7. Qxf3 f6 \
         8. Rd1 g6 9. Nd2 b5 10. Nb3 Kf7 11. d4 exd4 12. Rxd4 Qe7 13. Be3 Ke6 *\n",
    )
    .unwrap();
    let script = format!("\"$KNIGHTFALL_BIN\" board {}{STTY_AFTER}", pgn.display());
    let mut s = start(&home, &script);
    s.wait_for_screen("the engine on move 13", 20, |sc| sc.contains(" 14. "));
    // PageUp: ten moves back, to the position after 3... a6; the engine lines, the book and
    // the opening name are all of that position.
    s.send(b"\x1b[5~");
    let screen = s.wait_for_screen("the position after 3... a6", 20, |sc| {
        sc.matches(" 4. ").count() >= 3 && sc.contains("Book") && sc.contains("Bxc6")
    });
    assert!(screen.contains("Ruy Lopez"), "{screen}");
    assert!(
        !screen.contains(" 14. Q") && !screen.contains("14... "),
        "{screen}"
    );
    // F1 shows the board's own help; the next key closes it and nothing typed is lost.
    s.send(b"\x1bOP");
    s.wait_for_screen("the help", 10, |sc| {
        sc.contains("Help: the keys that work now")
    });
    s.send(b"\x1b");
    s.wait_for_screen("the help closed", 10, |sc| !sc.contains("Help: the keys"));
    s.send(b"Ba4\r");
    let screen = s.wait_for_screen("the side line", 10, |sc| sc.contains("A side line"));
    assert!(!screen.contains("malformed"), "{screen}");
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let text = s.text();
    assert!(text.contains("EXIT=0"), "{text}");
    assert!(text.contains("Analysis saved to"), "{text}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_failed_search_shows_on_the_board_and_in_the_review_and_is_logged() {
    let home = temp_home("fail");
    let script = format!(
        "KNIGHTFALL_FAIL_SEARCH=1 \"$KNIGHTFALL_BIN\" board --fen '{KIWIPETE}'{STTY_AFTER}"
    );
    let mut s = start(&home, &script);
    s.wait_for_screen("the failure on the board", 20, |sc| {
        sc.contains("The analysis failed") && sc.contains("KNIGHTFALL_FAIL_SEARCH")
    });
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let text = s.text();
    assert!(text.contains("EXIT=0"), "{text}");
    assert!(text.contains("search thread panic was logged"), "{text}");
    let log = std::fs::read_to_string(home.join("knightfall.log")).unwrap();
    assert!(log.contains("panic on thread 'knightfall-search'"), "{log}");

    let pgn = home.join("short.pgn");
    std::fs::write(&pgn, "1. e4 e5 2. Nf3 Nc6 *\n").unwrap();
    let script = format!(
        "KNIGHTFALL_FAIL_SEARCH=1 \"$KNIGHTFALL_BIN\" review {} --movetime 50 --threads 1{STTY_AFTER}",
        pgn.display()
    );
    let mut s = start(&home, &script);
    s.wait_for_screen("the failure in the review", 20, |sc| {
        sc.contains("failed (the search was made to fail") && sc.contains("not reviewed")
    });
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn setup_game_review_board_and_back_in_one_run() {
    let home = temp_home("walk");
    let script = format!("\"$KNIGHTFALL_BIN\" play --setup --tc none{STTY_AFTER}");
    let mut s = start(&home, &script);
    // The first start offers a gentle opponent, its level in plain words.
    let first = s.wait_for_screen("the new-game screen", 20, |sc| sc.contains("New game"));
    assert!(first.contains("Knightfall 3 ~1221"), "{first}");
    assert!(first.contains("plays like a casual player"), "{first}");
    // Each step: the keys, then what the screen shows once they are done.
    let steps: [(&[u8], &str); 12] = [
        // The opponent row: from level 3 two steps back is level 1.
        (b"\x1b[B\x1b[D\x1b[D", "Knightfall 1 ~"),
        (b"\r", "You play White"),
        (b"e4\r", "1. e4"),
        (b"resign\r", "Resign this game?"),
        (b"y", "r reviews this game"),
        (b"r", "ms a position"),
        (b"q", "^B board"),
        // The board at the end of the game, over it; q comes back.
        (b"\x02", "Engine: 3 lines"),
        (b"q", "^B board"),
        // The new-game screen over the finished game; Esc back to it.
        (b"\x0e", "Esc back"),
        (b"\x1b", "^B board"),
        (b"\x11", "EXIT="),
    ];
    for (keys, shown) in steps {
        s.send(keys);
        if shown == "EXIT=" {
            break;
        }
        s.wait_for_screen(shown, 40, |sc| sc.contains(shown));
    }
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let text = s.text();
    assert!(text.contains("EXIT=0"), "{text}");
    assert!(text.contains("icanon") && text.contains("echo"), "{text}");
    assert_eq!(archived(&home).len(), 1);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_config_keeps_what_knightfall_does_not_know_and_names_it() {
    let home = temp_home("config");
    let config = "# my settings\nthread = 2 # a typo\nlevel = 3\n\n[[engine]]\nname = \"Fish\"\ncommand = \"/usr/games/stockfish\"\n";
    std::fs::write(home.join("config.toml"), config).unwrap();
    let script = format!("\"$KNIGHTFALL_BIN\" play --setup{STTY_AFTER}");
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the warnings", 20, |sc| {
        sc.contains("New game") && sc.contains("unknown setting `engine`")
    });
    // The unknown key named with its line; the known one read.
    for shown in ["line 2: unknown setting `thread`", "Knightfall 3 ~"] {
        assert!(screen.contains(shown), "{shown:?} not shown:\n{screen}");
    }
    // One step on the opponent row (level 4), and start: the settings are saved.
    s.send(b"\x1b[B\x1b[C\r");
    s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let saved = std::fs::read_to_string(home.join("config.toml")).unwrap();
    for kept in [
        "# my settings",
        "thread = 2 # a typo",
        "[[engine]]",
        "name = \"Fish\"",
    ] {
        assert!(saved.contains(kept), "{kept:?} dropped:\n{saved}");
    }
    assert!(saved.contains("level = 4"), "{saved}");
    assert!(!saved.contains("level = 3"), "{saved}");
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(&home)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("config"))
        .collect();
    assert_eq!(names, ["config.toml"]);
    let _ = std::fs::remove_dir_all(&home);
}

/// A UCI engine as a shell script in `home`: `uci` runs `on_uci` before the handshake's answer,
/// `go` runs `on_go`.
fn script_engine(home: &Path, name: &str, on_uci: &str, on_go: &str) -> std::path::PathBuf {
    let script = home.join(name);
    let text = format!(
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    uci) {on_uci} echo 'id name {name}'; echo uciok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n  esac\ndone\n"
    );
    std::fs::write(&script, text).unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&script, mode).unwrap();
    script
}

/// A UCI engine that on `go` starts a busy loop in a process of its own, marked with `marker`,
/// and never answers.
fn busy_engine(home: &Path, marker: &str) -> std::path::PathBuf {
    let on_go = format!("sh -c 'while :; do :; done # {marker}' &");
    script_engine(home, "busy-engine.sh", "", &on_go)
}

/// Whether a process whose command line has `marker` is running.
fn running(marker: &str) -> bool {
    std::process::Command::new("pgrep")
        .args(["-f", marker])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn an_engine_that_hangs_is_killed_with_what_it_started_on_forfeit_and_on_exit() {
    let home = temp_home("busy");
    for (case, keys) in [("forfeit", "e4\r"), ("exit", "e4\r")] {
        let marker = format!("knightfall-busy-{case}-{}", std::process::id());
        let engine = busy_engine(&home, &marker);
        let script = format!(
            "\"$KNIGHTFALL_BIN\" play --white human --black \"uci:{}\" --think-ms 100 --tc none --no-book{STTY_AFTER}",
            engine.display()
        );
        let mut s = start(&home, &script);
        s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
        s.send(keys.as_bytes());
        s.wait_for("the busy loop", 20, |_| running(&marker));
        if case == "forfeit" {
            // No move within its time and the stop grace: it forfeits, and nothing of it runs on.
            s.wait_for_screen("the forfeit", 30, |sc| sc.contains("forfeits"));
            s.wait_for("the busy loop gone", 10, |_| !running(&marker));
        }
        s.send(b"\x11");
        s.wait_for("the shell", 30, |s| s.text().contains("DONE"));
        assert!(s.text().contains("EXIT=0"), "{}", s.text());
        // Knightfall has exited: nothing it started is left.
        s.wait_for("the busy loop gone after exit", 10, |_| !running(&marker));
    }
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn an_engine_that_floods_its_output_leaves_the_memory_bounded() {
    let home = temp_home("flood");
    // 300 MB in one line during the handshake, then two million info lines for its move.
    let engine = script_engine(
        &home,
        "flood-engine.sh",
        "head -c 300000000 /dev/zero | tr '\\0' 'x'; echo;",
        "yes 'info depth 1 score cp 0 pv e7e5' | head -n 2000000; echo 'bestmove e7e5'",
    );
    let script = format!(
        "\"$KNIGHTFALL_BIN\" play --white human --black \"uci:{}\" --think-ms 60000 --tc none --no-book{STTY_AFTER}",
        engine.display()
    );
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 60, |s| s.text().contains("move>"));
    s.send(b"e4\r");
    s.wait_for_screen("the reply", 120, |sc| sc.contains("e5"));
    // The most memory the game ever held (the kernel's high-water mark), in kB.
    let pid = std::process::Command::new("pgrep")
        .args(["-P", &s.child.process_id().unwrap().to_string()])
        .output()
        .unwrap();
    let pid = String::from_utf8_lossy(&pid.stdout).trim().to_string();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let peak: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    assert!(peak < 200_000, "{peak} kB at the peak");
    s.send(b"\x11");
    s.wait_for("the shell", 30, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn stopped_from_the_shell_the_terminal_is_the_shells_until_fg() {
    let home = temp_home("tstp");
    // An interactive shell, for its job control: Ctrl-Z from a shell is `kill -TSTP`.
    let mut s = start(&home, "PS1='$ ' exec bash --norc --noprofile -i");
    s.send(b"\"$KNIGHTFALL_BIN\" play --white human --black human --tc none\r");
    s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
    let game = std::process::Command::new("pgrep")
        .args(["-n", "-f", "play --white human --black human --tc none"])
        .output()
        .unwrap();
    let game = String::from_utf8_lossy(&game.stdout).trim().to_string();
    assert!(
        std::process::Command::new("kill")
            .args(["-TSTP", &game])
            .status()
            .unwrap()
            .success()
    );
    // Stopped: the shell has a cooked terminal (echo on, lines, no alternate screen).
    s.wait_for("the stopped job", 20, |s| s.text().contains("Stopped"));
    s.send(b"stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'; echo COOKED-CHECKED\r");
    s.wait_for("the check", 20, |s| s.text().contains("COOKED-CHECKED\r\n"));
    let text = s.text();
    let after = &text[text.rfind("COOKED-CHECKED").unwrap_or(0).saturating_sub(40)..];
    assert!(!text.contains("\n-icanon"), "raw while stopped: {after}");
    // fg: the game takes the terminal again, draws itself anew and plays on.
    s.send(b"fg\r");
    s.wait_for_screen("the game again", 20, |sc| sc.contains("move>"));
    s.send(b"e4\r");
    s.wait_for("the move", 20, |_| saved_plies(&home) == Some(1));
    s.send(b"\x11");
    s.wait_for_screen("the shell again", 20, |sc| sc.contains("Game saved to"));
    s.send(b"exit\r");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn every_unfinished_autosave_is_offered_and_none_is_lost_or_offered_twice() {
    let home = temp_home("unfinished");
    let games = home.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let pgn = |white: &str, time: &str, moves: &str| {
        format!(
            "[White \"{white}\"]\n[Black \"C\"]\n[Result \"*\"]\n[UTCDate \"2026.11.20\"]\n\
             [UTCTime \"{time}\"]\n\n{moves} *\n"
        )
    };
    // This instance's autosave, left by a crash, and the autosave of a Knightfall that ran
    // beside it and is gone (the process id of a finished child), written later.
    std::fs::write(
        games.join("current.pgn"),
        pgn("Ana", "10:00:00", "1. e4 e5"),
    )
    .unwrap();
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let other = games.join(format!("current-{pid}.pgn"));
    std::fs::write(&other, pgn("Bob", "11:00:00", "1. d4")).unwrap();
    let older = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(games.join("current.pgn"))
        .unwrap()
        .set_modified(older)
        .unwrap();
    let script =
        format!("\"$KNIGHTFALL_BIN\" play --setup --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    let screen = s.wait_for_screen("the offer", 20, |sc| sc.contains("resume 1 of 2"));
    assert!(screen.contains("Bob vs C, move 1"), "{screen}");
    s.send(b"\x1b[C");
    s.wait_for_screen("the other game", 10, |sc| sc.contains("Ana vs C, move 2"));
    s.send(b"\x1b[D");
    s.wait_for_screen("the newest game", 10, |sc| sc.contains("Bob vs C"));
    s.send(b"\r");
    s.wait_for_screen("the resumed game", 20, |sc| sc.contains("Black to move"));
    // Bob's game is now this instance's autosave and its old file is gone; Ana's game, which
    // the autosave held, is kept in the archive.
    s.wait_for("the autosave", 10, |_| {
        saved_pgn(&home).contains("Bob") && !other.exists()
    });
    assert!(
        archived(&home)
            .iter()
            .any(|g| g.contains("Ana") && g.contains("1. e4 e5")),
        "{:?}",
        archived(&home)
    );
    s.send(b"d5\r");
    s.wait_for("the move", 10, |_| saved_plies(&home) == Some(2));
    // A new game instead: the game left is archived as abandoned and is not offered again.
    s.send(b"\x0e");
    s.wait_for_screen("the question", 10, |sc| {
        sc.contains("y/n") || sc.contains("(y)")
    });
    s.send(b"y");
    s.wait_for_screen("the new-game screen", 10, |sc| sc.contains("New game"));
    s.send(b"\r");
    s.wait_for_screen("the new game", 20, |sc| sc.contains("White to move"));
    s.wait_for("the autosave", 10, |_| !games.join("current.pgn").exists());
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    assert!(!games.join("current.pgn").exists());
    let kept = archived(&home);
    assert!(
        kept.iter()
            .any(|g| g.contains("Bob") && g.contains("1. d4 d5") && g.contains("abandoned")),
        "{kept:?}"
    );
    // Nothing is left to resume.
    let script = format!("\"$KNIGHTFALL_BIN\" play --resume{STTY_AFTER}");
    let s = start(&home, &script);
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(
        s.text().contains("no unfinished game to resume"),
        "{}",
        s.text()
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// A terminal of our own whose other side this test can close for good (the `Session`'s reader
/// holds a copy of it): its file descriptor, and the screen output drained so far.
struct RawTerminal {
    master: std::os::fd::OwnedFd,
    output: Vec<u8>,
}

impl RawTerminal {
    /// Reads what the program wrote until `cond` holds or `secs` pass.
    fn read_until(&mut self, secs: u64, cond: impl Fn(&str) -> bool) -> bool {
        use std::os::fd::AsRawFd;
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            let mut fd = libc::pollfd {
                fd: self.master.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            if unsafe { libc::poll(&mut fd, 1, 50) } > 0 {
                let mut buf = [0u8; 4096];
                // SAFETY: reads into a buffer of its length.
                let n = unsafe { libc::read(fd.fd, buf.as_mut_ptr().cast(), buf.len()) };
                if n > 0 {
                    self.output.extend_from_slice(&buf[..n as usize]);
                }
            }
            if cond(&String::from_utf8_lossy(&self.output)) {
                return true;
            }
        }
        false
    }

    fn send(&mut self, bytes: &[u8]) {
        use std::os::fd::AsRawFd;
        // SAFETY: writes from a buffer of its length.
        let n = unsafe { libc::write(self.master.as_raw_fd(), bytes.as_ptr().cast(), bytes.len()) };
        assert_eq!(n, bytes.len() as isize);
    }
}

#[test]
fn a_terminal_gone_without_a_sighup_ends_the_game_and_keeps_it() {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::process::CommandExt as _;
    let home = temp_home("hangup");
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: ROWS,
        ws_col: COLS,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: out-pointers to two ints and a valid winsize.
    let r = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(r, 0);
    // SAFETY: openpty returned these descriptors, each owned once here.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    // The terminal's other side stays in this test alone: a copy in the child would keep it open.
    for fd in [&master, &slave] {
        // SAFETY: sets a flag on a descriptor this test owns.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    let rc = home.join("rc");
    // The shell leads the terminal's session and ignores SIGHUP, so when the terminal closes the
    // hang-up signal goes to it alone and Knightfall only finds its input at an end.
    let script = "trap '' HUP; \"$KNIGHTFALL_BIN\" play --white human --black human --tc none; \
                  echo $? > \"$KNIGHTFALL_HOME/rc\"";
    let mut cmd = std::process::Command::new("sh");
    cmd.args(["-c", script])
        .env("KNIGHTFALL_BIN", env!("CARGO_BIN_EXE_knightfall"))
        .env("KNIGHTFALL_HOME", &home)
        .env("TERM", "xterm-256color")
        .stdin(slave.try_clone().unwrap())
        .stdout(slave.try_clone().unwrap())
        .stderr(slave.try_clone().unwrap());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut shell = cmd.spawn().unwrap();
    drop(cmd);
    drop(slave);
    let mut term = RawTerminal {
        master,
        output: Vec::new(),
    };
    assert!(
        term.read_until(20, |s| s.contains("move>")),
        "no game on the screen"
    );
    term.send(b"e2e4\r");
    let moved = term.read_until(10, |_| saved_plies(&home) == Some(1));
    assert!(moved, "the move was not autosaved");
    let pid = std::fs::read_to_string(home.join("games/current.lock")).unwrap();
    let master_fd = term.master.as_raw_fd();
    drop(term);
    // The descriptor is closed: this terminal is gone for good.
    // SAFETY: only asks whether the number is still open.
    assert_eq!(unsafe { libc::fcntl(master_fd, libc::F_GETFD) }, -1);
    let end = Instant::now() + Duration::from_secs(20);
    while !rc.exists() && Instant::now() < end {
        thread::sleep(Duration::from_millis(50));
    }
    if !rc.exists() {
        // Do not leave it spinning.
        let _ = std::process::Command::new("kill")
            .args(["-9", pid.trim()])
            .status();
        let _ = shell.kill();
        panic!("Knightfall did not end when its terminal went away");
    }
    shell.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&rc).unwrap().trim(), "0");
    assert!(
        archived(&home).iter().any(|g| g.contains("1. e4")),
        "{:?}",
        archived(&home)
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn play_from_the_command_line_is_untimed_unless_a_clock_is_named() {
    let home = temp_home("untimed");
    std::fs::write(home.join("config.toml"), "tc = \"5+3\"\n").unwrap();
    for (flags, clock) in [
        ("", false),
        (" --tc 0", false),
        (" --tc none", false),
        (" --tc 3+2", true),
    ] {
        let script =
            format!("\"$KNIGHTFALL_BIN\" play --white human --black human{flags}{STTY_AFTER}");
        let mut s = start(&home, &script);
        let screen = s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
        let shows_clock = screen.contains("3:00") || screen.contains("5:00");
        assert_eq!(shows_clock, clock, "{flags:?}:\n{screen}");
        s.send(b"\x11");
        s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    }
    // The new-game screen still offers the last clock chosen.
    let script = format!("\"$KNIGHTFALL_BIN\" play --setup{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("the new-game screen", 20, |sc| sc.contains("5+3"));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn saving_a_game_twice_and_ending_it_keeps_one_file() {
    let home = temp_home("one-file");
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
    s.send(b"e4\r");
    s.wait_for("the move", 10, |_| saved_plies(&home) == Some(1));
    s.send(b"\x13");
    s.wait_for_screen("the first save", 10, |sc| sc.contains("Saved to"));
    s.send(b"e5\r");
    s.wait_for("the move", 10, |_| saved_plies(&home) == Some(2));
    s.send(b"\x13");
    s.send(b"resign\r");
    s.wait_for_screen("the question", 10, |sc| sc.contains("Resign this game?"));
    s.send(b"y");
    s.wait_for_screen("the end", 10, |sc| sc.contains("Play again"));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let kept = archived(&home);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(
        kept[0].contains("1. e4 e5") && kept[0].contains("resign"),
        "{kept:?}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

impl Session {
    /// The background colour of a1 as the terminal shows it (the square right of the rank
    /// label `1`).
    fn a1_colour(&self) -> Option<vt100::Color> {
        let size = |n: u16| std::num::NonZero::new(n).unwrap();
        let mut parser = vt100::Parser::new(size(ROWS), size(COLS), 0);
        parser.process(&self.output.lock().unwrap());
        let screen = parser.screen();
        (0..ROWS).find_map(|row| {
            let label = screen.cell(row, 0)?.contents();
            (label == "1").then(|| screen.cell(row, 3).map(|c| c.bgcolor()))?
        })
    }
}

#[test]
fn the_theme_changes_every_screen_at_once_and_is_kept_for_next_time() {
    use knightfall::theme::Theme;
    let home = temp_home("theme");
    let dark = |t: Theme| Some(vt100::Color::Idx(t.squares().dark.indexed));
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
    s.wait_for("the classic board", 10, |s| {
        s.a1_colour() == dark(Theme::Classic)
    });
    s.send(b"\x0b");
    s.wait_for("the green board", 10, |s| {
        s.a1_colour() == dark(Theme::Green)
    });
    // On the analysis board opened over the game, then back in the game.
    s.send(b"\x02");
    s.wait_for_screen("the board", 20, |sc| sc.contains("lines"));
    s.send(b"\x0b");
    s.wait_for("the blue board", 10, |s| s.a1_colour() == dark(Theme::Blue));
    s.send(b"q");
    s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
    s.wait_for("the game in blue", 10, |s| {
        s.a1_colour() == dark(Theme::Blue)
    });
    s.send(b"theme nonsense\r");
    s.wait_for_screen("the refusal", 10, |sc| sc.contains("no theme"));
    assert_eq!(s.a1_colour(), dark(Theme::Blue));
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let config = std::fs::read_to_string(home.join("config.toml")).unwrap();
    assert!(config.contains("theme = \"blue\""), "{config}");
    // The next start draws in it.
    let mut s = start(&home, &script);
    s.wait_for_screen("the game", 20, |sc| sc.contains("move>"));
    s.wait_for("the blue board again", 10, |s| {
        s.a1_colour() == dark(Theme::Blue)
    });
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    // Watching draws in it too, and a theme chosen there keeps the player's own settings.
    let before = std::fs::read_to_string(home.join("config.toml")).unwrap();
    let watch = format!("\"$KNIGHTFALL_BIN\" watch --level 1 --tc 1+0{STTY_AFTER}");
    let mut s = start(&home, &watch);
    s.wait_for_screen("the watched game", 20, |sc| sc.contains("cmd>"));
    s.wait_for("the blue board watched", 10, |s| {
        s.a1_colour() == dark(Theme::Blue)
    });
    s.send(b"\x0b");
    s.wait_for("the next theme", 10, |s| {
        s.a1_colour() == dark(Theme::Contrast)
    });
    s.send(b"\x11");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let after = std::fs::read_to_string(home.join("config.toml")).unwrap();
    assert_eq!(
        after,
        before.replace("theme = \"blue\"", "theme = \"contrast\""),
        "only the theme changed"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn an_endgame_drill_is_won_from_the_home_screen_and_its_record_kept() {
    let home = temp_home("train");
    let script = format!("\"$KNIGHTFALL_BIN\"{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for_screen("the home screen", 20, |sc| sc.contains("t  Train"));
    s.send(b"t");
    s.wait_for_screen("the list of endings", 20, |sc| sc.contains("KBNvK"));
    // KQvK, easy: played by asking for the whole hint before each move.
    s.send(b"\x1b[D\r");
    s.wait_for_screen("the drill", 20, |sc| sc.contains("to play and win"));
    for _ in 0..30 {
        if s.screen().contains("Won in") {
            break;
        }
        s.send(b"\x14");
        s.wait_for_screen("the piece", 10, |sc| sc.contains("Move the "));
        s.send(b"\x14");
        let screen = s.wait_for_screen("the move", 10, |sc| sc.contains("The tables play "));
        let san = screen
            .split("The tables play ")
            .nth(1)
            .and_then(|rest| rest.split('.').next())
            .unwrap()
            .to_string();
        s.send(format!("{san}\r").as_bytes());
        s.wait_for_screen("the reply", 10, |sc| !sc.contains("The tables play "));
    }
    let screen = s.wait_for_screen("the win", 10, |sc| sc.contains("Won in"));
    assert!(screen.contains("hint"), "{screen}");
    let record = training_record(&home).unwrap();
    let kqvk = &record.endings["KQvK"];
    assert_eq!(kqvk.done, 1, "{record:?}");
    assert_eq!(kqvk.clean, 0, "hints were used: {record:?}");
    // q: the list, with the record; q: back to the home screen; Esc leaves.
    s.send(b"q");
    s.wait_for_screen("the list", 10, |sc| sc.contains("1/1 done"));
    s.send(b"q");
    s.wait_for_screen("the home screen", 10, |sc| sc.contains("t  Train"));
    s.send(b"\x1b");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let out = s.text();
    assert!(out.contains("EXIT=0"), "{out}");
    assert!(out.contains("icanon echo"), "terminal not restored: {out}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_reviews_mistakes_are_practised_from_the_review_and_scheduled() {
    let home = temp_home("practise");
    std::fs::create_dir_all(home.join("games")).unwrap();
    // White, a person, falls into the Blackburne Shilling trap.
    let file = home.join("games/20261120-101500.pgn");
    std::fs::write(
        &file,
        "[Date \"2026.11.20\"]\n[White \"Human\"]\n[Black \"Knightfall 0.1.0 (level 3)\"]\n\
         [Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 \
         Qxe4+ 7. Be2 Nf3# 0-1\n",
    )
    .unwrap();
    let script = format!(
        "\"$KNIGHTFALL_BIN\" review '{}' --movetime 200{STTY_AFTER}",
        file.display()
    );
    let mut s = start(&home, &script);
    let review = s.wait_for_screen("the finished review", 60, |sc| sc.contains("accuracy;"));
    assert!(review.contains("m practise"), "{review}");
    s.send(b"m");
    let screen = s.wait_for_screen("the first mistake", 20, |sc| sc.contains("Find better"));
    assert!(screen.contains("You played"), "{screen}");
    // The move played again: wrong, and scheduled for tomorrow.
    let played = if screen.contains("Nxf7??") {
        "Nxf7"
    } else {
        "Nxe5"
    };
    s.send(format!("{played}\r").as_bytes());
    s.wait_for_screen("the verdict", 10, |sc| {
        sc.contains("That is the move you played")
    });
    let record = training_record(&home).unwrap();
    assert_eq!(record.mistakes.len(), 1, "{record:?}");
    assert!(record.mistakes.values().all(|c| c.reps == 0), "{record:?}");
    // q: the list; q: back to the review; q: out.
    s.send(b"q");
    s.wait_for_screen("the training list", 10, |sc| sc.contains("KBNvK"));
    s.send(b"q");
    s.wait_for_screen("the review", 10, |sc| sc.contains("accuracy;"));
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let _ = std::fs::remove_dir_all(&home);
}

/// An imported game of the player's, reviewed in the library, and an earlier version's
/// record: `train mistakes` shows the mistake with its game's date and opponent, and the
/// record moved into the library has its endings.
#[test]
fn train_mistakes_shows_the_mistakes_of_an_imported_game_with_its_opponent() {
    use knightfall::review::analyse::PositionEval;
    use knightfall::review::judge::Eval;
    let home = temp_home("train-imported");
    std::fs::write(home.join("config.toml"), "name = \"anna1985\"\n").unwrap();
    let mut earlier = knightfall::train::progress::Progress::default();
    earlier.record("KQvK", true, true, Some(0), 20_000);
    std::fs::write(
        home.join("training.toml"),
        toml::to_string(&earlier).unwrap(),
    )
    .unwrap();
    let file = home.join("lichess.pgn");
    std::fs::write(
        &file,
        "[Site \"https://lichess.org/abcdefgh\"]\n[Date \"2024.03.02\"]\n[White \"anna1985\"]\n\
         [Black \"dora_k\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 0-1\n",
    )
    .unwrap();
    let mut library =
        knightfall::store::library::Library::open(&home.join("library.sqlite")).unwrap();
    let mut summary = knightfall::store::library::import::Summary::default();
    library.import(&file, &mut summary).unwrap();
    let id = library.list().unwrap()[0].id;
    // Her 3. Qxe5+ throws the queen away where 3. Bc4 was best.
    let (mut review, _) = library.review(id).unwrap().unwrap();
    for (ply, cp) in [20, 25, 30, 0, 10, -900, -880].into_iter().enumerate() {
        let pos = review.game.position_at(ply).clone();
        let best = if ply == 4 { "f1c4" } else { "" };
        review.evals[ply] = Some(PositionEval {
            eval: Eval::Cp(cp),
            line: knightfall::train::mistake::parse_uci(&pos, best)
                .into_iter()
                .collect(),
            depth: 10,
        });
    }
    library
        .save_review(
            id,
            &review,
            knightfall::store::library::reviews::Origin::File,
        )
        .unwrap();
    drop(library);
    let mut s = start(
        &home,
        &format!("\"$KNIGHTFALL_BIN\" train mistakes{STTY_AFTER}"),
    );
    let screen = s.wait_for_screen("the mistake", 20, |sc| words(sc).contains("Find better"));
    let said = words(&screen);
    assert!(said.contains("You played Qxe5+??"), "{said}");
    assert!(
        said.contains("2024.03.02 against dora_k, move 3."),
        "{said}"
    );
    s.send(b"q");
    s.wait_for_screen("the list", 10, |sc| sc.contains("KBNvK"));
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    assert_eq!(training_record(&home).unwrap().endings, earlier.endings);
    assert!(home.join("training.toml.migrated").is_file());
    assert!(!home.join("training.toml").exists());
    let _ = std::fs::remove_dir_all(&home);
}

/// The training record in the library, if there is one to read.
fn training_record(home: &Path) -> Option<knightfall::train::progress::Progress> {
    let file = home.join("library.sqlite");
    if !file.exists() {
        return None;
    }
    knightfall::store::library::Library::open(&file)
        .ok()?
        .progress()
        .ok()
}

/// The screen's words in one line: a boxed text wrapped over rows reads as it was written.
/// The words inside the boxes of `screen`, each row's text between its first two borders:
/// a notice over the board reads whole, whatever of the board shows beside its rows.
fn boxed_words(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|l| l.split('│').nth(1))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `screen` shows `text`, in its words or, where the board's glyphs stand between a
/// box's rows, in the box's.
fn shows(screen: &str, text: &str) -> bool {
    words(screen).contains(text) || boxed_words(screen).contains(text)
}

fn words(screen: &str) -> String {
    screen
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn two_instances_training_at_once_lose_none_of_each_others_results() {
    let home = temp_home("train-two");
    let puzzles = |home: &Path| training_record(home).map_or(0, |p| p.puzzles.len());
    // A solves puzzles: each one shown its solution counts as tried, not solved.
    let mut a = start(
        &home,
        &format!("\"$KNIGHTFALL_BIN\" train puzzles{STTY_AFTER}"),
    );
    a.wait_for_screen("A's first puzzle", 20, |sc| {
        sc.contains("find the best move")
    });
    a.send(b"\x16");
    a.wait_for("A's first puzzle saved", 10, |_| puzzles(&home) == 1);
    // B opens an endgame drill: it reads the record with A's first puzzle.
    let mut b = start(
        &home,
        &format!("\"$KNIGHTFALL_BIN\" train endgames KQvK{STTY_AFTER}"),
    );
    b.wait_for_screen("B's drill", 20, |sc| sc.contains("to play and win"));
    // A's second puzzle, saved while B runs with its older copy.
    a.send(b"\x0e");
    a.wait_for_screen("A's second puzzle", 10, |sc| !sc.contains("The solution"));
    a.send(b"\x16");
    a.wait_for("A's second puzzle saved", 10, |_| puzzles(&home) == 2);
    // B plays one move (the tables' own, from the hint) and leaves the drill: counted as tried.
    b.send(b"\x14");
    b.wait_for_screen("the piece", 10, |sc| sc.contains("Move the "));
    b.send(b"\x14");
    let screen = b.wait_for_screen("the move", 10, |sc| sc.contains("The tables play "));
    let san = screen
        .split("The tables play ")
        .nth(1)
        .and_then(|rest| rest.split('.').next())
        .unwrap()
        .to_string();
    b.send(format!("{san}\r").as_bytes());
    b.wait_for_screen("the reply", 10, |sc| sc.contains("Reply:"));
    b.send(b"q");
    b.wait_for_screen("B's list", 10, |sc| sc.contains("0/1 done"));
    let record = training_record(&home).unwrap();
    assert_eq!(record.endings["KQvK"].tried, 1, "{record:?}");
    assert_eq!(
        record.puzzles.len(),
        2,
        "B's save kept A's second puzzle: {record:?}"
    );
    b.send(b"q");
    b.wait_for("B's shell", 20, |s| s.text().contains("DONE"));
    assert!(b.text().contains("EXIT=0"), "{}", b.text());
    // A's third puzzle: its save keeps B's drill, and A's list shows it.
    a.send(b"\x0e");
    a.wait_for_screen("A's third puzzle", 10, |sc| !sc.contains("The solution"));
    a.send(b"\x16");
    a.wait_for("A's third puzzle saved", 10, |_| puzzles(&home) == 3);
    a.send(b"q");
    a.wait_for_screen("A's list, with B's drill", 10, |sc| sc.contains("0/1 done"));
    a.send(b"q");
    a.wait_for("A's shell", 20, |s| s.text().contains("DONE"));
    assert!(a.text().contains("EXIT=0"), "{}", a.text());
    let record = training_record(&home).unwrap();
    assert_eq!(record.endings["KQvK"].tried, 1, "{record:?}");
    assert_eq!(record.puzzles.len(), 3, "{record:?}");
    assert!(record.puzzles.values().all(|solved| !solved));
    assert_eq!(record.puzzle_history.len(), 3, "{record:?}");
    // Every motif of the three puzzles counted once, none solved; the rating fell three times.
    let set = knightfall::train::puzzle::built_in();
    let motifs: u32 = record
        .puzzles
        .keys()
        .map(|id| set.iter().find(|p| p.id == *id).unwrap().motifs.len() as u32)
        .sum();
    let counted: u32 = record.puzzle_motifs.values().map(|t| t[0]).sum();
    assert_eq!(counted, motifs, "{record:?}");
    assert!(record.puzzle_motifs.values().all(|t| t[1] == 0));
    assert!(
        record.puzzle_history.windows(2).all(|w| w[1] <= w[0]) && record.puzzle_history[0] < 1500,
        "{record:?}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_damaged_training_record_is_named_until_a_key_when_training_opens_directly() {
    for (n, (args, started)) in [
        ("train puzzles", "find the best move"),
        ("train endgames KQvK", "to play and win"),
        ("train mistakes", "No mistakes to practise yet"),
    ]
    .into_iter()
    .enumerate()
    {
        // The record of an earlier version is read on the first start only: a home each.
        let home = temp_home(&format!("train-damaged-{n}"));
        let damaged = "endings = [ not toml";
        std::fs::write(home.join("training.toml"), damaged).unwrap();
        let mut s = start(&home, &format!("\"$KNIGHTFALL_BIN\" {args}{STTY_AFTER}"));
        let screen = s.wait_for_screen("the notice", 20, |sc| shows(sc, "could not be read"));
        // The temporary path's length (a process id) moves where the notice's lines break.
        assert!(shows(&screen, "it is kept as"), "{args}: {screen}");
        assert!(shows(&screen, "training-damaged-"), "{args}: {screen}");
        // Still there a while later, over what the command opened.
        thread::sleep(Duration::from_millis(1500));
        assert!(shows(&s.screen(), "could not be read"), "{args}");
        // A key closes it, and shows what was started.
        s.send(b"x");
        // What the command opened may still be loading on a busy machine.
        s.wait_for_screen("the notice closed", 30, |sc| {
            !shows(sc, "could not be read") && words(sc).contains(started)
        });
        s.send(b"\x11");
        s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
        assert!(s.text().contains("EXIT=0"), "{args}: {}", s.text());
        let kept: Vec<_> = std::fs::read_dir(&home)
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("training-damaged-")
            })
            .collect();
        assert!(
            kept.iter()
                .any(|e| std::fs::read_to_string(e.path()).unwrap() == damaged),
            "{args}"
        );
        let _ = std::fs::remove_dir_all(&home);
    }
}

#[test]
fn an_engine_that_hangs_on_its_first_move_has_the_game_aborted_and_is_killed() {
    let engine = FakeEngine::new(Fake::Hangs, "pty-flag");
    let home = temp_home("flag");
    let script = format!(
        "\"$KNIGHTFALL_BIN\" play --white human --black \"{}\" --tc 3s+0 --no-book{STTY_AFTER}",
        engine.side()
    );
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e4\r");
    let pid = engine.wait_for_go();
    // The first move is free for a person only: the engine's clock runs, and it flags. Before
    // both sides have moved, that aborts the game, as on lichess.
    s.wait_for_screen("the flag", 30, |sc| sc.contains("Aborted: no result"));
    assert!(
        gone_within(pid, 5),
        "the engine {pid} runs on after its flag"
    );
    s.send(b"\x11");
    s.wait_for("the shell", 30, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let _ = std::fs::remove_dir_all(&home);
}

/// How soon Knightfall must have left after Ctrl-Q or a signal, whatever its engine does:
/// far above what leaving needs on a loaded machine, below the 5 s it waited for an engine
/// that ignored `stop`.
const LEAVES_WITHIN: Duration = Duration::from_secs(3);

#[test]
fn leaving_while_a_misbehaving_engine_thinks_is_prompt_and_kills_it() {
    let cases = [
        (Fake::Hangs, "hangs", "ctrl-q"),
        (Fake::IgnoresStop, "deaf", "ctrl-q"),
        (Fake::Busy, "busy", "ctrl-q"),
        (Fake::FloodsInfo, "flood", "ctrl-q"),
        (Fake::IgnoresStop, "deaf-term", "-TERM"),
        (Fake::Hangs, "hangs-hup", "-HUP"),
    ];
    for (fake, tag, how) in cases {
        let engine = FakeEngine::new(fake, &format!("pty-{tag}"));
        let home = temp_home(&format!("leave-{tag}"));
        // A minute to think: only leaving ends its search.
        let script = format!(
            "\"$KNIGHTFALL_BIN\" play --white human --black \"{}\" --tc none --think-ms 60000 --no-book{STTY_AFTER}",
            engine.side()
        );
        let mut s = start(&home, &script);
        s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
        s.send(b"e4\r");
        let pid = engine.wait_for_go();
        thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        if how == "ctrl-q" {
            s.send(b"\x11");
        } else {
            // The shell's only child is the game.
            let shell = s.child.process_id().unwrap().to_string();
            let status = std::process::Command::new("pkill")
                .args([how, "-P", &shell])
                .status()
                .unwrap();
            assert!(status.success(), "{tag}");
        }
        s.wait_for("the shell", 30, |s| s.text().contains("EXIT="));
        let took = asked.elapsed();
        // Knightfall has exited: its engine is gone already (and what the engine started).
        assert!(!alive(pid), "{tag}: the engine {pid} outlived Knightfall");
        if let Some(busy) = engine.child_pid() {
            assert!(
                gone_within(busy, 5),
                "{tag}: its busy process {busy} runs on"
            );
        }
        assert!(
            took < LEAVES_WITHIN,
            "{tag}: leaving took {took:?} with an engine that does not answer"
        );
        s.wait_for("the shell", 30, |s| s.text().contains("DONE"));
        assert!(s.text().contains("EXIT=0"), "{tag}: {}", s.text());
        let _ = std::fs::remove_dir_all(&home);
    }
}

#[test]
fn leaving_with_an_idle_engine_that_ignores_quit_is_prompt_and_kills_it() {
    let engine = FakeEngine::new(Fake::IgnoresQuit, "pty-idle");
    let home = temp_home("leave-idle");
    let script = format!(
        "\"$KNIGHTFALL_BIN\" play --white human --black \"{}\" --tc none --think-ms 60000 --no-book{STTY_AFTER}",
        engine.side()
    );
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"e4\r");
    let pid = engine.wait_for_go();
    s.wait_for("the engine's reply", 20, |_| saved_plies(&home) == Some(2));
    // Idle now, on the person's turn: it is asked to quit, ignores it, and is killed.
    let asked = Instant::now();
    s.send(b"\x11");
    s.wait_for("the shell", 30, |s| s.text().contains("EXIT="));
    let took = asked.elapsed();
    assert!(!alive(pid), "the engine {pid} outlived Knightfall");
    assert!(took < LEAVES_WITHIN, "leaving took {took:?}");
    s.wait_for("the shell", 30, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn train_opens_an_imported_puzzle_by_its_id_and_draws_imported_ones() {
    let Some(sample) = common::shared("data/puzzles/lichess-format-sample.csv") else {
        return;
    };
    let home = temp_home("puzzles");
    let import = std::process::Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["puzzles", "import"])
        .arg(&sample)
        .env("KNIGHTFALL_HOME", &home)
        .output()
        .unwrap();
    assert!(import.status.success());
    let mut s = start(
        &home,
        &format!("\"$KNIGHTFALL_BIN\" train puzzles --id 09lz3{STTY_AFTER}"),
    );
    let shown = s.wait_for_screen("the puzzle", 20, |t| t.contains("Puzzle 09lz3 · rated 961"));
    assert!(
        shown.contains("Lichess: popularity 100, played 218"),
        "{shown}"
    );
    assert!(shown.contains("kingside attack"), "{shown}");
    // The next one of a theme only lichess's puzzles have.
    s.send(b"filter smothered mate\r");
    s.wait_for_screen("an imported smothered mate", 20, |t| {
        t.contains("smothered mate") && !t.contains("Puzzle 09lz3")
    });
    s.send(b"q");
    s.send(b"q");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(s.text().contains("EXIT=0"), "{}", s.text());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_switch_turned_in_a_game_started_by_flags_keeps_the_flags_out_of_the_config() {
    let home = temp_home("switches");
    let script =
        format!("\"$KNIGHTFALL_BIN\" play --white human --black human --tc 1+0{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    // Ctrl-O: the bell off, kept in the config.
    s.send(b"\x0f");
    s.wait_for_screen("the bell", 20, |screen| {
        screen.contains("bell at low time is off")
    });
    s.send(b"quit\r");
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let config = std::fs::read_to_string(home.join("config.toml")).unwrap();
    let kept = |key: &str| {
        config
            .lines()
            .find(|l| l.starts_with(&format!("{key} =")))
            .map(str::to_string)
    };
    assert_eq!(kept("sound").as_deref(), Some("sound = false"), "{config}");
    // The flags were for that game alone.
    assert_ne!(
        kept("black").as_deref(),
        Some("black = \"human\""),
        "{config}"
    );
    assert_ne!(kept("tc").as_deref(), Some("tc = \"1+0\""), "{config}");
    let _ = std::fs::remove_dir_all(&home);
}
