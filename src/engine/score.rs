//! Score scale: centipawns, with mate and tablebase scores at the top of the range.

/// Larger than any score.
pub(crate) const INFINITY: i32 = 32_000;
/// Score of being mated at the root; mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 31_000;
/// Anything beyond this is a mate score.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Tablebase win at the root; below every mate score.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Anything beyond this (and not a mate) is a tablebase win.
pub(crate) const TB_WIN_BOUND: i32 = TB_WIN - 1000;
/// The deepest ply the search reaches.
pub(crate) const MAX_PLY: usize = 128;

/// Converts a score relative to the root into one relative to the node at `ply` (for storing).
#[inline]
pub(crate) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of `to_tt`.
#[inline]
pub(crate) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reported {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

/// The UCI form of a score: mate in moves, rounding a ply count up to whole moves. A search
/// score has an odd ply count when winning and an even one when losing; a score seen from the
/// other side (White's view of Black's mate) has the other parity, and rounds the same way.
pub fn report(score: i32) -> Reported {
    if score >= MATE_BOUND {
        Reported::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Reported::Mate(-((MATE + score + 1) / 2))
    } else {
        Reported::Cp(score)
    }
}

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reported::Cp(cp) => write!(f, "cp {cp}"),
            Reported::Mate(n) => write!(f, "mate {n}"),
        }
    }
}
