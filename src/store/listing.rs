//! Lists of games to choose from: the games of a PGN file, and the finished games in the games
//! folder, newest first.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::Paths;
use crate::game::{Game, PgnGame};

/// PGN files larger than this are refused (a million games is about 1 GB; this is plenty).
const MAX_PGN_BYTES: u64 = 256 << 20;
/// At most this many games of one file are listed.
pub(crate) const MAX_GAMES: usize = 100_000;

/// A game in a list to choose from: where it is and what it is.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The file.
    pub file: PathBuf,
    /// Which game of the file (from 1).
    pub index: usize,
    /// The game as its file writes it (played through only when opened), or why it cannot be
    /// reviewed.
    pub pgn: Result<PgnGame, String>,
}

impl Listed {
    /// `game`, listed as game `index` of `file`.
    pub fn of_game(file: PathBuf, index: usize, game: &Game) -> Listed {
        Listed {
            file,
            index,
            pgn: Ok(PgnGame::of(game)),
        }
    }

    /// The game, played through, or why it cannot be reviewed.
    pub fn load(&self) -> Result<Game, String> {
        let pgn = self.pgn.as_ref().map_err(Clone::clone)?;
        pgn.load().map_err(|e| e.to_string())
    }

    /// Whether this is the analysis board's file of lines rather than a game.
    pub fn is_analysis(&self) -> bool {
        self.file
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("analysis-"))
    }

    /// One line: `2026.11.22 14:03  Human - Knightfall (level 3)  0-1  C50 Italian Game`.
    pub fn line(&self) -> String {
        match &self.pgn {
            Ok(g) => {
                let [white, black] = g.names();
                let result = g.result().unwrap_or("*");
                // The opening takes the moves played through: only for the lines shown.
                let opening = self
                    .load()
                    .ok()
                    .and_then(|game| game.opening())
                    .map(|o| format!("{} {}", o.eco, o.name))
                    .unwrap_or_default();
                // The board's saved lines are told apart from games.
                let kind = if self.is_analysis() { "board: " } else { "" };
                // Hours and minutes: two games of a day are told apart.
                let time = g.time().map(|t| format!(" {}", &t[..t.len().min(5)]));
                format!(
                    "{}{}  {kind}{white} - {black}  {result}  {} moves  {opening}",
                    g.date().unwrap_or("????.??.??"),
                    time.unwrap_or_default(),
                    g.plies().div_ceil(2)
                )
            }
            Err(why) => format!("(cannot be reviewed: {why})"),
        }
    }
}

/// The text of the PGN file `file`, refusing what is not a regular file (a device such as
/// `/dev/zero` or a fifo would never end) or is larger than `max_bytes`.
pub(crate) fn read_pgn(file: &Path, max_bytes: u64) -> Result<String> {
    let meta =
        std::fs::metadata(file).with_context(|| format!("cannot read {}", file.display()))?;
    if !meta.is_file() {
        bail!("{} is not a regular file", file.display());
    }
    if meta.len() > max_bytes {
        bail!(
            "{} is {} MB; Knightfall reads PGN files up to {} MB",
            file.display(),
            meta.len() >> 20,
            max_bytes >> 20
        );
    }
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads the games of a PGN file, refusing what is not a regular, reasonably sized file.
pub(crate) fn read_games(file: &Path) -> Result<Vec<Listed>> {
    let text = read_pgn(file, MAX_PGN_BYTES)?;
    // As written, not played through: a list of thousands of games holds their text, not
    // their positions; the one opened is played through then.
    let games: Vec<Listed> = Game::all_written_in_pgn(&text, MAX_GAMES)
        .into_iter()
        .enumerate()
        .map(|(i, g)| Listed {
            file: file.to_path_buf(),
            index: i + 1,
            pgn: g.map_err(|e| e.to_string()).and_then(|g| {
                if g.plies() == 0 {
                    Err("it has no moves".to_string())
                } else {
                    Ok(g)
                }
            }),
        })
        .collect();
    if games.is_empty() {
        bail!("no game in {}", file.display());
    }
    Ok(games)
}

/// The games in the games folder: first every unfinished autosave (`current.pgn`, and
/// `current-PID.pgn` of a Knightfall that ran beside another), then the kept games, newest
/// first. An autosave of a game that ended, or of one also kept in its own file, is left out.
pub(crate) fn games_folder(paths: &Paths) -> Vec<Listed> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(&paths.data)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    let name = |p: &PathBuf| {
        p.file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into())
    };
    files.retain(|p| {
        p.extension().is_some_and(|e| e == "pgn") && !name(p).starts_with("current-damaged")
    });
    // Unfinished autosaves first, then the games newest first (their names are their start
    // times), then the analysis board's files, newest first, apart from the games.
    let group = |p: &PathBuf| {
        let n = name(p);
        if n.starts_with("current") {
            0
        } else if n.starts_with("analysis-") {
            2
        } else {
            1
        }
    };
    files.sort_by(|a, b| group(a).cmp(&group(b)).then_with(|| name(b).cmp(&name(a))));
    let firsts: Vec<(bool, Listed)> = files
        .iter()
        .filter_map(|f| {
            let first = read_games(f).ok()?.into_iter().next()?;
            Some((name(f).starts_with("current"), first))
        })
        .collect();
    // How far each kept game went, by its file's name (its start).
    let kept: std::collections::HashMap<String, usize> = firsts
        .iter()
        .filter(|(autosave, _)| !autosave)
        .filter_map(|(_, l)| Some((name(&l.file), l.pgn.as_ref().ok()?.plies())))
        .collect();
    firsts
        .into_iter()
        .filter(|(autosave, first)| {
            let Ok(g) = first.pgn.as_ref() else {
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
        .map(|(_, first)| first)
        .collect()
}
