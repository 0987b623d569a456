//! PGN files into the library, as lichess and chess.com export them: read a game at a time, so
//! memory stays flat whatever the file's size; each game played through (a variant or an
//! illegal move refuses that game alone, with the reason); a game already there is not added
//! again. A game is the same game when its players, date, site and moves are.

use std::path::Path;

use anyhow::Result;
use rusqlite::{OptionalExtension, params};
use shakmaty::uci::UciMove;

use super::Library;
use crate::game::Game;
use crate::pgn::raw::{self, RawGame};

/// Games written in one transaction: a crash loses at most these, and a reader waits for none.
const BATCH: usize = 1000;

/// The refusals named one by one; past these they are only counted.
const MAX_NAMED: usize = 20;

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games added.
    pub imported: usize,
    /// Games the library had already.
    pub already: usize,
    /// Games refused.
    pub refused: usize,
    /// The first refusals: where (file and game number) and why.
    pub named: Vec<String>,
}

impl Summary {
    /// The summary in a few lines for the terminal.
    pub fn report(&self) -> String {
        let mut out = format!(
            "imported {}, already there {}, refused {}",
            self.imported, self.already, self.refused
        );
        for why in &self.named {
            out.push_str(&format!("\n  refused: {why}"));
        }
        if self.refused > self.named.len() {
            out.push_str(&format!(
                "\n  and {} more refused",
                self.refused - self.named.len()
            ));
        }
        out
    }
}

impl Library {
    /// Imports every game of the PGN file `file`, adding to `summary`.
    pub fn import(&mut self, file: &Path, summary: &mut Summary) -> Result<()> {
        let stream = crate::store::stream::open(file)?;
        let source = file.display().to_string();
        let bar = crate::store::stream::bar(stream.len, &source);
        let read = stream.read.clone();
        let mut games = raw::games(stream.reader).enumerate().peekable();
        while games.peek().is_some() {
            // Immediate: the write lock is taken at the start, waiting for another writer, rather
            // than asked for mid-way, where SQLite refuses at once to avoid a deadlock.
            let tx = self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            {
                for (i, next) in games.by_ref().take(BATCH) {
                    bar.set_position(read.load(std::sync::atomic::Ordering::Relaxed));
                    let refuse = |summary: &mut Summary, why: String| {
                        summary.refused += 1;
                        if summary.named.len() < MAX_NAMED {
                            summary
                                .named
                                .push(format!("{source} game {}: {why}", i + 1));
                        }
                    };
                    let raw = match next {
                        Ok(raw) => raw,
                        Err(e) => {
                            // The reader cannot go on past text it cannot read.
                            refuse(summary, format!("{e}; the rest of the file is not read"));
                            break;
                        }
                    };
                    let game = match Game::from_raw(&raw) {
                        Ok(game) => game,
                        Err(why) => {
                            refuse(summary, why.to_string());
                            continue;
                        }
                    };
                    let (_, added) = add(&tx, &raw, &game, &source)?;
                    if added {
                        summary.imported += 1;
                    } else {
                        summary.already += 1;
                    }
                }
            }
            tx.commit()?;
        }
        bar.finish_and_clear();
        Ok(())
    }
}

impl Library {
    /// The id of `game` in the library, if it is there: a game of the games folder as
    /// [`Library::index_folder`] brought it in (from the PGN Knightfall writes for it), or a
    /// game imported (from the tags its file gave).
    pub fn id_of(&self, game: &Game) -> Result<Option<i64>> {
        let written = [
            game.to_pgn(),
            game.to_pgn_with(crate::game::pgn::Roster::AsRead, &[], &|_| Vec::new()),
        ];
        for text in written {
            let Some(Ok(raw)) = raw::games(text.as_bytes()).next() else {
                continue;
            };
            let row = Row::of(&raw, game);
            let id = self
                .conn
                .query_row(
                    "SELECT id FROM games WHERE identity = ?1",
                    params![row.identity],
                    |r| r.get(0),
                )
                .optional()?;
            if id.is_some() {
                return Ok(id);
            }
        }
        Ok(None)
    }
}

/// Adds the game `game` (played through from `raw`, as read) from `source`, unless the library
/// has it already; its id in the library, and whether it was added.
pub(super) fn add(
    conn: &rusqlite::Connection,
    raw: &RawGame,
    game: &Game,
    source: &str,
) -> Result<(i64, bool)> {
    let row = Row::of(raw, game);
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO games
         (identity, white, black, result, date, time_control, site, eco, opening, plies, pgn,
          source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?;
    let added = insert.execute(params![
        row.identity,
        row.white,
        row.black,
        row.result,
        row.date,
        row.time_control,
        row.site,
        row.eco,
        row.opening,
        game.ply() as i64,
        game.to_pgn(),
        source,
    ])? == 1;
    let id = if added {
        conn.last_insert_rowid()
    } else {
        conn.prepare_cached("SELECT id FROM games WHERE identity = ?1")?
            .query_row(params![row.identity], |r| r.get(0))?
    };
    Ok((id, added))
}

/// A game's columns.
struct Row {
    identity: String,
    white: String,
    black: String,
    result: String,
    date: String,
    time_control: String,
    site: String,
    eco: String,
    opening: String,
}

impl Row {
    fn of(raw: &RawGame, game: &Game) -> Row {
        let tag = |name: &str| raw.tag(name).unwrap_or_default().trim().to_string();
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|m| UciMove::from_standard(*m).to_string())
            .collect();
        let site = tag("Site");
        // The start position belongs to the identity too: the same moves from two FENs differ.
        let identity = [
            game.names[0].as_str(),
            game.names[1].as_str(),
            game.date.as_str(),
            site.as_str(),
            raw.tag("FEN").unwrap_or_default(),
            &moves.join(" "),
        ]
        .join("\u{1f}");
        Row {
            identity,
            white: game.names[0].clone(),
            black: game.names[1].clone(),
            result: tag("Result"),
            date: game.date.clone(),
            time_control: tag("TimeControl"),
            site,
            eco: tag("ECO"),
            opening: tag("Opening"),
        }
    }
}
