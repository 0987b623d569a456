//! The one PGN writer: tag lines, and movetext numbered as PGN wants it and wrapped in lines of
//! at most 79 characters. A game, the board's tree of lines and a review's annotations are all
//! written through it.

use std::fmt::Write as _;

use shakmaty::Color;

/// Writes the tag line `[name "value"]`, the value's backslashes and quotes escaped.
pub fn tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// Movetext as it is written, token by token. Every White move carries its number; a Black
/// move does where the moves were interrupted (the first move, one after a comment or a side
/// line): `12. Nf3 Nc6`, `12... Nc6`.
#[derive(Debug)]
pub struct Movetext {
    tokens: Vec<String>,
    /// The next Black move carries its number.
    number_black: bool,
    /// A side line was opened: its first move starts with the parenthesis.
    opening: bool,
}

impl Default for Movetext {
    fn default() -> Movetext {
        Movetext::new()
    }
}

impl Movetext {
    /// Movetext with nothing written yet.
    pub fn new() -> Movetext {
        Movetext {
            tokens: Vec::new(),
            number_black: true,
            opening: false,
        }
    }

    /// The move `san`, played in a position at move `fullmove` with `turn` to move.
    pub fn push_move(&mut self, fullmove: u32, turn: Color, san: &str) {
        let open = if std::mem::take(&mut self.opening) {
            "("
        } else {
            ""
        };
        self.tokens.push(match turn {
            Color::White => format!("{open}{fullmove}. {san}"),
            Color::Black if self.number_black => format!("{open}{fullmove}... {san}"),
            Color::Black => format!("{open}{san}"),
        });
        self.number_black = false;
    }

    /// Tokens that interrupt the moves (NAGs, comments, side lines written whole), if any.
    pub fn interrupt(&mut self, tokens: Vec<String>) {
        if !tokens.is_empty() {
            self.number_black = true;
            self.tokens.extend(tokens);
        }
    }

    /// A comment that does not interrupt the moves: the clock's, which every move may carry.
    pub fn aside(&mut self, comment: String) {
        self.tokens.push(comment);
    }

    /// A side line starts: the next move is played instead of the last one.
    pub fn open(&mut self) {
        self.opening = true;
        self.number_black = true;
    }

    /// The side line ends, and the line it left goes on.
    pub fn close(&mut self) {
        if let Some(last) = self.tokens.last_mut() {
            last.push(')');
        }
        self.number_black = true;
    }

    /// The tokens joined by spaces on one line, with no result: a line of moves to show.
    pub fn joined(self) -> String {
        self.tokens.join(" ")
    }

    /// The movetext ending with `result`: tokens joined by spaces in lines of at most 79
    /// characters (a token longer than that gets a line of its own), with a final newline.
    pub fn finish(mut self, result: &str) -> String {
        self.tokens.push(result.to_string());
        let mut out = String::new();
        let mut line = String::new();
        for token in &self.tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_numbered_where_pgn_wants_them() {
        let mut text = Movetext::new();
        text.push_move(12, Color::Black, "Nc6");
        text.push_move(13, Color::White, "Nf3");
        text.aside("{[%clk 0:01:00.0]}".to_string());
        text.push_move(13, Color::Black, "Nf6");
        text.interrupt(vec!["$2".to_string()]);
        text.open();
        text.push_move(13, Color::Black, "d6");
        text.push_move(14, Color::White, "d4");
        text.close();
        text.push_move(14, Color::White, "Bc4");
        text.interrupt(Vec::new());
        text.push_move(14, Color::Black, "Bc5");
        assert_eq!(
            text.finish("*"),
            "12... Nc6 13. Nf3 {[%clk 0:01:00.0]} Nf6 $2 (13... d6 14. d4) 14. Bc4 Bc5 *\n"
        );
    }

    #[test]
    fn lines_wrap_at_79_and_tags_are_escaped() {
        let mut text = Movetext::new();
        for n in 1..=20 {
            text.push_move(n, Color::White, "Nf3");
            text.push_move(n, Color::Black, "Nf6");
        }
        let written = text.finish("1/2-1/2");
        assert!(written.lines().all(|l| l.len() <= 79), "{written}");
        assert!(written.ends_with("1/2-1/2\n"));
        let mut out = String::new();
        tag(&mut out, "Event", "a \"b\" \\ c");
        assert_eq!(out, "[Event \"a \\\"b\\\" \\\\ c\"]\n");
    }
}
