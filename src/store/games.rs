//! The games folder: this instance's autosave and its lock, the archive of finished games, a
//! damaged autosave kept aside, and the in-progress game for `--resume`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::Paths;
use super::atomic::{read_game, write_atomic};
use crate::game::{Game, timestamp};

/// This instance's claim on the autosave: `current.pgn` with a lock file naming our process,
/// or, when another running Knightfall holds it, a file of our own (`current-PID.pgn`), so
/// that two games never overwrite each other. The lock goes when the claim is dropped.
pub struct AutosaveSlot {
    /// The file to autosave to.
    pub path: PathBuf,
    /// The process that holds `current.pgn`, when it is not us.
    pub held_by: Option<u32>,
    lock: Option<PathBuf>,
}

impl AutosaveSlot {
    /// Claims `current.pgn` if no running Knightfall holds it.
    pub fn claim(paths: &Paths) -> AutosaveSlot {
        let lock = paths.data.join("current.lock");
        let me = std::process::id();
        let _ = fs::create_dir_all(&paths.data);
        let holder = fs::read_to_string(&lock)
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
            .filter(|&pid| pid != me && Path::new(&format!("/proc/{pid}")).exists());
        match holder {
            Some(pid) => AutosaveSlot {
                path: paths.data.join(format!("current-{me}.pgn")),
                held_by: Some(pid),
                lock: None,
            },
            None => {
                let ours = fs::write(&lock, format!("{me}\n")).is_ok();
                AutosaveSlot {
                    path: paths.current(),
                    held_by: None,
                    lock: ours.then_some(lock),
                }
            }
        }
    }
}

impl Drop for AutosaveSlot {
    fn drop(&mut self) {
        if let Some(lock) = &self.lock {
            let _ = fs::remove_file(lock);
        }
    }
}

/// Moves an autosave that cannot be read out of the way, so a new game does not overwrite it;
/// returns where it went and why it could not be read.
pub(crate) fn keep_damaged_autosave(paths: &Paths) -> Option<(PathBuf, String)> {
    let path = paths.current();
    let text = fs::read(&path).ok()?;
    let why = match std::str::from_utf8(&text) {
        Ok(t) => match read_game(t) {
            Ok(_) => return None,
            Err(e) => e,
        },
        Err(_) => "it is not text".to_string(),
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
    let text = fs::read_to_string(&path)
        .with_context(|| format!("no game to resume ({} not readable)", path.display()))?;
    let game = Game::from_pgn(&text).with_context(|| format!("reading {}", path.display()))?;
    if game.is_over() {
        anyhow::bail!(
            "the last game ({}) is finished; nothing to resume",
            path.display()
        );
    }
    Ok(game)
}
