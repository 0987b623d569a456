//! Memory stays bounded on large input: a PGN file of thousands of games is listed from its
//! text, and only the game opened is played through. (A file of its own, so that the largest
//! child process the kernel reports is the one this test ran.)

use std::process::Command;

/// The largest resident size, in kB, of any child process this test has waited for.
fn children_peak_kb() -> i64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; it is zeroed and of the right type.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr());
        usage.assume_init()
    };
    usage.ru_maxrss
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
    let status = Command::new(env!("CARGO_BIN_EXE_knightfall"))
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
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(std::fs::read_to_string(&out).unwrap().contains("30. Ng1"));
    let peak = children_peak_kb();
    // Listing every game played through took 198 MB here; as written, 18 MB.
    assert!(peak < 100_000, "{peak} kB at the peak");
    let _ = std::fs::remove_dir_all(&dir);
}
