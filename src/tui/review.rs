//! The review screen: the board at the move shown, each side's accuracy and mistakes, the
//! evaluation graph with the move shown marked, the move list with verdicts, and for a flagged
//! move the engine's better move (shown on the board on request). The search service reviews the
//! game in the background (cached positions first) and the screen fills in as results arrive; a
//! list of games comes first when none was chosen.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};
use shakmaty::{Chess, Move};

use super::chrome::command::{Command, Common};
use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, ctrl, key};
use super::chrome::run::{self, Screen};
use super::job::{EngineEvent, next_generation};
use super::screen::Palette;
use super::screen::{Action, Effect, Open, Tone};
use super::service::ReviewJob;
use crate::game::Game;
use crate::review::analyse;
use crate::review::{MoveNote, Review};
use crate::store::Listed;

/// The review screen's own commands (the ones every screen has are [`Common`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewCommand {
    /// Another game of the list.
    Pick(Pick),
    /// Review the game chosen.
    Open,
    /// Delete the chosen game's file, once confirmed.
    Delete,
    /// Yes to the deletion asked about.
    Yes,
    /// Through the game reviewed.
    Browse(Browse),
    /// The next inaccuracy, mistake or blunder.
    Next,
    /// The one before.
    Previous,
    /// The engine's better move on the board, or the move played again.
    Better,
    /// Practise the person's mistakes of this game.
    Practise,
    /// Back to the list of games.
    List,
}

/// Which game of the list is chosen next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The one above.
    Up,
    /// The one below.
    Down,
    /// Ten above.
    PageUp,
    /// Ten below.
    PageDown,
}

/// Where browsing takes the game reviewed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Browse {
    /// A move back.
    Back,
    /// A move on.
    On,
    /// The start.
    Start,
    /// The end.
    End,
}

const fn own(command: ReviewCommand) -> Command<ReviewCommand> {
    Command::Own(command)
}

const fn pick(to: Pick) -> Command<ReviewCommand> {
    Command::Own(ReviewCommand::Pick(to))
}

const fn browse(to: Browse) -> Command<ReviewCommand> {
    Command::Own(ReviewCommand::Browse(to))
}

/// The review screen's keys. The first row with a key wins: Esc goes back to the list when
/// there is one, and leaves otherwise.
pub const REVIEW_KEYS: &[KeyHelp<Command<ReviewCommand>>] = &[
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), pick(Pick::Up)),
            (key(KeyCode::Char('k')), pick(Pick::Up)),
            (key(KeyCode::Down), pick(Pick::Down)),
            (key(KeyCode::Char('j')), pick(Pick::Down)),
        ]),
        shown: "↑ ↓ k j",
        word: "",
        label: "↑↓ choose",
        help: "choose a game",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::PageUp), pick(Pick::PageUp)),
            (key(KeyCode::PageDown), pick(Pick::PageDown)),
        ]),
        shown: "PgUp PgDn",
        word: "",
        label: "",
        help: "ten games up or down",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(ReviewCommand::Open)),
        shown: "Enter",
        word: "",
        label: "Enter review",
        help: "review the chosen game",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('d')), key(KeyCode::Delete)],
            own(ReviewCommand::Delete),
        ),
        shown: "d Del",
        word: "delete",
        label: "d delete",
        help: "delete the chosen game's file (asks first)",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('y')), key(KeyCode::Char('Y'))],
            own(ReviewCommand::Yes),
        ),
        shown: "y",
        word: "",
        label: "",
        help: "yes, delete it (any other key keeps it)",
        when: When::Asking,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Left), browse(Browse::Back)),
            (key(KeyCode::Char('h')), browse(Browse::Back)),
            (key(KeyCode::Right), browse(Browse::On)),
            (key(KeyCode::Char('l')), browse(Browse::On)),
        ]),
        shown: "← → h l",
        word: "",
        label: "←→ move",
        help: "a move back, a move on",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Home), browse(Browse::Start)),
            (key(KeyCode::Up), browse(Browse::Start)),
            (key(KeyCode::End), browse(Browse::End)),
            (key(KeyCode::Down), browse(Browse::End)),
        ]),
        shown: "Home End ↑ ↓",
        word: "",
        label: "Home/End",
        help: "the start, the end",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('n'))], own(ReviewCommand::Next)),
        shown: "n",
        word: "next",
        label: "n/p flagged",
        help: "the next inaccuracy, mistake or blunder",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('p')), key(KeyCode::Char('N'))],
            own(ReviewCommand::Previous),
        ),
        shown: "p N",
        word: "previous",
        label: "",
        help: "the one before",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('b'))], own(ReviewCommand::Better)),
        shown: "b",
        word: "better",
        label: "b better",
        help: "show the engine's better move on the board (again: the move played)",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('f'))], Command::Common(Common::Flip)),
        shown: "f",
        word: "flip",
        label: "f flip",
        help: "turn the board around",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('m'))], own(ReviewCommand::Practise)),
        shown: "m",
        word: "practise",
        label: "m practise",
        help: "practise your mistakes and blunders of this game",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('t')), ctrl('k')],
            Command::Common(Common::Theme),
        ),
        shown: "t Ctrl-K",
        word: "theme",
        label: "",
        help: "board colours: the next theme",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::None,
        shown: "click",
        word: "",
        label: "click graph",
        help: "a click on the graph shows that move",
        when: When::Reviewing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Esc)], own(ReviewCommand::List)),
        shown: "Esc",
        word: "list",
        label: "Esc list",
        help: "back to the list of games",
        when: When::InGame,
    },
    keys::help(),
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('q')), key(KeyCode::Esc)],
            Command::Common(Common::Back),
        ),
        shown: "q",
        word: "back",
        label: "q back",
        help: "opened from a game: back to it",
        when: When::Opened,
    },
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('q')), key(KeyCode::Esc)],
            Command::Common(Common::Back),
        ),
        shown: "q",
        word: "quit",
        label: "q quit",
        help: "started on its own (knightfall review FILE): leave the review",
        when: When::Alone,
    },
    keys::exit(),
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
    /// The help overlay.
    pub help: Help,
    /// Board seen from Black's side.
    pub flipped: bool,
    /// Colours and glyphs.
    pub palette: Palette,
    /// How positions are searched.
    settings: analyse::Settings,
    /// The settings' `name` and accounts: whose moves in a game from elsewhere are the
    /// person's.
    pub you: Vec<String>,
    /// The id in the library of the game reviewed, when it was chosen there.
    pub kept: Option<i64>,
    /// Found since the review was opened or last kept.
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
            help: Help::default(),
            confirm_delete: None,
            flipped: false,
            palette,
            settings,
            you: Vec::new(),
            kept: None,
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

    /// The effects that open game `id` of the library, `game`, at once: the service sends what
    /// the library knows of it, then searches the rest, and what it finds is kept there.
    pub fn start_kept(&mut self, game: Game, id: i64) -> Vec<Effect> {
        let mut fx = Vec::new();
        self.open(game, Some(id), &mut fx);
        fx
    }

    /// Which rows of [`REVIEW_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        match when {
            When::Choosing => self.view == View::Pick,
            When::Reviewing => self.view == View::Review,
            // Back to the list from a review, when there is a list.
            When::InGame => self.view == View::Review && self.listed.len() > 1,
            When::Asking => self.confirm_delete.is_some(),
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
            Ok(game) => self.open(game, None, fx),
            Err(why) => self.message = format!("That game cannot be reviewed: {why}"),
        }
    }

    /// Opens `game` (game `kept` of the library, if known) for review: the service sends the
    /// positions known, then searches the rest.
    fn open(&mut self, game: Game, kept: Option<i64>, fx: &mut Vec<Effect>) {
        self.close(fx);
        self.kept = kept;
        let mut review = Review::new(game, self.settings.movetime_ms);
        review.engine = self.settings.engine_name();
        self.generation = next_generation();
        self.searching = true;
        self.failed = 0;
        fx.push(Effect::Review(Box::new(ReviewJob {
            generation: self.generation,
            game: review.game.clone(),
            settings: self.settings.clone(),
            known: Vec::new(),
            library: kept,
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

    /// What must be kept when the screen goes: what the review found since it was kept.
    pub(crate) fn farewell(&mut self) -> Vec<Effect> {
        match &self.review {
            Some(review) if self.unsaved && review.done() > 0 => {
                self.unsaved = false;
                vec![Effect::KeepReview {
                    review: Box::new(review.clone()),
                    id: self.kept,
                }]
            }
            _ => Vec::new(),
        }
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(k) => {
                if !self.help.takes(&k) {
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
            | Action::Kept(..)
            | Action::Tick
            | Action::Front
            | Action::Saved(_)
            | Action::Play(_)
            | Action::Trained(_)
            | Action::Checked(..)
            | Action::Peer(_)
            | Action::Meeting(_) => {}
        }
        fx
    }

    fn on_engine(&mut self, ev: EngineEvent, fx: &mut Vec<Effect>) {
        match ev {
            EngineEvent::ReviewTime {
                generation,
                movetime_ms,
            } if generation == self.generation => {
                // Shown with the review, and the key it is cached under again.
                if let Some(review) = self.review.as_mut() {
                    review.movetime_ms = movetime_ms;
                }
            }
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

    /// The command `key` gives now, from [`REVIEW_KEYS`].
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<ReviewCommand>> {
        keys::lookup(REVIEW_KEYS, key, |w| self.keys_apply(w))
    }

    fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        let command = self.command_for(&key);
        // A deletion asked about takes the next key: any but y keeps the game.
        if self.confirm_delete.is_some() && command != Some(own(ReviewCommand::Yes)) {
            self.confirm_delete = None;
            self.message = "Nothing deleted.".into();
            return;
        }
        if let Some(command) = command {
            self.run(command, fx);
        }
    }

    /// Runs a command given by its key.
    fn run(&mut self, command: Command<ReviewCommand>, fx: &mut Vec<Effect>) {
        match command {
            Command::Common(common) => run::run(self, common, None, fx),
            Command::Own(own) => self.command(own, fx),
        }
    }

    /// Runs one of the review's own commands.
    fn command(&mut self, command: ReviewCommand, fx: &mut Vec<Effect>) {
        let last = self.listed.len().saturating_sub(1);
        match command {
            ReviewCommand::Pick(to) => {
                self.selected = match to {
                    Pick::Up => self.selected.saturating_sub(1),
                    Pick::Down => (self.selected + 1).min(last),
                    Pick::PageUp => self.selected.saturating_sub(10),
                    Pick::PageDown => (self.selected + 10).min(last),
                }
            }
            ReviewCommand::Open => self.open_selected(fx),
            ReviewCommand::Browse(to) => self.go_to(match to {
                Browse::Back => self.ply.saturating_sub(1),
                Browse::On => self.ply + 1,
                Browse::Start => 0,
                Browse::End => self.plies(),
            }),
            ReviewCommand::Yes => {
                if let Some(i) = self.confirm_delete.take()
                    && i < self.listed.len()
                {
                    let gone = self.listed.remove(i);
                    self.selected = self.selected.min(self.listed.len().saturating_sub(1));
                    fx.push(Effect::Delete(gone.file.to_path_buf()));
                }
            }
            ReviewCommand::Next => self.jump_flagged(true),
            ReviewCommand::Previous => self.jump_flagged(false),
            ReviewCommand::Better => {
                if self.note_shown().and_then(|n| n.better).is_some() {
                    self.show_better = !self.show_better;
                } else {
                    self.message = "The engine has no better move here than the one played.".into();
                }
            }
            ReviewCommand::Practise => {
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
            ReviewCommand::Delete => {
                if let Some(l) = self.listed.get(self.selected) {
                    self.confirm_delete = Some(self.selected);
                    self.message = format!(
                        "Delete {}? Its game is gone for good. (y/n)",
                        l.file.display()
                    );
                }
            }
            ReviewCommand::List => {
                self.close(fx);
                self.view = View::Pick;
            }
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

/// The review, as the common commands see it: what it found is kept when it goes.
impl Screen for ReviewScreen {
    fn help(&mut self) -> &mut Help {
        &mut self.help
    }

    fn say(&mut self, text: String, _tone: Tone) {
        self.message = text;
    }

    fn theme(&self) -> crate::theme::Theme {
        self.palette.theme
    }

    fn flipped(&mut self) -> Option<&mut bool> {
        Some(&mut self.flipped)
    }

    fn leaving(&mut self, fx: &mut Vec<Effect>) {
        self.close(fx);
    }
}

/// Whether a game's players say the person had Black: the board is then seen from Black's side,
/// as it was played. Knightfall names a person "Human" (or one of `yours`, the settings' `name`
/// and accounts, in a game from elsewhere) and itself "Knightfall …".
fn person_played_black(names: &[String; 2], yours: &[String]) -> bool {
    let person = |n: &str| crate::train::mistake::is_you(n, yours);
    let engine = |n: &str| n.starts_with("Knightfall");
    person(&names[1]) && !person(&names[0]) || engine(&names[0]) && !engine(&names[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

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
            engine: None,
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
