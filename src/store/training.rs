//! The player's training progress, `training.toml` beside the games folder: for each ending
//! drilled, how many starts were tried, won or held, and how close to par. Written atomically
//! after every finished drill; a file that cannot be read is kept aside under a new name, and
//! the player is told where, never silently reset.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::Paths;
use crate::game::Game;
use crate::review::Review;
use crate::train::mistake::{Mistake, is_you, of_review};
use crate::train::puzzle::Puzzle;
use crate::train::rating::Rating;
use crate::train::schedule::Card;

/// Progress files larger than this are not read (a year of daily drills is a few kilobytes).
const MAX_BYTES: u64 = 1 << 20;

/// Everything the training screens keep.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Endgame drills by ending (`KQvK`).
    #[serde(default)]
    pub endings: BTreeMap<String, EndingRecord>,
    /// The schedule of the player's own mistakes, by [`Mistake::id`] (the position and the
    /// move played).
    #[serde(default)]
    pub mistakes: BTreeMap<String, Card>,
    /// The player's puzzle rating.
    #[serde(default)]
    pub puzzle_rating: Rating,
    /// The puzzle rating after each of the latest puzzles, oldest first.
    #[serde(default)]
    pub puzzle_history: Vec<i32>,
    /// The puzzles tried, by id: whether the first try solved it.
    #[serde(default)]
    pub puzzles: BTreeMap<String, bool>,
    /// By theme: puzzles tried and solved.
    #[serde(default)]
    pub puzzle_themes: BTreeMap<String, [u32; 2]>,
}

/// Ratings kept in the puzzle history.
const HISTORY: usize = 200;

/// One ending's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndingRecord {
    /// Starts tried.
    #[serde(default)]
    pub tried: u32,
    /// Starts won or held (take-backs and hints allowed).
    #[serde(default)]
    pub done: u32,
    /// Starts won or held without a hint or a take-back.
    #[serde(default)]
    pub clean: u32,
    /// The fewest moves over par of a clean win.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_over_par: Option<u32>,
    /// The day of the last drill (`2026.11.26`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

impl Progress {
    /// Counts one finished start of `ending`: reached or not, clean or not, and its moves over
    /// par when it was a clean win.
    pub fn record(&mut self, ending: &str, done: bool, clean: bool, over_par: Option<u32>) {
        let r = self.endings.entry(ending.to_string()).or_default();
        r.tried += 1;
        if done {
            r.done += 1;
        }
        if done && clean {
            r.clean += 1;
            if let Some(over) = over_par {
                r.best_over_par = Some(r.best_over_par.map_or(over, |b| b.min(over)));
            }
        }
        r.last = Some(crate::game::today());
    }
}

impl Progress {
    /// Counts the first try of puzzle `p`: the rating, its history, the puzzle and its themes.
    pub fn record_puzzle(&mut self, p: &Puzzle, solved: bool) {
        self.puzzle_rating = self.puzzle_rating.after(p.rating, solved);
        self.puzzle_history
            .push(self.puzzle_rating.rating.round() as i32);
        if self.puzzle_history.len() > HISTORY {
            self.puzzle_history.remove(0);
        }
        self.puzzles.insert(p.id.clone(), solved);
        for theme in &p.themes {
            let entry = self
                .puzzle_themes
                .entry(theme.name().to_string())
                .or_default();
            entry[0] += 1;
            if solved {
                entry[1] += 1;
            }
        }
    }
}

/// The most games read for mistakes, newest first.
const MAX_GAMES_READ: usize = 2_000;
/// The most mistakes kept for practice.
const MAX_MISTAKES: usize = 5_000;

/// The mistakes and blunders of the person in every reviewed game of the games folder, newest
/// game first (games reviewed only in part give what is known). Reads the games, the review
/// cache and the settings' `name`; a game that cannot be read is skipped.
pub fn mistakes(paths: &Paths) -> Vec<Mistake> {
    let yours = your_name(paths);
    let mut out = Vec::new();
    for listed in super::games_folder(paths)
        .iter()
        .filter(|l| !l.is_analysis())
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
        if !game.names.iter().any(|n| is_you(n, &yours)) {
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

/// The settings' `name` (see [`is_you`]); none when the config cannot be read.
pub fn your_name(paths: &Paths) -> String {
    super::config::load_settings(paths)
        .map(|s| s.name)
        .unwrap_or_default()
}

/// The mistakes and blunders of the person in `game`, as far as its cached review knows.
fn mistakes_of(paths: &Paths, game: Game, yours: &str) -> Vec<Mistake> {
    let mut review = Review::new(game, crate::review::DEFAULT_MOVETIME_MS);
    if super::review_cache::load(&paths.reviews(), &mut review) == 0 {
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

/// The progress on disk (empty when there is none yet), and a sentence for the player when a
/// damaged file had to be set aside.
pub fn load(paths: &Paths) -> (Progress, Option<String>) {
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

/// Writes the progress (atomically: a crash leaves the old file or the new one).
pub fn save(paths: &Paths, progress: &Progress) -> Result<()> {
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

    fn paths(dir: &std::path::Path) -> Paths {
        Paths {
            config: dir.join("config.toml"),
            data: dir.join("games"),
            autosave: dir.join("games/current.pgn"),
        }
    }

    #[test]
    fn a_game_from_elsewhere_is_yours_by_the_settings_name() {
        use crate::review::analyse::PositionEval;
        use crate::review::judge::Eval;
        use crate::train::mistake::parse_uci;
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::create_dir_all(&paths.data).unwrap();
        // Anna, as her games from a server name her, leaves the queen on move 3.
        let game = Game::from_pgn(
            "[White \"Anna\"]\n[Black \"Bob\"]\n[Date \"2026.11.20\"]\n\n\
             1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *",
        )
        .unwrap();
        std::fs::write(paths.data.join("20261120-120000.pgn"), game.to_pgn()).unwrap();
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
        assert!(mistakes(&paths).is_empty(), "nobody here is Human");
        std::fs::write(&paths.config, "name = \"anna\"\n").unwrap();
        let found = mistakes(&paths);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].played_san(), "Qxe5+??");
    }

    #[test]
    fn every_game_of_a_file_of_games_gives_its_mistakes() {
        use crate::review::analyse::PositionEval;
        use crate::review::judge::Eval;
        use crate::train::mistake::parse_uci;
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
        p.record("KQvK", true, true, Some(3));
        p.record("KQvK", true, true, Some(1));
        p.record("KQvK", true, false, Some(0));
        p.record("KQvK", false, false, None);
        save(&paths, &p).unwrap();
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
        save(&paths, &Progress::default()).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
    }
}
