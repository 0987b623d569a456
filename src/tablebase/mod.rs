//! Syzygy endgame tablebases through shakmaty-syzygy.
//!
//! Every 3- and 4-piece table is built into the binary ([`embedded`]); [`Tablebases::load`]
//! puts the user's directories on top of them and [`Tablebases::open`] reads directories
//! alone. Probes answer WDL
//! (win/draw/loss, -2..=2 from the side to move's view) and DTZ (plies to the next capture or
//! pawn move on the best line). [`Tablebases::root_move`] picks the move to play in a
//! tablebase position honouring the fifty-move rule, and [`Tablebases::probe_wdl_search`] is
//! the cheap probe for use inside a search. Every failure is an error or `None` for that probe:
//! a missing or damaged table never stops the game, and a table that fails while probing is
//! dropped with one warning ([`Tablebases::take_warnings`]).

pub mod embedded;

use std::fmt;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{CastlingMode, Chess, Move, Position};
use shakmaty_syzygy::filesystem::MmapFilesystem;
use shakmaty_syzygy::{AmbiguousWdl, Dtz, MaybeRounded, ProbeError, SyzygyError, Tablebase};
use thiserror::Error;

pub use shakmaty_syzygy::Wdl;

/// Errors from loading or probing tablebases.
#[derive(Debug, Error)]
pub enum TbError {
    /// No directory was named.
    #[error("no Syzygy directory given")]
    NoPath,
    /// A named directory could not be listed.
    #[error("cannot read Syzygy directory {path}: {error}")]
    Directory {
        /// The directory.
        path: String,
        /// The underlying I/O error (shown in the message, so not chained as a source).
        error: io::Error,
    },
    /// None of the directories holds a usable table file.
    #[error("no Syzygy table files (.rtbw/.rtbz) found in {paths}")]
    NoTables {
        /// The directories searched, as given.
        paths: String,
    },
    /// Syzygy tables hold no positions with castling rights.
    #[error("the position has castling rights, which Syzygy tables do not cover")]
    Castling,
    /// More pieces than the largest table loaded.
    #[error("the position has {pieces} pieces; the largest tables loaded have {max}")]
    TooManyPieces {
        /// Pieces on the board.
        pieces: usize,
        /// Largest table size loaded.
        max: usize,
    },
    /// The table for this material is not among the files loaded.
    #[error("the {metric} table for {material} is missing")]
    MissingTable {
        /// `wdl` or `dtz`.
        metric: String,
        /// Material signature, e.g. `KRPvKR`.
        material: String,
    },
    /// The table exists but could not be read (truncated, corrupt, I/O error).
    #[error("the {metric} table for {material} could not be read: {detail}")]
    Corrupt {
        /// `wdl` or `dtz`.
        metric: String,
        /// Material signature.
        material: String,
        /// What went wrong.
        detail: String,
    },
    /// The position is checkmate or stalemate, so there is no move to choose.
    #[error("the position has no legal moves")]
    NoMoves,
}

/// Turns a shakmaty-syzygy error into ours.
fn convert(err: SyzygyError, pos: &Chess, max: usize) -> TbError {
    match err {
        SyzygyError::Castling => TbError::Castling,
        SyzygyError::TooManyPieces => TbError::TooManyPieces {
            pieces: pos.board().occupied().count(),
            max,
        },
        SyzygyError::MissingTable { metric, material } => TbError::MissingTable {
            metric: metric.to_string(),
            material: material.to_string(),
        },
        SyzygyError::ProbeFailed {
            metric,
            material,
            error,
        } => TbError::Corrupt {
            metric: metric.to_string(),
            material: material.to_string(),
            // Corrupted-table errors carry a backtrace in their text; the player needs a line.
            detail: match *error {
                ProbeError::CorruptedTable { .. } => "corrupted data".to_string(),
                ProbeError::Magic { magic } => format!("bad header bytes {magic:02x?}"),
                ProbeError::Read { error } => format!("read error: {error}"),
            },
        },
    }
}

/// A WDL and DTZ probe of one position, both from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// Win/draw/loss assuming the position was just reached by a capture or pawn move
    /// (cursed wins and blessed losses are wins and losses spoiled by the fifty-move rule).
    pub wdl: Wdl,
    /// Plies to the next capture or pawn move on the best line: positive when winning,
    /// negative when losing, 0 when drawn. May be rounded by one ply for long distances.
    pub dtz: i32,
}

/// A root move with its tablebase result, as [`Tablebases::rank_root_moves`] ranks them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The result of playing it, for the side to move, counting the halfmove clock: a win that
    /// the fifty-move rule would spoil is a cursed win here.
    pub wdl: Wdl,
    /// Plies until the next capture or pawn move if this move is played and both sides follow
    /// the tables (1 when the move itself is one); positive winning, negative losing, 0 drawn.
    pub dtz: i32,
    /// Higher is better; moves of equal rank are equally good by the tables, so a search may
    /// choose among them.
    pub rank: i32,
}

impl RootMove {
    /// `win`, `cursed win`, `draw`, `blessed loss` or `loss`, for display.
    pub fn outcome_word(&self) -> &'static str {
        wdl_word(self.wdl)
    }
}

/// A word for a WDL value (`win`, `cursed win`, `draw`, `blessed loss`, `loss`).
pub(crate) fn wdl_word(wdl: Wdl) -> &'static str {
    match wdl {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed win",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "blessed loss",
        Wdl::Loss => "loss",
    }
}

/// Loaded Syzygy tables. Cheap to share between threads (`Send + Sync`); files are opened
/// lazily on the first probe that needs them.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    dirs: Vec<PathBuf>,
    files: usize,
    warnings: Vec<String>,
    probe_limit: usize,
    /// Materials whose probes failed; they are not probed again.
    dropped: Mutex<Vec<String>>,
    /// Whether `dropped` has anything (checked without the lock on every probe).
    any_dropped: AtomicBool,
    /// Warnings about dropped tables not yet taken by [`Tablebases::take_warnings`].
    news: Mutex<Vec<String>>,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebases")
            .field("dirs", &self.dirs)
            .field("files", &self.files)
            .field("max_pieces", &self.max_pieces())
            .field("probe_limit", &self.probe_limit)
            .finish()
    }
}

/// How table files in the user's directories are read: memory-mapped, which made probing
/// searches about 7% faster than reads (`bench --syzygy`, 1.89 against 1.77 M nodes/s).
fn user_filesystem() -> Arc<dyn shakmaty_syzygy::filesystem::Filesystem> {
    // SAFETY: the maps are only read, and every read is bounds-checked by the crate, so a
    // damaged or short file gives an error, not undefined behaviour. The contract left to us is
    // that table files are not truncated while the program runs (the kernel would then stop it
    // with SIGBUS); tablebase directories are install-once data, so we accept that for speed.
    Arc::new(unsafe { MmapFilesystem::new() })
}

/// Adds the table files of `dir` in name order; returns how many were added. Files with an
/// impossible size are skipped with a warning; other names are not ours to use.
fn add_dir(
    tables: &mut Tablebase<Chess>,
    dir: &Path,
    warnings: &mut Vec<String>,
) -> Result<usize, TbError> {
    let read = std::fs::read_dir(dir).map_err(|error| TbError::Directory {
        path: dir.display().to_string(),
        error,
    })?;
    let mut paths: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let mut files = 0;
    for path in paths {
        let is_table = path
            .extension()
            .is_some_and(|ext| ext == "rtbw" || ext == "rtbz");
        if !is_table {
            continue;
        }
        match tables.add_file(&path) {
            Ok(()) => files += 1,
            // Not a standard-chess table name (e.g. a stray file): not ours to use.
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => {}
            Err(e) => warnings.push(format!("skipped {}: {e}", path.display())),
        }
    }
    Ok(files)
}

/// Splits a `DIR[:DIR...]` list (`;` on Windows), skipping empty parts.
pub(crate) fn split_dirs(spec: &str) -> Vec<PathBuf> {
    std::env::split_paths(spec)
        .filter(|p| !p.as_os_str().is_empty())
        .collect()
}

impl Tablebases {
    /// Loads the tables of every directory in `spec` (`DIR[:DIR...]`, as UCI `SyzygyPath` and
    /// `--syzygy` give it), without the embedded tables.
    pub fn open(spec: &str) -> Result<Tablebases, TbError> {
        Tablebases::open_dirs(&split_dirs(spec))
    }

    /// The embedded 3- and 4-piece tables alone.
    pub fn embedded() -> Tablebases {
        Tablebases::load(None)
    }

    /// The embedded tables with the tables of the directories in `spec` on top (larger
    /// tables; a file of the same name replaces the embedded one). A directory that cannot be
    /// used costs only itself: it becomes a warning (see [`Tablebases::warnings`]).
    pub fn load(spec: Option<&str>) -> Tablebases {
        let dirs = spec.map(split_dirs).unwrap_or_default();
        let mut tables =
            Tablebase::with_filesystem(Arc::new(embedded::Layered::new(user_filesystem())));
        let mut files = 0;
        let mut warnings = Vec::new();
        for path in embedded::paths() {
            if tables.add_file(&path).is_ok() {
                files += 1;
            }
        }
        let mut loaded = vec![PathBuf::from(embedded::DIR)];
        for dir in &dirs {
            match add_dir(&mut tables, dir, &mut warnings) {
                Ok(0) => warnings.push(format!(
                    "no Syzygy table files (.rtbw/.rtbz) found in {}",
                    dir.display()
                )),
                Ok(n) => {
                    files += n;
                    loaded.push(dir.clone());
                }
                Err(e) => warnings.push(e.to_string()),
            }
        }
        Tablebases::from_parts(tables, loaded, files, warnings)
    }

    /// Loads the tables of every directory in `dirs`. A directory that cannot be read is an
    /// error; a table file with an impossible size is skipped with a warning (see
    /// [`Tablebases::warnings`]), so one damaged file costs only its own material.
    pub(crate) fn open_dirs<P: AsRef<Path>>(dirs: &[P]) -> Result<Tablebases, TbError> {
        if dirs.is_empty() {
            return Err(TbError::NoPath);
        }
        let mut tables = Tablebase::with_filesystem(user_filesystem());
        let mut files = 0;
        let mut warnings = Vec::new();
        for dir in dirs {
            files += add_dir(&mut tables, dir.as_ref(), &mut warnings)?;
        }
        if files == 0 {
            let paths = dirs
                .iter()
                .map(|d| d.as_ref().display().to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(TbError::NoTables { paths });
        }
        let dirs = dirs.iter().map(|d| d.as_ref().to_path_buf()).collect();
        Ok(Tablebases::from_parts(tables, dirs, files, warnings))
    }

    fn from_parts(
        tables: Tablebase<Chess>,
        dirs: Vec<PathBuf>,
        files: usize,
        warnings: Vec<String>,
    ) -> Tablebases {
        let probe_limit = tables.max_pieces();
        Tablebases {
            tables,
            dirs,
            files,
            warnings,
            probe_limit,
            dropped: Mutex::new(Vec::new()),
            any_dropped: AtomicBool::new(false),
            news: Mutex::new(Vec::new()),
        }
    }

    /// Number of table files loaded (WDL and DTZ files counted separately).
    pub fn file_count(&self) -> usize {
        self.files
    }

    /// Files that were skipped while loading, one message each.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The largest number of pieces (kings included) of any table loaded.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// Caps the piece count of probes from [`Tablebases::probe_wdl_search`] and
    /// [`Tablebases::root_move`] (UCI `SyzygyProbeLimit`); never above [`Self::max_pieces`].
    pub fn set_probe_limit(&mut self, limit: usize) {
        self.probe_limit = limit;
    }

    /// The piece count up to which the search and root probe: the smaller of the probe limit
    /// and [`Self::max_pieces`].
    pub fn probe_pieces(&self) -> usize {
        self.probe_limit.min(self.max_pieces())
    }

    fn precheck(&self, pos: &Chess, max: usize) -> Result<(), TbError> {
        if pos.castles().any() {
            return Err(TbError::Castling);
        }
        let pieces = pos.board().occupied().count();
        if pieces > max {
            return Err(TbError::TooManyPieces { pieces, max });
        }
        Ok(())
    }

    /// Runs a shakmaty-syzygy call, turning its errors into [`TbError`] and, as a last line of
    /// defence against a damaged file, a panic inside the library into a `Corrupt` error.
    fn guarded<T>(
        &self,
        pos: &Chess,
        f: impl FnOnce(&Tablebase<Chess>) -> Result<T, SyzygyError>,
    ) -> Result<T, TbError> {
        if self.any_dropped.load(Ordering::Relaxed) {
            let material = material_of(pos);
            if self.is_dropped(&material) {
                return Err(TbError::Corrupt {
                    metric: "wdl/dtz".into(),
                    material,
                    detail: "dropped after an earlier failure".into(),
                });
            }
        }
        let err = match catch_unwind(AssertUnwindSafe(|| f(&self.tables))) {
            Ok(Ok(v)) => return Ok(v),
            Ok(Err(e)) => convert(e, pos, self.max_pieces()),
            Err(_) => TbError::Corrupt {
                metric: "wdl/dtz".into(),
                material: material_of(pos),
                detail: "the table reader failed on damaged data".into(),
            },
        };
        if let TbError::Corrupt {
            metric,
            material,
            detail,
        } = &err
        {
            self.drop_table(metric, material, detail, &material_of(pos));
        }
        Err(err)
    }

    fn is_dropped(&self, material: &str) -> bool {
        let key = unordered(material);
        self.dropped.lock().is_ok_and(|d| d.contains(&key))
    }

    /// Stops probing `material` (which failed) and `probed` (which needed it), with one warning.
    fn drop_table(&self, metric: &str, material: &str, detail: &str, probed: &str) {
        let Ok(mut dropped) = self.dropped.lock() else {
            return;
        };
        let key = unordered(material);
        if !dropped.contains(&key) {
            dropped.push(key);
            if let Ok(mut news) = self.news.lock() {
                news.push(format!(
                    "the {metric} table for {material} failed ({detail}); it is no longer used"
                ));
            }
        }
        let probed = unordered(probed);
        if !dropped.contains(&probed) {
            dropped.push(probed);
        }
        self.any_dropped.store(true, Ordering::Relaxed);
    }

    /// Warnings about tables dropped since the last call (each table warns once).
    pub fn take_warnings(&self) -> Vec<String> {
        self.news
            .lock()
            .map(|mut n| std::mem::take(&mut *n))
            .unwrap_or_default()
    }

    /// WDL of `pos` from the side to move's view, assuming it was just reached by a capture or
    /// pawn move (the halfmove clock is ignored). Needs only WDL tables.
    pub fn probe_wdl(&self, pos: &Chess) -> Result<Wdl, TbError> {
        self.precheck(pos, self.max_pieces())?;
        self.guarded(pos, |tb| tb.probe_wdl_after_zeroing(pos))
    }

    /// DTZ of `pos` from the side to move's view (see [`Probe::dtz`]). Needs WDL and DTZ tables.
    pub fn probe_dtz(&self, pos: &Chess) -> Result<i32, TbError> {
        self.precheck(pos, self.max_pieces())?;
        self.guarded(pos, |tb| tb.probe_dtz(pos))
            .map(|d| d.ignore_rounding().0)
    }

    /// WDL and DTZ of `pos` (what `knightfall tb probe` prints).
    pub fn probe(&self, pos: &Chess) -> Result<Probe, TbError> {
        Ok(Probe {
            wdl: self.probe_wdl(pos)?,
            dtz: self.probe_dtz(pos)?,
        })
    }

    /// WDL for use inside a search, or `None` when the position is out of range (castling
    /// rights, more pieces than [`Self::probe_pieces`]) or the table is missing or damaged.
    /// Call it right after a capture or pawn move, where the halfmove clock is zero and the
    /// value is exact.
    #[inline]
    pub fn probe_wdl_search(&self, pos: &Chess) -> Option<Wdl> {
        if pos.board().occupied().count() > self.probe_pieces() || pos.castles().any() {
            return None;
        }
        self.guarded(pos, |tb| tb.probe_wdl_after_zeroing(pos)).ok()
    }

    /// Every legal move of `pos` with its tablebase result, best first.
    ///
    /// Results count the halfmove clock, so a win is only a win if it can be completed
    /// within the fifty-move rule. Ranking: mate in one; then wins, fewest plies to the next
    /// zeroing move first (following DTZ converts within the rule whenever that is possible);
    /// then cursed wins the same way (the opponent may still go wrong); then draws; then
    /// blessed and real losses, longest resistance first (zeroing moves, which reset the
    /// opponent's clock, last). Repetitions are not known here.
    pub fn rank_root_moves(&self, pos: &Chess) -> Result<Vec<RootMove>, TbError> {
        self.precheck(pos, self.probe_pieces())?;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return Err(TbError::NoMoves);
        }
        let mut ranked = Vec::with_capacity(legal.len());
        for mv in legal {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let (wdl, dtz, mate) = if after.is_checkmate() {
                (AmbiguousWdl::Win, 1, true)
            } else {
                let theirs: MaybeRounded<Dtz> = self.guarded(&after, |tb| tb.probe_dtz(&after))?;
                let ours = -AmbiguousWdl::from_dtz_and_halfmoves(theirs, after.halfmoves());
                let d = theirs.ignore_rounding().0;
                let dtz = if d == 0 {
                    0
                } else if mv.is_zeroing() {
                    -d.signum()
                } else {
                    -(d + d.signum())
                };
                (ours, dtz, false)
            };
            let rank = if mate {
                400_000
            } else {
                let band = match wdl {
                    AmbiguousWdl::Win => 300_000,
                    AmbiguousWdl::MaybeWin => 200_000,
                    AmbiguousWdl::CursedWin => 100_000,
                    AmbiguousWdl::Draw => 0,
                    AmbiguousWdl::BlessedLoss => -100_000,
                    AmbiguousWdl::MaybeLoss => -200_000,
                    AmbiguousWdl::Loss => -300_000,
                };
                // Winning: fewer plies is better; losing: more plies (dtz negative) is better.
                band - dtz.abs() * if dtz > 0 { 1 } else { -1 }
            };
            ranked.push(RootMove {
                mv,
                wdl: wdl.after_zeroing(),
                dtz,
                rank,
            });
        }
        ranked.sort_by_key(|m| std::cmp::Reverse(m.rank));
        Ok(ranked)
    }

    /// The move to play in `pos` by the tables (see [`Self::rank_root_moves`]), or `None`
    /// when the position is out of range (castling rights, more than
    /// [`Self::probe_pieces`] pieces), a needed table is missing or damaged, or there is no
    /// legal move.
    pub fn root_move(&self, pos: &Chess) -> Option<RootMove> {
        self.rank_root_moves(pos).ok()?.into_iter().next()
    }
}

/// The material signature of a position (`KRPvKR`), strongest pieces first for each side.
pub fn material_of(pos: &Chess) -> String {
    let board = pos.board();
    let mut out = String::new();
    for color in [shakmaty::Color::White, shakmaty::Color::Black] {
        if !out.is_empty() {
            out.push('v');
        }
        for role in [
            shakmaty::Role::King,
            shakmaty::Role::Queen,
            shakmaty::Role::Rook,
            shakmaty::Role::Bishop,
            shakmaty::Role::Knight,
            shakmaty::Role::Pawn,
        ] {
            let n = (board.by_color(color) & board.by_role(role)).count();
            for _ in 0..n {
                out.push(role.upper_char());
            }
        }
    }
    out
}

/// A material signature with its two sides in a fixed order, so that `KRvKN` and `KNvKR` (the
/// same table) compare equal.
fn unordered(material: &str) -> String {
    match material.split_once('v') {
        Some((a, b)) if a < b => format!("{b}v{a}"),
        _ => material.to_string(),
    }
}

/// The UCI text of a root move (standard castling notation).
pub fn uci(mv: &Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}
