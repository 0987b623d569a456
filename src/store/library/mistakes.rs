//! The player's mistakes from the whole library: the mistakes kept beside its reviews
//! ([`super::drills`]), those of reviews kept before they were found first.

use anyhow::Result;
use rusqlite::params;

use super::Library;
use crate::review::Review;
use crate::train::mistake::Mistake;

/// How many reviews kept before their mistakes were are gone through in one transaction.
const FIND_AT_ONCE: usize = 200;

impl Library {
    /// Every mistake and blunder made in the library's reviewed games by a player `you` says
    /// is you, the newest game first, one per position with every game it was made in.
    pub fn mistakes(&mut self, you: impl Fn(&str) -> bool) -> Result<Vec<Mistake>> {
        self.find_drills()?;
        self.drills(you)
    }

    /// Goes through the reviews kept before their mistakes were, a few at a time.
    fn find_drills(&mut self) -> Result<()> {
        loop {
            let ids: Vec<i64> = {
                let mut stmt = self
                    .conn
                    .prepare_cached("SELECT game_id FROM drills_to_find LIMIT ?1")?;
                let rows = stmt.query_map(params![FIND_AT_ONCE as i64], |r| r.get(0))?;
                rows.collect::<Result<_, _>>()?
            };
            if ids.is_empty() {
                return Ok(());
            }
            // A game that cannot be read back has no mistakes to give.
            let reviews: Vec<(i64, Option<Review>)> = ids
                .iter()
                .map(|&id| (id, self.review(id).ok().flatten().map(|(r, _)| r)))
                .collect();
            let tx = self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            for (id, review) in reviews {
                if let Some(review) = review {
                    super::drills::save(&tx, id, &review)?;
                }
                tx.execute("DELETE FROM drills_to_find WHERE game_id = ?1", params![id])?;
            }
            tx.commit()?;
        }
    }
}
