//! The games folder: this instance's autosave and its lock, the archive of finished games, a
//! damaged autosave kept aside, and the in-progress game for `--resume`.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::atomic::{read_game, write_atomic};
use super::read::read_text_checked;
use super::{GameKind, Paths};
use crate::game::{Game, timestamp};

/// This instance's claim on the autosave: `current.pgn`, held with an advisory lock on
/// `current.lock` for as long as this Knightfall runs, or, when another running Knightfall
/// holds that lock, a file of our own (`current-PID.pgn`), so that two games never overwrite
/// each other. The lock is the system's: it names no process that could be gone, and it goes
/// with the process however that ends.
pub struct AutosaveSlot {
    /// The file to autosave to.
    pub path: PathBuf,
    /// Who holds `current.pgn` when it is not us ("process 1234"), or why it could not be
    /// claimed.
    pub held_by: Option<String>,
    /// The locked file, open for as long as we hold `current.pgn`.
    _lock: Option<fs::File>,
}

impl AutosaveSlot {
    /// Claims `current.pgn` unless another running Knightfall holds it.
    pub fn claim(paths: &Paths) -> AutosaveSlot {
        let me = std::process::id();
        let _ = fs::create_dir_all(&paths.data);
        super::temporaries::remove_stale_everywhere(paths);
        remove_orphan_locks(&paths.data);
        // Our own file is locked as `current.pgn` is, so the resume picker tells it from a
        // crashed game's by the lock, not by a process id the system may have given again.
        let own = |held_by: String| {
            let path = paths.data.join(format!("current-{me}.pgn"));
            let lock = open_no_follow(&lock_of(&path))
                .ok()
                .filter(|f| f.try_lock().is_ok());
            AutosaveSlot {
                path,
                held_by: Some(held_by),
                _lock: lock,
            }
        };
        let lock = paths.data.join("current.lock");
        let mut file = match open_no_follow(&lock) {
            Ok(file) => file,
            Err(e) => return own(format!("{} cannot be used ({e})", lock.display())),
        };
        match file.try_lock() {
            Ok(()) => {
                // Who holds it, for another Knightfall's message; the lock itself is what counts.
                let _ = file.set_len(0).and_then(|()| writeln!(file, "{me}"));
                AutosaveSlot {
                    path: paths.current(),
                    held_by: None,
                    _lock: Some(file),
                }
            }
            Err(fs::TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                own(match text.trim().parse::<u32>() {
                    Ok(pid) => format!("process {pid}"),
                    Err(_) => "another process".to_string(),
                })
            }
            // A file system without locks: as before there were locks, the game is ours.
            Err(fs::TryLockError::Error(_)) => AutosaveSlot {
                path: paths.current(),
                held_by: None,
                _lock: Some(file),
            },
        }
    }
}

impl AutosaveSlot {
    /// Puts away an autosave of our own (`current-PID.pgn`, not resumable once its game is
    /// kept in the archive) with its lock file; `current.pgn` stays for `--resume`.
    pub fn release(self) {
        if self.held_by.is_some() {
            let _ = fs::remove_file(&self.path);
            let _ = fs::remove_file(lock_of(&self.path));
        }
    }
}

/// Removes the lock files of `current-PID.pgn` autosaves that are gone (put away, or never
/// written by a Knightfall that was killed before its first move) and whose lock is free.
fn remove_orphan_locks(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let lock = entry.path();
        let autosave = lock.with_extension("pgn");
        if lock.extension().is_some_and(|e| e == "lock")
            && let Some(pid) = autosave_pid(&autosave)
            && fs::symlink_metadata(&autosave).is_err()
            && !held(&autosave, pid)
        {
            let _ = fs::remove_file(&lock);
        }
    }
}

/// The largest autosave read: a game of thousands of moves with comments is a few hundred KB.
const MAX_AUTOSAVE_BYTES: u64 = 16 << 20;

/// The text of an autosave or a kept game, read without following a link, waiting on a FIFO
/// or reading a device without end (see [`read_checked`](super::read::read_checked)).
fn read_saved(path: &Path) -> std::io::Result<String> {
    read_text_checked(path, MAX_AUTOSAVE_BYTES)
}

/// The lock file that answers for the autosave `path` (`current.lock` for `current.pgn`,
/// `current-PID.lock` for `current-PID.pgn`).
fn lock_of(path: &Path) -> PathBuf {
    path.with_extension("lock")
}

/// Opens (or creates, for this user alone) `path` for reading and writing, refusing to follow a
/// link planted in its place.
pub(crate) fn open_no_follow(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        // A FIFO planted as the lock must not block the start.
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .and_then(|f| {
            if f.metadata()?.is_file() {
                Ok(f)
            } else {
                Err(std::io::Error::other(format!(
                    "{} is not a regular file",
                    path.display()
                )))
            }
        })
}

/// Moves an autosave that cannot be read out of the way, so a new game does not overwrite it;
/// returns where it went and why it could not be read.
pub(crate) fn keep_damaged_autosave(paths: &Paths) -> Option<(PathBuf, String)> {
    let path = paths.current();
    // A link, a FIFO or a device there is no game to keep aside, and is replaced (not
    // followed) by the next autosave.
    let text = read_saved(&path).ok()?;
    let why = match read_game(&text) {
        Ok(_) => return None,
        Err(e) => e,
    };
    let aside = paths
        .data
        .join(format!("current-damaged-{}.pgn", timestamp()));
    fs::rename(&path, &aside).ok()?;
    Some((aside, why))
}

/// Keeps `game` in its own file in the folder of games of its `kind`, named after the time it
/// started, so saving it again (after a resume, at exit) replaces that file instead of adding
/// another; returns the file, or `None` for a game without moves (an aborted one is kept even
/// so).
pub fn archive(game: &Game, paths: &Paths, kind: GameKind) -> Result<Option<PathBuf>> {
    // A game aborted before its first move is kept all the same: it happened.
    if game.ply() == 0 && !game.is_aborted() {
        return Ok(None);
    }
    let stem = game.started.clone().unwrap_or_else(timestamp);
    let dir = paths.kept(kind);
    // Another game may have started in the same second: it keeps its file.
    for n in 1.. {
        let name = match n {
            1 => format!("{stem}.pgn"),
            _ => format!("{stem}-{n}.pgn"),
        };
        let path = dir.join(name);
        if !path.exists() || same_game(&path, game) {
            write_atomic(&path, &game.to_pgn())?;
            return Ok(Some(path));
        }
    }
    unreachable!("some numbered name is free")
}

/// Whether `path` holds an earlier state of `game` (the same start and players, its moves a
/// beginning of the game's): then it may be replaced. A longer or different game there (one
/// that ended before moves were taken back) keeps its file.
fn same_game(path: &Path, game: &Game) -> bool {
    let Ok(saved) = read_saved(path)
        .map_err(anyhow::Error::from)
        .and_then(|t| Game::from_pgn(&t).map_err(anyhow::Error::from))
    else {
        return false;
    };
    earlier_state(&saved, game)
}

/// Whether `saved` is `game` as it stood earlier: the same start and players, its moves a
/// beginning of the game's.
fn earlier_state(saved: &Game, game: &Game) -> bool {
    let (a, b) = (saved.moves(), game.moves());
    saved.started == game.started
        && saved.names == game.names
        && a.len() <= b.len()
        && a == &b[..a.len()]
}

/// An unfinished game in an autosave that no running Knightfall writes to: one to resume.
#[derive(Clone, Debug)]
pub struct Unfinished {
    /// The autosave file.
    pub path: PathBuf,
    /// Its game.
    pub game: Game,
}

/// Every unfinished game that may be resumed, newest first: `current.pgn` unless another
/// running Knightfall holds it, and the `current-PID.pgn` of each Knightfall that ran beside
/// another and ended without putting its game away (it crashed or was killed). `own` is this
/// instance's autosave once it has claimed one (its lock then answers for `current.pgn`).
pub(crate) fn unfinished(paths: &Paths, own: Option<&Path>) -> Vec<Unfinished> {
    let current = paths.current();
    let mut found: Vec<(std::time::SystemTime, Unfinished)> = Vec::new();
    let Ok(entries) = fs::read_dir(&paths.data) else {
        return Vec::new();
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let free = if Some(path.as_path()) == own {
            true
        } else if path == current {
            own.is_none() && current_is_free(paths)
        } else {
            autosave_pid(&path).is_some_and(|pid| !held(&path, pid))
        };
        if !free {
            continue;
        }
        let Ok(text) = read_saved(&path) else {
            continue;
        };
        let Ok(game) = read_game(&text) else {
            continue;
        };
        if game.is_over() || game.ply() == 0 {
            continue;
        }
        let when = entry
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        found.push((when, Unfinished { path, game }));
    }
    found.sort_by_key(|(when, _)| std::cmp::Reverse(*when));
    found.into_iter().map(|(_, u)| u).collect()
}

/// The process id in an autosave's name, `current-PID.pgn`.
fn autosave_pid(path: &Path) -> Option<i32> {
    let name = path.file_name()?.to_str()?;
    let pid = name.strip_prefix("current-")?.strip_suffix(".pgn")?;
    pid.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| pid.parse().ok())
        .flatten()
}

/// Whether the Knightfall that wrote `current-PID.pgn` still runs: asked of its lock, which
/// goes with the process however it ends, so a crashed game whose process id was given to
/// another process is still offered. Only an autosave without a lock file (written before
/// there were locks, or on a file system without them) is judged by its process id.
fn held(path: &Path, pid: i32) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let lock = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(lock_of(path));
    match lock.map(|file| file.try_lock_shared()) {
        Ok(Ok(())) => false,
        Ok(Err(fs::TryLockError::WouldBlock)) => true,
        Ok(Err(fs::TryLockError::Error(_))) | Err(_) => process_alive(pid),
    }
}

/// Whether process `pid` runs (a process of another user counts as running).
fn process_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Whether no running Knightfall holds `current.pgn` (asked of the lock, then let go).
fn current_is_free(paths: &Paths) -> bool {
    let lock = paths.data.join("current.lock");
    match open_no_follow(&lock) {
        Ok(file) => !matches!(file.try_lock(), Err(fs::TryLockError::WouldBlock)),
        Err(_) => false,
    }
}

/// The newest unfinished game for `--resume`. An autosave that cannot be read is first moved
/// aside (and the message says where), so that the next game does not overwrite it.
pub(crate) fn resume_game(paths: &Paths) -> Result<Unfinished> {
    let path = paths.current();
    if let Some((aside, why)) = keep_damaged_autosave(paths) {
        anyhow::bail!(
            "the last game ({}) cannot be read: {why}; it is kept as {}",
            path.display(),
            aside.display()
        );
    }
    unfinished(paths, None).into_iter().next().with_context(|| {
        format!(
            "no unfinished game to resume in {} (finished games are reviewed with `knightfall review`)",
            paths.data.display()
        )
    })
}

/// Deletes a kept game's file, as the player asked: only a file of the games folder (or of its
/// watched games) holding one game, never an autosave in use or anything elsewhere.
pub(crate) fn delete_kept(paths: &Paths, file: &Path) -> Result<()> {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let folder = file.parent();
    if folder != Some(paths.data.as_path()) && folder != Some(paths.watched().as_path()) {
        anyhow::bail!("{} is not in the games folder", file.display());
    }
    if super::listing::is_autosave(&name) {
        anyhow::bail!("{name} is an unfinished game; resume it or start a new one instead");
    }
    let meta = fs::symlink_metadata(file).with_context(|| format!("reading {}", file.display()))?;
    if !meta.is_file() {
        anyhow::bail!("{} is not a game file", file.display());
    }
    if super::listing::scan(file)?.take(2).count() > 1 {
        anyhow::bail!("{} holds more than one game", file.display());
    }
    fs::remove_file(file).with_context(|| format!("deleting {}", file.display()))
}

/// Before this instance's autosave first takes `game`, keeps in the archive the unfinished
/// game it held, unless that is an earlier state of `game`: a game left by a crash is never
/// overwritten by the next one.
pub(crate) fn keep_replaced_autosave(paths: &Paths, game: &Game) {
    let Ok(text) = read_saved(&paths.autosave) else {
        return;
    };
    let Ok(held) = read_game(&text) else {
        return;
    };
    if held.ply() > 0 && !held.is_over() && !earlier_state(&held, game) {
        let _ = archive(&held, paths, GameKind::Played);
    }
}

/// After an unfinished game from `adopted` was resumed and this instance's autosave holds it,
/// removes `adopted`, so the game is offered once, not twice.
pub(crate) fn release_adopted(paths: &Paths, adopted: &Path, game: &Game) {
    if adopted == paths.autosave || adopted == paths.current() {
        return;
    }
    let holds_it = read_saved(&paths.autosave)
        .ok()
        .and_then(|t| read_game(&t).ok())
        .is_some_and(|saved| earlier_state(&saved, game) && saved.ply() == game.ply());
    if holds_it {
        let _ = fs::remove_file(adopted);
        // Its lock file goes with it (the lock is free: the game was offered as a crashed one).
        if autosave_pid(adopted).is_some() {
            let _ = fs::remove_file(lock_of(adopted));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths whose games folder is `dir`.
    fn paths_in(dir: &Path) -> Paths {
        Paths {
            config: dir.join("config.toml"),
            data: dir.to_path_buf(),
            autosave: dir.join("current.pgn"),
        }
    }

    #[test]
    fn only_a_kept_game_of_the_games_folder_is_deleted() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("games");
        fs::create_dir_all(&dir).unwrap();
        let paths = paths_in(&dir);
        let one = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
        let kept = dir.join("20261120-100000.pgn");
        let current = dir.join("current.pgn");
        let two = dir.join("two.pgn");
        let outside = tmp.path().join("mine.pgn");
        fs::write(&kept, one).unwrap();
        fs::write(&current, one).unwrap();
        fs::write(&two, format!("{one}\n{one}")).unwrap();
        fs::write(&outside, one).unwrap();
        for refused in [&current, &two, &outside] {
            assert!(
                delete_kept(&paths, refused).is_err(),
                "{}",
                refused.display()
            );
            assert!(refused.exists());
        }
        delete_kept(&paths, &kept).unwrap();
        assert!(!kept.exists());
        // A game watched is the player's to delete too.
        let watched = paths.watched().join("20261120-110000.pgn");
        write_atomic(&watched, one).unwrap();
        delete_kept(&paths, &watched).unwrap();
        assert!(!watched.exists());
    }

    #[test]
    fn an_autosave_with_a_latin1_name_is_resumed_not_set_aside() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let paths = paths_in(&dir);
        // "José" in Latin-1: 0xE9 is no UTF-8.
        let mut pgn = b"[White \"Jos".to_vec();
        pgn.push(0xE9);
        pgn.extend_from_slice(b"\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n");
        fs::write(paths.current(), &pgn).unwrap();
        assert_eq!(keep_damaged_autosave(&paths), None);
        let game = resume_game(&paths).unwrap().game;
        assert_eq!(game.ply(), 1);
        assert!(game.names[0].starts_with("Jos"));
    }
}
