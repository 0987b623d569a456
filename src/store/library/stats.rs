//! A player's statistics from the library, counted by SQLite: their games are picked out once
//! into a table of the connection's own (the side they had, the points they scored, their
//! moves, their accuracy and mistakes when the review is complete), and each figure is one
//! query over it; no game is replayed. A game counts when it was finished (won, drawn or lost);
//! accuracy and mistakes come from complete reviews alone, so that every reviewed game weighs
//! the same.

use std::collections::BTreeMap;

use anyhow::Result;
use rusqlite::params;

use super::Library;
use crate::review::phase::Phase;
use crate::review::why::Kind;
use crate::store::Paths;
use crate::train::mistake::is_you;

/// The best and worst games listed, each.
pub const GAMES_LISTED: usize = 5;

/// What the accuracy and mistakes need.
pub const NO_REVIEWS: &str = "No reviewed games yet: accuracy and mistakes come from the \
                              reviews of your games.";

/// Games won, drawn and lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

impl Record {
    /// Games in all.
    pub fn games(&self) -> i64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored, in percent of the games (a draw half a point); `None` without a game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) * 100.0 / games as f64)
    }

    /// Losses, in percent of the games.
    pub fn lost(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.losses as f64 * 100.0 / games as f64)
    }

    fn add(&mut self, other: Record) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// An opening (its family: the name before the variation) and how the player fared in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The family's name (`Sicilian Defense`), the ECO code when the games named none, or
    /// empty when they gave neither.
    pub name: String,
    /// The ECO codes of its games: `B20`, or the range `B20-B99`; empty when none was given.
    pub eco: String,
    /// The player's results in it.
    pub record: Record,
}

impl Opening {
    /// Its name, or a word for none.
    pub fn title(&self) -> &str {
        if self.name.is_empty() {
            "(not named)"
        } else {
            &self.name
        }
    }
}

/// A reviewed game's accuracy, in the order of the games' dates.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The game's number in the library.
    pub id: i64,
    /// Its date, `YYYY.MM.DD`.
    pub date: String,
    /// The player's accuracy in it.
    pub accuracy: f64,
    /// The mean accuracy of this game and the ones before it in the window.
    pub average: f64,
}

/// A month's reviewed games.
#[derive(Clone, Debug, PartialEq)]
pub struct Month {
    /// `YYYY.MM`, or `????.??` for games without a date.
    pub month: String,
    /// Reviewed games played in it.
    pub games: i64,
    /// The player's mean accuracy in them.
    pub accuracy: f64,
}

/// The player's flagged moves in their reviewed games, by phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phases {
    /// Games whose review is complete.
    pub games: i64,
    /// The player's moves in them.
    pub moves: i64,
    /// Per phase (opening, middlegame, endgame): inaccuracies, mistakes and blunders.
    pub counts: [[i64; 3]; 3],
}

impl Phases {
    /// Mistakes and blunders in `phase`.
    pub fn errors(&self, phase: Phase) -> i64 {
        let [_, mistakes, blunders] = self.counts[phase as usize];
        mistakes + blunders
    }

    /// Mistakes and blunders in `phase` per reviewed game.
    pub fn per_game(&self, phase: Phase) -> Option<f64> {
        (self.games > 0).then(|| self.errors(phase) as f64 / self.games as f64)
    }
}

/// How fast a game was played, by lichess's estimate of its length: the base time and forty
/// times the increment, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Speed {
    /// Under 3 minutes.
    Bullet,
    /// Under 8.
    Blitz,
    /// Under 25.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// A day or more a move (chess.com's daily games).
    Correspondence,
    /// No time control given, or one not understood.
    Unknown,
}

/// Seconds a move at which a game is correspondence.
const CORRESPONDENCE: f64 = 86_400.0;

impl Speed {
    /// The speed of the PGN `TimeControl` `tc`: `180+2`, `600`, `40/5400+30`, `1/86400`.
    pub fn of(tc: &str) -> Speed {
        let tc = tc.trim();
        // Of a time control in periods (`40/5400:1800`), the first.
        let first = tc.split(':').next().unwrap_or_default();
        let (period, increment) = match first.split_once('+') {
            Some((period, inc)) => (period, inc.parse::<f64>().ok()),
            None => (first, Some(0.0)),
        };
        let (moves, base) = match period.split_once('/') {
            Some((moves, base)) => (moves.parse::<f64>().ok(), base.parse::<f64>().ok()),
            None => (Some(0.0), period.parse::<f64>().ok()),
        };
        let (Some(moves), Some(base), Some(increment)) = (moves, base, increment) else {
            return Speed::Unknown;
        };
        if !(base.is_finite() && increment.is_finite()) || base < 0.0 || increment < 0.0 {
            return Speed::Unknown;
        }
        if moves > 0.0 && base / moves >= CORRESPONDENCE {
            return Speed::Correspondence;
        }
        match base + 40.0 * increment {
            s if s < 180.0 => Speed::Bullet,
            s if s < 480.0 => Speed::Blitz,
            s if s < 1500.0 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
            Speed::Unknown => "unknown",
        }
    }
}

/// The player's games at one speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AtSpeed {
    /// The speed.
    pub speed: Speed,
    /// The results.
    pub record: Record,
    /// Games whose review is complete.
    pub reviewed: i64,
    /// The player's moves in them.
    pub moves: i64,
    /// The player's mistakes and blunders in them.
    pub errors: i64,
    /// The player's mean accuracy in them.
    pub accuracy: Option<f64>,
}

impl AtSpeed {
    /// Mistakes and blunders per hundred of the player's moves, in the reviewed games.
    pub fn per_100_moves(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.errors as f64 * 100.0 / self.moves as f64)
    }

    /// Mistakes and blunders per reviewed game.
    pub fn per_game(&self) -> Option<f64> {
        (self.reviewed > 0).then(|| self.errors as f64 / self.reviewed as f64)
    }
}

/// One of the player's reviewed games, as the best and the worst are listed.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Its number in the library.
    pub id: i64,
    /// Its date.
    pub date: String,
    /// Whether the player had White.
    pub white: bool,
    /// The other player's name.
    pub opponent: String,
    /// The player's points: 1, ½ or 0.
    pub points: f64,
    /// The player's accuracy.
    pub accuracy: f64,
    /// The ECO code and the opening's name.
    pub opening: String,
}

impl Played {
    /// `won`, `drew` or `lost`.
    pub fn outcome(&self) -> &'static str {
        if self.points >= 1.0 {
            "won"
        } else if self.points > 0.0 {
            "drew"
        } else {
            "lost"
        }
    }
}

/// Everything the statistics show of a player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// The names the player's games were found under.
    pub names: Vec<String>,
    /// With White, with Black.
    pub colours: [Record; 2],
    /// Each opening, the most played first.
    pub openings: Vec<Opening>,
    /// Each reviewed game's accuracy, by date.
    pub accuracy: Vec<Point>,
    /// The games [`Point::average`] is the mean of.
    pub window: usize,
    /// The reviewed games' accuracy, month by month.
    pub months: Vec<Month>,
    /// Flagged moves by phase.
    pub phases: Phases,
    /// The player's mistakes and blunders by what went wrong, the most first (those whose
    /// kind no review said left out).
    pub kinds: Vec<(Kind, i64)>,
    /// By speed, bullet first, the unknown last; only the speeds played.
    pub speeds: Vec<AtSpeed>,
    /// The reviewed games of highest accuracy, the best first.
    pub best: Vec<Played>,
    /// Those of lowest accuracy, the worst first.
    pub worst: Vec<Played>,
}

impl Stats {
    /// Both colours' results together.
    pub fn record(&self) -> Record {
        let mut all = self.colours[0];
        all.add(self.colours[1]);
        all
    }

    /// Finished games of the player.
    pub fn games(&self) -> i64 {
        self.record().games()
    }

    /// The accuracy's way: the mean of every reviewed game, and of the latest against the
    /// ones before them.
    pub fn trend(&self) -> String {
        let all = &self.accuracy;
        let mean = |points: &[Point]| {
            points.iter().map(|p| p.accuracy).sum::<f64>() / points.len().max(1) as f64
        };
        let n = self.window.min(all.len() / 2);
        let mut text = format!("mean {:.1} over {} games", mean(all), all.len());
        // Fewer games than three and three are no way to speak of.
        if n >= 3 {
            let last = &all[all.len() - n..];
            let before = &all[all.len() - 2 * n..all.len() - n];
            text.push_str(&format!(
                "; the last {n}: {:.1}, the {n} before: {:.1}",
                mean(last),
                mean(before)
            ));
        }
        text
    }

    /// The openings where the player loses most: by the share of games lost, of those played
    /// at least a few times (once, in a library too small for that), at most `n`, with a loss.
    pub fn losing(&self, n: usize) -> Vec<&Opening> {
        let least = if self.openings.iter().any(|o| o.record.games() >= 3) {
            3
        } else {
            1
        };
        let mut losing: Vec<&Opening> = self
            .openings
            .iter()
            .filter(|o| o.record.games() >= least && o.record.losses > 0)
            .collect();
        losing.sort_by(|a, b| {
            let share = |o: &Opening| o.record.losses * 1_000_000 / o.record.games().max(1);
            share(b)
                .cmp(&share(a))
                .then(b.record.losses.cmp(&a.record.losses))
        });
        losing.truncate(n);
        losing
    }
}

/// The statistics of the player named `player`, or else of the names the settings give (and
/// of the person in Knightfall's own games, see [`is_you`]); the games folder's finished games
/// are brought into the library first.
pub fn load(paths: &Paths, player: Option<&str>) -> Result<Stats> {
    let mut library = Library::open(&paths.library())?;
    library.index_folder(paths)?;
    library.find_drills()?;
    let yours = yours(paths, player);
    let names = library.names(|name| is_you(name, &yours))?;
    library.stats(&names)
}

/// The names that are the player: `player`, or those the settings give.
fn yours(paths: &Paths, player: Option<&str>) -> Vec<String> {
    match player {
        Some(name) => vec![name.to_string()],
        None => crate::store::config::load_settings(paths)
            .map(|s| s.yours())
            .unwrap_or_default(),
    }
}

/// What to say when [`load`] found no finished game of the player: whose games were looked
/// for, and how to bring them in.
pub fn none(paths: &Paths, player: Option<&str>) -> String {
    let yours: Vec<String> = yours(paths, player)
        .iter()
        .map(|y| y.trim().to_string())
        .filter(|y| !y.is_empty())
        .collect();
    let whose = if yours.is_empty() {
        "No finished games of yours in the library, and no name of yours set".to_string()
    } else {
        format!("No finished games of {} in the library", yours.join(", "))
    };
    format!(
        "{whose}. Import your games with `knightfall games import FILE.pgn` (lichess's and \
         chess.com's exports), and set your name as you play there in the settings, or give \
         it: `knightfall stats --player NAME`."
    )
}

/// The table of the player's games, made by [`Library::stats`] on its connection.
const PICK: &str = "
    DROP TABLE IF EXISTS temp.stats_games;
    CREATE TEMP TABLE stats_games AS
    SELECT s.*,
        CASE WHEN s.reviewed THEN
            (SELECT count(*) FROM verdicts v
             WHERE v.game_id = s.id AND v.white = s.white AND v.judgement >= 1)
        ELSE 0 END AS errors
    FROM (
        SELECT g.id, g.date, g.time_control AS tc,
            g.white IN temp.stats_names AS white,
            CASE WHEN g.white IN temp.stats_names THEN g.black ELSE g.white END AS opponent,
            CASE g.result
                WHEN '1/2-1/2' THEN 0.5
                WHEN '1-0' THEN (g.white IN temp.stats_names)
                ELSE (g.white NOT IN temp.stats_names)
            END AS points,
            CASE WHEN g.white IN temp.stats_names THEN (g.plies + 1) / 2 ELSE g.plies / 2 END
                AS moves,
            g.eco,
            CASE
                WHEN g.opening = '' THEN g.eco
                WHEN instr(g.opening, ':') > 0 THEN substr(g.opening, 1, instr(g.opening, ':') - 1)
                ELSE g.opening
            END AS family,
            trim(g.eco || ' ' || g.opening) AS opening,
            coalesce(r.done >= r.positions, 0) AS reviewed,
            CASE WHEN r.done >= r.positions THEN
                CASE WHEN g.white IN temp.stats_names THEN r.accuracy_white
                     ELSE r.accuracy_black END
            END AS accuracy
        FROM main.games g LEFT JOIN main.reviews r ON r.game_id = g.id
        WHERE (g.white IN temp.stats_names OR g.black IN temp.stats_names)
          AND g.result IN ('1-0', '0-1', '1/2-1/2')
    ) s;";

/// The games in order of their dates, those without a date first.
const BY_DATE: &str = "date GLOB '[0-9][0-9][0-9][0-9]*', date, id";

impl Library {
    /// The names of the library's players that `yours` accepts, each once.
    pub fn names(&self, yours: impl Fn(&str) -> bool) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT white FROM games UNION SELECT black FROM games")?;
        let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let mut mine = Vec::new();
        for name in names {
            let name = name?;
            if yours(&name) {
                mine.push(name);
            }
        }
        Ok(mine)
    }

    /// The statistics of the player who played under `names`.
    pub fn stats(&self, names: &[String]) -> Result<Stats> {
        self.conn.execute_batch(
            "PRAGMA temp_store = MEMORY;
             CREATE TEMP TABLE IF NOT EXISTS stats_names (name TEXT PRIMARY KEY);
             DELETE FROM temp.stats_names;",
        )?;
        {
            let mut insert = self
                .conn
                .prepare("INSERT OR IGNORE INTO temp.stats_names VALUES (?1)")?;
            for name in names {
                insert.execute(params![name])?;
            }
        }
        self.conn.execute_batch(PICK)?;
        let mut stats = Stats {
            names: names.to_vec(),
            colours: self.colours()?,
            openings: self.openings()?,
            months: self.months()?,
            phases: self.phases()?,
            kinds: self.kinds()?,
            speeds: self.speeds()?,
            ..Stats::default()
        };
        (stats.accuracy, stats.window) = self.accuracy()?;
        let reviewed = stats.accuracy.len();
        // Fewer games than both lists would take are shared between them, none in both.
        stats.best = self.extremes("DESC", GAMES_LISTED.min(reviewed.div_ceil(2)))?;
        stats.worst = self.extremes("ASC", GAMES_LISTED.min(reviewed / 2))?;
        self.conn
            .execute_batch("DROP TABLE IF EXISTS temp.stats_games;")?;
        Ok(stats)
    }

    fn colours(&self) -> Result<[Record; 2]> {
        let mut colours = [Record::default(); 2];
        let mut stmt = self.conn.prepare(
            "SELECT white, sum(points = 1), sum(points = 0.5), sum(points = 0)
             FROM temp.stats_games GROUP BY white",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, bool>(0)?, record_at(r, 1)?)))?;
        for row in rows {
            let (white, record) = row?;
            colours[usize::from(!white)] = record;
        }
        Ok(colours)
    }

    fn openings(&self) -> Result<Vec<Opening>> {
        let mut stmt = self.conn.prepare(
            "SELECT family, coalesce(min(nullif(eco, '')), ''), coalesce(max(nullif(eco, '')), ''),
                    sum(points = 1), sum(points = 0.5), sum(points = 0)
             FROM temp.stats_games GROUP BY family ORDER BY count(*) DESC, family",
        )?;
        let rows = stmt.query_map([], |r| {
            let (low, high): (String, String) = (r.get(1)?, r.get(2)?);
            Ok(Opening {
                name: r.get(0)?,
                eco: if low == high {
                    low
                } else {
                    format!("{low}-{high}")
                },
                record: record_at(r, 3)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Each reviewed game's accuracy by date, with the mean of a window that grows with the
    /// games (a tenth of them, from 5 to 100), and that window.
    fn accuracy(&self) -> Result<(Vec<Point>, usize)> {
        let reviewed: i64 =
            self.conn
                .query_row("SELECT count(accuracy) FROM temp.stats_games", [], |r| {
                    r.get(0)
                })?;
        let window = (reviewed as usize / 10).clamp(5, 100);
        // The window is a number of ours, not the player's: written into the statement, where
        // SQLite wants a constant.
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, date, accuracy,
                    avg(accuracy) OVER (ORDER BY {BY_DATE}
                                        ROWS BETWEEN {} PRECEDING AND CURRENT ROW)
             FROM temp.stats_games WHERE accuracy IS NOT NULL ORDER BY {BY_DATE}",
            window - 1
        ))?;
        let rows = stmt.query_map([], |r| {
            Ok(Point {
                id: r.get(0)?,
                date: r.get(1)?,
                accuracy: r.get(2)?,
                average: r.get(3)?,
            })
        })?;
        Ok((rows.collect::<Result<Vec<_>, _>>()?, window))
    }

    fn months(&self) -> Result<Vec<Month>> {
        let mut stmt = self.conn.prepare(
            "SELECT substr(date, 1, 7) AS month, count(*), avg(accuracy)
             FROM temp.stats_games WHERE accuracy IS NOT NULL
             GROUP BY month ORDER BY month GLOB '[0-9]*', month",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(Month {
                month: r.get(0)?,
                games: r.get(1)?,
                accuracy: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn kinds(&self) -> Result<Vec<(Kind, i64)>> {
        let mut stmt = self.conn.prepare(
            "SELECT v.kind, count(*)
             FROM temp.stats_games s JOIN main.verdicts v
                 ON v.game_id = s.id AND v.white = s.white
             WHERE s.reviewed AND v.judgement >= 1 GROUP BY v.kind",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
        let mut kinds = Vec::new();
        for row in rows {
            let (name, count) = row?;
            if let Some(kind) = Kind::from_name(&name) {
                kinds.push((kind, count));
            }
        }
        kinds.sort_by_key(|&(kind, count)| (std::cmp::Reverse(count), kind.name()));
        Ok(kinds)
    }

    fn phases(&self) -> Result<Phases> {
        let (games, moves) = self.conn.query_row(
            "SELECT count(*), coalesce(sum(moves), 0) FROM temp.stats_games WHERE reviewed",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let mut phases = Phases {
            games,
            moves,
            counts: [[0; 3]; 3],
        };
        let mut stmt = self.conn.prepare(
            "SELECT v.phase, v.judgement, count(*)
             FROM temp.stats_games s JOIN main.verdicts v
                 ON v.game_id = s.id AND v.white = s.white
             WHERE s.reviewed GROUP BY v.phase, v.judgement",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (phase, judgement, count) = row?;
            if let (Some(phase), Ok(j @ 0..=2)) =
                (Phase::from_word(&phase), usize::try_from(judgement))
            {
                phases.counts[phase as usize][j] += count;
            }
        }
        Ok(phases)
    }

    /// By speed: the games are counted by their time control in the database, and the few
    /// time controls put together by speed here.
    fn speeds(&self) -> Result<Vec<AtSpeed>> {
        let mut stmt = self.conn.prepare(
            "SELECT tc, sum(points = 1), sum(points = 0.5), sum(points = 0), sum(reviewed),
                    sum(moves * reviewed), sum(errors), coalesce(sum(accuracy), 0),
                    count(accuracy)
             FROM temp.stats_games GROUP BY tc",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                Speed::of(&r.get::<_, String>(0)?),
                record_at(r, 1)?,
                [r.get::<_, i64>(4)?, r.get(5)?, r.get(6)?],
                (r.get::<_, f64>(7)?, r.get::<_, i64>(8)?),
            ))
        })?;
        // Per speed: the record so far, and the sum and count of the accuracies.
        let mut speeds: BTreeMap<Speed, (AtSpeed, f64, i64)> = BTreeMap::new();
        for row in rows {
            let (speed, record, [reviewed, moves, errors], (sum, count)) = row?;
            let at = speeds.entry(speed).or_insert((
                AtSpeed {
                    speed,
                    record: Record::default(),
                    reviewed: 0,
                    moves: 0,
                    errors: 0,
                    accuracy: None,
                },
                0.0,
                0,
            ));
            at.0.record.add(record);
            at.0.reviewed += reviewed;
            at.0.moves += moves;
            at.0.errors += errors;
            at.1 += sum;
            at.2 += count;
        }
        Ok(speeds
            .into_values()
            .map(|(mut at, sum, count)| {
                at.accuracy = (count > 0).then(|| sum / count as f64);
                at
            })
            .collect())
    }

    /// The `n` reviewed games of highest (`DESC`) or lowest (`ASC`) accuracy.
    fn extremes(&self, order: &str, n: usize) -> Result<Vec<Played>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, date, white, opponent, points, accuracy, opening
             FROM temp.stats_games WHERE accuracy IS NOT NULL
             ORDER BY accuracy {order}, date DESC, id DESC LIMIT ?1"
        ))?;
        let rows = stmt.query_map(params![n as i64], |r| {
            Ok(Played {
                id: r.get(0)?,
                date: r.get(1)?,
                white: r.get(2)?,
                opponent: r.get(3)?,
                points: r.get(4)?,
                accuracy: r.get(5)?,
                opening: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

/// Wins, draws and losses from three columns of `r` from `at` (sums, `NULL` over no game).
fn record_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Record> {
    let get = |i| {
        r.get::<_, Option<i64>>(at + i)
            .map(Option::unwrap_or_default)
    };
    Ok(Record {
        wins: get(0)?,
        draws: get(1)?,
        losses: get(2)?,
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;
    use crate::review::analyse::PositionEval;
    use crate::review::judge::Eval;
    use crate::store::library::reviews::Origin;

    /// A game in lichess's style, the tags left out when empty.
    fn game(
        date: &str,
        white: &str,
        black: &str,
        result: &str,
        tc: &str,
        opening: (&str, &str),
        moves: &str,
    ) -> String {
        let mut text = format!(
            "[Site \"https://lichess.org/{date}{white}\"]\n[Date \"{date}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"{result}\"]\n"
        );
        for (tag, value) in [
            ("TimeControl", tc),
            ("ECO", opening.0),
            ("Opening", opening.1),
        ] {
            if !value.is_empty() {
                text.push_str(&format!("[{tag} \"{value}\"]\n"));
            }
        }
        format!("{text}\n{moves} {result}\n\n")
    }

    /// A library of anna's games (as `anna` and `Anna`) and one of others, three reviewed.
    fn library(dir: &std::path::Path) -> (Library, Vec<i64>) {
        let kpg = ("C20", "King's Pawn Game: Wayward Queen Attack");
        let text = [
            game(
                "2024.03.01",
                "anna",
                "bob",
                "1-0",
                "180+2",
                kpg,
                "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
            ),
            game(
                "2024.03.05",
                "carl",
                "Anna",
                "1-0",
                "60+0",
                ("C20", "King's Pawn Game"),
                "1. e4 e5 2. Qh5 Ke7 3. Qxe5#",
            ),
            game(
                "2024.02.10",
                "anna",
                "dora",
                "1/2-1/2",
                "900+10",
                ("B20", "Sicilian Defense"),
                "1. e4 c5",
            ),
            game(
                "2024.02.11",
                "eve",
                "frank",
                "0-1",
                "180+2",
                kpg,
                "1. e4 e5",
            ),
            game(
                "2024.04.01",
                "gus",
                "anna",
                "0-1",
                "-",
                ("", ""),
                "1. f3 e5 2. g4 Qh4#",
            ),
            game("2024.04.02", "anna", "hal", "*", "180+2", kpg, "1. d4"),
        ]
        .concat();
        let file = dir.join("games.pgn");
        std::fs::write(&file, text).unwrap();
        let mut library = Library::open(&dir.join("library.sqlite")).unwrap();
        let mut summary = super::super::import::Summary::default();
        library.import(&file, &mut summary).unwrap();
        assert_eq!(summary.imported, 6, "{summary:?}");
        let mut ids: Vec<(String, i64)> = library
            .list()
            .unwrap()
            .into_iter()
            .map(|e| (e.date, e.id))
            .collect();
        ids.sort();
        let ids: Vec<i64> = ids.into_iter().map(|(_, id)| id).collect();
        // By date: dora's, eve's, bob's, carl's, gus's, hal's.
        let cp = |cp| Eval::Cp(cp);
        let mate = Eval::Checkmate;
        let reviews: [(i64, Vec<Eval>); 3] = [
            // Black's 3...Nf6 allows mate.
            (
                ids[2],
                vec![
                    cp(20),
                    cp(20),
                    cp(30),
                    cp(30),
                    cp(40),
                    cp(40),
                    Eval::Mate(1),
                    mate(Color::White),
                ],
            ),
            // Anna's 2...Ke7 allows mate.
            (
                ids[3],
                vec![
                    cp(20),
                    cp(20),
                    cp(30),
                    cp(30),
                    Eval::Mate(1),
                    mate(Color::White),
                ],
            ),
            // White's 2.g4 allows mate.
            (
                ids[4],
                vec![cp(20), cp(-30), cp(-40), Eval::Mate(-1), mate(Color::Black)],
            ),
        ];
        for (id, evals) in reviews {
            let (mut review, _) = library.review(id).unwrap().unwrap();
            for (slot, eval) in review.evals.iter_mut().zip(evals) {
                *slot = Some(PositionEval {
                    eval,
                    line: Vec::new(),
                    depth: 10,
                });
            }
            assert!(review.is_complete());
            library.save_review(id, &review, Origin::Engine).unwrap();
        }
        (library, ids)
    }

    fn annas(library: &Library) -> Vec<String> {
        let mut names = library
            .names(|n| crate::train::mistake::is_you(n, &["ANNA".to_string()]))
            .unwrap();
        names.sort();
        names
    }

    #[test]
    fn the_players_names_are_every_spelling_the_library_has() {
        let dir = tempfile::tempdir().unwrap();
        let (library, _) = library(dir.path());
        assert_eq!(annas(&library), ["Anna", "anna"]);
    }

    #[test]
    fn results_count_the_finished_games_by_colour_and_opening() {
        let dir = tempfile::tempdir().unwrap();
        let (library, _) = library(dir.path());
        let stats = library.stats(&annas(&library)).unwrap();
        let record = |wins, draws, losses| Record {
            wins,
            draws,
            losses,
        };
        // The unfinished game against hal and eve's game are not hers to count.
        assert_eq!(stats.colours, [record(1, 1, 0), record(1, 0, 1)]);
        assert_eq!(stats.games(), 4);
        assert_eq!(stats.record().score(), Some(62.5));
        let openings: Vec<(&str, &str, Record)> = stats
            .openings
            .iter()
            .map(|o| (o.name.as_str(), o.eco.as_str(), o.record))
            .collect();
        assert_eq!(
            openings,
            [
                ("King's Pawn Game", "C20", record(1, 0, 1)),
                // A game whose file names no opening is named from its moves.
                ("Barnes Opening", "A00", record(1, 0, 0)),
                ("Sicilian Defense", "B20", record(0, 1, 0)),
            ]
        );
        let losing: Vec<&str> = stats.losing(5).iter().map(|o| o.name.as_str()).collect();
        assert_eq!(losing, ["King's Pawn Game"]);
    }

    #[test]
    fn accuracy_comes_by_date_with_its_moving_mean_and_the_best_and_worst_games() {
        let dir = tempfile::tempdir().unwrap();
        let (library, ids) = library(dir.path());
        let stats = library.stats(&annas(&library)).unwrap();
        let points: Vec<(i64, &str)> = stats
            .accuracy
            .iter()
            .map(|p| (p.id, p.date.as_str()))
            .collect();
        assert_eq!(
            points,
            [
                (ids[2], "2024.03.01"),
                (ids[3], "2024.03.05"),
                (ids[4], "2024.04.01")
            ]
        );
        let [good, bad, other] = [0, 1, 2].map(|i| stats.accuracy[i].accuracy);
        assert!(
            good > 90.0 && other > 90.0 && bad < 60.0,
            "{:?}",
            stats.accuracy
        );
        assert_eq!(stats.window, 5);
        let mean = (good + bad + other) / 3.0;
        assert!((stats.accuracy[2].average - mean).abs() < 1e-9);
        let months: Vec<(&str, i64)> = stats
            .months
            .iter()
            .map(|m| (m.month.as_str(), m.games))
            .collect();
        assert_eq!(months, [("2024.03", 2), ("2024.04", 1)]);
        // Three reviewed games: two best, one worst, none in both.
        let best: Vec<i64> = stats.best.iter().map(|g| g.id).collect();
        assert_eq!(stats.best.len(), 2);
        assert!(best.contains(&ids[2]) && best.contains(&ids[4]));
        let worst = &stats.worst[..];
        assert_eq!(worst.len(), 1);
        assert_eq!(
            (
                worst[0].id,
                worst[0].white,
                worst[0].opponent.as_str(),
                worst[0].outcome()
            ),
            (ids[3], false, "carl", "lost")
        );
        assert_eq!(worst[0].opening, "C20 King's Pawn Game");
    }

    #[test]
    fn mistakes_are_counted_by_phase_and_by_speed() {
        let dir = tempfile::tempdir().unwrap();
        let (library, _) = library(dir.path());
        let stats = library.stats(&annas(&library)).unwrap();
        // Her moves in the three reviewed games: 4 as White, 2 and 2 as Black; the one blunder
        // (2...Ke7) in the opening; the others' blunders are not hers.
        assert_eq!(stats.phases.games, 3);
        assert_eq!(stats.phases.moves, 8);
        assert_eq!(stats.phases.counts, [[0, 0, 1], [0; 3], [0; 3]]);
        assert_eq!(stats.phases.per_game(Phase::Opening), Some(1.0 / 3.0));
        let speeds: Vec<(Speed, i64, i64, i64)> = stats
            .speeds
            .iter()
            .map(|s| (s.speed, s.record.games(), s.reviewed, s.errors))
            .collect();
        assert_eq!(
            speeds,
            [
                (Speed::Bullet, 1, 1, 1),
                (Speed::Blitz, 1, 1, 0),
                (Speed::Rapid, 1, 0, 0),
                (Speed::Unknown, 1, 1, 0),
            ]
        );
        assert_eq!(stats.speeds[0].per_100_moves(), Some(50.0));
        assert_eq!(stats.speeds[2].accuracy, None);
    }

    #[test]
    fn no_name_matched_gives_no_games() {
        let dir = tempfile::tempdir().unwrap();
        let (library, _) = library(dir.path());
        let stats = library.stats(&[]).unwrap();
        assert_eq!(stats.games(), 0);
        assert!(stats.accuracy.is_empty() && stats.openings.is_empty() && stats.speeds.is_empty());
        assert!(library.names(|n| n == "zed").unwrap().is_empty());
    }

    #[test]
    fn the_speed_is_lichesss_estimate_of_the_time_control() {
        let speeds = [
            ("60+0", Speed::Bullet),
            ("120+1", Speed::Bullet),
            ("180+0", Speed::Blitz),
            ("180+2", Speed::Blitz),
            ("300", Speed::Blitz),
            ("480+0", Speed::Rapid),
            ("600+5", Speed::Rapid),
            ("900+10", Speed::Rapid),
            ("1500+0", Speed::Classical),
            ("1800+20", Speed::Classical),
            ("40/5400+30", Speed::Classical),
            ("40/40+1", Speed::Bullet),
            ("1/86400", Speed::Correspondence),
            ("1/259200", Speed::Correspondence),
            ("-", Speed::Unknown),
            ("", Speed::Unknown),
            ("?", Speed::Unknown),
            ("abc+1", Speed::Unknown),
            ("-60+1", Speed::Unknown),
        ];
        for (tc, speed) in speeds {
            assert_eq!(Speed::of(tc), speed, "{tc}");
        }
    }
}
