//! Solving a puzzle on the training screen: the position after the opponent's move, seen from
//! the solver's side. A right move is answered at once by the opponent's move of the solution;
//! a wrong one is answered by the engine's refutation (a short search), then the solution is
//! shown. Only the first try of a puzzle counts for the player's rating; a hint counts as not
//! solving it.

use shakmaty::san::SanPlus;
use shakmaty::{Move, Position};

use super::job::{EngineEvent, Request, next_generation};
use super::screen::Effect;
use crate::game::Game;
use crate::train::puzzle::Puzzle;

/// How long the engine looks for the refutation of a wrong move.
const REFUTE_MS: u64 = 500;

/// Where the puzzle on the board stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The solver is to move.
    Solving,
    /// Every move found.
    Solved,
    /// A wrong move was played (the engine's answer to it is awaited while `Some`).
    Failed(Option<u64>),
}

/// A puzzle being solved.
#[derive(Clone, Debug)]
pub struct Solve {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The moves on the board: the opponent's move, then the solver's and the replies.
    pub game: Game,
    /// The index in the puzzle's moves of the solver's next move.
    pub next: usize,
    /// Where it stands.
    pub stage: Stage,
    /// A hint or the solution was shown.
    pub helped: bool,
    /// The first try's result was counted.
    pub counted: bool,
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// Right, and the opponent answered (SAN); the puzzle goes on.
    Right(String),
    /// Right, and the last move of the solution.
    Solved,
    /// Wrong: the engine is asked for its answer.
    Wrong,
}

impl Solve {
    /// The puzzle on its board, the opponent's move played.
    pub fn new(puzzle: Puzzle) -> Solve {
        let fen = shakmaty::fen::Fen::from_position(&puzzle.before, shakmaty::EnPassantMode::Legal);
        let mut game = Game::from_fen(&fen.to_string()).unwrap_or_default();
        let _ = game.play(puzzle.moves[0], None);
        Solve {
            puzzle,
            game,
            next: 1,
            stage: Stage::Solving,
            helped: false,
            counted: false,
        }
    }

    /// The solver's next move of the solution.
    pub fn expected(&self) -> Option<Move> {
        self.puzzle.moves.get(self.next).copied()
    }

    /// What the panel asks.
    pub fn task(&self) -> String {
        let side = crate::tui::app::color_name(self.puzzle.solver());
        format!("{side} to move: find the best move")
    }

    /// Plays the solver's move `m`.
    pub fn play(&mut self, m: Move, fx: &mut Vec<Effect>) -> Said {
        let Some(expected) = self.expected() else {
            return Said::Solved;
        };
        let mut after = self.game.position().clone();
        after.play_unchecked(m);
        let _ = self.game.play(m, None);
        // The solution's move, or any other mate where the solution mates.
        if m == expected || after.is_checkmate() {
            if after.is_checkmate() || self.next + 1 >= self.puzzle.moves.len() {
                self.next = self.puzzle.moves.len();
                self.stage = Stage::Solved;
                return Said::Solved;
            }
            let reply = self.puzzle.moves[self.next + 1];
            let san = SanPlus::from_move(self.game.position().clone(), reply).to_string();
            let _ = self.game.play(reply, None);
            self.next += 2;
            return Said::Right(san);
        }
        let generation = next_generation();
        self.stage = Stage::Failed(Some(generation));
        fx.push(Effect::Search(Box::new(Request::judge(
            generation, &self.game, REFUTE_MS,
        ))));
        Said::Wrong
    }

    /// Takes the engine's answer to a wrong move: plays it and returns it in SAN.
    pub fn on_engine(&mut self, ev: &EngineEvent) -> Option<String> {
        let Stage::Failed(Some(generation)) = self.stage else {
            return None;
        };
        match ev {
            EngineEvent::Done {
                generation: g,
                best,
                ..
            } if *g == generation => {
                self.stage = Stage::Failed(None);
                let reply = (*best)?;
                let san = SanPlus::from_move(self.game.position().clone(), reply).to_string();
                let _ = self.game.play(reply, None);
                Some(san)
            }
            EngineEvent::Failed { generation: g, .. } if *g == generation => {
                self.stage = Stage::Failed(None);
                None
            }
            _ => None,
        }
    }

    /// The solution from where the solver went wrong (or from the start), in SAN with move
    /// numbers.
    pub fn solution(&self) -> String {
        let start = self.puzzle.start();
        crate::pgn::numbered_san(&start, self.puzzle.moves[1..].iter().take(20))
    }

    /// Back to the start of the puzzle, to try again (not counted again).
    pub fn retry(&mut self) {
        let puzzle = self.puzzle.clone();
        let counted = self.counted;
        *self = Solve::new(puzzle);
        self.counted = counted;
    }
}
