//! The game moving on: a move played, the bookkeeping after it, the end announced, a fresh game.

use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Color, Move};

use super::{Analysis, App, Effect, Mode, Side, Tone};
use crate::game::Game;
use crate::store::{GameKind, Unfinished};
use crate::tui::job::next_generation;
use crate::tui::screen::Choice;

impl App {
    /// Plays what the new-game screen chose: its settings, and the unfinished game it resumes or
    /// a new one; the settings are saved.
    pub(super) fn play_choice(&mut self, choice: Choice, fx: &mut Vec<Effect>) {
        // The game left goes where games of its kind go, before the new players change that.
        self.put_away(fx);
        self.settings = choice.settings;
        // A game chosen on the new-game screen is no longer against the friend.
        if self.remote.take().is_some() {
            fx.push(Effect::HangUp);
        }
        let humans = [Color::White, Color::Black]
            .iter()
            .filter(|&&c| self.settings.side(c).is_human())
            .count();
        if humans == 0 {
            self.mode = Mode::Watch;
            if self.watch.min_delay.is_zero() {
                self.watch.min_delay = Duration::from_millis(800);
            }
        } else {
            self.mode = Mode::Play;
        }
        self.watch.think_ms = [self.settings.think_ms; 2];
        fx.push(Effect::SaveSettings);
        let mut unconfirmed = Vec::new();
        let mut adopted = None;
        let game = match choice.resume {
            Some(Unfinished { path, game }) => {
                adopted = Some(path);
                // The unfinished game goes on between its own players, but for an engine only
                // the game names: no program runs because a file says so.
                for (color, command) in self.settings.adopt_players(&game) {
                    unconfirmed.push(format!(
                        "{} was {command}, which the config file does not name; {} plays {} \
                         instead (Ctrl-N to choose).",
                        super::color_name(color),
                        self.settings.player_name(color),
                        super::color_name(color),
                    ));
                }
                game
            }
            None => self.fresh_game(),
        };
        self.flipped = !self.settings.white.is_human() && self.settings.black.is_human();
        self.begin_game(game, fx);
        // Once the autosave (written by `begin_game`) holds the game, its old file goes.
        fx.extend(adopted.map(Effect::Adopted));
        let you = match (
            self.settings.white.is_human(),
            self.settings.black.is_human(),
        ) {
            (true, false) => "You play White. ",
            (false, true) => "You play Black. ",
            _ => "",
        };
        if unconfirmed.is_empty() {
            self.say(
                format!("{you}Type a move (e2e4 or Nf3) or a command; ? for help."),
                Tone::Info,
            );
        } else {
            self.say(unconfirmed.join(" "), Tone::Error);
        }
    }

    /// Starts playing `game` at `now` with the current settings; returns what the runner must
    /// do.
    pub fn play(&mut self, game: Game, now: Instant) -> Vec<Effect> {
        // The clocks start from here: an engine to move is on its clock from its first move.
        self.now = now.max(self.now);
        let mut fx = Vec::new();
        self.begin_game(game, &mut fx);
        fx
    }

    /// Starts playing `game`: fresh analysis, clocks and engine tables; the engine moves first
    /// if it is its turn.
    pub(super) fn begin_game(&mut self, game: Game, fx: &mut Vec<Effect>) {
        self.put_away(fx);
        self.game = game;
        if let Some(wall) = &self.wall {
            self.game.dated(wall.at(self.now));
        }
        self.clock.held = false;
        self.name_players();
        self.view = None;
        self.offers.ask_again = false;
        self.offers.draw_offer = None;
        self.search.analysis = Analysis::default();
        self.watch.paused = false;
        self.drop_search(fx);
        fx.push(Effect::NewGame);
        // The autosave holds this game from now on, not the last one.
        fx.push(Effect::Autosave);
        self.watch.queued = None;
        self.restart_clock();
        self.watch.last_move_at = self.now;
        if self.game.is_over() {
            self.announce_end();
        }
        self.maybe_search(fx);
    }

    /// Keeps a game left unfinished for another in its own file, marked abandoned (once).
    pub(super) fn put_away(&mut self, fx: &mut Vec<Effect>) {
        if !self.game.is_over() && !self.game.is_abandoned() && self.game.ply() > 0 {
            self.game.abandon();
            fx.push(Effect::Archive(Box::new(self.game.clone()), self.kept_as()));
        }
    }

    /// Where this game is kept: with the player's games, or, when no person plays in it, apart
    /// with the games they watched.
    pub fn kept_as(&self) -> GameKind {
        if Color::ALL.iter().any(|&c| self.settings.side(c).is_human()) {
            GameKind::Played
        } else {
            GameKind::Watched
        }
    }

    pub(super) fn name_players(&mut self) {
        for color in Color::ALL {
            let identified = match self.settings.side(color) {
                Side::Uci(command) => self
                    .search
                    .identified
                    .iter()
                    .find(|(c, _)| c == command)
                    .map(|(_, name)| name.clone()),
                _ => None,
            };
            let recorded = &self.game.names[crate::game::side(color)];
            // A person's name in a game that goes on (resumed, or loaded from a file) stays:
            // "Ana vs Bob" is not saved again as "Human vs Human".
            let person = self.settings.side(color).is_human()
                && self.game.ply() > 0
                && !matches!(recorded.as_str(), "" | "?" | "Human")
                && !recorded.starts_with("Knightfall")
                && !self.settings.engines.iter().any(|e| e.name == *recorded);
            if !person {
                self.game.names[crate::game::side(color)] =
                    identified.unwrap_or_else(|| self.settings.player_name(color));
            }
            // How to start an external engine again when the game is resumed.
            let tag = crate::store::settings::engine_tag(color);
            self.game.kept_tags.retain(|(name, _)| name != tag);
            if let Side::Uci(command) = self.settings.side(color) {
                self.game
                    .kept_tags
                    .push((tag.to_string(), format!("uci:{command}")));
            }
        }
    }

    /// A new game from the start position with the settings' clock.
    pub(super) fn fresh_game(&self) -> Game {
        let mut game = self
            .start_fen
            .as_deref()
            .and_then(|f| Game::from_fen(f).ok())
            .unwrap_or_default();
        game.set_time_control(self.settings.time_control());
        game
    }

    /// Plays `m` for the side to move, charging its clock the time it has used.
    pub(super) fn play_move(&mut self, m: Move, fx: &mut Vec<Effect>) {
        self.play_move_after(m, self.thinking_time(), fx);
    }

    /// Plays `m`, charging the mover's clock `thought`.
    pub(super) fn play_move_after(&mut self, m: Move, thought: Duration, fx: &mut Vec<Effect>) {
        let mover = self.game.turn();
        let ply = self.game.ply();
        let ours = self.remote.is_some() && self.friend() != Some(mover);
        // The guest's own clock never flags it: the host's word decides, with the network's
        // time allowed for.
        let spent = self.game.clocks().map(|c| {
            if ours && !self.keeps_time() {
                thought.min(c.left(mover).saturating_sub(Duration::from_millis(1)))
            } else {
                thought
            }
        });
        let uci = m.to_uci(CastlingMode::Standard).to_string();
        if self.game.play(m, spent).is_err() {
            self.say(format!("{uci} is not legal here"), Tone::Error);
            return;
        }
        if ours {
            if self.game.ply() > ply {
                self.send_move(m, ply, fx);
            } else {
                // The host's own flag fell as it moved.
                self.tell_flag(fx);
            }
        }
        // What was said about the position before (a hint, an error) is stale now.
        if !self.line.fresh {
            self.line.message = None;
        }
        if self
            .offers
            .draw_offer
            .is_some_and(|(c, ply)| c != mover && ply + 1 < self.game.ply())
        {
            self.offers.draw_offer = None;
        }
        self.after_change(fx);
    }

    /// Forgets the search under way (its reports will be stale) and stops it.
    pub(super) fn drop_search(&mut self, fx: &mut Vec<Effect>) {
        self.search.generation = next_generation();
        // A move held for its pace goes with the search that found it.
        self.watch.paced = None;
        if self.search.pending.take().is_some() {
            fx.push(Effect::Stop);
        }
    }

    /// Bookkeeping after the move list changed: new generation, clocks, engine, end of game.
    pub(super) fn after_change(&mut self, fx: &mut Vec<Effect>) {
        // The engine has moved (its check or mate included): the person hears it, if asked to.
        if self.bell_on()
            && self.settings.move_bell
            && !self.is_engine(self.game.turn())
            && self.game.ply() > 0
        {
            fx.push(Effect::Bell);
        }
        self.drop_search(fx);
        self.search.hint = None;
        // A question about the position before is void now.
        self.offers.confirm = None;
        self.clock.held = false;
        self.watch.queued = None;
        self.search.analysis.thinking = None;
        self.restart_clock();
        self.watch.last_move_at = self.now;
        if self.game.is_over() {
            self.offers.premove = None;
            self.game_over(fx);
        } else {
            fx.push(Effect::Autosave);
            self.maybe_search(fx);
            self.try_premove(fx);
        }
    }

    /// Plays the move typed while the engine thought, now that it is the person's turn.
    fn try_premove(&mut self, fx: &mut Vec<Effect>) {
        if !self.human_to_move() {
            return;
        }
        let Some(text) = self.offers.premove.take() else {
            return;
        };
        match self.game.parse_move(&text) {
            Ok(m) => self.play_move(m, fx),
            Err(e) => self.say(format!("Premove {text} cancelled: {e}"), Tone::Error),
        }
    }

    /// The game just ended: it is saved at once, autosave and archive, and announced.
    pub(super) fn game_over(&mut self, fx: &mut Vec<Effect>) {
        // However it ended (a flag, a forfeit, a move), nobody is thinking for it any more.
        self.search.analysis.thinking = None;
        fx.push(Effect::Autosave);
        fx.push(Effect::Archive(Box::new(self.game.clone()), self.kept_as()));
        self.announce_end();
    }

    pub(super) fn announce_end(&mut self) {
        if let Some(o) = self.game.outcome() {
            self.offers.ask_again = self.mode == Mode::Play;
            let ask = if self.remote.is_some() {
                " y asks for a rematch (colours swapped), r reviews this game, Ctrl-Q leaves."
            } else if self.offers.ask_again {
                " Play again with the same settings? (y/n; r reviews this game)"
            } else {
                ""
            };
            let what = if self.game.is_aborted() {
                // The side to move is the one whose flag fell.
                format!(
                    "{}'s time ran out before its first move: the game is aborted, with no \
                     result, as on lichess",
                    super::color_name(self.game.turn())
                )
            } else {
                o.announce()
            };
            self.say(format!("{what}.{ask}"), Tone::Info);
        }
    }
}
