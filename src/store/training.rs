//! The player's training record, kept in the library's database beside the games folder (see
//! [`crate::store::library::training`]): read, saved by several Knightfalls at once, and moved
//! in from the file earlier versions kept. The player's mistakes are read here too, from the
//! reviewed games of the library, the games folder's among them.
//!
//! Several Knightfalls may train at once, so a save never writes one instance's copy over the
//! record: the instance keeps the results it recorded since its last save as [`Change`]s, and
//! [`save`] replays them onto the record as it is, in one write transaction, and hands back the
//! merged record.
//!
//! Earlier versions kept the record in `training.toml` beside the games folder. The first time
//! the record is opened it is moved into the database and the file renamed
//! `training.toml.migrated`, never read again; a file that cannot be read is kept aside under
//! a new name, and the player is told where, never silently reset.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::Paths;
use super::library::Library;
use crate::train::mistake::{Mistake, card_id, is_you};
use crate::train::progress::{Change, Progress};
use crate::train::schedule::Card;

/// Progress files larger than this are not read (a year of daily drills is a few kilobytes).
const MAX_BYTES: u64 = 1 << 20;

/// The mistakes and blunders of the person in every reviewed game of the library, the games
/// folder's finished games brought in first with their cached reviews: the newest game first,
/// one per position (games reviewed only in part give what is known). Reads the settings'
/// `name`; a library that cannot be read gives none.
pub fn mistakes(paths: &Paths) -> Vec<Mistake> {
    let yours = your_names(paths);
    let Ok(mut library) = Library::open(&paths.library()) else {
        return Vec::new();
    };
    // A games folder that cannot be read leaves what the library has.
    let _ = library.index_folder(paths);
    library
        .mistakes(|name| is_you(name, &yours))
        .unwrap_or_default()
}

/// The names that are you (see [`is_you`]): the settings' `name` and accounts; none when the
/// config cannot be read.
pub fn your_names(paths: &Paths) -> Vec<String> {
    super::config::load_settings(paths)
        .map(|s| s.yours())
        .unwrap_or_default()
}

/// Where earlier versions kept the progress: beside the games folder.
pub fn path(paths: &Paths) -> PathBuf {
    paths
        .data
        .parent()
        .map_or_else(|| paths.data.clone(), PathBuf::from)
        .join("training.toml")
}

/// The progress (empty when there is none yet), and a sentence for the player when an earlier
/// version's record could not be read and was set aside, or the library cannot be read.
pub fn load(paths: &Paths) -> (Progress, Option<String>) {
    // Nothing to read: nothing is created either (a look at training writes no file).
    if fs::symlink_metadata(paths.library()).is_err() && fs::symlink_metadata(path(paths)).is_err()
    {
        return (Progress::default(), None);
    }
    match open(paths).and_then(|(library, note)| Ok((library.progress()?, note))) {
        Ok(read) => read,
        Err(e) => (
            Progress::default(),
            Some(format!(
                "The training progress in {} could not be read: {e:#}",
                paths.library().display()
            )),
        ),
    }
}

/// Saves `changes`, the results this instance recorded since its last save: in one write
/// transaction, reads the progress as it is now (with what other instances saved meanwhile),
/// applies the changes in order and writes them. Returns the merged progress, for the
/// instance to show, and a sentence for the player when an earlier version's record had to be
/// set aside as damaged.
pub fn save(paths: &Paths, changes: &[Change]) -> Result<(Progress, Option<String>)> {
    let (mut library, note) = open(paths)?;
    Ok((library.record(changes)?, note))
}

/// The library, its training record begun: the first time, with the record of `training.toml`
/// moved in (then renamed aside) or, when it cannot be read, set aside with a sentence saying
/// where.
fn open(paths: &Paths) -> Result<(Library, Option<String>)> {
    let mut library = Library::open(&paths.library())?;
    let file = path(paths);
    let mut note = None;
    let mut moved = false;
    library.start_training(|| match read_earlier(&file) {
        Ok(None) => None,
        Ok(Some(progress)) => {
            moved = true;
            Some(carried(progress))
        }
        Err(why) => {
            note = Some(set_aside(&file, &why));
            None
        }
    })?;
    if moved {
        // Renamed once the record is in: a crash before leaves the file, never read again.
        let _ = fs::rename(
            &file,
            fresh(&file, |n| match n {
                1 => "training.toml.migrated".to_string(),
                n => format!("training.toml.migrated-{n}"),
            }),
        );
    }
    Ok((library, note))
}

/// The record in `file`, none when there is no file, or why it cannot be read.
fn read_earlier(file: &Path) -> Result<Option<Progress>, String> {
    let Ok(meta) = fs::symlink_metadata(file) else {
        return Ok(None);
    };
    let text = if meta.is_file() && meta.len() <= MAX_BYTES {
        fs::read_to_string(file).map_err(|e| e.to_string())
    } else {
        Err("it is not a small regular file".to_string())
    };
    text.and_then(|t| toml::from_str::<Progress>(&t).map_err(|e| e.message().to_string()))
        .map(Some)
}

/// Sets the unreadable `file` aside under a fresh name; the sentence for the player.
fn set_aside(file: &Path, why: &str) -> String {
    let stamp = crate::game::timestamp();
    let aside = fresh(file, |n| match n {
        1 => format!("training-damaged-{stamp}.toml"),
        n => format!("training-damaged-{stamp}-{n}.toml"),
    });
    match fs::rename(file, &aside) {
        Ok(()) => format!(
            "The training progress in {} could not be read ({why}); it is kept as {} \
             and a new record starts.",
            file.display(),
            aside.display()
        ),
        Err(e) => format!(
            "The training progress in {} could not be read ({why}) nor set aside ({e}); \
             a new record starts and the file is left as it is.",
            file.display()
        ),
    }
}

/// The first of the names `name(1)`, `name(2)`… beside `file` that is free: a file kept aside
/// earlier is never replaced.
fn fresh(file: &Path, name: impl Fn(u32) -> String) -> PathBuf {
    (1..1000)
        .map(|n| file.with_file_name(name(n)))
        .find(|p| fs::symlink_metadata(p).is_err())
        .unwrap_or_else(|| file.with_extension("aside"))
}

/// An earlier version's record with its mistakes' cards under today's keys (the position
/// alone, see [`card_id`]): cards of one position, reached at other move numbers or with
/// other moves played there, become the one due first.
fn carried(mut progress: Progress) -> Progress {
    let mut cards: BTreeMap<String, Card> = BTreeMap::new();
    for (id, card) in std::mem::take(&mut progress.mistakes) {
        cards
            .entry(card_id(&id))
            .and_modify(|kept| {
                if card.due < kept.due {
                    *kept = card;
                }
            })
            .or_insert(card);
    }
    progress.mistakes = cards;
    progress
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::review::Review;
    use crate::store::library::reviews::Origin;
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
        assert_eq!(found[0].source(), "2026.11.20 against Bob, move 3.");
    }

    #[test]
    fn an_aborted_game_gives_no_mistakes() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::create_dir_all(&paths.data).unwrap();
        std::fs::write(&paths.config, "name = \"anna\"\n").unwrap();
        // A game aborted on time counts for nothing, its moves included.
        let aborted = game_text().replace("0-1", "*").replace(
            "[Date",
            "[Termination \"Aborted on time before both sides had moved\"]\n[Date",
        );
        let game = Game::from_pgn(&aborted).unwrap();
        std::fs::write(paths.data.join("20261120-120000.pgn"), &aborted).unwrap();
        cache_annas_review(&paths, game);
        assert!(mistakes(&paths).is_empty());
    }

    /// Anna's game: she resigns after leaving the queen on move 3.
    fn game_text() -> String {
        "[White \"Anna\"]\n[Black \"Bob\"]\n[Date \"2026.11.20\"]\n[Result \"0-1\"]\n\n\
         1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 0-1"
            .to_string()
    }

    /// A review of Anna's game (`1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5`) in which 3. Qxe5+ throws
    /// the queen away and 3. Bc4 was best.
    fn annas_review(game: Game) -> Review {
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
        review
    }

    /// Caches a review of Anna's game, as the review screen does.
    fn cache_annas_review(paths: &Paths, game: Game) {
        super::super::review_cache::save(&paths.reviews(), &annas_review(game)).unwrap();
    }

    #[test]
    fn a_game_kept_with_the_games_watched_gives_no_mistakes() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::write(&paths.config, "name = \"anna\"\n").unwrap();
        let game = Game::from_pgn(&game_text()).unwrap();
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
        let game = Game::from_pgn(&game_text()).unwrap();
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

    /// An imported game with a review in the library gives its mistakes too; the same
    /// position reached in a game of the games folder is the same card, naming both games.
    #[test]
    fn an_imported_games_mistakes_join_the_folders_as_one_card_per_position() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::create_dir_all(&paths.data).unwrap();
        std::fs::write(&paths.config, "name = \"anna\"\n").unwrap();
        let folder_game = Game::from_pgn(&game_text()).unwrap();
        std::fs::write(paths.data.join("20261120-120000.pgn"), folder_game.to_pgn()).unwrap();
        cache_annas_review(&paths, folder_game);
        // From a server: the same opening against Dora, two days later, by transposition (the
        // queen out first) at the same move.
        let text = "[Site \"https://lichess.org/abcdefgh\"]\n[White \"anna\"]\n\
                    [Black \"Dora\"]\n[Date \"2026.11.22\"]\n[Result \"0-1\"]\n\n\
                    1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 0-1\n";
        let file = dir.path().join("lichess.pgn");
        std::fs::write(&file, text).unwrap();
        let mut library = Library::open(&paths.library()).unwrap();
        let mut summary = crate::store::library::import::Summary::default();
        library.import(&file, &mut summary).unwrap();
        let id = library.list().unwrap()[0].id;
        let (game, _) = library.review(id).unwrap().unwrap();
        library
            .save_review(id, &annas_review(game.game), Origin::File)
            .unwrap();
        let found = mistakes(&paths);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].source(),
            "2026.11.22 against Dora, move 3.; also 2026.11.20 against Bob, move 3."
        );
    }

    /// A home of an earlier version: a record with every kind of result, and reviews cached
    /// beside the games folder.
    fn earlier_record() -> Progress {
        let mut p = Progress::default();
        p.record("KQvK", true, true, Some(3), 20_783);
        p.record("KQvK", false, false, None, 20_784);
        p.record("KBNvK", true, false, Some(9), 20_790);
        p.record_puzzle(&puzzle("p1", 1500), true);
        p.record_puzzle(&puzzle("p2", 1800), false);
        p.record_puzzle(&puzzle("p1", 1500), false);
        for (id, grade, day) in [
            ("m1 w - -", 5, 100),
            ("m2 b KQ -", 1, 101),
            ("m1 w - -", 4, 101),
        ] {
            Change::Answer {
                id: id.into(),
                grade,
                today: day,
            }
            .apply(&mut p);
        }
        assert!(p.puzzle_motifs.len() > 1 && p.mistakes.len() == 2);
        p
    }

    #[test]
    fn an_earlier_record_is_moved_in_whole_on_the_first_start_and_never_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        let before = earlier_record();
        let text = toml::to_string(&before).unwrap();
        fs::write(path(&paths), &text).unwrap();
        let (after, note) = load(&paths);
        assert_eq!(note, None);
        assert_eq!(after, before);
        // Renamed aside, as it was.
        assert!(!path(&paths).exists());
        let aside = dir.path().join("training.toml.migrated");
        assert_eq!(fs::read_to_string(&aside).unwrap(), text);
        // The tries are rows: the first try of p1 is the one the record keeps.
        let library = Library::open(&paths.library()).unwrap();
        assert_eq!(library.puzzle_tries("p1").unwrap(), (1, 1));
        // A training.toml written again (by an earlier version) is never read.
        fs::write(path(&paths), toml::to_string(&Progress::default()).unwrap()).unwrap();
        let (again, note) = save(
            &paths,
            &[Change::ending("KRvK", true, true, Some(0), 20_800)],
        )
        .unwrap();
        assert_eq!(note, None);
        assert_eq!(again.endings.len(), 3);
        assert_eq!(again.puzzle_history, before.puzzle_history);
        assert!(path(&paths).exists());
        // The tries of this version are rows as they come.
        save(&paths, &[Change::puzzle(&puzzle("p1", 1500), true)]).unwrap();
        assert_eq!(library.puzzle_tries("p1").unwrap(), (2, 2));
    }

    /// The cards of an earlier version were kept under the whole FEN and the move played:
    /// moved in, each is the card of its position, its schedule kept; two of one position
    /// become one, the one due first.
    #[test]
    fn the_cards_of_an_earlier_version_keep_their_schedules() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::create_dir_all(&paths.data).unwrap();
        std::fs::write(&paths.config, "name = \"anna\"\n").unwrap();
        let game = Game::from_pgn(&game_text()).unwrap();
        std::fs::write(paths.data.join("20261120-120000.pgn"), game.to_pgn()).unwrap();
        cache_annas_review(&paths, game);
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3";
        let learned = Card::new(100).answered(5, 100).answered(5, 101);
        let later = learned.answered(5, 107);
        let mut before = Progress::default();
        before.mistakes.insert(format!("{fen} h5e5"), learned);
        // The same position, reached at another move in another game, another move played.
        let elsewhere = fen.replace(" 2 3", " 4 5");
        before.mistakes.insert(format!("{elsewhere} h5f7"), later);
        fs::write(path(&paths), toml::to_string(&before).unwrap()).unwrap();
        let found = mistakes(&paths);
        assert_eq!(found.len(), 1);
        let (after, _) = load(&paths);
        assert_eq!(after.mistakes.len(), 1, "{after:?}");
        assert_eq!(after.mistakes[&found[0].id()], learned);
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
        // Said once: the new record is the database's.
        assert_eq!(load(&paths).1, None);
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

    /// After the first start every review cached of the games folder's games is in the
    /// library, as far as it went, and the cache is left in place.
    #[test]
    fn the_cached_reviews_are_in_the_library_after_the_first_start() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        std::fs::create_dir_all(&paths.data).unwrap();
        let whole = annas_review(Game::from_pgn(&game_text()).unwrap());
        // Another game, its review stopped half-way.
        let other = "[White \"Anna\"]\n[Black \"Carl\"]\n[Date \"2026.11.21\"]\n\
                     [Result \"1-0\"]\n\n1. d4 d5 2. c4 e6 1-0";
        let mut half = Review::new(Game::from_pgn(other).unwrap(), whole.movetime_ms);
        for (ply, e) in whole.evals.iter().take(3).enumerate() {
            half.evals[ply] = e.clone();
        }
        for (n, review) in [&whole, &half].into_iter().enumerate() {
            let file = paths.data.join(format!("2026112{n}-120000.pgn"));
            std::fs::write(file, review.game.to_pgn()).unwrap();
            super::super::review_cache::save(&paths.reviews(), review).unwrap();
        }
        let cached = fs::read_dir(paths.reviews()).unwrap().count();
        mistakes(&paths);
        let library = Library::open(&paths.library()).unwrap();
        let listed = library.list().unwrap();
        assert_eq!(listed.len(), 2);
        for entry in listed {
            let (back, origin) = library.review(entry.id).unwrap().unwrap();
            let kept = if entry.black == "Bob" { &whole } else { &half };
            assert_eq!(back.evals, kept.evals, "{}", entry.black);
            assert_eq!(origin, Origin::Engine);
        }
        assert_eq!(fs::read_dir(paths.reviews()).unwrap().count(), cached);
    }

    #[test]
    fn progress_round_trips_and_keeps_the_best() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        assert_eq!(load(&paths), (Progress::default(), None));
        assert!(!paths.library().exists(), "a look writes nothing");
        let changes = [
            Change::ending("KQvK", true, true, Some(3), 20_783),
            Change::ending("KQvK", true, true, Some(1), 20_783),
            Change::ending("KQvK", true, false, Some(0), 20_783),
            Change::ending("KQvK", false, false, None, 20_784),
        ];
        let (saved, _) = save(&paths, &changes).unwrap();
        let (back, note) = load(&paths);
        assert_eq!(note, None);
        assert_eq!(back, saved);
        let r = &back.endings["KQvK"];
        assert_eq!(
            (r.tried, r.done, r.clean, r.best_over_par),
            (4, 3, 2, Some(1))
        );
        assert!(!path(&paths).exists());
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
    }

    /// The saves of [`saves_from_two_processes_lose_nothing`]'s processes: this test binary
    /// run again on this test alone, with the home to save into in the environment.
    #[test]
    #[ignore = "run by saves_from_two_processes_lose_nothing in processes of its own"]
    fn a_process_saving() {
        let Some(home) = std::env::var_os("KNIGHTFALL_TRAINING_SAVER") else {
            return;
        };
        let paths = paths(Path::new(&home));
        for n in 0..20 {
            let changes = [
                Change::ending("KRvK", true, false, None, 100),
                Change::puzzle(&puzzle(&format!("p{}-{n}", std::process::id()), 1500), true),
            ];
            save(&paths, &changes).unwrap();
        }
    }

    /// Two processes saving at once, each from the start (the first to start moves the earlier
    /// record in): every result of both is kept.
    #[test]
    fn saves_from_two_processes_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let paths = paths(dir.path());
        let mut before = Progress::default();
        before.record("KRvK", true, true, Some(0), 100);
        fs::write(path(&paths), toml::to_string(&before).unwrap()).unwrap();
        let children: Vec<_> = (0..2)
            .map(|_| {
                std::process::Command::new(std::env::current_exe().unwrap())
                    .args([
                        "store::training::tests::a_process_saving",
                        "--exact",
                        "--ignored",
                        "--test-threads=1",
                    ])
                    .env("KNIGHTFALL_TRAINING_SAVER", dir.path())
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
        let (p, note) = load(&paths);
        assert_eq!(note, None);
        assert_eq!(p.endings["KRvK"].tried, 41, "{p:?}");
        assert_eq!(p.puzzles.len(), 40);
        assert_eq!(p.puzzle_history.len(), 40);
        assert!(dir.path().join("training.toml.migrated").is_file());
    }
}
