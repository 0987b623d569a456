//! The tapered evaluation's terms beyond material and tables, from shakmaty's bitboards:
//! mobility, king-zone safety as the source notebooks build it, safe checks, the king's pawn
//! shield, open files and pawn storms at the king, attacked and hanging pieces and pawn-push
//! threats, pawn structure (passed pawns and the kings' distance to them, isolated, doubled,
//! backward, supported and side-by-side pawns, blocked passed pawns and storms), outposts,
//! minor pieces behind pawns, bishops' own pawns on their colour, the bishop pair, rooks on open
//! files, on the seventh and behind passed pawns, weak squares at the king, pins, space, rooks
//! attacking queens, and a tempo bonus.
//!
//! The terms report to a [`Sink`]: the engine's adds up the weights, the tuner's records how
//! often each weight was used, so that both see exactly the same features.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::params::{self, S};

/// Receives the evaluation's features.
pub trait Sink {
    /// `count` times the weight at `index` in `color`'s favour.
    fn add(&mut self, color: Color, index: usize, count: i32);
    /// The zone of `defender`'s king is attacked by `attackers` pieces, `counts` of them
    /// knights, bishops, rooks and queens.
    fn king_attack(&mut self, defender: Color, attackers: usize, counts: [i32; 4]);
}

/// The engine's sink: the weighted sum of the features, White's view.
pub struct Sum<'a> {
    weights: &'a [S],
    /// White's sum and Black's, kept apart so that adding a feature needs no sign.
    sides: [S; 2],
}

impl<'a> Sum<'a> {
    /// A sum under `weights` that starts at `start` (White's view).
    #[inline]
    pub fn new(weights: &'a [S], start: S) -> Sum<'a> {
        Sum {
            weights,
            sides: [start, S::default()],
        }
    }

    /// The running total, White's view.
    #[inline]
    pub fn total(&self) -> S {
        self.sides[0] - self.sides[1]
    }
}

impl Sink for Sum<'_> {
    #[inline]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.sides[self::index(color)] += self.weights[index] * count;
    }

    #[inline]
    fn king_attack(&mut self, defender: Color, attackers: usize, counts: [i32; 4]) {
        self.sides[index(!defender)] += king_danger(self.weights, attackers, counts);
    }
}

/// What a king-zone attack costs the defender: the attack units times the weight for the
/// number of attackers, in percent.
#[inline]
pub(crate) fn king_danger(weights: &[S], attackers: usize, counts: [i32; 4]) -> S {
    let mut units = S::default();
    for (i, &n) in counts.iter().enumerate() {
        units += weights[params::KING_ATTACK_UNITS + i] * n;
    }
    let w = weights[params::KING_ATTACK_WEIGHT + attackers.min(7)];
    S(units.0 * w.0 / 100, units.1 * w.1 / 100)
}

/// +1 for White, -1 for Black.
#[inline]
pub fn sign(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

#[inline]
fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

#[inline]
fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

/// The files either side of `file`.
#[inline]
fn neighbour_files(file: usize) -> u64 {
    NEIGHBOUR_FILES[file]
}

const NEIGHBOUR_FILES: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut file = 0;
    while file < 8 {
        if file > 0 {
            table[file] |= FILE_A << (file - 1);
        }
        if file < 7 {
            table[file] |= FILE_A << (file + 1);
        }
        file += 1;
    }
    table
};

/// Every square on the ranks in front of `rank` as `color` advances.
#[inline]
fn ranks_ahead(color: Color, rank: usize) -> u64 {
    match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black => (1u64 << (8 * rank)) - 1,
        _ => 0,
    }
}

/// `sq`'s rank as `color` sees it (0 = its own back rank).
#[inline]
fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 7 - sq.rank() as usize,
    }
}

/// The squares left and right of the squares in `bits`, on the same rank.
#[inline]
fn beside(bits: u64) -> u64 {
    ((bits & !FILE_A) >> 1) | ((bits & !(FILE_A << 7)) << 1)
}

/// The squares `color`'s pawns attack.
#[inline]
fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

/// The notebooks' king zone: the king's file and its neighbours, from the king's rank up to
/// three ranks towards the enemy.
#[inline]
fn king_zone(color: Color, king: Square) -> u64 {
    KING_ZONES[color as usize][king as usize]
}

/// [`king_zone`] by colour and square, worked out once.
const KING_ZONES: [[u64; 64]; 2] = {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let files = (FILE_A << file) | NEIGHBOUR_FILES[file];
        let mut white = 0u64;
        let mut black = 0u64;
        let mut r = 0;
        while r < 8 {
            if r >= rank && r <= rank + 3 {
                white |= 0xFFu64 << (8 * r);
            }
            if r <= rank && r + 3 >= rank {
                black |= 0xFFu64 << (8 * r);
            }
            r += 1;
        }
        table[Color::White as usize][sq] = files & white;
        table[Color::Black as usize][sq] = files & black;
        sq += 1;
    }
    table
};

/// Reports material and piece-square features (the engine keeps these incrementally instead).
pub fn pieces<K: Sink>(board: &Board, sink: &mut K) {
    for (sq, piece) in board.iter() {
        let role = piece.role as usize - 1;
        let sq = match piece.color {
            Color::White => sq as usize,
            Color::Black => sq as usize ^ 56,
        };
        sink.add(piece.color, params::MATERIAL + role, 1);
        sink.add(piece.color, params::PST + 64 * role + sq, 1);
    }
}

/// Each side's pawns, White's first.
#[inline]
pub(crate) fn pawns_of(board: &Board) -> [u64; 2] {
    [Color::White, Color::Black].map(|c| (board.pawns() & board.by_color(c)).0)
}

/// A hash of both sides' pawns (`pawns_of`), for tables indexed by pawn structure.
#[inline]
pub(crate) fn pawn_hash(pawns: [u64; 2]) -> u64 {
    pawns[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ pawns[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31)
}

/// Reports every positional feature of `board` with `turn` to move.
pub fn positional<K: Sink>(board: &Board, turn: Color, sink: &mut K) {
    let passed = pawn_structure(pawns_of(board), sink);
    beyond_pawns(board, turn, passed, sink);
}

/// Reports the features that depend on the pawns alone (passed pawns by rank, supported,
/// side-by-side, isolated, backward and doubled pawns, space), which a cache keyed by the pawns
/// can keep, and returns each side's passed pawns.
pub(crate) fn pawn_structure<K: Sink>(pawns: [u64; 2], sink: &mut K) -> [u64; 2] {
    let colors = [Color::White, Color::Black];
    let pawn_attacked = colors.map(|c| pawn_attacks(c, pawns[index(c)]));
    let mut passed = [0u64; 2];
    for color in colors {
        let us = index(color);
        let them = 1 - us;
        let step = if color == Color::White { 8 } else { -8 };
        for sq in Bitboard(pawns[us]) {
            let file = sq.file() as usize;
            let rank = sq.rank() as usize;
            let ahead = ranks_ahead(color, rank);
            let relative = relative_rank(color, sq);
            let bit = 1u64 << sq as usize;
            if (file_mask(file) | neighbour_files(file)) & ahead & pawns[them] == 0 {
                sink.add(color, params::PASSED + relative, 1);
                passed[us] |= bit;
            }
            if pawn_attacked[us] & bit != 0 {
                sink.add(color, params::SUPPORTED + relative, 1);
            }
            if beside(bit) & pawns[us] != 0 {
                sink.add(color, params::PHALANX + relative, 1);
            }
            let neighbours = neighbour_files(file) & pawns[us];
            if neighbours == 0 {
                sink.add(color, params::ISOLATED, 1);
            } else if neighbours & !ahead == 0
                && sq
                    .offset(step)
                    .is_some_and(|stop| pawn_attacked[them] & (1u64 << stop as usize) != 0)
            {
                // Every neighbour has gone past it, and it cannot step up beside them.
                sink.add(color, params::BACKWARD, 1);
            }
            if file_mask(file) & ahead & pawns[us] != 0 {
                sink.add(color, params::DOUBLED, 1);
            }
        }
        // The c to f files on the 2nd to 4th rank, and what lies up to three ranks behind
        // an own pawn.
        let (centre, behind) = match color {
            Color::White => (
                0x0000_0000_3C3C_3C00u64,
                (pawns[us] >> 8) | (pawns[us] >> 16) | (pawns[us] >> 24),
            ),
            Color::Black => (
                0x003C_3C3C_0000_0000u64,
                (pawns[us] << 8) | (pawns[us] << 16) | (pawns[us] << 24),
            ),
        };
        let space = centre & !pawns[us] & !pawn_attacked[them];
        sink.add(color, params::SPACE, space.count_ones() as i32);
        sink.add(
            color,
            params::SPACE + 1,
            (space & behind).count_ones() as i32,
        );
    }
    passed
}

/// What the terms beyond the pawn structure share about the board.
struct Context<'b> {
    board: &'b Board,
    occupied: Bitboard,
    /// Each side's pawns, White's first.
    pawns: [u64; 2],
    /// The squares each side's pawns attack.
    pawn_attacked: [u64; 2],
    /// Each side's king zone (0 without a king).
    zones: [u64; 2],
}

/// What each side's pieces attack, gathered with their mobility and read by the threats.
#[derive(Default)]
struct Reach {
    /// Every square a side attacks.
    attacked: [u64; 2],
    /// The squares a side's knights and bishops attack.
    by_minor: [u64; 2],
    /// What each side's knights, bishops, rooks and queens reach, for the safe checks.
    by_role: [[u64; 4]; 2],
}

/// Reports the positional features beyond [`pawn_structure`]'s, given each side's `passed`
/// pawns: first each side's pieces, king and passed pawns, then the threats, which need what
/// both sides attack.
pub(crate) fn beyond_pawns<K: Sink>(board: &Board, turn: Color, passed: [u64; 2], sink: &mut K) {
    let colors = [Color::White, Color::Black];
    let pawns = pawns_of(board);
    let ctx = Context {
        board,
        occupied: board.occupied(),
        pawns,
        pawn_attacked: colors.map(|c| pawn_attacks(c, pawns[index(c)])),
        zones: colors.map(|c| board.king_of(c).map_or(0, |k| king_zone(c, k))),
    };
    let mut reach = Reach::default();
    for color in colors {
        pieces_terms(&ctx, color, &mut reach, sink);
        let kings = [board.king_of(color), board.king_of(!color)];
        if let Some(king) = kings[0] {
            king_shelter(&ctx, color, king, sink);
        }
        if (board.bishops() & board.by_color(color)).count() >= 2 {
            sink.add(color, params::BISHOP_PAIR, 1);
        }
        for sq in Bitboard(passed[index(color)]) {
            passed_pawn_terms(&ctx, color, sq, kings, sink);
        }
    }

    // Threats, credited to the attacker.
    for color in colors {
        if let Some(king) = board.king_of(!color) {
            safe_checks(&ctx, &reach, color, king, sink);
        }
        if let Some(king) = board.king_of(color) {
            weak_king_zone(&ctx, &reach, color, sink);
            pins(&ctx, color, king, sink);
        }
        let us = index(color);
        let queens = (board.queens() & board.by_color(!color)).0;
        let rook_on_queen = (reach.by_role[us][2] & queens).count_ones() as i32;
        sink.add(color, params::ROOK_ON_QUEEN, rook_on_queen);
        push_threats(&ctx, &reach, color, sink);
        attacked_pieces(&ctx, &reach, color, sink);
    }

    sink.add(turn, params::TEMPO, 1);
}

/// Each knight's, bishop's, rook's and queen's terms (mobility, outposts, minor pieces behind
/// pawns, bishops' own pawns, rooks on the seventh and on open files), what they attack into
/// `reach`, and the attack on the enemy king's zone they add up to.
#[inline]
fn pieces_terms<K: Sink>(ctx: &Context<'_>, color: Color, reach: &mut Reach, sink: &mut K) {
    let board = ctx.board;
    let us = index(color);
    let them = 1 - us;
    let own = board.by_color(color).0;
    let area = !own & !ctx.pawn_attacked[them];
    reach.attacked[us] = ctx.pawn_attacked[us]
        | board
            .king_of(color)
            .map_or(0, |k| attacks::king_attacks(k).0);
    let mut counts = [0i32; 4];
    let mut attackers = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let (table, slot) = match role {
            Role::Knight => (params::MOBILITY_KNIGHT, 0),
            Role::Bishop => (params::MOBILITY_BISHOP, 1),
            Role::Rook => (params::MOBILITY_ROOK, 2),
            _ => (params::MOBILITY_QUEEN, 3),
        };
        for sq in board.by_role(role) & board.by_color(color) {
            let attacks = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, ctx.occupied),
                Role::Rook => attacks::rook_attacks(sq, ctx.occupied),
                _ => attacks::queen_attacks(sq, ctx.occupied),
            }
            .0;
            reach.attacked[us] |= attacks;
            reach.by_role[us][slot] |= attacks;
            let relative = relative_rank(color, sq);
            if slot < 2 {
                reach.by_minor[us] |= attacks;
                minor_terms(ctx, color, sq, slot, sink);
            }
            if role == Role::Bishop {
                let colour = if sq.is_dark() {
                    Bitboard::DARK_SQUARES
                } else {
                    Bitboard::LIGHT_SQUARES
                };
                let blocking = (colour.0 & ctx.pawns[us]).count_ones() as i32;
                sink.add(color, params::BISHOP_PAWNS, blocking);
            }
            if role == Role::Rook && relative == 6 {
                sink.add(color, params::ROOK_SEVENTH, 1);
            }
            sink.add(color, table + (attacks & area).count_ones() as usize, 1);
            if attacks & ctx.zones[them] != 0 {
                counts[slot] += 1;
                attackers += 1;
            }
            if role == Role::Rook {
                rook_file(ctx, color, sq, sink);
            }
        }
    }
    if attackers > 0 {
        sink.king_attack(!color, attackers, counts);
    }
}

/// A knight's or bishop's (`slot` 0 or 1) outpost, and whether a pawn stands in front of it.
#[inline]
fn minor_terms<K: Sink>(ctx: &Context<'_>, color: Color, sq: Square, slot: usize, sink: &mut K) {
    let us = index(color);
    let them = 1 - us;
    let bit = 1u64 << sq as usize;
    let relative = relative_rank(color, sq);
    let file = sq.file() as usize;
    if (3..=5).contains(&relative)
        && ctx.pawn_attacked[us] & bit != 0
        && neighbour_files(file) & ranks_ahead(color, sq.rank() as usize) & ctx.pawns[them] == 0
    {
        sink.add(color, params::OUTPOST + slot, 1);
    }
    let all_pawns = ctx.pawns[0] | ctx.pawns[1];
    if sq
        .offset(step(color))
        .is_some_and(|front| all_pawns & (1u64 << front as usize) != 0)
    {
        sink.add(color, params::MINOR_BEHIND_PAWN, 1);
    }
}

/// A rook on a file without pawns, or without its own side's.
#[inline]
fn rook_file<K: Sink>(ctx: &Context<'_>, color: Color, sq: Square, sink: &mut K) {
    let file = file_mask(sq.file() as usize);
    if file & (ctx.pawns[0] | ctx.pawns[1]) == 0 {
        sink.add(color, params::ROOK_OPEN, 1);
    } else if file & ctx.pawns[index(color)] == 0 {
        sink.add(color, params::ROOK_SEMI_OPEN, 1);
    }
}

/// The pawns in front of `color`'s king (its shield), the open files at it and the enemy
/// pawns storming it.
#[inline]
fn king_shelter<K: Sink>(ctx: &Context<'_>, color: Color, king: Square, sink: &mut K) {
    let us = index(color);
    let them = 1 - us;
    let pawns = ctx.pawns;
    let all_pawns = pawns[0] | pawns[1];
    let files = file_mask(king.file() as usize) | neighbour_files(king.file() as usize);
    let rank = king.rank() as usize;
    let (first, second) = match color {
        Color::White => (rank + 1, rank + 2),
        Color::Black => (rank.wrapping_sub(1), rank.wrapping_sub(2)),
    };
    for (i, r) in [first, second].into_iter().enumerate() {
        if r < 8 {
            let shield = files & (0xFFu64 << (8 * r)) & pawns[us];
            sink.add(color, params::SHIELD + i, shield.count_ones() as i32);
        }
    }
    let file = king.file() as usize;
    for f in file.saturating_sub(1)..=(file + 1).min(7) {
        let on_file = file_mask(f);
        if on_file & all_pawns == 0 {
            sink.add(color, params::KING_OPEN_FILE, 1);
        } else if on_file & pawns[us] == 0 {
            sink.add(color, params::KING_OPEN_FILE + 1, 1);
        }
    }
    let king_rank = relative_rank(color, king);
    for sq in Bitboard(files & ranks_ahead(color, rank) & pawns[them]) {
        let distance = relative_rank(color, sq) - king_rank;
        if distance <= 3 {
            sink.add(color, params::STORM + distance - 1, 1);
            // The storming pawn moves towards the king: an own pawn there stops it.
            if sq
                .offset(-step(color))
                .is_some_and(|front| pawns[us] & (1u64 << front as usize) != 0)
            {
                sink.add(color, params::STORM_BLOCKED + distance - 1, 1);
            }
        }
    }
}

/// A passed pawn's terms that depend on more than the pawns: its free path, a blocker, rooks
/// behind it and the kings' distance (`kings`: own, then the enemy's).
#[inline]
fn passed_pawn_terms<K: Sink>(
    ctx: &Context<'_>,
    color: Color,
    sq: Square,
    kings: [Option<Square>; 2],
    sink: &mut K,
) {
    let board = ctx.board;
    let occupied = ctx.occupied;
    let step = step(color);
    let file = sq.file() as usize;
    let rank = sq.rank() as usize;
    let ahead = ranks_ahead(color, rank);
    let relative = relative_rank(color, sq);
    if file_mask(file) & ahead & occupied.0 == 0 {
        sink.add(color, params::PASSED_FREE + relative, 1);
    }
    if sq
        .offset(step)
        .is_some_and(|front| board.by_color(!color).0 & (1u64 << front as usize) != 0)
    {
        sink.add(color, params::PASSED_BLOCKED + relative, 1);
    }
    let behind = attacks::rook_attacks(sq, occupied).0
        & file_mask(file)
        & ranks_ahead(!color, rank)
        & board.rooks().0;
    for (i, side) in [color, !color].into_iter().enumerate() {
        let rooks = behind & board.by_color(side).0;
        if rooks != 0 {
            sink.add(color, params::ROOK_BEHIND_PASSER + i, 1);
        }
    }
    // How far each king is from the square the pawn goes to next.
    if let Some(front) = sq.offset(step) {
        for (king, table) in kings
            .into_iter()
            .zip([params::PASSED_KING_OWN, params::PASSED_KING_THEIR])
        {
            if let Some(king) = king {
                sink.add(color, table + relative, king.distance(front) as i32);
            }
        }
    }
}

/// The checks `color`'s pieces could give the enemy `king` on squares the enemy does not
/// attack, by knight, bishop, rook and queen.
#[inline]
fn safe_checks<K: Sink>(
    ctx: &Context<'_>,
    reach: &Reach,
    color: Color,
    king: Square,
    sink: &mut K,
) {
    let us = index(color);
    let them = 1 - us;
    let own = ctx.board.by_color(color).0;
    let safe = !reach.attacked[them] & !own;
    let diagonal = attacks::bishop_attacks(king, ctx.occupied).0;
    let straight = attacks::rook_attacks(king, ctx.occupied).0;
    let lines = [
        attacks::knight_attacks(king).0,
        diagonal,
        straight,
        diagonal | straight,
    ];
    for (slot, line) in lines.into_iter().enumerate() {
        let checks = line & reach.by_role[us][slot] & safe;
        sink.add(color, params::SAFE_CHECK + slot, checks.count_ones() as i32);
    }
}

/// The squares of `color`'s king zone the enemy attacks and no pawn, minor piece or rook of
/// its own defends.
#[inline]
fn weak_king_zone<K: Sink>(ctx: &Context<'_>, reach: &Reach, color: Color, sink: &mut K) {
    let us = index(color);
    let them = 1 - us;
    let defended =
        ctx.pawn_attacked[us] | reach.by_role[us][0] | reach.by_role[us][1] | reach.by_role[us][2];
    let weak = ctx.zones[us] & reach.attacked[them] & !defended;
    sink.add(color, params::KING_ZONE_WEAK, weak.count_ones() as i32);
}

/// `color`'s pieces pinned to its `king` by an enemy rook, bishop or queen, by role.
#[inline]
fn pins<K: Sink>(ctx: &Context<'_>, color: Color, king: Square, sink: &mut K) {
    let board = ctx.board;
    let enemy = board.by_color(!color);
    let snipers =
        (attacks::rook_attacks(king, Bitboard::EMPTY) & (board.rooks() | board.queens()) & enemy)
            | (attacks::bishop_attacks(king, Bitboard::EMPTY)
                & (board.bishops() | board.queens())
                & enemy);
    for sniper in snipers {
        let between = attacks::between(king, sniper) & ctx.occupied;
        if between.count() == 1
            && (between & board.by_color(color)).any()
            && let Some(role) = between.first().and_then(|sq| board.role_at(sq))
        {
            sink.add(color, params::PINNED + role as usize - 1, 1);
        }
    }
}

/// Safe pawn pushes that would attack an enemy piece.
#[inline]
fn push_threats<K: Sink>(ctx: &Context<'_>, reach: &Reach, color: Color, sink: &mut K) {
    let board = ctx.board;
    let us = index(color);
    let them = 1 - us;
    let pushes = match color {
        Color::White => ctx.pawns[us] << 8,
        Color::Black => ctx.pawns[us] >> 8,
    } & !ctx.occupied.0
        & (!reach.attacked[them] | reach.attacked[us]);
    let targets = board.by_color(!color).0 & !board.pawns().0;
    let push_threats = pawn_attacks(color, pushes) & targets;
    sink.add(color, params::PUSH_THREAT, push_threats.count_ones() as i32);
}

/// `color`'s attacked pieces, by role, credited to the enemy: attacked by a pawn, a rook or
/// queen attacked by a minor piece, and hanging (attacked and not defended).
#[inline]
fn attacked_pieces<K: Sink>(ctx: &Context<'_>, reach: &Reach, color: Color, sink: &mut K) {
    let board = ctx.board;
    let us = index(color);
    let them = 1 - us;
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        let slot = role as usize - 1;
        // Counted a role at a time: every sink is linear in the counts.
        let hit = (board.by_role(role) & board.by_color(color)).0 & reach.attacked[them];
        if hit == 0 {
            continue;
        }
        let mut report = |index: usize, bits: u64| {
            if bits != 0 {
                sink.add(!color, index + slot, bits.count_ones() as i32);
            }
        };
        if role != Role::Pawn {
            report(params::THREAT_BY_PAWN, hit & ctx.pawn_attacked[them]);
        }
        if matches!(role, Role::Rook | Role::Queen) {
            report(params::THREAT_BY_MINOR, hit & reach.by_minor[them]);
        }
        report(params::HANGING, hit & !reach.attacked[us]);
    }
}

/// The square offset of a pawn step forward for `color`.
#[inline]
fn step(color: Color) -> i32 {
    if color == Color::White { 8 } else { -8 }
}
