//! The mistakes and blunders of the library's reviews, whoever made them, kept beside the
//! reviews: the position, the move played, the engine's and the evaluation. The training's
//! list of the player's mistakes is then one query however many games there are, where
//! reading each game's review back would take seconds over thousands of them.

use anyhow::Result;
use rusqlite::{Connection, params};
use shakmaty::Color;

use super::Library;
use crate::review::Review;
use crate::review::judge::Judgement;
use crate::store::review_cache;
use crate::train::mistake::{self, Mistake, Seen, parse_uci};

/// Keeps the mistakes and blunders of `review` as game `id`'s, replacing those kept. An
/// aborted game counts for nothing, its moves included.
pub(super) fn save(conn: &Connection, id: i64, review: &Review) -> Result<()> {
    conn.execute("DELETE FROM drills WHERE game_id = ?1", params![id])?;
    if review.game.is_aborted() {
        return Ok(());
    }
    let mut insert = conn.prepare_cached(
        "INSERT INTO drills (game_id, ply, white, fen, played, best, eval, judgement, why)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for (ply, m) in mistake::in_review(review) {
        let (kind, value) = review_cache::eval_words(m.before);
        insert.execute(params![
            id,
            ply as i64,
            m.mover() == Color::White,
            m.fen,
            uci(m.played),
            uci(m.best),
            format!("{kind} {value}"),
            m.judgement as u8,
            m.why,
        ])?;
    }
    Ok(())
}

fn uci(m: shakmaty::Move) -> String {
    m.to_uci(shakmaty::CastlingMode::Standard).to_string()
}

impl Library {
    /// Every mistake and blunder kept of the library's reviews made by a player `you` says is
    /// you, the newest game first, one per position with every game it was made in.
    pub(super) fn drills(&self, you: impl Fn(&str) -> bool) -> Result<Vec<Mistake>> {
        let mut stmt = self.conn.prepare(
            "SELECT d.white, d.fen, d.played, d.best, d.eval, d.judgement, g.white, g.black,
                    g.date, d.why
             FROM drills d JOIN games g ON g.id = d.game_id
             ORDER BY g.date DESC, g.id DESC, d.ply",
        )?;
        let mut rows = stmt.query([])?;
        let mut found = Vec::new();
        while let Some(r) = rows.next()? {
            let white: bool = r.get(0)?;
            let names: [String; 2] = [r.get(6)?, r.get(7)?];
            let (yours, theirs) = if white { (0, 1) } else { (1, 0) };
            if !you(&names[yours]) {
                continue;
            }
            let fen: String = r.get(1)?;
            let played: String = r.get(2)?;
            let best: String = r.get(3)?;
            let eval: String = r.get(4)?;
            let judgement: u8 = r.get(5)?;
            // A row this version cannot read back (none should be) is left out, not an error.
            let Some((pos, m)) = drill(fen, &played, &best, &eval, judgement) else {
                continue;
            };
            found.push(Mistake {
                why: r.get(9)?,
                games: vec![Seen {
                    date: r.get(8)?,
                    opponent: names[theirs].clone(),
                    number: mistake::move_number(&pos),
                    played: m.played,
                }],
                ..m
            });
        }
        Ok(mistake::one_per_position(found))
    }
}

/// A mistake (with no games yet) and its position, from a row's columns.
fn drill(
    fen: String,
    played: &str,
    best: &str,
    eval: &str,
    judgement: u8,
) -> Option<(shakmaty::Chess, Mistake)> {
    let pos = crate::fen::position(&fen).ok()?;
    let (kind, value) = eval.split_once(' ')?;
    let m = Mistake {
        played: parse_uci(&pos, played)?,
        best: parse_uci(&pos, best)?,
        before: review_cache::parse_eval(kind, value)?,
        judgement: match judgement {
            0 => Judgement::Inaccuracy,
            1 => Judgement::Mistake,
            _ => Judgement::Blunder,
        },
        fen,
        games: Vec::new(),
        why: String::new(),
    };
    Some((pos, m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::analyse::PositionEval;
    use crate::review::judge::Eval;

    /// A library whose one game, Anna's, has its review kept: 3. Qxe5+?? where Bc4 was best,
    /// and Nxe5 took the queen.
    fn library_with_a_review(dir: &std::path::Path) -> Library {
        let mut library = Library::open(&dir.join("library.sqlite")).unwrap();
        let file = dir.join("g.pgn");
        std::fs::write(
            &file,
            "[White \"anna\"]\n[Black \"Bob\"]\n[Date \"2026.11.20\"]\n[Result \"0-1\"]\n\n\
             1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 0-1\n",
        )
        .unwrap();
        let mut summary = Default::default();
        library.import(&file, &mut summary).unwrap();
        let id = library.list().unwrap()[0].id;
        let (mut review, _) = library.review(id).unwrap().unwrap();
        for (ply, cp) in [20, 25, 30, 0, 10, -900, -880].into_iter().enumerate() {
            let pos = review.game.position_at(ply);
            let best = match ply {
                4 => "f1c4",
                5 => "c6e5",
                _ => "",
            };
            review.evals[ply] = Some(PositionEval {
                eval: Eval::Cp(cp),
                line: parse_uci(pos, best).into_iter().collect(),
                depth: 10,
            });
        }
        library
            .save_review(id, &review, super::super::reviews::Origin::File)
            .unwrap();
        library
    }

    #[test]
    fn a_reviews_mistakes_are_kept_with_it_and_read_as_yours_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut library = library_with_a_review(dir.path());
        assert!(library.mistakes(|_| false).unwrap().is_empty());
        let found = library.mistakes(|n| n == "anna").unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        let m = &found[0];
        assert_eq!(
            (m.played_san(), m.best_san()),
            ("Qxe5+??".into(), "Bc4".into())
        );
        assert_eq!(m.before, Eval::Cp(10));
        assert_eq!(m.source(), "2026.11.20 against Bob, move 3.");
        assert_eq!(m.why, "it hangs the queen on e5: 3... Nxe5");
        // Bob's moves are not Anna's mistakes, whoever made a mistake among them.
        assert!(library.mistakes(|n| n == "Bob").unwrap().is_empty());
    }

    /// Reviews kept by a version that did not keep their mistakes are gone through once.
    #[test]
    fn the_mistakes_of_reviews_kept_before_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let mut library = library_with_a_review(dir.path());
        let kept = library.mistakes(|n| n == "anna").unwrap();
        library
            .conn
            .execute_batch(
                "DELETE FROM drills;
                 INSERT INTO drills_to_find SELECT DISTINCT game_id FROM verdicts;",
            )
            .unwrap();
        assert_eq!(library.mistakes(|n| n == "anna").unwrap(), kept);
        let left: i64 = library
            .conn
            .query_row("SELECT count(*) FROM drills_to_find", [], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 0);
    }
}
