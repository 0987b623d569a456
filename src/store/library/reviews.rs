//! Reviews in the library: each game's evaluations, a line per position in the words the review
//! cache uses, with each side's accuracy and every flagged move (its side, verdict and phase of
//! the game) beside them, so that the list, the statistics and the mistakes are read without
//! replaying a game. A review is kept as far as it went: a bulk review stopped half-way loses
//! no finished position.

use anyhow::{Context, Result};
use rusqlite::{OptionalExtension, params};
use shakmaty::Color;

use super::Library;
use crate::game::Game;
use crate::review::Review;
use crate::review::phase::Phase;
use crate::store::review_cache;

/// Where a review's evaluations came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Knightfall's own search.
    Engine,
    /// The `[%eval]` comments of the imported file (lichess's analysis).
    File,
}

impl Origin {
    /// How the library writes it.
    pub fn word(self) -> &'static str {
        match self {
            Origin::Engine => "engine",
            Origin::File => "file",
        }
    }

    fn from_word(word: &str) -> Origin {
        if word == "file" {
            Origin::File
        } else {
            Origin::Engine
        }
    }
}

/// How far a game's review went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Status {
    /// Where its evaluations came from.
    pub origin: Origin,
    /// Positions known.
    pub done: i64,
    /// Positions in the game.
    pub positions: i64,
    /// Each side's accuracy (White first), once every position is known.
    pub accuracy: [Option<f64>; 2],
}

impl Status {
    /// Whether every position is known.
    pub fn complete(&self) -> bool {
        self.done >= self.positions
    }

    /// In a few words, for the list: `92.1/85.4`, `from the file 92.1/85.4`, `12 of 81`.
    pub fn words(&self) -> String {
        let from = match self.origin {
            Origin::Engine => "",
            Origin::File => "from the file ",
        };
        match self.accuracy {
            [Some(w), Some(b)] => format!("{from}{w:.1}/{b:.1}"),
            _ if self.complete() => format!("{from}reviewed"),
            _ => format!("{} of {}", self.done, self.positions),
        }
    }
}

/// A flagged move as the library keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The move's ply (from 0).
    pub ply: usize,
    /// Who made it.
    pub side: Color,
    /// 0 an inaccuracy, 1 a mistake, 2 a blunder.
    pub judgement: u8,
    /// When in the game.
    pub phase: Phase,
}

/// The flagged moves of `review`.
pub fn verdicts(review: &Review) -> Vec<Verdict> {
    (0..review.game.moves().len())
        .filter_map(|i| {
            let (judgement, _) = review.judgement(i)?;
            Some(Verdict {
                ply: i,
                side: review.mover(i),
                judgement: judgement as u8,
                phase: Phase::of(review.game.position_at(i), i),
            })
        })
        .collect()
}

/// The game kept as `pgn` in the library.
pub(crate) fn game_of(pgn: &str) -> Result<Game> {
    let raw = crate::pgn::raw::games(pgn.as_bytes())
        .next()
        .context("no game in the text kept")??;
    Game::from_raw(&raw).map_err(|e| anyhow::anyhow!("{e}"))
}

impl Library {
    /// Game `id`, read back from the PGN kept of it.
    pub fn game(&self, id: i64) -> Result<Option<Game>> {
        self.pgn(id)?.map(|pgn| game_of(&pgn)).transpose()
    }

    /// Keeps what `review` knows of game `id`, replacing what was kept of it.
    pub fn save_review(&mut self, id: i64, review: &Review, origin: Origin) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        keep(&tx, id, review, origin)?;
        tx.commit()?;
        Ok(())
    }

    /// Game `id` with what its review knows, and where that came from; `None` when there is
    /// no such game. A game never reviewed comes with nothing known.
    pub fn review(&self, id: i64) -> Result<Option<(Review, Origin)>> {
        let Some(game) = self.game(id)? else {
            return Ok(None);
        };
        let kept: Option<(String, i64, String, String)> = self
            .conn
            .query_row(
                "SELECT origin, movetime_ms, evals, engine FROM reviews WHERE game_id = ?1",
                params![id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        Ok(Some(match kept {
            Some((origin, movetime_ms, text, engine)) => {
                let origin = Origin::from_word(&origin);
                // 0 for a file's evaluations, which no search made.
                let mut review = Review::new(game, movetime_ms.max(0) as u64);
                review.engine = other_engine(origin, &engine);
                review_cache::fill(&mut review, &text);
                (review, origin)
            }
            None => (
                Review::new(game, crate::review::DEFAULT_MOVETIME_MS),
                Origin::Engine,
            ),
        }))
    }

    /// How far game `id`'s review went, if it was begun.
    pub fn status(&self, id: i64) -> Result<Option<Status>> {
        Ok(self
            .conn
            .query_row(
                "SELECT origin, done, positions, accuracy_white, accuracy_black
                 FROM reviews WHERE game_id = ?1",
                params![id],
                |r| status_at(r, 0),
            )
            .optional()?)
    }

    /// The games whose review is not complete, newest first: what a bulk review has left.
    pub fn unreviewed(&self) -> Result<Vec<i64>> {
        let mut stmt = self.conn.prepare(
            "SELECT g.id FROM games g LEFT JOIN reviews r ON r.game_id = g.id
             WHERE r.game_id IS NULL OR r.done < r.positions
             ORDER BY g.date DESC, g.id DESC",
        )?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<Vec<i64>, _>>()?)
    }

    /// The flagged moves of game `id`'s review.
    pub fn verdicts(&self, id: i64) -> Result<Vec<Verdict>> {
        let mut stmt = self.conn.prepare(
            "SELECT ply, white, judgement, phase FROM verdicts WHERE game_id = ?1 ORDER BY ply",
        )?;
        let rows = stmt.query_map(params![id], |r| {
            let phase: String = r.get(3)?;
            Ok(Verdict {
                ply: r.get::<_, i64>(0)? as usize,
                side: if r.get(1)? {
                    Color::White
                } else {
                    Color::Black
                },
                judgement: r.get(2)?,
                phase: Phase::from_word(&phase).unwrap_or(Phase::Middlegame),
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The games whose review came with the file and whose mistakes and blunders have no
    /// engine's move yet (a site's evaluations name none), newest first, each with the plies
    /// of the positions to search: before each such move (the move to train) and after it
    /// (the reply that shows why).
    pub fn moves_to_find(&self) -> Result<Vec<(i64, Vec<usize>)>> {
        let mut stmt = self.conn.prepare(
            "SELECT v.game_id, v.ply FROM verdicts v
             JOIN reviews r ON r.game_id = v.game_id
             JOIN games g ON g.id = v.game_id
             WHERE r.origin = ?1 AND v.judgement >= 1
               AND NOT EXISTS (SELECT 1 FROM drills d
                               WHERE d.game_id = v.game_id AND d.ply = v.ply)
             ORDER BY g.date DESC, g.id DESC, v.ply",
        )?;
        let rows = stmt.query_map(params![Origin::File.word()], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)? as usize))
        })?;
        let mut games: Vec<(i64, Vec<usize>)> = Vec::new();
        for row in rows {
            let (id, ply) = row?;
            match games.last_mut() {
                Some((last, plies)) if *last == id => plies.push(ply),
                _ => games.push((id, vec![ply])),
            }
        }
        // A position searched before whose move was the one played (no drill) stays as it
        // was: its line is kept, so it is not searched again. The position after the move is
        // searched too: its line is the reply that shows why the move was bad.
        let mut out = Vec::new();
        for (id, flagged) in games {
            let Some((review, _)) = self.review(id)? else {
                continue;
            };
            let mut plies = Vec::new();
            for p in flagged.into_iter().filter(|&p| review.lineless(p)) {
                plies.push(p);
                if review.lineless(p + 1) {
                    plies.push(p + 1);
                }
            }
            plies.dedup();
            if !plies.is_empty() {
                out.push((id, plies));
            }
        }
        Ok(out)
    }
}

/// Keeps what `review` knows of game `id` through `conn` (in a transaction of the caller's),
/// replacing what was kept of it.
pub(super) fn keep(
    conn: &rusqlite::Connection,
    id: i64,
    review: &Review,
    origin: Origin,
) -> Result<()> {
    let accuracy = review.accuracy();
    conn.prepare_cached(
        "INSERT OR REPLACE INTO reviews
         (game_id, origin, engine, movetime_ms, positions, done, accuracy_white,
          accuracy_black, evals, updated)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, unixepoch())",
    )?
    .execute(params![
        id,
        origin.word(),
        match origin {
            Origin::Engine => review.searched_by(),
            // Whatever engine the site ran: the file does not say.
            Origin::File => "the file's evaluations".to_string(),
        },
        review.movetime_ms as i64,
        review.evals.len() as i64,
        review.done() as i64,
        accuracy[0],
        accuracy[1],
        review_cache::text(review),
    ])?;
    conn.prepare_cached("DELETE FROM verdicts WHERE game_id = ?1")?
        .execute(params![id])?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO verdicts (game_id, ply, white, judgement, phase, kind)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for v in verdicts(review) {
        insert.execute(params![
            id,
            v.ply as i64,
            v.side == Color::White,
            v.judgement,
            v.phase.word(),
            kind_of(review, v.ply),
        ])?;
    }
    super::drills::save(conn, id, review)
}

/// The other engine a review kept as `engine` by `origin` was searched by (see
/// [`Review::engine`]): `None` for Knightfall's own and for a file's evaluations.
fn other_engine(origin: Origin, engine: &str) -> Option<String> {
    match origin {
        Origin::Engine if !engine.starts_with("Knightfall ") && !engine.is_empty() => {
            Some(engine.to_string())
        }
        _ => None,
    }
}

/// What kind of thing went wrong in move `ply` of `review`, by name; empty when the review
/// has no line there to say it (a file's evaluations alone say nothing of why).
fn kind_of(review: &Review, ply: usize) -> &'static str {
    // A why needs both positions known: known without a line is the file's alone.
    match crate::review::why::why(review, ply) {
        Some(w) if w.concrete() || !review.lineless(ply) || !review.lineless(ply + 1) => {
            w.kind.name()
        }
        _ => "",
    }
}

/// Whether game `id` has a complete review kept, read through `conn`.
pub(super) fn complete(conn: &rusqlite::Connection, id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT done >= positions FROM reviews WHERE game_id = ?1")?
        .query_row(params![id], |r| r.get(0))
        .optional()?
        .unwrap_or(false))
}

/// A review's status from the columns `origin, done, positions, accuracy_white,
/// accuracy_black` of `r`, the first at `at`.
pub(super) fn status_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Status> {
    let origin: String = r.get(at)?;
    Ok(Status {
        origin: Origin::from_word(&origin),
        done: r.get(at + 1)?,
        positions: r.get(at + 2)?,
        accuracy: [r.get(at + 3)?, r.get(at + 4)?],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::analyse::PositionEval;
    use crate::review::judge::Eval;

    #[test]
    fn a_review_kept_reads_back_with_its_verdicts_and_accuracy() {
        let dir = tempfile::tempdir().unwrap();
        let mut library = Library::open(&dir.path().join("library.sqlite")).unwrap();
        let text = "[White \"anna\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0\n";
        let file = dir.path().join("g.pgn");
        std::fs::write(&file, text).unwrap();
        library.import(&file, &mut Default::default()).unwrap();
        let id = library.list().unwrap()[0].id;
        assert_eq!(library.unreviewed().unwrap(), vec![id]);
        let (mut review, _) = library.review(id).unwrap().unwrap();
        assert_eq!(review.done(), 0);
        // Half-way: what is known is kept, and the game is still to be reviewed.
        let cps = [20, 20, 30, 30, 900, 900];
        for (ply, cp) in cps.iter().enumerate().take(3) {
            review.evals[ply] = Some(PositionEval {
                eval: Eval::Cp(*cp),
                line: Vec::new(),
                depth: 10,
            });
        }
        library.save_review(id, &review, Origin::Engine).unwrap();
        assert_eq!(library.unreviewed().unwrap(), vec![id]);
        assert_eq!(library.status(id).unwrap().unwrap().words(), "3 of 6");
        for (ply, cp) in cps.iter().enumerate().skip(3) {
            review.evals[ply] = Some(PositionEval {
                eval: if ply == 5 {
                    Eval::Checkmate(Color::Black)
                } else {
                    Eval::Cp(*cp)
                },
                line: Vec::new(),
                depth: 10,
            });
        }
        library.save_review(id, &review, Origin::File).unwrap();
        assert!(library.unreviewed().unwrap().is_empty());
        let (back, origin) = library.review(id).unwrap().unwrap();
        assert_eq!(origin, Origin::File);
        assert_eq!(back.evals, review.evals);
        let status = library.list().unwrap()[0].review.unwrap();
        assert!(status.complete() && status.accuracy[1].is_some());
        assert!(
            status.words().starts_with("from the file "),
            "{}",
            status.words()
        );
        // Black's 2...Ke7 threw the game away.
        let flagged = library.verdicts(id).unwrap();
        assert!(
            flagged
                .iter()
                .any(|v| v.ply == 3 && v.side == Color::Black && v.judgement == 2),
            "{flagged:?}"
        );
        assert_eq!(flagged, verdicts(&back));
    }
}
