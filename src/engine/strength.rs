//! Playing levels 1 to 10: weaker levels see less (depth and node caps) and judge positions
//! less accurately (a fixed per-game noise on the static evaluation), so they miss tactics the
//! way a weaker player does instead of playing random moves. Level 10 is full strength.
//!
//! The caps keep low levels fast: a low level never thinks longer than a high one.

/// What a level changes about the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget per move.
    pub nodes: Option<u64>,
    /// Largest evaluation error in centipawns (uniform in `-noise..=noise`).
    pub noise: i32,
}

/// The strongest level, which plays at full strength.
pub const MAX_LEVEL: u8 = 10;

/// Settings of `level` (clamped to 1..=10). Not yet calibrated by matches.
pub fn settings(level: u8) -> LevelSettings {
    const TABLE: [(u32, u64, i32); 9] = [
        (1, 400, 220),
        (2, 1_500, 160),
        (3, 4_000, 120),
        (4, 10_000, 90),
        (5, 25_000, 65),
        (6, 70_000, 45),
        (7, 200_000, 30),
        (9, 600_000, 15),
        (12, 2_000_000, 5),
    ];
    match level.clamp(1, MAX_LEVEL) {
        MAX_LEVEL => LevelSettings {
            depth: None,
            nodes: None,
            noise: 0,
        },
        n => {
            let (depth, nodes, noise) = TABLE[n as usize - 1];
            LevelSettings {
                depth: Some(depth),
                nodes: Some(nodes),
                noise,
            }
        }
    }
}

/// The evaluation error of the position with `key` in a game seeded with `seed`: the same
/// position always gets the same error within a game, so the transposition table stays sound.
#[inline]
pub fn noise(key: u64, seed: u64, amplitude: i32) -> i32 {
    if amplitude <= 0 {
        return 0;
    }
    // SplitMix64 finaliser: a well-mixed hash of key and seed.
    let mut z = key ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let span = 2 * amplitude as u64 + 1;
    (z % span) as i32 - amplitude
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_get_monotonically_stronger() {
        for level in 1..MAX_LEVEL - 1 {
            let (a, b) = (settings(level), settings(level + 1));
            assert!(a.depth.unwrap() <= b.depth.unwrap());
            assert!(a.nodes.unwrap() < b.nodes.unwrap());
            assert!(a.noise > b.noise);
        }
        assert_eq!(settings(10).noise, 0);
        assert_eq!(settings(10).nodes, None);
        assert_eq!(settings(0), settings(1));
    }

    #[test]
    fn noise_is_bounded_deterministic_and_spread() {
        let values: Vec<i32> = (0..10_000u64).map(|k| noise(k * 7919, 42, 50)).collect();
        assert!(values.iter().all(|v| (-50..=50).contains(v)));
        assert_eq!(noise(123, 42, 50), noise(123, 42, 50));
        assert!(values.iter().any(|&v| v < -40) && values.iter().any(|&v| v > 40));
        assert_eq!(noise(5, 1, 0), 0);
    }
}
