//! Transposition table: two-entry buckets (one depth-preferred, one always replaced), sized in MB,
//! shared without locks by every search thread (Lazy SMP).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use shakmaty::{Bitboard, Chess, Color, Move, Piece, Position, Role, Square, attacks};

use super::score::{from_tt, to_tt};

/// Kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// Encoded best move (0 when none); compare with `encode_move`.
    pub mv: u16,
    /// Score adjusted to the probing ply.
    pub score: i32,
    /// Static evaluation stored with it.
    pub eval: i32,
    /// Remaining depth it was searched to.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: i8,
    /// Low two bits: bound (0 = empty); upper six bits: search generation.
    flags: u8,
}

impl Entry {
    fn bound(self) -> Option<Bound> {
        match self.flags & 3 {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
    fn generation(self) -> u8 {
        self.flags >> 2
    }
    fn data(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth as u8) << 48
            | u64::from(self.flags) << 56
    }
    fn from_data(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8 as i8,
            flags: (data >> 56) as u8,
        }
    }
}

/// One entry as two words: the key XOR the data, and the data. Threads read and write
/// without locks; an entry torn by two writers fails the key check and reads as a miss.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline]
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.check.load(Ordering::Relaxed) ^ data;
        Entry::from_data(key, data)
    }

    #[inline]
    fn save(&self, entry: Entry) {
        let data = entry.data();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(entry.key ^ data, Ordering::Relaxed);
    }
}

#[derive(Default)]
struct Bucket {
    deep: Slot,
    recent: Slot,
}

/// The table itself, shared by every search thread.
pub struct Table {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

/// Encodes a move as 16 bits: from, to (the rook's square for castling), promotion role.
#[inline]
pub fn encode_move(m: Move) -> u16 {
    encode_squares(m.from().unwrap_or(Square::A1), m.to(), m.promotion())
}

/// [`encode_move`] from a move's squares and promotion.
#[inline]
pub(crate) fn encode_squares(from: Square, to: Square, promotion: Option<Role>) -> u16 {
    let promo = promotion.map_or(0, |r| r as u16);
    from as u16 | ((to as u16) << 6) | (promo << 12)
}

/// The legal move of `pos` that [`encode_move`] gives `code`, if there is one (a stored move
/// can belong to another position that shares the bucket's key bits).
pub fn decode_move(pos: &Chess, code: u16) -> Option<Move> {
    if code == 0 {
        return None;
    }
    let from = Square::new(u32::from(code & 63));
    let to = Square::new(u32::from((code >> 6) & 63));
    let promotion = match code >> 12 {
        0 => None,
        r => Some(Role::try_from(r as u8).ok()?),
    };
    let board = pos.board();
    let piece = board.piece_at(from).filter(|p| p.color == pos.turn())?;
    let m = match piece.role {
        Role::King if promotion.is_none() && board.by_color(pos.turn()).contains(to) => {
            Move::Castle {
                king: from,
                rook: to,
            }
        }
        Role::Pawn
            if promotion.is_none()
                && from.file() != to.file()
                && !board.occupied().contains(to) =>
        {
            Move::EnPassant { from, to }
        }
        role => {
            let m = Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            };
            return normal_is_legal(pos, role, from, to, promotion).then_some(m);
        }
    };
    pos.is_legal(m).then_some(m)
}

/// Whether the normal move `role` `from`-`to` (with `promotion`) is legal in `pos`: the piece
/// can go there, and its own king is not attacked afterwards. (shakmaty's `is_legal` generates
/// moves to do this; this runs at every node with a table move.)
fn normal_is_legal(
    pos: &Chess,
    role: Role,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    let occupied = board.occupied();
    if board.by_color(turn).contains(to) {
        return false;
    }
    let reaches = match role {
        Role::Pawn => {
            let forward = if turn == Color::White { 8 } else { -8 };
            let start = if turn == Color::White { 1 } else { 6 };
            let promotes = Bitboard::BACKRANKS.contains(to);
            let fits = match promotion {
                None => !promotes,
                Some(r) => promotes && !matches!(r, Role::Pawn | Role::King),
            };
            if !fits {
                return false;
            }
            let single = from.offset(forward);
            if attacks::pawn_attacks(turn, from).contains(to) {
                board.by_color(!turn).contains(to)
            } else if Some(to) == single {
                !occupied.contains(to)
            } else {
                from.rank() as u32 == start
                    && single.is_some_and(|s| !occupied.contains(s))
                    && from.offset(2 * forward) == Some(to)
                    && !occupied.contains(to)
            }
        }
        _ if promotion.is_some() => false,
        role => attacks::attacks(to, Piece { color: turn, role }, occupied).contains(from),
    };
    if !reaches {
        return false;
    }
    let Some(king) = board.king_of(turn) else {
        return false;
    };
    let king = if role == Role::King { to } else { king };
    let after = occupied.without(from).with(to);
    (board.attacks_to(king, !turn, after) & board.by_color(!turn) & !Bitboard::from_square(to))
        .is_empty()
}

/// The largest table in MB (UCI `Hash` and the `--hash` flags accept 1 to this).
pub(crate) const MAX_MB: usize = 4096;

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let mb = mb.clamp(1, MAX_MB);
        let count = (mb * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::with_capacity(count);
        buckets.resize_with(count, Bucket::default);
        // The compiler turns that into a zeroed allocation whose pages the system maps only
        // when first written, which would happen during the first searches (on the clock).
        // Writing one bucket per page now makes the table real before `readyok`.
        let per_page = (4096 / std::mem::size_of::<Bucket>()).max(1);
        for bucket in buckets.iter_mut().step_by(per_page) {
            *std::hint::black_box(bucket) = Bucket::default();
        }
        Table {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        *self.generation.get_mut() = 0;
    }

    /// Marks the start of a new search so older entries are replaced first.
    pub(crate) fn new_search(&mut self) {
        let generation = self.generation.get_mut();
        *generation = (*generation + 1) & 63;
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Asks the processor to bring `key`'s bucket into cache, so that the probe a little later
    /// does not wait on memory (the table is far larger than the caches, and that wait was
    /// the search's largest single cost).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(&self.buckets[self.index(key)]);
    }

    /// Looks `key` up; scores come back adjusted to `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let bucket = &self.buckets[self.index(key)];
        for entry in [bucket.deep.load(), bucket.recent.load()] {
            if entry.key == key
                && let Some(bound) = entry.bound()
            {
                return Some(Hit {
                    mv: entry.mv,
                    score: from_tt(entry.score as i32, ply),
                    eval: entry.eval as i32,
                    depth: entry.depth as i32,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result; `score` is relative to `ply` and stored relative to this node.
    #[expect(
        clippy::too_many_arguments,
        reason = "the fields of one entry, each stored as given"
    )]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation();
        let bucket = &self.buckets[self.index(key)];
        let entry = |mv| Entry {
            key,
            mv,
            score: to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-1, 127) as i8,
            flags: (generation << 2) | bound as u8,
        };
        let deep = bucket.deep.load();
        let recent = bucket.recent.load();
        // The same position again: a shallower bound from this search must not wipe out a
        // deeper result (it only brings a move where the entry had none).
        for (slot, old) in [(&bucket.deep, deep), (&bucket.recent, recent)] {
            if old.key == key && old.bound().is_some() {
                let replace = bound == Bound::Exact
                    || old.generation() != generation
                    || depth + 2 >= old.depth as i32;
                if replace {
                    slot.save(entry(if mv == 0 { old.mv } else { mv }));
                } else if mv != 0 && mv != old.mv {
                    slot.save(Entry { mv, ..old });
                }
                return;
            }
        }
        if deep.bound().is_none() || deep.generation() != generation || depth >= deep.depth as i32 {
            // Keep the displaced deeper entry in the other slot.
            if deep.bound().is_some() {
                bucket.recent.save(deep);
            }
            bucket.deep.save(entry(mv));
        } else {
            bucket.recent.save(entry(mv));
        }
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let generation = self.generation();
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for entry in [bucket.deep.load(), bucket.recent.load()] {
                if entry.bound().is_some() && entry.generation() == generation {
                    used += 1;
                }
            }
        }
        if sample == 0 {
            0
        } else {
            (used * 1000 / (sample * 2)) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::walk::{any_move, walk};

    /// Every legal move comes back from its code, and no code gives a move that is not legal:
    /// positions with castling, en passant, promotions, pins and checks, and the positions of a
    /// fixed random walk from each.
    #[test]
    fn a_move_code_decodes_to_that_legal_move_and_nothing_else() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",
            // In check from a knight; double check; a pinned rook; black pawns on their start.
            "rnbqkb1r/pppppppp/8/8/8/5n2/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/1b6/8/3n4/r3K3 w - - 0 1",
            "4k3/4r3/8/8/8/8/4R3/4K2q w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ];
        let mut checked = 0;
        for (i, fen) in fens.iter().enumerate() {
            let visit = |pos: &Chess, legal: &shakmaty::MoveList| {
                for &m in legal {
                    assert_eq!(decode_move(pos, encode_move(m)), Some(m), "{fen} {m:?}");
                }
                let mut decoded = 0;
                for code in 0..=u16::MAX {
                    if let Some(m) = decode_move(pos, code) {
                        assert!(legal.contains(&m), "{fen} {code}: {m:?}");
                        assert_eq!(encode_move(m), code);
                        decoded += 1;
                    }
                }
                assert_eq!(decoded, legal.len(), "{fen}");
                checked += 1;
            };
            walk(fen, i as u64, 24, visit, any_move);
        }
        assert!(checked > 150, "{checked}");
    }

    #[test]
    fn a_shallow_bound_never_replaces_a_deep_result_of_the_same_position() {
        let mut table = Table::new(1);
        table.new_search();
        let key = 0x1234_5678_9abc_def0;
        table.store(key, 0, 77, 120, 30, 12, Bound::Exact);
        table.store(key, 0, 0, -50, 30, 2, Bound::Upper);
        let hit = table.probe(key, 0).unwrap();
        assert_eq!(
            (hit.depth, hit.score, hit.mv, hit.bound),
            (12, 120, 77, Bound::Exact)
        );
        // A shallow bound still brings its move to an entry.
        table.store(key, 0, 99, 400, 30, 1, Bound::Lower);
        let hit = table.probe(key, 0).unwrap();
        assert_eq!((hit.depth, hit.score, hit.mv), (12, 120, 99));
        // Nearly as deep, exact, or from an older search: replaced.
        table.store(key, 0, 0, 90, 30, 10, Bound::Lower);
        assert_eq!(table.probe(key, 0).unwrap().score, 90);
        table.store(key, 0, 0, 80, 30, 3, Bound::Exact);
        assert_eq!(table.probe(key, 0).unwrap().depth, 3);
        table.store(key, 0, 0, 500, 30, 40, Bound::Lower);
        table.new_search();
        table.store(key, 0, 0, 10, 30, 1, Bound::Upper);
        let hit = table.probe(key, 0).unwrap();
        assert_eq!((hit.depth, hit.score, hit.mv), (1, 10, 99));
    }
}
