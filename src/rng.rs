//! The one small random generator (SplitMix64): no dependency, and seedable, so that tests and
//! reproducible games (a book's choice with a seed, a drill's position) fix the sequence.
//! [`mix`] is the same function as a hash of a key and a seed, for the engine's noise.

/// The SplitMix64 step added to the state before each draw.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: every bit of `z` moves every bit of the result.
#[inline]
fn finish(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A well-mixed hash of `key` and `seed`: the same every time, different for every seed.
#[inline]
pub fn mix(key: u64, seed: u64) -> u64 {
    finish(key ^ seed.wrapping_mul(GAMMA))
}

/// A seeded SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator with a fixed seed (same seed, same sequence).
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator seeded from the clock and the process's random hash keys, so that every run
    /// differs.
    pub fn from_entropy() -> Rng {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        hasher.write_u64(nanos);
        Rng::new(hasher.finish())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        finish(self.state)
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias: a draw in the last partial
    /// block of `n` (odds `n` in 2^64) is thrown away, so for small `n` this is `next_u64() % n`.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// An index into a slice of `len` (`len > 0`).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_splitmix64() {
        // SplitMix64 from seed 0, as its reference implementation gives it.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        // The hash with seed 0 is the generator's first draw from 0.
        assert_eq!(mix(GAMMA, 0), Rng::new(0).next_u64());
    }

    #[test]
    fn below_stays_below() {
        let mut rng = Rng::new(42);
        for n in 1..50 {
            assert!(rng.below(n) < n);
        }
    }
}
