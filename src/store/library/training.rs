//! The training record in the library ([`Progress`]; what it holds and how a result changes it
//! are the model's): a row per ending drilled, per card of the player's mistakes, per puzzle
//! tried and per motif, the puzzle rating and its history. Rows rather than one written-out
//! record, so that a save writes only what its results touch and the puzzles tried can be
//! asked for by the puzzle chosen next, or counted.
//!
//! Several Knightfalls may train at once: a save is one write transaction that reads the
//! record as it is (with what another one saved meanwhile), applies this one's results in
//! order and writes them; SQLite holds the others' saves off until it ends.

use anyhow::Result;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::Library;
use crate::train::progress::{Change, EndingRecord, Progress};
use crate::train::rating::Rating;
use crate::train::schedule::Card;

impl Library {
    /// Begins the training record, once in the library's life: `earlier` is asked (under the
    /// write lock, so by one Knightfall only) for the record an earlier version kept, which
    /// becomes the record. Whether this call began it.
    pub fn start_training(&mut self, earlier: impl FnOnce() -> Option<Progress>) -> Result<bool> {
        if self.training_started()? {
            return Ok(false);
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        if started(&tx)? {
            return Ok(false);
        }
        let moved = earlier();
        if let Some(progress) = &moved {
            write_all(&tx, progress)?;
        }
        tx.execute(
            "INSERT INTO training_started (id, at, migrated_from) VALUES (1, unixepoch(), ?1)",
            params![moved.is_some().then_some("training.toml")],
        )?;
        tx.commit()?;
        Ok(true)
    }

    /// Whether the training record was begun.
    pub fn training_started(&self) -> Result<bool> {
        started(&self.conn)
    }

    /// The training record.
    pub fn progress(&self) -> Result<Progress> {
        read(&self.conn)
    }

    /// Records `changes`, the results an instance recorded since its last save: in one write
    /// transaction, reads the record as it is now, applies them in order and writes the rows
    /// they touch. Returns the record as written, for the instance to show.
    pub fn record(&mut self, changes: &[Change]) -> Result<Progress> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut progress = read(&tx)?;
        for change in changes {
            change.apply(&mut progress);
            write_change(&tx, change, &progress)?;
        }
        tx.commit()?;
        Ok(progress)
    }

    /// Puzzle `id`'s tries and how many of them solved it, as every try was recorded (a
    /// record moved from an earlier version knows the first try of each).
    pub fn puzzle_tries(&self, id: &str) -> Result<(u32, u32)> {
        Ok(self.conn.query_row(
            "SELECT count(*), coalesce(sum(solved), 0) FROM puzzle_attempts WHERE puzzle_id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    }
}

fn started(conn: &Connection) -> Result<bool> {
    Ok(conn
        .query_row(
            "SELECT 1 FROM training_started WHERE id = 1",
            [],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// The record as the tables have it.
fn read(conn: &Connection) -> Result<Progress> {
    let mut p = Progress::default();
    let mut stmt = conn.prepare_cached(
        "SELECT ending, tried, done, clean, best_over_par, last FROM training_endings",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        p.endings.insert(
            r.get(0)?,
            EndingRecord {
                tried: r.get(1)?,
                done: r.get(2)?,
                clean: r.get(3)?,
                best_over_par: r.get(4)?,
                last: r.get(5)?,
            },
        );
    }
    let mut stmt =
        conn.prepare_cached("SELECT id, reps, interval, ease, due FROM training_cards")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        p.mistakes.insert(
            r.get(0)?,
            Card {
                reps: r.get(1)?,
                interval: r.get(2)?,
                ease: r.get(3)?,
                due: r.get(4)?,
            },
        );
    }
    if let Some(rating) = conn
        .query_row(
            "SELECT rating, deviation, volatility FROM puzzle_rating WHERE id = 1",
            [],
            |r| {
                Ok(Rating {
                    rating: r.get(0)?,
                    deviation: r.get(1)?,
                    volatility: r.get(2)?,
                })
            },
        )
        .optional()?
    {
        p.puzzle_rating = rating;
    }
    let mut stmt = conn.prepare_cached("SELECT rating FROM puzzle_history ORDER BY n")?;
    p.puzzle_history = stmt
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    // The first try of each puzzle: SQLite takes the other columns from the row of the min.
    let mut stmt = conn.prepare_cached(
        "SELECT puzzle_id, solved, min(n) FROM puzzle_attempts GROUP BY puzzle_id",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        p.puzzles.insert(r.get(0)?, r.get(1)?);
    }
    let mut stmt = conn.prepare_cached("SELECT motif, tried, solved FROM puzzle_motifs")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        p.puzzle_motifs.insert(r.get(0)?, [r.get(1)?, r.get(2)?]);
    }
    Ok(p)
}

/// Writes the rows `change` touched, as `progress` has them once it is applied.
fn write_change(conn: &Connection, change: &Change, progress: &Progress) -> Result<()> {
    match change {
        Change::Ending { ending, .. } => {
            if let Some(r) = progress.endings.get(ending) {
                write_ending(conn, ending, r)?;
            }
        }
        Change::Puzzle {
            id, motifs, solved, ..
        } => {
            write_rating(conn, &progress.puzzle_rating)?;
            if let Some(last) = progress.puzzle_history.last() {
                conn.prepare_cached("INSERT INTO puzzle_history (rating) VALUES (?1)")?
                    .execute(params![last])?;
            }
            // As long as the record keeps it.
            conn.prepare_cached(
                "DELETE FROM puzzle_history
                 WHERE n NOT IN (SELECT n FROM puzzle_history ORDER BY n DESC LIMIT ?1)",
            )?
            .execute(params![progress.puzzle_history.len() as i64])?;
            conn.prepare_cached(
                "INSERT INTO puzzle_attempts (puzzle_id, solved, at) VALUES (?1, ?2, unixepoch())",
            )?
            .execute(params![id, solved])?;
            for motif in motifs {
                if let Some(counts) = progress.puzzle_motifs.get(motif) {
                    write_motif(conn, motif, counts)?;
                }
            }
        }
        Change::Answer { id, .. } => {
            if let Some(card) = progress.mistakes.get(id) {
                write_card(conn, id, card)?;
            }
        }
    }
    Ok(())
}

/// Writes the whole of `progress` (the record of an earlier version, moved in).
fn write_all(conn: &Connection, progress: &Progress) -> Result<()> {
    for (ending, r) in &progress.endings {
        write_ending(conn, ending, r)?;
    }
    for (id, card) in &progress.mistakes {
        write_card(conn, id, card)?;
    }
    write_rating(conn, &progress.puzzle_rating)?;
    for rating in &progress.puzzle_history {
        conn.prepare_cached("INSERT INTO puzzle_history (rating) VALUES (?1)")?
            .execute(params![rating])?;
    }
    // Only the first try of each is known, and not when.
    for (id, solved) in &progress.puzzles {
        conn.prepare_cached("INSERT INTO puzzle_attempts (puzzle_id, solved) VALUES (?1, ?2)")?
            .execute(params![id, solved])?;
    }
    for (motif, counts) in &progress.puzzle_motifs {
        write_motif(conn, motif, counts)?;
    }
    Ok(())
}

fn write_ending(conn: &Connection, ending: &str, r: &EndingRecord) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO training_endings (ending, tried, done, clean, best_over_par, last)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        ending,
        r.tried,
        r.done,
        r.clean,
        r.best_over_par,
        r.last
    ])?;
    Ok(())
}

fn write_card(conn: &Connection, id: &str, card: &Card) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO training_cards (id, reps, interval, ease, due)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, card.reps, card.interval, card.ease, card.due])?;
    Ok(())
}

fn write_rating(conn: &Connection, rating: &Rating) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO puzzle_rating (id, rating, deviation, volatility)
         VALUES (1, ?1, ?2, ?3)",
    )?
    .execute(params![rating.rating, rating.deviation, rating.volatility])?;
    Ok(())
}

fn write_motif(conn: &Connection, motif: &str, counts: &[u32; 2]) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO puzzle_motifs (motif, tried, solved) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![motif, counts[0], counts[1]])?;
    Ok(())
}
