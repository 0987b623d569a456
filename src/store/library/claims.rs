//! Which game each Knightfall reviewing the whole library is on: a claim on a game, held for
//! a while and renewed as the review goes, so that two `review --all` at once (two terminals,
//! the library screen and the command) review different games rather than the same one twice.
//! A Knightfall that dies holding a claim holds it no longer than its lease.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Result;
use rusqlite::params;

use super::Library;

/// Seconds since the Unix epoch, now.
fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A name for this review's claims, no other Knightfall's: the process and the moment.
pub fn holder() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}", std::process::id())
}

impl Library {
    /// Claims game `id` for `holder` for `lease`, or renews its claim: true when it holds the
    /// game now, false when another holder's claim is still good.
    pub fn claim(&mut self, id: i64, holder: &str, lease: Duration) -> Result<bool> {
        let now = now();
        let until = now.saturating_add(lease.as_secs() as i64);
        let changed = self.conn.execute(
            "INSERT INTO review_claims (game_id, holder, until) VALUES (?1, ?2, ?3)
             ON CONFLICT (game_id) DO UPDATE SET holder = excluded.holder, until = excluded.until
             WHERE review_claims.holder = excluded.holder OR review_claims.until <= ?4",
            params![id, holder, until, now],
        )?;
        Ok(changed == 1)
    }

    /// Lets go of `holder`'s claim on game `id` (another holder's stays).
    pub fn release(&mut self, id: i64, holder: &str) -> Result<()> {
        self.conn.execute(
            "DELETE FROM review_claims WHERE game_id = ?1 AND holder = ?2",
            params![id, holder],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests on a temporary library")]
    use super::*;
    use crate::store::library::bulk::tests::library_of;

    #[test]
    fn a_claimed_game_is_one_holders_until_it_is_let_go_or_its_lease_ends() {
        let dir = tempfile::tempdir().unwrap();
        let mut library = library_of(dir.path(), &["1. e4 e5 *", "1. d4 d5 *"]);
        let ids: Vec<i64> = library.list().unwrap().iter().map(|e| e.id).collect();
        let (a, b) = (holder(), format!("{}-other", std::process::id()));
        let minute = Duration::from_secs(60);
        assert!(library.claim(ids[0], &a, minute).unwrap());
        assert!(!library.claim(ids[0], &b, minute).unwrap(), "held by a");
        assert!(
            library.claim(ids[1], &b, minute).unwrap(),
            "another game is free"
        );
        assert!(
            library.claim(ids[0], &a, minute).unwrap(),
            "a renews its own"
        );
        // Letting go of another's claim does nothing.
        library.release(ids[0], &b).unwrap();
        assert!(!library.claim(ids[0], &b, minute).unwrap());
        library.release(ids[0], &a).unwrap();
        assert!(library.claim(ids[0], &b, minute).unwrap(), "let go by a");
        // A claim whose lease has run out is anyone's.
        assert!(library.claim(ids[1], &b, Duration::ZERO).unwrap());
        assert!(library.claim(ids[1], &a, minute).unwrap());
    }
}
