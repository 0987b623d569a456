//! Piece-square-table evaluation with two profiles, kept up to date incrementally on every move.
//!
//! Both profiles store two sums per position (White's view, material included): a "middlegame"
//! and an "endgame" one. `Simplified` picks one of them by the notebooks' king-endgame rule (its
//! two sums differ only in the king table); `Tapered` blends PeSTO's two sums by game phase.

use std::sync::OnceLock;

use shakmaty::{Board, Chess, Color, Move, Position, Role, Square};

use super::params::{self, S};
use super::pawn_cache::PawnCache;
use super::scale::{FULL, endgame_scale};
use super::terms::{self, Sink};
use super::{pst, tuned};

/// Which evaluation to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Michniewski's Simplified Evaluation Function, exactly as the source notebooks define it.
    Simplified,
    /// PeSTO middlegame/endgame tables interpolated by game phase, plus a mop-up term.
    #[default]
    Tapered,
}

impl Profile {
    /// Parses `simplified` or `tapered`.
    pub fn parse(name: &str) -> Option<Profile> {
        match name.to_ascii_lowercase().as_str() {
            "simplified" => Some(Profile::Simplified),
            "tapered" => Some(Profile::Tapered),
            _ => None,
        }
    }

    /// The profile's name as `parse` accepts it.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Simplified => "simplified",
            Profile::Tapered => "tapered",
        }
    }
}

/// Signed values (White positive) indexed by `[stage][color][role][square]`, material included.
struct Weights {
    table: [[[[i32; 64]; 6]; 2]; 2],
}

impl Weights {
    fn build(
        mg: &[[i32; 64]; 6],
        eg: &[[i32; 64]; 6],
        mg_val: &[i32; 6],
        eg_val: &[i32; 6],
    ) -> Self {
        let mut table = [[[[0; 64]; 6]; 2]; 2];
        for (stage, (tables, values)) in [(mg, mg_val), (eg, eg_val)].into_iter().enumerate() {
            for role in 0..6 {
                for sq in 0..64 {
                    // Tables are printed rank 8 first: a White piece on `sq` reads row `sq ^ 56`,
                    // a Black piece reads the vertically mirrored square, which is `sq` itself.
                    table[stage][0][role][sq] = values[role] + tables[role][sq ^ 56];
                    table[stage][1][role][sq] = -(values[role] + tables[role][sq]);
                }
            }
        }
        Weights { table }
    }

    #[inline]
    fn get(&self, stage: usize, color: Color, role: Role, sq: Square) -> i32 {
        self.table[stage][color_index(color)][role as usize - 1][sq as usize]
    }
}

#[inline]
fn color_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The tapered profile's weights (see `params`).
pub fn tapered_weights() -> &'static [S] {
    &tuned::WEIGHTS[..]
}

fn weights(profile: Profile) -> &'static Weights {
    static SIMPLIFIED: OnceLock<Weights> = OnceLock::new();
    static TAPERED: OnceLock<Weights> = OnceLock::new();
    match profile {
        Profile::Simplified => SIMPLIFIED.get_or_init(|| {
            let mut endgame = pst::SIMPLIFIED;
            endgame[5] = pst::SIMPLIFIED_KING_ENDGAME;
            Weights::build(
                &pst::SIMPLIFIED,
                &endgame,
                &pst::SIMPLIFIED_VALUES,
                &pst::SIMPLIFIED_VALUES,
            )
        }),
        Profile::Tapered => TAPERED.get_or_init(|| {
            // `Weights::build` reads tables printed rank 8 first, as `pst` has them.
            let p = tapered_weights();
            let mut mg = [[0; 64]; 6];
            let mut eg = [[0; 64]; 6];
            let mut mg_val = [0; 6];
            let mut eg_val = [0; 6];
            for role in 0..6 {
                mg_val[role] = p[params::MATERIAL + role].0;
                eg_val[role] = p[params::MATERIAL + role].1;
                for sq in 0..64 {
                    let w = p[params::PST + 64 * role + (sq ^ 56)];
                    mg[role][sq] = w.0;
                    eg[role][sq] = w.1;
                }
            }
            Weights::build(&mg, &eg, &mg_val, &eg_val)
        }),
    }
}

/// The two running sums of one position, updated move by move instead of recomputed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Accumulator {
    /// Middlegame sum (simplified: with the middlegame king table).
    pub mg: i32,
    /// Endgame sum (simplified: with the endgame king table).
    pub eg: i32,
}

/// An evaluation profile bound to its tables.
#[derive(Clone, Copy)]
pub struct Evaluator {
    profile: Profile,
    weights: &'static Weights,
    /// The tapered profile's term weights (see `params`).
    terms: &'static [S],
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("profile", &self.profile)
            .finish()
    }
}

impl Evaluator {
    /// The evaluator for `profile`.
    pub fn new(profile: Profile) -> Self {
        Evaluator {
            profile,
            weights: weights(profile),
            terms: tapered_weights(),
        }
    }

    /// The same evaluator blind to threats (pieces attacked by pawns or minor pieces, hanging
    /// pieces): a level's move that overlooks tactics must not see a piece left en prise in
    /// its static evaluation either, or it would not overlook it.
    pub fn blind_to_threats(self) -> Evaluator {
        static BLIND: OnceLock<Vec<S>> = OnceLock::new();
        let terms = BLIND.get_or_init(|| {
            let mut w = tapered_weights().to_vec();
            w[params::THREAT_BY_PAWN..params::PASSED].fill(S::default());
            w
        });
        Evaluator { terms, ..self }
    }

    /// Sums every piece of `board` from scratch.
    pub fn accumulate(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator::default();
        for (sq, piece) in board.iter() {
            self.add(&mut acc, piece.color, piece.role, sq);
        }
        acc
    }

    #[inline]
    fn add(&self, acc: &mut Accumulator, color: Color, role: Role, sq: Square) {
        acc.mg += self.weights.get(0, color, role, sq);
        acc.eg += self.weights.get(1, color, role, sq);
    }

    #[inline]
    fn sub(&self, acc: &mut Accumulator, color: Color, role: Role, sq: Square) {
        acc.mg -= self.weights.get(0, color, role, sq);
        acc.eg -= self.weights.get(1, color, role, sq);
    }

    /// The sums after `mover` plays the legal move `m`, from the sums before it.
    #[inline]
    pub fn update(&self, acc: Accumulator, mover: Color, m: Move) -> Accumulator {
        let mut acc = acc;
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                self.sub(&mut acc, mover, role, from);
                self.add(&mut acc, mover, promotion.unwrap_or(role), to);
                if let Some(captured) = capture {
                    self.sub(&mut acc, !mover, captured, to);
                }
            }
            Move::EnPassant { from, to } => {
                self.sub(&mut acc, mover, Role::Pawn, from);
                self.add(&mut acc, mover, Role::Pawn, to);
                let victim = Square::from_coords(to.file(), from.rank());
                self.sub(&mut acc, !mover, Role::Pawn, victim);
            }
            Move::Castle { king, rook } => {
                let (king_to, rook_to) = castle_targets(king, rook);
                self.sub(&mut acc, mover, Role::King, king);
                self.sub(&mut acc, mover, Role::Rook, rook);
                self.add(&mut acc, mover, Role::King, king_to);
                self.add(&mut acc, mover, Role::Rook, rook_to);
            }
            Move::Put { role, to } => self.add(&mut acc, mover, role, to),
        }
        acc
    }

    /// The static evaluation in centipawns from White's point of view, given the position's sums
    /// and the side to move.
    #[inline]
    pub fn evaluate(&self, board: &Board, turn: Color, acc: Accumulator) -> i32 {
        self.evaluate_with(board, turn, acc, None)
    }

    /// [`Evaluator::evaluate`] with the pawn-structure terms kept in `cache` (the same result,
    /// sooner). `cache` must serve this evaluator alone.
    #[inline]
    pub(crate) fn evaluate_cached(
        &self,
        board: &Board,
        turn: Color,
        acc: Accumulator,
        cache: &mut PawnCache,
    ) -> i32 {
        self.evaluate_with(board, turn, acc, Some(cache))
    }

    #[inline]
    fn evaluate_with(
        &self,
        board: &Board,
        turn: Color,
        acc: Accumulator,
        cache: Option<&mut PawnCache>,
    ) -> i32 {
        match self.profile {
            Profile::Simplified => {
                if is_king_endgame(board) {
                    acc.eg
                } else {
                    acc.mg
                }
            }
            Profile::Tapered => {
                let score = self.tapered_before_cannot_win(board, turn, acc, cache);
                score + cannot_win(board, score)
            }
        }
    }

    /// The tapered evaluation before a side with too little to mate loses its advantage.
    #[inline]
    fn tapered_before_cannot_win(
        &self,
        board: &Board,
        turn: Color,
        acc: Accumulator,
        cache: Option<&mut PawnCache>,
    ) -> i32 {
        let tables = S(acc.mg, acc.eg);
        let total = match cache {
            Some(cache) => {
                let (pawn_score, passed) = cache.probe(terms::pawns_of(board), self.terms);
                let mut sum = terms::Sum::new(self.terms, tables + pawn_score);
                terms::beyond_pawns(board, turn, passed, &mut sum);
                sum.total()
            }
            None => {
                let mut sum = terms::Sum::new(self.terms, tables);
                terms::positional(board, turn, &mut sum);
                sum.total()
            }
        };
        taper(scaled(board, total), game_phase(board)) + mop_up(board)
    }

    /// The evaluation of `board` term by term (centipawns, White's view, after tapering): a
    /// description of how the terms were weighed, and the terms, which add up to exactly
    /// [`Evaluator::evaluate`]'s result (the tables' term takes up the rounding).
    pub fn trace(&self, board: &Board, turn: Color) -> (String, Vec<(&'static str, i32)>) {
        let acc = self.accumulate(board);
        let total = self.evaluate(board, turn, acc);
        match self.profile {
            Profile::Simplified => {
                let material = material(board, |role| pst::SIMPLIFIED_VALUES[role]);
                let stage = if is_king_endgame(board) {
                    "king endgame table"
                } else {
                    "middlegame king table"
                };
                (
                    format!("profile simplified ({stage})"),
                    vec![("material", material.0), ("pst", total - material.0)],
                )
            }
            Profile::Tapered => {
                let phase = game_phase(board);
                let weights = self.terms;
                let [white, black] = Sides::of(weights, board, turn).sums;
                let groups: [S; GROUP_NAMES.len()] = std::array::from_fn(|g| white[g] - black[g]);
                let material = taper(
                    material(board, |role| weights[params::MATERIAL + role]),
                    phase,
                );
                let mop_up = mop_up(board);
                let mut lines = vec![("material", material)];
                let before_cannot_win = self.tapered_before_cannot_win(board, turn, acc, None);
                let unwinnable = cannot_win(board, before_cannot_win);
                // What the endgame scale took away: the tables and every group's sum, tapered
                // without it.
                let unscaled = groups
                    .iter()
                    .fold(S(acc.mg, acc.eg), |total, &sum| total + sum);
                let scale = before_cannot_win - mop_up - taper(unscaled, phase);
                let mut rest = total - material - mop_up - unwinnable - scale;
                let mut others = Vec::new();
                for (name, sum) in GROUP_NAMES.into_iter().zip(groups) {
                    let value = taper(sum, phase);
                    rest -= value;
                    others.push((name, value));
                }
                lines.push(("pst", rest));
                lines.extend(others);
                lines.push(("mop-up", mop_up));
                lines.push(("endgame scale", scale));
                lines.push(("cannot win", unwinnable));
                (
                    format!("profile tapered (phase {phase} of {PHASE_MAX})"),
                    lines,
                )
            }
        }
    }

    /// Where the tapered evaluation of `board` comes from, for saying what a line changes
    /// (before the endgame scale and the rule for a side too weak to win).
    pub fn account(&self, board: &Board, turn: Color) -> Account {
        let phase = game_phase(board);
        let weights = self.terms;
        let sides = Sides::of(weights, board, turn);
        let material = taper(
            material(board, |role| weights[params::MATERIAL + role]),
            phase,
        );
        let acc = self.accumulate(board);
        Account {
            material,
            tables: taper(S(acc.mg, acc.eg), phase) - material,
            groups: sides.sums.map(|side| side.map(|sum| taper(sum, phase))),
        }
    }

    /// The static evaluation of `pos` from scratch, White's point of view.
    pub fn evaluate_position(&self, pos: &Chess) -> i32 {
        self.evaluate(pos.board(), pos.turn(), self.accumulate(pos.board()))
    }
}

/// Whether `color` has too little to mate with: no pawns and at most one minor piece.
fn too_little_to_win(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    (board.pawns() & ours).is_empty()
        && (board.rooks_and_queens() & ours).is_empty()
        && ((board.knights() | board.bishops()) & ours).count() <= 1
}

/// The correction that takes an advantage away from a side that has too little to mate with
/// (the search still finds a real mate; the evaluation just stops hoping for one).
#[inline]
fn cannot_win(board: &Board, score: i32) -> i32 {
    let leader = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if score != 0 && too_little_to_win(board, leader) {
        -score
    } else {
        0
    }
}

/// `sum` with its endgame half scaled by how winnable the endgame advantage is (see `scale`).
#[inline]
fn scaled(board: &Board, sum: S) -> S {
    let strong = match sum.1 {
        0 => return sum,
        eg if eg > 0 => Color::White,
        _ => Color::Black,
    };
    let factor = endgame_scale(board, strong);
    if factor == FULL {
        sum
    } else {
        S(sum.0, sum.1 * factor / FULL)
    }
}

/// Blends a middlegame and an endgame value by game phase (24 = all pieces on).
#[inline]
pub fn taper(s: S, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Both sides' material by `value(role index)`, White's view.
fn material<T: Into<S>>(board: &Board, value: impl Fn(usize) -> T) -> S {
    let mut sum = S::default();
    for (_, piece) in board.iter() {
        let v: S = value(piece.role as usize - 1).into();
        sum += if piece.color == Color::White { v } else { -v };
    }
    sum
}

/// The trace's lines for the terms, in order.
pub const GROUP_NAMES: [&str; 7] = [
    "mobility",
    "king safety",
    "threats",
    "passed pawns",
    "pawn structure",
    "pieces",
    "tempo",
];

/// The ranges of `params`: the first weight of each and the trace line (index into
/// `GROUP_NAMES`) it adds to. Terms added later extend earlier lines.
const GROUPS: [(usize, usize); 22] = [
    (params::MOBILITY_KNIGHT, 0),
    (params::KING_ATTACK_UNITS, 1),
    (params::THREAT_BY_PAWN, 2),
    (params::PASSED, 3),
    (params::ISOLATED, 4),
    (params::BISHOP_PAIR, 5),
    (params::TEMPO, 6),
    (params::SHIELD, 1),
    (params::PASSED_KING_OWN, 3),
    (params::SUPPORTED, 4),
    (params::SAFE_CHECK, 1),
    (params::OUTPOST, 5),
    (params::BACKWARD, 4),
    (params::ROOK_SEVENTH, 5),
    (params::KING_OPEN_FILE, 1),
    (params::PUSH_THREAT, 2),
    (params::BISHOP_PAWNS, 5),
    (params::ROOK_BEHIND_PASSER, 3),
    (params::STORM_BLOCKED, 1),
    (params::PINNED, 2),
    (params::SPACE, 0),
    (params::ROOK_ON_QUEEN, 2),
];

/// The tapered evaluation of a position taken apart (see [`Evaluator::account`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Account {
    /// Material, White's view.
    pub material: i32,
    /// The piece tables beyond material, White's view.
    pub tables: i32,
    /// Each group of terms ([`GROUP_NAMES`]'s order) by side, White's first: each side's
    /// own account, its bonuses less the danger to its king.
    pub groups: [[i32; GROUP_NAMES.len()]; 2],
}

/// The trace line of the weight at `index`.
fn group(index: usize) -> usize {
    GROUPS
        .iter()
        .rev()
        .find(|g| g.0 <= index)
        .map_or(0, |g| g.1)
}

/// A sink that adds up each group of terms apart for each side, the danger to a king
/// counted against its own side.
struct Sides<'a> {
    weights: &'a [S],
    sums: [[S; GROUP_NAMES.len()]; 2],
}

impl Sides<'_> {
    /// The sums of `board`'s terms with `turn` to move, under `weights`.
    fn of<'a>(weights: &'a [S], board: &Board, turn: Color) -> Sides<'a> {
        let mut sides = Sides {
            weights,
            sums: [[S::default(); GROUP_NAMES.len()]; 2],
        };
        terms::positional(board, turn, &mut sides);
        sides
    }
}

impl Sink for Sides<'_> {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.sums[color_index(color)][group(index)] += self.weights[index] * count;
    }

    fn king_attack(&mut self, defender: Color, attackers: usize, counts: [i32; 4]) {
        let danger = terms::king_danger(self.weights, attackers, counts);
        self.sums[color_index(defender)][group(params::KING_ATTACK_UNITS)] += -danger;
    }
}

/// Where king and rook land when castling, from their starting squares.
pub(crate) fn castle_targets(king: Square, rook: Square) -> (Square, Square) {
    let rank = king.rank();
    if rook > king {
        (
            Square::from_coords(shakmaty::File::G, rank),
            Square::from_coords(shakmaty::File::F, rank),
        )
    } else {
        (
            Square::from_coords(shakmaty::File::C, rank),
            Square::from_coords(shakmaty::File::D, rank),
        )
    }
}

/// The notebooks' rule for the simplified profile's king endgame table: every side either has
/// no queen, or has a queen with no rook and at most one minor piece.
pub fn is_king_endgame(board: &Board) -> bool {
    [Color::White, Color::Black].into_iter().all(|color| {
        let ours = board.by_color(color);
        (board.queens() & ours).is_empty()
            || ((board.rooks() & ours).is_empty()
                && ((board.knights() | board.bishops()) & ours).count() < 2)
    })
}

const PHASE_MAX: i32 = 24;

/// Game phase from 24 (all pieces on the board) down to 0 (kings and pawns only).
pub fn game_phase(board: &Board) -> i32 {
    let minors = (board.knights() | board.bishops()).count() as i32;
    let rooks = board.rooks().count() as i32;
    let queens = board.queens().count() as i32;
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

/// Drives a bare king to the edge and the winning king towards it, so that KQvK and KRvK are
/// mated without tablebases. Zero unless one side has only its king and the other a rook or more.
pub fn mop_up(board: &Board) -> i32 {
    let heavy = board.rooks() | board.queens();
    for winner in [Color::White, Color::Black] {
        let loser = !winner;
        let loser_bb = board.by_color(loser);
        if loser_bb.count() == 1 && (heavy & board.by_color(winner)).any() {
            let (Some(wk), Some(lk)) = (board.king_of(winner), board.king_of(loser)) else {
                return 0;
            };
            // Strong enough to outweigh the fitted king table, which favours an active king
            // in the ending (up to 250 cp between squares): a bare king must be driven.
            let bonus = 60 * centre_distance(lk) + 12 * (14 - manhattan(wk, lk)) + 200;
            return if winner == Color::White {
                bonus
            } else {
                -bonus
            };
        }
    }
    0
}

fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

fn manhattan(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs() + (a.rank() as i32 - b.rank() as i32).abs()
}
