//! Game review: every position of a game searched, each move judged by what it cost its
//! player's winning chances (see [`judge`]), each side's accuracy, the better move for each
//! flagged one, and the game written back annotated (`[%eval]` on every move but a mate, NAGs,
//! the better line as a variation). Results are cached on disk, so reopening a reviewed game is
//! instant.

pub mod judge;
pub mod phase;
pub mod theory;
pub mod analyse;
pub mod from_file;
pub mod passers;
pub mod positional;
pub mod why;
pub mod summary;

use shakmaty::san::SanPlus;
use shakmaty::{Color, Move, Position};

use self::analyse::PositionEval;
use self::judge::{Eval, Judgement, Reason};
use crate::game::Game;
use crate::game::pgn::Roster;
use crate::pgn::numbered_san;

/// The default search time per position on the first pass (a claimed blunder or a close call
/// gets three times as long again): a 40-move game takes about 20 s on two cores.
pub(crate) const DEFAULT_MOVETIME_MS: u64 = 250;

/// A game and what is known about its positions so far.
#[derive(Clone, Debug)]
pub struct Review {
    /// The game reviewed.
    pub game: Game,
    /// Per position (the start first, `moves + 1` of them): the search's result, once in.
    pub evals: Vec<Option<PositionEval>>,
    /// Milliseconds searched per position.
    pub movetime_ms: u64,
    /// How many of the first moves are opening theory (see [`theory::book_plies`]): never
    /// judged.
    pub book_plies: usize,
    /// The other UCI engine that searched the positions, by name; `None` for Knightfall's own
    /// search. Evaluations of two engines are never mixed in one review.
    pub engine: Option<String>,
}

/// What the review says about one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// How bad it was.
    pub judgement: Judgement,
    /// Why.
    pub reason: Reason,
    /// The engine's move instead, in SAN.
    pub better: Option<String>,
    /// The engine's line from the position before the move.
    pub line: Vec<Move>,
    /// Why it was bad, in a sentence with the line that shows it.
    pub why: Option<why::Why>,
}

impl MoveNote {
    /// Whether the reason names the better move already (`misses 28. Rxd5, which ...`): the
    /// review then does not say it again.
    pub fn names_the_better_move(&self) -> bool {
        self.why
            .as_ref()
            .is_some_and(why::Why::names_the_better_move)
    }

    /// What was wrong, in words: the concrete reason, or lichess's phrase for a mate, or the
    /// verdict's word (`Blunder: hangs the knight on f5: 15...Bxf5`, `Mistake`).
    pub fn what(&self) -> String {
        let word = self.judgement.word();
        match &self.why {
            Some(w) if w.named() => format!("{word}: {}", w.text),
            _ => self.reason.phrase().unwrap_or(word).to_string(),
        }
    }
}

impl Review {
    /// A review of `game` with nothing searched yet.
    pub fn new(game: Game, movetime_ms: u64) -> Review {
        let positions = game.moves().len() + 1;
        Review {
            book_plies: theory::book_plies(&game),
            game,
            evals: vec![None; positions],
            movetime_ms,
            engine: None,
        }
    }

    /// How many positions have their result.
    pub fn done(&self) -> usize {
        self.evals.iter().filter(|e| e.is_some()).count()
    }

    /// Whether every position has its result.
    pub fn is_complete(&self) -> bool {
        self.evals.iter().all(Option::is_some)
    }

    /// The evaluation of position `ply`, once known.
    pub fn eval(&self, ply: usize) -> Option<Eval> {
        self.evals.get(ply)?.as_ref().map(|e| e.eval)
    }

    /// Whether position `ply` is evaluated without a line: a file's evaluation, which names
    /// no move.
    pub fn lineless(&self, ply: usize) -> bool {
        self.evals
            .get(ply)
            .and_then(Option::as_ref)
            .is_some_and(|e| e.line.is_empty())
    }

    /// Who made move `i` (from 0).
    pub fn mover(&self, i: usize) -> Color {
        self.game.position_at(i).turn()
    }

    /// Whether move `i` (from 0) is opening theory.
    pub fn is_book(&self, i: usize) -> bool {
        i < self.book_plies
    }

    /// How bad move `i` (from 0) was, when it was a bad one and both positions around it are
    /// known (the cheap part of [`Review::note`], for counting and colouring). A book move is
    /// never a bad one.
    pub fn judgement(&self, i: usize) -> Option<(Judgement, Reason)> {
        if self.is_book(i) {
            return None;
        }
        let before = self.evals.get(i)?.as_ref()?;
        // The engine's own choice is never its mistake: a drop after it is the two short
        // searches disagreeing, not the move.
        if before.line.first() == self.game.moves().get(i) {
            return None;
        }
        judge::judge(
            self.judged(before.eval),
            self.judged(self.eval(i + 1)?),
            self.mover(i),
        )
    }

    /// Whether the evaluations are Knightfall's own search's: not another engine's, nor a
    /// file's (which no search made, so its review searched for no time).
    pub fn own_search(&self) -> bool {
        self.engine.is_none() && self.movetime_ms > 0
    }

    /// `eval`, one of this review's, as the rules judge it: Knightfall's own on Stockfish's
    /// scale (see [`judge::from_knightfall`]), another engine's or a file's as it is.
    fn judged(&self, eval: Eval) -> Eval {
        judge::judged(eval, self.own_search())
    }

    /// The verdict on move `i` (from 0) with the better move, when it was a bad one.
    pub fn note(&self, i: usize) -> Option<MoveNote> {
        let (judgement, reason) = self.judgement(i)?;
        let before = self.evals[i].as_ref()?;
        let played = self.game.moves()[i];
        let pos = self.game.position_at(i);
        let best = before.line.first().copied().filter(|m| *m != played);
        Some(MoveNote {
            judgement,
            reason,
            better: best.map(|m| SanPlus::from_move(pos.clone(), m).to_string()),
            line: if best.is_some() {
                before.line.clone()
            } else {
                Vec::new()
            },
            why: why::why(self, i),
        })
    }

    /// Inaccuracies, mistakes and blunders of each side (White first).
    pub fn counts(&self) -> [[usize; 3]; 2] {
        let mut counts = [[0; 3]; 2];
        for i in 0..self.game.moves().len() {
            if let Some((judgement, _)) = self.judgement(i) {
                counts[crate::game::side(self.mover(i))][judgement as usize] += 1;
            }
        }
        counts
    }

    /// Each side's accuracy (White first), once every position is known.
    pub fn accuracy(&self) -> [Option<f64>; 2] {
        if !self.is_complete() {
            return [None, None];
        }
        let evals: Vec<Eval> = self
            .evals
            .iter()
            .flatten()
            .map(|e| self.judged(e.eval))
            .collect();
        judge::game_accuracy(&evals, self.game.start_turn())
    }

    /// The plies of the flagged moves (from 0), in order.
    pub fn flagged(&self) -> Vec<usize> {
        (0..self.game.moves().len())
            .filter(|&i| self.judgement(i).is_some())
            .collect()
    }

    /// The game in PGN with the review: `[%eval]` on every move but a mate, a NAG and a comment naming
    /// the better move on each flagged one with the engine's line as a variation, and each
    /// side's accuracy in the headers.
    pub(crate) fn annotated_pgn(&self) -> String {
        if self.movetime_ms == 0 {
            // A review that came with its file (lichess's analysis): no search of ours.
            return self.annotated_pgn_by("the file's evaluations".to_string());
        }
        self.annotated_pgn_by(format!(
            "{}, {} ms per position, blunders and close calls {} ms more",
            self.searched_by(),
            self.movetime_ms,
            self.movetime_ms * analyse::DOUBT_FACTOR
        ))
    }

    /// The engine that searched the positions, as the annotated game and the screen name it.
    pub fn searched_by(&self) -> String {
        match &self.engine {
            Some(name) => name.clone(),
            None => format!("Knightfall {}", env!("CARGO_PKG_VERSION")),
        }
    }

    /// [`Review::annotated_pgn`] with `annotator` as its `Annotator` tag: who evaluated the
    /// positions (the evaluations of a file were not Knightfall's search).
    pub(crate) fn annotated_pgn_by(&self, annotator: String) -> String {
        let accuracy = self.accuracy();
        let mut tags: Vec<(&str, String)> = Vec::new();
        for (name, value) in ["WhiteAccuracy", "BlackAccuracy"].iter().zip(accuracy) {
            if let Some(a) = value {
                tags.push((name, format!("{a:.1}")));
            }
        }
        tags.push(("Annotator", annotator));
        // The game was read from a file: it is written back with the file's own tags and what
        // the review adds, nothing Knightfall would fill in for a game of its own.
        let pgn = self.game.to_pgn_with(Roster::AsRead, &tags, &|i| {
            let mut tokens = Vec::new();
            let note = self.note(i);
            if let Some(n) = &note {
                tokens.push(n.judgement.nag().to_string());
            }
            if let Some(eval) = self.eval(i + 1).and_then(Eval::pgn) {
                tokens.push(format!("{{ {eval} }}"));
            }
            if let Some(n) = note {
                let what = n.what();
                let text = match n.better.as_ref().filter(|_| !n.names_the_better_move()) {
                    Some(san) => format!("{{ {what}. {san} was best. }}"),
                    None => format!("{{ {what}. }}"),
                };
                tokens.push(text);
                if !n.line.is_empty() {
                    tokens.push(format!(
                        "({})",
                        numbered_san(self.game.position_at(i), n.line.iter().take(8))
                    ));
                }
            }
            tokens
        });
        // The summary leads the moves, as a comment of the game's own.
        match (summary::summary(self), pgn.split_once("\n\n")) {
            (Some(text), Some((tags, moves))) => {
                format!("{tags}\n\n{{ {} }}\n{moves}", text.replace('}', ")"))
            }
            _ => pgn,
        }
    }
}
