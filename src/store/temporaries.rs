//! Temporary files a killed Knightfall left behind: every file Knightfall writes is first
//! written to `.NAME.XXXXXX.tmp` beside it and renamed ([`super::write_atomic`]), so a kill
//! in between leaves one. They are removed at the next start, in every folder Knightfall
//! writes to.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::Paths;

/// A temporary file younger than this may be another running Knightfall's write under way.
const STALE: Duration = Duration::from_secs(60);

/// Removes the stale temporary files in every folder Knightfall keeps files in: the games
/// folder (autosaves, kept games) and its games watched, the review cache, the folder of the
/// training record and of the log, and the config file's folder.
pub fn remove_stale_everywhere(paths: &Paths) {
    let mut dirs = vec![paths.data.clone(), paths.watched(), paths.reviews()];
    if let Some(parent) = paths.data.parent() {
        dirs.push(parent.to_path_buf());
    }
    if let Some(parent) = paths.config.parent() {
        dirs.push(parent.to_path_buf());
    }
    dirs.dedup();
    for dir in dirs {
        remove_stale(&dir, None);
    }
}

/// Removes the stale temporary files in `dir`: all of Knightfall's shape, or with `only`, those
/// of the file named `only` (a folder of the player's, such as `puzzles build --out`'s, where
/// other programs' files of the same shape may be).
pub(crate) fn remove_stale(dir: &Path, only: Option<&str>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let old = SystemTime::now() - STALE;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Some(written) = written_by_temporary(&name) else {
            continue;
        };
        if only.is_some_and(|only| only != written) {
            continue;
        }
        // Not followed: a link of that name is removed as the link it is, if at all.
        let stale = fs::symlink_metadata(entry.path())
            .ok()
            .filter(fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .is_some_and(|t| t < old);
        if stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The file a temporary file of Knightfall's shape, `.NAME.XXXXXX.tmp`, was written for
/// (`NAME`); `None` for any other name.
fn written_by_temporary(name: &str) -> Option<&str> {
    let (stem, random) = name
        .strip_prefix('.')?
        .strip_suffix(".tmp")?
        .rsplit_once('.')?;
    let ours =
        !stem.is_empty() && random.len() == 6 && random.chars().all(|c| c.is_ascii_alphanumeric());
    ours.then_some(stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_of_the_shape_write_atomic_makes_are_temporaries() {
        assert_eq!(
            written_by_temporary(".training.toml.qi5TVK.tmp"),
            Some("training.toml")
        );
        assert_eq!(
            written_by_temporary(".current.pgn.AbC123.tmp"),
            Some("current.pgn")
        );
        for other in [
            ".notes.tmp",
            "current.pgn.tmp",
            ".a.b.toolong.tmp",
            "..qi5TVK.tmp",
        ] {
            assert_eq!(written_by_temporary(other), None, "{other}");
        }
    }

    #[test]
    fn stale_temporaries_go_and_fresh_ones_and_other_files_stay() {
        let dir = tempfile::tempdir().unwrap();
        let stale = dir.path().join(".training.toml.qi5TVK.tmp");
        let fresh = dir.path().join(".config.toml.AbC123.tmp");
        let other_out = dir.path().join(".other.csv.ZZZZZZ.tmp");
        let kept = dir.path().join(".notes.tmp");
        for f in [&stale, &fresh, &kept, &other_out] {
            fs::write(f, "x").unwrap();
        }
        let hour_ago = SystemTime::now() - Duration::from_secs(3600);
        for f in [&stale, &kept, &other_out] {
            fs::File::options()
                .write(true)
                .open(f)
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
        remove_stale(dir.path(), Some("training.toml"));
        assert!(!stale.exists());
        assert!(other_out.exists(), "only the named file's temporaries");
        remove_stale(dir.path(), None);
        assert!(!other_out.exists());
        assert!(fresh.exists(), "a write under way stays");
        assert!(kept.exists(), "not a temporary file of ours");
    }
}
