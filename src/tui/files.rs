//! Settings and games on disk: where they live, reading and writing the config file, atomic
//! writes, the autosave and the archive of finished games.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::app::Settings;
use crate::game::{Game, timestamp};

/// Where settings and games live: `$KNIGHTFALL_HOME` when set (tests), else the platform's
/// config and data directories.
#[derive(Clone, Debug)]
pub struct Paths {
    /// The config file.
    pub config: PathBuf,
    /// Directory for saved games.
    pub data: PathBuf,
    /// Where this instance autosaves its game: `current.pgn`, unless another running Knightfall
    /// holds that (see [`AutosaveSlot`]).
    pub autosave: PathBuf,
}

impl Paths {
    /// The paths for this user.
    pub fn get() -> Paths {
        let (config, data) = if let Some(home) = std::env::var_os("KNIGHTFALL_HOME") {
            let home = PathBuf::from(home);
            (home.join("config.toml"), home.join("games"))
        } else {
            match directories::ProjectDirs::from("", "", "knightfall") {
                Some(dirs) => (
                    dirs.config_dir().join("config.toml"),
                    dirs.data_dir().join("games"),
                ),
                None => (
                    PathBuf::from("knightfall.toml"),
                    PathBuf::from("knightfall-games"),
                ),
            }
        };
        Paths {
            autosave: data.join("current.pgn"),
            config,
            data,
        }
    }

    /// The in-progress game, rewritten after every move (for `--resume` and crashes).
    pub fn current(&self) -> PathBuf {
        self.data.join("current.pgn")
    }
}

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

/// Reads the settings; a missing file gives the defaults. A file that cannot be read is an
/// error, not the defaults: starting a game saves the settings, which would replace the
/// player's engines and tables with nothing.
pub fn load_settings(paths: &Paths) -> Result<Settings> {
    let path = &paths.config;
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Settings::default()),
        Err(e) => anyhow::bail!("cannot read the settings file {}: {e}", path.display()),
    };
    toml::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "the settings file {} has an error; fix it, or delete it to start from the \
             defaults:\n{e}",
            path.display()
        )
    })
}

/// Writes the settings.
pub fn save_settings(paths: &Paths, settings: &Settings) -> Result<()> {
    if let Some(dir) = paths.config.parent() {
        fs::create_dir_all(dir)?;
    }
    let text = toml::to_string(settings)?;
    fs::write(&paths.config, text).with_context(|| format!("writing {}", paths.config.display()))
}

/// Writes `text` to `path` through a temporary file, so a crash never leaves half a game.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let tmp = path.with_extension("pgn.tmp");
    let written = fs::write(&tmp, text)
        .with_context(|| format!("writing {}", tmp.display()))
        .and_then(|()| {
            fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
        });
    if written.is_err() {
        // A failed save leaves nothing behind.
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// Saves a game where the player asked (`save FILE`): a new file, or a PGN file of one game,
/// which is replaced; anything else already there is kept and the save refused.
pub fn save_as(path: &Path, text: &str) -> Result<()> {
    if path.exists() {
        let existing = if path.is_file() {
            fs::read_to_string(path).ok()
        } else {
            None
        };
        let Some(existing) = existing.filter(|t| read_game(t).is_ok()) else {
            anyhow::bail!(
                "{} exists and is not a PGN game; choose another name",
                path.display()
            );
        };
        if Game::all_from_pgn(&existing, 2).len() > 1 {
            anyhow::bail!(
                "{} holds several games and this would replace them all; choose another name",
                path.display()
            );
        }
    }
    write_atomic(path, text)
}

/// Reads a file's text as a PGN game. Any text reads as a game without moves, so a game must
/// also have moves or a tag pair (`[Name "value"]`; an INI or TOML section is not one).
fn read_game(text: &str) -> Result<Game, String> {
    let game = Game::from_pgn(text).map_err(|e| e.to_string())?;
    let tag_pair = |line: &str| {
        line.strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|l| l.split_once(' '))
            .is_some_and(|(name, value)| {
                !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && value.trim().starts_with('"')
                    && value.trim().ends_with('"')
            })
    };
    let tagged = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(tag_pair);
    if game.ply() == 0 && !tagged {
        return Err("no PGN game in it".to_string());
    }
    Ok(game)
}

/// Moves an autosave that cannot be read out of the way, so a new game does not overwrite it;
/// returns where it went and why it could not be read.
pub fn keep_damaged_autosave(paths: &Paths) -> Option<(PathBuf, String)> {
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
pub fn resume_game(paths: &Paths) -> Result<Game> {
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
