//! The review screen: the board at the move shown, each side's accuracy and mistakes, the
//! evaluation graph with the move shown marked, the move list with verdicts, and for a flagged
//! move the engine's better move (shown on the board on request). The search service reviews the
//! game in the background (cached positions first) and the screen fills in as results arrive; a
//! list of games comes first when none was chosen.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Chess, Move};

use super::job::{EngineEvent, next_generation};
use super::keys::{self, KeyHelp, When, ctrl, key};
use super::screen::Palette;
use super::screen::{Action, Effect, Open};
use super::service::ReviewJob;
use crate::game::Game;
use crate::review::analyse;
use crate::review::{MoveNote, Review};
use crate::store::Listed;

/// The review screen's keys.
pub const REVIEW_KEYS: &[KeyHelp] = &[
    KeyHelp {
        keys: &[],
        shown: "↑ ↓ Enter",
        word: "",
        label: "↑↓ choose  Enter review",
        help: "choose a game and review it",
        when: When::Choosing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('d')), key(KeyCode::Delete)],
        shown: "d Del",
        word: "delete",
        label: "d delete",
        help: "delete the chosen game's file (asks first)",
        when: When::Choosing,
    },
    KeyHelp {
        keys: &[],
        shown: "← →",
        word: "",
        label: "←→ move",
        help: "a move back, a move on",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[],
        shown: "Home End",
        word: "",
        label: "Home/End",
        help: "the start, the end",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('n'))],
        shown: "n",
        word: "next",
        label: "n/p flagged",
        help: "the next inaccuracy, mistake or blunder",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('p')), key(KeyCode::Char('N'))],
        shown: "p N",
        word: "previous",
        label: "",
        help: "the one before",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('b'))],
        shown: "b",
        word: "better",
        label: "b better",
        help: "show the engine's better move on the board (again: the move played)",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('f'))],
        shown: "f",
        word: "flip",
        label: "f flip",
        help: "turn the board around",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('m'))],
        shown: "m",
        word: "practise",
        label: "m practise",
        help: "practise your mistakes and blunders of this game",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('t')), ctrl('k')],
        shown: "t Ctrl-K",
        word: "theme",
        label: "",
        help: "board colours: the next theme",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[],
        shown: "click",
        word: "",
        label: "click graph",
        help: "a click on the graph shows that move",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: &[key(KeyCode::Esc)],
        shown: "Esc",
        word: "list",
        label: "Esc list",
        help: "back to the list of games",
        when: When::InGame,
    },
    keys::HELP,
    KeyHelp {
        keys: &[key(KeyCode::Char('q')), key(KeyCode::Esc)],
        shown: "q",
        word: "back",
        label: "q back",
        help: "back to the game the review was opened from",
        when: When::Opened,
    },
    KeyHelp {
        keys: &[key(KeyCode::Char('q')), key(KeyCode::Esc)],
        shown: "q",
        word: "quit",
        label: "q quit",
        help: "leave the review",
        when: When::Alone,
    },
    keys::EXIT,
];

/// What the screen shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Choosing a game.
    Pick,
    /// Reviewing one.
    Review,
}

/// The screen's state.
pub struct ReviewScreen {
    /// The games to choose from.
    pub listed: Vec<Listed>,
    /// The game whose deletion waits for a yes.
    pub confirm_delete: Option<usize>,
    /// The highlighted one.
    pub selected: usize,
    /// Choosing or reviewing.
    pub view: View,
    /// The review shown.
    pub review: Option<Review>,
    /// The position shown (0 = the start).
    pub ply: usize,
    /// Whether the board shows the engine's better move instead of the game's.
    pub show_better: bool,
    /// A message for the message line.
    pub message: String,
    /// Opened from a game: q goes back to it.
    pub from_game: bool,
    /// The search is under way.
    pub searching: bool,
    /// Positions whose search failed.
    pub failed: usize,
    /// Help overlay shown.
    pub show_help: bool,
    /// Board seen from Black's side.
    pub flipped: bool,
    /// Colours and glyphs.
    pub palette: Palette,
    /// How positions are searched.
    settings: analyse::Settings,
    /// The settings' `name`: whose moves in a game from elsewhere are the person's.
    pub you: String,
    /// Found since the review was opened or last cached.
    unsaved: bool,
    generation: u64,
}

impl ReviewScreen {
    /// A screen over `listed`; `settings` says how positions are searched.
    pub fn new(
        listed: Vec<Listed>,
        settings: analyse::Settings,
        palette: Palette,
        from_game: bool,
    ) -> ReviewScreen {
        ReviewScreen {
            listed,
            selected: 0,
            view: View::Pick,
            review: None,
            ply: 0,
            show_better: false,
            message: String::new(),
            from_game,
            searching: false,
            failed: 0,
            show_help: false,
            confirm_delete: None,
            flipped: false,
            palette,
            settings,
            you: String::new(),
            unsaved: false,
            generation: 0,
        }
    }

    /// The effects that open game `chosen` of the list at once, if given.
    pub fn start(&mut self, chosen: Option<usize>) -> Vec<Effect> {
        let mut fx = Vec::new();
        if let Some(i) = chosen {
            self.selected = i;
            self.open_selected(&mut fx);
        }
        fx
    }

    /// Which rows of [`REVIEW_KEYS`] apply now.
    pub(crate) fn keys_apply(&self, when: When) -> bool {
        match when {
            When::Choosing => self.view == View::Pick,
            When::Reviewing => self.view == View::Review,
            // Back to the list from a review, when there is a list.
            When::InGame => self.view == View::Review && self.listed.len() > 1,
            _ => keys::opened_or_alone(when, self.from_game),
        }
    }

    fn open_selected(&mut self, fx: &mut Vec<Effect>) {
        let Some(listed) = self.listed.get(self.selected) else {
            return;
        };
        if let Err(why) = &listed.heading {
            self.message = format!("That game cannot be reviewed: {why}");
        } else if listed.is_held() {
            let loaded = listed.load();
            self.opened(loaded, fx);
        } else {
            // A game of a file is read by the runner: this screen touches no file.
            fx.push(Effect::ReadGame {
                place: self.selected,
                listed: Box::new(listed.clone()),
            });
        }
    }

    /// Opens the game read for the one chosen, or says why it cannot be.
    fn opened(&mut self, game: Result<Game, String>, fx: &mut Vec<Effect>) {
        match game {
            Ok(game) => self.open(game, fx),
            Err(why) => self.message = format!("That game cannot be reviewed: {why}"),
        }
    }

    /// Opens `game` for review: the service sends the cached positions, then searches the rest.
    fn open(&mut self, game: Game, fx: &mut Vec<Effect>) {
        self.close(fx);
        let review = Review::new(game, self.settings.movetime_ms);
        self.generation = next_generation();
        self.searching = true;
        self.failed = 0;
        fx.push(Effect::Review(Box::new(ReviewJob {
            generation: self.generation,
            game: review.game.clone(),
            settings: self.settings.clone(),
            known: Vec::new(),
        })));
        self.ply = 0;
        self.show_better = false;
        self.flipped = person_played_black(&review.game.names, &self.you);
        self.review = Some(review);
        self.view = View::Review;
        self.message.clear();
    }

    /// Stops the review shown, keeping whatever was searched for next time.
    fn close(&mut self, fx: &mut Vec<Effect>) {
        if self.searching {
            fx.push(Effect::Stop);
            self.searching = false;
        }
        self.generation = next_generation();
        fx.extend(self.farewell());
        self.review = None;
    }

    /// What must be kept when the screen goes: what the review found since it was cached.
    pub(crate) fn farewell(&mut self) -> Vec<Effect> {
        match &self.review {
            Some(review) if self.unsaved && review.done() > 0 => {
                self.unsaved = false;
                vec![Effect::CacheReview(Box::new(review.clone()))]
            }
            _ => Vec::new(),
        }
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(k) => {
                if self.show_help && !keys::is_exit(&k) {
                    self.show_help = false;
                } else {
                    self.message.clear();
                    self.on_key(k, &mut fx);
                }
            }
            Action::Engine(ev) => self.on_engine(ev, &mut fx),
            Action::Graph { offset, width } => {
                let plies = self.plies();
                let ply = if width <= 1 {
                    0
                } else {
                    (usize::from(offset) * plies + usize::from(width - 1) / 2)
                        / usize::from(width - 1)
                };
                self.go_to(ply);
            }
            Action::Note(text, _) => self.message = text,
            // The game read is opened if it is still the one chosen in the list.
            Action::GameRead { place, game } => {
                if place == self.selected && self.view == View::Pick {
                    self.opened(game.map(|g| *g), &mut fx);
                }
            }
            Action::Click(_)
            | Action::Tick
            | Action::Front
            | Action::Saved(_)
            | Action::Play(_)
            | Action::Trained(_) => {}
        }
        fx
    }

    fn on_engine(&mut self, ev: EngineEvent, fx: &mut Vec<Effect>) {
        match ev {
            EngineEvent::Reviewed {
                generation,
                ply,
                eval,
            } if generation == self.generation => {
                let Some(review) = self.review.as_mut() else {
                    return;
                };
                match eval {
                    Ok(eval) => {
                        if let Some(slot) = review.evals.get_mut(ply) {
                            *slot = Some(eval);
                        }
                        self.unsaved = true;
                    }
                    Err(why) => {
                        self.failed += 1;
                        self.message = format!(
                            "The search of position {ply} failed ({why}); {} position{} not reviewed.",
                            self.failed,
                            if self.failed == 1 { "" } else { "s" }
                        );
                    }
                }
            }
            EngineEvent::Failed {
                generation,
                message,
            } if generation == self.generation => {
                self.searching = false;
                self.message =
                    format!("The review's search failed ({message}); what it found is kept.");
            }
            EngineEvent::ReviewDone { generation } if generation == self.generation => {
                self.searching = false;
                fx.extend(self.farewell());
            }
            EngineEvent::Warning(text) => self.message = text,
            _ => {}
        }
    }

    /// The number of moves of the game reviewed.
    pub fn plies(&self) -> usize {
        self.review.as_ref().map_or(0, |r| r.game.moves().len())
    }

    /// Shows position `ply`.
    pub(crate) fn go_to(&mut self, ply: usize) {
        self.ply = ply.min(self.plies());
        self.show_better = false;
    }

    /// The board as shown: the position after the move shown, or with the engine's better
    /// move played instead; and the move that led to it.
    pub fn board(&self) -> Option<(Chess, Option<Move>)> {
        let review = self.review.as_ref()?;
        if self.show_better
            && let Some(i) = self.ply.checked_sub(1)
            && let Some(m) = review
                .evals
                .get(i)
                .and_then(|e| e.as_ref()?.line.first().copied())
        {
            let mut pos = review.game.position_at(i).clone();
            if shakmaty::Position::is_legal(&pos, m) {
                shakmaty::Position::play_unchecked(&mut pos, m);
                return Some((pos, Some(m)));
            }
        }
        let last = self.ply.checked_sub(1).map(|i| review.game.moves()[i]);
        Some((review.game.position_at(self.ply).clone(), last))
    }

    fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        // A deletion asked about: y deletes, anything else keeps the game.
        if let Some(i) = self.confirm_delete.take() {
            if matches!(key.code, KeyCode::Char('y' | 'Y')) && i < self.listed.len() {
                let gone = self.listed.remove(i);
                self.selected = self.selected.min(self.listed.len().saturating_sub(1));
                fx.push(Effect::Delete(gone.file.to_path_buf()));
            } else {
                self.message = "Nothing deleted.".into();
            }
            return;
        }
        if let Some(row) = keys::lookup(REVIEW_KEYS, &key, |w| self.keys_apply(w)) {
            return self.command(row.word, fx);
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return;
        }
        match self.view {
            View::Pick => {
                let last = self.listed.len().saturating_sub(1);
                match key.code {
                    KeyCode::Up | KeyCode::Char('k') => {
                        self.selected = self.selected.saturating_sub(1)
                    }
                    KeyCode::Down | KeyCode::Char('j') => {
                        self.selected = (self.selected + 1).min(last)
                    }
                    KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
                    KeyCode::PageDown => self.selected = (self.selected + 10).min(last),
                    KeyCode::Enter => self.open_selected(fx),
                    _ => {}
                }
            }
            View::Review => match key.code {
                KeyCode::Left | KeyCode::Char('h') => self.go_to(self.ply.saturating_sub(1)),
                KeyCode::Right | KeyCode::Char('l') => self.go_to(self.ply + 1),
                KeyCode::Home | KeyCode::Up => self.go_to(0),
                KeyCode::End | KeyCode::Down => self.go_to(self.plies()),
                _ => {}
            },
        }
    }

    fn command(&mut self, word: &str, fx: &mut Vec<Effect>) {
        match word {
            "help" => self.show_help = true,
            "next" => self.jump_flagged(true),
            "previous" => self.jump_flagged(false),
            "better" => {
                if self.note_shown().and_then(|n| n.better).is_some() {
                    self.show_better = !self.show_better;
                } else {
                    self.message = "The engine has no better move here than the one played.".into();
                }
            }
            "flip" => self.flipped = !self.flipped,
            "practise" => {
                let mistakes = self
                    .review
                    .as_ref()
                    .map(|r| crate::train::mistake::of_review(r, &self.you))
                    .unwrap_or_default();
                if mistakes.is_empty() {
                    self.message = "No mistakes or blunders of a person's in this game (so far) \
                                    to practise."
                        .into();
                } else {
                    fx.push(Effect::Open(Box::new(Open::Practice(mistakes))));
                }
            }
            "theme" => {
                let theme = self.palette.theme.next();
                fx.push(Effect::Theme(theme));
                self.message = keys::theme_said(theme);
            }
            "delete" => {
                if let Some(l) = self.listed.get(self.selected) {
                    self.confirm_delete = Some(self.selected);
                    self.message = format!(
                        "Delete {}? Its game is gone for good. (y/n)",
                        l.file.display()
                    );
                }
            }
            "list" => {
                self.close(fx);
                self.view = View::Pick;
            }
            "back" | "quit" => {
                self.close(fx);
                fx.push(Effect::Close);
            }
            "exit" => {
                self.close(fx);
                fx.push(Effect::Quit);
            }
            _ => {}
        }
    }

    /// The review's note on the move that led to the position shown.
    pub(crate) fn note_shown(&self) -> Option<MoveNote> {
        let review = self.review.as_ref()?;
        review.note(self.ply.checked_sub(1)?)
    }

    fn jump_flagged(&mut self, forward: bool) {
        let Some(review) = &self.review else { return };
        let flagged = review.flagged();
        // A flagged move i is shown as the position after it, ply i + 1.
        let target = if forward {
            flagged.iter().map(|i| i + 1).find(|&p| p > self.ply)
        } else {
            flagged.iter().rev().map(|i| i + 1).find(|&p| p < self.ply)
        };
        match target {
            Some(p) => self.go_to(p),
            None => {
                self.message = if flagged.is_empty() {
                    "No inaccuracies, mistakes or blunders found (so far).".into()
                } else if forward {
                    "No flagged move after this one.".into()
                } else {
                    "No flagged move before this one.".into()
                }
            }
        }
    }
}

/// Whether a game's players say the person had Black: the board is then seen from Black's side,
/// as it was played. Knightfall names a person "Human" (or `yours`, the settings' `name`, in a
/// game from elsewhere) and itself "Knightfall …".
fn person_played_black(names: &[String; 2], yours: &str) -> bool {
    let person = |n: &str| crate::train::mistake::is_you(n, yours);
    let engine = |n: &str| n.starts_with("Knightfall");
    person(&names[1]) && !person(&names[0]) || engine(&names[0]) && !engine(&names[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_of_a_file_is_read_by_the_runner_and_opened_when_it_comes() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("two.pgn");
        std::fs::write(
            &file,
            "[White \"First\"]\n\n1. e4 e5 *\n\n[White \"Second\"]\n\n1. d4 d5 2. c4 *\n",
        )
        .unwrap();
        let listed = crate::store::read_games(&file).unwrap();
        let settings = analyse::Settings {
            movetime_ms: 100,
            threads: 1,
            tablebases: None,
        };
        let palette = Palette {
            no_color: false,
            truecolor: true,
            ascii: false,
            theme: Default::default(),
        };
        let mut screen = ReviewScreen::new(listed, settings, palette, false);
        let fx = screen.start(Some(1));
        // The screen asks for the game; it reads nothing itself.
        let [Effect::ReadGame { place: 1, listed }] = &fx[..] else {
            panic!("{fx:?}");
        };
        assert!(screen.review.is_none());
        // What the runner does with it, and what it brings back.
        let game = listed.load().map(Box::new);
        let fx = screen.update(Action::GameRead { place: 1, game }, Instant::now());
        assert!(fx.iter().any(|e| matches!(e, Effect::Review(_))), "{fx:?}");
        let review = screen.review.as_ref().unwrap();
        assert_eq!(review.game.names[0], "Second");
        assert_eq!(review.game.ply(), 3);
        // A game read for a choice since changed is not opened.
        screen.update(
            Action::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
            Instant::now(),
        );
        let stale = screen.listed[0].load().map(Box::new);
        screen.selected = 1;
        screen.view = View::Pick;
        screen.review = None;
        screen.update(
            Action::GameRead {
                place: 0,
                game: stale,
            },
            Instant::now(),
        );
        assert!(screen.review.is_none());
    }
}
