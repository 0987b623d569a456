//! A game as PGN, both ways: written with Knightfall's tags, `[%clk]` times and the reason it
//! ended; and built from a game the one reader gives raw (its start, moves, clocks, tags and
//! recorded result).

use shakmaty::Position;

use super::Game;
use super::clock::TimeControl;
use super::input::MoveError;
use super::outcome::{Outcome, Reason};
use crate::pgn::write::{Movetext, tag};
use crate::pgn::{Heading, Keep, LoadError, RawGame, clk, raw, stamp};

/// The most tags of other names a game read keeps to write back.
const MAX_KEPT_TAGS: usize = 64;

/// Which of the Seven Tag Roster's `Event`, `Site`, `Date` and `Round` a game writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Roster {
    /// All four: a game Knightfall keeps (its own values where it has none).
    Full,
    /// Only those the game was read with: a game from elsewhere written back is not claimed
    /// for Knightfall's site or given a round it never had.
    AsRead,
}

impl Game {
    /// The game in PGN, with the Seven Tag Roster, FEN/SetUp for a set-up start, the time
    /// control and the termination.
    pub fn to_pgn(&self) -> String {
        self.to_pgn_with(Roster::Full, &[], &|_| Vec::new())
    }

    /// The game in PGN with `extra_tags` after the others and, after each move `i` (from 0),
    /// the tokens `after_move(i)` gives (NAGs, comments, variations).
    pub(crate) fn to_pgn_with(
        &self,
        roster: Roster,
        extra_tags: &[(&str, String)],
        after_move: &dyn Fn(usize) -> Vec<String>,
    ) -> String {
        let mut out = self.tags(roster, extra_tags);
        out.push('\n');
        out.push_str(&self.movetext(after_move));
        out
    }

    /// The tag lines: the roster (as `roster` says) and what Knightfall knows of the game,
    /// the tags kept from a file, then `extra_tags`.
    fn tags(&self, roster: Roster, extra_tags: &[(&str, String)]) -> String {
        let mut out = String::new();
        let kept = |name: &str| {
            self.kept_tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let full = roster == Roster::Full;
        let roster_tag = |out: &mut String, name: &str, own: &str| match kept(name) {
            Some(value) => tag(out, name, value),
            None if full => tag(out, name, own),
            None => {}
        };
        roster_tag(&mut out, "Event", "Knightfall game");
        roster_tag(&mut out, "Site", "Knightfall");
        if full || self.date_given {
            tag(&mut out, "Date", &self.date);
        }
        // The start time with the day it belongs to: a local Date may be another day.
        let started = self.started.as_deref();
        if let (Some(day), Some(time)) = (
            started.and_then(stamp::utc_date),
            started.and_then(stamp::utc_time),
        ) {
            tag(&mut out, "UTCDate", &day);
            tag(&mut out, "UTCTime", &time);
        }
        roster_tag(&mut out, "Round", "-");
        tag(&mut out, "White", &self.names[0]);
        tag(&mut out, "Black", &self.names[1]);
        tag(&mut out, "Result", self.result());
        if let Some(fen) = &self.start_fen {
            tag(&mut out, "SetUp", "1");
            tag(&mut out, "FEN", fen);
        }
        if let Some(clocks) = &self.clocks {
            tag(&mut out, "TimeControl", &clocks.tc.pgn());
        }
        if let Some(opening) = self.opening() {
            tag(&mut out, "ECO", opening.eco);
            tag(&mut out, "Opening", opening.name);
        }
        if let Some(text) = self.termination() {
            tag(&mut out, "Termination", &text);
        }
        for (name, value) in &self.kept_tags {
            if !matches!(name.as_str(), "Event" | "Site" | "Round")
                && !extra_tags.iter().any(|(n, _)| n == name)
            {
                tag(&mut out, name, value);
            }
        }
        for (name, value) in extra_tags {
            tag(&mut out, name, value);
        }
        out
    }

    /// The PGN result token (`*` while the game goes on).
    fn result(&self) -> &'static str {
        self.outcome.map_or("*", |o| o.result_str())
    }

    /// The `Termination` tag's text, where there is one to write.
    fn termination(&self) -> Option<String> {
        match (self.outcome, &self.recorded_termination) {
            (Some(o), Some(text)) if o.reason == Reason::Recorded => Some(text.clone()),
            // A result read from a file without its reason: none is made up.
            (Some(o), None) if o.reason == Reason::Recorded => None,
            (Some(o), _) => Some(o.termination()),
            (None, _) if self.abandoned => Some("abandoned".to_string()),
            (None, _) => None,
        }
    }

    /// The movetext: each move, what `after_move` adds to it, its clock, then the reason the
    /// game ended when the outcome alone does not say it, and the result.
    fn movetext(&self, after_move: &dyn Fn(usize) -> Vec<String>) -> String {
        let mut text = Movetext::new();
        for (i, san) in self.sans.iter().enumerate() {
            let before = &self.positions[i];
            text.push_move(before.fullmoves().get(), before.turn(), san);
            text.interrupt(after_move(i));
            if let Some(Some(left)) = self.clk.get(i) {
                text.aside(clk::comment(*left));
            }
        }
        if let Some(note) = self.end_note.as_ref().filter(|_| self.outcome.is_some()) {
            text.aside(format!("{{{}}}", note.replace('}', ")")));
        }
        text.finish(self.result())
    }

    /// What a list of games shows of this one, as its PGN says it.
    pub fn heading(&self) -> Heading {
        Heading::of_text(&self.to_pgn())
    }

    /// Reads the first game of a PGN: start position, moves (main line), names and result. Its
    /// date and start are the file's: a caller that plays it on dates what the file leaves out.
    pub fn from_pgn(text: &str) -> Result<Game, LoadError> {
        Game::from_raw(&raw::first(text, Keep::MainLine)?)
    }

    /// Reads every game of a PGN (at most `max`), each loaded or with the reason it is not.
    pub(crate) fn all_from_pgn(text: &str, max: usize) -> Vec<Result<Game, LoadError>> {
        raw::all(text, max)
            .into_iter()
            .map(|read| read.and_then(|raw| Game::from_raw(&raw)))
            .collect()
    }

    /// The game `raw` writes, its moves played through.
    pub(crate) fn from_raw(raw: &RawGame) -> Result<Game, LoadError> {
        let mut game = Game::from_position(raw.start()?);
        if let Some(tc) = raw.tag("TimeControl") {
            // PGN TimeControl is in seconds: "300+3", or "180" with no increment (chess.com).
            let (base, inc) = tc.trim().split_once('+').unwrap_or((tc.trim(), "0"));
            if !base.is_empty()
                && base.bytes().all(|b| b.is_ascii_digit())
                && let Ok(tc) = TimeControl::parse(&format!("{base}s+{inc}"))
            {
                game.set_time_control(Some(tc));
            }
        }
        game.replay(raw)?;
        game.take_tags(raw);
        game.take_result(raw);
        Ok(game)
    }

    /// Plays the moves of `raw`'s main line, and sets the clocks as its `[%clk]` times had
    /// them.
    fn replay(&mut self, raw: &RawGame) -> Result<(), LoadError> {
        let mut clk = Vec::new();
        for (i, written) in raw.main_line().enumerate() {
            let san = written.san.san;
            let bad = || LoadError::BadMove {
                ply: i + 1,
                san: san.to_string(),
            };
            let m = san.to_move(self.position()).map_err(|_| bad())?;
            self.play_on(m).map_err(|e| match (e, self.outcome()) {
                (MoveError::GameOver, Some(end)) => LoadError::AfterEnd {
                    ply: i + 1,
                    san: san.to_string(),
                    why: end.reason.describe().to_string(),
                },
                _ => bad(),
            })?;
            clk.push(written.comments.iter().rev().find_map(|c| clk::read(c)));
        }
        if self.clocks.is_some() && clk.iter().any(Option::is_some) {
            self.clk = clk;
            self.rewind_clocks();
        }
        Ok(())
    }

    /// Takes the names, dates, termination and other tags `raw` gives.
    fn take_tags(&mut self, raw: &RawGame) {
        let (date, utc_date) = (raw.tag("Date"), raw.tag("UTCDate"));
        // A file without a start time leaves it to the caller, as a new game does.
        if let Some(stamp) = stamp::start_stamp(date, utc_date, raw.tag("UTCTime")) {
            self.started = Some(stamp);
        }
        if let Some(date) = stamp::known_date(date, utc_date) {
            self.date = date.to_string();
            self.date_given = true;
        }
        for (i, name) in ["White", "Black"].into_iter().enumerate() {
            self.names[i] = raw.tag(name).unwrap_or("?").to_string();
        }
        self.recorded_termination = raw.tag("Termination").map(str::to_string);
        self.kept_tags = raw
            .tags
            .iter()
            .filter(|(name, _)| !own_tag(name))
            .take(MAX_KEPT_TAGS)
            .cloned()
            .collect();
    }

    /// Takes the result `raw` records where the rules give none.
    fn take_result(&mut self, raw: &RawGame) {
        let recorded = raw.recorded();
        // A recorded decisive result in a position where a draw could have been claimed
        // (a resignation or a loss on time) stands.
        if recorded.is_some_and(|r| r.winner().is_some()) {
            self.forget_claimable_draw();
        }
        if self.outcome.is_none() {
            self.outcome = recorded.map(Outcome::recorded);
        }
        // An aborted game has no result, but it is over: not a game to resume.
        let aborted = self.recorded_termination.as_deref().is_some_and(|t| {
            t.get(..super::outcome::ABORTED.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(super::outcome::ABORTED))
        });
        if self.outcome.is_none() && recorded.is_none() && aborted {
            self.outcome = Some(Outcome {
                winner: None,
                reason: Reason::Aborted,
            });
        }
    }
}

/// Whether a game read takes the tag `name` for itself (or makes it again from the game) rather
/// than keeping it to write back as it was.
fn own_tag(name: &str) -> bool {
    matches!(
        name,
        "FEN"
            | "SetUp"
            | "Variant"
            | "White"
            | "Black"
            | "Date"
            | "UTCDate"
            | "UTCTime"
            | "Result"
            | "TimeControl"
            | "Termination"
            | "ECO"
            | "Opening"
            | "PlyCount"
    )
}

/// A game as a PGN file writes it, not yet played through: cheap to hold in a list; `load`
/// plays it.
#[derive(Clone, Debug)]
pub struct PgnGame(RawGame);

impl PgnGame {
    /// The game as its PGN says: `game` written out and read back.
    pub fn of(game: &Game) -> PgnGame {
        let text = game.to_pgn();
        PgnGame(
            raw::games(text.as_bytes())
                .next()
                .and_then(Result::ok)
                .unwrap_or_default(),
        )
    }

    /// The game, played through (its moves checked).
    pub fn load(&self) -> Result<Game, LoadError> {
        Game::from_raw(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use shakmaty::Color;

    use super::*;
    use crate::game::Moment;
    use crate::pgn::{PgnGames, Spanned};

    /// A source that gives one byte a read, so every boundary falls everywhere once.
    struct Trickle<'a>(&'a [u8]);

    impl io::Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let Some((&b, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            match out.first_mut() {
                Some(slot) => *slot = b,
                None => return Ok(0),
            }
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn a_time_control_without_an_increment_is_a_clock() {
        let base = |tag: &str| {
            let text = format!("[TimeControl \"{tag}\"]\n\n1. e4 e5 *\n");
            Game::from_pgn(&text)
                .unwrap()
                .clocks()
                .map(|c| (c.tc.base.as_secs(), c.tc.inc.as_secs()))
        };
        assert_eq!(base("180"), Some((180, 0)));
        assert_eq!(base("180+2"), Some((180, 2)));
        // Not a clock: moves in a period, a correspondence day, nothing.
        assert_eq!(base("40/7200"), None);
        assert_eq!(base("1/259200"), None);
        assert_eq!(base("-"), None);
    }

    #[test]
    fn each_games_place_in_a_stream_reads_back_as_that_game() {
        let text = "\u{feff}[White \"A\"]\r\n\r\n1. e4 { a comment\r\n\r\n[over lines] } e5 *\r\n\r\n\
                    % an escaped line\n[White \"B\"]\r[Black \"C\"]\r\r1. d4 d5 *\r\r\
                    [White \"D\"]\n\n1. c4 (1. g3 g6) 1... c5 ; to the end\n2. Nc3 1-0\n\n\
                    1. f3 e5 2. g4 Qh4# 0-1";
        let whole = Game::all_from_pgn(text, 100);
        assert_eq!(whole.len(), 4);
        for source in [
            Box::new(Trickle(text.as_bytes())) as Box<dyn io::Read>,
            Box::new(io::Cursor::new(text.as_bytes())),
        ] {
            let found: Vec<Spanned> = PgnGames::new(source).collect();
            assert_eq!(found.len(), whole.len());
            for (spanned, game) in found.iter().zip(&whole) {
                let game = game.as_ref().unwrap();
                let end = spanned.end.unwrap() as usize;
                let own = Game::from_pgn(&text[spanned.start as usize..end]).unwrap();
                assert_eq!(own.moves(), game.moves());
                assert_eq!(own.names, game.names);
                let heading = spanned.heading.as_ref().unwrap();
                assert_eq!(heading.plies(), game.ply());
                assert_eq!(
                    heading.names(),
                    [game.names[0].as_str(), game.names[1].as_str()]
                );
            }
        }
    }

    #[test]
    fn a_game_the_reader_fails_in_ends_the_list_with_its_place() {
        let text = format!(
            "[White \"A\"]\n\n1. e4 *\n\n[Event \"{}\"]\n\n1. d4 *\n\n[White \"C\"]\n\n1. c4 *\n",
            "x".repeat(20_000)
        );
        let found: Vec<Spanned> = PgnGames::new(io::Cursor::new(text.as_bytes())).collect();
        assert_eq!(found.len(), 2);
        assert!(found[0].heading.is_ok());
        assert_eq!(found[1].end, None);
        assert!(found[1].heading.is_err());
        let why = Game::from_pgn(&text[found[1].start as usize..]).unwrap_err();
        assert!(matches!(why, LoadError::LongTag { line: 1, .. }), "{why}");
    }

    #[test]
    fn a_game_dated_by_utcdate_alone_keeps_its_date_and_start_time() {
        let only_utc = "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[UTCDate \"2026.11.20\"]\n\
                        [UTCTime \"10:00:00\"]\n\n1. e4 *\n";
        let text = Game::from_pgn(only_utc).unwrap().to_pgn();
        assert!(text.contains("[Date \"2026.11.20\"]"), "{text}");
        assert!(text.contains("[UTCTime \"10:00:00\"]"), "{text}");
        // An unknown Date gives way to UTCDate; a known one stays.
        let unknown = only_utc.replace("[UTCDate", "[Date \"????.??.??\"]\n[UTCDate");
        let text = Game::from_pgn(&unknown).unwrap().to_pgn();
        assert!(text.contains("[Date \"2026.11.20\"]"), "{text}");
        let both = only_utc.replace("[UTCDate", "[Date \"2026.11.19\"]\n[UTCDate");
        let text = Game::from_pgn(&both).unwrap().to_pgn();
        assert!(text.contains("[Date \"2026.11.19\"]"), "{text}");
        // The start time keeps the day it belongs to.
        assert!(text.contains("[UTCDate \"2026.11.20\"]"), "{text}");
    }

    #[test]
    fn a_date_the_file_gives_is_kept_even_unknown_and_a_missing_one_is_filled_in() {
        let game = |date: &str| format!("{date}[White \"A\"]\n[Black \"B\"]\n\n1. e4 *\n");
        let at = Moment::from_unix(1_700_000_000);
        for given in ["????.??.??", "2024.??.??", "2024.03.05"] {
            let mut g = Game::from_pgn(&game(&format!("[Date \"{given}\"]\n"))).unwrap();
            g.dated(at);
            assert_eq!(g.date, given);
        }
        let mut g = Game::from_pgn(&game("")).unwrap();
        g.dated(at);
        assert_eq!(g.date, at.date());
    }

    #[test]
    fn pgn_round_trip() {
        let mut g = Game::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20").unwrap();
        for m in ["O-O", "O-O-O", "Rf2", "Rd2"] {
            g.play_text(m, None).unwrap();
        }
        g.resign(Color::White);
        let pgn = g.to_pgn();
        assert!(pgn.contains("[FEN \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20\"]"));
        assert!(pgn.contains("20... O-O 21. O-O-O Rf2 22. Rd2 0-1"), "{pgn}");
        let back = Game::from_pgn(&pgn).unwrap();
        assert_eq!(back.sans(), g.sans());
        assert_eq!(back.fen(), g.fen());
        assert_eq!(back.outcome().unwrap().winner, Some(Color::Black));
        assert!(matches!(
            Game::from_pgn("1. e4 e4 *"),
            Err(LoadError::BadMove { ply: 2, .. })
        ));
        assert!(Game::from_pgn("").is_err());
    }
}
