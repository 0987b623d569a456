//! The tapered evaluation's terms, feature by feature, on positions worked out by hand: which
//! pawns are passed, isolated, doubled, supported or side by side, how far the kings are from
//! the passed ones, which pawns shield a king, which pieces hang, what attacks the king zone,
//! how far each piece reaches.

mod common;

use std::collections::BTreeMap;

use knightfall::engine::params;
use knightfall::engine::terms::{self, Sink};
use shakmaty::{Color, Position};

/// Counts each feature, White's minus Black's.
#[derive(Default)]
struct Record(BTreeMap<String, i32>);

impl Sink for Record {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        *self.0.entry(params::name(index)).or_default() += terms::sign(color) * count;
        self.0.retain(|_, v| *v != 0);
    }

    fn king_attack(&mut self, defender: Color, attackers: usize, counts: [i32; 4]) {
        let key = format!("{defender:?} king zone: {attackers} attackers {counts:?}");
        *self.0.entry(key).or_default() += 1;
    }
}

fn features(fen: &str) -> Vec<(String, i32)> {
    let pos = common::position(fen);
    let mut record = Record::default();
    terms::positional(pos.board(), pos.turn(), &mut record);
    record.0.into_iter().collect()
}

fn expect(fen: &str, expected: &[(&str, i32)]) {
    let expected: Vec<(String, i32)> = expected.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    assert_eq!(features(fen), expected, "{fen}");
}

#[test]
fn passed_isolated_and_doubled_pawns() {
    // The e-pawn runs free to e8.
    expect(
        "k7/8/8/4P3/8/8/8/4K3 w - - 0 1",
        &[
            ("isolated", 1),
            ("passed 4", 1),
            // e6 is 4 squares from a8 and 5 from e1.
            ("passed enemy king distance 4", 4),
            ("passed free 4", 1),
            ("passed own king distance 4", 5),
            ("tempo", 1),
        ],
    );
    // A king in front still leaves it passed, but not free.
    expect(
        "4k3/8/8/4P3/8/8/8/4K3 b - - 0 1",
        &[
            ("isolated", 1),
            ("passed 4", 1),
            ("passed enemy king distance 4", 2),
            ("passed own king distance 4", 5),
            ("tempo", -1),
        ],
    );
    // Doubled: the rear pawn is passed but blocked by its own; d6 stops both and is stopped.
    expect(
        "k7/8/8/8/4P3/4P3/8/4K3 w - - 0 1",
        &[
            ("doubled", 1),
            ("isolated", 2),
            ("passed 2", 1),
            ("passed 3", 1),
            // e4 (ahead of e3) is 4 squares from a8 and 3 from e1; e5 is 4 from both.
            ("passed enemy king distance 2", 4),
            ("passed enemy king distance 3", 4),
            ("passed free 3", 1),
            ("passed own king distance 2", 3),
            ("passed own king distance 3", 4),
            // e3 stands two ranks in front of the king, on its file.
            ("pawn shield 1", 1),
            ("tempo", 1),
        ],
    );
    expect(
        "k7/8/3p4/8/4P3/4P3/8/4K3 w - - 0 1",
        &[
            ("doubled", 1),
            ("isolated", 1),
            ("pawn shield 1", 1),
            ("tempo", 1),
        ],
    );
}

#[test]
fn attacked_and_hanging_pieces_and_mobility() {
    // e4 attacks the undefended knight on d5, which reaches eight safe squares, e3 and f4 of
    // them in the zone of White's king (d1-f4).
    expect(
        "4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1",
        &[
            ("White king zone: 1 attackers [1, 0, 0, 0]", 1),
            ("hanging knight", 1),
            ("isolated", 1),
            ("mobility knight 8", -1),
            ("passed 3", 1),
            ("passed enemy king distance 3", 3),
            ("passed own king distance 3", 4),
            ("tempo", -1),
            ("threat by pawn knight", 1),
        ],
    );
    // The knight on c4 attacks the rook, which its king defends: a threat, not a hanging rook;
    // the knight itself hangs to b3. Each attacks a zone square of the other's king (d2, e3;
    // d8), and the rook's file is open.
    expect(
        "4k3/8/8/8/2n5/1P6/3R4/3K4 w - - 0 1",
        &[
            ("Black king zone: 1 attackers [0, 0, 1, 0]", 1),
            ("White king zone: 1 attackers [1, 0, 0, 0]", 1),
            ("hanging knight", 1),
            ("isolated", 1),
            ("mobility knight 8", -1),
            ("mobility rook 13", 1),
            ("passed 2", 1),
            // b4 is 4 squares from e8 and 3 from d1.
            ("passed enemy king distance 2", 4),
            ("passed free 2", 1),
            ("passed own king distance 2", 3),
            ("rook open file", 1),
            ("tempo", 1),
            ("threat by minor rook", -1),
            ("threat by pawn knight", 1),
        ],
    );
}

#[test]
fn king_zone_rooks_and_bishops() {
    // The knight on f3 reaches g1, h2 and h4 of the zone f1-h4.
    expect(
        "6k1/8/8/8/8/5n2/8/6K1 w - - 0 1",
        &[
            ("White king zone: 1 attackers [1, 0, 0, 0]", 1),
            ("mobility knight 8", -1),
            ("tempo", 1),
        ],
    );
    // Rook on an open file, the bishop pair, b1's diagonal reaching f5 in Black's zone d5-f8,
    // and Black's a-pawn passed, free and isolated.
    expect(
        "4k3/p7/8/8/8/8/8/1B2KB1R w - - 0 1",
        &[
            ("Black king zone: 1 attackers [0, 1, 0, 0]", 1),
            ("bishop pair", 1),
            ("isolated", -1),
            ("mobility bishop 7", 2),
            ("mobility rook 8", 1),
            ("passed 1", -1),
            // a6 is 5 squares from e1 and 4 from e8.
            ("passed enemy king distance 1", -5),
            ("passed free 1", -1),
            ("passed own king distance 1", -4),
            ("rook open file", 1),
            ("tempo", 1),
        ],
    );
}

/// Records the features the terms report at or after `params::SHIELD`.
struct Features(Vec<(char, usize, i32)>);

impl Sink for Features {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        if index >= knightfall::engine::params::SHIELD && count != 0 {
            self.0.push((color.char(), index, count));
        }
    }
    fn king_attack(&mut self, _: Color, _: usize, _: [i32; 4]) {}
}

/// The king's pawn shield, the kings' distances to passed pawns, supported and side-by-side
/// pawns, counted square by square in one position and its mirror image.
#[test]
fn pawn_shield_passer_distance_supported_and_phalanx_pawns_are_counted() {
    use knightfall::engine::params::{
        PASSED_KING_OWN, PASSED_KING_THEIR, PHALANX, SHIELD, SUPPORTED,
    };
    let b = common::position("6k1/5p2/6p1/pp6/3P4/2P4P/5PP1/6K1 w - - 0 1")
        .board()
        .clone();
    let mut seen = Features(Vec::new());
    terms::positional(&b, Color::White, &mut seen);
    seen.0.sort();
    let (w, bl) = ('w', 'b');
    let mut expected = vec![
        // Kg1 behind f2 g2 (one rank up) and h3 (two); Kg8 behind f7 and g6.
        (w, SHIELD, 2),
        (w, SHIELD + 1, 1),
        (bl, SHIELD, 1),
        (bl, SHIELD + 1, 1),
        // d4 is passed on White's fourth rank: d5 is 4 squares from Kg1 and 3 from Kg8.
        (w, PASSED_KING_OWN + 3, 4),
        (w, PASSED_KING_THEIR + 3, 3),
        // a5 is passed on Black's fourth rank: a4 is 6 squares from either king.
        (bl, PASSED_KING_OWN + 3, 6),
        (bl, PASSED_KING_THEIR + 3, 6),
        // c3 defends d4 and g2 defends h3; f7 defends g6.
        (w, SUPPORTED + 3, 1),
        (w, SUPPORTED + 2, 1),
        (bl, SUPPORTED + 2, 1),
        // f2 and g2 stand side by side, as do a5 and b5.
        (w, PHALANX + 1, 1),
        (w, PHALANX + 1, 1),
        (bl, PHALANX + 3, 1),
        (bl, PHALANX + 3, 1),
    ];
    expected.sort();
    assert_eq!(seen.0, expected);

    // The mirror image reports the same features for the other colour.
    let mut mirrored = b.into_swapped_colors();
    mirrored.flip_vertical();
    let mut other = Features(Vec::new());
    terms::positional(&mirrored, Color::Black, &mut other);
    let mut swapped: Vec<_> = other
        .0
        .into_iter()
        .map(|(c, i, n)| (if c == 'w' { 'b' } else { 'w' }, i, n))
        .collect();
    swapped.sort();
    assert_eq!(swapped, expected);
}
