//! Memory stays bounded on large input: a PGN file of thousands of games is listed from its
//! text, and only the game opened is played through.

use std::process::{Command, Stdio};

/// Runs `cmd` to its end; returns whether it succeeded and its largest resident size in kB,
/// its own (waited for by its pid: the other tests' children in this binary do not count).
fn run_measured(cmd: &mut Command) -> (bool, i64) {
    #[expect(
        clippy::zombie_processes,
        reason = "wait4 below reaps it, which Child::wait cannot do with the child's own usage"
    )]
    let child = cmd.stdout(Stdio::null()).spawn().unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: wait4 waits for the child spawned above, which nothing else waits for, and fills
    // the status and the zeroed struct of the right type it is given.
    let usage = unsafe {
        assert_eq!(libc::wait4(pid, &mut status, 0, usage.as_mut_ptr()), pid);
        usage.assume_init()
    };
    (
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        usage.ru_maxrss,
    )
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
    let _ = std::fs::remove_dir_all(&dir);
}
