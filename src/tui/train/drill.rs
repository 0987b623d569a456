//! An endgame drill on the board: started from the list, a typed ending or a FEN, played move
//! by move against the tables, with hints, and counted once in the player's record.

use super::{FIRST_ENDING, OnBoard, Train};
use crate::rng::Rng;
use crate::train::progress::Change;
use crate::train::{Drill, Ending, Goal, State, Verdict};
use crate::tui::screen::{Effect, Tone};

/// A drill on the board, and what the record knows of it.
#[derive(Clone, Debug)]
pub struct Drilling {
    /// The drill.
    pub drill: Drill,
    /// It was counted in the progress already.
    counted: bool,
    /// A move was played in it (taken back or not).
    played: bool,
}

impl Train {
    /// Starts a drill of `ending` at once (from the command line); a message says why not.
    pub fn open_ending(&mut self, ending: Ending) {
        self.start_ending(ending);
    }

    /// Starts a drill from `fen` at once (from the command line); a message says why not.
    pub fn open_fen(&mut self, fen: &str) {
        self.start_fen(fen);
    }

    /// Starts a drill of `ending` at the chosen difficulty, and chooses it on the list; a
    /// message says why not, and the list stays as it was.
    pub(super) fn start_ending(&mut self, ending: Ending) {
        let seed = self.rng.next_u64();
        match Drill::new(&ending, self.difficulty, &self.tables, Rng::new(seed)) {
            Ok(drill) => {
                self.choose(ending);
                self.begin(drill);
            }
            Err(e) => self.say(e, Tone::Error),
        }
    }

    pub(super) fn start_fen(&mut self, fen: &str) {
        let seed = self.rng.next_u64();
        match Drill::from_fen(fen, &self.tables, Rng::new(seed)) {
            Ok(drill) => {
                self.choose(drill.ending.clone());
                self.begin(drill);
            }
            Err(e) => self.say(e, Tone::Error),
        }
    }

    /// Puts `ending` on the list (if it is not there) and chooses it (the list's first rows
    /// are the player's mistakes and the puzzles, the endings follow).
    fn choose(&mut self, ending: Ending) {
        self.choice = FIRST_ENDING
            + match self.endings.iter().position(|e| *e == ending) {
                Some(i) => i,
                None => {
                    self.endings.push(ending);
                    self.endings.len() - 1
                }
            };
    }

    fn begin(&mut self, drill: Drill) {
        let par = match drill.goal {
            Goal::Win => format!(" Par {} moves.", drill.par()),
            Goal::Draw => format!(" Hold it for {} moves.", crate::train::drill::HOLD_MOVES),
        };
        self.say(format!("{}.{par}", drill.task()), Tone::Info);
        self.board = OnBoard::Drill(Drilling {
            drill,
            counted: false,
            played: false,
        });
        self.hint = None;
        self.input.clear();
    }

    pub(super) fn give_hint(&mut self) {
        let OnBoard::Drill(Drilling { drill, .. }) = &mut self.board else {
            return;
        };
        if drill.state != State::Playing {
            return self.say(
                "This attempt is over: Ctrl-Z takes back, Ctrl-R retries.",
                Tone::Info,
            );
        }
        let pos = drill.pos().clone();
        // The second press shows the same hint's move: one hint, not two.
        let best = match self.hint {
            Some((_, None)) => drill.best(&self.tables).map(|r| r.mv),
            _ => drill.hint(&self.tables),
        };
        let Some(best) = best else {
            return self.say("The tables have no move here.", Tone::Error);
        };
        self.show_hint(best, &pos, "The tables play", "");
    }

    pub(super) fn try_drill_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let OnBoard::Drill(Drilling { drill, played, .. }) = &mut self.board else {
            return;
        };
        if drill.state != State::Playing {
            return self.say(
                "This attempt is over: Ctrl-Z takes back, Ctrl-R retries, Ctrl-N is the next.",
                Tone::Info,
            );
        }
        let m = match drill.game.parse_move(text) {
            Ok(m) => m,
            Err(e) => return self.say(e.to_string(), Tone::Error),
        };
        match drill.play(m, &self.tables) {
            Ok(verdict) => {
                *played = true;
                let said = said_of(drill, &verdict);
                let (failed, done) = (
                    matches!(drill.state, State::Failed(_)),
                    drill.state == State::Done,
                );
                self.hint = None;
                self.say(said, if failed { Tone::Error } else { Tone::Info });
                if done {
                    fx.push(Effect::Bell);
                    self.count(fx);
                }
            }
            Err(e) => self.say(e, Tone::Error),
        }
    }

    /// Counts the drill on the board in the progress, once, if a move was played in it: done
    /// when its goal was reached, else tried; and asks for the progress to be written.
    pub(super) fn count(&mut self, fx: &mut Vec<Effect>) {
        let OnBoard::Drill(Drilling {
            drill: d,
            counted,
            played,
        }) = &mut self.board
        else {
            return;
        };
        if *counted || !*played {
            return;
        }
        let done = d.state == State::Done;
        let over_par = (d.goal == Goal::Win).then(|| d.moves_played().saturating_sub(d.par()));
        let change = Change::ending(&d.ending.to_string(), done, d.clean(), over_par, self.today);
        *counted = true;
        self.keep(change, fx);
    }
}

/// The message after a move: the verdict, and the result once the attempt is over.
fn said_of(drill: &Drill, v: &Verdict) -> String {
    let mut text = match (&drill.state, &v.better) {
        (State::Failed(why), Some(better)) => {
            format!("{}: {} {better} kept it.", v.played, lower_first(why))
        }
        (State::Failed(why), None) => format!("{}: {}", v.played, lower_first(why)),
        (_, None) => format!("{}: the tables' best.", v.played),
        (_, Some(better)) => format!("{} keeps it, but {better} was quicker.", v.played),
    };
    if let Some(reply) = &v.reply {
        text.push_str(&format!(" Reply: {reply}."));
    }
    if let Some(summary) = drill.summary().filter(|_| drill.state == State::Done) {
        text.push(' ');
        text.push_str(&summary);
        text.push_str(" Ctrl-N for the next.");
    }
    text
}

/// `text` with its first letter in lower case, to follow a colon.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}
