//! External engines that misbehave (hang on `go`, ignore `stop`, busy-loop, flood their output)
//! can neither stall a game, nor hold up leaving, nor outlive Knightfall: a hung engine loses on
//! time even on its first move, a headless series ends as soon as the forfeit is written, and a
//! `kill -9` of Knightfall takes its engine with it.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{Fake, FakeEngine, alive, gone_within};

/// How long a headless game against a hung engine may take before the test calls it stalled:
/// the game's clock is 2 s, so only a game that never flags takes this long.
const STALLED: Duration = Duration::from_secs(30);

/// How soon after the forfeit is written the series must have ended. Leaving kills the engine
/// at once; before, it waited 5 s for an engine that ignored `stop`. Far above what the exit
/// needs on a loaded machine, far below that wait.
const PROMPT: Duration = Duration::from_secs(3);

/// `watch --headless`: one game, White played by `engine`, Black by Knightfall at level 1.
fn headless(engine: &FakeEngine, tc: &str, home: &Path) -> Child {
    std::fs::create_dir_all(home).unwrap();
    Command::new(env!("CARGO_BIN_EXE_knightfall"))
        .args(["watch", "--headless", "--games", "1", "--tc", tc, "--white"])
        .arg(engine.side())
        .args(["--black-level", "1", "--no-book", "--pgn"])
        .arg(home.join("games.pgn"))
        .env("KNIGHTFALL_HOME", home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn a_misbehaving_engine_that_never_makes_its_first_move_has_the_game_aborted_at_once() {
    for (fake, tag) in [
        (Fake::Hangs, "hangs"),
        (Fake::IgnoresStop, "deaf"),
        (Fake::Busy, "busy"),
        (Fake::FloodsInfo, "flood"),
    ] {
        let engine = FakeEngine::new(fake, &format!("headless-{tag}"));
        let mut child = headless(&engine, "2s+0", &engine.dir.join("home"));
        let started = Instant::now();
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send((Instant::now(), line));
            }
        });
        let mut result = None;
        let mut said = Vec::new();
        let exited = loop {
            while let Ok((at, line)) = lines.try_recv() {
                if line.starts_with("game 1/1:") {
                    result = Some((at, line.clone()));
                }
                said.push(line);
            }
            if let Some(status) = child.try_wait().unwrap() {
                break (Instant::now(), status);
            }
            if started.elapsed() > STALLED {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{tag}: the game had not ended after {STALLED:?}: {said:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        // What Knightfall wrote just before it left may still be on its way from the reader.
        while let Ok((at, line)) = lines.recv_timeout(Duration::from_secs(5)) {
            if line.starts_with("game 1/1:") {
                result = Some((at.min(exited.0), line.clone()));
            }
            said.push(line);
        }
        assert!(exited.1.success(), "{tag}: {said:?}");
        let (ended_at, line) = result.unwrap_or_else(|| panic!("{tag}: no result: {said:?}"));
        // Its flag fell before it had moved: the game is aborted, as on lichess, a loss for
        // nobody, and the count says so.
        assert!(
            line.contains("* aborted on time before both sides had moved in 0 plies")
                && line.ends_with("draws 0, aborted 1"),
            "{tag}: {line}"
        );
        let leaving = exited.0.saturating_duration_since(ended_at);
        assert!(
            leaving < PROMPT,
            "{tag}: the series took {leaving:?} to end after the flag"
        );
        // Nothing of the engine is left once Knightfall has gone.
        let pid = engine.pid().unwrap();
        assert!(!alive(pid), "{tag}: the engine {pid} outlived Knightfall");
        if let Some(busy) = engine.child_pid() {
            assert!(
                gone_within(busy, 5),
                "{tag}: the engine's busy process {busy} outlived Knightfall"
            );
        }
    }
}

#[test]
fn an_engine_dies_with_knightfall_even_on_sigkill() {
    let engine = FakeEngine::new(Fake::Hangs, "sigkill");
    let mut child = headless(&engine, "60+0", &engine.dir.join("home"));
    let pid = engine.wait_for_go();
    assert!(alive(pid));
    // No code of Knightfall's runs on SIGKILL: the engine goes by its parent-death signal.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        gone_within(pid, 10),
        "the engine {pid} outlived Knightfall's SIGKILL"
    );
}

/// A hung engine's `go` in a thread of its own, with `limits`; the result comes back on the
/// channel, so that a `go` that never returns fails the test instead of stalling it.
fn go_in_thread(
    engine: knightfall::external::External,
    limits: knightfall::engine::Limits,
) -> mpsc::Receiver<Result<shakmaty::Move, knightfall::external::ExternalError>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut engine = engine;
        let control = knightfall::engine::Control::default();
        let moved = engine.go(
            None,
            &[],
            &shakmaty::Chess::default(),
            &limits,
            &control,
            &mut |_| {},
        );
        let _ = tx.send(moved);
    });
    rx
}

#[test]
fn a_go_on_the_clock_gives_up_once_the_clock_is_spent() {
    use knightfall::external::{EngineSpec, External, ExternalError};
    let engine = FakeEngine::new(Fake::Hangs, "clock");
    let spec = EngineSpec {
        name: "hangs".into(),
        command: engine.script.display().to_string(),
        options: Vec::new(),
    };
    let external = External::start(&spec).unwrap();
    // White to move with 300 ms on its clock and no move time: nobody stops it.
    let limits = knightfall::engine::Limits {
        wtime: Some(300),
        btime: Some(300),
        ..Default::default()
    };
    let moved = go_in_thread(external, limits)
        .recv_timeout(STALLED)
        .expect("go never gave up on an engine past its clock");
    assert!(
        matches!(moved, Err(ExternalError::Timeout { .. })),
        "{moved:?}"
    );
    // The engine was dropped with the thread: killed, as it ignores `quit`.
    let pid = engine.pid().unwrap();
    assert!(gone_within(pid, 5), "the engine {pid} runs on");
}

#[test]
fn a_thrown_kill_switch_ends_a_hung_go_and_its_engine_at_once() {
    use knightfall::external::{EngineSpec, External, ExternalError, KillSwitch};
    let engine = FakeEngine::new(Fake::Hangs, "switch");
    let spec = EngineSpec {
        name: "hangs".into(),
        command: engine.script.display().to_string(),
        options: Vec::new(),
    };
    let switch = KillSwitch::default();
    let external = External::start_under(&spec, &switch).unwrap();
    // An infinite search: only the switch ends it.
    let result = go_in_thread(external, knightfall::engine::Limits::default());
    let pid = engine.wait_for_go();
    switch.throw();
    let moved = result
        .recv_timeout(PROMPT)
        .expect("go went on after the switch was thrown");
    assert!(
        matches!(moved, Err(ExternalError::Killed { .. })),
        "{moved:?}"
    );
    assert!(gone_within(pid, 5), "the engine {pid} runs on");
    // An engine started after the throw does not start at all.
    assert!(matches!(
        External::start_under(&spec, &switch),
        Err(ExternalError::Killed { .. })
    ));
}
