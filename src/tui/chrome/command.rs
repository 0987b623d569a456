//! A screen's commands: the ones every screen has alike ([`Common`]) and its own, as one
//! [`Command`]. A word typed on an input line parses into one, or is refused by name
//! ([`Unknown`]), so a new word cannot slip past the screen's match.

use std::fmt;
use std::str::FromStr;

/// The commands every screen has alike, with the words they are typed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Common {
    /// `help`: the help overlay.
    Help,
    /// `back`, `quit`, `q`: close the screen, back to the one it was opened from (or out of
    /// Knightfall when there is none to go back to).
    Back,
    /// `exit`: leave Knightfall, from any screen.
    Exit,
    /// `flip`: turn the board around.
    Flip,
    /// `theme`, `theme NAME`: the board's next colour theme, or the one named.
    Theme,
}

impl FromStr for Common {
    type Err = Unknown;

    fn from_str(word: &str) -> Result<Common, Unknown> {
        match word.to_ascii_lowercase().as_str() {
            "help" => Ok(Common::Help),
            "back" | "quit" | "q" => Ok(Common::Back),
            "exit" => Ok(Common::Exit),
            "flip" => Ok(Common::Flip),
            "theme" => Ok(Common::Theme),
            _ => Err(Unknown(word.to_string())),
        }
    }
}

/// A word that names no command of the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown(pub String);

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown command '{}': type help", self.0)
    }
}

/// A command of a screen: one every screen has, or one of the screen's own (`S`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<S> {
    /// One every screen has alike.
    Common(Common),
    /// The screen's own.
    Own(S),
}

impl<S: FromStr<Err = Unknown>> FromStr for Command<S> {
    type Err = Unknown;

    /// The common words first, then the screen's own.
    fn from_str(word: &str) -> Result<Command<S>, Unknown> {
        match word.parse::<Common>() {
            Ok(common) => Ok(Command::Common(common)),
            Err(_) => word.parse::<S>().map(Command::Own),
        }
    }
}

/// A typed line as its first word and the rest, its argument (`None` when there is none).
pub(crate) fn split(text: &str) -> (&str, Option<&str>) {
    let text = text.trim();
    match text.split_once(char::is_whitespace) {
        Some((word, arg)) => (word, Some(arg.trim()).filter(|a| !a.is_empty())),
        None => (text, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_words_parse_in_any_case_and_others_are_named_in_the_refusal() {
        assert_eq!("FLIP".parse::<Common>(), Ok(Common::Flip));
        assert_eq!("quit".parse::<Common>(), Ok(Common::Back));
        assert_eq!("q".parse::<Common>(), Ok(Common::Back));
        let err = "flpi".parse::<Common>().unwrap_err();
        assert_eq!(err.to_string(), "unknown command 'flpi': type help");
    }

    #[test]
    fn a_line_splits_into_its_word_and_argument() {
        assert_eq!(split("save  games/a.pgn "), ("save", Some("games/a.pgn")));
        assert_eq!(split(" theme "), ("theme", None));
        assert_eq!(split(""), ("", None));
    }
}
