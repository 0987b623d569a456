//! The one reader of PGN games. It gives each game raw, as its text writes it: the tags, the
//! moves with their comments and NAGs (side lines too, where the caller wants them) and the
//! result the movetext ends with. Every caller builds what it needs from that: a game, the
//! board's tree of lines, a book's counts, a list's headings.

use std::io;
use std::ops::ControlFlow;

use pgn_reader::{KnownOutcome, Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::Chess;

use super::error::LoadError;
use super::scan;
use super::text::readable;

/// What a read keeps of the movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The main line's moves counted, not kept: what a list of games shows.
    Count,
    /// The main line, with its comments and NAGs; side lines are passed over.
    MainLine,
    /// Every line, up to `most` moves in all: past that the read stops and the game is marked
    /// [`RawGame::cut`].
    SideLines {
        /// The most moves kept.
        most: usize,
    },
}

/// A move as written, with the NAGs and comments that follow it.
#[derive(Clone, Debug)]
pub struct RawMove {
    /// The move, check mark included.
    pub san: SanPlus,
    /// Its annotation glyphs (`$1`, `!?`).
    pub nags: Vec<Nag>,
    /// Its comments, without the braces, in order.
    pub comments: Vec<String>,
}

/// One token of the movetext as kept.
#[derive(Clone, Debug)]
pub enum Token {
    /// A move.
    Move(RawMove),
    /// A side line starts: it is played instead of the move before it.
    Open,
    /// A side line ends: the line it left goes on.
    Close,
}

/// The most tags kept of one game, the first ones written: no program writes so many, and a
/// file that does is not held whole.
const MAX_TAGS: usize = 256;

/// A game as its PGN writes it, not yet played through.
#[derive(Clone, Debug, Default)]
pub struct RawGame {
    /// The tags in the order written, the first [`MAX_TAGS`] of them.
    pub tags: Vec<(String, String)>,
    /// The movetext kept (nothing when only counted).
    pub movetext: Vec<Token>,
    /// Moves of the main line, counted also when not kept.
    pub plies: usize,
    /// The result the movetext ends with, when it is one.
    pub ends: Option<KnownOutcome>,
    /// More moves than asked for were written: the read stopped there.
    pub cut: bool,
}

impl RawGame {
    /// The value of tag `name`, if written (the last, if written more than once).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The moves of the main line.
    pub fn main_line(&self) -> impl Iterator<Item = &RawMove> {
        let mut depth = 0usize;
        self.movetext.iter().filter_map(move |token| match token {
            Token::Move(m) if depth == 0 => Some(m),
            Token::Move(_) => None,
            Token::Open => {
                depth += 1;
                None
            }
            Token::Close => {
                depth = depth.saturating_sub(1);
                None
            }
        })
    }

    /// The position the game starts from: its `FEN` tag's, else the standard one. A variant
    /// other than standard chess is refused.
    pub fn start(&self) -> Result<Chess, LoadError> {
        if let Some(variant) = self.tag("Variant") {
            let v = variant.trim().to_ascii_lowercase();
            if !matches!(
                v.as_str(),
                "" | "standard" | "chess" | "normal" | "from position"
            ) {
                return Err(LoadError::Variant(variant.to_string()));
            }
        }
        match self.tag("FEN") {
            Some(fen) => Ok(crate::fen::position(fen)?),
            None => Ok(Chess::default()),
        }
    }

    /// The result its `Result` tag gives, if it gives one (`*` gives none).
    pub fn recorded(&self) -> Option<KnownOutcome> {
        KnownOutcome::from_ascii(self.tag("Result")?.trim().as_bytes()).ok()
    }

    /// The result: the `Result` tag's, or else the one the movetext ends with.
    pub fn outcome(&self) -> Outcome {
        Outcome::from_known(self.recorded().or(self.ends))
    }
}

/// The first game of `text` (figurines and lone CRs read as [`readable`] makes them). A token
/// the reader would have skipped is an error naming its line, since the game read without it is
/// not the game written: in the main line, or in any line when side lines are kept.
pub fn first(text: &str, keep: Keep) -> Result<RawGame, LoadError> {
    let text = readable(text);
    let mut reader = Reader::new(io::Cursor::new(text.as_bytes()));
    let raw = reader
        .read_game(&mut Collect(keep))
        .map_err(|e| LoadError::reading(&text, e))?
        .ok_or(LoadError::Empty)?;
    let scanned = scan::games(&text).next();
    let side_lines = matches!(keep, Keep::SideLines { .. });
    // Where side lines are read, every line counts: the scan need not agree on the main one.
    let plies = match (&scanned, side_lines) {
        (Some(s), true) => s.main_line,
        _ => raw.plies,
    };
    match LoadError::stray(scanned, plies, side_lines) {
        Some(stray) => Err(stray),
        None => Ok(raw),
    }
}

/// Every game of `text` (at most `max`), main lines kept, each with the reason it cannot be read
/// as [`first`] gives it; a failure of the reader ends the list.
pub fn all(text: &str, max: usize) -> Vec<Result<RawGame, LoadError>> {
    let text = readable(text);
    let mut reader = Reader::new(io::Cursor::new(text.as_bytes()));
    let mut scans = scan::games(&text);
    let mut games = Vec::new();
    while games.len() < max {
        match reader.read_game(&mut Collect(Keep::MainLine)) {
            Ok(Some(raw)) => games.push(match LoadError::stray(scans.next(), raw.plies, false) {
                Some(stray) => Err(stray),
                None => Ok(raw),
            }),
            Ok(None) => break,
            Err(e) => {
                games.push(Err(LoadError::reading(&text, e)));
                break;
            }
        }
    }
    games
}

/// The games of a PGN source of any length, one at a time, main lines kept, read as written
/// (no figurines, no stray scan: for tools fed whole databases).
pub fn games<R: io::Read>(source: R) -> impl Iterator<Item = io::Result<RawGame>> {
    let mut reader = Reader::new(source);
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        let next = reader.read_game(&mut Collect(Keep::MainLine)).transpose();
        failed = next.as_ref().is_some_and(Result::is_err);
        next
    })
}

/// The visitor: collects a [`RawGame`], keeping what it is told to.
pub(crate) struct Collect(pub(crate) Keep);

/// A game being read.
pub(crate) struct Reading {
    game: RawGame,
    /// For the main line and each open side line, innermost last: the index in the movetext of
    /// its last move, which a comment or NAG belongs to.
    lines: Vec<Option<usize>>,
    /// Moves kept, side lines included.
    kept: usize,
    /// The last comment kept is still coming, in parts.
    in_comment: bool,
}

impl Reading {
    /// The move that a comment or NAG read now belongs to.
    fn last_move(&mut self) -> Option<&mut RawMove> {
        let i = (*self.lines.last()?)?;
        match self.game.movetext.get_mut(i) {
            Some(Token::Move(m)) => Some(m),
            _ => None,
        }
    }

    /// Keeps `text` as a comment on the last move, or as the next part of the comment coming
    /// in parts; `whole` when it is the comment's end.
    fn note(&mut self, text: RawComment<'_>, whole: bool) {
        let text = String::from_utf8_lossy(text.as_bytes());
        let going_on = std::mem::replace(&mut self.in_comment, false);
        let Some(m) = self.last_move() else {
            return;
        };
        match m.comments.last_mut() {
            Some(open) if going_on => open.push_str(&text),
            _ => m.comments.push(text.into_owned()),
        }
        self.in_comment = !whole;
    }
}

impl Visitor for Collect {
    type Tags = Reading;
    type Movetext = Reading;
    type Output = RawGame;

    fn begin_tags(&mut self) -> ControlFlow<RawGame, Reading> {
        ControlFlow::Continue(Reading {
            game: RawGame::default(),
            lines: vec![None],
            kept: 0,
            in_comment: false,
        })
    }

    fn tag(&mut self, r: &mut Reading, name: &[u8], value: RawTag<'_>) -> ControlFlow<RawGame> {
        if r.game.tags.len() < MAX_TAGS {
            r.game.tags.push((
                String::from_utf8_lossy(name).into_owned(),
                value.decode_utf8_lossy().into_owned(),
            ));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Reading) -> ControlFlow<RawGame, Reading> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, r: &mut Reading, san: SanPlus) -> ControlFlow<RawGame> {
        if r.lines.len() == 1 {
            r.game.plies += 1;
        }
        if self.0 == Keep::Count {
            return ControlFlow::Continue(());
        }
        if let Keep::SideLines { most } = self.0
            && r.kept >= most
        {
            r.game.cut = true;
            return ControlFlow::Break(std::mem::take(&mut r.game));
        }
        r.kept += 1;
        if let Some(last) = r.lines.last_mut() {
            *last = Some(r.game.movetext.len());
        }
        r.game.movetext.push(Token::Move(RawMove {
            san,
            nags: Vec::new(),
            comments: Vec::new(),
        }));
        ControlFlow::Continue(())
    }

    fn nag(&mut self, r: &mut Reading, nag: Nag) -> ControlFlow<RawGame> {
        if let Some(m) = r.last_move() {
            m.nags.push(nag);
        }
        ControlFlow::Continue(())
    }

    fn partial_comment(&mut self, r: &mut Reading, part: RawComment<'_>) -> ControlFlow<RawGame> {
        // A comment longer than the reader's buffer comes in parts, the last through `comment`.
        r.note(part, false);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, r: &mut Reading, comment: RawComment<'_>) -> ControlFlow<RawGame> {
        r.note(comment, true);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, r: &mut Reading) -> ControlFlow<RawGame, Skip> {
        if !matches!(self.0, Keep::SideLines { .. }) {
            return ControlFlow::Continue(Skip(true));
        }
        r.lines.push(None);
        r.game.movetext.push(Token::Open);
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, r: &mut Reading) -> ControlFlow<RawGame> {
        // A side line passed over ends here too.
        if !matches!(self.0, Keep::SideLines { .. }) {
            return ControlFlow::Continue(());
        }
        if r.lines.len() > 1 {
            r.lines.pop();
        }
        r.game.movetext.push(Token::Close);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, r: &mut Reading, outcome: Outcome) -> ControlFlow<RawGame> {
        r.game.ends = outcome.known();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, r: Reading) -> RawGame {
        r.game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans<'a>(moves: impl Iterator<Item = &'a RawMove>) -> Vec<String> {
        moves.map(|m| m.san.to_string()).collect()
    }

    #[test]
    fn the_main_line_with_its_comments_and_the_side_lines_apart() {
        let text = "[White \"A\"]\n[Event \"e\"]\n[White \"B\"]\n[Result \" 1-0\"]\n\n\
                    {before} 1. e4 $1 {good} (1. d4 {also} d5 (1... Nf6)) 1... e5+ {a} {b} 0-1";
        let main = first(text, Keep::MainLine).unwrap();
        assert_eq!(main.tag("White"), Some("B"));
        assert_eq!(main.tags.len(), 4);
        assert_eq!(sans(main.main_line()), ["e4", "e5+"]);
        let moves: Vec<&RawMove> = main.main_line().collect();
        assert_eq!(moves[0].comments, ["good"]);
        assert_eq!(moves[0].nags, [Nag(1)]);
        assert_eq!(moves[1].comments, ["a", "b"]);
        assert_eq!(main.plies, 2);
        assert_eq!(
            main.recorded(),
            Some(KnownOutcome::Decisive {
                winner: shakmaty::Color::White
            })
        );
        assert_eq!(
            main.ends,
            Some(KnownOutcome::Decisive {
                winner: shakmaty::Color::Black
            })
        );

        let all = first(text, Keep::SideLines { most: 100 }).unwrap();
        assert_eq!(sans(all.main_line()), ["e4", "e5+"]);
        let every: Vec<&RawMove> = all
            .movetext
            .iter()
            .filter_map(|t| match t {
                Token::Move(m) => Some(m),
                _ => None,
            })
            .collect();
        assert_eq!(
            sans(every.iter().copied()),
            ["e4", "d4", "d5", "Nf6", "e5+"]
        );
        assert_eq!(every[0].comments, ["good"]);
        assert_eq!(every[1].comments, ["also"]);
        assert_eq!(all.plies, 2);

        let counted = first(text, Keep::Count).unwrap();
        assert!(counted.movetext.is_empty());
        assert_eq!(counted.plies, 2);
    }

    #[test]
    fn the_result_falls_back_on_the_movetext_and_a_variant_is_refused() {
        let raw = first("1. e4 e5 1/2-1/2", Keep::MainLine).unwrap();
        assert_eq!(raw.recorded(), None);
        assert_eq!(raw.outcome(), Outcome::Known(KnownOutcome::Draw));
        assert!(raw.start().is_ok());
        let raw = first("[Variant \"Atomic\"]\n\n1. e4 *", Keep::MainLine).unwrap();
        assert!(matches!(raw.start(), Err(LoadError::Variant(v)) if v == "Atomic"));
    }

    #[test]
    fn a_long_comment_in_parts_is_one_comment() {
        let long = "x".repeat(1000);
        let raw = first(
            &format!("1. e4 {{{long} [%clk 0:01:00]}} *"),
            Keep::MainLine,
        )
        .unwrap();
        let m = raw.main_line().next().unwrap();
        assert_eq!(m.comments.len(), 1);
        assert!(m.comments[0].starts_with(&long));
        assert!(m.comments[0].ends_with("[%clk 0:01:00]"));
    }

    #[test]
    fn side_lines_past_the_most_cut_the_game() {
        let raw = first("1. e4 (1. d4 d5) e5 2. Nf3 *", Keep::SideLines { most: 3 }).unwrap();
        assert!(raw.cut);
        let raw = first("1. e4 (1. d4 d5) e5 2. Nf3 *", Keep::SideLines { most: 5 }).unwrap();
        assert!(!raw.cut);
    }

    #[test]
    fn a_database_is_read_game_by_game() {
        let text = "[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 d5 *\n";
        let names: Vec<String> = games(text.as_bytes())
            .map(|g| g.unwrap().tag("White").unwrap_or("").to_string())
            .collect();
        assert_eq!(names, ["A", "B"]);
    }
}
