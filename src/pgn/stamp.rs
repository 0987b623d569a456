//! When a game was played, as its PGN tags say it (`Date`, `UTCDate`, `UTCTime`) and as
//! Knightfall names a game's file: the stamp `YYYYMMDD-HHMMSS` of its start, in UTC.

/// The game's date: `Date` when it is known, else `UTCDate` (which lichess writes beside it, and
/// some programs alone), else an unknown `Date` as written.
pub fn known_date<'a>(date: Option<&'a str>, utc_date: Option<&'a str>) -> Option<&'a str> {
    let known = |d: &&str| !d.contains('?');
    date.filter(known).or(utc_date.filter(known)).or(date)
}

/// The stamp of the game's start, from `UTCTime` and the date it belongs to: `UTCDate` when
/// given (both are UTC), else `Date`.
pub fn start_stamp(
    date: Option<&str>,
    utc_date: Option<&str>,
    time: Option<&str>,
) -> Option<String> {
    let d: String = utc_date.or(date)?.chars().filter(|c| *c != '.').collect();
    let t: String = time?.chars().filter(|c| *c != ':').collect();
    let digits = |s: &str, n| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    (digits(&d, 8) && digits(&t, 6)).then(|| format!("{d}-{t}"))
}

/// The `UTCDate` (`YYYY.MM.DD`) of a stamp: the day its `UTCTime` belongs to, which may not
/// be the `Date` (a local date, in some programs).
pub fn utc_date(stamp: &str) -> Option<String> {
    let d = stamp.split_once('-')?.0;
    (d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{}.{}.{}", &d[0..4], &d[4..6], &d[6..8]))
}

/// The `UTCTime` (`HH:MM:SS`) of a stamp.
pub fn utc_time(stamp: &str) -> Option<String> {
    let t = stamp.split_once('-')?.1;
    (t.len() == 6 && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{}:{}:{}", &t[0..2], &t[2..4], &t[4..6]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_stamps() {
        assert_eq!(
            known_date(Some("2026.11.20"), Some("2026.11.19")),
            Some("2026.11.20")
        );
        assert_eq!(
            known_date(Some("????.??.??"), Some("2026.11.19")),
            Some("2026.11.19")
        );
        assert_eq!(known_date(Some("????.??.??"), None), Some("????.??.??"));
        assert_eq!(known_date(None, None), None);
        let stamp = start_stamp(Some("2026.11.20"), None, Some("10:01:02"));
        assert_eq!(stamp.as_deref(), Some("20261120-100102"));
        assert_eq!(
            start_stamp(Some("2026.11.20"), Some("2026.11.21"), Some("10:01:02")).as_deref(),
            Some("20261121-100102")
        );
        assert_eq!(
            start_stamp(Some("2026.??.20"), None, Some("10:01:02")),
            None
        );
        assert_eq!(utc_time("20261120-100102").as_deref(), Some("10:01:02"));
        assert_eq!(utc_time("20261120"), None);
    }
}
