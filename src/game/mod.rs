//! A game of chess as the terminal game keeps it: a start position, the moves played with their
//! SAN, the outcome and its reason, optional clocks with increment, and PGN out and in.
//!
//! Nothing here knows about the terminal or the engine beyond the repetition key, and a game
//! reads no clock: whoever starts one dates it, with a moment read at the edge ([`calendar`]).
//! So the same `Game` serves the screen, the headless watcher and the tests.
//!
//! The modules are listed in dependency order: each uses only those above it.

pub mod calendar;
pub mod outcome;
pub mod clock;
pub mod input;
pub mod pgn;

use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

pub use self::calendar::{Moment, WallClock, date_of_day, day_number, timestamp, today};
pub use self::clock::{Clocks, TimeControl, side};
pub use self::input::MoveError;
pub use self::outcome::{Outcome, Reason};
pub use self::pgn::PgnGame;
use crate::engine::node::key_of;
pub use crate::pgn::LoadError;

/// The `Date` of a game that does not say when it was played.
pub const UNKNOWN_DATE: &str = "????.??.??";

/// One game: start position, moves, SAN, outcome, clocks.
#[derive(Clone, Debug)]
pub struct Game {
    start_fen: Option<String>,
    positions: Vec<Chess>,
    moves: Vec<Move>,
    sans: Vec<String>,
    keys: Vec<u64>,
    outcome: Option<Outcome>,
    clocks: Option<Clocks>,
    /// The mover's time left after each move, when clocks ran (PGN `[%clk]`).
    clk: Vec<Option<Duration>>,
    /// Why the game ended, in words, when the reason alone does not say (a forfeit's cause);
    /// written as the last comment of the PGN.
    end_note: Option<String>,
    /// Player names for the PGN, White then Black.
    pub names: [String; 2],
    /// PGN `Date` tag (`YYYY.MM.DD`), [`UNKNOWN_DATE`] until the game is [`dated`](Game::dated).
    pub date: String,
    /// The date came from the game's own record (a PGN `Date` or `UTCDate`): kept as it is,
    /// even unknown or partial (`2024.??.??`), never replaced by the day it is looked at.
    date_given: bool,
    /// When the game started, `YYYYMMDD-HHMMSS` UTC (PGN `UTCTime` with `Date`): names the
    /// game's archive file, so saving it again (after a resume) replaces the same file. `None`
    /// until the game is [`dated`](Game::dated).
    pub started: Option<String>,
    /// The game was left unfinished for another (PGN `Termination "abandoned"`, result `*`).
    abandoned: bool,
    /// The `Termination` text of a game read from a file, kept for its recorded result.
    recorded_termination: Option<String>,
    /// Tags of a game read from a file that Knightfall does not set itself (`Event`, `Site`,
    /// `Round`, `Annotator`, ratings...), written back as they were.
    pub kept_tags: Vec<(String, String)>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the standard start position, not dated.
    pub fn new() -> Game {
        Game::from_chess(Chess::default(), None)
    }

    fn from_chess(pos: Chess, start_fen: Option<String>) -> Game {
        let mut game = Game {
            start_fen,
            keys: vec![key_of(&pos)],
            positions: vec![pos],
            moves: Vec::new(),
            sans: Vec::new(),
            outcome: None,
            clocks: None,
            clk: Vec::new(),
            end_note: None,
            names: ["?".to_string(), "?".to_string()],
            date: UNKNOWN_DATE.to_string(),
            date_given: false,
            started: None,
            abandoned: false,
            recorded_termination: None,
            kept_tags: Vec::new(),
        };
        game.outcome = game.rule_outcome();
        game
    }

    /// A game from a FEN, not dated.
    pub fn from_fen(text: &str) -> Result<Game, LoadError> {
        Ok(Game::from_position(crate::fen::position(text)?))
    }

    /// A game from `pos`, not dated; its FEN is written when it is not the standard start.
    fn from_position(pos: Chess) -> Game {
        let normal = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let start = Fen::from_position(&Chess::default(), EnPassantMode::Legal).to_string();
        let start_fen = (normal != start).then_some(normal);
        Game::from_chess(pos, start_fen)
    }

    /// Dates the game as begun `at` where it does not say when it began: its `Date` when
    /// no record gave one, its start when not given. A game read from a file keeps what its
    /// tags say, an unknown or partial date included.
    pub fn dated(&mut self, at: Moment) {
        if !self.date_given {
            self.date = at.date();
        }
        if self.started.is_none() {
            self.started = Some(at.stamp());
        }
    }

    /// Sets clocks (or none) and restarts them at the base time.
    pub(crate) fn set_time_control(&mut self, tc: Option<TimeControl>) {
        self.clocks = tc.map(Clocks::new);
    }

    /// The clocks, when the game has a time control.
    pub fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// Pieces each side has taken so far, White's haul first, by role (pawn, knight, bishop,
    /// rook, queen): the captures played, so a promotion is not a capture (a promoted piece
    /// taken later counts as what it became).
    pub(crate) fn captured(&self) -> [[u32; 5]; 2] {
        let mut taken = [[0; 5]; 2];
        for (m, before) in self.moves.iter().zip(&self.positions) {
            if let Some(role) = m.capture()
                && role != Role::King
            {
                let taker = usize::from(before.turn() == Color::Black);
                taken[taker][role as usize - 1] += 1;
            }
        }
        taken
    }

    /// White's material lead on the board now, in pawns ([`pawns_worth`]; negative: Black's):
    /// what is there, so a promotion counts as the piece it made.
    pub(crate) fn material_lead(&self) -> i32 {
        self.position()
            .board()
            .iter()
            .map(|(_, piece)| piece.color.fold_wb(1, -1) * pawns_worth(piece.role))
            .sum()
    }

    /// The opening the game reached: the last named position of it (lichess's table), so a
    /// transposition is named too.
    pub fn opening(&self) -> Option<crate::openings::Opening> {
        crate::openings::classify(&self.keys)
    }

    /// The FEN of the start position when it is not the standard one.
    pub(crate) fn start_fen(&self) -> Option<&str> {
        self.start_fen.as_deref()
    }

    /// The position after `ply` moves (0 = start); clamped to the current one.
    pub fn position_at(&self, ply: usize) -> &Chess {
        &self.positions[ply.min(self.moves.len())]
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves played, in SAN with check marks.
    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    /// Number of half-moves played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// The full-move number of the start position.
    pub(crate) fn start_fullmove(&self) -> u32 {
        self.positions[0].fullmoves().get()
    }

    /// The side to move at the start position.
    pub(crate) fn start_turn(&self) -> Color {
        self.positions[0].turn()
    }

    /// Repetition keys (`node::key_of`) of every position, the start first.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Repetition keys of the positions before the current one, oldest first (for the search).
    pub fn history_keys(&self) -> &[u64] {
        &self.keys[..self.keys.len() - 1]
    }

    /// The outcome, once the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        Fen::from_position(self.position(), EnPassantMode::Legal).to_string()
    }

    /// Legal moves in the current position, as SAN, sorted.
    pub(crate) fn legal_sans(&self) -> Vec<String> {
        let pos = self.position();
        let mut list: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| San::from_move(pos, m).to_string())
            .collect();
        list.sort();
        list
    }

    /// Reads a typed move, UCI or SAN, and checks it is legal; the game is unchanged.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        input::parse(self.position(), text)
    }

    /// Plays `m` in a recorded game or an explored line. Threefold repetition and the
    /// fifty-move rule end a game played here at once, but over the board they are draws a
    /// player may claim, so a line that went on past one goes on here too.
    pub(crate) fn play_on(&mut self, m: Move) -> Result<(), MoveError> {
        self.forget_claimable_draw();
        self.play(m, None)
    }

    /// Drops a threefold-repetition or fifty-move outcome (the game goes on, unclaimed).
    pub(crate) fn forget_claimable_draw(&mut self) {
        if self
            .outcome
            .as_ref()
            .is_some_and(|o| matches!(o.reason, Reason::Threefold | Reason::FiftyMoves))
        {
            self.outcome = None;
        }
    }

    /// Plays `m`, charging the mover's clock `spent` (when the game has clocks); a finished
    /// game or an illegal move is refused and changes nothing.
    pub fn play(&mut self, m: Move, spent: Option<Duration>) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let pos = self.position().clone();
        if !pos.is_legal(m) {
            return Err(MoveError::Illegal(
                m.to_uci(CastlingMode::Standard).to_string(),
            ));
        }
        let mover = pos.turn();
        if let (Some(clocks), Some(spent)) = (self.clocks.as_mut(), spent) {
            let left = &mut clocks.left[side(mover)];
            if spent >= *left {
                *left = Duration::ZERO;
                self.flag(mover);
                return Ok(());
            }
            *left = *left - spent + clocks.tc.inc;
        }
        let after = self.clocks.as_ref().map(|c| c.left(mover));
        let mut next = pos;
        let san = SanPlus::from_move_and_play_unchecked(&mut next, m);
        self.keys.push(key_of(&next));
        self.positions.push(next);
        self.moves.push(m);
        self.sans.push(san.to_string());
        self.clk.push(after);
        self.outcome = self.rule_outcome();
        Ok(())
    }

    /// Parses and plays a typed move.
    pub fn play_text(&mut self, text: &str, spent: Option<Duration>) -> Result<Move, MoveError> {
        let m = self.parse_move(text)?;
        self.play(m, spent)?;
        Ok(m)
    }

    /// Whether `color` would run out of time after thinking `spent` more.
    pub(crate) fn is_flagged(&self, color: Color, spent: Duration) -> bool {
        self.clocks.as_ref().is_some_and(|c| spent >= c.left(color))
    }

    /// `color`'s flag fell: the opponent wins unless it cannot mate. Before both sides have
    /// made their first move the game is aborted instead, as on lichess: it ends with no
    /// result, a loss for nobody, and says who did not move.
    pub fn flag(&mut self, color: Color) {
        if self.is_over() {
            return;
        }
        if let Some(clocks) = self.clocks.as_mut() {
            clocks.left[side(color)] = Duration::ZERO;
        }
        if self.moves.len() < 2 {
            self.outcome = Some(Outcome {
                winner: None,
                reason: Reason::Aborted,
            });
            self.end_note = Some(format!(
                "{}'s time ran out before its first move",
                color.fold_wb("White", "Black")
            ));
            return;
        }
        self.outcome = Some(if self.position().has_insufficient_material(!color) {
            Outcome {
                winner: None,
                reason: Reason::TimeInsufficient,
            }
        } else {
            Outcome {
                winner: Some(!color),
                reason: Reason::Time,
            }
        });
    }

    /// Whether the game was aborted: it ended, with no result.
    pub fn is_aborted(&self) -> bool {
        self.outcome.is_some_and(|o| o.reason == Reason::Aborted)
    }

    /// `color` resigns.
    pub fn resign(&mut self, color: Color) {
        if !self.is_over() {
            self.outcome = Some(Outcome {
                winner: Some(!color),
                reason: Reason::Resignation,
            });
        }
    }

    /// Leaves the game unfinished for another one: it keeps no result and says so.
    pub(crate) fn abandon(&mut self) {
        if !self.is_over() {
            self.abandoned = true;
        }
    }

    /// Whether the game was left unfinished for another.
    pub fn is_abandoned(&self) -> bool {
        self.abandoned && !self.is_over()
    }

    /// `color` loses because its engine failed (`reason` is `Forfeit` or `Abandoned`); `note`
    /// says what happened.
    pub fn forfeit(&mut self, color: Color, reason: Reason, note: String) {
        if !self.is_over() {
            self.outcome = Some(Outcome {
                winner: Some(!color),
                reason,
            });
            self.end_note = Some(note);
        }
    }

    /// The other side left a game over the network and did not come back: the one left
    /// takes the win (`winner`) or calls it a draw (`None`).
    pub(crate) fn left(&mut self, winner: Option<Color>) {
        if !self.is_over() {
            self.outcome = Some(Outcome {
                winner,
                reason: Reason::Left,
            });
        }
    }

    /// The players agree to a draw.
    pub(crate) fn agree_draw(&mut self) {
        if !self.is_over() {
            self.outcome = Some(Outcome {
                winner: None,
                reason: Reason::Agreement,
            });
        }
    }

    /// Takes back the last move, setting each clock back to its time after that side's
    /// previous move; returns the move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        self.sans.pop();
        self.clk.pop();
        self.rewind_clocks();
        self.outcome = self.rule_outcome();
        self.end_note = None;
        Some(m)
    }

    /// The mover's time left after move `ply` (from 0), when the clocks ran.
    pub fn clock_after(&self, ply: usize) -> Option<Duration> {
        self.clk.get(ply).copied().flatten()
    }

    /// Sets the clock after move `ply` (from 0) to `left`, as the authority on the clocks
    /// counted it; the clocks now follow from the moves' times. A move that is not there, or
    /// a game without clocks, changes nothing.
    pub(crate) fn set_clock_after(&mut self, ply: usize, left: Duration) {
        if self.clocks.is_some()
            && let Some(clk) = self.clk.get_mut(ply)
        {
            *clk = Some(left);
            self.rewind_clocks();
        }
    }

    /// Sets each clock to its time after that side's last move, as the moves' times say.
    fn rewind_clocks(&mut self) {
        if let Some(clocks) = self.clocks.as_mut() {
            clocks.left = [clocks.tc.base; 2];
            let first = self.positions[0].turn();
            for (i, c) in self.clk.iter().enumerate() {
                let mover = if i % 2 == 0 { first } else { !first };
                if let Some(c) = c {
                    clocks.left[side(mover)] = *c;
                }
            }
        }
    }

    /// The outcome the rules give the current position, if any.
    fn rule_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let draw = |reason| {
            Some(Outcome {
                winner: None,
                reason,
            })
        };
        if pos.is_checkmate() {
            return Some(Outcome {
                winner: Some(!pos.turn()),
                reason: Reason::Checkmate,
            });
        }
        if pos.is_stalemate() {
            return draw(Reason::Stalemate);
        }
        if pos.is_insufficient_material() {
            return draw(Reason::InsufficientMaterial);
        }
        if pos.halfmoves() >= 100 {
            return draw(Reason::FiftyMoves);
        }
        let key = *self.keys.last().expect("keys follow positions");
        let window = (pos.halfmoves() as usize + 1).min(self.keys.len());
        let seen = self.keys[self.keys.len() - window..]
            .iter()
            .filter(|&&k| k == key)
            .count();
        if seen >= 3 {
            return draw(Reason::Threefold);
        }
        None
    }
}

/// A piece's worth in pawns, as players count material (the king counts nothing).
pub(crate) fn pawns_worth(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_dated_by_its_caller_and_a_date_read_stays() {
        // 2026-11-20 10:01:02 UTC.
        let at = Moment::from_unix(1_795_168_862);
        let mut g = Game::new();
        assert_eq!(
            (g.date.as_str(), g.started.as_deref()),
            (UNKNOWN_DATE, None)
        );
        g.dated(at);
        assert_eq!(g.date, "2026.11.20");
        assert_eq!(g.started.as_deref(), Some("20261120-100102"));
        let mut read = Game::from_pgn("[Date \"2026.01.02\"]\n\n1. e4 *").unwrap();
        assert_eq!(read.started, None);
        read.dated(at);
        assert_eq!(read.date, "2026.01.02");
        assert_eq!(read.started.as_deref(), Some("20261120-100102"));
    }

    #[test]
    fn outcomes() {
        let mut g = Game::new();
        for m in ["f3", "e5", "g4", "Qh4"] {
            g.play_text(m, None).unwrap();
        }
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::Black),
                reason: Reason::Checkmate
            })
        );
        assert_eq!(g.parse_move("a3"), Err(MoveError::GameOver));
        g.undo();
        assert!(!g.is_over());

        let mut g = Game::new();
        for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
            g.play_text(m, None).unwrap();
        }
        assert!(!g.is_over());
        g.play_text("Ng8", None).unwrap();
        assert_eq!(g.outcome().unwrap().reason, Reason::Threefold);

        let g = Game::from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1").unwrap();
        assert_eq!(g.outcome().unwrap().reason, Reason::InsufficientMaterial);
        let mut g = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
        g.play_text("Ra2", None).unwrap();
        assert_eq!(g.outcome().unwrap().reason, Reason::FiftyMoves);
        let g = Game::from_fen("k7/8/1Q6/8/8/8/8/K7 b - - 0 1").unwrap();
        assert_eq!(g.outcome().unwrap().reason, Reason::Stalemate);
    }

    #[test]
    fn a_flag_before_both_sides_have_moved_aborts_the_game() {
        for (plies, flagged) in [(0, Color::White), (1, Color::Black)] {
            let mut g = Game::new();
            g.set_time_control(Some(TimeControl::parse("1+0").unwrap()));
            if plies == 1 {
                g.play_text("e4", Some(Duration::from_secs(1))).unwrap();
            }
            assert_eq!(g.turn(), flagged);
            g.flag(flagged);
            assert_eq!(
                g.outcome(),
                Some(Outcome {
                    winner: None,
                    reason: Reason::Aborted
                })
            );
            assert!(g.is_aborted());
            let pgn = g.to_pgn();
            assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
            let who = flagged.fold_wb("White", "Black");
            assert!(
                pgn.contains(&format!("{{{who}'s time ran out before its first move}} *")),
                "{pgn}"
            );
            // Read back, it is over: no game to resume, and still no result.
            let back = Game::from_pgn(&pgn).unwrap();
            assert!(back.is_over() && back.is_aborted(), "{pgn}");
            assert!(back.to_pgn().contains("[Result \"*\"]"));
            // A game merely left unfinished is not taken for one.
            let left = pgn.replace("Aborted on time before both sides had moved", "abandoned");
            assert!(!Game::from_pgn(&left).unwrap().is_over());
        }
        // A first move that comes after the flag fell is not played: the game is aborted.
        let mut g = Game::new();
        g.set_time_control(Some(TimeControl::parse("1+0").unwrap()));
        g.play_text("e4", Some(Duration::from_secs(61))).unwrap();
        assert!(g.is_aborted() && g.ply() == 0);
    }

    #[test]
    fn clocks_increment_and_flag() {
        let mut g = Game::new();
        g.set_time_control(Some(TimeControl::parse("1+2").unwrap()));
        g.play_text("e4", Some(Duration::from_secs(10))).unwrap();
        assert_eq!(
            g.clocks().unwrap().left(Color::White),
            Duration::from_secs(52)
        );
        g.play_text("e5", Some(Duration::from_secs(1))).unwrap();
        g.play_text("Nf3", Some(Duration::from_secs(1))).unwrap();
        g.play_text("Nc6", Some(Duration::from_secs(62))).unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::White),
                reason: Reason::Time
            })
        );
        let pgn = g.to_pgn();
        assert!(pgn.contains("2. Nf3 {[%clk 0:00:53.0]} 1-0"), "{pgn}");
        let mut g = Game::new();
        g.set_time_control(Some(TimeControl::parse("5+0").unwrap()));
        g.play_text("d4", Some(Duration::from_millis(12_300)))
            .unwrap();
        g.play_text("d5", Some(Duration::from_secs(20))).unwrap();
        g.play_text("c4", Some(Duration::from_secs(30))).unwrap();
        let back = Game::from_pgn(&g.to_pgn()).unwrap();
        assert_eq!(back.clocks(), g.clocks());
        assert_eq!(
            back.clocks().unwrap().left(Color::White),
            Duration::from_millis(257_700)
        );
        g.undo();
        assert_eq!(
            g.clocks().unwrap().left(Color::White),
            Duration::from_millis(287_700),
            "undo gives the time back"
        );
        assert!(TimeControl::parse("x+1").is_err());
        assert!(TimeControl::parse("0+0").is_err());
        assert_eq!(
            TimeControl::parse("10s+0.1").unwrap().base,
            Duration::from_secs(10)
        );
    }
}
