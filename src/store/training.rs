//! The player's training progress on disk, `training.toml` beside the games folder: the record
//! ([`Progress`], what it holds and how a result changes it, is the model's) read, written,
//! locked and merged. A file that cannot be read is kept aside under a new name, and the player
//! is told where, never silently reset. The player's mistakes are read here too, from the
//! reviewed games of the games folder.
//!
//! Several Knightfalls may train at once, so a save never writes one instance's copy over the
//! file: the instance keeps the results it recorded since its last save as [`Change`]s, and
//! [`save`] replays them onto the record read afresh, holding an advisory lock
//! (`.training.lock` beside it) from the read to the rename, and hands back the merged record.

use std::fs;
use std::path::PathBuf;

use anyhow::{Context, Result};

use super::Paths;
use crate::game::Game;
use crate::train::mistake::{Mistake, is_you, of_review};
use crate::train::progress::{Change, Progress};

/// Progress files larger than this are not read (a year of daily drills is a few kilobytes).
const MAX_BYTES: u64 = 1 << 20;

/// The most games read for mistakes, newest first.
const MAX_GAMES_READ: usize = 2_000;
/// The most mistakes kept for practice.
const MAX_MISTAKES: usize = 5_000;

/// The mistakes and blunders of the person in every reviewed game of the games folder, newest
/// game first (games reviewed only in part give what is known). Reads the games, the review
/// cache and the settings' `name`; a game that cannot be read is skipped.
pub fn mistakes(paths: &Paths) -> Vec<Mistake> {
    let yours = your_names(paths);
    let mut out = Vec::new();
    for listed in super::games_folder(paths)
        .iter()
        // The board's lines and the games the player watched hold no moves of theirs.
        .filter(|l| !l.is_analysis() && !l.is_watched())
        // Only a game of yours is read from its file.
        .filter(|l| {
            l.heading
                .as_ref()
                .is_ok_and(|h| h.names().iter().any(|n| is_you(n, &yours)))
        })
        .take(MAX_GAMES_READ)
    {
        let Ok(game) = listed.load() else {
            continue;
        };
        // An aborted game counts for nothing, its moves included.
        if !game.names.iter().any(|n| is_you(n, &yours)) || game.is_aborted() {
            continue;
        }
        out.extend(mistakes_of(paths, game, &yours));
        if out.len() >= MAX_MISTAKES {
            out.truncate(MAX_MISTAKES);
            break;
        }
    }
    // A game kept twice (an autosave and its archive) gives its mistakes once.
    let mut seen = std::collections::HashSet::new();
    out.retain(|m| seen.insert(m.id()));
    out
}

/// The names that are you (see [`is_you`]): the settings' `name` and accounts; none when the
/// config cannot be read.
pub fn your_names(paths: &Paths) -> Vec<String> {
    super::config::load_settings(paths)
        .map(|s| s.yours())
        .unwrap_or_default()
}

/// The mistakes and blunders of the person in `game`, as far as its cached review knows.
fn mistakes_of(paths: &Paths, game: Game, yours: &[String]) -> Vec<Mistake> {
    let review =
        super::review_cache::cached(&paths.reviews(), game, crate::review::DEFAULT_MOVETIME_MS);
    if review.done() == 0 {
        return Vec::new();
    }
    of_review(&review, yours)
}

/// Where the progress lives: beside the games folder.
pub fn path(paths: &Paths) -> PathBuf {
    paths
        .data
        .parent()
        .map_or_else(|| paths.data.clone(), PathBuf::from)
        .join("training.toml")
}

/// The lock file beside the progress, held while it is read and while it is replaced.
fn lock_path(paths: &Paths) -> PathBuf {
    path(paths).with_file_name(".training.lock")
}

/// How long a save waits for another instance to finish its own.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Takes the advisory lock on `.training.lock`, waiting for another instance's save to end.
/// `None` where the file system has no locks.
fn lock(paths: &Paths) -> Result<Option<fs::File>> {
    let file = lock_path(paths);
    if let Some(dir) = file.parent() {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // The lock files' one opener: not through a link, not blocked by a FIFO planted there.
    let lock = super::games::open_no_follow(&file)
        .with_context(|| format!("opening {}", file.display()))?;
    let until = std::time::Instant::now() + LOCK_WAIT;
    loop {
        match lock.try_lock() {
            Ok(()) => return Ok(Some(lock)),
            Err(fs::TryLockError::WouldBlock) if std::time::Instant::now() < until => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(fs::TryLockError::WouldBlock) => anyhow::bail!(
                "{} is held by another Knightfall for more than {} s",
                file.display(),
                LOCK_WAIT.as_secs()
            ),
            // A file system without locks (or whose locks fail): the save still merges with
            // the file as it is, only without keeping another instance out meanwhile.
            Err(fs::TryLockError::Error(_)) => return Ok(None),
        }
    }
}

/// The progress on disk (empty when there is none yet), and a sentence for the player when a
/// damaged file had to be set aside.
pub fn load(paths: &Paths) -> (Progress, Option<String>) {
    // Nothing to read: nothing is created either (a look at training writes no file).
    if fs::symlink_metadata(path(paths)).is_err() {
        return (Progress::default(), None);
    }
    // Setting a damaged file aside must not move a record another instance just wrote: read
    // under the lock. Without it (held too long) the read still goes on; a rename is atomic.
    let _lock = lock(paths);
    load_unlocked(paths)
}

fn load_unlocked(paths: &Paths) -> (Progress, Option<String>) {
    let file = path(paths);
    let meta = match fs::symlink_metadata(&file) {
        Ok(meta) => meta,
        Err(_) => return (Progress::default(), None),
    };
    let text = if meta.is_file() && meta.len() <= MAX_BYTES {
        fs::read_to_string(&file).map_err(|e| e.to_string())
    } else {
        Err("it is not a small regular file".to_string())
    };
    match text.and_then(|t| toml::from_str::<Progress>(&t).map_err(|e| e.message().to_string())) {
        Ok(progress) => (progress, None),
        Err(why) => {
            // A fresh name: an earlier damaged file kept aside is never replaced.
            let stamp = crate::game::timestamp();
            let aside = (1..)
                .map(|n| match n {
                    1 => format!("training-damaged-{stamp}.toml"),
                    n => format!("training-damaged-{stamp}-{n}.toml"),
                })
                .map(|name| file.with_file_name(name))
                .find(|p| fs::symlink_metadata(p).is_err())
                .unwrap_or_else(|| file.with_extension("damaged"));
            let said = match fs::rename(&file, &aside) {
                Ok(()) => format!(
                    "The training progress in {} could not be read ({why}); it is kept as {} \
                     and a new record starts.",
                    file.display(),
                    aside.display()
                ),
                Err(e) => format!(
                    "The training progress in {} could not be read ({why}) nor set aside ({e}); \
                     nothing will be written over it.",
                    file.display()
                ),
            };
            (Progress::default(), Some(said))
        }
    }
}

/// Saves `changes`, the results this instance recorded since its last save: under the lock,
/// reads the progress as it is on disk now (with what other instances saved meanwhile), applies
/// the changes in order, and writes it (atomically: a crash leaves the old file or the new
/// one). Returns the merged progress, for the instance to show, and a sentence for the player
/// when the file on disk had to be set aside as damaged.
pub fn save(paths: &Paths, changes: &[Change]) -> Result<(Progress, Option<String>)> {
    let _lock = lock(paths)?;
    let (mut progress, note) = load_unlocked(paths);
    if let Some(note) = &note
        && fs::symlink_metadata(path(paths)).is_ok()
    {
        // Damaged and not set aside: it stays as it is, for the player to look at.
        anyhow::bail!("{note}");
    }
    for change in changes {
        change.apply(&mut progress);
    }
    write(paths, &progress)?;
    Ok((progress, note))
}

/// Writes `progress` over the file, which must be a regular file or none.
fn write(paths: &Paths, progress: &Progress) -> Result<()> {
    let file = path(paths);
    // A file that could not be read nor set aside is the player's: never replace it.
    if fs::symlink_metadata(&file).is_ok_and(|m| !m.is_file()) {
        anyhow::bail!(
            "{} is not a regular file; not writing over it",
            file.display()
        );
    }
    let text = toml::to_string(progress).context("writing the training progress")?;
    super::write_atomic(&file, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Review;
    use crate::train::puzzle::Puzzle;

    fn paths(dir: &std::path::Path) -> Paths {
        Paths {
            config: dir.join("config.toml"),
            data: dir.join("games"),
            autosave: dir.join("games/current.pgn"),
        }
    }

    #[test]
    fn a_game_from_elsewhere_is_yours_by_the_settings_name() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::create_dir_all(&paths.data).unwrap();
        // Anna, as her games from a server name her, leaves the queen on move 3.
        let game = Game::from_pgn(&game_text()).unwrap();
        std::fs::write(paths.data.join("20261120-120000.pgn"), game.to_pgn()).unwrap();
        cache_annas_review(&paths, game);
        assert!(mistakes(&paths).is_empty(), "nobody here is Human");
        // One of the accounts the import keeps.
        std::fs::write(&paths.config, "accounts = [\"bob_c\", \"ANNA\"]\n").unwrap();
        assert_eq!(mistakes(&paths).len(), 1);
        std::fs::write(&paths.config, "name = \"anna\"\n").unwrap();
        let found = mistakes(&paths);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].played_san(), "Qxe5+??");
        // A game aborted on time counts for nothing, its moves included.
        let aborted = game_text().replace(
            "[Date",
            "[Termination \"Aborted on time before both sides had moved\"]\n[Date",
        );
        std::fs::write(paths.data.join("20261120-120000.pgn"), aborted).unwrap();
        assert!(mistakes(&paths).is_empty());
    }

    fn game_text() -> String {
        "[White \"Anna\"]\n[Black \"Bob\"]\n[Date \"2026.11.20\"]\n\n\
         1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *"
            .to_string()
    }

    /// Caches a review of Anna's game (`1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5`) in which 3. Qxe5+
    /// throws the queen away and 3. Bc4 was best.
    fn cache_annas_review(paths: &Paths, game: Game) {
        use crate::review::analyse::PositionEval;
        use crate::review::judge::Eval;
        use crate::train::mistake::parse_uci;
        let mut review = Review::new(game, crate::review::DEFAULT_MOVETIME_MS);
        for (ply, cp) in [20, 25, 30, 0, 10, -900, -880].into_iter().enumerate() {
            let pos = review.game.position_at(ply);
            let best = if ply == 4 { "f1c4" } else { "" };
            review.evals[ply] = Some(PositionEval {
                eval: Eval::Cp(cp),
                line: parse_uci(pos, best).into_iter().collect(),
                depth: 10,
            });
        }
        super::super::review_cache::save(&paths.reviews(), &review).unwrap();
    }

    #[test]
    fn a_game_kept_with_the_games_watched_gives_no_mistakes() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::write(&paths.config, "name = \"anna\"\n").unwrap();
        let game = Game::from_pgn(
            "[White \"Anna\"]\n[Black \"Bob\"]\n[Date \"2026.11.20\"]\n\n\
             1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *",
        )
        .unwrap();
        let file = paths.watched().join("20261120-120000.pgn");
        super::super::write_atomic(&file, &game.to_pgn()).unwrap();
        cache_annas_review(&paths, game);
        // Listed for review, marked, but no game of the player's to practise from.
        let listed = super::super::games_folder(&paths);
        assert!(listed.len() == 1 && listed[0].is_watched());
        assert!(listed[0].line().contains("watched: Anna - Bob"));
        assert!(mistakes(&paths).is_empty());
        // The same game among the player's own gives its mistake.
        std::fs::rename(&file, paths.data.join("20261120-120000.pgn")).unwrap();
        assert_eq!(mistakes(&paths).len(), 1);
    }

    #[test]
    fn every_game_of_a_file_of_games_gives_its_mistakes() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::create_dir_all(&paths.data).unwrap();
        std::fs::write(&paths.config, "name = \"anna\"\n").unwrap();
        // An export of several games: Anna's is the third, after two of other people.
        let game = Game::from_pgn(
            "[White \"Anna\"]\n[Black \"Bob\"]\n[Date \"2026.11.20\"]\n\n\
             1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *",
        )
        .unwrap();
        let other = "[White \"Carl\"]\n[Black \"Dora\"]\n[Result \"1-0\"]\n\n1. d4 d5 1-0\n\n";
        std::fs::write(
            paths.data.join("lichess_anna.pgn"),
            format!("{other}{other}{}", game.to_pgn()),
        )
        .unwrap();
        cache_annas_review(&paths, game);
        let found = mistakes(&paths);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].played_san(), "Qxe5+??");
    }

    #[test]
    fn progress_round_trips_and_keeps_the_best() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        assert_eq!(load(&paths), (Progress::default(), None));
        let mut p = Progress::default();
        p.record("KQvK", true, true, Some(3), 20_783);
        p.record("KQvK", true, true, Some(1), 20_783);
        p.record("KQvK", true, false, Some(0), 20_783);
        p.record("KQvK", false, false, None, 20_784);
        write(&paths, &p).unwrap();
        let (back, note) = load(&paths);
        assert_eq!(note, None);
        assert_eq!(back, p);
        let r = &back.endings["KQvK"];
        assert_eq!(
            (r.tried, r.done, r.clean, r.best_over_par),
            (4, 3, 2, Some(1))
        );
        assert!(dir.path().join("training.toml").is_file());
    }

    #[test]
    fn a_damaged_file_is_kept_aside_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        let file = path(&paths);
        fs::write(&file, "endings = [ not toml").unwrap();
        let (p, note) = load(&paths);
        assert_eq!(p, Progress::default());
        let note = note.unwrap();
        assert!(note.contains("training-damaged-"), "{note}");
        assert!(!file.exists());
        let kept: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("training-damaged-")
            })
            .collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(
            fs::read_to_string(kept[0].path()).unwrap(),
            "endings = [ not toml"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        let target = dir.path().join("elsewhere.txt");
        fs::write(&target, "mine").unwrap();
        std::os::unix::fs::symlink(&target, path(&paths)).unwrap();
        let (_, note) = load(&paths);
        assert!(note.is_some());
        save(&paths, &[]).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
    }

    fn puzzle(id: &str, rating: i32) -> Puzzle {
        let mut p = crate::train::puzzle::built_in()
            .into_iter()
            .find(|p| !p.motifs.is_empty())
            .unwrap();
        p.id = id.to_string();
        p.rating = rating;
        p
    }

    /// Two instances load the same record, each records its own results and saves: every
    /// result of both is on disk, and each instance is handed back the merged record.
    #[test]
    fn two_instances_saving_keep_each_others_results() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        // Both start from one puzzle already tried.
        let first = Change::puzzle(&puzzle("p1", 1500), true);
        save(&paths, std::slice::from_ref(&first)).unwrap();
        let (mut a, _) = load(&paths);
        let (mut b, _) = load(&paths);
        // A: a second puzzle, failed, and a mistake answered.
        let a_changes = vec![
            Change::puzzle(&puzzle("p2", 1700), false),
            Change::Answer {
                id: "m1".into(),
                grade: 5,
                today: 100,
            },
        ];
        for c in &a_changes {
            c.apply(&mut a);
        }
        let (a_saved, note) = save(&paths, &a_changes).unwrap();
        assert_eq!(note, None);
        assert_eq!(a_saved, a);
        // B, which loaded before A saved: one start of KQvK, and the same mistake answered.
        let b_changes = vec![
            Change::ending("KQvK", false, false, None, 100),
            Change::Answer {
                id: "m1".into(),
                grade: 5,
                today: 100,
            },
        ];
        for c in &b_changes {
            c.apply(&mut b);
        }
        let (merged, _) = save(&paths, &b_changes).unwrap();
        let (on_disk, _) = load(&paths);
        assert_eq!(merged, on_disk);
        // Everything of A's is kept, and B's on top.
        assert_eq!(on_disk.puzzles.len(), 2, "{on_disk:?}");
        assert!(!on_disk.puzzles["p2"]);
        assert_eq!(on_disk.puzzle_history.len(), 2);
        assert_eq!(on_disk.puzzle_rating, a.puzzle_rating);
        assert_eq!(on_disk.endings["KQvK"].tried, 1);
        let motifs: u32 = on_disk.puzzle_motifs.values().map(|t| t[0]).sum();
        assert_eq!(
            motifs,
            2 * puzzle("x", 0).motifs.len() as u32,
            "{on_disk:?}"
        );
        // Both answers count: the card was answered twice from memory.
        assert_eq!(on_disk.mistakes["m1"].reps, 2);
    }

    /// A rating moved by two instances is this instance's attempts played on top of the
    /// other's: the same as one instance trying them all in that order.
    #[test]
    fn ratings_of_two_instances_are_the_attempts_of_both_in_turn() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        let a = [
            Change::puzzle(&puzzle("a1", 1400), true),
            Change::puzzle(&puzzle("a2", 1600), true),
        ];
        let b = [Change::puzzle(&puzzle("b1", 1900), false)];
        save(&paths, &a).unwrap();
        let (merged, _) = save(&paths, &b).unwrap();
        let mut alone = Progress::default();
        for c in a.iter().chain(&b) {
            c.apply(&mut alone);
        }
        assert_eq!(merged, alone);
        // A puzzle tried again by the other instance keeps its first try.
        let (merged, _) = save(&paths, &[Change::puzzle(&puzzle("a1", 1400), false)]).unwrap();
        assert!(merged.puzzles["a1"]);
    }

    /// Saves from many threads at once, as from many instances: none is lost.
    #[test]
    fn saves_at_once_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..10 {
                        save(&paths, &[Change::ending("KRvK", true, false, None, 100)]).unwrap();
                    }
                });
            }
        });
        let (p, _) = load(&paths);
        assert_eq!(p.endings["KRvK"].tried, 40);
        assert!(!dir.path().join(".training.lock").is_symlink());
    }
}
