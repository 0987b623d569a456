//! Opening names: lichess's table of 3,807 named openings (ECO code, name, moves; CC0, embedded
//! from `assets/openings/`), and the lichess way of naming a game's opening: the last named
//! position the game reached, found by position, so that transpositions are named too.

use std::collections::HashMap;
use std::sync::OnceLock;

use shakmaty::san::San;
use shakmaty::{Chess, Position};

use crate::engine::node::key_of;

/// The ECO volumes, `eco<TAB>name<TAB>pgn` with a header line.
const VOLUMES: [&str; 5] = [
    include_str!("../assets/openings/a.tsv"),
    include_str!("../assets/openings/b.tsv"),
    include_str!("../assets/openings/c.tsv"),
    include_str!("../assets/openings/d.tsv"),
    include_str!("../assets/openings/e.tsv"),
];

/// A named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `B20`.
    pub eco: &'static str,
    /// The name, `Sicilian Defense: Bowdler Attack`.
    pub name: &'static str,
}

/// Every named position by its key (the first row naming a position wins, as in the table's
/// order).
fn table() -> &'static HashMap<u64, Opening> {
    static TABLE: OnceLock<HashMap<u64, Opening>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map = HashMap::with_capacity(4096);
        for volume in VOLUMES {
            for line in volume.lines().skip(1) {
                let mut fields = line.split('\t');
                let (Some(eco), Some(name), Some(pgn)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    continue;
                };
                if let Some(pos) = play(pgn) {
                    map.entry(key_of(&pos)).or_insert(Opening { eco, name });
                }
            }
        }
        map
    })
}

/// The position after a movetext like `1. e4 c5 2. Nf3`, or `None` if a move is not legal.
fn play(pgn: &str) -> Option<Chess> {
    let mut pos = Chess::default();
    for token in pgn.split_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        let san: San = token.parse().ok()?;
        let m = san.to_move(&pos).ok()?;
        pos.play_unchecked(m);
    }
    Some(pos)
}

/// The opening of a game whose positions have the keys `keys` (`node::key_of`, start first, as
/// `Game::keys` holds them): the last of them the table names.
pub(crate) fn classify(keys: &[u64]) -> Option<Opening> {
    keys.iter().rev().find_map(|k| table().get(k).copied())
}

/// How many positions the table names (3,807 rows, fewer positions where rows repeat one).
pub fn len() -> usize {
    table().len()
}
