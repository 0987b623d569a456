//! The player's mistakes from the whole library: the mistakes kept beside its reviews
//! ([`super::drills`]), those of reviews kept before they were found first.

use anyhow::Result;
use rusqlite::params;

use super::Library;
use super::reviews::Origin;
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

    /// Goes through the reviews kept before their mistakes (and why each was bad) were, a
    /// few at a time, keeping each again.
    pub(super) fn find_drills(&mut self) -> Result<()> {
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
            let reviews: Vec<(i64, Option<(Review, Origin)>)> = ids
                .iter()
                .map(|&id| (id, self.review(id).ok().flatten()))
                .collect();
            let tx = self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            for (id, review) in reviews {
                if let Some((review, origin)) = review {
                    super::reviews::keep(&tx, id, &review, origin)?;
                }
                tx.execute("DELETE FROM drills_to_find WHERE game_id = ?1", params![id])?;
            }
            tx.commit()?;
        }
    }
}
