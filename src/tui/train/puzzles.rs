//! Solving a puzzle on the training screen: the position after the opponent's move, seen from
//! the solver's side. A right move is answered at once by the opponent's move of the solution;
//! a wrong one is answered by the engine's refutation (a short search), then the solution is
//! shown. Only the first try of a puzzle counts for the player's rating; a hint counts as not
//! solving it. The next puzzle is the one nearest the player's rating of those the filter (a
//! motif, a rating range) lets through.

use shakmaty::san::SanPlus;
use shakmaty::{Move, Position};

use super::{OnBoard, Train};
use crate::game::Game;
use crate::train::motifs::Motif;
use crate::train::progress::Change;
use crate::train::puzzle::Puzzle;
use crate::tui::job::{EngineEvent, Request, next_generation};
use crate::tui::screen::{Effect, Tone};

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
        fx.push(Effect::Search(Box::new(Request::reply(
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

impl Train {
    /// The puzzles the filter lets through.
    pub fn offered(&self) -> Vec<&Puzzle> {
        self.puzzles
            .iter()
            .filter(|p| self.filter.0.is_none_or(|m| p.motifs.contains(&m)))
            .filter(|p| {
                self.filter
                    .1
                    .is_none_or(|(lo, hi)| (lo..=hi).contains(&p.rating))
            })
            .collect()
    }

    /// The next puzzle: the one nearest the player's rating among those the filter lets
    /// through and not tried yet (or tried, once every one has been).
    pub fn start_puzzle(&mut self) {
        self.start_puzzle_after("");
    }

    /// [`Train::start_puzzle`], its message after `said` (a sentence, or nothing).
    fn start_puzzle_after(&mut self, said: &str) {
        let rating = self.progress.puzzle_rating.rating.round() as i32;
        let offered = self.offered();
        let fresh: Vec<&&Puzzle> = offered
            .iter()
            .filter(|p| !self.progress.puzzles.contains_key(&p.id))
            .collect();
        let pool: Vec<&Puzzle> = if fresh.is_empty() {
            offered.clone()
        } else {
            fresh.into_iter().copied().collect()
        };
        let current = self.solve().map(|s| s.puzzle.id.clone());
        let Some(p) = pool
            .iter()
            .filter(|p| Some(&p.id) != current.as_ref() || pool.len() == 1)
            .min_by_key(|p| ((p.rating - rating).abs(), p.id.clone()))
            .map(|p| (*p).clone())
        else {
            return self.say(
                "No puzzle fits the filter; filter alone shows them all again.",
                Tone::Error,
            );
        };
        let solve = Solve::new(p);
        let said = format!(
            "{said}Puzzle {} (rated {}): {}.",
            solve.puzzle.id,
            solve.puzzle.rating,
            solve.task()
        );
        self.board = OnBoard::Puzzle(solve);
        self.hint = None;
        self.input.clear();
        self.say(said, Tone::Info);
    }

    /// Opens the puzzle with `id` (a message says when there is none).
    pub fn open_puzzle(&mut self, id: &str) {
        match self.puzzles.iter().find(|p| p.id == id) {
            Some(p) => {
                let solve = Solve::new(p.clone());
                let said = format!("Puzzle {id} (rated {}): {}.", p.rating, solve.task());
                self.board = OnBoard::Puzzle(solve);
                self.say(said, Tone::Info);
            }
            None => self.say(
                format!("There is no puzzle {id:?} in the set."),
                Tone::Error,
            ),
        }
    }

    /// `filter fork`, `filter mate in 2`, `filter 1200-1600`, both, or `filter` alone for
    /// every puzzle. A theme is read in words or by lichess's name (`mateIn2`).
    pub(super) fn set_filter(&mut self, arg: Option<&str>) {
        let mut range = None;
        let mut words = Vec::new();
        for word in arg.unwrap_or("").split_whitespace() {
            if let Some((lo, hi)) = word.split_once('-')
                && let (Ok(lo), Ok(hi)) = (lo.parse::<i32>(), hi.parse::<i32>())
                && lo <= hi
            {
                range = Some((lo, hi));
            } else {
                words.push(word);
            }
        }
        let theme = words.join(" ");
        let motif = match Motif::parse(&theme) {
            _ if theme.is_empty() => None,
            Some(m) => Some(m),
            None => {
                let names: Vec<&str> = Motif::ALL.iter().map(|m| m.words()).collect();
                return self.say(
                    format!(
                        "{theme:?} is neither a theme nor a rating range like 1200-1600. The \
                         themes: {}.",
                        names.join(", ")
                    ),
                    Tone::Error,
                );
            }
        };
        self.filter = (motif, range);
        let offered = self.offered();
        let n = offered.len();
        // The puzzle on the board goes when the filter would not have chosen it.
        let stale = self
            .solve()
            .is_some_and(|s| !offered.iter().any(|p| p.id == s.puzzle.id));
        if n > 0 && stale {
            return self.start_puzzle_after(&format!("{n} puzzles let through. "));
        }
        self.say(format!("{n} puzzles let through."), Tone::Info);
    }

    pub(super) fn puzzle_hint(&mut self, fx: &mut Vec<Effect>) {
        let OnBoard::Puzzle(s) = &mut self.board else {
            return;
        };
        let (Stage::Solving, Some(best)) = (&s.stage, s.expected()) else {
            return;
        };
        let pos = s.game.position().clone();
        s.helped = true;
        self.show_hint(
            best,
            &pos,
            "The solution plays",
            " (a hint counts as not solved)",
        );
        self.count_puzzle(false, fx);
    }

    pub(super) fn show_solution(&mut self, fx: &mut Vec<Effect>) {
        let OnBoard::Puzzle(s) = &mut self.board else {
            return;
        };
        s.helped = true;
        let line = s.solution();
        self.say(format!("The solution: {line}."), Tone::Info);
        self.count_puzzle(false, fx);
    }

    /// Counts the puzzle on the board once, on its first try (a hint or the solution shown
    /// count as not solved; leaving a puzzle untouched counts nothing).
    pub(super) fn count_puzzle(&mut self, solved: bool, fx: &mut Vec<Effect>) {
        let OnBoard::Puzzle(s) = &mut self.board else {
            return;
        };
        let touched = s.helped || s.game.moves().len() > 1 || solved;
        if s.counted || !touched {
            return;
        }
        s.counted = true;
        let change = Change::puzzle(&s.puzzle, solved && !s.helped);
        self.keep(change, fx);
    }

    pub(super) fn try_puzzle_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let OnBoard::Puzzle(s) = &mut self.board else {
            return;
        };
        if s.stage != Stage::Solving {
            return self.say(
                "Ctrl-R tries it again, Ctrl-N is the next puzzle.",
                Tone::Info,
            );
        }
        let m = match s.game.parse_move(text) {
            Ok(m) => m,
            Err(e) => return self.say(e.to_string(), Tone::Error),
        };
        let san = SanPlus::from_move(s.game.position().clone(), m).to_string();
        self.hint = None;
        match s.play(m, fx) {
            Said::Right(reply) => {
                self.say(format!("{san}: right. Reply: {reply}. Go on."), Tone::Info)
            }
            Said::Solved => {
                let helped = s.helped;
                self.count_puzzle(true, fx);
                let rating = self.progress.puzzle_rating.shown();
                let said = if helped {
                    format!("{san}: solved, with help. Ctrl-N: the next puzzle.")
                } else {
                    format!("{san}: solved! Your puzzle rating: {rating}. Ctrl-N: the next.")
                };
                fx.push(Effect::Bell);
                self.say(said, Tone::Info);
            }
            Said::Wrong => {
                self.count_puzzle(false, fx);
                self.say(format!("{san} is not it…"), Tone::Error);
            }
        }
    }

    /// Takes a search report: the engine's answer to a wrong move, then the solution.
    pub(super) fn puzzle_answered(&mut self, ev: &EngineEvent) {
        let OnBoard::Puzzle(s) = &mut self.board else {
            return;
        };
        let waiting = matches!(s.stage, Stage::Failed(Some(_)));
        let reply = s.on_engine(ev);
        if waiting && s.stage == Stage::Failed(None) {
            let best = s.expected();
            let line = s.solution();
            let said = match reply {
                Some(r) => format!(
                    "Answered by {r}. The solution: {line}. Ctrl-R: again, Ctrl-N: the next."
                ),
                None => format!("The solution: {line}. Ctrl-R: again, Ctrl-N: the next."),
            };
            self.hint = best.and_then(|b| b.from().map(|sq| (sq, None)));
            self.say(said, Tone::Error);
        }
    }
}
