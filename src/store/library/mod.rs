//! The library: one SQLite database beside the games folder (`library.sqlite`) holding every
//! game imported, each once. SQLite is the one writer's lock and the readers' snapshot (WAL), so
//! two Knightfalls may use it at once; the schema moves on by numbered migrations. PGN stays the
//! format a player takes away: each game is kept as the PGN Knightfall writes for it. It holds
//! lichess's puzzle database too, once imported (`puzzles`).

pub mod drills;
pub mod reviews;
pub mod import;
pub mod folder;
pub mod filter;
pub mod mistakes;
pub mod training;
pub mod stats;
pub mod puzzles;
pub mod keep;
pub mod bulk;
pub mod claims;

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};

/// The schema, one step at a time; a step once published is never changed, only followed.
const MIGRATIONS: &[M<'static>] = &[
    M::up(
        "CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        identity TEXT NOT NULL UNIQUE,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        result TEXT NOT NULL,
        date TEXT NOT NULL,
        time_control TEXT NOT NULL,
        site TEXT NOT NULL,
        eco TEXT NOT NULL,
        opening TEXT NOT NULL,
        plies INTEGER NOT NULL,
        pgn TEXT NOT NULL,
        source TEXT NOT NULL
    );
    CREATE INDEX games_by_date ON games(date);",
    ),
    M::up(
        "CREATE TABLE reviews (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            origin TEXT NOT NULL,
            engine TEXT NOT NULL,
            movetime_ms INTEGER NOT NULL,
            positions INTEGER NOT NULL,
            done INTEGER NOT NULL,
            accuracy_white REAL,
            accuracy_black REAL,
            evals TEXT NOT NULL,
            updated INTEGER NOT NULL
        );
        CREATE TABLE verdicts (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            ply INTEGER NOT NULL,
            white INTEGER NOT NULL,
            judgement INTEGER NOT NULL,
            phase TEXT NOT NULL,
            PRIMARY KEY (game_id, ply)
        );
        CREATE TABLE folder_files (
            path TEXT PRIMARY KEY,
            modified INTEGER NOT NULL,
            size INTEGER NOT NULL
        );",
    ),
    // The mistakes and blunders of each review, with the position and the engine's move, so
    // the training lists them without replaying every game; the reviews kept before are
    // noted to be gone through once.
    M::up(
        "CREATE TABLE drills (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            ply INTEGER NOT NULL,
            white INTEGER NOT NULL,
            fen TEXT NOT NULL,
            played TEXT NOT NULL,
            best TEXT NOT NULL,
            eval TEXT NOT NULL,
            judgement INTEGER NOT NULL,
            PRIMARY KEY (game_id, ply)
        );
        CREATE TABLE drills_to_find (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE
        );
        INSERT INTO drills_to_find SELECT DISTINCT game_id FROM verdicts WHERE judgement >= 1;",
    ),
    // The training record: a row per ending, per card, per puzzle tried and per motif, so a
    // save writes the rows its results touch and the puzzles can be chosen by what was tried.
    M::up(
        "CREATE TABLE training_started (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            at INTEGER NOT NULL,
            migrated_from TEXT
        );
        CREATE TABLE training_endings (
            ending TEXT PRIMARY KEY,
            tried INTEGER NOT NULL,
            done INTEGER NOT NULL,
            clean INTEGER NOT NULL,
            best_over_par INTEGER,
            last TEXT
        );
        CREATE TABLE training_cards (
            id TEXT PRIMARY KEY,
            reps INTEGER NOT NULL,
            interval INTEGER NOT NULL,
            ease REAL NOT NULL,
            due INTEGER NOT NULL
        );
        CREATE TABLE puzzle_rating (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            rating REAL NOT NULL,
            deviation REAL NOT NULL,
            volatility REAL NOT NULL
        );
        CREATE TABLE puzzle_history (
            n INTEGER PRIMARY KEY,
            rating INTEGER NOT NULL
        );
        CREATE TABLE puzzle_attempts (
            n INTEGER PRIMARY KEY,
            puzzle_id TEXT NOT NULL,
            solved INTEGER NOT NULL,
            at INTEGER
        );
        CREATE INDEX puzzle_attempts_by_puzzle ON puzzle_attempts(puzzle_id, n);
        CREATE TABLE puzzle_motifs (
            motif TEXT PRIMARY KEY,
            tried INTEGER NOT NULL,
            solved INTEGER NOT NULL
        );",
    ),
    // Lichess's puzzle database. A puzzle's themes are rows of their own, indexed by theme
    // then rating, so the puzzle of a theme nearest a rating is one step into an index away;
    // the themes' names are numbered, which keeps those rows small. The two indexes by rating
    // are dropped by an import of many puzzles and made again at its end (see `puzzles`).
    M::up(
        "CREATE TABLE puzzles (
            id INTEGER PRIMARY KEY,
            puzzle_id TEXT NOT NULL UNIQUE,
            fen TEXT NOT NULL,
            moves TEXT NOT NULL,
            rating INTEGER NOT NULL,
            rating_deviation INTEGER NOT NULL,
            popularity INTEGER NOT NULL,
            plays INTEGER NOT NULL,
            themes TEXT NOT NULL,
            game_url TEXT NOT NULL,
            opening_tags TEXT NOT NULL
        );
        CREATE INDEX puzzles_by_rating ON puzzles(rating);
        CREATE TABLE puzzle_theme_names (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE
        );
        CREATE TABLE puzzle_themes (
            theme INTEGER NOT NULL,
            rating INTEGER NOT NULL,
            puzzle INTEGER NOT NULL
        );
        CREATE INDEX puzzle_themes_by_rating ON puzzle_themes(theme, rating, puzzle);",
    ),
    // Why each mistake was bad, as its drill says it; the games whose mistakes were kept
    // before are gone through once more to say it.
    M::up(
        "ALTER TABLE drills ADD COLUMN why TEXT NOT NULL DEFAULT '';
        INSERT OR IGNORE INTO drills_to_find SELECT DISTINCT game_id FROM drills;",
    ),
    // What kind of thing went wrong in each flagged move, for the statistics; the reviews
    // kept before are gone through once to say it.
    M::up(
        "ALTER TABLE verdicts ADD COLUMN kind TEXT NOT NULL DEFAULT '';
        INSERT OR IGNORE INTO drills_to_find SELECT DISTINCT game_id FROM verdicts;",
    ),
    // The game each Knightfall reviewing the whole library is on, until when (Unix seconds):
    // two of them at once review different games.
    M::up(
        "CREATE TABLE review_claims (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            holder TEXT NOT NULL,
            until INTEGER NOT NULL
        );",
    ),
    // A move with no concrete reason may now have a positional one, named in its drill and
    // counted in the statistics: the reviews with such moves are gone through once to say it.
    M::up(
        "INSERT OR IGNORE INTO drills_to_find SELECT DISTINCT game_id FROM verdicts
         WHERE kind = 'evaluation';",
    ),
    // Knightfall's own evaluations are judged on Stockfish's scale: its reviews kept before are
    // gone through once for their verdicts, accuracy and mistakes.
    M::up(
        "INSERT OR IGNORE INTO drills_to_find SELECT game_id FROM reviews
         WHERE origin = 'engine' AND engine LIKE 'Knightfall %';",
    ),
    // A piece lost for some play is named when the evaluation sees half of it, and a pawn is
    // weighed on the scale the verdict was: the reasons of every review kept before are said
    // again once, for the drills and the statistics.
    M::up("INSERT OR IGNORE INTO drills_to_find SELECT DISTINCT game_id FROM verdicts;"),
    // Passed pawns are read in two-rook endings, trades into a pawn ending are named, a piece
    // won past the eighth ply is seen, and a pinned piece traded off is no longer "won": the
    // reasons of every review kept before are said again once.
    M::up("INSERT OR IGNORE INTO drills_to_find SELECT DISTINCT game_id FROM verdicts;"),
];

/// How long a write waits for another Knightfall's to finish before it gives up.
const BUSY: Duration = Duration::from_secs(30);

/// An open library.
pub struct Library {
    conn: Connection,
}

/// A game as the library lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its number in the library.
    pub id: i64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// `YYYY.MM.DD`, as much as is known.
    pub date: String,
    /// The PGN `TimeControl` (`180+2`), or empty.
    pub time_control: String,
    /// Where it was played (a lichess or chess.com address, say), or empty.
    pub site: String,
    /// The ECO code and the opening's name, as the file gave them.
    pub opening: String,
    /// Moves by either side.
    pub plies: i64,
    /// How far its review went, if it was begun.
    pub review: Option<reviews::Status>,
}

impl Entry {
    /// One line for scripts: date, white, black, result, opening, time control, moves.
    pub fn line(&self) -> String {
        let tc = if self.time_control.is_empty() {
            "-"
        } else {
            &self.time_control
        };
        let opening = if self.opening.is_empty() {
            "-"
        } else {
            &self.opening
        };
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{} plies\t{}",
            self.date,
            self.white,
            self.black,
            self.result,
            opening,
            tc,
            self.plies,
            self.review
                .map_or_else(|| "unreviewed".to_string(), |s| s.words())
        )
    }
}

/// Puts the database in WAL mode (kept in the file): readers never wait for the writer, and a
/// crash loses no committed game. The switch takes the whole file and does not wait for a
/// busy one, as the other statements do: while another Knightfall makes the same new library,
/// it is tried again until that one is done.
fn wal(conn: &Connection) -> Result<()> {
    let start = std::time::Instant::now();
    loop {
        let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
        if mode.eq_ignore_ascii_case("wal") {
            return Ok(());
        }
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy && start.elapsed() < BUSY =>
            {
                std::thread::sleep(Duration::from_millis(20));
            }
            other => return Ok(other?),
        }
    }
}

impl Library {
    /// Opens the library at `path`, made and brought to the latest schema if need be.
    pub fn open(path: &Path) -> Result<Library> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot make {}", dir.display()))?;
        }
        let mut conn = Connection::open(path)
            .with_context(|| format!("cannot open the library {}", path.display()))?;
        conn.busy_timeout(BUSY)?;
        wal(&conn).with_context(|| format!("cannot open the library {}", path.display()))?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // A game removed takes its review with it.
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let migrations = Migrations::from_slice(MIGRATIONS);
        // Another Knightfall opening a new library at the same moment may take the schema up
        // first, and this one's step then fails on what that one made: a second try finds the
        // schema up to date.
        migrations
            .to_latest(&mut conn)
            .or_else(|_| migrations.to_latest(&mut conn))
            .with_context(|| format!("cannot bring the library {} up to date", path.display()))?;
        Ok(Library { conn })
    }

    /// How many games it holds.
    pub fn count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))?)
    }

    /// Every game, newest first.
    pub fn list(&self) -> Result<Vec<Entry>> {
        self.find(&filter::Filter::default())
    }

    /// The games `filter` takes, newest first.
    pub fn find(&self, filter: &filter::Filter) -> Result<Vec<Entry>> {
        let (clauses, values) = filter.sql();
        let mut stmt = self.conn.prepare(&format!(
            "SELECT g.id, g.white, g.black, g.result, g.date, g.time_control, g.site, g.eco,
                    g.opening, g.plies, r.origin, r.done, r.positions, r.accuracy_white,
                    r.accuracy_black
             FROM games g LEFT JOIN reviews r ON r.game_id = g.id{clauses}"
        ))?;
        let rows = stmt.query_map(rusqlite::params_from_iter(values), |r| {
            let eco: String = r.get(7)?;
            let name: String = r.get(8)?;
            Ok(Entry {
                id: r.get(0)?,
                white: r.get(1)?,
                black: r.get(2)?,
                result: r.get(3)?,
                date: r.get(4)?,
                time_control: r.get(5)?,
                site: r.get(6)?,
                opening: [eco, name]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
                plies: r.get(9)?,
                review: match r.get_ref(10)? {
                    rusqlite::types::ValueRef::Null => None,
                    _ => Some(reviews::status_at(r, 10)?),
                },
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// The PGN kept of game `id`, if there is one.
    pub fn pgn(&self, id: i64) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT pgn FROM games WHERE id = ?1", params![id], |r| {
                r.get(0)
            })
            .optional()?)
    }
}
