//! Helpers shared by the integration tests.

pub(crate) mod proxy;

use std::path::PathBuf;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// `../shared` beside the checkout, or `None` (with a message) when it is absent. Under CI
/// (`CI` set to anything but `false`/`0`) a missing file fails the test instead, so that a green
/// CI run means these tests ran.
pub(crate) fn shared(relative: &str) -> Option<PathBuf> {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared")).join(relative);
    if path.exists() {
        return Some(path);
    }
    skip_unless_ci(&format!(
        "{} not found (../shared is absent)",
        path.display()
    ));
    None
}

/// Says why a test is skipped here, or fails it under CI (`CI` set to anything but `false` or
/// `0`), where everything a test needs is installed (`.ci/run`).
pub(crate) fn skip_unless_ci(why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    assert!(!ci, "{why}, and CI must run every test");
    eprintln!("skipping: {why}");
}

/// Whether `program` can be run here (it answers `--version`).
pub(crate) fn installed(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Parses a FEN (or the first four or six fields of an EPD line) into a position.
pub(crate) fn position(fen: &str) -> Chess {
    let fen: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("bad FEN {fen:?}: {e}"));
    fen.into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("illegal FEN: {e}"))
}

/// The text a `TestBackend` shows, one line per row, trailing blanks trimmed.
pub(crate) fn screen_text(term: &ratatui::Terminal<ratatui::backend::TestBackend>) -> String {
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        // A no-break space reads as a space.
        let line: String = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().replace('\u{a0}', " "))
            .collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Types `text` and Enter into the game screen; returns what Enter asked for.
pub(crate) fn type_line(
    app: &mut knightfall::tui::app::App,
    text: &str,
) -> Vec<knightfall::tui::app::Effect> {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use knightfall::tui::app::Action;
    for c in text.chars() {
        app.update(
            Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
            std::time::Instant::now(),
        );
    }
    app.update(
        Action::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        std::time::Instant::now(),
    )
}

/// How long a process under test may take before it counts as hung. Far above what any of
/// them needs on a loaded machine: it catches a hang, and never measures speed.
pub(crate) const HANG: std::time::Duration = std::time::Duration::from_secs(120);

/// Waits for `child` and gathers its output, as `Child::wait_with_output` does, but kills it
/// and fails the test if it has not ended after [`HANG`], so that a hang fails CI instead of
/// stalling it.
pub(crate) fn finish(mut child: std::process::Child) -> std::process::Output {
    use std::io::Read;
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    }
    drop(child.stdin.take());
    let (stdout, stderr) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let deadline = std::time::Instant::now() + HANG;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break status;
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the process had not ended after {HANG:?}: it hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    std::process::Output {
        status,
        stdout: stdout.join().expect("reading stdout"),
        stderr: stderr.join().expect("reading stderr"),
    }
}

/// How a fake UCI engine misbehaves once it is asked for a move. Each answers the handshake
/// (`uci`, `isready`) as an engine should, so it starts like any other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fake {
    /// Stops reading at its first `go` and sleeps forever: no move, no answer to `stop` or
    /// `quit`, and its input closing does not end it either.
    Hangs,
    /// Reads on but never answers `go`, `stop` or `quit`; only a signal (or its input
    /// closing) ends it.
    IgnoresStop,
    /// On `go` starts a busy loop in a process of its own (in its process group; the busy
    /// process's pid goes to [`FakeEngine::child_pid`]) and never answers.
    Busy,
    /// On `go` floods its output with `info` lines, without end, and reads nothing more.
    FloodsInfo,
    /// Answers `go` at once with `e7e5` (Black's reply to 1. e4), but ignores `quit` and
    /// sleeps on when its input closes: an idle engine only a signal ends.
    IgnoresQuit,
}

/// A fake UCI engine: a POSIX `sh` script (no python, which a fresh machine may lack) in a
/// folder of its own under the system's temporary folder. When it is asked to `go` it writes
/// its pid to a file, so a test can tell whether the process is still there.
pub(crate) struct FakeEngine {
    /// The folder the script and its pid files are in.
    pub(crate) dir: PathBuf,
    /// The script.
    pub(crate) script: PathBuf,
}

impl FakeEngine {
    /// Writes the script for `fake` into a fresh folder named after `tag`.
    pub(crate) fn new(fake: Fake, tag: &str) -> FakeEngine {
        use std::os::unix::fs::PermissionsExt;
        let dir =
            std::env::temp_dir().join(format!("knightfall-fake-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("creating the fake engine's folder");
        let go_pid = dir.join("go.pid");
        let child_pid = dir.join("child.pid");
        let on_go = match fake {
            Fake::Hangs => "while :; do sleep 1; done".to_string(),
            Fake::IgnoresStop => ":".to_string(),
            Fake::Busy => format!(
                "sh -c 'while :; do :; done' & echo $! > '{}'",
                child_pid.display()
            ),
            Fake::FloodsInfo => "while :; do echo 'info depth 1 score cp 0 nodes 1'; done".into(),
            Fake::IgnoresQuit => "echo 'bestmove e7e5'".into(),
        };
        let after = if fake == Fake::IgnoresQuit {
            "while :; do sleep 1; done\n"
        } else {
            ""
        };
        let text = format!(
            "#!/bin/sh\n\
             echo $$ > '{started}'\n\
             while read line; do\n\
             \x20 case \"$line\" in\n\
             \x20   uci) echo 'id name fake'; echo uciok;;\n\
             \x20   isready) echo readyok;;\n\
             \x20   go*) echo $$ > '{go}'; {on_go};;\n\
             \x20 esac\n\
             done\n\
             {after}",
            go = go_pid.display(),
            started = dir.join("started.pid").display(),
        );
        let script = dir.join("engine.sh");
        std::fs::write(&script, text).expect("writing the fake engine");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
            .expect("making the fake engine executable");
        FakeEngine { dir, script }
    }

    /// The side's value on the command line: `uci:` and the script.
    pub(crate) fn side(&self) -> String {
        format!("uci:{}", self.script.display())
    }

    /// The pid of the engine that was last asked to `go`, once one was.
    pub(crate) fn go_pid(&self) -> Option<i32> {
        read_pid(&self.dir.join("go.pid"))
    }

    /// The engine's pid, written as it starts: an engine killed before it read `go` has one
    /// too.
    pub(crate) fn pid(&self) -> Option<i32> {
        read_pid(&self.dir.join("started.pid"))
    }

    /// The pid of the busy process a [`Fake::Busy`] engine started, once it did.
    pub(crate) fn child_pid(&self) -> Option<i32> {
        read_pid(&self.dir.join("child.pid"))
    }

    /// Waits (up to [`HANG`]) for an engine to be asked to `go`; its pid.
    pub(crate) fn wait_for_go(&self) -> i32 {
        let end = std::time::Instant::now() + HANG;
        loop {
            if let Some(pid) = self.go_pid() {
                return pid;
            }
            assert!(
                std::time::Instant::now() < end,
                "the engine was never asked to go"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for FakeEngine {
    /// Whatever a failed test left running goes, and the folder with it.
    fn drop(&mut self) {
        for pid in [self.pid(), self.child_pid()].into_iter().flatten() {
            if alive(pid) {
                // SAFETY: kill(2) with a pid and a signal number touches no memory.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn read_pid(path: &std::path::Path) -> Option<i32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Whether process `pid` is running: it exists and is not a zombie (a killed process whose
/// parent died waits as a zombie until init reaps it; it runs nothing).
pub(crate) fn alive(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // The state is the first field after the command's name, which is in parentheses.
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next());
    !matches!(state, Some("Z" | "X") | None)
}

/// Waits up to `secs` seconds for process `pid` to be gone; whether it went.
pub(crate) fn gone_within(pid: i32, secs: u64) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while alive(pid) {
        if std::time::Instant::now() >= end {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    true
}

/// Runs Knightfall with `args` and its files under `home`: whether it succeeded, its output and
/// its errors.
pub(crate) fn knightfall_at(home: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_knightfall"))
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
