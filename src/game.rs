//! A game of chess as the terminal game keeps it: a start position, the moves played with their
//! SAN, the outcome and its reason, optional clocks with increment, and PGN out and in.
//!
//! Nothing here knows about the terminal or the engine beyond the repetition key, so the same
//! `Game` serves the screen, the headless watcher and the tests.

use std::fmt::Write as _;
use std::io;
use std::ops::ControlFlow;
use std::time::Duration;

use pgn_reader::{RawTag, Reader, SanPlus as PgnSan, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role, Square};
use thiserror::Error;

use crate::engine::node::key_of;
use crate::pgn_scan;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position occurred three times.
    Threefold,
    /// Fifty moves by each side without a capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A player resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// A flag fell.
    Time,
    /// A flag fell but the other side cannot mate.
    TimeInsufficient,
    /// An engine played an illegal move or no move.
    Forfeit,
    /// An engine crashed or stopped answering.
    Abandoned,
    /// The result came from a PGN file without a rule that explains it here.
    Recorded,
}

impl Reason {
    /// Words for the status line and the PGN `Termination` tag.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Threefold => "threefold repetition",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Resignation => "resignation",
            Reason::Agreement => "draw agreed",
            Reason::Time => "time forfeit",
            Reason::TimeInsufficient => "time out against insufficient material",
            Reason::Forfeit => "forfeit",
            Reason::Abandoned => "engine failure",
            Reason::Recorded => "as recorded",
        }
    }
}

/// A finished game's result: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// The PGN result token.
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The PGN `Termination` text: what happened, in words ("Black won by resignation").
    pub fn termination(&self) -> String {
        let won = |how: &str| match self.winner {
            Some(c) => format!("{} won {how}", c.fold_wb("White", "Black")),
            None => format!("Draw {how}"),
        };
        match self.reason {
            Reason::Checkmate => won("by checkmate"),
            Reason::Stalemate => won("by stalemate"),
            Reason::Threefold => won("by threefold repetition"),
            Reason::FiftyMoves => won("by the fifty-move rule"),
            Reason::InsufficientMaterial => won("by insufficient material"),
            Reason::Resignation => won("by resignation"),
            Reason::Agreement => won("by agreement"),
            Reason::Time => won("on time"),
            Reason::TimeInsufficient => won("on time against insufficient material"),
            Reason::Forfeit => won("by forfeit (illegal move)"),
            Reason::Abandoned => won("by forfeit (engine failure)"),
            Reason::Recorded => won("as recorded"),
        }
    }

    /// A sentence for the player: "White wins by checkmate", "Draw by stalemate".
    pub(crate) fn announce(&self) -> String {
        match self.winner {
            Some(Color::White) => format!("White wins ({})", self.reason.describe()),
            Some(Color::Black) => format!("Black wins ({})", self.reason.describe()),
            None => format!("Draw ({})", self.reason.describe()),
        }
    }
}

/// Why a typed move was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Neither UCI (`e2e4`, `e7e8q`) nor SAN (`Nf3`, `O-O`).
    #[error("malformed move {0:?}: type UCI like e2e4 or e7e8q, or SAN like Nf3")]
    Malformed(String),
    /// The from-square is empty.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// The from-square holds the opponent's piece.
    #[error("the piece on {0} is not yours")]
    NotYours(Square),
    /// A pawn move to the last rank without the piece to promote to; holds the move with a
    /// queen added, as an example.
    #[error("promotion piece missing: add Q, R, B or N (e.g. {0})")]
    PromotionMissing(String),
    /// Well formed but not a legal move here.
    #[error("{0} is not legal here")]
    Illegal(String),
    /// A move of a kind of piece to a square none of them can move to now.
    #[error("no {0} of yours can move to {1}")]
    NoneCanReach(&'static str, Square),
    /// SAN that matches more than one legal move.
    #[error("{0} is ambiguous: say which piece (e.g. Nbd2)")]
    Ambiguous(String),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
}

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
    #[error("the game is {0}, a variant Knightfall does not play (standard chess only)")]
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
        scanned: Option<pgn_scan::Scanned>,
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

/// A time control: base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting time for each side.
    pub base: Duration,
    /// Added after each move.
    pub inc: Duration,
}

impl TimeControl {
    /// Parses `MIN+INC` (minutes, then seconds of increment: `5+3`, `1+0`, `0.5+0.1`); a base
    /// ending in `s` is in seconds (`10s+0.1`), for quick engine games.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let (base_secs, scale) = match base.strip_suffix('s') {
            Some(b) => (b, 1.0),
            None => (base, 60.0),
        };
        let base: f64 = base_secs
            .parse()
            .map_err(|_| format!("bad time control {text:?}: expected MIN+INC like 5+3"))?;
        let inc: f64 = inc
            .parse()
            .map_err(|_| format!("bad increment in {text:?}: expected seconds like 3 or 0.1"))?;
        let ok = |x: f64| x.is_finite() && (0.0..1.0e6).contains(&x);
        if !ok(base) || !ok(inc) || base * scale <= 0.0 {
            return Err(format!("time control {text:?} out of range"));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base * scale),
            inc: Duration::from_secs_f64(inc),
        })
    }

    /// The form `parse` reads back, also the PGN `TimeControl` value in seconds.
    pub fn pgn(&self) -> String {
        format!("{}+{}", self.base.as_secs_f64(), self.inc.as_secs_f64())
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.base.as_secs_f64();
        if secs >= 60.0 && secs % 60.0 == 0.0 {
            write!(f, "{}+{}", secs / 60.0, self.inc.as_secs_f64())
        } else {
            write!(f, "{}s+{}", secs, self.inc.as_secs_f64())
        }
    }
}

/// Both clocks: time left per side; the caller measures thinking time and passes it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The time control.
    pub tc: TimeControl,
    /// Time left, White then Black.
    pub left: [Duration; 2],
}

impl Clocks {
    /// Fresh clocks for `tc`.
    pub fn new(tc: TimeControl) -> Clocks {
        Clocks {
            tc,
            left: [tc.base, tc.base],
        }
    }

    /// The search limits for the engine to move on these clocks.
    pub fn limits(&self) -> crate::engine::Limits {
        let ms = |d: Duration| d.as_millis() as u64;
        crate::engine::Limits {
            wtime: Some(ms(self.left(Color::White))),
            btime: Some(ms(self.left(Color::Black))),
            winc: Some(ms(self.tc.inc)),
            binc: Some(ms(self.tc.inc)),
            ..crate::engine::Limits::default()
        }
    }

    /// Time left for `color`.
    pub fn left(&self, color: Color) -> Duration {
        self.left[side(color)]
    }
}

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
    /// PGN `Date` tag (`YYYY.MM.DD`).
    pub date: String,
    /// When the game started, `YYYYMMDD-HHMMSS` UTC (PGN `UTCTime` with `Date`): names the
    /// game's archive file, so saving it again (after a resume) replaces the same file.
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
    /// A game from the standard start position.
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
            date: today(),
            started: Some(timestamp()),
            abandoned: false,
            recorded_termination: None,
            kept_tags: Vec::new(),
        };
        game.outcome = game.rule_outcome();
        game
    }

    /// A game from a FEN.
    pub fn from_fen(text: &str) -> Result<Game, LoadError> {
        let pos = crate::fen::position(text)?;
        let normal = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let start = Fen::from_position(&Chess::default(), EnPassantMode::Legal).to_string();
        let start_fen = (normal != start).then_some(normal);
        Ok(Game::from_chess(pos, start_fen))
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
    /// rook, queen), counted against the game's start position (a promoted pawn counts as
    /// the piece it became).
    pub(crate) fn captured(&self) -> [[u32; 5]; 2] {
        const ROLES: [Role; 5] = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ];
        let count = |pos: &Chess, color: Color, role: Role| {
            (pos.board().by_color(color) & pos.board().by_role(role)).count() as u32
        };
        let (start, now) = (&self.positions[0], self.position());
        let mut taken = [[0; 5]; 2];
        for (i, taker) in [Color::White, Color::Black].into_iter().enumerate() {
            for (j, &role) in ROLES.iter().enumerate() {
                taken[i][j] = count(start, !taker, role).saturating_sub(count(now, !taker, role));
            }
        }
        taken
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
        let text = text.trim();
        let pos = self.position();
        if looks_uci(text) {
            let lower = text.to_ascii_lowercase();
            let uci = UciMove::from_ascii(lower.as_bytes())
                .map_err(|_| MoveError::Malformed(text.to_string()))?;
            if let UciMove::Normal {
                from,
                to,
                promotion,
            } = uci
            {
                match pos.board().piece_at(from) {
                    None => return Err(MoveError::NoPiece(from)),
                    Some(p) if p.color != pos.turn() => return Err(MoveError::NotYours(from)),
                    Some(p)
                        if p.role == Role::Pawn
                            && promotion.is_none()
                            && to.rank()
                                == pos
                                    .turn()
                                    .fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First) =>
                    {
                        let with_q = format!("{lower}q");
                        if UciMove::from_ascii(with_q.as_bytes())
                            .ok()
                            .and_then(|u| u.to_move(pos).ok())
                            .is_some()
                        {
                            return Err(MoveError::PromotionMissing(with_q));
                        }
                        return Err(MoveError::Illegal(text.to_string()));
                    }
                    Some(_) => {}
                }
            }
            return uci
                .to_move(pos)
                .map_err(|_| MoveError::Illegal(text.to_string()));
        }
        // SAN, tolerating zeros or lower case for castling and trailing annotations.
        let cleaned: String = text
            .replace('0', "O")
            .trim_end_matches(['!', '?'])
            .to_string();
        let cleaned = match cleaned.trim_end_matches(['+', '#']) {
            "o-o" | "o-o-o" | "o-O" | "O-o" | "o-O-O" | "O-o-o" => cleaned.to_ascii_uppercase(),
            _ => cleaned,
        };
        let cleaned = promotion_san(cleaned.trim_end_matches(['+', '#']));
        let cleaned = cleaned.as_str();
        let parsed = San::from_ascii(cleaned.as_bytes())
            .map_err(|_| MoveError::Malformed(text.to_string()))
            .and_then(|san| {
                san.to_move(pos).map_err(|e| match e {
                    SanError::AmbiguousSan => MoveError::Ambiguous(text.to_string()),
                    SanError::IllegalSan => MoveError::Illegal(text.to_string()),
                })
            });
        // A pawn reaching the last rank without a piece named: say how to name it.
        if let Err(MoveError::Illegal(_)) = parsed
            && cleaned.ends_with(['1', '8'])
            && cleaned.starts_with(|c: char| ('a'..='h').contains(&c))
        {
            let with_q = format!("{cleaned}=Q");
            if San::from_ascii(with_q.as_bytes()).is_ok_and(|s| s.to_move(pos).is_ok()) {
                return Err(MoveError::PromotionMissing(with_q));
            }
        }
        // A piece letter typed in lower case (`nf3`) is read as upper case when that is the
        // only sensible reading (`bxc3` stays a pawn capture when one is legal).
        let parsed = match parsed {
            Err(MoveError::Malformed(_) | MoveError::Illegal(_))
                if cleaned.starts_with(['n', 'b', 'r', 'q', 'k']) =>
            {
                let upper = format!("{}{}", cleaned[..1].to_ascii_uppercase(), &cleaned[1..]);
                match San::from_ascii(upper.as_bytes()).map(|s| s.to_move(pos)) {
                    Ok(Ok(m)) => Ok(m),
                    _ => parsed,
                }
            }
            other => other,
        };
        // `Nf4` with no knight able to go there says that, not just "not legal".
        if let Err(MoveError::Illegal(_)) = parsed
            && let Ok(San::Normal { role, to, .. }) = San::from_ascii(cleaned.as_bytes())
            && pos.san_candidates(role, to).is_empty()
        {
            return Err(MoveError::NoneCanReach(role_word(role), to));
        }
        parsed
    }

    /// Plays a legal move; `spent` is the mover's thinking time when clocks run. A flag that
    /// falls during the move ends the game on time instead.
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

    /// `color`'s flag fell: the opponent wins unless it cannot mate.
    pub fn flag(&mut self, color: Color) {
        if self.is_over() {
            return;
        }
        if let Some(clocks) = self.clocks.as_mut() {
            clocks.left[side(color)] = Duration::ZERO;
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
        self.outcome = self.rule_outcome();
        self.end_note = None;
        Some(m)
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

    /// The game in PGN, with the Seven Tag Roster, FEN/SetUp for a set-up start, the time
    /// control and the termination.
    pub fn to_pgn(&self) -> String {
        self.to_pgn_with(&[], &|_| Vec::new())
    }

    /// The game in PGN with `extra_tags` after the others and, after each move `i` (from 0),
    /// the tokens `after_move(i)` gives (NAGs, comments, variations).
    pub(crate) fn to_pgn_with(
        &self,
        extra_tags: &[(&str, String)],
        after_move: &dyn Fn(usize) -> Vec<String>,
    ) -> String {
        let mut out = String::new();
        let result = self.outcome.map_or("*", |o| o.result_str());
        let tag = |out: &mut String, name: &str, value: &str| {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{name} \"{value}\"]");
        };
        let kept = |name: &str| {
            self.kept_tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        tag(
            &mut out,
            "Event",
            kept("Event").unwrap_or("Knightfall game"),
        );
        tag(&mut out, "Site", kept("Site").unwrap_or("Knightfall"));
        tag(&mut out, "Date", &self.date);
        if let Some(time) = self.started.as_deref().and_then(pgn_time) {
            tag(&mut out, "UTCTime", &time);
        }
        tag(&mut out, "Round", kept("Round").unwrap_or("-"));
        tag(&mut out, "White", &self.names[0]);
        tag(&mut out, "Black", &self.names[1]);
        tag(&mut out, "Result", result);
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
        let termination = match (self.outcome, &self.recorded_termination) {
            (Some(o), Some(text)) if o.reason == Reason::Recorded => Some(text.clone()),
            // A result read from a file without its reason: none is made up.
            (Some(o), None) if o.reason == Reason::Recorded => None,
            (Some(o), _) => Some(o.termination()),
            (None, _) if self.abandoned => Some("abandoned".to_string()),
            (None, _) => None,
        };
        if let Some(text) = termination {
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
        out.push('\n');
        let mut tokens: Vec<String> = Vec::new();
        let mut num = self.start_fullmove();
        let mut turn = self.start_turn();
        let mut interrupted = false;
        for (i, san) in self.sans.iter().enumerate() {
            if turn == Color::White {
                tokens.push(format!("{num}. {san}"));
            } else if i == 0 || interrupted {
                // Black's move after a comment or variation carries its number again.
                tokens.push(format!("{num}... {san}"));
            } else {
                tokens.push(san.clone());
            }
            let extra = after_move(i);
            interrupted = !extra.is_empty();
            tokens.extend(extra);
            if let Some(Some(left)) = self.clk.get(i) {
                tokens.push(format!("{{[%clk {}]}}", format_clk(*left)));
            }
            if turn == Color::Black {
                num += 1;
            }
            turn = !turn;
        }
        if let Some(note) = self.end_note.as_ref().filter(|_| self.outcome.is_some()) {
            tokens.push(format!("{{{}}}", note.replace('}', ")")));
        }
        tokens.push(result.to_string());
        out.push_str(&wrap_movetext(&tokens));
        out
    }

    /// Reads the first game of a PGN: start position, moves (main line), names and result.
    pub fn from_pgn(text: &str) -> Result<Game, LoadError> {
        let text = readable_pgn(text);
        let mut reader = Reader::new(io::Cursor::new(text.as_bytes()));
        let raw = reader
            .read_game(&mut Collector)
            .map_err(|e| LoadError::reading(&text, e))?
            .ok_or(LoadError::Empty)?;
        if let Some(stray) = LoadError::stray(pgn_scan::games(&text).next(), raw.plies, false) {
            return Err(stray);
        }
        Game::from_raw(raw)
    }

    /// Reads every game of a PGN (at most `max`) as written, without playing its moves: what a
    /// list of games shows, at a fraction of the memory of loading them (`PgnGame::load`
    /// loads one).
    pub(crate) fn all_written_in_pgn(text: &str, max: usize) -> Vec<Result<PgnGame, LoadError>> {
        let text = readable_pgn(text);
        let mut reader = Reader::new(io::Cursor::new(text.as_bytes()));
        let mut games = Vec::new();
        let mut scans = pgn_scan::games(&text);
        while games.len() < max {
            match reader.read_game(&mut Collector) {
                Ok(Some(raw)) => {
                    games.push(match LoadError::stray(scans.next(), raw.plies, false) {
                        Some(stray) => Err(stray),
                        None => Ok(PgnGame(raw)),
                    })
                }
                Ok(None) => break,
                Err(e) => {
                    games.push(Err(LoadError::reading(&text, e)));
                    break;
                }
            }
        }
        games
    }

    /// Reads every game of a PGN (at most `max`), each loaded or with the reason it is not.
    pub(crate) fn all_from_pgn(text: &str, max: usize) -> Vec<Result<Game, LoadError>> {
        Game::all_written_in_pgn(text, max)
            .into_iter()
            .map(|written| written.and_then(|g| Game::from_raw(g.0)))
            .collect()
    }

    fn from_raw(raw: RawGame) -> Result<Game, LoadError> {
        if let Some(variant) = raw.variant.as_deref() {
            let v = variant.to_ascii_lowercase();
            if !matches!(v.as_str(), "" | "standard" | "from position" | "normal") {
                return Err(LoadError::Variant(variant.to_string()));
            }
        }
        let mut game = match &raw.fen {
            Some(fen) => Game::from_fen(fen)?,
            None => Game::new(),
        };
        if let Some(tc) = raw.time_control.as_deref() {
            // PGN TimeControl is in seconds: "300+3".
            if let Some((b, i)) = tc.split_once('+')
                && let Ok(tc) = TimeControl::parse(&format!("{b}s+{i}"))
            {
                game.set_time_control(Some(tc));
            }
        }
        for (i, san) in raw.sans.split_whitespace().enumerate() {
            let bad = || LoadError::BadMove {
                ply: i + 1,
                san: san.to_string(),
            };
            let parsed = San::from_ascii(san.as_bytes()).map_err(|_| bad())?;
            let m = parsed.to_move(game.position()).map_err(|_| bad())?;
            game.play_on(m).map_err(|e| match (e, game.outcome()) {
                (MoveError::GameOver, Some(end)) => LoadError::AfterEnd {
                    ply: i + 1,
                    san: san.to_string(),
                    why: end.reason.describe().to_string(),
                },
                _ => bad(),
            })?;
        }
        if game.clocks.is_some() && !raw.clks.is_empty() {
            // Restore the clocks as they stood: take back nothing, but replay the times.
            game.clk = vec![None; game.moves.len()];
            for &(ply, d) in &raw.clks {
                if let Some(slot) = game.clk.get_mut(ply) {
                    *slot = Some(d);
                }
            }
            if let Some(clocks) = game.clocks.as_mut() {
                let first = game.positions[0].turn();
                for (i, c) in game.clk.iter().enumerate() {
                    let mover = if i % 2 == 0 { first } else { !first };
                    if let Some(c) = c {
                        clocks.left[side(mover)] = *c;
                    }
                }
            }
        }
        // A file without a start time keeps the one given now, and writes it from now on.
        if let (Some(date), Some(time)) = (raw.start_date(), &raw.utc_time)
            && let Some(stamp) = stamp_of(date, time)
        {
            game.started = Some(stamp);
        }
        if let Some(date) = raw.known_date() {
            game.date = date.to_string();
        }
        game.names = raw.names;
        game.recorded_termination = raw.termination;
        game.kept_tags = raw.kept_tags;
        // A recorded decisive result in a position where a draw could have been claimed
        // (a resignation or a loss on time) stands.
        if matches!(raw.result.as_deref(), Some("1-0" | "0-1")) {
            game.forget_claimable_draw();
        }
        if game.outcome.is_none() {
            let winner = match raw.result.as_deref() {
                Some("1-0") => Some(Some(Color::White)),
                Some("0-1") => Some(Some(Color::Black)),
                Some("1/2-1/2") => Some(None),
                _ => None,
            };
            if let Some(winner) = winner {
                game.outcome = Some(Outcome {
                    winner,
                    reason: Reason::Recorded,
                });
            }
        }
        Ok(game)
    }
}

/// Movetext tokens joined by spaces in lines of at most 79 characters (a token longer than that
/// gets a line of its own), ending with a newline.
pub(crate) fn wrap_movetext(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for token in tokens {
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

/// SAN promotion as people type it, in the form shakmaty reads: `e8q`, `e8Q` and `e8=q`
/// become `e8=Q` (`exd8n` becomes `exd8=N`); anything else is unchanged.
fn promotion_san(san: &str) -> String {
    let chars: Vec<char> = san.chars().collect();
    let n = chars.len();
    if n >= 3
        && chars[0].is_ascii_lowercase()
        && ('a'..='h').contains(&chars[0])
        && "qrbnQRBN".contains(chars[n - 1])
    {
        let body: String = chars[..n - 1].iter().collect();
        let body = body.trim_end_matches('=');
        if body.ends_with(['1', '8']) {
            return format!("{body}={}", chars[n - 1].to_ascii_uppercase());
        }
    }
    san.to_string()
}

/// A kind of piece in words: `knight`.
fn role_word(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Index of `color` in White-first arrays (shakmaty numbers Black 0, White 1).
pub fn side(color: Color) -> usize {
    color.fold_wb(0, 1)
}

/// `H:MM:SS.s`, the PGN `[%clk]` form.
fn format_clk(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let secs = tenths / 10;
    format!(
        "{}:{:02}:{:02}.{}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        tenths % 10
    )
}

/// Reads the time from a comment holding `[%clk H:MM:SS(.s)]`.
fn parse_clk(comment: &str) -> Option<Duration> {
    let rest = &comment[comment.find("[%clk")? + 5..];
    let value = rest[..rest.find(']')?].trim();
    let mut secs = 0.0;
    for part in value.split(':') {
        secs = secs * 60.0 + part.parse::<f64>().ok()?;
    }
    (0.0..1.0e9)
        .contains(&secs)
        .then(|| Duration::from_secs_f64(secs))
}

/// Whether `text` has the shape of a UCI move (`e2e4`, `e7e8q`).
fn looks_uci(text: &str) -> bool {
    let b = text.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c.to_ascii_lowercase());
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    (b.len() == 4 || b.len() == 5) && file(b[0]) && rank(b[1]) && file(b[2]) && rank(b[3])
}

#[derive(Clone, Debug, Default)]
struct RawGame {
    fen: Option<String>,
    names: [String; 2],
    date: Option<String>,
    utc_date: Option<String>,
    result: Option<String>,
    time_control: Option<String>,
    utc_time: Option<String>,
    termination: Option<String>,
    variant: Option<String>,
    kept_tags: Vec<(String, String)>,
    /// The moves as written, each followed by a space (one string: a list of thousands of
    /// games holds one allocation a game, not one a move).
    sans: String,
    /// How many moves `sans` holds.
    plies: usize,
    /// The `[%clk]` times given, by ply (from 0).
    clks: Vec<(usize, Duration)>,
}

impl RawGame {
    /// The game's date: `Date` when it is known, else `UTCDate` (which lichess writes beside
    /// it, and some programs alone).
    fn known_date(&self) -> Option<&str> {
        let known = |d: &&String| !d.contains('?');
        self.date
            .as_ref()
            .filter(known)
            .or(self.utc_date.as_ref().filter(known))
            .or(self.date.as_ref())
            .map(String::as_str)
    }

    /// The date `UTCTime` belongs to: `UTCDate` when given (both are UTC), else `Date`.
    fn start_date(&self) -> Option<&String> {
        self.utc_date.as_ref().or(self.date.as_ref())
    }
}

struct Collector;

impl Visitor for Collector {
    type Tags = RawGame;
    type Movetext = RawGame;
    type Output = RawGame;

    fn begin_tags(&mut self) -> ControlFlow<RawGame, RawGame> {
        ControlFlow::Continue(RawGame {
            names: ["?".to_string(), "?".to_string()],
            ..RawGame::default()
        })
    }

    fn tag(&mut self, tags: &mut RawGame, name: &[u8], value: RawTag<'_>) -> ControlFlow<RawGame> {
        let value = value.decode_utf8_lossy().into_owned();
        match name {
            b"FEN" => tags.fen = Some(value),
            b"White" => tags.names[0] = value,
            b"Black" => tags.names[1] = value,
            b"Date" => tags.date = Some(value),
            b"Result" => tags.result = Some(value),
            b"TimeControl" => tags.time_control = Some(value),
            b"UTCTime" => tags.utc_time = Some(value),
            b"UTCDate" => tags.utc_date = Some(value),
            b"Termination" => tags.termination = Some(value),
            b"Variant" => tags.variant = Some(value),
            // Set by Knightfall from the game itself.
            b"SetUp" | b"ECO" | b"Opening" | b"PlyCount" => {}
            _ if tags.kept_tags.len() < 64 => tags
                .kept_tags
                .push((String::from_utf8_lossy(name).into_owned(), value)),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: RawGame) -> ControlFlow<RawGame, RawGame> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, movetext: &mut RawGame, san_plus: PgnSan) -> ControlFlow<RawGame> {
        movetext.sans.push_str(&san_plus.san.to_string());
        movetext.sans.push(' ');
        movetext.plies += 1;
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut RawGame,
        comment: pgn_reader::RawComment<'_>,
    ) -> ControlFlow<RawGame> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        if let (Some(d), Some(ply)) = (parse_clk(&text), movetext.plies.checked_sub(1)) {
            match movetext.clks.last_mut() {
                Some(last) if last.0 == ply => last.1 = d,
                _ => movetext.clks.push((ply, d)),
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: RawGame) -> RawGame {
        movetext
    }
}

/// `text` ready for the PGN reader: figurine algebraic notation (`♘f3`, `♞c6`, `♙e4`) written in
/// letters (`Nf3`, `Nc6`, `e4`), since the reader skips a move it cannot read and a skipped move
/// would silently become another game; and old Mac line ends (a CR alone) as line feeds, since
/// the reader would run two games together.
pub(crate) fn readable_pgn(text: &str) -> std::borrow::Cow<'_, str> {
    let text = lone_cr_as_lf(text);
    match figurines_in_letters(&text) {
        std::borrow::Cow::Owned(changed) => std::borrow::Cow::Owned(changed),
        std::borrow::Cow::Borrowed(_) => text,
    }
}

/// `text` with each CR not followed by LF made a LF.
fn lone_cr_as_lf(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return std::borrow::Cow::Borrowed(text);
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
    std::borrow::Cow::Owned(out)
}

/// `text` with figurines written in letters.
fn figurines_in_letters(text: &str) -> std::borrow::Cow<'_, str> {
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
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match FIGURINES.iter().find(|(f, _)| *f == c) {
            Some((_, letter)) => out.push_str(letter),
            None => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A game as a PGN file writes it (tags and moves as text), not yet played through: cheap to
/// hold in a list of thousands; `load` plays it.
#[derive(Clone, Debug)]
pub struct PgnGame(RawGame);

impl PgnGame {
    /// The game as its PGN says: `game` written out and read back.
    pub fn of(game: &Game) -> PgnGame {
        let text = game.to_pgn();
        let mut reader = Reader::new(io::Cursor::new(text.as_bytes()));
        PgnGame(
            reader
                .read_game(&mut Collector)
                .ok()
                .flatten()
                .unwrap_or_default(),
        )
    }

    /// The game, played through (its moves checked).
    pub fn load(&self) -> Result<Game, LoadError> {
        Game::from_raw(self.0.clone())
    }

    /// The players' names, White's first.
    pub fn names(&self) -> &[String; 2] {
        &self.0.names
    }

    /// The `Date` tag, if any.
    pub fn date(&self) -> Option<&str> {
        self.0.date.as_deref()
    }

    /// The `Result` tag, if any.
    pub fn result(&self) -> Option<&str> {
        self.0.result.as_deref()
    }

    /// The `UTCTime` tag (when the game started), if any.
    pub fn time(&self) -> Option<&str> {
        self.0.utc_time.as_deref()
    }

    /// How many moves (plies) it has.
    pub fn plies(&self) -> usize {
        self.0.plies
    }
}

/// The tags a list of games shows, in the order [`Heading`] keeps them.
const HEADING_TAGS: [&[u8]; 9] = [
    b"White",
    b"Black",
    b"Date",
    b"UTCDate",
    b"UTCTime",
    b"Result",
    b"ECO",
    b"Opening",
    b"Variation",
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
    /// The heading of `game`, as its PGN says it.
    pub fn of(game: &Game) -> Heading {
        let text = game.to_pgn();
        Reader::new(io::Cursor::new(text.as_bytes()))
            .read_game(&mut HeadingCollector)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    fn tag(&self, i: usize) -> Option<&str> {
        self.tags.split('\n').nth(i).filter(|v| !v.is_empty())
    }

    /// The players' names, White's first ("?" when not given).
    pub fn names(&self) -> [&str; 2] {
        [self.tag(0).unwrap_or("?"), self.tag(1).unwrap_or("?")]
    }

    /// The game's date: `Date` when it is known, else `UTCDate`, as [`Game`] reads it.
    pub fn date(&self) -> Option<&str> {
        let known = |d: &&str| !d.contains('?');
        let (date, utc) = (self.tag(2), self.tag(3));
        date.filter(known).or(utc.filter(known)).or(date)
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
        stamp_of(self.tag(3).or(self.tag(2))?, self.time()?)
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

/// Reads a game's [`Heading`]: the shown tags, and the main line's moves counted, not kept.
struct HeadingCollector;

impl Visitor for HeadingCollector {
    type Tags = ([String; HEADING_TAGS.len()], u32);
    type Movetext = ([String; HEADING_TAGS.len()], u32);
    type Output = Heading;

    fn begin_tags(&mut self) -> ControlFlow<Heading, Self::Tags> {
        ControlFlow::Continue(Default::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Heading> {
        if let Some(i) = HEADING_TAGS.iter().position(|t| *t == name) {
            tags.0[i] = value
                .decode_utf8_lossy()
                .chars()
                .filter(|c| !c.is_control())
                .take(HEADING_TAG_CHARS)
                .collect();
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Heading, Self::Movetext> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, movetext: &mut Self::Movetext, _: PgnSan) -> ControlFlow<Heading> {
        movetext.1 = movetext.1.saturating_add(1);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, (tags, plies): Self::Movetext) -> Heading {
        Heading {
            tags: tags.join("\n").into_boxed_str(),
            plies,
        }
    }
}

/// Where one game of a PGN file is, and what a list shows of it.
#[derive(Clone, Debug)]
pub(crate) struct Spanned {
    /// The byte its text starts at.
    pub(crate) start: u64,
    /// The byte after its text; `None` when the reader failed in it (the rest of the file is
    /// then the game's, as far as anyone reading it can tell).
    pub(crate) end: Option<u64>,
    /// Its heading, or why the reader failed.
    pub(crate) heading: Result<Heading, String>,
}

/// The games of a PGN read from a source of any length, one at a time and without playing their
/// moves: each game's place and heading, with one buffer of the source in memory. Games are
/// split exactly as [`Game::from_pgn`] reads them (old Mac line ends included), so the text
/// between a game's start and end reads back as that game.
pub(crate) struct PgnGames<R: io::Read> {
    reader: Reader<LoneCrAsLf<R>>,
    /// Bytes the reader has taken from the source.
    taken: std::rc::Rc<std::cell::Cell<u64>>,
    ended: bool,
}

impl<R: io::Read> PgnGames<R> {
    /// The games of `source`.
    pub(crate) fn new(source: R) -> PgnGames<R> {
        let taken = std::rc::Rc::new(std::cell::Cell::new(0));
        let reader = Reader::build(LoneCrAsLf {
            inner: source,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            start: 0,
            end: 0,
            at_end: false,
            taken: taken.clone(),
        })
        // As `Game::from_pgn` reads (`LONGEST_TAG`): a tag it reads is not an error here.
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
}

impl<R: io::Read> Iterator for PgnGames<R> {
    type Item = Spanned;

    fn next(&mut self) -> Option<Spanned> {
        if self.ended {
            return None;
        }
        let failed = |this: &mut Self, start: u64, e: io::Error| {
            // The reader cannot tell where a game it failed in ends: no game after it is read.
            this.ended = true;
            Some(Spanned {
                start,
                end: None,
                heading: Err(e.to_string()),
            })
        };
        match self.reader.has_more() {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => {
                let at = self.at();
                return failed(self, at, e);
            }
        }
        let start = self.at();
        match self.reader.read_game(&mut HeadingCollector) {
            Ok(Some(heading)) => Some(Spanned {
                start,
                end: Some(self.at()),
                heading: Ok(heading),
            }),
            Ok(None) => None,
            Err(e) => failed(self, start, e),
        }
    }
}

/// A source with each CR not followed by LF made a LF, byte for byte (so places in it are places
/// in the file), as [`readable_pgn`] does to a whole text; counts the bytes it gives.
struct LoneCrAsLf<R> {
    inner: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    at_end: bool,
    taken: std::rc::Rc<std::cell::Cell<u64>>,
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

/// `HH:MM:SS` of a `YYYYMMDD-HHMMSS` stamp.
fn pgn_time(stamp: &str) -> Option<String> {
    let t = stamp.split_once('-')?.1;
    (t.len() == 6 && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{}:{}:{}", &t[0..2], &t[2..4], &t[4..6]))
}

/// The `YYYYMMDD-HHMMSS` stamp of PGN `Date` (`YYYY.MM.DD`) and `UTCTime` (`HH:MM:SS`).
fn stamp_of(date: &str, time: &str) -> Option<String> {
    let d: String = date.chars().filter(|c| *c != '.').collect();
    let t: String = time.chars().filter(|c| *c != ':').collect();
    let digits = |s: &str, n| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    (digits(&d, 8) && digits(&t, 6)).then(|| format!("{d}-{t}"))
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A piece's worth in pawns, as players count material (the king counts nothing).
pub(crate) fn pawns_worth(role: shakmaty::Role) -> i32 {
    use shakmaty::Role;
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Today as days since 1970-01-01 (UTC), for schedules.
pub(crate) fn day_number() -> i64 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    (secs / 86_400) as i64
}

/// A day number (days since 1970-01-01) as a PGN date, `2026.11.26`.
pub(crate) fn date_of_day(day: i64) -> String {
    let (y, m, d) = civil_from_days(day);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A UTC timestamp `YYYYMMDD-HHMMSS` for file names.
pub(crate) fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// Days since 1970-01-01 to (year, month, day), Howard Hinnant's algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn uci_and_san_moves_and_errors() {
        let mut g = Game::new();
        g.play_text("e2e4", None).unwrap();
        g.play_text("e5", None).unwrap();
        g.play_text("Nf3", None).unwrap();
        assert_eq!(g.sans(), ["e4", "e5", "Nf3"]);
        assert_eq!(g.parse_move("e2e4"), Err(MoveError::NoPiece(Square::E2)));
        assert_eq!(g.parse_move("g1f3"), Err(MoveError::NoPiece(Square::G1)));
        assert_eq!(g.parse_move("f3g5"), Err(MoveError::NotYours(Square::F3)));
        assert_eq!(g.parse_move("e5e4"), Err(MoveError::Illegal("e5e4".into())));
        assert!(matches!(g.parse_move("zz"), Err(MoveError::Malformed(_))));
        assert!(matches!(g.parse_move(""), Err(MoveError::Malformed(_))));
        assert_eq!(g.parse_move("nc6").map(|m| m.to()), Ok(Square::C6));
        assert_eq!(g.parse_move("Nc6").map(|m| m.to()), Ok(Square::C6));
        assert!(matches!(g.parse_move("qh9"), Err(MoveError::Malformed(_))));
        assert_eq!(g.ply(), 3);
    }

    #[test]
    fn promotion_missing_and_castling() {
        let mut g = Game::from_fen("4k3/P7/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(
            g.parse_move("a7a8"),
            Err(MoveError::PromotionMissing("a7a8q".into()))
        );
        // SAN without the piece gets the same help.
        assert_eq!(
            g.parse_move("a8"),
            Err(MoveError::PromotionMissing("a8=Q".into()))
        );
        g.play_text("e1g1", None).unwrap();
        assert_eq!(g.sans(), ["O-O"]);
        g.undo();
        g.play_text("a7a8q", None).unwrap();
        assert_eq!(g.sans(), ["a8=Q+"]);
        // The piece as people type it: with or without `=`, either case.
        for text in ["a8Q", "a8=Q", "a8q", "a8=q", "a8N", "a8=n+"] {
            g.undo();
            let m = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(m.is_promotion(), "{text}");
            g.play(m, None).unwrap();
        }
        assert_eq!(g.sans(), ["a8=N"]);
        // A capture promotion, and a lower-case piece move that is not one.
        let g = Game::from_fen("1r2k3/P7/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
        assert!(g.parse_move("axb8n").unwrap().is_promotion());
        assert!(g.parse_move("axb8=R").unwrap().is_promotion());
        assert_eq!(g.parse_move("nc3").unwrap().role(), Role::Knight);
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
    fn clocks_increment_and_flag() {
        let mut g = Game::new();
        g.set_time_control(Some(TimeControl::parse("1+2").unwrap()));
        g.play_text("e4", Some(Duration::from_secs(10))).unwrap();
        assert_eq!(
            g.clocks().unwrap().left(Color::White),
            Duration::from_secs(52)
        );
        g.play_text("e5", Some(Duration::from_secs(61))).unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::White),
                reason: Reason::Time
            })
        );
        let pgn = g.to_pgn();
        assert!(pgn.contains("1. e4 {[%clk 0:00:52.0]} 1-0"), "{pgn}");
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
