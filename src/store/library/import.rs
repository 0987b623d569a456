//! PGN files into the library, as lichess and chess.com export them: read a game at a time, so
//! memory stays flat whatever the file's size; each game played through (a variant or an
//! illegal move refuses that game alone, with the reason); a game already there is not added
//! again. A game is the same game when its players, date, site and moves are.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use anyhow::Result;
use rusqlite::{OptionalExtension, params};
use shakmaty::uci::UciMove;

use super::Library;
use super::reviews::{self, Origin};
use crate::game::Game;
use crate::pgn::LoadError;
use crate::pgn::raw::{self, RawGame};

/// Games written in one transaction: a crash loses at most these, and a reader waits for none.
const BATCH: usize = 1000;

/// The refusals named one by one; past these they are only counted.
pub(super) const MAX_NAMED: usize = 20;

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
    /// Every refusal counted by its kind: the variant's name, or what was wrong.
    pub kinds: BTreeMap<String, usize>,
    /// Each player's name with the number of games read that they play in: the player whose
    /// export it is plays in most.
    pub players: HashMap<String, usize>,
    /// Games read that could be played through, whether added or already there.
    pub games: usize,
    /// Games reviewed from the evaluations the file gives (lichess's analysis).
    pub reviewed: usize,
}

impl Summary {
    /// Counts a refusal of `what` (where and why) of kind `kind`.
    pub(crate) fn refuse(&mut self, kind: &str, what: String) {
        self.refused += 1;
        *self.kinds.entry(kind.to_string()).or_default() += 1;
        if self.named.len() < MAX_NAMED {
            self.named.push(what);
        }
    }

    /// The summary in a few lines for the terminal: what was added, what the library had, and
    /// what was refused, by kind and then the first ones one by one with the reason.
    pub fn report(&self) -> String {
        let reviewed = match self.reviewed {
            0 => String::new(),
            n => format!(", reviewed from the file's evaluations {n}"),
        };
        let mut out = format!(
            "imported {}, already there {}{reviewed}, refused {}",
            self.imported, self.already, self.refused
        );
        if !self.kinds.is_empty() {
            let kinds: Vec<String> = self
                .kinds
                .iter()
                .map(|(kind, n)| format!("{kind} {n}"))
                .collect();
            out.push_str(&format!(" ({})", kinds.join(", ")));
        }
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

impl Summary {
    /// The player whose export this looks like: the one in most of the games read, in more
    /// than half of them and in more than anyone else. Knightfall's own players ("Human",
    /// "Knightfall …") and unknown names are no one's account.
    pub fn main_player(&self) -> Option<&str> {
        let mut counts: Vec<(&str, usize)> = self
            .players
            .iter()
            .map(|(name, n)| (name.as_str(), *n))
            .filter(|(name, _)| {
                let name = name.trim();
                !name.is_empty()
                    && name != "?"
                    && name != crate::train::mistake::PERSON
                    && !name.starts_with("Knightfall")
            })
            .collect();
        counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        match counts.as_slice() {
            [(name, n), rest @ ..]
                if 2 * n > self.games && rest.first().is_none_or(|(_, m)| m < n) =>
            {
                Some(name)
            }
            _ => None,
        }
    }
}

/// The kind of refusal `why` is, for the count: a variant by its name.
fn kind(why: &LoadError) -> String {
    match why {
        LoadError::Variant(name) => name.trim().to_string(),
        LoadError::BadMove { .. } | LoadError::AfterEnd { .. } => "illegal move".to_string(),
        LoadError::Fen(_) => "bad start position".to_string(),
        _ => "unreadable".to_string(),
    }
}

impl Library {
    /// Imports every game of the PGN file `file`, adding to `summary`.
    pub fn import(&mut self, file: &Path, summary: &mut Summary) -> Result<()> {
        let stream = crate::store::stream::open(file)?;
        let source = file.display().to_string();
        let name = file
            .file_name()
            .map_or_else(|| source.clone(), |n| n.to_string_lossy().into_owned());
        let bar = crate::store::stream::bar(stream.len, &name);
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
                    let place = format!("{source} game {}", i + 1);
                    let raw = match next {
                        Ok(raw) => raw,
                        Err(e) => {
                            // The reader cannot go on past text it cannot read.
                            summary.refuse(
                                "unreadable",
                                format!("{place}: {e}; the rest of the file is not read"),
                            );
                            break;
                        }
                    };
                    let game = match Game::from_raw(&raw) {
                        Ok(game) => game,
                        Err(why) => {
                            summary.refuse(&kind(&why), format!("{place}: {why}"));
                            continue;
                        }
                    };
                    summary.games += 1;
                    let [white, black] = &game.names;
                    for name in std::iter::once(white).chain((black != white).then_some(black)) {
                        *summary.players.entry(name.clone()).or_default() += 1;
                    }
                    let (id, added) = add(&tx, &raw, &game, &source)?;
                    // A game evaluated throughout is reviewed from its evaluations, unless the
                    // library has a complete review of it already.
                    if let Some(review) = crate::review::from_file::review(&raw, &game)
                        && (added || !reviews::complete(&tx, id)?)
                    {
                        reviews::keep(&tx, id, &review, Origin::File)?;
                        summary.reviewed += 1;
                    }
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
        // chess.com gives the ECO code alone (and a link to the opening's page): the name is
        // then the one the moves reach by lichess's table, with its code.
        let (mut eco, mut opening) = (tag("ECO"), tag("Opening"));
        if opening.is_empty()
            && let Some(known) = game.opening()
        {
            eco = known.eco.to_string();
            opening = known.name.to_string();
        }
        Row {
            identity,
            white: game.names[0].clone(),
            black: game.names[1].clone(),
            result: tag("Result"),
            date: game.date.clone(),
            time_control: tag("TimeControl"),
            site,
            eco,
            opening,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(games: usize, players: &[(&str, usize)]) -> Summary {
        Summary {
            games,
            players: players.iter().map(|(n, c)| (n.to_string(), *c)).collect(),
            ..Summary::default()
        }
    }

    #[test]
    fn the_main_player_plays_in_most_games_and_more_than_anyone() {
        let export = seen(4, &[("anna1985", 4), ("bob", 2), ("carl", 1), ("dora", 1)]);
        assert_eq!(export.main_player(), Some("anna1985"));
        // One game: two players as likely as each other.
        assert_eq!(seen(1, &[("anna1985", 1), ("bob", 1)]).main_player(), None);
        // A database of others' games: nobody in more than half.
        assert_eq!(
            seen(10, &[("a", 3), ("b", 3), ("c", 2)]).main_player(),
            None
        );
        // Knightfall's own games are no one's export.
        let watched = seen(3, &[("Knightfall 0.1.0 (level 3)", 3), ("x", 1)]);
        assert_eq!(watched.main_player(), None);
    }
}
