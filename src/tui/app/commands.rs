//! Commands given by their keys or typed as words: new, undo, hint, resign, draw, save, pause
//! and the rest.

use shakmaty::Color;

use super::keys::GameCommand;
use super::{Analysis, App, Confirm, Effect, Tone, color_name};
use crate::engine::Limits;
use crate::theme::Theme;
use crate::tui::chrome::command::Command;
use crate::tui::chrome::help::Help;
use crate::tui::chrome::run::{self, Screen};
use crate::tui::job::Purpose;
use crate::tui::screen::Open;

/// The game, as the common commands see it: leaving it leaves Knightfall.
impl Screen for App {
    fn help(&mut self) -> &mut Help {
        &mut self.help
    }

    fn say(&mut self, text: String, tone: Tone) {
        App::say(self, text, tone);
    }

    fn theme(&self) -> Theme {
        self.settings.theme
    }

    fn flipped(&mut self) -> Option<&mut bool> {
        Some(&mut self.flipped)
    }

    fn leaving(&mut self, fx: &mut Vec<Effect>) {
        fx.push(Effect::Stop);
    }

    fn back(&self) -> Effect {
        Effect::Quit
    }
}

impl App {
    /// Runs a command given by its key or typed as a word (with what was typed after it).
    pub(super) fn run(
        &mut self,
        command: Command<GameCommand>,
        arg: Option<&str>,
        fx: &mut Vec<Effect>,
    ) {
        match command {
            Command::Common(common) => run::run(self, common, arg, fx),
            Command::Own(own) => self.command(own, arg, fx),
        }
    }

    /// Runs one of the game's own commands.
    fn command(&mut self, command: GameCommand, arg: Option<&str>, fx: &mut Vec<Effect>) {
        match command {
            // Against a friend a draw and a takeback are asked of them.
            GameCommand::Draw if self.remote.is_some() => {
                self.offer_friend(crate::net::message::Offer::Draw, fx)
            }
            GameCommand::Undo if self.remote.is_some() => {
                self.offer_friend(crate::net::message::Offer::Takeback, fx)
            }
            GameCommand::Yes => self.yes_or_no(true, fx),
            GameCommand::No => self.yes_or_no(false, fx),
            GameCommand::Browse(to) => self.browse(to),
            GameCommand::Clear => self.clear(),
            GameCommand::Enter => {
                let text = std::mem::take(&mut self.line.text);
                self.submit(text.trim(), fx);
            }
            GameCommand::Sound => self.toggle_sound(fx),
            GameCommand::Blindfold => self.toggle_blindfold(fx),
            GameCommand::Peek => self.peek(),
            GameCommand::Eval => self.toggle_eval(fx),
            GameCommand::Line => self.toggle_line(),
            GameCommand::Fen => {
                let fen = self.game.fen();
                self.say(format!("FEN: {fen}"), Tone::Info);
            }
            GameCommand::Moves => self.list_moves(),
            GameCommand::Save => fx.push(Effect::Save(arg.map(String::from))),
            GameCommand::New => self.new_game(fx),
            GameCommand::Home => self.open_home(fx),
            GameCommand::Undo => self.undo(fx),
            GameCommand::Board => self.open_board(fx),
            GameCommand::Review => self.open_review(fx),
            GameCommand::Hint => self.hint(fx),
            GameCommand::Resign => {
                if self.game.is_over() {
                    self.say("The game is over.", Tone::Error);
                } else {
                    self.ask(Confirm::Resign, "Resign this game? (y/n)");
                }
            }
            GameCommand::Claim => self.end_left(true, fx),
            GameCommand::Say => match arg {
                Some(text) if self.remote.is_some() => self.chat(text, fx),
                _ if self.remote.is_some() => self.chat("", fx),
                _ => self.say("say is for a game against a friend.", Tone::Error),
            },
            GameCommand::Draw => {
                // Against the engine an offer can end the game at once: it is asked first.
                if self.person_vs_engine() && !self.game.is_over() {
                    self.ask(
                        Confirm::Draw,
                        "Offer a draw? The engine accepts only when it stands worse. (y/n)",
                    );
                } else {
                    self.offer_draw(fx);
                }
            }
            GameCommand::Pause => self.pause(!self.watch.paused, fx),
            GameCommand::Resume => self.pause(false, fx),
            GameCommand::Step => self.step(fx),
        }
    }

    /// y or n: the answer to the question asked, or after a game, another one or not.
    fn yes_or_no(&mut self, yes: bool, fx: &mut Vec<Effect>) {
        if self.offers.confirm.is_some() {
            self.answer(yes, fx);
        } else if self.offers.ask_again && yes && self.remote.is_some() {
            self.offers.ask_again = false;
            self.offer_friend(crate::net::message::Offer::Rematch, fx);
        } else if self.offers.ask_again && yes {
            let game = self.fresh_game();
            self.begin_game(game, fx);
            self.say("New game.", Tone::Info);
        } else if self.offers.ask_again {
            self.offers.ask_again = false;
            self.say(
                "Type new to play again, review to review the game, quit to leave.",
                Tone::Info,
            );
        }
    }

    /// The bell at low time and flag fall (and on the engine's moves with `move_bell`), on or
    /// off (kept in the config).
    fn toggle_sound(&mut self, fx: &mut Vec<Effect>) {
        self.settings.sound = !self.settings.sound;
        fx.push(Effect::SaveSwitches);
        let what = if self.settings.sound { "on" } else { "off" };
        self.say(format!("The bell at low time is {what} (^O)."), Tone::Info);
    }

    /// Blindfold on or off (kept in the config).
    fn toggle_blindfold(&mut self, fx: &mut Vec<Effect>) {
        self.settings.blindfold = !self.settings.blindfold;
        self.peek_until = None;
        fx.push(Effect::SaveSwitches);
        self.say(
            if self.settings.blindfold {
                "Blindfold: the pieces are hidden (^W peeks, ^X shows them again)."
            } else {
                "The pieces are shown again (^X hides them)."
            },
            Tone::Info,
        );
    }

    /// The hidden pieces shown for [`PEEK`](super::PEEK).
    fn peek(&mut self) {
        if !self.settings.blindfold {
            return self.say("The pieces are not hidden (^X hides them).", Tone::Info);
        }
        self.peek_until = Some(self.now + super::PEEK);
        self.say("Peeking for three seconds.", Tone::Info);
    }

    /// The evaluation against the engine, shown or hidden (kept in the config).
    fn toggle_eval(&mut self, fx: &mut Vec<Effect>) {
        self.settings.show_eval = !self.settings.show_eval;
        fx.push(Effect::SaveSwitches);
        let what = if self.settings.show_eval {
            "shown"
        } else {
            "hidden"
        };
        self.say(
            format!("The evaluation is {what} in games against the engine (^G)."),
            Tone::Info,
        );
    }

    /// The engine's expected line, shown or hidden.
    fn toggle_line(&mut self) {
        self.search.reveal_line = !self.search.reveal_line;
        let what = if self.search.reveal_line {
            "shown"
        } else {
            "hidden"
        };
        self.say(format!("The engine's expected line is {what}."), Tone::Info);
    }

    /// Says the legal moves.
    fn list_moves(&mut self) {
        let list = self.game.legal_sans();
        if list.is_empty() {
            self.say("No legal moves.", Tone::Info);
        } else {
            self.say(
                format!("{} legal moves: {}", list.len(), list.join(" ")),
                Tone::Info,
            );
        }
    }

    /// The new-game screen, once a game under way is confirmed left.
    fn new_game(&mut self, fx: &mut Vec<Effect>) {
        if self.remote.is_some() && !self.game.is_over() {
            self.say(
                "A game against a friend is played out (or resigned, Ctrl-R); Ctrl-Q leaves it \
                 as it stands.",
                Tone::Error,
            );
        } else if self.game.is_over() || self.game.ply() == 0 {
            self.open_setup(fx);
        } else {
            self.ask(
                Confirm::New,
                "Leave this game for a new one? It is kept in the games folder. (y/n)",
            );
        }
    }

    /// The home screen, once the game is over (or before it starts): from a game going on it
    /// would reach the analysis board the clock forbids.
    fn open_home(&mut self, fx: &mut Vec<Effect>) {
        if self.game.is_over() || self.game.ply() == 0 {
            self.leave_for(fx);
            self.line.text.clear();
            fx.push(Effect::Open(Box::new(Open::Home)));
        } else {
            self.say(
                "The home screen opens when the game is over (Ctrl-N leaves it for a new one).",
                Tone::Error,
            );
        }
    }

    /// The analysis board at the position shown, when the game allows it.
    fn open_board(&mut self, fx: &mut Vec<Effect>) {
        if self.analysable() {
            self.leave_for(fx);
            let tree = crate::line_tree::Tree::from_game(&self.game);
            // The node of the position shown: the main line is the game's moves.
            let mut at = 0;
            for _ in 0..self.shown_ply() {
                match tree.node(at).children.first() {
                    Some(&c) => at = c,
                    None => break,
                }
            }
            fx.push(Effect::Open(Box::new(Open::Board { tree, at })));
        } else {
            self.say(
                    "The analysis board opens after the game (or in untimed games): not while the engine's clock runs.",
                    Tone::Error,
                );
        }
    }

    /// The review of the game, once it is over.
    fn open_review(&mut self, fx: &mut Vec<Effect>) {
        if self.game.is_over() {
            self.leave_for(fx);
            let listed = vec![crate::store::Listed::of_game(
                std::path::PathBuf::new(),
                1,
                &self.game,
            )];
            fx.push(Effect::Open(Box::new(Open::Review {
                listed,
                chosen: Some(0),
            })));
        } else {
            self.say(
                "A review is for a finished game; this one is still going.",
                Tone::Error,
            );
        }
    }

    /// Asks the engine for a hint, on the person's move.
    fn hint(&mut self, fx: &mut Vec<Effect>) {
        if self.game.is_over() {
            self.say("The game is over.", Tone::Error);
        } else if self.remote.is_some() {
            self.say("No engine helps in a game against a friend.", Tone::Error);
        } else if !self.human_to_move() {
            self.say(
                "The engine is to move; a hint is for your move.",
                Tone::Error,
            );
        } else {
            self.say("Thinking about a hint...", Tone::Info);
            self.request(Purpose::Hint, Limits::movetime(1000), fx);
        }
    }

    /// Watching: pauses (`pause`) or resumes.
    fn pause(&mut self, pause: bool, fx: &mut Vec<Effect>) {
        if pause && !self.watch.paused {
            self.clock.paused_spent = self.thinking_time();
        }
        self.watch.paused = pause;
        if pause {
            self.drop_search(fx);
            self.search.analysis.thinking = None;
            self.say("Paused: space resumes, > plays one move.", Tone::Info);
        } else {
            self.line.message = None;
            self.unfreeze_clock();
            self.maybe_search(fx);
        }
    }

    /// Watching, paused: one move.
    fn step(&mut self, fx: &mut Vec<Effect>) {
        if self.watch.paused {
            self.watch.step = true;
            self.unfreeze_clock();
            if self.watch.queued.is_some() {
                self.on_tick(fx);
            } else {
                self.maybe_search(fx);
            }
        } else {
            self.say("Step works while paused (space).", Tone::Info);
        }
    }

    /// Opens the new-game screen over the game, prefilled with its settings.
    fn open_setup(&mut self, fx: &mut Vec<Effect>) {
        self.leave_for(fx);
        self.line.text.clear();
        fx.push(Effect::Open(Box::new(Open::Setup {
            resume: Vec::new(),
            watch: false,
        })));
    }

    /// Steps aside for another screen: the search stops, and nothing of it is waited for.
    fn leave_for(&mut self, fx: &mut Vec<Effect>) {
        // The time the side to move has used so far: an engine, whose search stops here, goes
        // on from it when the game is back in front.
        if !self.clock_stopped() {
            self.clock.paused_spent = self.thinking_time();
        }
        // A hint or a draw judgement asked for is void; the line saying it is coming too.
        if let Some((_, purpose)) = self.search.pending
            && purpose != Purpose::Play
        {
            self.line.message = None;
            if purpose == Purpose::DrawOffer {
                self.offers.draw_offer = None;
            }
        }
        // A move held back by the watch delay stays: it is played when the game is back.
        self.drop_search(fx);
        self.search.analysis.thinking = None;
    }

    /// Asks a yes/no question before doing something that cannot be taken back.
    fn ask(&mut self, what: Confirm, question: &str) {
        self.offers.confirm = Some(what);
        self.say(question, Tone::Info);
    }

    /// The answer to the pending question.
    pub(super) fn answer(&mut self, yes: bool, fx: &mut Vec<Effect>) {
        let Some(what) = self.offers.confirm.take() else {
            return;
        };
        if let Confirm::Friend(offer) = what {
            return self.answer_friend(offer, yes, fx);
        }
        if !yes {
            self.say("Play on.", Tone::Info);
            return;
        }
        match what {
            Confirm::New => self.open_setup(fx),
            Confirm::Friend(_) => {}
            Confirm::Draw => self.offer_draw(fx),
            Confirm::Resign => {
                if self.game.is_over() {
                    return;
                }
                let turn = self.game.turn();
                // Against the engine the human resigns, whoever is to move.
                let loser = if self.is_engine(turn) && !self.is_engine(!turn) {
                    !turn
                } else {
                    turn
                };
                self.game.resign(loser);
                self.tell_resigned(fx);
                self.end_now(fx);
            }
        }
    }

    pub(super) fn end_now(&mut self, fx: &mut Vec<Effect>) {
        self.drop_search(fx);
        self.search.analysis.thinking = None;
        self.game_over(fx);
    }

    pub(super) fn offer_draw(&mut self, fx: &mut Vec<Effect>) {
        if self.game.is_over() {
            self.say("The game is over.", Tone::Error);
            return;
        }
        let turn = self.game.turn();
        if !self.person_vs_engine() {
            // Two humans (or two engines): the other side accepts by offering back.
            match self.offers.draw_offer {
                Some((c, ply)) if c != turn && ply + 1 >= self.game.ply() => {
                    self.game.agree_draw();
                    self.offers.draw_offer = None;
                    self.end_now(fx);
                }
                _ => {
                    self.offers.draw_offer = Some((turn, self.game.ply()));
                    self.say(
                        format!(
                            "{} offers a draw; {} accepts by typing draw.",
                            color_name(turn),
                            color_name(!turn)
                        ),
                        Tone::Info,
                    );
                }
            }
            return;
        }
        let human = if self.is_engine(Color::White) {
            Color::Black
        } else {
            Color::White
        };
        self.offers.draw_offer = Some((human, self.game.ply()));
        self.say(
            "You offer a draw; the engine is thinking about it...",
            Tone::Info,
        );
        if self.human_to_move() {
            self.request(Purpose::DrawOffer, Limits::movetime(300), fx);
        }
    }

    pub(super) fn undo(&mut self, fx: &mut Vec<Effect>) {
        if self.game.ply() == 0 {
            self.say("Nothing to undo.", Tone::Error);
            return;
        }
        let was_over = self.game.is_over();
        self.game.undo();
        let humans = Color::ALL.iter().any(|&c| !self.is_engine(c));
        // Against the engine, take back its reply and your move together.
        while humans && self.game.ply() > 0 && self.is_engine(self.game.turn()) {
            self.game.undo();
        }
        self.view = None;
        self.offers.ask_again = false;
        self.offers.draw_offer = None;
        self.search.analysis = Analysis::default();
        self.offers.premove = None;
        self.drop_search(fx);
        self.watch.queued = None;
        self.restart_clock();
        if was_over {
            // The finished game is kept as it ended; play goes on from before its last move,
            // and nobody's clock runs until the next move is made.
            self.clock.held = true;
            self.say(
                "The game had ended and is saved as it was; play goes on from before the last \
                 move, and the clocks start with the next move.",
                Tone::Info,
            );
        } else {
            self.say("Move taken back.", Tone::Info);
        }
        fx.push(Effect::Autosave);
        self.maybe_search(fx);
    }
}
