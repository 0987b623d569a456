//! Lichess's puzzle database in the library: imported from its CSV (plain or zstd) a row at a
//! time, so memory stays flat whatever the file's size, each puzzle checked (its FEN a legal
//! position, every move legal in turn; a bad row is refused with its line and why); a puzzle
//! already there is not added again. Found again by its id, by the rating nearest the
//! player's (of one theme, in a rating range), and written back in lichess's layout.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

use anyhow::{Context, Result, bail};
use rusqlite::{OptionalExtension, params};

use super::Library;
use super::import::{MAX_NAMED, Summary};
use crate::train::puzzle::{Filter, Lichess, Puzzle};

/// Puzzles written in one transaction: a crash loses at most these, and another Knightfall
/// waiting to write waits for no more. Large, because each transaction writes again every page
/// of the indexes it touches, and a larger one touches each page once for more rows.
const BATCH: usize = 100_000;

/// The page cache while importing, in KiB (as SQLite takes it, negative): the pages of the
/// indexes being filled stay in memory.
const IMPORT_CACHE_KIB: i64 = -16 * 1024;

/// SQLite's own page cache, in KiB (negative), for the rest of the time.
const DEFAULT_CACHE: i64 = -2000;

/// The indexes by rating, and how each is made: an import of many puzzles drops them and makes
/// them again at its end.
const INDEXES: [(&str, &str); 2] = [
    (
        "puzzles_by_rating",
        "CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles(rating)",
    ),
    (
        "puzzle_themes_by_rating",
        "CREATE INDEX IF NOT EXISTS puzzle_themes_by_rating
         ON puzzle_themes(theme, rating, puzzle)",
    ),
];

/// Lichess's columns, in the order its file (and `puzzles export --imported`) has them.
pub const COLUMNS: [&str; 10] = [
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
];

/// How many of [`COLUMNS`], from the first, a puzzle cannot be read without; the others are
/// taken as 0 or empty when a file has no such column.
const REQUIRED: usize = 4;

/// Where each of [`COLUMNS`] is in a row.
struct Layout([Option<usize>; 10]);

impl Layout {
    /// The layout the header `row` names (columns in any order, in any case, others ignored);
    /// `None` when `row` is no header.
    fn of_header(row: &csv::StringRecord) -> Option<Result<Layout, String>> {
        let find = |name: &str| row.iter().position(|h| h.trim().eq_ignore_ascii_case(name));
        find(COLUMNS[0])?;
        let at = COLUMNS.map(find);
        if let Some(missing) = (0..REQUIRED).find(|&i| at[i].is_none()) {
            return Some(Err(format!(
                "the header has no {} column (it has {}); lichess's puzzle database has {}",
                COLUMNS[missing],
                row.iter().collect::<Vec<_>>().join(","),
                COLUMNS.join(",")
            )));
        }
        Some(Ok(Layout(at)))
    }

    /// Lichess's own order, for a file without a header (as lichess's older ones came).
    fn lichess() -> Layout {
        Layout(std::array::from_fn(Some))
    }

    /// The fields of `row`, or why it is no puzzle.
    fn fields<'r>(&self, row: &'r csv::StringRecord) -> Result<Fields<'r>, String> {
        let text = |i: usize| -> Result<&'r str, String> {
            match self.0[i] {
                None => Ok(""),
                Some(at) => row.get(at).ok_or_else(|| {
                    format!(
                        "{} fields, and the {} column is field {}",
                        row.len(),
                        COLUMNS[i],
                        at + 1
                    )
                }),
            }
        };
        let number = |i: usize| -> Result<i64, String> {
            let field = text(i)?.trim();
            if field.is_empty() && i >= REQUIRED {
                return Ok(0);
            }
            field
                .parse()
                .map_err(|_| format!("{} {field:?} is not a number", COLUMNS[i]))
        };
        let small = |i: usize| -> Result<i32, String> {
            let n = number(i)?;
            i32::try_from(n).map_err(|_| format!("{} {n} is out of range", COLUMNS[i]))
        };
        let id = text(0)?.trim();
        if id.is_empty() {
            return Err("no PuzzleId".to_string());
        }
        Ok(Fields {
            id,
            fen: text(1)?,
            moves: text(2)?,
            rating: small(3)?,
            rating_deviation: small(4)?,
            popularity: small(5)?,
            plays: number(6)?,
            themes: text(7)?,
            game_url: text(8)?,
            opening_tags: text(9)?,
        })
    }
}

/// One row's fields.
struct Fields<'r> {
    id: &'r str,
    fen: &'r str,
    moves: &'r str,
    rating: i32,
    rating_deviation: i32,
    popularity: i32,
    plays: i64,
    themes: &'r str,
    game_url: &'r str,
    opening_tags: &'r str,
}

/// The columns a puzzle is read back from, in the order [`puzzle_of`] takes them.
const SELECTED: &str = "id, puzzle_id, fen, moves, rating, rating_deviation, popularity, plays, \
                        themes, game_url, opening_tags";

/// The puzzle of a row selected as [`SELECTED`], with its row number.
fn puzzle_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, Result<Puzzle, String>)> {
    let id: String = r.get(1)?;
    let fen: String = r.get(2)?;
    let moves: String = r.get(3)?;
    let lichess = Lichess {
        rating_deviation: r.get(5)?,
        popularity: r.get(6)?,
        plays: r.get(7)?,
        themes: r.get(8)?,
        game_url: r.get(9)?,
        opening_tags: r.get(10)?,
    };
    Ok((
        r.get(0)?,
        crate::train::puzzle::imported(&id, &fen, &moves, r.get(4)?, lichess),
    ))
}

/// A puzzle read from the library, with its row there.
#[derive(Clone, Debug)]
pub struct Stored {
    /// Its row in the `puzzles` table.
    pub row: i64,
    /// The puzzle.
    pub puzzle: Puzzle,
}

impl Library {
    /// Imports every puzzle of the file `file` (lichess's `lichess_db_puzzle.csv`, plain or
    /// zstd), adding to `summary`. `Err` when the file cannot be read or is not lichess's
    /// layout (a column a puzzle needs is missing); a bad row is only refused.
    pub fn import_puzzles(&mut self, file: &Path, summary: &mut Summary) -> Result<()> {
        let source = file.display().to_string();
        let mut stream = crate::store::stream::open(file)?;
        // A byte-order mark is not part of the first column's name.
        if stream
            .reader
            .fill_buf()
            .with_context(|| format!("cannot read {source}"))?
            .starts_with(b"\xef\xbb\xbf")
        {
            stream.reader.consume(3);
        }
        let bar = crate::store::stream::bar(stream.len, &source);
        // A file of many more puzzles than the library holds is imported without the indexes
        // by rating, which are made again at the end: sorting once is much faster than putting
        // every row in its place in turn.
        let rows_guess = stream.len / if stream.compressed { 50 } else { 200 };
        let bulk = self.puzzle_count()?.saturating_mul(2) < i64::try_from(rows_guess)?;
        let mut rows = Rows {
            reader: csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .buffer_capacity(1 << 16)
                .from_reader(stream.reader),
            row: csv::StringRecord::new(),
            source: source.clone(),
            read: stream.read.clone(),
            bar: bar.clone(),
            seen: 0,
        };
        self.conn
            .pragma_update(None, "cache_size", IMPORT_CACHE_KIB)?;
        let imported = match rows.layout()? {
            Some((layout, first)) => self.import_rows(&mut rows, &layout, first, bulk, summary),
            None => Ok(()),
        };
        if bulk {
            bar.set_position(stream.len);
            bar.set_message(format!("{source}: indexing"));
            // The time gone goes on while the indexes are sorted, saying it has not stopped.
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
        }
        // Made again even when the import failed half-way, so what it imported is found.
        let indexed = self.index_puzzles();
        bar.finish_and_clear();
        self.conn.pragma_update(None, "cache_size", DEFAULT_CACHE)?;
        imported.and(indexed)
    }

    /// Imports the rows after the header (`first` before them, from a file without one), in
    /// transactions of [`BATCH`]; the first drops the indexes by rating when `bulk`.
    fn import_rows(
        &mut self,
        rows: &mut Rows,
        layout: &Layout,
        mut first: Option<csv::StringRecord>,
        bulk: bool,
        summary: &mut Summary,
    ) -> Result<()> {
        let source = rows.source.clone();
        let mut themes = self.theme_ids()?;
        let mut drop_indexes = bulk;
        let mut done = false;
        while !done {
            // Immediate: the write lock is taken at the start, waiting for another writer, rather
            // than asked for mid-way, where SQLite refuses at once to avoid a deadlock.
            let tx = self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            if std::mem::take(&mut drop_indexes) {
                for (name, _) in INDEXES {
                    tx.execute_batch(&format!("DROP INDEX IF EXISTS {name}"))?;
                }
            }
            let mut insert = tx.prepare_cached(
                "INSERT OR IGNORE INTO puzzles
                 (puzzle_id, fen, moves, rating, rating_deviation, popularity, plays, themes,
                  game_url, opening_tags)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            let mut insert_theme = tx.prepare_cached(
                "INSERT INTO puzzle_themes (theme, rating, puzzle) VALUES (?1, ?2, ?3)",
            )?;
            let mut in_batch = 0;
            let mut theme_rows: Vec<(i64, i32, i64)> = Vec::new();
            while in_batch < BATCH {
                let held;
                let record = match first.take() {
                    Some(record) => {
                        held = record;
                        &held
                    }
                    None => match rows.next(summary) {
                        Some(record) => record,
                        None => {
                            done = true;
                            break;
                        }
                    },
                };
                in_batch += 1;
                let line = record.position().map_or(0, |p| p.line());
                let fields = match layout
                    .fields(record)
                    .and_then(|f| crate::train::puzzle::checked(f.id, f.fen, f.moves).map(|_| f))
                {
                    Ok(fields) => fields,
                    Err(why) => {
                        refuse(&source, summary, line, why);
                        continue;
                    }
                };
                let added = insert.execute(params![
                    fields.id,
                    fields.fen.trim(),
                    fields.moves.trim(),
                    fields.rating,
                    fields.rating_deviation,
                    fields.popularity,
                    fields.plays,
                    fields.themes.trim(),
                    fields.game_url.trim(),
                    fields.opening_tags.trim(),
                ])?;
                if added == 0 {
                    summary.already += 1;
                    continue;
                }
                summary.imported += 1;
                let puzzle = tx.last_insert_rowid();
                for name in fields.themes.split_whitespace() {
                    let theme = match themes.get(name) {
                        Some(&id) => id,
                        None => {
                            let id = theme_id_made(&tx, name)?;
                            themes.insert(name.to_string(), id);
                            id
                        }
                    };
                    theme_rows.push((theme, fields.rating, puzzle));
                }
            }
            // In the index's order: each of its pages is written once for many rows, and where
            // the index is made at the end, sorting runs already in order is quick.
            theme_rows.sort_unstable();
            theme_rows.dedup();
            for (theme, rating, puzzle) in theme_rows.drain(..) {
                insert_theme.execute(params![theme, rating, puzzle])?;
            }
            drop((insert, insert_theme));
            tx.commit()?;
        }
        Ok(())
    }

    /// Makes the indexes by rating where an import dropped them.
    fn index_puzzles(&mut self) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        for (_, make) in INDEXES {
            tx.execute_batch(make)?;
        }
        Ok(tx.commit()?)
    }

    /// Whether the imported puzzles can be looked up by rating: not while an import of many
    /// is under way, nor after one was stopped, until the next import makes the indexes again.
    pub fn puzzles_indexed(&self) -> Result<bool> {
        let mut found = 0;
        for (name, _) in INDEXES {
            found += self.conn.query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?1",
                params![name],
                |r| r.get::<_, i64>(0),
            )?;
        }
        Ok(found == INDEXES.len() as i64)
    }

    /// Every theme's number, by lichess's name.
    fn theme_ids(&self) -> Result<HashMap<String, i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT name, id FROM puzzle_theme_names")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The names of the themes the imported puzzles have (lichess's), in alphabetical order.
    pub fn puzzle_themes(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT name FROM puzzle_theme_names ORDER BY name")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The number of the theme named `name`, if a puzzle has it.
    fn theme_id(&self, name: &str) -> Result<Option<i64>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM puzzle_theme_names WHERE name = ?1")?
            .query_row(params![name], |r| r.get(0))
            .optional()?)
    }

    /// How many puzzles were imported.
    pub fn puzzle_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0))?)
    }

    /// How many imported puzzles `filter` lets through.
    pub fn puzzles_let_through(&self, filter: &Filter) -> Result<i64> {
        let (lo, hi) = filter.range.unwrap_or((i32::MIN, i32::MAX));
        Ok(match &filter.theme {
            None if filter.range.is_none() => self.puzzle_count()?,
            None => self.conn.query_row(
                "SELECT count(*) FROM puzzles WHERE rating BETWEEN ?1 AND ?2",
                params![lo, hi],
                |r| r.get(0),
            )?,
            Some(name) => match self.theme_id(name)? {
                None => 0,
                Some(theme) => self.conn.query_row(
                    "SELECT count(*) FROM puzzle_themes
                     WHERE theme = ?1 AND rating BETWEEN ?2 AND ?3",
                    params![theme, lo, hi],
                    |r| r.get(0),
                )?,
            },
        })
    }

    /// The imported puzzle with lichess's id `id`.
    pub fn puzzle_by_id(&self, id: &str) -> Result<Option<Stored>> {
        let found = self
            .conn
            .prepare_cached(&format!(
                "SELECT {SELECTED} FROM puzzles WHERE puzzle_id = ?1"
            ))?
            .query_row(params![id], puzzle_of)
            .optional()?;
        stored(found)
    }

    /// The imported puzzle in row `row`.
    pub fn puzzle_at(&self, row: i64) -> Result<Option<Stored>> {
        let found = self
            .conn
            .prepare_cached(&format!("SELECT {SELECTED} FROM puzzles WHERE id = ?1"))?
            .query_row(params![row], puzzle_of)
            .optional()?;
        stored(found)
    }

    /// The row of the imported puzzle with lichess's id `id`, if there is one.
    pub fn puzzle_row(&self, id: &str) -> Result<Option<i64>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM puzzles WHERE puzzle_id = ?1")?
            .query_row(params![id], |r| r.get(0))
            .optional()?)
    }

    /// The imported puzzle `filter` lets through whose rating is nearest `rating`, of those
    /// whose row `take` takes: the index is walked outwards from `rating`, above and below in
    /// turn, so each puzzle passed over costs one step.
    pub fn nearest_puzzle(
        &self,
        filter: &Filter,
        rating: i32,
        mut take: impl FnMut(i64) -> bool,
    ) -> Result<Option<Stored>> {
        let (lo, hi) = filter.range.unwrap_or((i32::MIN, i32::MAX));
        let theme = match &filter.theme {
            None => None,
            Some(name) => match self.theme_id(name)? {
                Some(id) => Some(id),
                None => return Ok(None),
            },
        };
        let (up_sql, down_sql) = match theme {
            Some(_) => (
                "SELECT rating, puzzle FROM puzzle_themes
                 WHERE theme = ?3 AND rating BETWEEN ?1 AND ?2 ORDER BY rating, puzzle",
                "SELECT rating, puzzle FROM puzzle_themes
                 WHERE theme = ?3 AND rating BETWEEN ?1 AND ?2
                 ORDER BY rating DESC, puzzle DESC",
            ),
            None => (
                "SELECT rating, id FROM puzzles
                 WHERE rating BETWEEN ?1 AND ?2 AND ?3 IS NULL ORDER BY rating, id",
                "SELECT rating, id FROM puzzles
                 WHERE rating BETWEEN ?1 AND ?2 AND ?3 IS NULL ORDER BY rating DESC, id DESC",
            ),
        };
        let mut up_stmt = self.conn.prepare_cached(up_sql)?;
        let mut down_stmt = self.conn.prepare_cached(down_sql)?;
        let mut up = up_stmt.query(params![rating.max(lo), hi, theme])?;
        let mut down = down_stmt.query(params![lo, rating.saturating_sub(1).min(hi), theme])?;
        let next = |rows: &mut rusqlite::Rows<'_>| -> rusqlite::Result<Option<(i32, i64)>> {
            rows.next()?.map(|r| Ok((r.get(0)?, r.get(1)?))).transpose()
        };
        let (mut above, mut below) = (next(&mut up)?, next(&mut down)?);
        let found = loop {
            let from_above = match (above, below) {
                (None, None) => break None,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some((a, _)), Some((b, _))) => a - rating <= rating - b,
            };
            let (_, row) = if from_above {
                std::mem::replace(&mut above, next(&mut up)?)
            } else {
                std::mem::replace(&mut below, next(&mut down)?)
            }
            .unwrap_or_default();
            if take(row) {
                break Some(row);
            }
        };
        drop((up, down));
        match found {
            Some(row) => self.puzzle_at(row),
            None => Ok(None),
        }
    }

    /// Writes every imported puzzle `filter` lets through as lichess's CSV ([`COLUMNS`],
    /// with the header), in the order they were imported, handing `out` the text a part at a
    /// time; the number written.
    pub fn export_puzzles(
        &self,
        filter: &Filter,
        mut out: impl FnMut(&str) -> Result<()>,
    ) -> Result<u64> {
        let (lo, hi) = filter.range.unwrap_or((i32::MIN, i32::MAX));
        let mut stmt = self.conn.prepare(
            "SELECT puzzle_id, fen, moves, rating, rating_deviation, popularity, plays, themes,
                    game_url, opening_tags
             FROM puzzles
             WHERE rating BETWEEN ?1 AND ?2
               AND (?3 IS NULL OR instr(' ' || themes || ' ', ' ' || ?3 || ' ') > 0)
             ORDER BY id",
        )?;
        let mut rows = stmt.query(params![lo, hi, filter.theme])?;
        let mut text = COLUMNS.join(",");
        text.push('\n');
        let mut written = 0;
        while let Some(r) = rows.next()? {
            for i in 0..COLUMNS.len() {
                if i > 0 {
                    text.push(',');
                }
                match r.get_ref(i)? {
                    rusqlite::types::ValueRef::Integer(n) => text.push_str(&n.to_string()),
                    value => csv_field(&mut text, value.as_str()?),
                }
            }
            text.push('\n');
            written += 1;
            if text.len() >= 1 << 16 {
                out(&text)?;
                text.clear();
            }
        }
        out(&text)?;
        Ok(written)
    }
}

/// The rows of a puzzle file, read one at a time, with the refusals counted and the progress
/// bar moved on.
struct Rows {
    reader: csv::Reader<Box<dyn BufRead + Send>>,
    row: csv::StringRecord,
    source: String,
    read: std::sync::Arc<std::sync::atomic::AtomicU64>,
    bar: indicatif::ProgressBar,
    seen: u64,
}

/// Counts a refused row of the file `source`, naming the first ones.
fn refuse(source: &str, summary: &mut Summary, line: u64, why: String) {
    summary.refused += 1;
    if summary.named.len() < MAX_NAMED {
        summary.named.push(format!("{source} line {line}: {why}"));
    }
}

impl Rows {
    /// The next row with something in it, or `None` at the end (or where the file stops being
    /// CSV, refused).
    fn next(&mut self, summary: &mut Summary) -> Option<&csv::StringRecord> {
        loop {
            self.seen += 1;
            if self.seen.is_multiple_of(4096) {
                self.bar
                    .set_position(self.read.load(std::sync::atomic::Ordering::Relaxed));
            }
            match self.reader.read_record(&mut self.row) {
                Ok(true) if self.row.iter().all(|f| f.trim().is_empty()) => continue,
                Ok(true) => return Some(&self.row),
                Ok(false) => return None,
                Err(e) => {
                    let line = e.position().map_or(0, |p| p.line());
                    refuse(
                        &self.source,
                        summary,
                        line,
                        format!("cannot be read as CSV: {e}"),
                    );
                    // A reader that failed elsewhere than in a field's text is at no known
                    // place: nothing after it is trusted.
                    if !matches!(e.kind(), csv::ErrorKind::Utf8 { .. }) {
                        return None;
                    }
                }
            }
        }
    }

    /// The columns, from the header; or lichess's own order from a file without one (as its
    /// older files came), with that file's first row. `None` for an empty file.
    fn layout(&mut self) -> Result<Option<(Layout, Option<csv::StringRecord>)>> {
        let source = self.source.clone();
        let row = loop {
            match self.reader.read_record(&mut self.row) {
                Ok(true) if self.row.iter().all(|f| f.trim().is_empty()) => continue,
                Ok(true) => break &self.row,
                Ok(false) => return Ok(None),
                Err(e) => bail!("{source} cannot be read as CSV: {e}"),
            }
        };
        match Layout::of_header(row) {
            Some(Ok(layout)) => Ok(Some((layout, None))),
            Some(Err(why)) => bail!("{source} is not lichess's puzzle database: {why}"),
            None if row.len() >= 9 => Ok(Some((Layout::lichess(), Some(row.clone())))),
            None => bail!(
                "{source} is not lichess's puzzle database: its first line names no PuzzleId \
                 column ({})",
                COLUMNS.join(",")
            ),
        }
    }
}

/// The puzzle found, or the error of one that no longer reads (the library was written by
/// another version that took it).
fn stored(found: Option<(i64, Result<Puzzle, String>)>) -> Result<Option<Stored>> {
    match found {
        None => Ok(None),
        Some((row, Ok(puzzle))) => Ok(Some(Stored { row, puzzle })),
        Some((_, Err(why))) => bail!("an imported puzzle cannot be read: {why}"),
    }
}

/// The number of the theme `name`, numbered now if it is new.
fn theme_id_made(tx: &rusqlite::Transaction<'_>, name: &str) -> Result<i64> {
    tx.prepare_cached("INSERT OR IGNORE INTO puzzle_theme_names (name) VALUES (?1)")?
        .execute(params![name])?;
    Ok(tx
        .prepare_cached("SELECT id FROM puzzle_theme_names WHERE name = ?1")?
        .query_row(params![name], |r| r.get(0))?)
}

/// Appends `field` to `text` as a CSV field: quoted when it holds a comma, a quote or a line
/// break.
fn csv_field(text: &mut String, field: &str) {
    if field.contains([',', '"', '\n', '\r']) {
        text.push('"');
        text.push_str(&field.replace('"', "\"\""));
        text.push('"');
    } else {
        text.push_str(field);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,\
                          GameUrl,OpeningTags,DailyDate";

    /// A row of lichess's file: a mate in 2, under another id, rating and themes.
    fn row(id: &str, rating: i32, themes: &str) -> String {
        format!(
            "{id},r1b1rbk1/2qn1ppp/pp1ppn2/6N1/2PP1B2/3B1N2/PPQ2PPP/3R1RK1 b - - 2 14,\
             h7h6 d3h7 f6h7 c2h7,{rating},77,100,218,{themes},https://lichess.org/x#28,,\n"
        )
    }

    /// A library in `dir` with the puzzles of `text` imported, and what the import said.
    fn imported(dir: &Path, text: &str) -> (Library, Summary) {
        let file = dir.join("puzzles.csv");
        std::fs::write(&file, text).unwrap();
        let mut library = Library::open(&dir.join("library.sqlite")).unwrap();
        let mut summary = Summary::default();
        library.import_puzzles(&file, &mut summary).unwrap();
        (library, summary)
    }

    #[test]
    fn the_nearest_puzzle_is_found_above_or_below_within_the_filter() {
        let dir = tempfile::tempdir().unwrap();
        let text = [
            HEADER.to_string() + "\n",
            row("a", 1000, "fork"),
            row("b", 1400, "fork short"),
            row("c", 1550, "short"),
            row("d", 1700, "fork"),
            row("e", 2000, "mate"),
        ]
        .concat();
        let (library, summary) = imported(dir.path(), &text);
        assert_eq!(summary.imported, 5);
        let nearest = |theme: Option<&str>, range, rating, skip: &[&str]| {
            let skip: Vec<i64> = skip
                .iter()
                .map(|id| library.puzzle_row(id).unwrap().unwrap())
                .collect();
            let filter = Filter {
                theme: theme.map(str::to_string),
                range,
            };
            library
                .nearest_puzzle(&filter, rating, |row| !skip.contains(&row))
                .unwrap()
                .map(|s| s.puzzle.id)
        };
        let id = |s: &str| Some(s.to_string());
        assert_eq!(nearest(None, None, 1500, &[]), id("c"));
        assert_eq!(nearest(None, None, 1500, &["c"]), id("b"));
        assert_eq!(nearest(None, None, 1500, &["c", "b"]), id("d"));
        assert_eq!(nearest(None, None, 3000, &[]), id("e"));
        assert_eq!(nearest(None, None, 0, &[]), id("a"));
        assert_eq!(nearest(Some("fork"), None, 1500, &[]), id("b"));
        assert_eq!(nearest(Some("fork"), None, 1500, &["b"]), id("d"));
        assert_eq!(
            nearest(Some("fork"), Some((1600, 2100)), 1500, &[]),
            id("d")
        );
        assert_eq!(nearest(None, Some((1600, 2100)), 2500, &[]), id("e"));
        assert_eq!(nearest(Some("pin"), None, 1500, &[]), None);
        assert_eq!(nearest(None, Some((1100, 1300)), 1500, &[]), None);
        let all = ["a", "b", "c", "d", "e"];
        assert_eq!(nearest(None, None, 1500, &all), None);
        let fork = Filter {
            theme: Some("fork".to_string()),
            range: Some((1000, 1500)),
        };
        assert_eq!(library.puzzles_let_through(&fork).unwrap(), 2);
        assert_eq!(library.puzzles_let_through(&Filter::default()).unwrap(), 5);
        let p = library.puzzle_by_id("b").unwrap().unwrap().puzzle;
        assert_eq!(p.rating, 1400);
        let lichess = p.lichess.unwrap();
        assert_eq!((lichess.popularity, lichess.plays), (100, 218));
        assert_eq!(lichess.themes, "fork short");
    }

    #[test]
    fn an_import_stopped_without_its_indexes_is_finished_by_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let text = format!("{HEADER}\n{}", row("a", 1000, "fork"));
        let (library, _) = imported(dir.path(), &text);
        assert!(library.puzzles_indexed().unwrap());
        // As an import of many leaves it when it is killed before its end.
        library
            .conn
            .execute_batch("DROP INDEX puzzles_by_rating")
            .unwrap();
        assert!(!library.puzzles_indexed().unwrap());
        drop(library);
        let (library, summary) = imported(dir.path(), &text);
        assert_eq!((summary.imported, summary.already), (0, 1));
        assert!(library.puzzles_indexed().unwrap());
    }

    #[test]
    fn rows_without_a_header_are_read_in_lichess_order_and_bad_fields_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let text = [
            row("a", 1000, "fork"),
            row("b", 1400, "fork").replace(",77,", ",wide,"),
            row("c", 1400, "fork").replace("h7h6 d3h7", "h7h6 d3h8"),
        ]
        .concat();
        let (library, summary) = imported(dir.path(), &text);
        assert_eq!((summary.imported, summary.refused), (1, 2));
        assert!(
            summary.named[0].ends_with("line 2: RatingDeviation \"wide\" is not a number"),
            "{:?}",
            summary.named
        );
        assert!(
            summary.named[1].ends_with("line 3: puzzle c: d3h8 is not a legal move"),
            "{:?}",
            summary.named
        );
        assert!(library.puzzle_by_id("a").unwrap().is_some());
    }

    #[test]
    fn a_field_with_a_comma_or_a_quote_is_quoted() {
        let mut text = String::new();
        csv_field(&mut text, "plain");
        text.push(',');
        csv_field(&mut text, "a,b \"c\"");
        assert_eq!(text, "plain,\"a,b \"\"c\"\"\"");
    }
}
