//! Memory stays bounded on large input: a PGN file of thousands of games is listed from its
//! text, and only the game opened is played through.

use std::process::{Command, Stdio};

/// Runs `cmd` to its end; returns whether it succeeded and its largest resident size in kB,
/// its own. Not the `ru_maxrss` that waiting for it gives: Linux starts a child's from this
/// process's resident size when it is spawned, and this test binary, running the other tests
/// at once, may be larger than the limit itself. The child's own high-water mark (`VmHWM`,
/// kept by its memory from its `exec` on) is read until it ends instead.
fn run_measured(cmd: &mut Command) -> (bool, i64) {
    let mut child = cmd.stdout(Stdio::null()).spawn().unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        // Once the child has ended (a zombie until waited for), its memory is gone and the
        // line with it: the last reading stands.
        if let Some(kb) = std::fs::read_to_string(&status_file).ok().and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok())
        }) {
            peak = peak.max(kb);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status.success(), peak);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn reviewing_one_game_of_a_large_file_holds_the_file_not_every_game() {
    let dir = std::env::temp_dir().join(format!("knightfall-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // 6,000 games of 60 moves each (4.6 MB).
    let moves: Vec<String> = (0..30)
        .map(|i| format!("{}. Nf3 Nf6 {}. Ng1 Ng8", 2 * i + 1, 2 * i + 2))
        .collect();
    let game = format!(
        "[Event \"shuffle\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{} *\n\n",
        moves.join(" ")
    );
    let file = dir.join("many.pgn");
    std::fs::write(&file, game.repeat(6_000)).unwrap();
    let out = dir.join("one.pgn");
    let stderr = dir.join("stderr");
    let (ok, peak) = run_measured(
        Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .args([
                "review",
                "--game",
                "3",
                "--movetime",
                "1",
                "--threads",
                "1",
                "--out",
            ])
            .arg(&out)
            .arg(&file)
            .env("KNIGHTFALL_HOME", &dir)
            .stderr(std::fs::File::create(&stderr).unwrap()),
    );
    assert!(ok, "{}", std::fs::read_to_string(&stderr).unwrap());
    assert!(std::fs::read_to_string(&out).unwrap().contains("30. Ng1"));
    // Listing every game played through took 198 MB here; as written, 18 MB.
    assert!(peak < 100_000, "{peak} kB at the peak");
    assert!(
        peak > 1_000 || !cfg!(target_os = "linux"),
        "the child's memory was never read ({peak} kB)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
