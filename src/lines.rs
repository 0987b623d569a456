//! Reading lines from another program (a GUI over UCI, an external engine) without trusting
//! it: a line is held up to a limit and a longer one skipped whole, so no input, however long
//! or endless, fills the memory.

use std::io::{self, BufRead};

/// What `read_line` found.
pub(crate) enum Line {
    /// A line, in the buffer (without its end).
    Read,
    /// A line over the limit, skipped.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads the next line into `line` (without its end), holding at most `max` bytes of it.
pub(crate) fn read_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Line> {
    line.clear();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Read,
            });
        }
        let (taken, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            let end = if done { taken - 1 } else { taken };
            line.extend_from_slice(&chunk[..end]);
            if line.len() > max {
                too_long = true;
                line.clear();
            }
        }
        input.consume(taken);
        if done {
            return Ok(if too_long { Line::TooLong } else { Line::Read });
        }
    }
}
