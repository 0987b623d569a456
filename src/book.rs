//! Polyglot opening books: reading, move choice and building from PGN games.
//!
//! A Polyglot book is a flat file of 16-byte big-endian entries `key: u64, move: u16,
//! weight: u16, learn: u32`, sorted by key, so a position's moves are found by binary search.
//! Keys are Polyglot Zobrist hashes ([`polyglot_key`]); moves pack `to | from << 6 |
//! promotion << 12` with castling stored as king-takes-rook (`e1h1` is O-O).
//!
//! [`Book::embedded`] is the public-domain GNU Chess book shipped inside the binary (see
//! `assets/README.md`), so the game opens with varied lines on a machine with no files.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::path::Path;

use pgn_reader::Outcome;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};
use thiserror::Error;

use crate::pgn::{LoadError, RawGame, raw};
use crate::rng::Rng;

/// The default Polyglot book, embedded so that a fresh install has openings without any files.
static EMBEDDED_BOOK: &[u8] = include_bytes!("../assets/book.bin");

/// Name used for the embedded book in messages.
pub const EMBEDDED_NAME: &str = "<embedded GNU Chess book>";

/// Size of one Polyglot entry in bytes.
pub(crate) const ENTRY_SIZE: usize = 16;

/// Default last ply (half-move, counted from the start of the game) played from the book.
///
/// Twenty plies is ten moves each. The 100-game variety target is measured after move 6
/// (ply 12), so the book must reach at least that far; the GNU Chess book stays dense up to
/// about ply 20 (some 65,000 reachable positions) while deeper lines rest on one or two games
/// each, where weights say little and the engine's own search is the better guide.
pub const DEFAULT_MAX_PLY: u32 = 20;

/// Default minimum weight of an entry to be played: weight-0 entries are moves that never scored
/// in the games the book was made from, so they are skipped unless asked for.
pub(crate) const DEFAULT_MIN_WEIGHT: u16 = 1;

/// Errors from reading, checking or writing opening books and from reading PGN input.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be opened or read.
    #[error("cannot read opening book {path}: {error}")]
    Read {
        /// The file.
        path: String,
        /// The underlying I/O error (shown in the message, so not chained as a source).
        error: std::io::Error,
    },
    /// The path is not a regular file (a directory, a device, a pipe).
    #[error("opening book {path} is not a regular file")]
    NotAFile {
        /// The path.
        path: String,
    },
    /// The file is larger than any opening book should be.
    #[error("opening book {path} is {len} bytes, more than the {max} bytes a book may have")]
    TooLarge {
        /// The file.
        path: String,
        /// Its length in bytes.
        len: u64,
        /// The limit.
        max: u64,
    },
    /// The file has no entries at all.
    #[error("opening book {path} is empty (0 bytes)")]
    Empty {
        /// The file.
        path: String,
    },
    /// The length is not a whole number of 16-byte entries.
    #[error(
        "opening book {path} is truncated: {len} bytes is not a whole number of 16-byte Polyglot \
         entries ({extra} bytes left over)"
    )]
    Truncated {
        /// The file.
        path: String,
        /// Its length in bytes.
        len: usize,
        /// Bytes after the last whole entry.
        extra: usize,
    },
    /// Keys are not in ascending order, so binary search would miss entries.
    #[error(
        "opening book {path} is not sorted by key: entry {index} has a smaller key than entry {}",
        index - 1
    )]
    Unsorted {
        /// The file.
        path: String,
        /// Index of the first entry whose key is smaller than its predecessor's.
        index: usize,
    },
    /// The bytes do not look like Polyglot entries at all.
    #[error("{path} is not a Polyglot opening book: {reason}")]
    NotPolyglot {
        /// The file.
        path: String,
        /// What gave it away.
        reason: String,
    },
    /// Writing a built book failed.
    #[error("cannot write opening book {path}: {error}")]
    Write {
        /// The file.
        path: String,
        /// The underlying I/O error (shown in the message, so not chained as a source).
        error: std::io::Error,
    },
    /// A PGN input could not be read.
    #[error("cannot read PGN file {path}: {error}")]
    Pgn {
        /// The file.
        path: String,
        /// The underlying I/O error (shown in the message, so not chained as a source).
        error: std::io::Error,
    },
}

/// One raw Polyglot entry as stored in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BookEntry {
    /// Polyglot Zobrist key of the position.
    pub key: u64,
    /// Packed move: `to | from << 6 | promotion << 12`, castling as king-takes-rook.
    pub raw_move: u16,
    /// Relative weight; higher is played more often.
    pub weight: u16,
    /// Learning data (unused by Knightfall, preserved as read).
    pub learn: u32,
}

impl BookEntry {
    /// Decodes 16 big-endian bytes.
    fn from_bytes(b: &[u8]) -> BookEntry {
        BookEntry {
            key: u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            raw_move: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes([b[12], b[13], b[14], b[15]]),
        }
    }

    /// Encodes the entry as 16 big-endian bytes.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut out = [0; ENTRY_SIZE];
        out[0..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..16].copy_from_slice(&self.learn.to_be_bytes());
        out
    }
}

/// A legal move found in the book for a position, with its weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookMove {
    /// The move, as shakmaty plays it (castling as `Move::Castle`).
    pub mv: Move,
    /// The entry's weight.
    pub weight: u16,
    /// The entry's learn field.
    pub learn: u32,
}

impl BookMove {
    /// The move in UCI notation with standard castling (`e1g1`).
    pub fn uci(&self) -> String {
        self.mv.to_uci(CastlingMode::Standard).to_string()
    }
}

/// How to choose among the book moves of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Selection {
    /// Random, with probability proportional to weight: varied openings (the default).
    #[default]
    WeightedRandom,
    /// Always the highest weight (the first in file order on ties): repeatable play.
    Best,
}

/// Settings for playing from a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookOptions {
    /// How to choose among the moves.
    pub selection: Selection,
    /// Entries with a lower weight are ignored.
    pub min_weight: u16,
    /// No book move is played at or after this ply of the game (see [`DEFAULT_MAX_PLY`]).
    pub max_ply: u32,
}

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions {
            selection: Selection::WeightedRandom,
            min_weight: DEFAULT_MIN_WEIGHT,
            max_ply: DEFAULT_MAX_PLY,
        }
    }
}

/// The Polyglot key of a position.
///
/// shakmaty's `Zobrist64` uses Polyglot's random numbers; `EnPassantMode::PseudoLegal` hashes
/// the en-passant file only when a pawn of the side to move stands next to the pushed pawn
/// (even if that pawn is pinned), which is Polyglot's rule. `Legal` differs on pinned
/// capturers and `Always` on every double push.
pub fn polyglot_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// Polyglot's encoding of a move (castling as king-takes-rook).
pub fn encode_move(mv: &Move) -> u16 {
    let (from, to, promotion) = match *mv {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } => (king, rook, None),
        Move::Put { to, .. } => (to, to, None),
    };
    let promo = match promotion {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    u16::from(to) | (u16::from(from) << 6) | (promo << 12)
}

/// The legal move of `pos` that `raw` encodes, if any (a key collision or a corrupt entry can
/// name a move that is not legal here; such entries are ignored).
pub fn decode_move(pos: &Chess, raw: u16) -> Option<Move> {
    pos.legal_moves()
        .into_iter()
        .find(|m| encode_move(m) == raw)
}

/// Why a raw move cannot be a Polyglot move at all.
fn raw_move_problem(raw: u16) -> Option<&'static str> {
    if raw & 0x8000 != 0 {
        Some("bit 15 of the move is set")
    } else if (raw >> 12) & 7 > 4 {
        Some("the promotion field is out of range")
    } else if raw & 0x3f == (raw >> 6) & 0x3f {
        Some("the move's from and to squares are the same")
    } else {
        None
    }
}

/// The ply of the game a position is at, from its fullmove number and side to move (ply 0 is
/// White's first move).
pub fn game_ply(pos: &Chess) -> u32 {
    let full = pos.fullmoves().get().saturating_sub(1);
    full.saturating_mul(2)
        .saturating_add(u32::from(pos.turn() == Color::Black))
}

/// The largest book file read: 1 GiB (67 million entries), far above real books (the embedded
/// one is 2.9 MB), so that a wrong path cannot exhaust the machine's memory.
pub const MAX_BOOK_BYTES: u64 = 1024 * 1024 * 1024;

/// A checked Polyglot book in memory.
pub struct Book {
    name: String,
    data: Cow<'static, [u8]>,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book")
            .field("name", &self.name)
            .field("entries", &self.len())
            .finish()
    }
}

impl Book {
    /// The embedded default book (the GNU Chess book, see `assets/README.md`).
    pub fn embedded() -> Result<Book, BookError> {
        Book::from_bytes(EMBEDDED_NAME, Cow::Borrowed(EMBEDDED_BOOK))
    }

    /// Reads and checks a book file. Only a regular file of at most [`MAX_BOOK_BYTES`] is
    /// read, so a device (`/dev/zero`) or a named pipe is refused before anything is read.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let read_error = |error| BookError::Read {
            path: name.clone(),
            error,
        };
        let meta = std::fs::metadata(path).map_err(read_error)?;
        if !meta.is_file() {
            return Err(BookError::NotAFile { path: name });
        }
        if meta.len() > MAX_BOOK_BYTES {
            return Err(BookError::TooLarge {
                path: name,
                len: meta.len(),
                max: MAX_BOOK_BYTES,
            });
        }
        let data = std::fs::read(path).map_err(read_error)?;
        Book::from_bytes(name, Cow::Owned(data))
    }

    /// Checks `data` as a Polyglot book; `name` names it in errors. Rejects empty, truncated,
    /// unsorted and non-Polyglot data.
    pub fn from_bytes(
        name: impl Into<String>,
        data: Cow<'static, [u8]>,
    ) -> Result<Book, BookError> {
        let path = name.into();
        check(&path, &data)?;
        Ok(Book { name: path, data })
    }

    /// The name given when the book was opened (its path, or [`EMBEDDED_NAME`]).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.data.len() / ENTRY_SIZE
    }

    /// Whether the book has no entries (never true for a checked book).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry at `index` in file order.
    pub fn entry(&self, index: usize) -> Option<BookEntry> {
        let start = index.checked_mul(ENTRY_SIZE)?;
        self.data
            .get(start..start + ENTRY_SIZE)
            .map(BookEntry::from_bytes)
    }

    /// All entries in file order.
    pub fn entries(&self) -> impl Iterator<Item = BookEntry> + '_ {
        self.data
            .chunks_exact(ENTRY_SIZE)
            .map(BookEntry::from_bytes)
    }

    fn key_at(&self, index: usize) -> u64 {
        let s = index * ENTRY_SIZE;
        let b = &self.data[s..s + 8];
        u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }

    /// The entries with `key`, in file order (binary search for the first, then a scan).
    pub fn entries_for_key(&self, key: u64) -> impl Iterator<Item = BookEntry> + '_ {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_at(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        self.data[lo * ENTRY_SIZE..]
            .chunks_exact(ENTRY_SIZE)
            .map(BookEntry::from_bytes)
            .take_while(move |e| e.key == key)
    }

    /// The legal book moves of `pos`, highest weight first (file order on equal weights);
    /// empty when the position is not in the book.
    pub fn moves(&self, pos: &Chess) -> Vec<BookMove> {
        let legal = pos.legal_moves();
        let mut moves: Vec<BookMove> = Vec::new();
        for e in self.entries_for_key(polyglot_key(pos)) {
            let Some(mv) = legal.iter().find(|m| encode_move(m) == e.raw_move) else {
                continue;
            };
            // A book may repeat a move; keep its first (file-order) entry.
            if moves.iter().any(|b| b.mv == *mv) {
                continue;
            }
            moves.push(BookMove {
                mv: *mv,
                weight: e.weight,
                learn: e.learn,
            });
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }

    /// Chooses a book move for `pos` under `options`, or `None` when the game is past
    /// `max_ply`, the position is not in the book, or no entry reaches `min_weight`.
    pub fn pick(&self, pos: &Chess, options: &BookOptions, rng: &mut Rng) -> Option<Move> {
        if game_ply(pos) >= options.max_ply {
            return None;
        }
        let moves: Vec<BookMove> = self
            .moves(pos)
            .into_iter()
            .filter(|m| m.weight >= options.min_weight)
            .collect();
        choose(&moves, options.selection, rng)
    }
}

/// Chooses among `moves` (sorted highest weight first, as [`Book::moves`] returns them).
pub fn choose(moves: &[BookMove], selection: Selection, rng: &mut Rng) -> Option<Move> {
    match selection {
        Selection::Best => moves.first().map(|m| m.mv),
        Selection::WeightedRandom => {
            if moves.is_empty() {
                return None;
            }
            let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
            if total == 0 {
                let i = rng.below(moves.len() as u64) as usize;
                return Some(moves[i].mv);
            }
            let mut r = rng.below(total);
            for m in moves {
                let w = u64::from(m.weight);
                if r < w {
                    return Some(m.mv);
                }
                r -= w;
            }
            moves.last().map(|m| m.mv)
        }
    }
}

/// Checks that `data` is a plausible, sorted Polyglot book.
fn check(path: &str, data: &[u8]) -> Result<(), BookError> {
    if data.is_empty() {
        return Err(BookError::Empty { path: path.into() });
    }
    // Keys are random 64-bit numbers: a file that starts with 64 bytes of printable text is
    // a PGN, EPD or similar, whatever its length.
    let head = &data[..data.len().min(64)];
    if head.len() >= ENTRY_SIZE
        && head
            .iter()
            .all(|&b| b == b'\n' || b == b'\r' || b == b'\t' || (0x20..0x7f).contains(&b))
    {
        return Err(BookError::NotPolyglot {
            path: path.into(),
            reason: "it starts with plain text (a PGN or EPD file?), not binary 16-byte entries"
                .into(),
        });
    }
    let extra = data.len() % ENTRY_SIZE;
    if extra != 0 {
        return Err(BookError::Truncated {
            path: path.into(),
            len: data.len(),
            extra,
        });
    }
    let mut prev = 0u64;
    for (index, chunk) in data.chunks_exact(ENTRY_SIZE).enumerate() {
        let e = BookEntry::from_bytes(chunk);
        if let Some(problem) = raw_move_problem(e.raw_move) {
            return Err(BookError::NotPolyglot {
                path: path.into(),
                reason: format!(
                    "entry {index} has an impossible move {:#06x} ({problem})",
                    e.raw_move
                ),
            });
        }
        if index > 0 && e.key < prev {
            return Err(BookError::Unsorted {
                path: path.into(),
                index,
            });
        }
        prev = e.key;
    }
    Ok(())
}

/// Settings for building a book from games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildOptions {
    /// Only moves played before this ply of a game are recorded.
    pub max_ply: u32,
    /// A move must have been played in at least this many games to be kept.
    pub min_games: u32,
}

impl Default for BuildOptions {
    /// 40 plies (20 moves each) covers any opening repertoire; one game is enough because a
    /// player's own collection rarely repeats a line three times (Polyglot's default, meant
    /// for large databases).
    fn default() -> Self {
        BuildOptions {
            max_ply: 40,
            min_games: 1,
        }
    }
}

/// What a build read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Games whose moves were recorded.
    pub games: u64,
    /// Games left out, with the reason (illegal move, bad FEN, other variant).
    pub skipped: Vec<String>,
}

/// Polyglot's halving threshold: when a move's game count reaches this, all counts of that
/// position are halved so that weights stay within 16 bits.
const COUNT_MAX: u32 = 16384;

#[derive(Debug, Clone, Copy)]
struct MoveStat {
    raw_move: u16,
    /// Games in which the move was played.
    n: u32,
    /// Points for the side that played it: win 2, draw 1, loss 0 per game.
    sum: u32,
}

/// Accumulates games into Polyglot entries the way the Polyglot tool's `make-book` does:
/// every move before `max_ply` gets one count and 2/1/0 points for a win/draw/loss of the
/// side that played it (unfinished games `*` count as draws); moves played in fewer than
/// `min_games` games or that never scored are dropped; the weight is the points total.
#[derive(Debug, Default)]
pub struct BookBuilder {
    options: BuildOptions,
    positions: HashMap<u64, Vec<MoveStat>>,
    stats: BuildStats,
}

impl BookBuilder {
    /// An empty builder.
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder {
            options,
            positions: HashMap::new(),
            stats: BuildStats::default(),
        }
    }

    /// Records one game: `moves` from `start` and its `outcome` (a draw and an unknown result
    /// count alike). The moves must be legal in sequence.
    pub(crate) fn add_game(&mut self, start: &Chess, moves: &[Move], outcome: Outcome) {
        let mut pos = start.clone();
        for (ply, mv) in moves.iter().enumerate() {
            if ply as u32 >= self.options.max_ply {
                break;
            }
            let points = match outcome.winner() {
                Some(w) if w == pos.turn() => 2,
                Some(_) => 0,
                None => 1,
            };
            self.record(polyglot_key(&pos), encode_move(mv), points);
            pos.play_unchecked(*mv);
        }
        self.stats.games += 1;
    }

    fn record(&mut self, key: u64, raw_move: u16, points: u32) {
        let stats = self.positions.entry(key).or_default();
        let i = match stats.iter().position(|s| s.raw_move == raw_move) {
            Some(i) => i,
            None => {
                stats.push(MoveStat {
                    raw_move,
                    n: 0,
                    sum: 0,
                });
                stats.len() - 1
            }
        };
        stats[i].n += 1;
        stats[i].sum += points;
        if stats[i].n >= COUNT_MAX {
            for s in stats.iter_mut() {
                s.n /= 2;
                s.sum /= 2;
            }
        }
    }

    /// Reads every game of a PGN stream (`name` labels skipped games). Games with an illegal
    /// or unreadable move, a bad FEN tag or a variant other than standard chess are skipped
    /// and listed in the stats; only the main line is used.
    pub fn add_pgn(&mut self, name: &str, input: impl Read) -> Result<(), BookError> {
        for (index, game) in (1u64..).zip(raw::games(input)) {
            let game = game.map_err(|error| BookError::Pgn {
                path: name.into(),
                error,
            })?;
            match main_line(&game) {
                Ok((start, moves)) => self.add_game(&start, &moves, game.outcome()),
                Err(why) => self
                    .stats
                    .skipped
                    .push(format!("{name}: game {index}: {why}")),
            }
        }
        Ok(())
    }

    /// Reads a PGN file (see [`BookBuilder::add_pgn`]).
    pub fn add_pgn_file(&mut self, path: impl AsRef<Path>) -> Result<(), BookError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|error| BookError::Pgn {
            path: name.clone(),
            error,
        })?;
        self.add_pgn(&name, std::io::BufReader::new(file))
    }

    /// What has been read so far.
    pub fn stats(&self) -> &BuildStats {
        &self.stats
    }

    /// The book's entries, sorted by key and, within a key, by weight (highest first) and move.
    pub fn entries(&self) -> Vec<BookEntry> {
        let mut out: Vec<BookEntry> = self
            .positions
            .iter()
            .flat_map(|(&key, stats)| {
                stats
                    .iter()
                    .filter(|s| s.n >= self.options.min_games && s.sum > 0)
                    .map(move |s| BookEntry {
                        key,
                        raw_move: s.raw_move,
                        weight: s.sum.min(u32::from(u16::MAX)) as u16,
                        learn: 0,
                    })
            })
            .collect();
        out.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.weight.cmp(&a.weight))
                .then(a.raw_move.cmp(&b.raw_move))
        });
        out
    }
}

/// Serializes entries (already sorted) as a Polyglot file.
pub fn to_bytes(entries: &[BookEntry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.len() * ENTRY_SIZE);
    for e in entries {
        out.extend_from_slice(&e.to_bytes());
    }
    out
}

/// Writes entries (already sorted) to `path` as a Polyglot book.
pub fn write_book(path: impl AsRef<Path>, entries: &[BookEntry]) -> Result<(), BookError> {
    let path = path.as_ref();
    std::fs::write(path, to_bytes(entries)).map_err(|error| BookError::Write {
        path: path.display().to_string(),
        error,
    })
}

/// The start and the main line's moves of `game`, or why they cannot be recorded (an
/// illegal or unreadable move, a bad FEN tag, a variant other than standard chess).
fn main_line(game: &RawGame) -> Result<(Chess, Vec<Move>), String> {
    let start = game.start().map_err(|e| match e {
        LoadError::Variant(v) => format!("variant {:?} is not standard chess", v.trim()),
        LoadError::Fen(e) => format!("FEN tag: {e}"),
        e => e.to_string(),
    })?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for written in game.main_line() {
        let m = written.san.san.to_move(&pos).map_err(|e| {
            format!(
                "illegal move {} at ply {} ({e})",
                written.san,
                moves.len() + 1
            )
        })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok((start, moves))
}
