//! PGN text as the reader must see it: figurines in letters and lone CRs as line feeds, in a
//! whole text, or byte for byte in a stream whose places must stay places in the file.

use std::borrow::Cow;
use std::cell::Cell;
use std::io;
use std::rc::Rc;

/// `text` ready for the PGN reader: figurine algebraic notation (`♘f3`, `♞c6`, `♙e4`) written in
/// letters (`Nf3`, `Nc6`, `e4`), since the reader skips a move it cannot read and a skipped move
/// would silently become another game; and old Mac line ends (a CR alone) as line feeds, since
/// the reader would run two games together.
pub(crate) fn readable(text: &str) -> Cow<'_, str> {
    let text = lone_cr_as_lf(text);
    match figurines_in_letters(&text) {
        Cow::Owned(changed) => Cow::Owned(changed),
        Cow::Borrowed(_) => text,
    }
}

/// `text` with each CR not followed by LF made a LF.
fn lone_cr_as_lf(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` with figurines written in letters.
fn figurines_in_letters(text: &str) -> Cow<'_, str> {
    const FIGURINES: [(char, &str); 12] = [
        ('♔', "K"),
        ('♕', "Q"),
        ('♖', "R"),
        ('♗', "B"),
        ('♘', "N"),
        ('♙', ""),
        ('♚', "K"),
        ('♛', "Q"),
        ('♜', "R"),
        ('♝', "B"),
        ('♞', "N"),
        ('♟', ""),
    ];
    if !text.chars().any(|c| FIGURINES.iter().any(|(f, _)| *f == c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match FIGURINES.iter().find(|(f, _)| *f == c) {
            Some((_, letter)) => out.push_str(letter),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A source with each CR not followed by LF made a LF, byte for byte (so places in it are places
/// in the file), as [`readable`] does to a whole text; counts the bytes it gives.
pub(crate) struct LoneCrAsLf<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    at_end: bool,
    taken: Rc<Cell<u64>>,
}

impl<R: io::Read> LoneCrAsLf<R> {
    /// `inner`, counting the bytes given into `taken`.
    pub(crate) fn new(inner: R, taken: Rc<Cell<u64>>) -> LoneCrAsLf<R> {
        LoneCrAsLf {
            inner,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            start: 0,
            end: 0,
            at_end: false,
            taken,
        }
    }
}

impl<R: io::Read> io::Read for LoneCrAsLf<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        // A CR's fate depends on the byte after it, so one byte more than given is kept at hand;
        // and the reader gets as much as it asks for, as from a file, so that a long tag fits
        // in its buffer as it does when it reads a whole text.
        let mut first = true;
        while !self.at_end
            && (self.end - self.start < 2 || first && self.end - self.start <= out.len())
        {
            first = false;
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            if self.end == self.buf.len() {
                break;
            }
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.at_end = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let held = self.end - self.start;
        // The last byte held waits for its follower, unless the source ended.
        let ready = if self.at_end { held } else { held - 1 };
        let n = ready.min(out.len());
        let bytes = &self.buf[self.start..self.end];
        for (i, slot) in out[..n].iter_mut().enumerate() {
            *slot = match bytes[i] {
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => b'\n',
                b => b,
            };
        }
        self.start += n;
        self.taken.set(self.taken.get() + n as u64);
        Ok(n)
    }
}
