//! What a list of games shows of each game of a PGN, read without playing the moves: a
//! [`Heading`] a game, and for a source of any length each game's place in it.

use std::cell::Cell;
use std::fmt::Write as _;
use std::io;
use std::rc::Rc;

use pgn_reader::Reader;

use super::error::LONGEST_TAG;
use super::raw::{Collect, Keep, RawGame};
use super::stamp::{known_date, start_stamp};
use super::text::LoneCrAsLf;

/// The tags a list of games shows, in the order [`Heading`] keeps them.
const HEADING_TAGS: [&str; 9] = [
    "White",
    "Black",
    "Date",
    "UTCDate",
    "UTCTime",
    "Result",
    "ECO",
    "Opening",
    "Variation",
];
/// The most characters of a tag a list keeps: a list line is one terminal row.
const HEADING_TAG_CHARS: usize = 80;

/// What a list of games shows of one game: a few of its tags and how many moves it has, read
/// without playing the moves. One string a game, so a list of 100,000 games stays small.
#[derive(Clone, Debug, Default)]
pub struct Heading {
    /// The values of [`HEADING_TAGS`], in order, joined by line feeds (which no tag value
    /// holds); an absent tag is empty.
    tags: Box<str>,
    /// Moves of the main line.
    plies: u32,
}

impl Heading {
    /// The heading of a game read.
    pub fn of_raw(raw: &RawGame) -> Heading {
        let tags: Vec<String> = HEADING_TAGS
            .iter()
            .map(|name| {
                raw.tag(name)
                    .unwrap_or("")
                    .chars()
                    .filter(|c| !c.is_control())
                    .take(HEADING_TAG_CHARS)
                    .collect()
            })
            .collect();
        Heading {
            tags: tags.join("\n").into_boxed_str(),
            plies: u32::try_from(raw.plies).unwrap_or(u32::MAX),
        }
    }

    /// The heading of the first game of a PGN text, if it has one.
    pub fn of_text(text: &str) -> Heading {
        Reader::new(io::Cursor::new(text.as_bytes()))
            .read_game(&mut Collect(Keep::Count))
            .ok()
            .flatten()
            .map(|raw| Heading::of_raw(&raw))
            .unwrap_or_default()
    }

    fn tag(&self, i: usize) -> Option<&str> {
        self.tags.split('\n').nth(i).filter(|v| !v.is_empty())
    }

    /// The players' names, White's first ("?" when not given).
    pub fn names(&self) -> [&str; 2] {
        [self.tag(0).unwrap_or("?"), self.tag(1).unwrap_or("?")]
    }

    /// The game's date: `Date` when it is known, else `UTCDate`, as a game read reads it.
    pub fn date(&self) -> Option<&str> {
        known_date(self.tag(2), self.tag(3))
    }

    /// The `Result` tag, if any.
    pub fn result(&self) -> Option<&str> {
        self.tag(5)
    }

    /// The `UTCTime` tag (when the game started), if any.
    pub fn time(&self) -> Option<&str> {
        self.tag(4)
    }

    /// When the game started, `YYYYMMDD-HHMMSS` (the name of its file in the games folder).
    pub(crate) fn started(&self) -> Option<String> {
        start_stamp(self.tag(2), self.tag(3), self.time())
    }

    /// The opening its tags name: `C50 Italian Game` (with the `Variation` tag, if any).
    pub fn opening(&self) -> Option<String> {
        let mut text = [self.tag(6), self.tag(7)]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() {
            return None;
        }
        if let Some(variation) = self.tag(8) {
            let _ = write!(text, ": {variation}");
        }
        Some(text)
    }

    /// How many moves (plies) its main line has.
    pub fn plies(&self) -> usize {
        self.plies as usize
    }
}

/// Where one game of a PGN file is, and what a list shows of it.
#[derive(Clone, Debug)]
pub struct Spanned {
    /// The byte its text starts at.
    pub start: u64,
    /// The byte after its text; `None` when the reader failed in it (the rest of the file is
    /// then the game's, as far as anyone reading it can tell).
    pub end: Option<u64>,
    /// Its heading, or why the reader failed.
    pub heading: Result<Heading, String>,
}

/// The games of a PGN read from a source of any length, one at a time and without playing their
/// moves: each game's place and heading, with one buffer of the source in memory. Games are
/// split exactly as a whole text is read (old Mac line ends included), so the text between a
/// game's start and end reads back as that game.
pub struct PgnGames<R: io::Read> {
    reader: Reader<LoneCrAsLf<R>>,
    /// Bytes the reader has taken from the source.
    taken: Rc<Cell<u64>>,
    ended: bool,
}

impl<R: io::Read> PgnGames<R> {
    /// The games of `source`.
    pub fn new(source: R) -> PgnGames<R> {
        let taken = Rc::new(Cell::new(0));
        let reader = Reader::build(LoneCrAsLf::new(source, taken.clone()))
            // As a whole text is read (`LONGEST_TAG`): a tag read there is not an error here.
            .set_supported_tag_line_length(LONGEST_TAG)
            .finish();
        PgnGames {
            reader,
            taken,
            ended: false,
        }
    }

    /// The byte the reader is at: what it took less what it holds.
    fn at(&self) -> u64 {
        self.taken.get() - self.reader.buffer().len() as u64
    }

    /// The game the reader failed in at `start`, which ends the list: the reader cannot tell
    /// where such a game ends, so no game after it is read.
    fn failed(&mut self, start: u64, e: io::Error) -> Option<Spanned> {
        self.ended = true;
        Some(Spanned {
            start,
            end: None,
            heading: Err(e.to_string()),
        })
    }
}

impl<R: io::Read> Iterator for PgnGames<R> {
    type Item = Spanned;

    fn next(&mut self) -> Option<Spanned> {
        if self.ended {
            return None;
        }
        match self.reader.has_more() {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => {
                let at = self.at();
                return self.failed(at, e);
            }
        }
        let start = self.at();
        match self.reader.read_game(&mut Collect(Keep::Count)) {
            Ok(Some(raw)) => Some(Spanned {
                start,
                end: Some(self.at()),
                heading: Ok(Heading::of_raw(&raw)),
            }),
            Ok(None) => None,
            Err(e) => self.failed(start, e),
        }
    }
}
