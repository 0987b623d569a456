//! Practising the player's own mistakes on the training screen: the position before each one,
//! "you played Qxd4?? here, find better". The engine's move is right at once, the move played
//! wrong at once; any other move is evaluated as the review evaluates a position (the
//! tablebases' verdict, the fifty-move rule counted, or a one-second full-strength search) and
//! is right when the review's rules would not flag it against the position's evaluation. Each answer is graded
//! for the schedule ([`crate::train::schedule`]). A round is the mistakes due, the longest
//! overdue first, or one game's from its review.

use shakmaty::Move;

use super::{OnBoard, Train};
use crate::game::Game;
use crate::review::judge::Eval;
use crate::train::mistake::Mistake;
use crate::train::progress::Change;
use crate::train::schedule::{GOOD, HELPED, PERFECT, WRONG};
use crate::tui::job::{EngineEvent, Request, next_generation};
use crate::tui::screen::{Effect, Tone};

/// How long another move than the engine's is searched before it is judged.
pub const CHECK_MS: u64 = 1000;

/// Where the answer to the mistake on the board stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Waiting for the player's move.
    Waiting,
    /// The move tried is being searched.
    Checking {
        /// The search's generation.
        generation: u64,
        /// The move tried.
        tried: Move,
    },
    /// Found: the words say how.
    Solved(String),
    /// Not found: the words say why, and the engine's move.
    Missed(String),
}

/// A round of mistakes to practise.
#[derive(Clone, Debug)]
pub struct Practice {
    /// The mistake on the board.
    pub current: Mistake,
    /// The ones still to come, in order.
    pub queue: Vec<Mistake>,
    /// The position, with the move tried played on it once answered.
    pub game: Game,
    /// Where the answer stands.
    pub answer: Answer,
    /// A hint was shown for this one.
    pub hinted: bool,
    /// Answered so far this round, and how many of them right.
    pub score: (usize, usize),
    /// The mistake on the board was graded (a retry is not graded again).
    graded: bool,
}

impl Practice {
    /// A round over `mistakes` (the first on the board), or `None` when there are none.
    pub fn new(mut mistakes: Vec<Mistake>) -> Option<Practice> {
        if mistakes.is_empty() {
            return None;
        }
        let current = mistakes.remove(0);
        Some(Practice {
            game: Game::from_fen(&current.fen).unwrap_or_default(),
            current,
            queue: mistakes,
            answer: Answer::Waiting,
            hinted: false,
            score: (0, 0),
            graded: false,
        })
    }

    /// What the panel asks.
    pub fn task(&self) -> String {
        let why = match self.current.why.as_str() {
            "" => String::new(),
            why => format!(": {why}"),
        };
        format!(
            "You played {} here ({}){why}. Find better.",
            self.current.played_san(),
            self.current.judgement.word().to_lowercase()
        )
    }

    /// Whether an answer was given (right or wrong) for the mistake on the board.
    pub fn answered(&self) -> bool {
        matches!(self.answer, Answer::Solved(_) | Answer::Missed(_))
    }

    /// Tries `m`. The engine's move and the move played are answered at once, any other is
    /// searched first ([`Practice::on_engine`] answers). Returns the grade to record, the
    /// first time the mistake on the board is answered.
    pub fn try_move(&mut self, m: Move, fx: &mut Vec<Effect>) -> Option<u8> {
        let pos = self.game.position().clone();
        let best = self.current.best_san();
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
        if m == self.current.best {
            let _ = self.game.play(m, None);
            self.answer = Answer::Solved(format!("Right: {san} is the engine's move."));
            return self.grade(true);
        }
        if self.current.was_played(m) {
            // The board stays on the position, with the better move marked.
            self.answer =
                Answer::Missed(format!("That is the move you played. {best} was better."));
            return self.grade(false);
        }
        let _ = self.game.play(m, None);
        let generation = next_generation();
        self.answer = Answer::Checking {
            generation,
            tried: m,
        };
        fx.push(Effect::Search(Box::new(Request::judge(
            generation, &self.game, CHECK_MS,
        ))));
        None
    }

    /// Takes a search report; returns the grade to record once the move tried is judged.
    pub fn on_engine(&mut self, ev: &EngineEvent) -> Option<u8> {
        let Answer::Checking { generation, tried } = self.answer.clone() else {
            return None;
        };
        let EngineEvent::Judged {
            generation: g,
            eval,
            own,
        } = ev
        else {
            return None;
        };
        if *g != generation {
            return None;
        }
        let before = self.game.position_at(0).clone();
        let san = shakmaty::san::SanPlus::from_move(before, tried).to_string();
        let best = self.current.best_san();
        let after = match eval {
            Ok(e) => e.eval,
            Err(message) => {
                // No verdict without a search: the move is taken back, to be tried again.
                self.game.undo();
                self.answer = Answer::Missed(format!("The move could not be checked ({message})."));
                return None;
            }
        };
        let shown = after.display();
        if self.current.solved_by(tried, after, *own) {
            self.answer = Answer::Solved(format!(
                "Good: {san} ({shown}) keeps the position as well; the engine's move was {best}."
            ));
            return self.grade(true).map(|g| g.min(GOOD));
        }
        self.game.undo();
        let mover = self.current.mover();
        // A won position the move draws: the tables say how the win went.
        let won = self.current.before.winner() == Some(mover);
        let why = match after {
            Eval::TablebaseDraw(Some(c)) if won && c == mover => {
                format!("lets the win slip past the fifty-move rule ({shown})")
            }
            Eval::TablebaseDraw(_) if won => format!("throws the win away ({shown})"),
            _ => format!("({shown}) loses too much"),
        };
        self.answer = Answer::Missed(format!("{san} {why}: {best} was the move."));
        self.grade(false)
    }

    /// Back to the position of the mistake on the board, to try again (not graded again).
    pub fn retry(&mut self) {
        while self.game.undo().is_some() {}
        self.answer = Answer::Waiting;
    }

    /// The next mistake of the round; false when the round is over.
    pub fn advance(&mut self) -> bool {
        if self.queue.is_empty() {
            return false;
        }
        self.current = self.queue.remove(0);
        self.game = Game::from_fen(&self.current.fen).unwrap_or_default();
        self.answer = Answer::Waiting;
        self.hinted = false;
        self.graded = false;
        true
    }

    /// Counts the first answer to the mistake on the board and returns its grade for the
    /// schedule; a later answer (after a retry) is not graded.
    fn grade(&mut self, right: bool) -> Option<u8> {
        if std::mem::replace(&mut self.graded, true) {
            return None;
        }
        self.score.0 += 1;
        if right {
            self.score.1 += 1;
        }
        Some(match (right, self.hinted) {
            (false, _) => WRONG,
            (true, true) => HELPED,
            (true, false) => PERFECT,
        })
    }
}

impl Train {
    /// How many mistakes are due today and how many are learned, for the list (drawn every
    /// frame: one pass, nothing copied).
    pub fn mistake_counts(&self) -> (usize, usize) {
        let (mut due, mut learned) = (0, 0);
        for m in &self.mistakes {
            let card = self.progress.mistakes.get(&m.id());
            due += usize::from(card.is_none_or(|c| c.is_due(self.today)));
            learned += usize::from(card.is_some_and(|c| c.is_learned()));
        }
        (due, learned)
    }

    /// The mistakes due today (or never practised), the longest overdue first.
    pub fn due(&self) -> Vec<Mistake> {
        let mut due: Vec<(i64, &Mistake)> = self
            .mistakes
            .iter()
            .filter_map(|m| {
                let card = self.progress.mistakes.get(&m.id());
                let day = card.map_or(self.today, |c| c.due);
                (day <= self.today).then_some((day, m))
            })
            .collect();
        due.sort_by_key(|(day, _)| *day);
        due.into_iter().map(|(_, m)| m.clone()).collect()
    }

    /// Opens a round of `mistakes` at once (one game's, from its review), whatever is due.
    pub fn practise(&mut self, mistakes: Vec<Mistake>) {
        match Practice::new(mistakes) {
            Some(p) => self.begin_practice(p),
            None => self.say(
                "No mistakes or blunders of yours in this game to practise.",
                Tone::Info,
            ),
        }
    }

    /// A round of the mistakes due, or a word on why there is none.
    pub fn start_practice(&mut self) {
        if let Some(p) = Practice::new(self.due()) {
            return self.begin_practice(p);
        }
        let said = if self.mistakes.is_empty() {
            "No mistakes to practise yet: review a game you played (r when it ends, or \
             knightfall review), and its mistakes and blunders come here."
                .to_string()
        } else {
            let next = self
                .mistakes
                .iter()
                .filter_map(|m| self.progress.mistakes.get(&m.id()).map(|c| c.due))
                .min()
                .map_or_else(String::new, |d| {
                    format!("; the next is due on {}", crate::game::date_of_day(d))
                });
            format!(
                "None of your {} mistakes is due today{next}.",
                self.mistakes.len()
            )
        };
        self.say(said, Tone::Info);
    }

    fn begin_practice(&mut self, p: Practice) {
        self.say(
            format!("{} From {}", p.task(), p.current.source()),
            Tone::Info,
        );
        self.board = OnBoard::Mistakes(p);
        self.hint = None;
        self.input.clear();
    }

    pub(super) fn next_practice(&mut self) {
        let OnBoard::Mistakes(p) = &mut self.board else {
            return;
        };
        if p.advance() {
            let said = format!("{} From {}", p.task(), p.current.source());
            self.hint = None;
            self.say(said, Tone::Info);
        } else {
            let (answered, right) = p.score;
            self.board = OnBoard::List;
            self.say(
                format!("Round over: {right} of {answered} found. q leaves, Enter starts the next round."),
                Tone::Info,
            );
        }
    }

    pub(super) fn practice_hint(&mut self) {
        let OnBoard::Mistakes(p) = &mut self.board else {
            return;
        };
        if p.answer != Answer::Waiting {
            return;
        }
        let best = p.current.best;
        let pos = p.game.position().clone();
        p.hinted = true;
        self.show_hint(best, &pos, "The engine plays", "");
    }

    /// Records a graded answer in the schedule and asks for the progress to be written.
    fn record_answer(&mut self, grade: Option<u8>, fx: &mut Vec<Effect>) {
        let (Some(grade), Some(p)) = (grade, self.practice()) else {
            return;
        };
        let change = Change::Answer {
            id: p.current.id(),
            grade,
            today: self.today,
        };
        self.keep(change, fx);
    }

    /// Says how the answer went, once it is in.
    fn say_answer(&mut self) {
        let Some(p) = self.practice() else {
            return;
        };
        let (text, tone) = match &p.answer {
            Answer::Solved(t) => (format!("{t} Ctrl-N: the next."), Tone::Info),
            Answer::Missed(t) => (
                format!("{t} Ctrl-R: try again, Ctrl-N: the next."),
                Tone::Error,
            ),
            Answer::Checking { .. } => ("Checking your move…".to_string(), Tone::Info),
            Answer::Waiting => return,
        };
        if let Answer::Missed(_) = p.answer {
            let best = p.current.best;
            self.hint = best.from().map(|sq| (sq, Some(best)));
        } else {
            self.hint = None;
        }
        self.say(text, tone);
    }
    /// Takes a search report: the move tried is judged once its search is done.
    pub(super) fn practice_checked(&mut self, ev: &EngineEvent, fx: &mut Vec<Effect>) {
        let OnBoard::Mistakes(p) = &mut self.board else {
            return;
        };
        let was_checking = matches!(p.answer, Answer::Checking { .. });
        let grade = p.on_engine(ev);
        if was_checking && !matches!(p.answer, Answer::Checking { .. }) {
            self.record_answer(grade, fx);
            self.say_answer();
        }
    }

    pub(super) fn try_practice_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let OnBoard::Mistakes(p) = &mut self.board else {
            return;
        };
        if p.answer != Answer::Waiting {
            return self.say(
                "Ctrl-R tries this one again, Ctrl-N goes to the next.",
                Tone::Info,
            );
        }
        let m = match p.game.parse_move(text) {
            Ok(m) => m,
            Err(e) => return self.say(e.to_string(), Tone::Error),
        };
        let grade = p.try_move(m, fx);
        self.record_answer(grade, fx);
        self.say_answer();
    }
}
