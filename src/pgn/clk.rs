//! The clock command of a PGN comment, `[%clk H:MM:SS.s]`: the mover's time left after a move,
//! as lichess and chess.com write it.

use std::time::Duration;

/// `{[%clk H:MM:SS.s]}`, the comment that gives the time left `d`.
pub(crate) fn comment(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let secs = tenths / 10;
    format!(
        "{{[%clk {}:{:02}:{:02}.{}]}}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        tenths % 10
    )
}

/// The time of the `[%clk H:MM:SS(.s)]` in `comment`, if it holds one.
pub(crate) fn read(comment: &str) -> Option<Duration> {
    let rest = &comment[comment.find("[%clk")? + 5..];
    let value = rest[..rest.find(']')?].trim();
    let mut secs = 0.0;
    for part in value.split(':') {
        secs = secs * 60.0 + part.parse::<f64>().ok()?;
    }
    (0.0..1.0e9)
        .contains(&secs)
        .then(|| Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_written_reads_back() {
        let d = Duration::from_millis(3_723_400);
        assert_eq!(comment(d), "{[%clk 1:02:03.4]}");
        assert_eq!(read(&comment(d)), Some(d));
        assert_eq!(read(" [%clk 0:05:07] "), Some(Duration::from_secs(307)));
        assert_eq!(read("[%eval 0.3]"), None);
        assert_eq!(read("[%clk x]"), None);
    }
}
