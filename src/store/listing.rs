//! Lists of games to choose from: the games of a PGN file, and the games in the games folder,
//! newest first. A list holds where each game is in its file and the few tags it shows, found
//! in one pass over the file that neither plays the moves nor holds the file; the game chosen
//! is read from its place when it is opened.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use super::Paths;
use crate::game::{Game, LoadError, PgnGame, UNKNOWN_DATE};
use crate::pgn::{Heading, PgnGames, Spanned};

/// At most this many games of one file (or of the whole games folder) are listed.
pub(crate) const MAX_GAMES: usize = 100_000;
/// The longest text of one game that is read (a game of a thousand moves with a comment on
/// each is well under 1 MB).
const MAX_GAME_BYTES: u64 = 64 << 20;

/// A game in a list to choose from: where it is and what it is.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The file (one allocation shared by all the games of a file).
    pub file: Arc<Path>,
    /// Which game of the file (from 1).
    pub index: usize,
    /// What the list shows of it, or why it cannot be reviewed.
    pub heading: Result<Heading, String>,
    /// Where the game itself is.
    source: Source,
    /// A game the player watched (from the games folder's `watched/`), not one they played.
    watched: bool,
}

/// Where a listed game is.
#[derive(Clone, Debug)]
enum Source {
    /// In memory: a game not read from a file.
    Held(Box<PgnGame>),
    /// In its file, from byte `start` to `end` (to the file's end when `None`).
    At { start: u64, end: Option<u64> },
}

impl Listed {
    /// `game`, listed as game `index` of `file`.
    pub fn of_game(file: PathBuf, index: usize, game: &Game) -> Listed {
        Listed {
            file: Arc::from(file),
            index,
            heading: Ok(game.heading()),
            source: Source::Held(Box::new(PgnGame::of(game))),
            watched: false,
        }
    }

    /// Game `index` of `file`, as the scan found it.
    fn scanned(file: Arc<Path>, index: usize, found: Spanned) -> Listed {
        let heading = match found.heading {
            Ok(h) if h.plies() == 0 => Err("it has no moves".to_string()),
            Ok(h) => Ok(h),
            // The reader's own words ("unterminated tag") say less than reading the game does
            // (which tag, on which line).
            Err(why) => Err(game_at(&file, found.start, None).err().unwrap_or(why)),
        };
        Listed {
            file,
            index,
            heading,
            source: Source::At {
                start: found.start,
                end: found.end,
            },
            watched: false,
        }
    }

    /// The game, played through, or why it cannot be reviewed. A game of a file is read from
    /// its file now, that game alone.
    pub fn load(&self) -> Result<Game, String> {
        self.heading.as_ref().map_err(Clone::clone)?;
        match &self.source {
            Source::Held(pgn) => pgn.load().map_err(|e| e.to_string()),
            Source::At { start, end } => game_at(&self.file, *start, *end),
        }
    }

    /// Whether the game is held in memory, not read from a file when it is opened.
    pub(crate) fn is_held(&self) -> bool {
        matches!(self.source, Source::Held(_))
    }

    /// Whether this is the analysis board's file of lines rather than a game.
    pub fn is_analysis(&self) -> bool {
        self.file
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("analysis-"))
    }

    /// Whether the player watched this game rather than played it: it is no game of theirs to
    /// learn their mistakes from.
    pub fn is_watched(&self) -> bool {
        self.watched
    }

    /// One line: `2026.11.22 14:03  Human - Knightfall (level 3)  0-1  C50 Italian Game`.
    pub fn line(&self) -> String {
        match &self.heading {
            Ok(h) => {
                let [white, black] = h.names();
                let result = h.result().unwrap_or("*");
                let opening = h.opening().unwrap_or_default();
                // The board's saved lines and the games watched are told apart from the player's.
                let kind = if self.is_analysis() {
                    "board: "
                } else if self.watched {
                    "watched: "
                } else {
                    ""
                };
                // Hours and minutes: two games of a day are told apart.
                let time = h
                    .time()
                    .map(|t| format!(" {}", t.chars().take(5).collect::<String>()));
                let moves = match h.plies().div_ceil(2) {
                    1 => "1 move".to_string(),
                    n => format!("{n} moves"),
                };
                format!(
                    "{}{}  {kind}{white} - {black}  {result}  {moves}  {opening}",
                    h.date().unwrap_or(UNKNOWN_DATE),
                    time.unwrap_or_default(),
                )
            }
            Err(why) => format!("(cannot be reviewed: {why})"),
        }
    }
}

/// Opens `file` to read a PGN from it: only a regular file (a device such as `/dev/zero` or a
/// FIFO would never end, or block the open itself); a link the player made to one is followed.
/// Returns it and its length.
pub(crate) fn open_pgn(file: &Path) -> Result<(File, u64)> {
    super::read::open_regular(file, 0).with_context(|| format!("cannot read {}", file.display()))
}

/// The text of the PGN file `file`, refusing what [`open_pgn`] refuses or is larger than
/// `max_bytes`.
pub(crate) fn read_pgn(file: &Path, max_bytes: u64) -> Result<String> {
    use std::io::Read as _;
    let (handle, len) = open_pgn(file)?;
    if len > max_bytes {
        bail!(
            "{} is {} MB; Knightfall reads PGN files up to {} MB",
            file.display(),
            len >> 20,
            max_bytes >> 20
        );
    }
    let mut bytes = Vec::new();
    // A file that grew since it was measured is read as far as it was.
    handle
        .take(max_bytes)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", file.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The games of the PGN file `file` in order, found one at a time as the file is read (of any
/// size: one buffer of it is in memory), each with its place and heading.
pub(crate) fn scan(file: &Path) -> Result<impl Iterator<Item = Listed> + use<>> {
    let (handle, _) = open_pgn(file)?;
    let file: Arc<Path> = Arc::from(file);
    Ok(PgnGames::new(handle)
        .enumerate()
        .map(move |(i, found)| Listed::scanned(file.clone(), i + 1, found)))
}

/// The game of `file` whose text runs from byte `start` to `end` (or to the file's end),
/// played through; an error names its line in the file.
fn game_at(file: &Path, start: u64, end: Option<u64>) -> Result<Game, String> {
    let (handle, len) = open_pgn(file).map_err(|e| format!("{e:#}"))?;
    let bytes = match end {
        Some(end) if end.saturating_sub(start) > MAX_GAME_BYTES => {
            return Err(format!(
                "its text is {} MB; Knightfall reads a game of up to {} MB",
                end.saturating_sub(start) >> 20,
                MAX_GAME_BYTES >> 20
            ));
        }
        Some(end) => end.min(len).saturating_sub(start),
        // The reader failed in it: the error is in the first part.
        None => len.saturating_sub(start).min(MAX_GAME_BYTES),
    };
    let mut text = vec![0; bytes as usize];
    handle
        .read_exact_at(&mut text, start)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    Game::from_pgn(&String::from_utf8_lossy(&text)).map_err(|e| match e {
        LoadError::NotAMove { .. } | LoadError::LongTag { .. } => {
            e.lines_down(lines_before(&handle, start)).to_string()
        }
        e => e.to_string(),
    })
}

/// The lines of `file` before byte `at`, counted as the PGN reader counts them (a CR alone
/// ends a line too).
fn lines_before(file: &File, at: u64) -> usize {
    let mut buf = vec![0u8; 1 << 16];
    let (mut lines, mut offset, mut cr) = (0, 0u64, false);
    while offset < at {
        let want = (at - offset).min(buf.len() as u64) as usize;
        let n = match file.read_at(&mut buf[..want], offset) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &b in &buf[..n] {
            lines += usize::from(b == b'\n' || cr);
            cr = b == b'\r';
        }
        offset += n as u64;
    }
    // The game's first byte is no line feed: a CR just before it ended a line.
    lines + usize::from(cr)
}

/// Reads the list of games of a PGN file (at most [`MAX_GAMES`]), refusing what is not a
/// regular file.
pub(crate) fn read_games(file: &Path) -> Result<Vec<Listed>> {
    let games: Vec<Listed> = scan(file)?.take(MAX_GAMES).collect();
    if games.is_empty() {
        bail!("no game in {}", file.display());
    }
    Ok(games)
}

/// Whether `name` is an autosave's: `current.pgn`, or `current-PID.pgn` of a Knightfall that
/// ran beside another (PID all digits). A player's `currently-mine.pgn` is a file of games.
pub(crate) fn is_autosave(name: &str) -> bool {
    name == "current.pgn"
        || name
            .strip_prefix("current-")
            .and_then(|n| n.strip_suffix(".pgn"))
            .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

/// The PGN files in `dir`.
fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect()
}

/// The games in the games folder: first every unfinished autosave (`current.pgn`, and
/// `current-PID.pgn` of a Knightfall that ran beside another), then every game of the other
/// files, the files newest first, then the analysis board's files, then the games the player
/// watched (`watched/`). An autosave of a game that ended, or of one also kept in its own file,
/// is left out.
pub(crate) fn games_folder(paths: &Paths) -> Vec<Listed> {
    let name = |p: &Path| {
        p.file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into())
    };
    let mut files = pgn_files(&paths.data);
    files.retain(|p| !name(p).starts_with("current-damaged"));
    // Unfinished autosaves first, then the games newest first (their names are their start
    // times), then the analysis board's files, newest first, apart from the games.
    let group = |p: &Path| {
        let n = name(p);
        if is_autosave(&n) {
            0
        } else if n.starts_with("analysis-") {
            2
        } else {
            1
        }
    };
    files.sort_by(|a, b| group(a).cmp(&group(b)).then_with(|| name(b).cmp(&name(a))));
    // The games watched last, newest first: reachable for review, out of the player's way.
    let mut watched = pgn_files(&paths.watched());
    watched.sort_by_key(|p| std::cmp::Reverse(name(p)));
    let mut listed: Vec<(bool, Listed)> = Vec::new();
    let files = files.iter().map(|f| (f, false));
    for (f, watched) in files.chain(watched.iter().map(|f| (f, true))) {
        let Ok(games) = scan(f) else {
            continue;
        };
        let autosave = !watched && is_autosave(&name(f));
        // An autosave holds one game; a file from elsewhere may hold thousands.
        let wanted = if autosave { 1 } else { MAX_GAMES };
        let room = MAX_GAMES.saturating_sub(listed.len()).min(wanted);
        listed.extend(games.take(room).map(|mut g| {
            g.watched = watched;
            (autosave, g)
        }));
    }
    // How far each kept game went, by its file's name (its start).
    let kept: std::collections::HashMap<String, usize> = listed
        .iter()
        .filter(|(autosave, l)| !autosave && l.index == 1)
        .filter_map(|(_, l)| Some((name(&l.file), l.heading.as_ref().ok()?.plies())))
        .collect();
    listed
        .into_iter()
        .filter(|(autosave, first)| {
            let Ok(g) = first.heading.as_ref() else {
                return !autosave;
            };
            let unfinished = g.result().is_none_or(|r| r == "*");
            // An autosave whose game is also kept, as far as it went, in its own file (named
            // after its start) is listed once, as that file.
            let kept_too = g
                .started()
                .and_then(|stamp| kept.get(&format!("{stamp}.pgn")))
                .is_some_and(|&plies| plies >= g.plies());
            !autosave || unfinished && !kept_too
        })
        .map(|(_, l)| l)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_autosave_names_are_autosaves_and_a_players_file_is_deleted() {
        for name in ["current.pgn", "current-4242.pgn"] {
            assert!(is_autosave(name), "{name}");
        }
        for name in [
            "currently-mine.pgn",
            "current-.pgn",
            "current-x1.pgn",
            "current-12.pgn.bak",
            "current.pgn.pgn",
        ] {
            assert!(!is_autosave(name), "{name}");
        }
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let paths = Paths {
            config: dir.join("config.toml"),
            data: dir.clone(),
            autosave: dir.join("current.pgn"),
        };
        let one = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
        let mine = dir.join("currently-mine.pgn");
        let autosave = dir.join("current-4242.pgn");
        std::fs::write(&mine, one).unwrap();
        std::fs::write(&autosave, one).unwrap();
        let refused = super::super::games::delete_kept(&paths, &autosave).unwrap_err();
        assert!(
            refused.to_string().contains("an unfinished game"),
            "{refused}"
        );
        super::super::games::delete_kept(&paths, &mine).unwrap();
        assert!(!mine.exists());
    }

    #[test]
    fn a_listed_game_is_read_from_its_place_and_devices_and_fifos_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("games.pgn");
        let games: String = (1..=50)
            .map(|i| {
                format!(
                    "[White \"W{i}\"]\n[Round \"{i}\"]\n\n1. e4 e5 2. Nf3 {{ game {i} }} Nc6 *\n\n"
                )
            })
            .collect();
        std::fs::write(&file, &games).unwrap();
        let listed = read_games(&file).unwrap();
        assert_eq!(listed.len(), 50);
        for (i, l) in listed.iter().enumerate() {
            assert_eq!(l.index, i + 1);
            let game = l.load().unwrap();
            assert_eq!(game.names[0], format!("W{}", i + 1));
            assert_eq!(game.ply(), 4);
        }
        // A link the player made to a file of games is followed; one to a device is refused.
        let link = tmp.path().join("link.pgn");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_games(&link).unwrap().len(), 50);
        let endless = tmp.path().join("endless.pgn");
        std::os::unix::fs::symlink("/dev/zero", &endless).unwrap();
        let err = format!("{:#}", read_games(&endless).unwrap_err());
        assert!(err.contains("not a regular file"), "{err}");
        let fifo = tmp.path().join("fifo.pgn");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = format!("{:#}", read_games(&fifo).unwrap_err());
        assert!(err.contains("not a regular file"), "{err}");
    }
}
