//! Why a PGN, or the position it starts from, could not be loaded: the one error every reader
//! of games gives, with the line of the file where the text itself is at fault.

use std::io;

use thiserror::Error;

use super::scan::Scanned;

/// Why a position or a PGN could not be loaded.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The FEN did not parse or describes an illegal position.
    #[error(transparent)]
    Fen(#[from] crate::fen::FenError),
    /// Reading the PGN failed.
    #[error("cannot read PGN: {0}")]
    Io(#[from] io::Error),
    /// The PGN holds no game.
    #[error("no game in the PGN")]
    Empty,
    /// The game is of a variant Knightfall does not play.
    #[error("{0} is not standard chess: Knightfall plays no variant")]
    Variant(String),
    /// A move in the PGN is not legal.
    #[error("move {ply} ({san}) in the PGN is not legal")]
    BadMove {
        /// Ply number, from 1.
        ply: usize,
        /// The move as written.
        san: String,
    },
    /// A move in the PGN comes after the game had ended by the rules (a dead position).
    #[error("move {ply} ({san}) in the PGN comes after the game ended: {why}")]
    AfterEnd {
        /// Ply number, from 1.
        ply: usize,
        /// The move as written.
        san: String,
        /// How it had ended.
        why: String,
    },
    /// The PGN has more positions (side lines included) than the board holds.
    #[error("the PGN has more than {0} positions (side lines included), more than the board holds")]
    TooLarge(usize),
    /// A movetext token that is neither a move nor anything else the PGN reader reads; the
    /// reader would skip it and lose a move or blame the next one.
    #[error("{token:?} on line {line} of the PGN is not a move; {place}")]
    NotAMove {
        /// The token as written.
        token: String,
        /// Its line, from 1.
        line: usize,
        /// Where it stands in the game ("it follows Nf3").
        place: String,
    },
    /// A tag line is longer than the PGN reader holds.
    #[error(
        "the tag on line {line} is {bytes} bytes long; tags are read up to {LONGEST_TAG} bytes"
    )]
    LongTag {
        /// Line number, from 1.
        line: usize,
        /// Its length.
        bytes: usize,
    },
}

/// The longest tag line the PGN reader is sure to hold (its buffer is 16 KB).
pub(crate) const LONGEST_TAG: usize = 8192;

impl LoadError {
    /// The reader's error on `text`, with a tag too long for it named as that rather than as
    /// "unterminated", which is what the reader says of it.
    pub(crate) fn reading(text: &str, e: io::Error) -> LoadError {
        if e.kind() == io::ErrorKind::InvalidData && e.to_string() == "unterminated tag" {
            let long = text
                .split('\n')
                .enumerate()
                .find(|(_, l)| l.trim_start().starts_with('[') && l.len() > LONGEST_TAG);
            if let Some((i, l)) = long {
                return LoadError::LongTag {
                    line: i + 1,
                    bytes: l.len(),
                };
            }
        }
        LoadError::Io(e)
    }

    /// This error of a game whose text starts `lines` lines into its file, its line counted
    /// in the file.
    pub(crate) fn lines_down(self, lines: usize) -> LoadError {
        match self {
            LoadError::NotAMove { token, line, place } => LoadError::NotAMove {
                token,
                line: line + lines,
                place,
            },
            LoadError::LongTag { line, bytes } => LoadError::LongTag {
                line: line + lines,
                bytes,
            },
            other => other,
        }
    }

    /// The stray token `scanned` found in a game the reader read as `main_line` moves, if the
    /// two saw the same game; a stray in a side line counts only where side lines are read.
    pub(crate) fn stray(
        scanned: Option<Scanned>,
        main_line: usize,
        side_lines_read: bool,
    ) -> Option<LoadError> {
        let scanned = scanned.filter(|s| s.main_line == main_line)?;
        let stray = scanned
            .stray
            .filter(|s| side_lines_read || !s.in_side_line)?;
        Some(LoadError::NotAMove {
            token: stray.token,
            line: stray.line,
            place: stray.place,
        })
    }
}
