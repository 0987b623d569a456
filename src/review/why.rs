//! Why a flagged move was bad, in one plain sentence with the line that shows it: the mate it
//! allowed or missed, the tablebase result it threw away, the piece it hung, the fork, pin,
//! skewer, discovered attack or trap it walked into, the pawn it let run, or the tactic it
//! missed. Everything is read from the review's own lines: the opponent's best reply after the
//! move (what the move allowed) and the engine's best line before it (what it missed), played
//! out on the board a few moves until the captures stop. When nothing concrete applies, the
//! sentence says what the evaluation sees.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

use super::Review;
use super::judge::Eval;
use super::{passers, positional};
use crate::game::input::role_word;
use crate::motifs::{self, Motif};
use crate::pgn::numbered_san;

/// How many plies of a line are played out at most to see what it wins.
const WINDOW: usize = 8;

/// The centipawns of evaluation each pawn of material a line shows must cost, for the
/// material to be the reason.
const SEEN_CP: i32 = 100;

/// A drop of the evaluation this large (in centipawns, on its own scale) sees any amount of
/// material: the evaluations are held to ±10 pawns, so a queen and a rook lost cannot show in
/// full.
const SEEN_ANY_CP: i32 = 500;

/// The drop (centipawns) that sees `worse` pawns of material lost: all of a pawn, but of a
/// piece only half and at least a pawn and a half, for a piece is often given for some play
/// and the loss is still the story.
fn seen_needs(worse: i32) -> i32 {
    let part = (SEEN_CP * 3 / 2).max(SEEN_CP * worse / 2);
    (SEEN_CP * worse).min(part).min(SEEN_ANY_CP)
}

/// Whether the evaluation sees `worse` pawns of material, the lines' story only then (a pawn
/// given for play is not a pawn lost): by `drop`, on the verdict's scale, or by `own_drop`, on
/// the evaluation's own, from [`SEEN_ANY_CP`].
fn seen(worse: i32, drop: i32, own_drop: i32) -> bool {
    drop >= seen_needs(worse) || own_drop >= SEEN_ANY_CP
}

/// What kind of thing went wrong, for counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// It let the opponent mate.
    MateAllowed,
    /// It missed a mate.
    MateMissed,
    /// It threw a tablebase win or draw away.
    Tablebase,
    /// It left a piece to be taken for nothing.
    Hung,
    /// It walked into a tactic: a fork, pin, skewer, discovered attack or trap.
    Tactic,
    /// It let a pawn promote.
    Promotion,
    /// It let the opponent make a passed pawn or run one up the board.
    Passer,
    /// It missed making a passed pawn or running one up the board.
    PasserMissed,
    /// It let pieces be traded into an ending that is worse for it.
    Ending,
    /// It lost material in a sequence of captures.
    Material,
    /// It missed a tactic or material the engine's move won.
    Missed,
    /// It missed the perpetual check that drew a worse game.
    DrawMissed,
    /// It missed the trade into a won pawn ending.
    EndingMissed,
    /// Nothing concrete, but a term of the evaluation makes most of the cost: the king's
    /// safety, the pawns, the pieces' activity.
    Positional,
    /// Nothing concrete: only the evaluation says so.
    Evaluation,
}

impl Kind {
    /// Every kind, in the order tables list them.
    pub const ALL: [Kind; 15] = [
        Kind::MateAllowed,
        Kind::MateMissed,
        Kind::Tablebase,
        Kind::Hung,
        Kind::Tactic,
        Kind::Promotion,
        Kind::Passer,
        Kind::PasserMissed,
        Kind::Ending,
        Kind::Material,
        Kind::Missed,
        Kind::DrawMissed,
        Kind::EndingMissed,
        Kind::Positional,
        Kind::Evaluation,
    ];

    /// The name it is kept under.
    pub fn name(self) -> &'static str {
        match self {
            Kind::MateAllowed => "mate-allowed",
            Kind::MateMissed => "mate-missed",
            Kind::Tablebase => "tablebase",
            Kind::Hung => "hung",
            Kind::Tactic => "tactic",
            Kind::Promotion => "promotion",
            Kind::Passer => "passer",
            Kind::PasserMissed => "passer-missed",
            Kind::Ending => "ending",
            Kind::Material => "material",
            Kind::Missed => "missed",
            Kind::DrawMissed => "draw-missed",
            Kind::EndingMissed => "ending-missed",
            Kind::Positional => "positional",
            Kind::Evaluation => "evaluation",
        }
    }

    /// The kind kept under `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// In a few words, for a table.
    pub fn words(self) -> &'static str {
        match self {
            Kind::MateAllowed => "allowed mate",
            Kind::MateMissed => "missed mate",
            Kind::Tablebase => "threw away a tablebase result",
            Kind::Hung => "hung a piece",
            Kind::Tactic => "walked into a tactic",
            Kind::Promotion => "let a pawn promote",
            Kind::Passer => "let a passed pawn through",
            Kind::PasserMissed => "missed a passed pawn",
            Kind::Ending => "traded into a worse ending",
            Kind::Material => "lost material",
            Kind::Missed => "missed a win of material",
            Kind::DrawMissed => "missed a draw",
            Kind::EndingMissed => "missed a better pawn ending",
            Kind::Positional => "a positional concession",
            Kind::Evaluation => "no reason named",
        }
    }
}

/// Why a move was bad.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    /// The sentence, starting in lower case: `hangs the knight on f5: 15...Bxf5`.
    pub text: String,
    /// What kind of thing it was.
    pub kind: Kind,
}

impl Why {
    /// The sentence as a drill of the move may give it before it is answered: what was
    /// missed is the answer, so only that something was (`it misses mate in 2`, `it misses a
    /// win`); the rest as it is, after `it` (`it hangs the knight on f5: 15...Bxf5`). Empty
    /// when nothing concrete applies.
    pub fn unspoiled(&self) -> String {
        match self.kind {
            Kind::Evaluation => String::new(),
            Kind::Missed => "it misses a win".to_string(),
            Kind::DrawMissed => "it misses a draw".to_string(),
            Kind::EndingMissed => "it misses a trade into a pawn ending".to_string(),
            Kind::PasserMissed => "it misses a passed pawn".to_string(),
            Kind::MateMissed => format!("it {}", self.text.split(':').next().unwrap_or(&self.text)),
            _ => format!("it {}", self.text),
        }
    }

    /// Whether it names the better move itself (what was missed, with its line or what it
    /// wins), so that saying "Rxd5 was best" after it would only repeat it.
    pub fn names_the_better_move(&self) -> bool {
        matches!(
            self.kind,
            Kind::MateMissed
                | Kind::Missed
                | Kind::PasserMissed
                | Kind::DrawMissed
                | Kind::EndingMissed
        )
    }

    /// Whether it names something concrete (a mate, a piece, a line) rather than only what the
    /// evaluation sees.
    pub fn concrete(&self) -> bool {
        !matches!(self.kind, Kind::Evaluation | Kind::Positional)
    }

    /// Whether it says more than the scores: something concrete, or the term of the
    /// evaluation the move gave up.
    pub fn named(&self) -> bool {
        self.kind != Kind::Evaluation
    }
}

/// Why move `i` (from 0) of `review`'s game was bad, when both positions around it are known.
/// Meant for the moves the review flags; for another it still says what the lines show.
pub fn why(review: &Review, i: usize) -> Option<Why> {
    let before = review.evals.get(i)?.as_ref()?;
    let after = review.evals.get(i + 1)?.as_ref()?;
    let game = &review.game;
    let played = *game.moves().get(i)?;
    let pos = game.position_at(i);
    let next = game.position_at(i + 1);
    let mover = pos.turn();
    let best = before.line.first().copied().filter(|&m| m != played);
    let san = |p: &Chess, m: Move| SanPlus::from_move(p.clone(), m).to_string();

    // Mates first: nothing else matters beside them.
    if let Some(n) = mate_for(after.eval, !mover) {
        let what = match mate_for(before.eval, !mover) {
            Some(m) if m > n => format!("brings the mate nearer, in {n} now, not {m}"),
            Some(_) => format!("mate in {n} stays"),
            None => format!("allows mate in {n}"),
        };
        return Some(Why {
            text: with_line(what, next, &after.line, 2 * n as usize - 1),
            kind: Kind::MateAllowed,
        });
    }
    if let (Some(n), Some(_)) = (mate_for(before.eval, mover), best) {
        return Some(Why {
            text: with_line(
                format!("misses mate in {n}"),
                pos,
                &before.line,
                2 * n as usize - 1,
            ),
            kind: Kind::MateMissed,
        });
    }
    if let Some(text) = tablebase(
        before.eval,
        after.eval,
        mover,
        &san(pos, played),
        best.map(|b| san(pos, b)),
    ) {
        return Some(Why {
            text,
            kind: Kind::Tablebase,
        });
    }

    // The mover's scores either side of the move on the scale the verdict was read on
    // (Knightfall's own on Stockfish's), where a pawn is a pawn whoever is ahead.
    let judged = |e: Eval| mover.fold_wb(1, -1) * review.judged(e).ceiled_cp();
    let scores = (judged(before.eval), judged(after.eval));
    if let Some(why) = perpetual(pos, next, before, after, best, scores) {
        return Some(why);
    }

    // What the reply wins, against what the engine's move would have kept.
    let lines = Both::out(pos, next, best, &before.line, &after.line, WINDOW);
    let (reply, with_best) = (&lines.reply, &lines.best);
    let (worse, lost, missed_gain) = (lines.worse(), lines.lost(), lines.missed_gain());
    // The larger of the two is the story: a pawn lost beside a queen not taken is the queen.
    let missed_more = missed_gain >= 2 && missed_gain > lost;
    // The drop is read on the verdict's scale.
    let drop = scores.0 - scores.1;
    // The evaluation's own drop, for its terms and for the most material: Stockfish's scale
    // shrinks a won game's pawns, and a queen lost at +12 is still the story.
    let own_drop = mover.fold_wb(1, -1) * (before.eval.ceiled_cp() - after.eval.ceiled_cp());
    let seen = seen(worse, drop, own_drop);
    if seen && worse >= 1 && lost >= 1 && !missed_more && !reply.moves.is_empty() {
        return Some(allowed(pos, next, reply));
    }
    if let (Some(b), Some(best_line)) = (best, with_best)
        && seen
        && worse >= 1
    {
        return Some(missed(pos, b, best_line));
    }
    // A pawn the reply runs through to promote.
    if let Some(k) = reply.promotes(!mover) {
        return Some(promotion(next, reply, k));
    }
    // Even trades into an ending the evaluation condemns.
    if lost == 0
        && let Some(text) = traded(pos, next, reply, before.eval, after.eval)
    {
        return Some(Why {
            text,
            kind: Kind::Ending,
        });
    }
    if let (Some(b), Some(best_line)) = (best, with_best)
        && let Some(why) = trade_missed(pos, b, best_line, reply, before.eval)
    {
        return Some(why);
    }
    // In an ending the story is often a passed pawn no material has yet changed for.
    if passers::ending(pos)
        && let Some(why) = passer(pos, next, played, &before.line, &after.line)
    {
        return Some(why);
    }
    // A piece lost or missed further on, when the first plies change no material either way.
    if lost == 0
        && missed_gain == 0
        && let Some(why) = further(pos, next, best, &before.line, &after.line, drop, own_drop)
    {
        return Some(why);
    }
    // The evaluation's terms are weighed on its own scale.
    if let Some(why) = positional(pos, next, best, &before.line, &after.line, own_drop) {
        return Some(why);
    }
    let better = best.map(|b| san(pos, b));
    let shown = |e: Eval| e.display();
    Some(Why {
        text: match better {
            Some(b) => format!(
                "the position goes from {} to {}, where {b} kept it",
                shown(before.eval),
                shown(after.eval)
            ),
            None => format!(
                "the position goes from {} to {}",
                shown(before.eval),
                shown(after.eval)
            ),
        },
        kind: Kind::Evaluation,
    })
}

/// A line played out from a position: the moves (legal, at most a window's plies, ending
/// where the captures stop) and the position they lead to.
struct Played {
    moves: Vec<Move>,
    end: Chess,
    /// Every position from the start, the start first.
    positions: Vec<Chess>,
}

impl Played {
    fn out(start: &Chess, line: &[Move], window: usize) -> Played {
        let (mut moves, mut positions) = passers::legal_start(start, line, window);
        // Back to where no capture comes next, so an exchange is counted whole.
        let mut k = quiet_end(&moves, line);
        // And back to the last capture or promotion: the quiet moves after it change nothing.
        if let Some(last) = moves[..k]
            .iter()
            .rposition(|m| m.is_capture() || m.is_promotion())
        {
            k = last + 1;
        }
        moves.truncate(k);
        positions.truncate(k + 1);
        Played {
            end: positions[k].clone(),
            moves,
            positions,
        }
    }

    /// The index of a move of `side` in the line that promotes a pawn.
    fn promotes(&self, side: Color) -> Option<usize> {
        self.moves
            .iter()
            .enumerate()
            .position(|(k, m)| m.is_promotion() && self.positions[k].turn() == side)
    }
}

/// The line after the move and the engine's line before it (when it is another move), played
/// out to the same window, with the mover's material at the start and at each end.
struct Both {
    reply: Played,
    best: Option<Played>,
    start: i32,
    after_reply: i32,
    best_end: i32,
}

impl Both {
    fn out(
        pos: &Chess,
        next: &Chess,
        best: Option<Move>,
        before: &[Move],
        after: &[Move],
        window: usize,
    ) -> Both {
        let mover = pos.turn();
        let reply = Played::out(next, after, window);
        let after_reply = motifs::balance(&reply.end, mover);
        let best = best.map(|_| Played::out(pos, before, window));
        let best_end = best
            .as_ref()
            .map_or(after_reply, |b| motifs::balance(&b.end, mover));
        Both {
            start: motifs::balance(pos, mover),
            reply,
            best,
            after_reply,
            best_end,
        }
    }

    /// How much more material the engine's line keeps than the reply leaves.
    fn worse(&self) -> i32 {
        self.best_end - self.after_reply
    }

    /// What the reply wins from the mover.
    fn lost(&self) -> i32 {
        self.start - self.after_reply
    }

    /// What the engine's line wins for the mover.
    fn missed_gain(&self) -> i32 {
        self.best_end - self.start
    }
}

/// How far the lines are played out when the first [`WINDOW`] plies change no material.
const FURTHER: usize = 12;

/// The least material (pawns) the longer look names: a piece or the exchange, not a pawn,
/// which the evaluation may count for something else that far on.
const FURTHER_LEAST: i32 = 2;

/// What the lines show over [`FURTHER`] plies when their first [`WINDOW`] change no
/// material: the piece or the exchange the reply wins, or the engine's line would have; `drop`
/// and `own_drop` as in [`why`].
fn further(
    pos: &Chess,
    next: &Chess,
    best: Option<Move>,
    before: &[Move],
    after: &[Move],
    drop: i32,
    own_drop: i32,
) -> Option<Why> {
    let mover = pos.turn();
    let lines = Both::out(pos, next, best, before, after, FURTHER);
    let (worse, lost, missed_gain) = (lines.worse(), lines.lost(), lines.missed_gain());
    if !seen(worse, drop, own_drop) || worse < FURTHER_LEAST {
        return None;
    }
    if lost >= FURTHER_LEAST && lost >= missed_gain && holds(next, after, &lines.reply, mover) {
        return Some(allowed(pos, next, &lines.reply));
    }
    match (best, &lines.best) {
        (Some(b), Some(line))
            if missed_gain >= FURTHER_LEAST && holds(pos, before, line, !mover) =>
        {
            Some(missed(pos, b, line))
        }
        _ => None,
    }
}

/// The plies of a line after the part counted that must not win the material back.
const HOLDS_FOR: usize = 4;

/// Whether what `played` (the counted start of `line` from `from`) took from `loser` stays
/// taken for [`HOLDS_FOR`] plies more of the line: a line cut that far on may end with a
/// recapture still to come after an in-between move.
fn holds(from: &Chess, line: &[Move], played: &Played, loser: Color) -> bool {
    let counted = played.moves.len();
    let (moves, positions) = passers::legal_start(from, line, counted + HOLDS_FOR);
    let at_end = motifs::balance(&played.end, loser);
    moves.len() == counted + HOLDS_FOR
        && positions[counted..]
            .iter()
            .all(|p| motifs::balance(p, loser) <= at_end)
}

/// How much of `moves` (the legal start of `line`) to count: all of it when the line stops
/// there or goes on quietly, else back to before the last run of captures that the line
/// goes on with, so an exchange under way is not counted half done.
fn quiet_end(moves: &[Move], line: &[Move]) -> usize {
    let mut k = moves.len();
    if line.get(k).is_none_or(|m| !m.is_capture()) {
        return k;
    }
    while k > 0 && moves[k - 1].is_capture() {
        k -= 1;
    }
    k
}

/// The mate in moves `side` has in `eval`, if any.
fn mate_for(eval: Eval, side: Color) -> Option<i32> {
    match eval {
        Eval::Mate(n) if (n > 0) == side.is_white() && n != 0 => Some(n.abs()),
        _ => None,
    }
}

/// The most of a mating line shown: a long one reads as its start.
const MATE_SHOWN: usize = 7;

/// `text` with the line that shows it (at most `plies` of it, and no more than
/// [`MATE_SHOWN`], a longer one cut with `…`), after a colon.
fn with_line(text: String, from: &Chess, line: &[Move], plies: usize) -> String {
    let plies = plies.max(1);
    let shown = numbered_san(from, line.iter().take(plies.min(MATE_SHOWN)));
    if shown.is_empty() {
        text
    } else if plies > MATE_SHOWN && line.len() > MATE_SHOWN {
        format!("{text}: {shown} …")
    } else {
        format!("{text}: {shown}")
    }
}

/// A tablebase win or draw that the move threw away, in words.
fn tablebase(
    before: Eval,
    after: Eval,
    mover: Color,
    played: &str,
    best: Option<String>,
) -> Option<String> {
    let won = |e: Eval| matches!(e, Eval::Tablebase(c) if c == mover);
    let lost = |e: Eval| matches!(e, Eval::Tablebase(c) if c != mover);
    let drawn = |e: Eval| matches!(e, Eval::TablebaseDraw(_));
    let best = best.unwrap_or_else(|| "another move".to_string());
    if won(before) && drawn(after) {
        return Some(format!(
            "throws away a tablebase win: {played} draws, {best} wins"
        ));
    }
    if won(before) && lost(after) {
        return Some(format!(
            "throws away a tablebase win: {played} loses, {best} wins"
        ));
    }
    if drawn(before) && lost(after) {
        return Some(format!(
            "turns a tablebase draw into a loss: {played} loses, {best} holds"
        ));
    }
    None
}

/// The fewest checks in a row that make a perpetual check of a line.
const PERPETUAL_CHECKS: usize = 3;

/// The most the score after the move may be from level (centipawns) for the checks to be
/// taken as a draw.
const DRAWN_CP: i32 = 20;

/// The perpetual check the move from `pos` to `next` allowed when the mover was better (the
/// opponent's line after it nothing but checks, and the score level), or the one the engine's
/// line from `pos` gave when the mover was worse after the move than level; `scores` are the
/// mover's either side of the move, as the verdict reads them.
fn perpetual(
    pos: &Chess,
    next: &Chess,
    before: &super::analyse::PositionEval,
    after: &super::analyse::PositionEval,
    best: Option<Move>,
    scores: (i32, i32),
) -> Option<Why> {
    let level = |e: Eval| matches!(e, Eval::Cp(cp) if cp.abs() <= DRAWN_CP);
    if level(after.eval) && scores.0 >= SEEN_CP {
        let moves = checks(next, &after.line)?;
        return Some(Why {
            text: format!("allows a perpetual check: {}", numbered_san(next, &moves)),
            kind: Kind::Tactic,
        });
    }
    if best.is_some() && level(before.eval) && scores.1 <= -SEEN_CP {
        let moves = checks(pos, &before.line)?;
        return Some(Why {
            text: format!("misses a perpetual check: {}", numbered_san(pos, &moves)),
            kind: Kind::DrawMissed,
        });
    }
    None
}

/// The start of `line` from `from` (at most [`MATE_SHOWN`] plies) when every move the side
/// to move makes in it gives check, at least [`PERPETUAL_CHECKS`] of them, and nothing is
/// taken: checks that win material on the way are that material's story.
fn checks(from: &Chess, line: &[Move]) -> Option<Vec<Move>> {
    let (moves, positions) = passers::legal_start(from, line, MATE_SHOWN);
    if moves.iter().any(|m| m.is_capture()) {
        return None;
    }
    let mut given = 0;
    for (k, &m) in moves.iter().enumerate().step_by(2) {
        let mut then = positions[k].clone();
        then.play_unchecked(m);
        if !then.is_check() {
            return None;
        }
        given += 1;
    }
    (given >= PERPETUAL_CHECKS).then_some(moves)
}

/// The pawn the reply from `next` promotes with its move `k`.
fn promotion(next: &Chess, reply: &Played, k: usize) -> Why {
    Why {
        text: format!(
            "lets the {}-pawn run: {} and it queens",
            reply.moves[k].from().map_or('?', |sq| sq.file().char()),
            numbered_san(next, &reply.moves[..=k])
        ),
        kind: Kind::Promotion,
    }
}

/// The mover's score (centipawns, held to the ceiling) under which a pawn ending is lost.
const LOST_CP: i32 = -300;

/// The mover's score from which a trade of queens gives something away.
const AHEAD_CP: i32 = 150;

/// The trade the move allowed (the played move and the reply's captures, even in material),
/// when the evaluation condemns where it leads: into a pawn ending it counts as lost (or a
/// pawn or more down, and worse by [`AHEAD_CP`]), or the queens off where they were on, with
/// the scores. `None` when the reply trades nothing.
fn traded(pos: &Chess, next: &Chess, reply: &Played, before: Eval, after: Eval) -> Option<String> {
    let mover = pos.turn();
    if reply.moves.is_empty() || !reply.moves.iter().any(|m| m.is_capture()) {
        return None;
    }
    let queens = |p: &Chess| p.board().by_role(Role::Queen).count();
    let end = &reply.end;
    let whole = numbered_san(next, &reply.moves);
    let for_mover = |e: Eval| mover.fold_wb(1, -1) * e.ceiled_cp();
    if let Some(shown) = to_pawn_ending(pos, next, reply) {
        // Lost by the evaluation, or the material behind and the evaluation agreeing.
        let down = -motifs::balance(end, mover);
        let ending = match down {
            _ if for_mover(after) <= LOST_CP => "a lost pawn ending".to_string(),
            _ if for_mover(after) > -AHEAD_CP => return None,
            1 => "a pawn ending a pawn down".to_string(),
            2 => "a pawn ending two pawns down".to_string(),
            n if n > 2 => format!("a pawn ending {n} pawns down"),
            _ => return None,
        };
        return Some(format!("trades into {ending}: {shown}"));
    }
    // The queens traded at once, by the move and the reply's first or by the reply's first
    // two, while the mover was ahead: the trade threw the attack or the initiative away.
    let queen_taken = |m: &Move| m.capture() == Some(Role::Queen);
    let at_once = reply.moves.first().is_some_and(queen_taken)
        && (reply.moves.get(1).is_some_and(queen_taken) || queens(next) == 1);
    if queens(pos) == 2 && queens(end) == 0 && at_once && for_mover(before) >= AHEAD_CP {
        return Some(format!(
            "lets the queens be traded while ahead, from {} to {}: {whole}",
            before.display(),
            after.display()
        ));
    }
    None
}

/// How many pieces (not kings or pawns) stand on `pos`'s board.
fn pieces(pos: &Chess) -> usize {
    let b = pos.board();
    (b.occupied() & !b.pawns() & !b.kings()).count()
}

/// `line` (played out from `from`) up to where the last piece goes, when it trades
/// `pos`'s pieces off into a pawn ending.
fn to_pawn_ending(pos: &Chess, from: &Chess, line: &Played) -> Option<String> {
    if line.moves.is_empty() || pieces(&line.end) > 0 || pieces(pos) == 0 {
        return None;
    }
    let k = (0..line.moves.len()).find(|&k| pieces(&line.positions[k + 1]) == 0)?;
    Some(numbered_san(from, &line.moves[..=k]))
}

/// The mover's score (centipawns, held to the ceiling) from which a pawn ending is won.
const WON_CP: i32 = -LOST_CP;

/// The trade into a pawn ending the engine's line from `pos` (`best` first) made, while the
/// reply to the move played keeps pieces on the board: one a pawn or more up when the mover
/// was ahead by [`AHEAD_CP`] before the move, or one the evaluation `before` the move calls
/// won ([`WON_CP`]). The line must give no material for it.
fn trade_missed(
    pos: &Chess,
    best: Move,
    line: &Played,
    reply: &Played,
    before: Eval,
) -> Option<Why> {
    let mover = pos.turn();
    let up = motifs::balance(&line.end, mover);
    let score = mover.fold_wb(1, -1) * before.ceiled_cp();
    if pieces(&reply.end) == 0 || up < motifs::balance(pos, mover) || score < AHEAD_CP {
        return None;
    }
    let ending = match up {
        1 => "a pawn ending a pawn up".to_string(),
        2 => "a pawn ending two pawns up".to_string(),
        n if n > 2 => format!("a pawn ending {n} pawns up"),
        _ if score >= WON_CP => "a won pawn ending".to_string(),
        _ => return None,
    };
    let shown = to_pawn_ending(pos, pos, line)?;
    Some(Why {
        text: format!(
            "misses {}, which trades into {ending}: {shown}",
            numbered_san(pos, [best].iter())
        ),
        kind: Kind::EndingMissed,
    })
}

/// The passed pawn the reply (`after`, from `next`, the position after `played`) makes or runs for
/// the opponent, or else the one the engine's line (`before`, from `pos`) would have made or
/// run for the mover; each only when the other line does not do the same with that file.
fn passer(pos: &Chess, next: &Chess, played: Move, before: &[Move], after: &[Move]) -> Option<Why> {
    let mover = pos.turn();
    let game_line: Vec<Move> = std::iter::once(played)
        .chain(after.iter().copied())
        .collect();
    let file = |p: Option<passers::Passer>| p.map(|p| p.square.file());
    let side = |c: Color| c.fold_wb("White", "Black");
    let upto = |from: &Chess, line: &[Move], at: usize| numbered_san(from, &line[..=at]);
    let theirs = passers::in_line(next, after, !mover);
    if let Some(p) = theirs
        && file(passers::in_line(pos, before, !mover)) != file(theirs)
    {
        let shown = upto(next, after, p.at);
        let sq = p.square;
        return Some(Why {
            text: if p.made {
                format!(
                    "lets {} make a passed {}-pawn: {shown}",
                    side(!mover),
                    sq.file().char()
                )
            } else {
                format!(
                    "lets {} run to {sq}, its {} rank: {shown}",
                    passers::pawn_name(sq),
                    passers::rank_word(sq, !mover)
                )
            },
            kind: Kind::Passer,
        });
    }
    let best = *before.first().filter(|&&b| b != played)?;
    let ours = passers::in_line(pos, before, mover)?;
    if file(passers::in_line(pos, &game_line, mover)) == file(Some(ours)) {
        return None;
    }
    let best_san = numbered_san(pos, [best].iter());
    let shown = upto(pos, before, ours.at);
    let sq = ours.square;
    Some(Why {
        // The engine's move itself, or a later one of its line.
        text: match (ours.made, ours.at == 0) {
            (true, true) => format!(
                "misses {best_san}, which makes a passed {}-pawn",
                sq.file().char()
            ),
            (true, false) => format!("misses a passed {}-pawn: {shown}", sq.file().char()),
            (false, true) => format!(
                "misses {best_san}, which runs {} to {sq}, its {} rank",
                passers::pawn_name(sq),
                passers::rank_word(sq, mover)
            ),
            (false, false) => format!(
                "misses running {} to {sq}, its {} rank: {shown}",
                passers::pawn_name(sq),
                passers::rank_word(sq, mover)
            ),
        },
        kind: Kind::PasserMissed,
    })
}

/// The first tactic the line played out from `from` carries out that wins a piece (not a
/// pawn: a pin of one is no story beside what else the line wins).
fn tactic(from: &Chess, line: &Played) -> Option<(Motif, motifs::Seen)> {
    motifs::tactics_in(from, &line.moves)
        .into_iter()
        .find(|(motif, seen)| {
            let board = line.positions[seen.at + 1].board();
            let won = match motif {
                Motif::Skewer => seen.squares.get(1),
                Motif::Fork => return true,
                _ => seen.squares.first(),
            };
            won.and_then(|&sq| board.role_at(sq))
                .is_some_and(|r| r == Role::King || crate::game::pawns_worth(r) >= 3)
        })
}

/// The most of a line read for what the evaluation sees at its end: as far as the
/// engine's lines go.
const WHOLE_LINE: usize = 16;

/// The fewest plies both lines need for their ends to stand for the search's scores.
const LEAF_PLIES: usize = 6;

/// The plies of the line after the move shown with a positional reason.
const POSITIONAL_SHOWN: usize = 4;

/// What the evaluation sees the move give up, from the ends of the engine's line and of the
/// line after the move (see [`positional::given_up`]).
fn positional(
    pos: &Chess,
    next: &Chess,
    best: Option<Move>,
    before: &[Move],
    after: &[Move],
    drop: i32,
) -> Option<Why> {
    best?;
    let (best_line, kept) = passers::legal_start(pos, before, WHOLE_LINE);
    let (moves, got) = passers::legal_start(next, after, WHOLE_LINE);
    // A line cut short ends far from where the search's score comes from.
    if best_line.len() < LEAF_PLIES || moves.len() < LEAF_PLIES {
        return None;
    }
    let (kept, got) = (kept.last()?, got.last()?);
    let mover = pos.turn();
    let given = positional::given_up(kept, got, mover, drop)?;
    let what = positional::words(given, kept, got, mover);
    let text = format!(
        "{what}: {}",
        numbered_san(next, &moves[..POSITIONAL_SHOWN.min(moves.len())])
    );
    Some(Why {
        text,
        kind: Kind::Positional,
    })
}

/// What the opponent's reply (from `next`, the move from `pos` played) did: the piece the
/// move hung, the tactic it walked into, or the material it lost.
fn allowed(pos: &Chess, next: &Chess, reply: &Played) -> Why {
    let mover = pos.turn();
    let first = reply.moves[0];
    let shown = |k: usize| numbered_san(next, &reply.moves[..=k]);
    let whole = numbered_san(next, &reply.moves);
    // A piece taken at once that nothing defended.
    if motifs::hanging(next, first)
        && let Some(role) = first.capture()
    {
        return Why {
            text: format!(
                "hangs the {} on {}: {}",
                role_word(role),
                first.to(),
                shown(0)
            ),
            kind: Kind::Hung,
        };
    }
    if let Some((motif, seen)) = tactic(next, reply) {
        let board = reply.positions[seen.at + 1].board();
        let named = |sq: Square| {
            board
                .role_at(sq)
                .map_or_else(|| format!("the piece on {sq}"), |r| piece_on(r, sq))
        };
        let by = numbered_san(&reply.positions[seen.at], &reply.moves[seen.at..=seen.at]);
        // The piece the tactic aims at is won only when the line ends with it lost; else
        // the line's material is what it costs (a pinned knight taken and recaptured).
        let won = |sq: Square| {
            board
                .role_at(sq)
                .is_some_and(|r| ends_lost(pos, &reply.end, mover, r))
        };
        let losing = || loss_words(pos, &reply.end, mover).replacen("loses", "losing", 1);
        let text = match motif {
            // The fork's line from the reply on, so it reads from the position on the board.
            Motif::Fork => format!(
                "walks into a fork: {} forks {}",
                shown(seen.at),
                forked(board, &seen.squares)
            ),
            Motif::Pin if won(seen.squares[0]) => format!(
                "walks into a pin: {by} pins and wins {}: {whole}",
                named(seen.squares[0])
            ),
            Motif::Pin => format!(
                "walks into a pin of {}, {}: {whole}",
                named(seen.squares[0]),
                losing()
            ),
            Motif::Skewer if won(seen.squares[1]) => format!(
                "walks into a skewer: {by} wins {} behind: {whole}",
                named(seen.squares[1])
            ),
            Motif::Skewer => format!(
                "walks into a skewer of {}, {}: {whole}",
                named(seen.squares[0]),
                losing()
            ),
            Motif::DiscoveredAttack => format!(
                "allows a discovered attack: {by} uncovers an attack on {}: {whole}",
                named(seen.squares[0])
            ),
            _ => format!(
                "lets {} be trapped: {whole}",
                seen.squares
                    .first()
                    .map_or_else(String::new, |&sq| named(sq))
            ),
        };
        return Why {
            text,
            kind: Kind::Tactic,
        };
    }
    if let Some(k) = reply.promotes(!mover) {
        return promotion(next, reply, k);
    }
    Why {
        text: format!("{} after {whole}", loss_words(pos, &reply.end, mover)),
        kind: Kind::Material,
    }
}

/// What the engine's move `best` from `pos` would have won: the tactic or the material.
fn missed(pos: &Chess, best: Move, line: &Played) -> Why {
    let mover = pos.turn();
    let best_san = numbered_san(pos, [best].iter());
    let whole = numbered_san(pos, &line.moves);
    if motifs::hanging(pos, best)
        && let Some(role) = best.capture()
    {
        return Why {
            text: format!(
                "misses {best_san}, which takes the {} on {} for nothing",
                role_word(role),
                best.to()
            ),
            kind: Kind::Missed,
        };
    }
    if let Some((motif, seen)) = tactic(pos, line) {
        let board = line.positions[seen.at + 1].board();
        let by = numbered_san(pos, &line.moves[..=seen.at]);
        // As in `allowed`: the piece aimed at is won only when the line ends with it taken.
        let won = |sq: Square| {
            board
                .role_at(sq)
                .is_some_and(|r| ends_lost(pos, &line.end, !mover, r))
        };
        let and_wins = || match gain_words(pos, &line.end, mover) {
            w if w.is_empty() => String::new(),
            w => format!(" and wins {w}"),
        };
        let what = match motif {
            Motif::Fork => format!("forks {}", forked(board, &seen.squares)),
            Motif::Pin if won(seen.squares[0]) => {
                format!("pins and wins {}", the(board.role_at(seen.squares[0])))
            }
            Motif::Pin => format!("pins {}{}", the(board.role_at(seen.squares[0])), and_wins()),
            Motif::Skewer if won(seen.squares[1]) => {
                format!("skewers and wins {}", the(board.role_at(seen.squares[1])))
            }
            Motif::Skewer => format!(
                "skewers {}{}",
                the(board.role_at(seen.squares[0])),
                and_wins()
            ),
            Motif::DiscoveredAttack => format!(
                "uncovers an attack on {}",
                the(board.role_at(seen.squares[0]))
            ),
            _ => format!("traps {}", the(board.role_at(seen.squares[0]))),
        };
        return Why {
            text: format!("misses {by}, which {what}"),
            kind: Kind::Missed,
        };
    }
    // A pawn the line queens, and keeps queened, is the story, and no loss of a pawn.
    let kept = |k: usize| {
        let m = line.moves[k];
        line.end.board().piece_at(m.to()) == m.promotion().map(|r| r.of(mover))
    };
    if let Some(k) = line.promotes(mover).filter(|&k| kept(k)) {
        let file = line.moves[k].from().map_or('?', |sq| sq.file().char());
        return Why {
            text: format!("misses {best_san}, which queens the {file}-pawn: {whole}"),
            kind: Kind::Missed,
        };
    }
    let won = gain_words(pos, &line.end, mover);
    Why {
        text: if won.is_empty() {
            format!("misses {best_san}: {whole}")
        } else {
            format!("misses {best_san}, which wins {won}: {whole}")
        },
        kind: Kind::Missed,
    }
}

/// The pieces each side has lost from `from` to `to` beyond what it took back in kind:
/// (`side`'s, the other's), the most valuable first.
fn losses(from: &Chess, to: &Chess, side: Color) -> (Vec<Role>, Vec<Role>) {
    let count =
        |pos: &Chess, c: Color, r: Role| (pos.board().by_color(c) & pos.board().by_role(r)).count();
    let of = |c: Color| {
        let mut out = Vec::new();
        for r in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            let gone = count(from, c, r).saturating_sub(count(to, c, r));
            out.extend(std::iter::repeat_n(r, gone));
        }
        out
    };
    let (mut mine, mut theirs) = (of(side), of(!side));
    // Like for like is a trade, not a loss.
    let mut i = 0;
    while i < mine.len() {
        if let Some(j) = theirs.iter().position(|&r| r == mine[i]) {
            theirs.remove(j);
            mine.remove(i);
        } else {
            i += 1;
        }
    }
    (mine, theirs)
}

/// Whether `side` ends the way from `from` to `to` with a piece of `role` lost, not traded
/// for another (a pawn back for it may be taken on the way): a piece a tactic aims at is won
/// only then.
fn ends_lost(from: &Chess, to: &Chess, side: Color, role: Role) -> bool {
    let net = motifs::balance(from, side) - motifs::balance(to, side);
    losses(from, to, side).0.contains(&role) && net >= crate::game::pawns_worth(role) - 1
}

/// What `side` lost going from `from` to `to`, in words: `loses the exchange`, `loses the
/// knight`, `loses two pawns`, `loses the bishop for a pawn`.
fn loss_words(from: &Chess, to: &Chess, side: Color) -> String {
    let (mine, theirs) = losses(from, to, side);
    let minor = |r: &Role| matches!(r, Role::Bishop | Role::Knight);
    if mine == [Role::Rook] && theirs.len() == 1 && theirs.iter().all(minor) {
        return "loses the exchange".to_string();
    }
    if mine.is_empty() {
        return "loses material".to_string();
    }
    let lost = material_list(&mine, true);
    if theirs.is_empty() {
        return format!("loses {lost}");
    }
    format!("loses {lost} for {}", material_list(&theirs, false))
}

/// What `side` won going from `from` to `to`, in words (empty when nothing).
fn gain_words(from: &Chess, to: &Chess, side: Color) -> String {
    let (mine, theirs) = losses(from, to, side);
    let minor = |r: &Role| matches!(r, Role::Bishop | Role::Knight);
    if theirs == [Role::Rook] && mine.len() == 1 && mine.iter().all(minor) {
        return "the exchange".to_string();
    }
    if theirs.is_empty() {
        return String::new();
    }
    let won = material_list(&theirs, true);
    if mine.is_empty() {
        won
    } else {
        format!("{won} for {}", material_list(&mine, false))
    }
}

/// Pieces in words, the most valuable first: `the knight and a pawn`, `two pawns`; with
/// `definite` a single piece is `the` one, else `a`.
fn material_list(roles: &[Role], definite: bool) -> String {
    let mut parts = Vec::new();
    for r in [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ] {
        let n = roles.iter().filter(|&&x| x == r).count();
        let name = role_word(r);
        match n {
            0 => {}
            1 if definite && r != Role::Pawn => parts.push(format!("the {name}")),
            1 => parts.push(format!("a {name}")),
            2 => parts.push(format!("two {name}s")),
            3 => parts.push(format!("three {name}s")),
            n => parts.push(format!("{n} {name}s")),
        }
    }
    and_list(parts.into_iter())
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The pieces on `squares`, the king first, then the most valuable: `the king and the rook`.
fn forked(board: &shakmaty::Board, squares: &[Square]) -> String {
    let mut roles: Vec<Option<Role>> = squares.iter().map(|&sq| board.role_at(sq)).collect();
    roles.sort_by_key(|r| {
        std::cmp::Reverse(r.map_or(0, |r| {
            if r == Role::King {
                100
            } else {
                crate::game::pawns_worth(r)
            }
        }))
    });
    and_list(roles.into_iter().map(the))
}

/// `the queen`, or `a piece` for an empty square.
fn the(role: Option<Role>) -> String {
    role.map_or_else(
        || "a piece".to_string(),
        |r| format!("the {}", role_word(r)),
    )
}

/// `the knight on f6`.
fn piece_on(role: Role, sq: Square) -> String {
    format!("the {} on {sq}", role_word(role))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::review::analyse::PositionEval;

    /// A review of the game of `moves` (SAN, from the start) whose every position is evaluated
    /// as `evals` says, with the engine's line there in SAN.
    fn review(moves: &str, evals: &[(Eval, &str)]) -> Review {
        let game = Game::from_pgn(&format!("{moves} *")).unwrap();
        let mut review = Review::new(game, 100);
        review.book_plies = 0;
        for (ply, (eval, line)) in evals.iter().enumerate() {
            let mut pos = review.game.position_at(ply).clone();
            let mut moves = Vec::new();
            for san in line.split_whitespace() {
                let m = san
                    .parse::<shakmaty::san::San>()
                    .unwrap()
                    .to_move(&pos)
                    .unwrap();
                pos.play_unchecked(m);
                moves.push(m);
            }
            review.evals[ply] = Some(PositionEval {
                eval: *eval,
                line: moves,
                depth: 10,
            });
        }
        review
    }

    /// 3...Nxe4?? takes a pawn the d-pawn guards: 4. dxe4 and the knight is gone; White
    /// is `after` centipawns up from then on.
    fn knight_taken(after: i32) -> Review {
        review(
            "1. e4 e5 2. Bc4 Nf6 3. d3 Nxe4 4. dxe4 Bc5",
            &[
                (Eval::Cp(30), "e4"),
                (Eval::Cp(30), "e5"),
                (Eval::Cp(30), "Nf3"),
                (Eval::Cp(30), "Nc6"),
                (Eval::Cp(20), "Nc3"),
                (Eval::Cp(20), "Bc5"),
                (Eval::Cp(after), "dxe4"),
                (Eval::Cp(after), "Bc5"),
                (Eval::Cp(after), "Nf3"),
            ],
        )
    }

    #[test]
    fn a_piece_left_to_be_taken_is_hung_and_a_quiet_loss_is_the_evaluations() {
        let r = knight_taken(250);
        let w = why(&r, 5).unwrap();
        assert_eq!(w.kind, Kind::Hung, "{w:?}");
        assert_eq!(w.text, "hangs the knight on e4: 4. dxe4");
        // 4...Bc5, judged by the evaluation alone: nothing in the lines changes material.
        let w = why(&r, 7).unwrap();
        assert_eq!(w.kind, Kind::Evaluation, "{w:?}");
        assert!(!w.concrete());
    }

    #[test]
    fn a_piece_lost_for_some_play_is_still_lost_when_the_evaluation_sees_half_of_it() {
        // 3...Nxe4??, but Black gets some play for the knight: the evaluation drops
        // two pawns, not three, and the knight is still the story; a drop of one pawn is not.
        let w = why(&knight_taken(190), 5).unwrap();
        assert_eq!(w.text, "hangs the knight on e4: 4. dxe4", "{w:?}");
        let w = why(&knight_taken(120), 5).unwrap();
        assert!(!w.concrete(), "{w:?}");
    }

    #[test]
    fn a_pawn_is_a_pawn_on_stockfish_s_scale_where_knightfall_s_pawns_are_larger() {
        // 2. Nf3?? leaves e4 to 2... dxe4; where 2. exd5 Qxd5 kept the pawns even.
        let game = |before: i32, after: i32| {
            review(
                "1. e4 d5 2. Nf3 dxe4",
                &[
                    (Eval::Cp(before), "e4"),
                    (Eval::Cp(before), "d5"),
                    (Eval::Cp(before), "exd5 Qxd5"),
                    (Eval::Cp(after), "dxe4"),
                ],
            )
        };
        assert!(why(&game(100, -50), 2).unwrap().concrete());
        // Knightfall's own 9.00 and 7.50 are Stockfish's 6.2 and 5.9: the pawn is not what
        // the drop is made of.
        let own = game(900, 750);
        assert!(own.own_search());
        let w = why(&own, 2).unwrap();
        assert!(!w.concrete(), "{w:?}");
        // Another engine's scores are taken as they are.
        let mut other = game(900, 750);
        other.engine = Some("Stockfish".to_string());
        let w = why(&other, 2).unwrap();
        assert!(w.concrete(), "{w:?}");
    }

    #[test]
    fn a_queen_taken_for_nothing_and_the_move_that_takes_it() {
        // 2. Qg4?? fxg4: White's queen, to a pawn; Black's 2...d6?? missed it, though White's
        // best reply then takes a pawn: the queen is the story.
        let r = review(
            "1. e4 f5 2. Qg4 d6",
            &[
                (Eval::Cp(30), "e4"),
                (Eval::Cp(60), "e5"),
                (Eval::Cp(80), "exf5"),
                (Eval::Cp(-900), "fxg4"),
                (Eval::Cp(150), "Qxf5"),
            ],
        );
        let w = why(&r, 2).unwrap();
        assert_eq!(w.kind, Kind::Hung);
        assert_eq!(w.text, "hangs the queen on g4: 2... fxg4");
        // The same queen hung from a won game, +12 to +3, is no less the story, though on
        // Stockfish's scale that is less than half a queen.
        let won = review(
            "1. e4 f5 2. Qg4 d6",
            &[
                (Eval::Cp(30), "e4"),
                (Eval::Cp(60), "e5"),
                (Eval::Cp(1200), "exf5"),
                (Eval::Cp(300), "fxg4"),
                (Eval::Cp(150), "Qxf5"),
            ],
        );
        assert_eq!(why(&won, 2).unwrap().kind, Kind::Hung);
        let w = why(&r, 3).unwrap();
        assert_eq!(w.kind, Kind::Missed);
        assert_eq!(
            w.text,
            "misses 2... fxg4, which takes the queen on g4 for nothing"
        );
    }

    #[test]
    fn mates_allowed_and_missed_are_named_with_their_line() {
        // Scholar's mate: 3...Nf6?? allows Qxf7#; 3...g6 held.
        let r = review(
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#",
            &[
                (Eval::Cp(30), "e4"),
                (Eval::Cp(30), "e5"),
                (Eval::Cp(30), "Qh5"),
                (Eval::Cp(0), "Nc6"),
                (Eval::Cp(20), "Bc4"),
                (Eval::Cp(20), "g6"),
                (Eval::Mate(1), "Qxf7#"),
                (Eval::Checkmate(Color::White), ""),
            ],
        );
        let w = why(&r, 5).unwrap();
        assert_eq!(w.kind, Kind::MateAllowed);
        assert_eq!(w.text, "allows mate in 1: 4. Qxf7#");
        // Had White then played 4. Qf3 instead, the mate was missed.
        let r = review(
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qf3",
            &[
                (Eval::Cp(30), "e4"),
                (Eval::Cp(30), "e5"),
                (Eval::Cp(30), "Qh5"),
                (Eval::Cp(0), "Nc6"),
                (Eval::Cp(20), "Bc4"),
                (Eval::Cp(20), "g6"),
                (Eval::Mate(1), "Qxf7#"),
                (Eval::Cp(50), "Nd4"),
            ],
        );
        let w = why(&r, 6).unwrap();
        assert_eq!(w.kind, Kind::MateMissed);
        assert_eq!(w.text, "misses mate in 1: 4. Qxf7#");
    }

    #[test]
    fn a_knight_fork_is_named_with_what_it_forks() {
        // 2...e5?? lets the knight in: 3. Nxc7+ forks the king and the rook.
        let r = review(
            "1. Nc3 d5 2. Nb5 e5",
            &[
                (Eval::Cp(20), "Nc3"),
                (Eval::Cp(20), "d5"),
                (Eval::Cp(20), "Nb5"),
                (Eval::Cp(0), "Na6"),
                (Eval::Cp(500), "Nxc7+ Kd7 Nxa8"),
            ],
        );
        let w = why(&r, 3).unwrap();
        assert_eq!(w.kind, Kind::Tactic, "{w:?}");
        assert_eq!(
            w.text,
            "walks into a fork: 3. Nxc7+ forks the king and the rook"
        );
    }

    #[test]
    fn a_tablebase_win_thrown_away_says_which_move_won() {
        let r = review(
            "1. e4",
            &[
                (Eval::Tablebase(Color::White), "d4"),
                (Eval::TablebaseDraw(None), ""),
            ],
        );
        let w = why(&r, 0).unwrap();
        assert_eq!(w.kind, Kind::Tablebase);
        assert_eq!(w.text, "throws away a tablebase win: e4 draws, d4 wins");
    }

    /// A pawn ending where Black's ...b4 breaks through on the queenside.
    const BREAK: &str = "8/8/1k6/pp6/8/P2K4/8/8";

    #[test]
    fn a_pawn_break_let_through_or_missed_is_a_passed_pawn() {
        // 38. Ke3?? (from d2) lets Black break: 38...b4 39. axb4 axb4 and the pawn is passed.
        let r = review(
            "[FEN \"8/8/1k6/pp6/8/P7/3K4/8 w - - 0 38\"]\n[SetUp \"1\"]\n\n38. Ke3",
            &[(Eval::Cp(0), "Kc3"), (Eval::Cp(-500), "b4 axb4 axb4 Kd3")],
        );
        let w = why(&r, 0).unwrap();
        assert_eq!(w.kind, Kind::Passer, "{w:?}");
        assert_eq!(
            w.text,
            "lets Black make a passed b-pawn: 38... b4 39. axb4 axb4"
        );
        let black = |best: &str| {
            review(
                &format!("[FEN \"{BREAK} b - - 0 38\"]\n[SetUp \"1\"]\n\n38... Kc7"),
                &[(Eval::Cp(-500), best), (Eval::Cp(0), "Kc2")],
            )
        };
        // 38...Kc7? misses the same break.
        let w = why(&black("b4 axb4 axb4 Kc4"), 0).unwrap();
        assert_eq!(w.kind, Kind::PasserMissed, "{w:?}");
        assert_eq!(w.text, "misses a passed b-pawn: 38... b4 39. axb4 axb4");
        assert_eq!(w.unspoiled(), "it misses a passed pawn");
        // The engine's own move is never the story.
        assert_eq!(why(&black("Kc7"), 0).unwrap().kind, Kind::Evaluation);
    }

    #[test]
    fn a_passed_pawn_run_to_the_seventh_is_named_by_its_square() {
        // 49. Rb6?? lets the a-pawn run: 49...a2 and the rook is too late.
        let r = review(
            "[FEN \"8/5kpp/2R5/7P/1p2K3/p5P1/8/8 w - - 1 49\"]\n[SetUp \"1\"]\n\n49. Rb6",
            &[(Eval::Cp(500), "Ra6"), (Eval::Cp(-500), "a2 Ra6 b3")],
        );
        let w = why(&r, 0).unwrap();
        assert_eq!(w.kind, Kind::Passer, "{w:?}");
        assert_eq!(
            w.text,
            "lets the a-pawn run to a2, its seventh rank: 49... a2"
        );
    }

    #[test]
    fn a_pawn_the_engine_s_move_queens_is_named_not_the_rook_it_gives() {
        // 35. Kc3? lets the c-pawn wait; 35. c6 runs it through, the rook given on the way.
        let r = review(
            "[FEN \"5k2/8/8/2P2ppp/6n1/1K6/1P6/6R1 w - - 0 35\"]\n[SetUp \"1\"]\n\n35. Kc3",
            &[
                (Eval::Cp(900), "c6 Ke7 Rd1 Ne3 c7 Nxd1 c8=Q"),
                (Eval::Cp(100), "Ke7"),
            ],
        );
        let w = why(&r, 0).unwrap();
        assert_eq!(w.kind, Kind::Missed, "{w:?}");
        assert_eq!(
            w.text,
            "misses 35. c6, which queens the c-pawn: 35. c6 Ke7 36. Rd1 Ne3 37. c7 Nxd1 38. c8=Q"
        );
        // A queen taken at once is a decoy: what the line wins is the bishop that took it.
        let r = review(
            "[FEN \"3b4/1R6/3P2p1/5pkp/8/3B1K2/8/8 w - - 3 45\"]\n[SetUp \"1\"]\n\n45. Rh7",
            &[
                (Eval::Cp(900), "Rb8 Ba5 d7 Kf6 d8=Q+ Bxd8 Rxd8"),
                (Eval::Cp(300), "Kf6"),
            ],
        );
        let w = why(&r, 0).unwrap();
        assert!(
            w.text.starts_with("misses 45. Rb8, which wins the bishop"),
            "{w:?}"
        );
    }

    #[test]
    fn checks_that_draw_a_better_game_are_a_perpetual() {
        // 47. Kh3? (from g2) lets the knight and rook check for ever.
        let r = |after: i32, line: &str| {
            review(
                "[FEN \"8/8/5k2/7R/8/1R1n2P1/r5K1/8 w - - 6 47\"]\n[SetUp \"1\"]\n\n47. Kh3",
                &[(Eval::Cp(298), "Kf3 Ne5+ Ke3"), (Eval::Cp(after), line)],
            )
        };
        let checks = "Nf2+ Kh2 Nd3+ Kg1 Ra1+ Kh2 Ra2+";
        let w = why(&r(0, checks), 0).unwrap();
        assert_eq!(w.kind, Kind::Tactic, "{w:?}");
        assert_eq!(
            w.text,
            "allows a perpetual check: 47... Nf2+ 48. Kh2 Nd3+ 49. Kg1 Ra1+ 50. Kh2 Ra2+"
        );
        // Checks that leave Black better are no draw.
        let w = why(&r(-150, checks), 0).unwrap();
        assert!(!w.text.contains("perpetual"), "{w:?}");
        // Nor are checks where material changes hands: the rook given on g2 is that line's
        // story, whatever the score says.
        let takes = r(0, "Nf2+ Kh2 Nd3+ Kg1 Rg2+ Kxg2");
        assert!(!why(&takes, 0).unwrap().text.contains("perpetual"));
        // A move earlier, Black's 46...Ke6? let the checks go where 46...Ra2+ drew.
        let r = review(
            "[FEN \"8/8/5k2/7R/8/1R1n2P1/6K1/r7 b - - 5 46\"]\n[SetUp \"1\"]\n\n46... Ke6",
            &[
                (Eval::Cp(0), "Ra2+ Kh3 Nf2+ Kh2 Nd3+ Kg1 Ra1+"),
                (Eval::Cp(300), "Rh6+ Ke5"),
            ],
        );
        let w = why(&r, 0).unwrap();
        assert_eq!(w.kind, Kind::DrawMissed, "{w:?}");
        assert_eq!(
            w.text,
            "misses a perpetual check: 46... Ra2+ 47. Kh3 Nf2+ 48. Kh2 Nd3+ 49. Kg1 Ra1+"
        );
        assert_eq!(w.unspoiled(), "it misses a draw");
    }

    #[test]
    fn a_pawn_won_by_the_engine_s_move_is_named_when_the_evaluation_sees_it() {
        // 3. Nc3 leaves the pawn on e5 where 3. Nxe5 took it: a pawn, and the evaluation says
        // so; a tenth of that drop is not the pawn's story.
        let moves = "1. e4 e5 2. Nf3 Nf6 3. Nc3";
        let line = |drop: i32| {
            review(
                moves,
                &[
                    (Eval::Cp(30), "e4"),
                    (Eval::Cp(30), "e5"),
                    (Eval::Cp(30), "Nf3"),
                    (Eval::Cp(30), "Nf6"),
                    (Eval::Cp(130), "Nxe5 d6 Nf3"),
                    (Eval::Cp(130 - drop), "Bc5"),
                ],
            )
        };
        let w = why(&line(150), 4).unwrap();
        assert_eq!(w.kind, Kind::Missed, "{w:?}");
        assert_eq!(w.text, "misses 3. Nxe5, which wins a pawn: 3. Nxe5");
        assert_eq!(why(&line(15), 4).unwrap().kind, Kind::Evaluation);
    }

    #[test]
    fn a_pinned_piece_taken_and_taken_back_is_no_piece_won() {
        // 5. h3?? Qxb2 6. Rc1 Bb4 pins the knight on c3; 7. Bd2 Bxc3 8. Rxc3 trades it for
        // the bishop, and the pawn on b2 is what is lost.
        let r = review(
            "[SetUp \"1\"]\n[FEN \"r1b1kb1r/pp1n1ppp/1q2pn2/8/Q1pP4/2N1BN2/PP3PPP/R3KB1R w KQkq - 2 5\"]\n\n5. h3",
            &[
                (Eval::Cp(-50), "O-O-O Qb4 Qxb4 Bxb4 Bxc4 Nb6 Bd3 O-O"),
                (Eval::Cp(-247), "Qxb2 Rc1 Bb4 Bd2 Bxc3 Rxc3"),
            ],
        );
        let w = why(&r, 0).unwrap();
        assert_eq!(w.kind, Kind::Tactic, "{w:?}");
        assert_eq!(
            w.text,
            "walks into a pin of the knight on c3, losing the knight and a pawn for a bishop: \
             5... Qxb2 6. Rc1 Bb4 7. Bd2 Bxc3 8. Rxc3"
        );
    }

    #[test]
    fn a_piece_won_past_the_first_plies_is_named_when_it_stays_won() {
        // 21... Qe6 22. Qd1 Qc6 23. Ne1 Bb4 and the knight pinned on e1 falls at the ninth
        // ply, past the first look's eight; 21... Qb1+ trades the queens instead.
        let won = "Qe6 Qd1 Qc6 Ne1 Bb4 Qd5 Qxd5 Rxd5 Bxe1";
        let r = |line: &str| {
            review(
                "[SetUp \"1\"]\n[FEN \"4r1k1/p2Rbppp/8/8/7n/4B3/qPN1QP1P/6KR b - - 1 21\"]\n\n21... Qb1+",
                &[
                    (Eval::Cp(200), line),
                    (Eval::Cp(420), "Qd1 Qxd1+ Rxd1 Rc8 Nd4 Bf6 Kf1"),
                ],
            )
        };
        let w = why(&r(&format!("{won} Bd4 Bb4 Be3 Nf3+ Kg2 Nh4+ Kg1")), 0).unwrap();
        assert_eq!(w.kind, Kind::Missed, "{w:?}");
        assert_eq!(
            w.text,
            "misses 21... Qe6, which wins the knight: 21... Qe6 22. Qd1 Qc6 23. Ne1 Bb4 24. Qd5 \
             Qxd5 25. Rxd5 Bxe1"
        );
        // A line that stops where the knight is taken may have a recapture still to come.
        assert_eq!(why(&r(won), 0).unwrap().kind, Kind::Evaluation);
    }

    #[test]
    fn a_trade_into_a_pawn_ending_a_pawn_up_missed_or_allowed_a_pawn_down() {
        // 28. Rxd5 exd5 29. Ba3+ and 30. Bxf8 leave White a pawn up with no pieces; 28. Ra6
        // keeps them on.
        let setup = "[SetUp \"1\"]\n[FEN";
        let white = |before: i32| {
            review(
                &format!(
                    "{setup} \"5r2/4k2p/3Rp1p1/1p1b4/8/1P3P1P/PB4PK/8 w - - 3 28\"]\n\n28. Ra6"
                ),
                &[
                    (Eval::Cp(before), "Rxd5 exd5 Ba3+ Ke8 Bxf8 Kxf8"),
                    (Eval::Cp(116), "Ra8 Rxa8 Bxa8"),
                ],
            )
        };
        let w = why(&white(217), 0).unwrap();
        assert_eq!(w.kind, Kind::EndingMissed, "{w:?}");
        assert_eq!(
            w.text,
            "misses 28. Rxd5, which trades into a pawn ending a pawn up: 28. Rxd5 exd5 29. \
             Ba3+ Ke8 30. Bxf8 Kxf8"
        );
        assert_eq!(w.unspoiled(), "it misses a trade into a pawn ending");
        // Not when White was not ahead: the ending is then no story.
        assert_ne!(why(&white(120), 0).unwrap().kind, Kind::EndingMissed);
        // 27...Ke7 lets White trade into it, and the evaluation agrees it is bad for Black.
        let black = |after: i32| {
            review(
                &format!(
                    "{setup} \"4kr2/7p/3Rp1p1/1p1b4/8/1P3P1P/PB4PK/8 b - - 2 27\"]\n\n27... Ke7"
                ),
                &[
                    (Eval::Cp(100), "Rf7 Ra6"),
                    (Eval::Cp(after), "Rxd5 exd5 Ba3+ Ke8 Bxf8 Kxf8"),
                ],
            )
        };
        let w = why(&black(217), 0).unwrap();
        assert_eq!(w.kind, Kind::Ending, "{w:?}");
        assert_eq!(
            w.text,
            "trades into a pawn ending a pawn down: 28. Rxd5 exd5 29. Ba3+ Ke8 30. Bxf8 Kxf8"
        );
        assert_ne!(why(&black(120), 0).unwrap().kind, Kind::Ending);
    }

    #[test]
    fn an_even_trade_into_a_lost_pawn_ending_or_the_queens_off_while_ahead() {
        // 49. Bxg5?? fxg5+: bishop for knight, and the pawn ending is lost.
        let r = review(
            "[FEN \"8/8/5p2/1p2pknp/1P5K/4BP1P/8/8 w - - 18 49\"]\n[SetUp \"1\"]\n\n49. Bxg5",
            &[
                (Eval::Cp(-260), "Kg3 e4"),
                (Eval::Cp(-1867), "fxg5+ Kg3 e4"),
            ],
        );
        let w = why(&r, 0).unwrap();
        assert_eq!(w.kind, Kind::Ending, "{w:?}");
        assert_eq!(w.text, "trades into a lost pawn ending: 49... fxg5+");
        // 27...Qd3? 28. Qxd3 exd3: Black's attack is gone with the queens.
        let queens = |before: i32| {
            review(
                "[FEN \"3q2k1/1p3pp1/7p/1pr5/4p3/P1P1P1B1/1P2QPPP/6K1 b - - 1 27\"]\n[SetUp \"1\"]\n\n27... Qd3",
                &[
                    (Eval::Cp(before), "Rd5 h3"),
                    (Eval::Cp(-100), "Qxd3 exd3 Kf1"),
                ],
            )
        };
        let w = why(&queens(-233), 0).unwrap();
        assert_eq!(w.kind, Kind::Ending, "{w:?}");
        assert_eq!(
            w.text,
            "lets the queens be traded while ahead, from -2.33 to -1.00: 28. Qxd3 exd3"
        );
        // Not ahead before: the trade is not the story.
        assert_eq!(why(&queens(-120), 0).unwrap().kind, Kind::Evaluation);
    }
}
