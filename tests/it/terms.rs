//! The tapered evaluation's terms, feature by feature, on positions worked out by hand: which
//! pawns are passed, isolated, doubled, supported or side by side, how far the kings are from
//! the passed ones, which pawns shield a king, which pieces hang, what attacks the king zone,
//! how far each piece reaches.

use crate::common;

use std::collections::BTreeMap;

use knightfall::engine::params;
use knightfall::engine::terms::{self, Sink};
use shakmaty::{Color, Position};

/// Counts each feature before `params::SAFE_CHECK`, White's minus Black's (the later ones
/// have a test of their own).
#[derive(Default)]
struct Record(BTreeMap<String, i32>);

impl Sink for Record {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        if index >= params::SAFE_CHECK {
            return;
        }
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

/// Records the features the terms report from `params::SHIELD` up to the round-5 terms
/// (`params::BISHOP_PAWNS` on), which have a test of their own.
struct Features(Vec<(char, usize, i32)>);

impl Sink for Features {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        if (params::SHIELD..params::BISHOP_PAWNS).contains(&index) && count != 0 {
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
        BACKWARD, KING_OPEN_FILE, PASSED_KING_OWN, PASSED_KING_THEIR, PHALANX, SHIELD, SUPPORTED,
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
        // d4 has left c3 behind, and b5 covers c4.
        (w, BACKWARD, 1),
        // Only White's h3 stands on Kg8's h-file.
        (bl, KING_OPEN_FILE + 1, 1),
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

/// The features from `params::SAFE_CHECK` up to `params::BISHOP_PAWNS`, as (colour, name,
/// count), sorted; the same for the position's mirror image with the colours swapped back,
/// which must agree.
fn king_and_piece_features(fen: &str) -> Vec<(char, String, i32)> {
    features_in(fen, params::SAFE_CHECK..params::BISHOP_PAWNS)
}

/// The features whose index lies in `range`, as `king_and_piece_features` reports them.
fn features_in(fen: &str, range: std::ops::Range<usize>) -> Vec<(char, String, i32)> {
    let pos = common::position(fen);
    let collect = |board: &shakmaty::Board, turn: Color, swap: bool| {
        let mut seen = All(Vec::new());
        terms::positional(board, turn, &mut seen);
        let mut counts: BTreeMap<(char, String), i32> = BTreeMap::new();
        for (c, i, n) in seen.0 {
            if range.contains(&i) {
                let c = match (swap, c) {
                    (true, 'w') => 'b',
                    (true, _) => 'w',
                    _ => c,
                };
                *counts.entry((c, params::name(i))).or_default() += n;
            }
        }
        counts
            .into_iter()
            .map(|((c, name), n)| (c, name, n))
            .collect::<Vec<_>>()
    };
    let seen = collect(pos.board(), pos.turn(), false);
    let mut mirrored = pos.board().clone().into_swapped_colors();
    mirrored.flip_vertical();
    assert_eq!(
        collect(&mirrored, !pos.turn(), true),
        seen,
        "mirror of {fen}"
    );
    seen
}

/// Records every feature the terms report.
struct All(Vec<(char, usize, i32)>);

impl Sink for All {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        if count != 0 {
            self.0.push((color.char(), index, count));
        }
    }
    fn king_attack(&mut self, _: Color, _: usize, _: [i32; 4]) {}
}

fn owned(list: &[(char, &str, i32)]) -> Vec<(char, String, i32)> {
    let mut list: Vec<_> = list
        .iter()
        .map(|&(c, n, k)| (c, n.to_string(), k))
        .collect();
    list.sort();
    list
}

/// Safe checks, outposts, backward pawns, rooks on the seventh, minor pieces behind pawns,
/// open files at the king, pawn storms and pawn-push threats, worked out square by square.
#[test]
fn safe_checks_outposts_storms_and_push_threats_are_counted() {
    // Nd5 is defended by c4 and no black pawn can ever chase it; Be3 stands behind e4, Rb7 on
    // the seventh; g3-g4 would attack Nf5; Kg8 has the f-file half open (White's f2 only);
    // Ra8 could check from a1, which nothing of White's covers (Nd5's checks from e7 and f6
    // are covered by Nf5 and g7, Rb7's from b8 and g7 by Ra8 and the king).
    assert_eq!(
        king_and_piece_features("r5k1/1R4pp/8/3N1n2/2P1P3/4B1P1/5P1P/6K1 w - - 0 1"),
        owned(&[
            ('w', "outpost knight", 1),
            ('w', "minor behind pawn", 1),
            ('w', "rook on seventh", 1),
            ('w', "pawn push threat", 1),
            ('b', "king open file semi-open", 1),
            ('b', "safe check rook", 1),
        ])
    );
    // Kh8 faces g6 (two ranks up) and h7 (one), both files without a black pawn; Ng5 checks
    // safely from f7, Qc3 from c8, and Ng5 has g6 in front of it. e3 is backward: d4 has gone
    // on and d5 covers e4. Kc1's b- and c-files are empty. f7-f6 would attack Ng5 safely.
    assert_eq!(
        king_and_piece_features("7k/5p1P/6P1/3p2N1/3P4/2Q1P3/8/2K5 w - - 0 1"),
        owned(&[
            ('w', "safe check knight", 1),
            ('w', "safe check queen", 1),
            ('w', "minor behind pawn", 1),
            ('w', "backward pawn", 1),
            ('w', "king open file open", 2),
            ('b', "king open file semi-open", 2),
            ('b', "pawn storm 1", 1),
            ('b', "pawn storm 2", 1),
            ('b', "pawn push threat", 1),
        ])
    );
}

/// Bishop pawns, rooks behind passed pawns, blocked passed pawns, blocked storms, weak
/// squares at the king, pins, space and rooks on queens, worked out square by square (the
/// mirror image must agree, see `features_in`).
#[test]
fn bishop_pawns_pins_weak_king_squares_and_space_are_counted() {
    let later = |fen| features_in(fen, params::BISHOP_PAWNS..params::COUNT);
    // Be3 shares the dark squares with g3, f2 and h2. At Kg8 Black's f7 (Rb7), g5 (Be3) and
    // f5 (e4) are attacked and covered by no pawn or piece but the king (g7 and f6 are).
    // White's space: c2 d2 e2 c3 d3 e3 f3 d4 f4 (9; c4 e4 f2 are pawns), c2 c3 e2 e3 behind
    // c4 and e4; Black's: the c-f squares of ranks 5-7 but d5 and f5, which White's pawns hit.
    assert_eq!(
        later("r5k1/1R4pp/8/3N1n2/2P1P3/4B1P1/5P1P/6K1 w - - 0 1"),
        owned(&[
            ('w', "bishop pawns", 3),
            ('w', "space safe", 9),
            ('w', "space behind pawn", 4),
            ('b', "king zone weak", 3),
            ('b', "space safe", 10),
        ])
    );
    // h7 is passed and Kh8 stands in its way. d5 hits c4 at Kc1 (only the queen covers it);
    // at Kh8 g8 and h7 are White's and nothing but the king holds them. Space: White's c4 and
    // e4 are hit by d5, d2 d3 e2 lie behind d4 and e3; Black's c5 and e5 are hit by d4, d6
    // and d7 lie behind d5.
    assert_eq!(
        later("7k/5p1P/6P1/3p2N1/3P4/2Q1P3/8/2K5 w - - 0 1"),
        owned(&[
            ('w', "passed blocked 6", 1),
            ('w', "king zone weak", 1),
            ('w', "space safe", 8),
            ('w', "space behind pawn", 3),
            ('b', "king zone weak", 2),
            ('b', "space safe", 8),
            ('b', "space behind pawn", 2),
        ])
    );
    // d6 is passed, blocked by Bd7, with Rd1 behind it; b4 is passed with White's Rb8 behind
    // it. g4 storms Kg1 three ranks up but g3 stops it. Re1 pins Be7 and Rb8 pins Qc8 (and
    // attacks it). Bd7 shares the light squares with g4, Be7 the dark ones with b4. Weak at
    // Kg1: f3, h3 (g4 hits them) and g4 (Bd7); at Ke8: e7 (d6, Re1), e5 (Re1) and d5 (Rd1),
    // while Bd7 holds e6 and Be7 d6. Space: White's c3 and f3 are hit by b4 and g4, d3 and d4
    // lie behind d6; Black's c7 and e7 are hit by d6.
    assert_eq!(
        later("1Rq1k3/3bb3/3P4/8/1p4p1/6P1/5P1P/3RR1K1 w - - 0 1"),
        owned(&[
            ('w', "passed blocked 5", 1),
            ('w', "rook behind passer own", 1),
            ('w', "pawn storm blocked 3", 1),
            ('w', "king zone weak", 3),
            ('w', "rook on queen", 1),
            ('w', "space safe", 9),
            ('w', "space behind pawn", 2),
            ('b', "bishop pawns", 2),
            ('b', "rook behind passer enemy", 1),
            ('b', "king zone weak", 3),
            ('b', "pinned bishop", 1),
            ('b', "pinned queen", 1),
            ('b', "space safe", 10),
        ])
    );
}

/// The account a review reads (each side's groups apart) agrees with the trace `knightfall
/// eval --trace` prints (White's minus Black's), group by group, to the rounding of tapering.
#[test]
fn the_account_of_each_side_adds_up_to_the_trace() {
    use knightfall::engine::eval::GROUP_NAMES;
    use knightfall::engine::{Evaluator, Profile};
    let evaluator = Evaluator::new(Profile::Tapered);
    for fen in [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/P4PPP/R1BQKB1R w KQ - 0 9",
        "6k1/5ppp/8/3P4/8/5P2/5P1P/6K1 b - - 0 1",
        "2r3k1/1p3ppp/p3p3/3nP3/1q1P4/1B3Q2/PP4PP/2R3K1 w - - 0 24",
    ] {
        let pos = common::position(fen);
        let account = evaluator.account(pos.board(), pos.turn());
        let (_, lines) = evaluator.trace(pos.board(), pos.turn());
        let line = |name: &str| lines.iter().find(|l| l.0 == name).map(|l| l.1);
        assert_eq!(line("material"), Some(account.material), "{fen}");
        for (g, name) in GROUP_NAMES.into_iter().enumerate() {
            let net = account.groups[0][g] - account.groups[1][g];
            let traced = line(name).unwrap_or_default();
            assert!(
                (net - traced).abs() <= 1,
                "{fen}: {name} {net} against {traced}"
            );
        }
    }
}
