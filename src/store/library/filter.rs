//! Which games of the library to take: by player (and their colour), result, dates, opening,
//! time control and review, newest first, as many as asked. Each filter becomes SQL with its
//! value bound as a parameter, never written into the statement, so any text is safe to give.

use rusqlite::types::Value;
use shakmaty::Color;

/// A game's result as asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `1-0`.
    WhiteWon,
    /// `0-1`.
    BlackWon,
    /// `1/2-1/2`.
    Draw,
    /// Won by the filter's player.
    Won,
    /// Lost by the filter's player.
    Lost,
}

impl Outcome {
    /// `1-0`, `0-1`, `1/2-1/2` (or `draw`), or `win` and `loss` (for a player).
    pub fn parse(text: &str) -> Result<Outcome, String> {
        Ok(match text.trim().to_ascii_lowercase().as_str() {
            "1-0" | "white" => Outcome::WhiteWon,
            "0-1" | "black" => Outcome::BlackWon,
            "1/2-1/2" | "½-½" | "draw" | "=" => Outcome::Draw,
            "win" | "won" => Outcome::Won,
            "loss" | "lost" => Outcome::Lost,
            _ => {
                return Err(format!(
                    "{text:?} is not a result: use 1-0, 0-1, 1/2-1/2 (or draw), win or loss"
                ));
            }
        })
    }
}

/// A clock's speed as lichess names it, by the game's expected length: the base time and 40
/// increments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// Under 3 minutes.
    Bullet,
    /// 3 to 8 minutes.
    Blitz,
    /// 8 to 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
}

impl Speed {
    /// Its bounds in seconds of expected length, the upper one left out.
    fn bounds(self) -> (i64, i64) {
        match self {
            Speed::Bullet => (0, 180),
            Speed::Blitz => (180, 480),
            Speed::Rapid => (480, 1500),
            Speed::Classical => (1500, i64::MAX),
        }
    }
}

/// The time control asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clock {
    /// As the PGN writes it, in seconds: `180+2`, `600`.
    Exact(String),
    /// By speed.
    Speed(Speed),
}

impl Clock {
    /// `bullet`, `blitz`, `rapid`, `classical`, or a time control: `180+2` as PGN writes it
    /// in seconds, or `3+2` as the sites show it in minutes.
    pub fn parse(text: &str) -> Result<Clock, String> {
        let text = text.trim();
        Ok(match text.to_ascii_lowercase().as_str() {
            "bullet" => Clock::Speed(Speed::Bullet),
            "blitz" => Clock::Speed(Speed::Blitz),
            "rapid" => Clock::Speed(Speed::Rapid),
            "classical" => Clock::Speed(Speed::Classical),
            _ => {
                let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
                let (Ok(base), Ok(inc)) = (base.trim().parse::<u32>(), inc.trim().parse::<u32>())
                else {
                    return Err(format!(
                        "{text:?} is not a time control: use 180+2 (seconds), 3+2 (minutes), \
                         bullet, blitz, rapid or classical"
                    ));
                };
                // Under a minute of base is minutes, as lichess and chess.com show it.
                let base = if base < 60 { base * 60 } else { base };
                Clock::Exact(format!("{base}+{inc}"))
            }
        })
    }
}

/// A date bound, `YYYY`, `YYYY.MM` or `YYYY.MM.DD` (or with `-` or `/`), as the library's
/// `YYYY.MM.DD` text; `end` gives the last day the bound covers rather than the first.
pub fn parse_date(text: &str, end: bool) -> Result<String, String> {
    let bad = || format!("{text:?} is not a date: use YYYY-MM-DD, YYYY-MM or YYYY");
    let parts: Vec<&str> = text.trim().split(['.', '-', '/']).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    let widths = [4, 2, 2];
    let mut out = Vec::new();
    let ranges = [1..=9999, 1..=12, 1..=31];
    for ((part, width), range) in parts.iter().zip(widths).zip(ranges) {
        let n: u32 = part.parse().map_err(|_| bad())?;
        if part.len() > width || !range.contains(&n) {
            return Err(bad());
        }
        out.push(format!("{n:0width$}"));
    }
    // Missing month or day: the bound's first or last.
    while out.len() < 3 {
        out.push(if end { "99" } else { "00" }.to_string());
    }
    Ok(out.join("."))
}

/// Which games to take; the default takes every one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Games this player played (either side, any case).
    pub player: Option<String>,
    /// The colour the player had.
    pub color: Option<Color>,
    /// The result.
    pub result: Option<Outcome>,
    /// Games on this day (`YYYY.MM.DD`) or after.
    pub since: Option<String>,
    /// Games on this day or before.
    pub until: Option<String>,
    /// An ECO code's start (`B2` for B20 to B29) or a piece of the opening's name, any case.
    pub opening: Option<String>,
    /// The time control.
    pub clock: Option<Clock>,
    /// `Some(true)`: only games whose review is complete; `Some(false)`: only the others.
    pub reviewed: Option<bool>,
    /// At most this many games.
    pub limit: Option<usize>,
}

/// `text` for a LIKE pattern with `\` as the escape: its `%` and `_` mean themselves.
fn like_text(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

impl Filter {
    /// Checks what one filter needs of another: a colour, a win or a loss need a player.
    pub fn check(&self) -> Result<(), String> {
        if self.player.is_none() {
            if self.color.is_some() {
                return Err("a colour is the player's: give --player too".to_string());
            }
            if matches!(self.result, Some(Outcome::Won | Outcome::Lost)) {
                return Err("a win or a loss is the player's: give --player too".to_string());
            }
        }
        Ok(())
    }

    /// The `WHERE` clause (empty for none), the `ORDER BY` and the `LIMIT`, over the games as
    /// `g` left-joined with their reviews as `r`, and the values of its parameters in order.
    pub fn sql(&self) -> (String, Vec<Value>) {
        let mut terms: Vec<String> = Vec::new();
        let mut values: Vec<Value> = Vec::new();
        let bind = |values: &mut Vec<Value>, v: Value| {
            values.push(v);
            format!("?{}", values.len())
        };
        let player = self
            .player
            .as_ref()
            .map(|p| bind(&mut values, Value::Text(p.trim().to_string())));
        let white = |p: &str| format!("g.white = {p} COLLATE NOCASE");
        let black = |p: &str| format!("g.black = {p} COLLATE NOCASE");
        if let Some(p) = &player {
            terms.push(match self.color {
                Some(Color::White) => white(p),
                Some(Color::Black) => black(p),
                None => format!("({} OR {})", white(p), black(p)),
            });
        }
        if let Some(result) = self.result {
            terms.push(match (result, &player) {
                (Outcome::WhiteWon, _) => "g.result = '1-0'".to_string(),
                (Outcome::BlackWon, _) => "g.result = '0-1'".to_string(),
                (Outcome::Draw, _) => "g.result = '1/2-1/2'".to_string(),
                (Outcome::Won, Some(p)) => format!(
                    "(({} AND g.result = '1-0') OR ({} AND g.result = '0-1'))",
                    white(p),
                    black(p)
                ),
                (Outcome::Lost, Some(p)) => format!(
                    "(({} AND g.result = '0-1') OR ({} AND g.result = '1-0'))",
                    white(p),
                    black(p)
                ),
                // Without a player no game is anyone's win; `check` says so first.
                (Outcome::Won | Outcome::Lost, None) => "0".to_string(),
            });
        }
        if self.since.is_some() || self.until.is_some() {
            // An unknown year ("????.??.??") is in no span of dates.
            terms.push("g.date GLOB '[0-9][0-9][0-9][0-9]*'".to_string());
        }
        if let Some(since) = &self.since {
            let p = bind(&mut values, Value::Text(since.clone()));
            terms.push(format!("g.date >= {p}"));
        }
        if let Some(until) = &self.until {
            let p = bind(&mut values, Value::Text(until.clone()));
            terms.push(format!("g.date <= {p}"));
        }
        if let Some(opening) = &self.opening {
            let text = like_text(opening.trim());
            let start = bind(&mut values, Value::Text(format!("{text}%")));
            let within = bind(&mut values, Value::Text(format!("%{text}%")));
            terms.push(format!(
                "(g.eco LIKE {start} ESCAPE '\\' OR g.opening LIKE {within} ESCAPE '\\')"
            ));
        }
        match &self.clock {
            Some(Clock::Exact(tc)) => {
                let p = bind(&mut values, Value::Text(tc.clone()));
                // "600" and "600+0" are one clock.
                terms.push(format!(
                    "(CASE WHEN instr(g.time_control, '+') > 0 THEN g.time_control \
                     ELSE g.time_control || '+0' END) = {p}"
                ));
            }
            Some(Clock::Speed(speed)) => {
                let (low, high) = speed.bounds();
                let low = bind(&mut values, Value::Integer(low));
                let high = bind(&mut values, Value::Integer(high));
                // The base in seconds and 40 increments; a clock of no digits is none.
                terms.push(format!(
                    "(g.time_control GLOB '[0-9]*' AND \
                     (CAST(g.time_control AS INTEGER) + 40 * (CASE \
                        WHEN instr(g.time_control, '+') > 0 \
                        THEN CAST(substr(g.time_control, instr(g.time_control, '+') + 1) \
                                  AS REAL) \
                        ELSE 0 END)) BETWEEN {low} AND {high} - 1)"
                ));
            }
            None => {}
        }
        match self.reviewed {
            Some(true) => terms.push("(r.game_id IS NOT NULL AND r.done >= r.positions)".into()),
            Some(false) => terms.push("(r.game_id IS NULL OR r.done < r.positions)".into()),
            None => {}
        }
        let mut sql = String::new();
        if !terms.is_empty() {
            sql.push_str(" WHERE ");
            sql.push_str(&terms.join(" AND "));
        }
        sql.push_str(" ORDER BY g.date DESC, g.id DESC");
        if let Some(limit) = self.limit {
            let p = bind(
                &mut values,
                Value::Integer(limit.min(i64::MAX as usize) as i64),
            );
            sql.push_str(&format!(" LIMIT {p}"));
        }
        (sql, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_clocks_and_results_read_as_the_library_writes_them() {
        assert_eq!(parse_date("2024-03-05", false).unwrap(), "2024.03.05");
        assert_eq!(parse_date("2024.3", false).unwrap(), "2024.03.00");
        assert_eq!(parse_date("2024", true).unwrap(), "2024.99.99");
        assert!(parse_date("March", false).is_err());
        assert!(parse_date("2024-003-01", false).is_err());
        assert!(parse_date("2024-13-01", false).is_err());
        assert_eq!(Clock::parse("180+2"), Ok(Clock::Exact("180+2".into())));
        assert_eq!(Clock::parse("3+2"), Ok(Clock::Exact("180+2".into())));
        assert_eq!(Clock::parse("600"), Ok(Clock::Exact("600+0".into())));
        assert_eq!(Clock::parse("Blitz"), Ok(Clock::Speed(Speed::Blitz)));
        assert!(Clock::parse("fast").is_err());
        assert_eq!(Outcome::parse("draw"), Ok(Outcome::Draw));
        assert!(Outcome::parse("maybe").is_err());
    }

    #[test]
    fn every_value_is_a_parameter_never_text_of_the_statement() {
        let filter = Filter {
            player: Some("x' OR 1=1 --".into()),
            opening: Some("50%_off".into()),
            since: Some("2024.01.00".into()),
            limit: Some(5),
            ..Filter::default()
        };
        let (sql, values) = filter.sql();
        assert!(!sql.contains("1=1") && !sql.contains("50"), "{sql}");
        assert_eq!(values.len(), 5, "{values:?}");
        assert!(values.contains(&Value::Text("%50\\%\\_off%".into())));
        assert!(filter.check().is_ok());
        let colour_alone = Filter {
            color: Some(Color::White),
            ..Filter::default()
        };
        assert!(colour_alone.check().is_err());
    }
}
