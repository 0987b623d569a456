//! The games folder: this instance's autosave and its lock, the archive of finished games, a
//! damaged autosave kept aside, and the in-progress game for `--resume`.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::Paths;
use super::atomic::{read_game, write_atomic};
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
        let own = |held_by: String| AutosaveSlot {
            path: paths.data.join(format!("current-{me}.pgn")),
            held_by: Some(held_by),
            _lock: None,
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

/// Opens (or creates, for this user alone) `path` for reading and writing, refusing to follow a
/// link planted in its place.
fn open_no_follow(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Moves an autosave that cannot be read out of the way, so a new game does not overwrite it;
/// returns where it went and why it could not be read.
pub(crate) fn keep_damaged_autosave(paths: &Paths) -> Option<(PathBuf, String)> {
    let path = paths.current();
    let text = fs::read(&path).ok()?;
    // Read as `review` reads it: a name in Latin-1 is no damage.
    let why = match read_game(&String::from_utf8_lossy(&text)) {
        Ok(_) => return None,
        Err(e) => e,
    };
    let aside = paths
        .data
        .join(format!("current-damaged-{}.pgn", timestamp()));
    fs::rename(&path, &aside).ok()?;
    Some((aside, why))
}

/// Keeps `game` in its own file in the games folder, named after the time it started, so
/// saving it again (after a resume, at exit) replaces that file instead of adding another;
/// returns the file, or `None` for a game without moves.
pub fn archive(game: &Game, paths: &Paths) -> Result<Option<PathBuf>> {
    if game.ply() == 0 {
        return Ok(None);
    }
    let stem = game.started.clone().unwrap_or_else(timestamp);
    // Another game may have started in the same second: it keeps its file.
    for n in 1.. {
        let name = match n {
            1 => format!("{stem}.pgn"),
            _ => format!("{stem}-{n}.pgn"),
        };
        let path = paths.data.join(name);
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
    let Ok(saved) = fs::read_to_string(path)
        .map_err(anyhow::Error::from)
        .and_then(|t| Game::from_pgn(&t).map_err(anyhow::Error::from))
    else {
        return false;
    };
    let (a, b) = (saved.moves(), game.moves());
    saved.started == game.started
        && saved.names == game.names
        && a.len() <= b.len()
        && a == &b[..a.len()]
}

/// Loads the in-progress game for `--resume`. A file that cannot be read is moved aside (and
/// the message says where), so that the next game does not overwrite it.
pub(crate) fn resume_game(paths: &Paths) -> Result<Game> {
    let path = paths.current();
    if let Some((aside, why)) = keep_damaged_autosave(paths) {
        anyhow::bail!(
            "the last game ({}) cannot be read: {why}; it is kept as {}",
            path.display(),
            aside.display()
        );
    }
    let bytes = fs::read(&path)
        .with_context(|| format!("no game to resume ({} not readable)", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let game = Game::from_pgn(&text).with_context(|| format!("reading {}", path.display()))?;
    if game.is_over() {
        anyhow::bail!(
            "the last game ({}) is finished; nothing to resume",
            path.display()
        );
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_autosave_with_a_latin1_name_is_resumed_not_set_aside() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let paths = Paths {
            config: dir.join("config.toml"),
            data: dir.clone(),
            autosave: dir.join("current.pgn"),
        };
        // "José" in Latin-1: 0xE9 is no UTF-8.
        let mut pgn = b"[White \"Jos".to_vec();
        pgn.push(0xE9);
        pgn.extend_from_slice(b"\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n");
        fs::write(paths.current(), &pgn).unwrap();
        assert_eq!(keep_damaged_autosave(&paths), None);
        let game = resume_game(&paths).unwrap();
        assert_eq!(game.ply(), 1);
        assert!(game.names[0].starts_with("Jos"));
    }
}
