//! The tapered evaluation's weights as one flat list of middlegame/endgame pairs, so that the
//! tuner (`tools/tune`) can fit all of them together and write them back as `tuned.rs`.
//!
//! Each weight has a fixed place in the list, named by the constants below; piece-square
//! entries are indexed by square as White sees the board (a1 = 0), Black's mirrored.

use std::ops::{Add, AddAssign, Mul, Neg, Sub};

use super::pst;

/// A middlegame and an endgame value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

/// The same value in both stages.
impl From<i32> for S {
    fn from(v: i32) -> S {
        S(v, v)
    }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// Piece values, pawn to king (the king's is unused).
pub const MATERIAL: usize = 0;
/// Piece-square tables, `PST + 64 * role_index + square`.
pub const PST: usize = MATERIAL + 6;
/// Knight mobility by the number of safe squares it reaches (0 to 8).
pub(crate) const MOBILITY_KNIGHT: usize = PST + 6 * 64;
/// Bishop mobility (0 to 13).
pub(crate) const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Rook mobility (0 to 14).
pub(crate) const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Queen mobility (0 to 27).
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// King-zone attack units of a knight, bishop, rook and queen attacking the zone.
pub const KING_ATTACK_UNITS: usize = MOBILITY_QUEEN + 28;
/// The percentage of the attack units that counts, by the number of attacking pieces (0 to 7
/// and more): the notebooks' weight that grows with the attackers.
pub const KING_ATTACK_WEIGHT: usize = KING_ATTACK_UNITS + 4;
/// A piece (knight to queen) attacked by an enemy pawn.
pub(crate) const THREAT_BY_PAWN: usize = KING_ATTACK_WEIGHT + 8;
/// A rook or queen attacked by an enemy knight or bishop (indexed by the victim, pawn to king).
pub(crate) const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
/// A piece attacked and not defended (the notebooks' attacked-pieces term), by its role.
pub(crate) const HANGING: usize = THREAT_BY_MINOR + 6;
/// A passed pawn by its rank as its owner sees it (1 to 6 used).
pub(crate) const PASSED: usize = HANGING + 6;
/// Extra for a passed pawn whose path to promotion is empty, by rank.
pub(crate) const PASSED_FREE: usize = PASSED + 8;
/// A pawn with no friendly pawn on a neighbouring file.
pub(crate) const ISOLATED: usize = PASSED_FREE + 8;
/// A pawn with a friendly pawn in front of it on its file.
pub(crate) const DOUBLED: usize = ISOLATED + 1;
/// Two bishops.
pub(crate) const BISHOP_PAIR: usize = DOUBLED + 1;
/// A rook on a file without pawns.
pub(crate) const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file with enemy pawns only.
pub(crate) const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// The side to move's bonus.
pub const TEMPO: usize = ROOK_SEMI_OPEN + 1;
/// Own pawns shielding the king: on the king's file and its neighbours one rank in front of
/// it, then two ranks in front.
pub const SHIELD: usize = TEMPO + 1;
/// A passed pawn's own king, per square of distance to the square in front of the pawn, by
/// the pawn's rank.
pub const PASSED_KING_OWN: usize = SHIELD + 2;
/// The enemy king's distance to the square in front of a passed pawn, by the pawn's rank.
pub const PASSED_KING_THEIR: usize = PASSED_KING_OWN + 8;
/// A pawn defended by a pawn, by its rank.
pub const SUPPORTED: usize = PASSED_KING_THEIR + 8;
/// A pawn with a friendly pawn beside it on the same rank, by its rank.
pub const PHALANX: usize = SUPPORTED + 8;
/// Squares from which a knight, bishop, rook or queen could give check that the enemy does
/// not attack and the piece reaches.
pub const SAFE_CHECK: usize = PHALANX + 8;
/// A knight or bishop on the 4th to 6th rank, defended by a pawn, that no enemy pawn can
/// ever attack.
pub(crate) const OUTPOST: usize = SAFE_CHECK + 4;
/// A pawn that no neighbouring pawn can defend any more and whose next square an enemy pawn
/// attacks.
pub const BACKWARD: usize = OUTPOST + 2;
/// A rook on the seventh rank.
pub(crate) const ROOK_SEVENTH: usize = BACKWARD + 1;
/// A knight or bishop with a pawn straight in front of it.
pub(crate) const MINOR_BEHIND_PAWN: usize = ROOK_SEVENTH + 1;
/// Files at the king (its own and the neighbours) without any pawn, then without an own pawn
/// but with an enemy one.
pub const KING_OPEN_FILE: usize = MINOR_BEHIND_PAWN + 1;
/// Enemy pawns storming the king: on its files, one, two and three ranks in front of it.
pub(crate) const STORM: usize = KING_OPEN_FILE + 2;
/// Enemy pieces a safe pawn push would attack.
pub(crate) const PUSH_THREAT: usize = STORM + 3;
/// Each bishop's own pawns on squares of its colour.
pub const BISHOP_PAWNS: usize = PUSH_THREAT + 1;
/// A rook behind a passed pawn on its file: the pawn's own side's, then the enemy's.
pub(crate) const ROOK_BEHIND_PASSER: usize = BISHOP_PAWNS + 1;
/// A passed pawn with an enemy piece on the square in front of it, by the pawn's rank.
pub(crate) const PASSED_BLOCKED: usize = ROOK_BEHIND_PASSER + 2;
/// Storming enemy pawns (as `STORM`) that an own pawn stops, one, two and three ranks in
/// front of the king.
pub(crate) const STORM_BLOCKED: usize = PASSED_BLOCKED + 8;
/// Squares of the king zone the enemy attacks and only the king or queen defends.
pub const KING_ZONE_WEAK: usize = STORM_BLOCKED + 3;
/// Own pawns, knights, bishops, rooks and queens pinned to the king.
pub(crate) const PINNED: usize = KING_ZONE_WEAK + 1;
/// Space: squares of the c to f files on the 2nd to 4th rank that no enemy pawn attacks and
/// no own pawn stands on, then those of them behind an own pawn.
pub(crate) const SPACE: usize = PINNED + 5;
/// An enemy queen a rook attacks.
pub(crate) const ROOK_ON_QUEEN: usize = SPACE + 2;
/// How many weights there are.
pub const COUNT: usize = ROOK_ON_QUEEN + 1;

/// The name of the weight at `index`, for the tuner's report.
pub fn name(index: usize) -> String {
    const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let groups: [(usize, &str); 41] = [
        (MATERIAL, "material"),
        (PST, "pst"),
        (MOBILITY_KNIGHT, "mobility knight"),
        (MOBILITY_BISHOP, "mobility bishop"),
        (MOBILITY_ROOK, "mobility rook"),
        (MOBILITY_QUEEN, "mobility queen"),
        (KING_ATTACK_UNITS, "king attack units"),
        (KING_ATTACK_WEIGHT, "king attack weight"),
        (THREAT_BY_PAWN, "threat by pawn"),
        (THREAT_BY_MINOR, "threat by minor"),
        (HANGING, "hanging"),
        (PASSED, "passed"),
        (PASSED_FREE, "passed free"),
        (ISOLATED, "isolated"),
        (DOUBLED, "doubled"),
        (BISHOP_PAIR, "bishop pair"),
        (ROOK_OPEN, "rook open file"),
        (ROOK_SEMI_OPEN, "rook semi-open file"),
        (TEMPO, "tempo"),
        (SHIELD, "pawn shield"),
        (PASSED_KING_OWN, "passed own king distance"),
        (PASSED_KING_THEIR, "passed enemy king distance"),
        (SUPPORTED, "supported pawn"),
        (PHALANX, "phalanx pawn"),
        (SAFE_CHECK, "safe check"),
        (OUTPOST, "outpost"),
        (BACKWARD, "backward pawn"),
        (ROOK_SEVENTH, "rook on seventh"),
        (MINOR_BEHIND_PAWN, "minor behind pawn"),
        (KING_OPEN_FILE, "king open file"),
        (STORM, "pawn storm"),
        (PUSH_THREAT, "pawn push threat"),
        (BISHOP_PAWNS, "bishop pawns"),
        (ROOK_BEHIND_PASSER, "rook behind passer"),
        (PASSED_BLOCKED, "passed blocked"),
        (STORM_BLOCKED, "pawn storm blocked"),
        (KING_ZONE_WEAK, "king zone weak"),
        (PINNED, "pinned"),
        (SPACE, "space"),
        (ROOK_ON_QUEEN, "rook on queen"),
        (COUNT, ""),
    ];
    let (start, group) = groups
        .iter()
        .rev()
        .find(|(start, _)| *start <= index)
        .copied()
        .unwrap_or((0, "?"));
    let offset = index - start;
    match start {
        MATERIAL | THREAT_BY_PAWN | THREAT_BY_MINOR | HANGING | PINNED => {
            format!("{group} {}", ROLES[offset.min(5)])
        }
        PST => {
            let sq = offset % 64;
            let file = (b'a' + (sq % 8) as u8) as char;
            format!("{group} {} {file}{}", ROLES[offset / 64], sq / 8 + 1)
        }
        KING_ATTACK_UNITS | SAFE_CHECK | OUTPOST => format!("{group} {}", ROLES[offset + 1]),
        ISOLATED | DOUBLED | BISHOP_PAIR | ROOK_OPEN | ROOK_SEMI_OPEN | TEMPO | BACKWARD
        | ROOK_SEVENTH | MINOR_BEHIND_PAWN | PUSH_THREAT | BISHOP_PAWNS | KING_ZONE_WEAK
        | ROOK_ON_QUEEN => group.to_string(),
        ROOK_BEHIND_PASSER => format!("{group} {}", ["own", "enemy"][offset.min(1)]),
        SPACE => format!("{group} {}", ["safe", "behind pawn"][offset.min(1)]),
        KING_OPEN_FILE => format!("{group} {}", ["open", "semi-open"][offset.min(1)]),
        STORM | STORM_BLOCKED => format!("{group} {}", offset + 1),
        _ => format!("{group} {offset}"),
    }
}

/// The tuner's starting point: PeSTO's values and tables, the notebooks' king-attack units
/// and weights, and small hand-set guesses for the other terms.
pub fn start() -> Vec<S> {
    let mut p = vec![S::default(); COUNT];
    for role in 0..6 {
        p[MATERIAL + role] = S(pst::PESTO_VALUES_MG[role], pst::PESTO_VALUES_EG[role]);
        for sq in 0..64 {
            // The printed tables start at rank 8.
            p[PST + 64 * role + sq] = S(pst::PESTO_MG[role][sq ^ 56], pst::PESTO_EG[role][sq ^ 56]);
        }
    }
    let linear = |p: &mut [S], start: usize, n: usize, mg: i32, eg: i32| {
        let middle = n as i32 / 2;
        for i in 0..n {
            p[start + i] = S(mg * (i as i32 - middle), eg * (i as i32 - middle));
        }
    };
    linear(&mut p, MOBILITY_KNIGHT, 9, 4, 4);
    linear(&mut p, MOBILITY_BISHOP, 14, 4, 4);
    linear(&mut p, MOBILITY_ROOK, 15, 2, 4);
    linear(&mut p, MOBILITY_QUEEN, 28, 1, 2);
    for (i, units) in [20, 20, 40, 80].into_iter().enumerate() {
        p[KING_ATTACK_UNITS + i] = S(units, units / 4);
    }
    for (i, weight) in [0, 0, 50, 75, 88, 94, 97, 99].into_iter().enumerate() {
        p[KING_ATTACK_WEIGHT + i] = S(weight, weight);
    }
    for role in 1..5 {
        p[THREAT_BY_PAWN + role] = S(40, 30);
        p[HANGING + role] = S(15, 15);
    }
    p[HANGING] = S(5, 10);
    p[THREAT_BY_MINOR + 3] = S(25, 20);
    p[THREAT_BY_MINOR + 4] = S(30, 25);
    for (rank, bonus) in [0, 5, 10, 15, 30, 50, 80, 0].into_iter().enumerate() {
        p[PASSED + rank] = S(bonus / 2, bonus);
        p[PASSED_FREE + rank] = S(0, bonus / 3);
    }
    p[ISOLATED] = S(-10, -10);
    p[DOUBLED] = S(-10, -20);
    p[BISHOP_PAIR] = S(25, 40);
    p[ROOK_OPEN] = S(25, 10);
    p[ROOK_SEMI_OPEN] = S(10, 5);
    p[TEMPO] = S(10, 5);
    p[SHIELD] = S(10, 0);
    p[SHIELD + 1] = S(5, 0);
    for rank in 1..7 {
        let r = rank as i32;
        p[PASSED_KING_OWN + rank] = S(0, -2 * r);
        p[PASSED_KING_THEIR + rank] = S(0, 4 * r);
        p[SUPPORTED + rank] = S(5 + r, 5 + r);
        p[PHALANX + rank] = S(3 + r, 3 + r);
    }
    for (i, check) in [10, 6, 10, 8].into_iter().enumerate() {
        p[SAFE_CHECK + i] = S(check, 2);
    }
    p[OUTPOST] = S(20, 10);
    p[OUTPOST + 1] = S(10, 5);
    p[BACKWARD] = S(-8, -10);
    p[ROOK_SEVENTH] = S(10, 20);
    p[MINOR_BEHIND_PAWN] = S(8, 0);
    p[KING_OPEN_FILE] = S(-15, 0);
    p[KING_OPEN_FILE + 1] = S(-8, 0);
    for (i, storm) in [-10, -6, -3].into_iter().enumerate() {
        p[STORM + i] = S(storm, 0);
    }
    p[PUSH_THREAT] = S(15, 10);
    p[BISHOP_PAWNS] = S(-2, -4);
    p[ROOK_BEHIND_PASSER] = S(5, 15);
    p[ROOK_BEHIND_PASSER + 1] = S(-5, -15);
    for rank in 1..7 {
        p[PASSED_BLOCKED + rank] = S(0, -3 * rank as i32);
    }
    p[KING_ZONE_WEAK] = S(-5, 0);
    for role in 1..5 {
        p[PINNED + role] = S(-10, -10);
    }
    p[SPACE] = S(2, 0);
    p[ROOK_ON_QUEEN] = S(20, 15);
    p
}
