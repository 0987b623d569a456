//! What the PGN reader would pass over without a word. The reader skips a movetext token it
//! cannot read (`2. Nf3 zz9 Nc6`) and reads on, so a game would silently lose a move, or the next
//! move would be blamed for it. This scan walks the text as the reader does, game by game, and
//! finds the first such token with its line, so the message can name it.

use shakmaty::san::SanPlus;

/// A token where a move should be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stray {
    /// The token as written.
    pub(crate) token: String,
    /// Its line, from 1.
    pub(crate) line: usize,
    /// Where it stands: "it follows Nf3", "it is in a side line, after g3".
    pub(crate) place: String,
    /// Whether it is inside a variation.
    pub(crate) in_side_line: bool,
}

/// One game as the scan saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Scanned {
    /// Moves of the main line, as the reader counts them: a check that the scan and the reader
    /// saw the same game.
    pub(crate) main_line: usize,
    /// The first token that is not a move, number, result, comment or annotation.
    pub(crate) stray: Option<Stray>,
}

/// The games of `text` in order, as the PGN reader splits them.
pub(crate) fn games(text: &str) -> Games<'_> {
    Games {
        text: text.as_bytes(),
        at: 0,
        line: 1,
    }
}

/// Iterator over the games of a PGN text.
pub(crate) struct Games<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

/// Where the walk through a game's movetext is.
#[derive(Default)]
struct Walk {
    scanned: Scanned,
    /// Side lines open.
    depth: usize,
    /// The last move read.
    previous: Option<String>,
}

/// The bytes that end a token, as the reader has them.
fn ends_token(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

impl<'a> Games<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.text.get(self.at + ahead).copied()
    }

    /// Moves past `n` bytes, counting line feeds.
    fn advance(&mut self, n: usize) {
        let end = (self.at + n).min(self.text.len());
        self.line += self.text[self.at..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.at = end;
    }

    /// Moves up to (not past) the next `byte`, or to the end.
    fn skip_to(&mut self, byte: u8) {
        let n = self.text[self.at..]
            .iter()
            .position(|&b| b == byte)
            .unwrap_or(self.text.len() - self.at);
        self.advance(n);
    }

    /// Whitespace, a byte-order mark and `%` escape lines between games.
    fn skip_space(&mut self) {
        let mut line_start = true;
        loop {
            if self.text[self.at..].starts_with("\u{feff}".as_bytes()) {
                self.advance(3);
                continue;
            }
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.advance(1),
                Some(b'\n') => {
                    line_start = true;
                    self.advance(1);
                }
                Some(b'%') if line_start => {
                    self.skip_to(b'\n');
                }
                _ => return,
            }
        }
    }

    /// The movetext of one game, up to a blank line or a line starting with `[`.
    fn movetext(&mut self) -> Scanned {
        let mut walk = Walk::default();
        while let Some(b) = self.peek() {
            match b {
                b'{' => {
                    self.skip_to(b'}');
                    self.advance(1);
                }
                b'\n' => {
                    match (self.peek_at(1), self.peek_at(2)) {
                        (Some(b'[' | b'\n'), _) | (Some(b'\r'), Some(b'\n')) => {
                            return walk.scanned;
                        }
                        _ => {}
                    }
                    self.advance(1);
                    if self.peek() == Some(b'%') {
                        self.skip_to(b'\n');
                    }
                }
                b';' => self.skip_to(b'\n'),
                b'(' => {
                    walk.depth += 1;
                    self.advance(1);
                }
                b')' => {
                    walk.depth = walk.depth.saturating_sub(1);
                    self.advance(1);
                }
                b'$' => {
                    self.advance(1);
                    self.skip_token();
                }
                _ if ends_token(b) => self.advance(1),
                _ => self.word(&mut walk),
            }
        }
        walk.scanned
    }

    /// Reads the token here: a move is counted, the first stray one kept.
    fn word(&mut self, walk: &mut Walk) {
        let line = self.line;
        let token = self.take_token();
        let text = || String::from_utf8_lossy(token).into_owned();
        match kind(token, &self.text[self.at..]) {
            Kind::Move => {
                if walk.depth == 0 {
                    walk.scanned.main_line += 1;
                }
                walk.previous = Some(text());
            }
            Kind::EnPassantMark => self.advance(2),
            Kind::Other => {}
            Kind::Stray if walk.scanned.stray.is_some() => {}
            Kind::Stray => {
                let place = match (&walk.previous, walk.depth) {
                    (None, 0) => "it comes before the first move".to_string(),
                    (Some(p), 0) => format!("it follows {p}"),
                    (None, _) => "it starts a side line".to_string(),
                    (Some(p), _) => format!("it is in a side line, after {p}"),
                };
                walk.scanned.stray = Some(Stray {
                    token: text(),
                    line,
                    place,
                    in_side_line: walk.depth > 0,
                });
            }
        }
    }

    fn skip_token(&mut self) {
        let _ = self.take_token();
    }

    fn take_token(&mut self) -> &'a [u8] {
        let text: &'a [u8] = self.text;
        let start = self.at;
        let n = self.text[start..]
            .iter()
            .position(|&b| ends_token(b))
            .unwrap_or(self.text.len() - start);
        self.advance(n);
        &text[start..start + n]
    }
}

impl Iterator for Games<'_> {
    type Item = Scanned;

    fn next(&mut self) -> Option<Scanned> {
        self.skip_space();
        self.peek()?;
        while self.peek() == Some(b'[') {
            self.skip_to(b'\n');
            self.skip_space();
        }
        Some(self.movetext())
    }
}

enum Kind {
    /// A move, castling with zeros and the null move included.
    Move,
    /// The `e` of an `e.p.` after an en passant capture.
    EnPassantMark,
    /// A move number, a result or an annotation symbol (`±`, `+-`).
    Other,
    /// Anything else: a token that would be dropped.
    Stray,
}

/// What `token` is; `rest` is the text after it.
fn kind(token: &[u8], rest: &[u8]) -> Kind {
    if SanPlus::from_ascii(token).is_ok() {
        return Kind::Move;
    }
    let text = String::from_utf8_lossy(token).replace(['–', '—'], "-");
    let bare = text.trim_end_matches(['+', '#']);
    if matches!(bare, "0-0" | "0-0-0") {
        return Kind::Move;
    }
    if matches!(text.as_str(), "1-0" | "0-1" | "1/2-1/2" | "½-½") {
        return Kind::Other;
    }
    if token == b"e" && (rest.starts_with(b".p.") || rest.starts_with(b".p")) {
        return Kind::EnPassantMark;
    }
    if token.iter().all(u8::is_ascii_digit) || !token.iter().any(u8::is_ascii_alphanumeric) {
        return Kind::Other;
    }
    Kind::Stray
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strays(text: &str) -> Vec<Option<Stray>> {
        games(text).map(|g| g.stray).collect()
    }

    #[test]
    fn what_the_reader_reads_is_not_stray() {
        let text = "[Event \"a\"]\n[White \"b\"]\n\n\u{feff}1.e4 e5 2. Nf3 $1 Nc6!? 3.Bb5 {a comment\n\
                    over lines} a6 ; to the end\n%escape\n4. Ba4 (4. Bxc6 dxc6 5. 0-0 f6) 4... Nf6 5. O-O \
                    b5 +- 6. Bb3 ± 7. e8=Q+ exd6 e.p. -- Z0 0-0-0# 1/2-1/2\n";
        let all: Vec<Scanned> = games(text).collect();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].stray, None);
        assert_eq!(all[0].main_line, 16);
    }

    #[test]
    fn a_junk_token_is_named_with_its_line_and_place() {
        let text = "[Event \"a\"]\n\n1. e4 e5\n2. Nf3 zz9 Nc6 *\n";
        let stray = strays(text).remove(0).unwrap();
        assert_eq!(stray.token, "zz9");
        assert_eq!(stray.line, 4);
        assert_eq!(stray.place, "it follows Nf3");
        assert!(!stray.in_side_line);
    }

    #[test]
    fn games_are_split_as_the_reader_splits_them() {
        let text = "[Event \"1\"]\n\n1. e4 *\n\n[Event \"2\"]\n\n1. d4 xyz *\n[Event \"3\"]\n1. c4 (1. g3 qq) *\n";
        let found = strays(text);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0], None);
        assert_eq!(found[1].as_ref().map(|s| s.token.as_str()), Some("xyz"));
        let side = found[2].as_ref().unwrap();
        assert!(side.in_side_line);
        assert_eq!(side.place, "it is in a side line, after g3");
    }

    #[test]
    fn a_move_glued_to_junk_is_stray() {
        assert_eq!(
            strays("1. e45 e5 *").remove(0).map(|s| s.token),
            Some("e45".to_string())
        );
    }
}
