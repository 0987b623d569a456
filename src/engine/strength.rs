//! Playing levels 1 to 10: weaker levels see less (depth and node caps), judge positions less
//! accurately (a fixed per-game noise on the static evaluation) and on some moves overlook
//! tactics altogether (one ply, no capture search at the leaves), so they miss things the way a weaker
//! player does instead of playing random moves. Level 10 is full strength.
//!
//! The caps keep low levels fast: a low level never thinks longer than a high one.

use crate::rng::mix;

/// What a level changes about the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget per move.
    pub nodes: Option<u64>,
    /// Largest evaluation error in centipawns (uniform in `-noise..=noise`).
    pub noise: i32,
    /// Percentage of moves that overlook tactics: searched one ply deep without resolving
    /// captures at the leaves, so they miss recaptures and hanging pieces, the way a player
    /// overlooks a tactic now and then.
    pub blunder_percent: u32,
}

/// The strongest level, which plays at full strength.
pub(crate) const MAX_LEVEL: u8 = 10;

/// Settings of `level` (clamped to 1..=10).
pub fn settings(level: u8) -> LevelSettings {
    // (depth, nodes, noise, blunder percent), tuned by the matches in docs/LEVELS.md.
    const TABLE: [(u32, u64, i32, u32); 9] = [
        (1, 400, 100, 100),
        (1, 400, 150, 50),
        (1, 400, 200, 20),
        (2, 1_500, 160, 14),
        (3, 4_000, 120, 6),
        (4, 10_000, 90, 3),
        (5, 25_000, 65, 0),
        (6, 80_000, 45, 0),
        (9, 600_000, 15, 0),
    ];
    match level.clamp(1, MAX_LEVEL) {
        MAX_LEVEL => LevelSettings {
            depth: None,
            nodes: None,
            noise: 0,
            blunder_percent: 0,
        },
        n => {
            let (depth, nodes, noise, blunder_percent) = TABLE[n as usize - 1];
            LevelSettings {
                depth: Some(depth),
                nodes: Some(nodes),
                noise,
                blunder_percent,
            }
        }
    }
}

/// Estimated Elo of levels 1 to 10, from the calibration matches published in docs/LEVELS.md
/// (Stockfish `UCI_Elo` scale at 10+0.1). `UCI_Elo` picks the level nearest to the asked rating.
pub const LEVEL_ELO: [i32; MAX_LEVEL as usize] =
    [963, 1088, 1221, 1312, 1432, 1523, 1724, 1844, 1989, 2337];

/// A plain word for the strength a rating stands for (the README's level table uses it).
pub fn label_for_elo(elo: i32) -> &'static str {
    match elo {
        ..1200 => "a beginner",
        1200..1600 => "a casual player",
        1600..1900 => "a club player",
        1900..2100 => "a strong club player",
        2100..2300 => "an expert",
        _ => "a master",
    }
}

/// The lowest rating `UCI_Elo` accepts (level 1's).
pub(crate) fn min_elo() -> i32 {
    LEVEL_ELO[0]
}

/// The highest rating `UCI_Elo` accepts (level 10's).
pub(crate) fn max_elo() -> i32 {
    LEVEL_ELO[MAX_LEVEL as usize - 1]
}

/// The level whose measured rating is nearest to `elo` (the weaker one on a tie).
pub(crate) fn level_for_elo(elo: i32) -> u8 {
    let mut best = 1;
    for (i, &rating) in LEVEL_ELO.iter().enumerate() {
        if (rating - elo).abs() < (LEVEL_ELO[best as usize - 1] - elo).abs() {
            best = i as u8 + 1;
        }
    }
    best
}

/// The evaluation error of the position with `key` in a game seeded with `seed`: the same
/// position always gets the same error within a game, so the transposition table stays sound.
#[inline]
pub fn noise(key: u64, seed: u64, amplitude: i32) -> i32 {
    if amplitude <= 0 {
        return 0;
    }
    let span = 2 * amplitude as u64 + 1;
    (mix(key, seed) % span) as i32 - amplitude
}

/// Whether the level overlooks tactics on its move from the position with `key`: true for
/// about `percent` in a hundred positions, drawn afresh for every game.
pub(crate) fn blunders(key: u64, seed: u64, percent: u32) -> bool {
    mix(key, seed ^ 0x5EED_B1DE) % 100 < u64::from(percent)
}

/// What a search at `level` mixes into its transposition-table keys: levels see different
/// (noisy, shallower) values, so each keeps its own entries in the shared table and a
/// full-strength hint never reads a weak level's judgement. Full strength mixes in nothing.
pub(crate) fn table_salt(level: u8) -> u64 {
    match level.clamp(1, MAX_LEVEL) {
        MAX_LEVEL => 0,
        n => mix(u64::from(n), 0x7AB1_E5A1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_get_monotonically_stronger() {
        for level in 1..MAX_LEVEL - 1 {
            let (a, b) = (settings(level), settings(level + 1));
            assert!(a.depth.unwrap() <= b.depth.unwrap());
            assert!(a.nodes.unwrap() <= b.nodes.unwrap());
            assert!(a.blunder_percent >= b.blunder_percent);
            // More noise is only allowed where the level overlooks fewer tactics.
            assert!(a.noise > b.noise || a.blunder_percent > b.blunder_percent);
            assert_ne!(a, b);
        }
        assert_eq!(settings(1).blunder_percent, 100);
        assert_eq!(settings(10).noise, 0);
        assert_eq!(settings(10).nodes, None);
        assert_eq!(settings(0), settings(1));
    }

    #[test]
    fn elo_maps_to_the_nearest_level() {
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
        for (i, &rating) in LEVEL_ELO.iter().enumerate() {
            assert_eq!(level_for_elo(rating), i as u8 + 1);
        }
        assert_eq!(level_for_elo(min_elo() - 500), 1);
        assert_eq!(level_for_elo(max_elo() + 500), MAX_LEVEL);
        let (a, b) = (LEVEL_ELO[3], LEVEL_ELO[4]);
        assert_eq!(level_for_elo(a + (b - a) / 2 - 1), 4);
        assert_eq!(level_for_elo(a + (b - a) / 2 + 1), 5);
    }

    #[test]
    fn noise_is_bounded_deterministic_and_spread() {
        let values: Vec<i32> = (0..10_000u64).map(|k| noise(k * 7919, 42, 50)).collect();
        assert!(values.iter().all(|v| (-50..=50).contains(v)));
        assert_eq!(noise(123, 42, 50), noise(123, 42, 50));
        assert!(values.iter().any(|&v| v < -40) && values.iter().any(|&v| v > 40));
        assert_eq!(noise(5, 1, 0), 0);
    }

    #[test]
    fn blunders_come_at_about_the_asked_rate() {
        let count = |percent| (0..10_000u64).filter(|&k| blunders(k, 9, percent)).count();
        assert_eq!(count(0), 0);
        assert_eq!(count(100), 10_000);
        assert!((4_700..5_300).contains(&count(50)));
        assert!((200..400).contains(&count(3)));
    }
}
