//! A cache of static evaluations by Zobrist key: the search meets many positions again whose
//! hash-table entries were replaced or never stored (most quiescence nodes), and the
//! evaluation is a large part of a node's cost.

/// Entries in one search's cache (64 K of 16 bytes: 1 MB).
const ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy, Default)]
struct Entry {
    /// The position's key; 0 marks an unused slot (a position whose key is 0 is never kept).
    key: u64,
    /// Its evaluation from the side to move's point of view.
    eval: i32,
}

/// One search's evaluations. A hit compares the whole 64-bit key, and one cache serves one
/// evaluator, so it hands back what the evaluator would (bar a 64-bit key collision).
pub struct EvalCache {
    entries: Box<[Entry]>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            entries: vec![Entry::default(); ENTRIES].into_boxed_slice(),
        }
    }
}

impl EvalCache {
    /// Starts fetching the slot of `key` into the cache, for a position about to be made (the
    /// 1 MB cache is larger than the L2).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(&self.entries[Self::index(key)]);
    }

    #[inline]
    fn index(key: u64) -> usize {
        (key >> (64 - ENTRIES.trailing_zeros())) as usize
    }

    /// The evaluation of the position with `key`, from the cache or from `evaluate` and kept.
    #[inline]
    pub(crate) fn get_or(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.entries[Self::index(key)];
        if slot.key == key && key != 0 {
            return slot.eval;
        }
        let eval = evaluate();
        *slot = Entry { key, eval };
        eval
    }
}

#[cfg(test)]
mod tests {
    use super::{ENTRIES, EvalCache};

    #[test]
    fn a_kept_evaluation_is_handed_back_and_a_new_key_is_evaluated() {
        let mut cache = EvalCache::default();
        let key = 0x1234_5678_9ABC_DEF0u64;
        assert_eq!(cache.get_or(key, || 42), 42);
        assert_eq!(cache.get_or(key, || panic!("evaluated twice")), 42);
        // Same slot, other key: evaluated, and it takes the slot over.
        let other = key ^ 1;
        assert_eq!(cache.get_or(other, || -7), -7);
        assert_eq!(cache.get_or(key, || 43), 43);
        // The unused slots' key is never a hit.
        assert_eq!(cache.get_or(0, || 5), 5);
        assert_eq!(cache.get_or(0, || 6), 6);
        assert!(ENTRIES.is_power_of_two());
    }
}
