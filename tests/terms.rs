//! The tapered evaluation's terms, feature by feature, on positions worked out by hand: which
//! pawns are passed, isolated or doubled, which pieces hang, what attacks the king zone, how far
//! each piece reaches.

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
            ("passed free 4", 1),
            ("tempo", 1),
        ],
    );
    // A king in front still leaves it passed, but not free.
    expect(
        "4k3/8/8/4P3/8/8/8/4K3 b - - 0 1",
        &[("isolated", 1), ("passed 4", 1), ("tempo", -1)],
    );
    // Doubled: the rear pawn is passed but blocked by its own; d6 stops both and is stopped.
    expect(
        "k7/8/8/8/4P3/4P3/8/4K3 w - - 0 1",
        &[
            ("doubled", 1),
            ("isolated", 2),
            ("passed 2", 1),
            ("passed 3", 1),
            ("passed free 3", 1),
            ("tempo", 1),
        ],
    );
    expect(
        "k7/8/3p4/8/4P3/4P3/8/4K3 w - - 0 1",
        &[("doubled", 1), ("isolated", 1), ("tempo", 1)],
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
            ("passed free 2", 1),
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
            ("passed free 1", -1),
            ("rook open file", 1),
            ("tempo", 1),
        ],
    );
}
