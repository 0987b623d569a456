//! Helpers shared by the integration tests.
#![allow(dead_code)]

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

/// A small deterministic random number generator (xorshift64*), so runs are repeatable.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
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
