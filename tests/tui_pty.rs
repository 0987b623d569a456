//! End to end in a pseudo-terminal: the real binary draws its first frame, takes `e2e4`, the
//! engine replies, `undo` takes both moves back, `quit` leaves, and the terminal is back in
//! cooked mode with echo (checked with `stty` in the same terminal after the program exits).
//! A second run ends the game with SIGTERM and checks the same.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use knightfall::game::Game;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

struct Session {
    output: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

fn start(home: &Path, script: &str) -> Session {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 32,
            cols: 100,
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
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    fn wait_for(&self, what: &str, secs: u64, cond: impl Fn(&Session) -> bool) {
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            if cond(self) {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
        panic!("timed out waiting for {what}; output:\n{}", self.text());
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }
}

fn saved_plies(home: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(home.join("games/current.pgn")).ok()?;
    Game::from_pgn(&text).ok().map(|g| g.ply())
}

fn temp_home(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("knightfall-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const STTY_AFTER: &str = "; RC=$?; echo; echo EXIT=$RC; stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; echo DONE";

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
    s.wait_for("the undo", 10, |_| saved_plies(&home) == Some(0));
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
fn sigterm_restores_terminal_and_keeps_the_game() {
    let home = temp_home("term");
    let script = format!("\"$KNIGHTFALL_BIN\" play --white human --black human{STTY_AFTER}");
    let mut s = start(&home, &script);
    s.wait_for("the first frame", 20, |s| s.text().contains("move>"));
    s.send(b"d2d4\r");
    s.wait_for("the move", 10, |_| saved_plies(&home) == Some(1));
    let pid = s.child.process_id().unwrap();
    // The shell's only child is the game.
    let status = std::process::Command::new("pkill")
        .args(["-TERM", "-P", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let out = s.text();
    assert!(out.contains("icanon echo"), "terminal not restored: {out}");
    assert_eq!(saved_plies(&home), Some(1));
    let _ = std::fs::remove_dir_all(&home);
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
