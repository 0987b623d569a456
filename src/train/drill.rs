//! An endgame drill: the player plays one side of a 3- or 4-piece ending against perfect
//! defence from the tables, from a position drawn at random with the result the drill asks
//! for (a win, or a draw to hold), and the tables grade every move: a move that throws the
//! result away ends the attempt (it can be taken back), and a win is counted against par, the
//! player's moves on the tables' own line from the start to the win, decided at the start.

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Move, Piece, Position, Role,
};

use super::ending::Ending;
use crate::game::{Game, Reason};
use crate::rng::Rng;
use crate::tablebase::{RootMove, Tablebases, Wdl};

/// What the drill asks of the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Win: mate against the tables' longest resistance, within the fifty-move rule.
    Win,
    /// Hold the draw for [`HOLD_MOVES`] moves, or until the game is drawn by rule.
    Draw,
}

/// How hard the start position is: short, middling or long wins by the tables (for a draw to
/// hold, how few of the player's moves keep it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Difficulty {
    /// Among the shortest third.
    Easy,
    /// Among the middle third.
    #[default]
    Medium,
    /// Among the longest third.
    Hard,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// Its name, as typed and shown.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// Reads a name (`easy`, `medium`, `hard`).
    pub fn parse(text: &str) -> Result<Difficulty, String> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("{text:?} is not a difficulty: easy, medium or hard"))
    }
}

/// Moves a draw must be held for when no rule ends the game sooner.
pub const HOLD_MOVES: u32 = 20;

/// Random placements tried when drawing a start position.
const TRIES: u32 = 20_000;
/// Start positions with the right result collected before one is chosen.
const POOL: usize = 240;

/// Where the attempt stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// The player is to move.
    Playing,
    /// The goal is reached.
    Done,
    /// The result was thrown away (or the game ended short of the goal); the words say how.
    Failed(String),
}

/// A move the tables rated worse than the best, as the panel reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The move played, in SAN.
    pub played: String,
    /// It kept the result, and was as quick as the tables' best.
    pub best: bool,
    /// The tables' best move instead, in SAN, when the move was not one of the best.
    pub better: Option<String>,
    /// The reply the tables chose, in SAN.
    pub reply: Option<String>,
}

/// One drill in progress.
#[derive(Clone, Debug)]
pub struct Drill {
    /// The ending, the player's side first.
    pub ending: Ending,
    /// What the player must do.
    pub goal: Goal,
    /// How hard the start was chosen.
    pub difficulty: Difficulty,
    /// The side the player plays.
    pub player: Color,
    /// The moves so far, from the start position.
    pub game: Game,
    /// Plies to mate, or to the next capture or pawn move, from the start (0 for a draw).
    pub start_dtz: i32,
    /// Where the attempt stands.
    pub state: State,
    /// For each of the player's moves, whether it was as good as the tables' best.
    marks: Vec<bool>,
    /// Hints asked for.
    pub hints: u32,
    /// Moves taken back.
    pub takebacks: u32,
    par: u32,
    rng: Rng,
}

impl Drill {
    /// A new drill of `ending` at `difficulty`, its start drawn with `rng`: a win for the
    /// player's side when the ending can be won, else a draw the player can lose.
    pub fn new(
        ending: &Ending,
        difficulty: Difficulty,
        tables: &Tablebases,
        mut rng: Rng,
    ) -> Result<Drill, String> {
        let player = if rng.next_u64() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let (goal, mut pool) = starts(ending, player, tables, &mut rng)
            .map_err(|r| refused(ending, r, player, tables, &mut rng))?;
        // Easy to hard: short wins to long ones; draws with many holding moves to few.
        pool.sort_by_key(|s| s.hardness);
        let third = pool.len().div_ceil(3);
        let band = match difficulty {
            Difficulty::Easy => &pool[..third],
            Difficulty::Medium => &pool[third.min(pool.len())..(2 * third).min(pool.len())],
            Difficulty::Hard => &pool[(2 * third).min(pool.len())..],
        };
        let band = if band.is_empty() { &pool[..] } else { band };
        let start = &band[rng.below(band.len() as u64) as usize];
        let fen = shakmaty::fen::Fen::from_position(&start.pos, shakmaty::EnPassantMode::Legal);
        let game = Game::from_fen(&fen.to_string()).map_err(|e| e.to_string())?;
        Ok(Drill::begin(
            ending.clone(),
            goal,
            difficulty,
            game,
            tables,
            rng,
        ))
    }

    /// The drill of `ending` from `game`'s position, the side to move playing for `goal`.
    fn begin(
        ending: Ending,
        goal: Goal,
        difficulty: Difficulty,
        game: Game,
        tables: &Tablebases,
        rng: Rng,
    ) -> Drill {
        let pos = game.position();
        // The tables' line is played out against the very defence the drill will put up,
        // its random choices drawn from a copy of the drill's generator.
        let par = if goal == Goal::Win {
            par_of(pos, tables, rng.clone())
        } else {
            0
        };
        Drill {
            ending,
            goal,
            difficulty,
            player: pos.turn(),
            start_dtz: if goal == Goal::Win {
                tables.probe_dtz(pos).unwrap_or(0)
            } else {
                0
            },
            game,
            state: State::Playing,
            marks: Vec::new(),
            hints: 0,
            takebacks: 0,
            par,
            rng,
        }
    }

    /// A drill from a position of the player's choosing, the side to move playing: to win when
    /// the tables say it wins within the fifty-move rule, else to hold the draw.
    pub fn from_fen(fen: &str, tables: &Tablebases, rng: Rng) -> Result<Drill, String> {
        let game = Game::from_fen(fen).map_err(|e| e.to_string())?;
        let pos = game.position().clone();
        if game.is_over() {
            return Err("The game is over in that position.".into());
        }
        let pieces = pos.board().occupied().count();
        if pieces > super::ending::MAX_PIECES {
            return Err(format!(
                "That position has {pieces} pieces; the drills use the built-in tables of 3 and \
                 4 pieces"
            ));
        }
        let ranked = tables.rank_root_moves(&pos).map_err(|e| e.to_string())?;
        let goal = match ranked[0].wdl {
            Wdl::Win => Goal::Win,
            Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => Goal::Draw,
            Wdl::Loss => return Err("The side to move loses that position by the tables.".into()),
        };
        let signature = crate::tablebase::material_of(&pos);
        let ending = Ending::parse(&signature)?;
        let ending = if pos.turn() == Color::White {
            ending
        } else {
            ending.swapped()
        };
        Ok(Drill::begin(
            ending,
            goal,
            Difficulty::default(),
            game,
            tables,
            rng,
        ))
    }

    /// The position on the board.
    pub fn pos(&self) -> &Chess {
        self.game.position()
    }

    /// The player's moves so far.
    pub fn moves_played(&self) -> u32 {
        self.game
            .moves()
            .len()
            .div_ceil(2)
            .try_into()
            .unwrap_or(u32::MAX)
    }

    /// Par: the player's moves to the win when both sides follow the tables from the start,
    /// the player with the tables' best move and the other side as it defends here. Decided at
    /// the start, all the way to mate (through any capture or pawn move on the way), so it
    /// stays the same all through the drill.
    pub fn par(&self) -> u32 {
        self.par
    }

    /// The player's moves that were as good as the tables' best.
    pub fn best_moves(&self) -> u32 {
        self.marks.iter().filter(|&&b| b).count() as u32
    }

    /// The sentence the panel shows for the task.
    pub fn task(&self) -> String {
        let side = self.player.fold_wb("White", "Black");
        match self.goal {
            Goal::Win => format!("{side} to play and win"),
            Goal::Draw => format!("{side} to play and hold the draw"),
        }
    }

    /// The tables' best move for the player now, if it is the player's turn.
    pub fn best(&self, tables: &Tablebases) -> Option<RootMove> {
        if self.state != State::Playing {
            return None;
        }
        tables.root_move(self.pos())
    }

    /// Plays the player's move `m`, and the tables' reply when the attempt goes on. A move that
    /// throws the result away is played, answered, and fails the attempt (take it back to try
    /// again).
    pub fn play(&mut self, m: Move, tables: &Tablebases) -> Result<Verdict, String> {
        if self.state != State::Playing {
            return Err("This attempt is over: take back, retry or go to the next.".into());
        }
        let pos = self.pos().clone();
        if !pos.is_legal(m) {
            return Err("That move is not legal here.".into());
        }
        let ranked = tables.rank_root_moves(&pos).map_err(|e| e.to_string())?;
        let top = &ranked[0];
        let mine = ranked
            .iter()
            .find(|r| r.mv == m)
            .ok_or("That move is not legal here.")?;
        let san =
            |p: &Chess, mv: Move| shakmaty::san::SanPlus::from_move(p.clone(), mv).to_string();
        let played = san(&pos, m);
        let kept = value(mine.wdl) >= value(top.wdl);
        let best = mine.rank == top.rank;
        let better = (!best).then(|| san(&pos, top.mv));
        self.game.play(m, None).map_err(|e| e.to_string())?;
        self.marks.push(best);
        if !kept {
            self.state = State::Failed(thrown(self.goal, mine.wdl));
        } else if let Some(state) = self.judge_over() {
            self.state = state;
        }
        let mut verdict = Verdict {
            played,
            best,
            better,
            reply: None,
        };
        if self.game.is_over() {
            return Ok(verdict);
        }
        // The tables answer even a losing move, so the player sees how it is punished.
        let after = self.pos().clone();
        if let Some(reply) = self.reply(tables) {
            verdict.reply = Some(san(&after, reply));
            self.game.play(reply, None).map_err(|e| e.to_string())?;
            if self.state == State::Playing {
                if let Some(state) = self.judge_over() {
                    self.state = state;
                } else if self.goal == Goal::Draw && self.moves_played() >= HOLD_MOVES {
                    self.state = State::Done;
                }
            }
        }
        Ok(verdict)
    }

    /// Takes back the player's last move and the reply; false when there is nothing to take
    /// back.
    pub fn take_back(&mut self) -> bool {
        let plies = self.game.moves().len();
        if plies == 0 {
            return false;
        }
        // The player's last move is the last ply when the game ended on it, else the one before.
        let player_last = if self.game.turn() == self.player {
            2
        } else {
            1
        };
        for _ in 0..player_last.min(plies) {
            self.game.undo();
        }
        self.marks.truncate(self.moves_played() as usize);
        self.state = State::Playing;
        self.takebacks += 1;
        true
    }

    /// Back to the start position, as a fresh attempt.
    pub fn retry(&mut self) {
        while self.game.undo().is_some() {}
        self.state = State::Playing;
        self.marks.clear();
        self.hints = 0;
        self.takebacks = 0;
    }

    /// Counts a hint and returns the tables' best move.
    pub fn hint(&mut self, tables: &Tablebases) -> Option<Move> {
        let best = self.best(tables)?;
        self.hints += 1;
        Some(best.mv)
    }

    /// The player's result as a sentence, once the attempt is over.
    pub fn summary(&self) -> Option<String> {
        match &self.state {
            State::Playing => None,
            State::Failed(why) => Some(why.clone()),
            State::Done => {
                let n = self.moves_played();
                let par = self.par;
                let mut text = match self.goal {
                    Goal::Win => format!(
                        "Won in {n} move{} (par {}); {} of them the tables' best",
                        plural(n),
                        par,
                        self.best_moves()
                    ),
                    Goal::Draw => match self.game.outcome() {
                        Some(o) => format!("Held: {}", o.announce().to_lowercase()),
                        None => format!("Held the draw for {n} moves"),
                    },
                };
                if self.hints > 0 || self.takebacks > 0 {
                    text.push_str(&format!(
                        ", with {} hint{} and {} take-back{}",
                        self.hints,
                        plural(self.hints),
                        self.takebacks,
                        plural(self.takebacks)
                    ));
                }
                text.push('.');
                Some(text)
            }
        }
    }

    /// Whether the attempt was clean: reached without hints or take-backs.
    pub fn clean(&self) -> bool {
        self.state == State::Done && self.hints == 0 && self.takebacks == 0
    }

    /// The state the game's end puts the attempt in, if the game is over.
    fn judge_over(&self) -> Option<State> {
        let outcome = self.game.outcome()?;
        Some(match (self.goal, outcome.winner) {
            (_, Some(c)) if c == self.player => State::Done,
            (Goal::Draw, None) => State::Done,
            (_, Some(_)) => State::Failed("Lost.".into()),
            (Goal::Win, None) => State::Failed(
                match outcome.reason {
                    Reason::FiftyMoves => "Drawn by the fifty-move rule: the win took too long.",
                    Reason::Threefold => "Drawn by threefold repetition.",
                    Reason::Stalemate => "Stalemate: the win is gone.",
                    Reason::InsufficientMaterial => "Drawn: no mating material is left.",
                    _ => "Drawn.",
                }
                .into(),
            ),
        })
    }

    /// The other side's move (see [`defence`]).
    fn reply(&mut self, tables: &Tablebases) -> Option<Move> {
        defence(self.game.position(), tables, &mut self.rng)
    }
}

/// The most plies the tables' line from a start is followed to find par: the longest win of
/// 3 and 4 pieces, stretches after captures and pawn moves included, is far shorter.
const PAR_PLIES: usize = 600;

/// The player's moves from `start` (the player to move) to the end of the game when the
/// player plays the tables' best move each time and the other side answers as [`defence`]
/// with `rng`.
fn par_of(start: &Chess, tables: &Tablebases, mut rng: Rng) -> u32 {
    let player = start.turn();
    let mut pos = start.clone();
    let mut moves = 0;
    for _ in 0..PAR_PLIES {
        let m = if pos.turn() == player {
            tables.root_move(&pos).map(|r| r.mv)
        } else {
            defence(&pos, tables, &mut rng)
        };
        let Some(m) = m else {
            break;
        };
        moves += u32::from(pos.turn() == player);
        pos.play_unchecked(m);
    }
    moves
}

/// The move the tables play for the side to move of `pos` against the player: the best by the
/// tables (the longest resistance when it loses); among equally good draws, the one that leaves
/// the player most ways to go wrong; among equals otherwise, one drawn with `rng`.
fn defence(pos: &Chess, tables: &Tablebases, rng: &mut Rng) -> Option<Move> {
    let ranked = tables.rank_root_moves(pos).ok()?;
    let top = ranked.first()?.rank;
    let equal: Vec<&RootMove> = ranked.iter().filter(|r| r.rank == top).collect();
    if equal.len() > 1 && value(equal[0].wdl) == 0 {
        let traps = |r: &RootMove| {
            let mut after = pos.clone();
            after.play_unchecked(r.mv);
            tables.rank_root_moves(&after).map_or(0, |theirs| {
                theirs.iter().filter(|x| value(x.wdl) < 0).count()
            })
        };
        let most = equal.iter().map(|r| traps(r)).max().unwrap_or(0);
        let trappy: Vec<&&RootMove> = equal.iter().filter(|r| traps(r) == most).collect();
        let i = rng.below(trappy.len() as u64) as usize;
        return Some(trappy[i].mv);
    }
    let i = rng.below(equal.len() as u64) as usize;
    Some(equal[i].mv)
}

/// A start position, and how hard it is (higher is harder).
struct Start {
    pos: Chess,
    hardness: i32,
}

/// Why an ending has no drill.
enum Refusal {
    /// A probe of the tables failed.
    Tables(String),
    /// Its first side loses from most starts: nothing to win or hold.
    Lost,
    /// A draw from most starts, with no move of the first side that loses it: nothing to win
    /// or hold either.
    Drawn,
}

/// Why `ending` has no drill, in words: what to play instead, when there is something.
fn refused(
    ending: &Ending,
    why: Refusal,
    player: Color,
    tables: &Tablebases,
    rng: &mut Rng,
) -> String {
    let swapped = ending.swapped();
    match why {
        Refusal::Tables(e) => e,
        Refusal::Lost => format!(
            "{ending} is lost for its first side, the side you play, from nearly every start; \
             put the side that wins first, like {swapped}"
        ),
        // A symmetric ending is its own other side; another may have something to play for
        // there, as a lone king has a draw to hold where one step loses it.
        Refusal::Drawn if swapped != *ending && starts(&swapped, player, tables, rng).is_ok() => {
            format!(
                "{ending} has nothing to play for: from nearly every start neither side can \
                 win it, and no move of yours would lose it. The other side has something to \
                 play for: try {swapped}"
            )
        }
        Refusal::Drawn => format!(
            "{ending} is a draw whichever side you play: from nearly every start neither side \
             can win it, and no move loses it, so there is no win to play for and no draw to \
             hold"
        ),
    }
}

/// The goal for `ending` with the player as `player`, and a pool of start positions for it.
fn starts(
    ending: &Ending,
    player: Color,
    tables: &Tablebases,
    rng: &mut Rng,
) -> Result<(Goal, Vec<Start>), Refusal> {
    let mut wins = Vec::new();
    let mut draws = Vec::new();
    let (mut legal, mut drawn) = (0u32, 0u32);
    for _ in 0..TRIES {
        if wins.len() >= POOL {
            break;
        }
        let Some(pos) = place(ending, player, rng) else {
            continue;
        };
        legal += 1;
        let probe = tables
            .probe(&pos)
            .map_err(|e| Refusal::Tables(e.to_string()))?;
        match probe.wdl {
            // A mate in one is no drill.
            Wdl::Win if probe.dtz > 2 => wins.push(Start {
                hardness: probe.dtz,
                pos,
            }),
            Wdl::Draw => {
                drawn += 1;
                if draws.len() < POOL * 4 {
                    draws.push(pos);
                }
            }
            _ => {}
        }
    }
    // A win drill needs wins to be more than a freak of the placement.
    if !wins.is_empty() && wins.len() * 20 >= legal as usize {
        return Ok((Goal::Win, wins));
    }
    // A draw to hold, where a draw is the ending's usual result (not a lone king taking a
    // queen left en prise): only positions where some move loses, harder when fewer hold.
    let usually_drawn = drawn * 4 >= legal;
    if !usually_drawn {
        draws.clear();
    }
    let mut holds = Vec::new();
    for pos in draws {
        if holds.len() >= POOL {
            break;
        }
        let ranked = tables
            .rank_root_moves(&pos)
            .map_err(|e| Refusal::Tables(e.to_string()))?;
        let holding = ranked.iter().filter(|r| value(r.wdl) >= 0).count();
        if holding < ranked.len() {
            holds.push(Start {
                pos,
                hardness: -((holding * 100 / ranked.len()) as i32),
            });
        }
    }
    if holds.is_empty() && !wins.is_empty() {
        return Ok((Goal::Win, wins));
    }
    if holds.is_empty() {
        return Err(if usually_drawn {
            Refusal::Drawn
        } else {
            Refusal::Lost
        });
    }
    Ok((Goal::Draw, holds))
}

/// The pieces of `ending` on random squares, `player` to move: a legal position with a move
/// to make, or `None`.
fn place(ending: &Ending, player: Color, rng: &mut Rng) -> Option<Chess> {
    let mut board = Board::empty();
    let put = |board: &mut Board, color: Color, role: Role, rng: &mut Rng| -> bool {
        let free = !board.occupied()
            & if role == Role::Pawn {
                // Pawns stand between their second and seventh ranks.
                !(Bitboard::from(shakmaty::Rank::First) | Bitboard::from(shakmaty::Rank::Eighth))
            } else {
                Bitboard::FULL
            };
        let count = free.count();
        if count == 0 {
            return false;
        }
        let k = rng.below(count as u64) as usize;
        let Some(sq) = free.into_iter().nth(k) else {
            return false;
        };
        board.set_piece_at(sq, Piece { color, role });
        true
    };
    let them = !player;
    let mut pieces = vec![(player, Role::King), (them, Role::King)];
    pieces.extend(ending.ours.iter().map(|&r| (player, r)));
    pieces.extend(ending.theirs.iter().map(|&r| (them, r)));
    for (color, role) in pieces {
        if !put(&mut board, color, role, rng) {
            return None;
        }
    }
    let mut setup = shakmaty::Setup::empty();
    setup.board = board;
    setup.turn = player;
    let pos = Chess::from_setup(setup, CastlingMode::Standard).ok()?;
    (!pos.legal_moves().is_empty()).then_some(pos)
}

/// A result's worth to the side it belongs to: loss -2 to win 2 (a win the fifty-move rule
/// spoils is worth less than a win).
fn value(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Loss => -2,
        Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
        Wdl::CursedWin => 1,
        Wdl::Win => 2,
    }
}

/// What throwing the result away did, in words.
fn thrown(goal: Goal, now: Wdl) -> String {
    match (goal, now) {
        (Goal::Win, Wdl::CursedWin) => {
            "That lets the win slip past the fifty-move rule; it is a draw now.".into()
        }
        (Goal::Win, Wdl::Draw | Wdl::BlessedLoss) => {
            "That throws the win away; it is a draw now.".into()
        }
        (Goal::Win, _) | (Goal::Draw, _) => "That loses; the tables win from here.".into(),
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::Tablebases;

    fn tables() -> Tablebases {
        Tablebases::embedded()
    }

    /// Plays the tables' best move for the player until the attempt ends.
    fn play_best(drill: &mut Drill, tables: &Tablebases) {
        for _ in 0..200 {
            if drill.state != State::Playing {
                return;
            }
            let m = drill.best(tables).expect("a best move").mv;
            let v = drill.play(m, tables).unwrap();
            assert!(v.best, "{v:?}");
        }
    }

    #[test]
    fn every_offered_ending_draws_a_start_with_the_asked_result_and_material() {
        let tables = tables();
        for name in super::super::ending::OFFERED {
            let ending = Ending::parse(name).unwrap();
            let mut dtz = Vec::new();
            for difficulty in Difficulty::ALL {
                let d = Drill::new(&ending, difficulty, &tables, Rng::new(7)).unwrap();
                let pos = d.pos();
                assert_eq!(pos.turn(), d.player, "{name}");
                let signature = crate::tablebase::material_of(pos);
                let expect = if d.player == Color::White {
                    ending.to_string()
                } else {
                    ending.swapped().to_string()
                };
                assert_eq!(signature, expect, "{name}");
                let probe = tables.probe(pos).unwrap();
                match d.goal {
                    Goal::Win => {
                        assert_eq!(probe.wdl, Wdl::Win, "{name}");
                        assert_eq!(d.start_dtz, probe.dtz);
                        assert!(d.par() >= 2, "{name}: par {}", d.par());
                    }
                    Goal::Draw => {
                        assert_eq!(probe.wdl, Wdl::Draw, "{name}");
                        let ranked = tables.rank_root_moves(pos).unwrap();
                        assert!(
                            ranked.iter().any(|r| value(r.wdl) < 0),
                            "{name}: nothing loses"
                        );
                    }
                }
                dtz.push(d.start_dtz);
            }
            // The same seed draws the same pool: easier starts are never longer wins.
            assert!(dtz.windows(2).all(|w| w[0] <= w[1]), "{name}: {dtz:?}");
        }
    }

    #[test]
    fn the_goals_follow_the_material() {
        let tables = tables();
        let goal = |name: &str| {
            Drill::new(
                &Ending::parse(name).unwrap(),
                Difficulty::Medium,
                &tables,
                Rng::new(3),
            )
            .map(|d| d.goal)
        };
        assert_eq!(goal("KQvK"), Ok(Goal::Win));
        assert_eq!(goal("KPvK"), Ok(Goal::Win));
        assert_eq!(goal("KvKP"), Ok(Goal::Draw));
        assert_eq!(goal("KBvKR"), Ok(Goal::Draw));
        // Rook against bishop is mostly drawn, and the rook's side loses nothing by a slip:
        // its drill is the rarer win.
        assert_eq!(goal("KRvKB"), Ok(Goal::Win));
        let err = goal("KvKQ").unwrap_err();
        assert!(err.contains("KQvK"), "{err}");
        // Two knights cannot force mate, but a lone king can still be lost into a corner mate:
        // there is a draw to hold only where some move loses, and KNNvK has none.
        let err = goal("KNNvK").unwrap_err();
        assert!(err.contains("is a draw whichever side you play"), "{err}");
        // Bishop against bishop: nothing for either side, and nothing to swap to.
        for name in ["KBvKB", "KNvK", "KvKB"] {
            let err = goal(name).unwrap_err();
            assert!(err.contains("is a draw whichever side you play"), "{err}");
            assert!(!err.contains("first"), "{err}");
        }
    }

    #[test]
    fn perfect_play_wins_in_exactly_par() {
        let tables = tables();
        for (name, seed) in [
            ("KQvK", 1),
            ("KRvK", 2),
            ("KPvK", 3),
            ("KQvKR", 4),
            ("KBNvK", 5),
        ] {
            let ending = Ending::parse(name).unwrap();
            let mut d = Drill::new(&ending, Difficulty::Hard, &tables, Rng::new(seed)).unwrap();
            let par = d.par();
            play_best(&mut d, &tables);
            assert_eq!(d.state, State::Done, "{name}");
            assert_eq!(d.par(), par, "{name}: par is decided at the start");
            assert_eq!(d.moves_played(), par, "{name}");
            assert_eq!(d.best_moves(), d.moves_played());
            assert!(d.clean());
            let said = d.summary().unwrap();
            let n = d.moves_played();
            assert!(
                said.starts_with(&format!("Won in {n} moves (par {n})")),
                "{said}"
            );
        }
    }

    #[test]
    fn par_counts_the_whole_win_through_the_pawn_moves_and_never_changes() {
        let tables = tables();
        // KPvK: the pawn has to march, and every push starts a new count to the next one; par
        // is the whole way to mate from the first move.
        let mut d =
            Drill::from_fen("8/8/8/4k3/8/8/3PK3/8 w - - 0 1", &tables, Rng::new(1)).unwrap();
        assert_eq!(d.goal, Goal::Win);
        let par = d.par();
        let to_first_push = tables
            .probe_dtz(d.pos())
            .unwrap()
            .unsigned_abs()
            .div_ceil(2);
        assert!(par > to_first_push + 5, "par {par}: the whole win");
        for _ in 0..200 {
            if d.state != State::Playing {
                break;
            }
            let m = d.best(&tables).unwrap().mv;
            d.play(m, &tables).unwrap();
            assert_eq!(d.par(), par, "after {}", d.game.sans().join(" "));
        }
        assert_eq!(d.state, State::Done);
        assert_eq!(d.moves_played(), par);
        // A take-back and a fresh start keep it.
        assert!(d.take_back());
        assert_eq!(d.par(), par);
        d.retry();
        assert_eq!(d.par(), par);
    }

    #[test]
    fn a_mate_in_one_is_par_one() {
        let tables = tables();
        let mut d = Drill::from_fen("k7/8/1K6/8/8/8/7Q/8 w - - 0 1", &tables, Rng::new(1)).unwrap();
        assert_eq!((d.goal, d.start_dtz, d.par()), (Goal::Win, 1, 1));
        let qh8 = d.game.parse_move("Qh8").unwrap();
        let v = d.play(qh8, &tables).unwrap();
        assert!(v.best && v.reply.is_none());
        assert_eq!(d.state, State::Done);
        assert_eq!(
            d.summary().unwrap(),
            "Won in 1 move (par 1); 1 of them the tables' best."
        );
    }

    #[test]
    fn a_move_that_throws_the_win_away_fails_and_can_be_taken_back() {
        let tables = tables();
        // KQvK: Qb8+?? lets the king take the queen.
        let mut d =
            Drill::from_fen("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", &tables, Rng::new(1)).unwrap();
        let before = d.game.fen();
        let blunder = d.game.parse_move("Qb8+").unwrap();
        let v = d.play(blunder, &tables).unwrap();
        assert!(!v.best);
        assert!(v.better.is_some());
        assert_eq!(v.reply.as_deref(), Some("Kxb8"));
        assert!(
            matches!(&d.state, State::Failed(w) if w.contains("throws the win away")),
            "{:?}",
            d.state
        );
        assert!(d.play(blunder, &tables).is_err(), "no move after a failure");
        assert!(d.take_back());
        assert_eq!(d.game.fen(), before);
        assert_eq!(d.state, State::Playing);
        assert_eq!(d.takebacks, 1);
        assert_eq!(d.moves_played(), 0);
        // A slower move that keeps the win is not a failure, only not the best.
        let ranked = tables.rank_root_moves(d.pos()).unwrap();
        let slow = ranked
            .iter()
            .find(|r| r.wdl == Wdl::Win && r.rank < ranked[0].rank)
            .unwrap();
        let v = d.play(slow.mv, &tables).unwrap();
        assert!(!v.best && v.better.is_some());
        assert_eq!(d.state, State::Playing);
        play_best(&mut d, &tables);
        assert_eq!(d.state, State::Done);
        assert!(d.moves_played() > d.par());
        let said = d.summary().unwrap();
        assert!(said.contains(&format!("(par {})", d.par())), "{said}");
        assert!(said.ends_with("with 0 hints and 1 take-back."), "{said}");
    }

    #[test]
    fn the_fifty_move_rule_is_enforced() {
        let tables = tables();
        let fen = |clock: i32| format!("8/8/3k4/8/8/8/8/KR6 w - - {clock} 80");
        let dtz = tables
            .probe_dtz(&crate::fen::position(&fen(0)).unwrap())
            .unwrap();
        // A KRvK win with a clock too far gone is no win but a draw to hold.
        let late = Drill::from_fen(&fen(100 - dtz + 2), &tables, Rng::new(1)).unwrap();
        assert_eq!(late.goal, Goal::Draw);
        // With just enough moves left it is a win, and one wasted move throws it away.
        let mut d = Drill::from_fen(&fen(100 - dtz), &tables, Rng::new(1)).unwrap();
        assert_eq!(d.goal, Goal::Win);
        let ranked = tables.rank_root_moves(d.pos()).unwrap();
        let slow = ranked.iter().find(|r| r.rank < ranked[0].rank).unwrap().mv;
        d.play(slow, &tables).unwrap();
        assert!(
            matches!(&d.state, State::Failed(w) if w.contains("fifty-move")),
            "{:?}",
            d.state
        );
    }

    #[test]
    fn a_draw_is_held_against_the_trickiest_tries() {
        let tables = tables();
        let mut d = Drill::new(
            &Ending::parse("KvKP").unwrap(),
            Difficulty::Hard,
            &tables,
            Rng::new(9),
        )
        .unwrap();
        assert_eq!(d.goal, Goal::Draw);
        play_best(&mut d, &tables);
        assert_eq!(d.state, State::Done);
        assert!(d.moves_played() <= HOLD_MOVES);
        assert!(d.summary().unwrap().starts_with("Held"));
        // A losing move fails it.
        d.retry();
        let ranked = tables.rank_root_moves(d.pos()).unwrap();
        let lose = ranked.iter().find(|r| value(r.wdl) < 0).unwrap().mv;
        d.play(lose, &tables).unwrap();
        assert!(matches!(&d.state, State::Failed(w) if w.contains("loses")));
    }

    #[test]
    fn bad_positions_are_refused() {
        let tables = tables();
        for fen in [
            "not a fen",
            "k7/8/8/8/8/8/8/K7 w - - 0 1",
            "k7/8/8/8/8/8/PP6/K6Q w - - 0 1",
            "k7/8/1K6/8/8/8/8/7q w - - 0 1",
        ] {
            assert!(Drill::from_fen(fen, &tables, Rng::new(1)).is_err(), "{fen}");
        }
    }
}
