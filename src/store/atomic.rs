//! Writing files so that a crash never leaves half of one, and saving where the player asked
//! without replacing what is not a game.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use crate::game::Game;

/// Writes `text` to `path` through a temporary file, so a crash never leaves half a game.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<()> {
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
pub(crate) fn save_as(path: &Path, text: &str) -> Result<()> {
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
pub(crate) fn read_game(text: &str) -> Result<Game, String> {
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
