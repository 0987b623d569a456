//! Solving a puzzle on the training screen: the position after the opponent's move, seen from
//! the solver's side. A right move is answered at once by the opponent's move of the solution;
//! a wrong one is answered by the engine's refutation (a short search), then the solution is
//! shown. Only the first try of a puzzle counts for the player's rating; a hint counts as not
//! solving it. The next puzzle is the one nearest the player's rating of those the filter (a
//! theme, a rating range) lets through, from the built-in set and the puzzles imported from
//! lichess's database.

use shakmaty::san::SanPlus;
use shakmaty::{Move, Position};

use std::collections::HashSet;

use super::{OnBoard, Train};
use crate::game::Game;
use crate::motifs::{self, Motif};
use crate::store::library::Library;
use crate::train::progress::Change;
use crate::train::puzzle::{Filter, Puzzle};
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

/// The puzzles imported into the library (lichess's database), drawn from beside the built-in
/// set. The library is read while the screen runs: the next puzzle is a step or two into an
/// index, a few milliseconds at most.
pub struct Imported {
    library: Library,
    /// How many there are.
    pub total: i64,
    /// How many the filter lets through.
    pub let_through: i64,
    /// The rows of the puzzles the record says were tried.
    tried: HashSet<i64>,
    /// The ids of the record already looked up in the library.
    looked_up: HashSet<String>,
}

impl Imported {
    /// The imported puzzles of `library`: `None` when it holds none, `Err` (saying why) when
    /// they cannot be drawn from.
    pub fn open(library: Library) -> anyhow::Result<Option<Imported>> {
        let total = library.puzzle_count()?;
        if total == 0 {
            return Ok(None);
        }
        if !library.puzzles_indexed()? {
            anyhow::bail!(
                "The imported puzzles are being indexed (an import is under way, or one was \
                 stopped: `knightfall puzzles import` again finishes it); the built-in ones \
                 meanwhile."
            );
        }
        Ok(Some(Imported {
            library,
            total,
            let_through: total,
            tried: HashSet::new(),
            looked_up: HashSet::new(),
        }))
    }

    /// Looks up the puzzles of `progress` tried since the last time.
    fn sync(&mut self, progress: &crate::train::progress::Progress) -> anyhow::Result<()> {
        // The record only grows: holding as many as were looked up, it holds no new one.
        if progress.puzzles.len() == self.looked_up.len() {
            return Ok(());
        }
        for id in progress.puzzles.keys() {
            if self.looked_up.contains(id) {
                continue;
            }
            if let Some(row) = self.library.puzzle_row(id)? {
                self.tried.insert(row);
            }
            self.looked_up.insert(id.clone());
        }
        Ok(())
    }

    /// The imported puzzle `filter` lets through nearest `rating`: one not tried yet when
    /// `fresh`, never the one with id `current`.
    fn nearest(
        &self,
        filter: &Filter,
        rating: i32,
        fresh: bool,
        current: Option<&str>,
    ) -> anyhow::Result<Option<Puzzle>> {
        let current = match current {
            Some(id) => self.library.puzzle_row(id)?,
            None => None,
        };
        let found = self.library.nearest_puzzle(filter, rating, |row| {
            Some(row) != current && !(fresh && self.tried.contains(&row))
        })?;
        Ok(found.map(|s| s.puzzle))
    }
}

impl Train {
    /// Draws from the imported puzzles of `library` too (or says why it cannot).
    pub fn attach(&mut self, library: Library) {
        // The record's puzzles are looked up now, not on the first draw, which stays quick.
        let opened = Imported::open(library).and_then(|imported| {
            imported
                .map(|mut i| i.sync(&self.progress).map(|()| i))
                .transpose()
        });
        match opened {
            Ok(imported) => self.imported = imported,
            Err(e) => self.say(format!("{e:#}"), Tone::Error),
        }
    }

    /// The built-in puzzles the filter lets through.
    pub fn offered(&self) -> Vec<&Puzzle> {
        self.puzzles
            .iter()
            .filter(|p| self.filter.fits(p))
            .collect()
    }

    /// How many puzzles the filter lets through, built-in and imported.
    pub fn let_through(&self) -> i64 {
        self.offered().len() as i64 + self.imported.as_ref().map_or(0, |i| i.let_through)
    }

    /// The next puzzle: the one nearest the player's rating among those the filter lets
    /// through and not tried yet (or tried, once every one has been).
    pub fn start_puzzle(&mut self) {
        self.start_puzzle_after("");
    }

    /// The puzzle nearest `rating` the filter lets through, built-in or imported: one not tried
    /// yet when `fresh`, never the one with id `current`.
    fn nearest(
        &mut self,
        rating: i32,
        fresh: bool,
        current: Option<&str>,
    ) -> anyhow::Result<Option<Puzzle>> {
        let built_in = self
            .offered()
            .into_iter()
            .filter(|p| Some(p.id.as_str()) != current)
            .filter(|p| !(fresh && self.progress.puzzles.contains_key(&p.id)))
            .min_by_key(|p| ((p.rating - rating).abs(), p.id.clone()))
            .cloned();
        let imported = match &mut self.imported {
            Some(imported) => {
                imported.sync(&self.progress)?;
                imported.nearest(&self.filter, rating, fresh, current)?
            }
            None => None,
        };
        Ok([built_in, imported]
            .into_iter()
            .flatten()
            .min_by_key(|p| (p.rating - rating).abs()))
    }

    /// [`Train::start_puzzle`], its message after `said` (a sentence, or nothing).
    fn start_puzzle_after(&mut self, said: &str) {
        let rating = self.progress.puzzle_rating.rating.round() as i32;
        let current = self.solve().map(|s| s.puzzle.clone());
        let id = current.as_ref().map(|p| p.id.as_str());
        let found = self
            .nearest(rating, true, id)
            .and_then(|found| match found {
                Some(p) => Ok(Some(p)),
                None => self.nearest(rating, false, id),
            });
        let found = match found {
            // The one on the board again, when it is all the filter lets through.
            Ok(None) => current.filter(|p| self.filter.fits(p)),
            Ok(found) => found,
            Err(e) => {
                return self.say(
                    format!("The imported puzzles cannot be read: {e:#}"),
                    Tone::Error,
                );
            }
        };
        let Some(p) = found else {
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

    /// Opens the puzzle with `id`, built-in or imported (a message says when there is none).
    pub fn open_puzzle(&mut self, id: &str) {
        let found = match self.puzzles.iter().find(|p| p.id == id) {
            Some(p) => Ok(Some(p.clone())),
            None => match &self.imported {
                Some(imported) => imported
                    .library
                    .puzzle_by_id(id)
                    .map(|s| s.map(|s| s.puzzle)),
                None => Ok(None),
            },
        };
        match found {
            Ok(Some(p)) => {
                let solve = Solve::new(p);
                let said = format!(
                    "Puzzle {id} (rated {}): {}.",
                    solve.puzzle.rating,
                    solve.task()
                );
                self.board = OnBoard::Puzzle(solve);
                self.hint = None;
                self.say(said, Tone::Info);
            }
            Ok(None) => self.say(
                format!("There is no puzzle {id:?} in the set."),
                Tone::Error,
            ),
            Err(e) => self.say(
                format!("The imported puzzles cannot be read: {e:#}"),
                Tone::Error,
            ),
        }
    }

    /// lichess's name of the theme `wanted` (words or a name): a motif, or a theme of the
    /// imported puzzles.
    fn theme_named(&self, wanted: &str) -> Option<String> {
        if let Some(m) = Motif::parse(wanted) {
            return Some(m.name().to_string());
        }
        self.imported_themes()
            .into_iter()
            .find(|name| motifs::same(name, wanted))
    }

    /// The themes of the imported puzzles (none when they cannot be read).
    fn imported_themes(&self) -> Vec<String> {
        self.imported
            .as_ref()
            .and_then(|i| i.library.puzzle_themes().ok())
            .unwrap_or_default()
    }

    /// `filter fork`, `filter mate in 2`, `filter 1200-1600`, both, or `filter` alone for
    /// every puzzle. A theme is read in words or by lichess's name (`mateIn2`); the imported
    /// puzzles' themes are lichess's (`filter kingside attack`).
    pub(super) fn set_filter(&mut self, arg: Option<&str>) {
        let mut range = None;
        let mut words = Vec::new();
        for word in arg.unwrap_or("").split_whitespace() {
            match crate::train::puzzle::parse_range(word) {
                Some(r) => range = Some(r),
                None => words.push(word),
            }
        }
        let wanted = words.join(" ");
        let theme = match self.theme_named(&wanted) {
            _ if wanted.is_empty() => None,
            Some(name) => Some(name),
            None => {
                let mut names: Vec<String> =
                    Motif::ALL.iter().map(|m| m.words().to_string()).collect();
                let mut more: Vec<String> = self
                    .imported_themes()
                    .iter()
                    .filter(|name| Motif::parse(name).is_none())
                    .map(|name| motifs::words(name))
                    .collect();
                more.sort();
                names.extend(more);
                return self.say(
                    format!(
                        "{wanted:?} is neither a theme nor a rating range like 1200-1600. The \
                         themes: {}.",
                        names.join(", ")
                    ),
                    Tone::Error,
                );
            }
        };
        self.filter = Filter { theme, range };
        if let Some(imported) = &mut self.imported {
            match imported.library.puzzles_let_through(&self.filter) {
                Ok(n) => imported.let_through = n,
                Err(e) => {
                    return self.say(
                        format!("The imported puzzles cannot be read: {e:#}"),
                        Tone::Error,
                    );
                }
            }
        }
        let n = self.let_through();
        // The puzzle on the board goes when the filter would not have chosen it.
        let stale = self.solve().is_some_and(|s| !self.filter.fits(&s.puzzle));
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
