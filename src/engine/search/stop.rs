//! When a search stops: its node budget, the stop flag, a helper's abort, the clock.

use std::sync::atomic::Ordering;

use super::Searcher;

/// The clock and the shared flags are read once every this many nodes (a power of two): often
/// enough to stop within a fraction of a millisecond, rarely enough to cost nothing.
pub(super) const CHECK_EVERY: u64 = 1024;

impl Searcher<'_> {
    /// Nodes searched by every thread so far (this one's alone without threads).
    pub(super) fn all_nodes(&self) -> u64 {
        match self.node_counter {
            Some(counter) => counter.load(Ordering::Relaxed) + (self.nodes & (CHECK_EVERY - 1)),
            None => self.nodes,
        }
    }

    /// Sets `stopped` once a limit is reached.
    #[inline]
    pub(super) fn check_limits(&mut self) {
        // The node budget is exact (low levels rely on it); clocks are read less often.
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
            return;
        }
        if self.nodes & (CHECK_EVERY - 1) != 0 {
            return;
        }
        if let Some(counter) = self.node_counter {
            counter.fetch_add(CHECK_EVERY, Ordering::Relaxed);
        }
        if self.control.stop.load(Ordering::Relaxed)
            || self.abort.is_some_and(|a| a.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return;
        }
        if self.control.pondering.load(Ordering::Relaxed) {
            self.clock.restart();
            return;
        }
        if self.clock.hard_expired() {
            self.stopped = true;
        }
    }
}
