//! Move ordering: TT move first, then winning captures by MVV-LVA, killers, quiet moves by
//! history, and losing captures last. Moves are picked lazily by selection.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, MoveList, Position, Role, Square};

use super::see::{see, value};
use super::tt::{encode_move, encode_squares};

const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: [i32; 2] = [1_000_001, 1_000_000];
const BAD_CAPTURE: i32 = -2_000_000;

/// Per-search quiet-move statistics.
pub struct History {
    /// Butterfly history `[color][from][to]`, bounded by the gravity formula.
    table: [[[i32; 64]; 64]; 2],
    /// Correction history `[color][pawn structure]`: how far searches have found the static
    /// evaluation off for the side to move with these pawns, in 1/`CORRECTION_GRAIN` pawns.
    correction: [[i32; CORRECTION_SIZE]; 2],
}

const CORRECTION_SIZE: usize = 1 << 14;
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_LIMIT: i32 = 64;

/// Ceiling of history values; quiets stay below the killers.
pub(crate) const HISTORY_MAX: i32 = 16_384;

impl History {
    /// An empty table on the heap (it is 32 KB).
    pub fn new() -> Box<History> {
        Box::new(History {
            table: [[[0; 64]; 64]; 2],
            correction: [[0; CORRECTION_SIZE]; 2],
        })
    }

    #[inline]
    fn slot(&mut self, color: Color, m: Move) -> &mut i32 {
        let from = m.from().map_or(0, |s| s as usize);
        &mut self.table[color as usize][from][m.to() as usize]
    }

    /// The score of a quiet move.
    #[inline]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        self.at(color, m.from().unwrap_or(Square::A1), m.to())
    }

    /// The score of a quiet move from `from` to `to`.
    #[inline]
    pub fn at(&self, color: Color, from: Square, to: Square) -> i32 {
        self.table[color as usize][from as usize][to as usize]
    }

    /// Rewards (positive `bonus`) or punishes a quiet move, pulling values towards zero as they
    /// grow so that old knowledge fades.
    #[inline]
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let slot = self.slot(color, m);
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *slot += bonus - *slot * bonus.abs() / HISTORY_MAX;
    }

    /// The static evaluation `raw` (side to move's view) moved by what searches of positions
    /// with the same pawns have found it off by.
    #[inline]
    pub(crate) fn corrected(&self, color: Color, pawns: usize, raw: i32) -> i32 {
        raw + self.correction[color as usize][pawns] / CORRECTION_GRAIN
    }

    /// Records that a search of depth `depth` found the corrected evaluation `diff` off.
    #[inline]
    pub(crate) fn update_correction(&mut self, color: Color, pawns: usize, diff: i32, depth: i32) {
        let weight = (depth + 1).min(16);
        let slot = &mut self.correction[color as usize][pawns];
        let target = diff.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * CORRECTION_GRAIN;
        *slot = (*slot * (256 - weight) + target * weight) / 256;
        *slot = (*slot).clamp(
            -CORRECTION_LIMIT * CORRECTION_GRAIN,
            CORRECTION_LIMIT * CORRECTION_GRAIN,
        );
    }

    /// Halves every value (between searches).
    pub(crate) fn age(&mut self) {
        for side in self.table.iter_mut() {
            for row in side.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }
}

/// The index of `board`'s pawn structure in the correction history.
#[inline]
pub(crate) fn pawn_index(board: &shakmaty::Board) -> usize {
    let h = super::terms::pawn_hash(super::terms::pawns_of(board));
    (h >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize
}

/// True for captures and promotions: the moves quiescence search looks at.
#[inline]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// MVV-LVA key: most valuable victim first, least valuable attacker breaking ties.
#[inline]
pub(crate) fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, value);
    let promo = m.promotion().map_or(0, value);
    (victim + promo) * 16 - value(m.role()) / 100
}

/// A quiet normal move as one integer (role, from, to), equal for two such moves exactly when
/// the moves are equal; `u32::MAX`, which no move gives, for anything else.
#[inline]
fn quiet_key(m: Option<Move>) -> u32 {
    match m {
        Some(Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        }) => quiet_key_of(role, encode_squares(from, to, None)),
        _ => u32::MAX,
    }
}

#[inline]
fn quiet_key_of(role: Role, code: u16) -> u32 {
    u32::from(code) | (role as u32) << 16
}

/// A move list with scores, handed out best first.
pub struct Picker {
    moves: ArrayVec<Move, 256>,
    /// Each move's ordering score, kept apart from the moves so that finding the best is a
    /// scan of packed integers (it runs once per move searched).
    scores: ArrayVec<i32, 256>,
    next: usize,
}

impl Picker {
    /// The ordering score of the hash table's move, above every other.
    pub(crate) const TT_MOVE: i32 = 4_000_000;

    /// Scores every move of `list` for the main search. (The pickers fill themselves in place:
    /// returning one by value copied its 3 KB of arrays at every node.)
    pub fn fill(
        &mut self,
        pos: &Chess,
        list: &MoveList,
        tt_move: u16,
        killers: &[Option<Move>; 2],
        history: &History,
    ) {
        let color = pos.turn();
        let killer_keys = killers.map(quiet_key);
        for &m in list {
            let score = match m {
                // Most moves: the fields read once instead of through an accessor each, and
                // compared with the killers as one integer.
                Move::Normal {
                    role,
                    from,
                    capture: None,
                    to,
                    promotion: None,
                } => {
                    let code = encode_squares(from, to, None);
                    let key = quiet_key_of(role, code);
                    if tt_move != 0 && code == tt_move {
                        Self::TT_MOVE
                    } else if key == killer_keys[0] {
                        KILLER[0]
                    } else if key == killer_keys[1] {
                        KILLER[1]
                    } else {
                        history.at(color, from, to)
                    }
                }
                _ => Self::score(pos, m, tt_move, killers, history),
            };
            self.push(m, score);
        }
    }

    /// A quiet move's score: a killer's rank, or else its history.
    #[inline]
    fn quiet(
        m: Move,
        from: Square,
        to: Square,
        color: Color,
        killers: &[Option<Move>; 2],
        history: &History,
    ) -> i32 {
        if killers[0] == Some(m) {
            KILLER[0]
        } else if killers[1] == Some(m) {
            KILLER[1]
        } else {
            history.at(color, from, to)
        }
    }

    /// The ordering score of any move (`fill` takes a shortcut for quiet normal moves).
    fn score(
        pos: &Chess,
        m: Move,
        tt_move: u16,
        killers: &[Option<Move>; 2],
        history: &History,
    ) -> i32 {
        if tt_move != 0 && encode_move(m) == tt_move {
            Self::TT_MOVE
        } else if is_tactical(m) {
            let key = mvv_lva(m);
            // Only a capture by a more valuable piece can lose material.
            let victim = m.capture().map_or(0, value);
            if m.promotion().is_some_and(|r| r != Role::Queen) {
                BAD_CAPTURE + key
            } else if value(m.role()) <= victim || see(pos, m) >= 0 {
                GOOD_CAPTURE + key
            } else {
                BAD_CAPTURE + key
            }
        } else {
            // Castling, the only other quiet move, counts from the king's square.
            let from = m.from().unwrap_or(Square::A1);
            Self::quiet(m, from, m.to(), pos.turn(), killers, history)
        }
    }

    /// A picker with no moves, to [`fill`](Self::fill) or
    /// [`fill_quiescence`](Self::fill_quiescence).
    #[inline]
    pub fn empty() -> Picker {
        Picker {
            moves: ArrayVec::new(),
            scores: ArrayVec::new(),
            next: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: Move, score: i32) {
        self.moves.push(m);
        self.scores.push(score);
    }

    /// Scores the tactical moves of `list` for quiescence search (all moves when `all`), the
    /// hash table's move first.
    pub fn fill_quiescence(&mut self, list: &MoveList, all: bool, tt_move: u16) {
        for &m in list {
            // Quiet normal moves, most of the list, are dropped at one glance.
            let quiet = matches!(
                m,
                Move::Normal {
                    capture: None,
                    promotion: None,
                    ..
                }
            );
            if all || (!quiet && is_tactical(m)) {
                let score = if tt_move != 0 && encode_move(m) == tt_move {
                    Self::TT_MOVE
                } else {
                    mvv_lva(m)
                };
                self.push(m, score);
            }
        }
    }

    /// The best remaining move and its ordering score.
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let rest = self.scores.get(self.next..).filter(|r| !r.is_empty())?;
        // The first of the highest scores: the best value in one pass, then where it first
        // occurs (two simple passes the compiler vectorises).
        let top = rest.iter().copied().fold(i32::MIN, i32::max);
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some((self.moves[self.next - 1], top))
    }

    /// Keeps only the moves not yet handed out that `keep` accepts, in their order.
    pub(crate) fn retain_rest(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut to = self.next;
        for from in self.next..self.moves.len() {
            if keep(self.moves[from]) {
                self.moves[to] = self.moves[from];
                self.scores[to] = self.scores[from];
                to += 1;
            }
        }
        self.moves.truncate(to);
        self.scores.truncate(to);
    }

    /// True when the ordering score marks a capture that loses material.
    #[inline]
    pub(crate) fn is_bad_capture(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }
}
