//! The games folder in the library: the player's finished games (not the autosave of a game
//! under way, the analysis board's lines or the games watched) are brought in with the reviews
//! the review cache holds of them, so the library is every game the player has. A file
//! unchanged since it was last read is not read again; the review cache stays where it is,
//! for the review screen and for an older Knightfall.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::UNIX_EPOCH;

use anyhow::Result;
use rusqlite::{OptionalExtension, params};

use super::Library;
use super::reviews::Origin;
use crate::store::listing::is_autosave;
use crate::store::{Listed, Paths, games_folder, review_cache};

/// Where the games folder's games say they came from.
pub const SOURCE: &str = "games folder";

/// A file's modification time (nanoseconds) and size: changed when either is.
fn stamp(file: &Path) -> Option<(i64, i64)> {
    let meta = std::fs::metadata(file).ok()?;
    let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some((modified.as_nanos() as i64, meta.len() as i64))
}

impl Library {
    /// Brings in the games folder's finished games that are new or changed since the last
    /// time, each with its cached review where the library has none as far along; returns how
    /// many games were added.
    pub fn index_folder(&mut self, paths: &Paths) -> Result<usize> {
        let mut files: BTreeMap<std::sync::Arc<Path>, Vec<Listed>> = BTreeMap::new();
        for listed in games_folder(paths) {
            let own = !listed.is_analysis()
                && !listed.is_watched()
                && !listed
                    .file
                    .file_name()
                    .is_some_and(|n| is_autosave(&n.to_string_lossy()));
            if own {
                files.entry(listed.file.clone()).or_default().push(listed);
            }
        }
        // A review cached since the last look (the folder changes with every file saved into
        // it) may be of a game whose file did not change: every file is looked at again.
        let reviews = paths.reviews();
        let reviewed = !self.unchanged(&reviews)?;
        let mut added = 0;
        for (file, games) in files {
            if !reviewed && self.unchanged(&file)? {
                continue;
            }
            for listed in games {
                added += usize::from(self.add_listed(paths, &listed)?);
            }
            self.mark(&file)?;
        }
        self.mark(&reviews)?;
        Ok(added)
    }

    /// Whether `file` is as it was when last [`mark`](Library::mark)ed.
    fn unchanged(&self, file: &Path) -> Result<bool> {
        let known: Option<(i64, i64)> = self
            .conn
            .query_row(
                "SELECT modified, size FROM folder_files WHERE path = ?1",
                params![file.display().to_string()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(known.is_some() && known == stamp(file))
    }

    /// Notes `file` as read as it is now.
    fn mark(&self, file: &Path) -> Result<()> {
        if let Some((modified, size)) = stamp(file) {
            self.conn.execute(
                "INSERT OR REPLACE INTO folder_files (path, modified, size) VALUES (?1, ?2, ?3)",
                params![file.display().to_string(), modified, size],
            )?;
        }
        Ok(())
    }

    /// Adds one game of the games folder and its cached review; whether the game was new.
    fn add_listed(&mut self, paths: &Paths, listed: &Listed) -> Result<bool> {
        let Ok(game) = listed.load() else {
            return Ok(false);
        };
        // A game under way, or one aborted before it began, is nothing to look back on.
        if game.outcome().is_none() || game.is_aborted() {
            return Ok(false);
        }
        let text = game.to_pgn();
        let Some(Ok(raw)) = crate::pgn::raw::games(text.as_bytes()).next() else {
            return Ok(false);
        };
        let (id, added) = super::import::add(&self.conn, &raw, &game, SOURCE)?;
        let cached =
            review_cache::cached(&paths.reviews(), game, crate::review::DEFAULT_MOVETIME_MS);
        let kept = self.status(id)?.map_or(0, |s| s.done);
        if cached.done() as i64 > kept {
            self.save_review(id, &cached, Origin::Engine)?;
        }
        Ok(added)
    }
}
