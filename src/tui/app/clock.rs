//! The clocks as the screen sees them: thinking time of the side to move, pauses, flag falls,
//! and the watch delay that holds a quick move back.

use std::time::Duration;

use shakmaty::{Move, Position as _};

use super::{App, Effect};

impl App {
    /// Whether a tick is needed to keep the screen current (clocks running, a delay pending).
    pub fn needs_ticks(&self) -> bool {
        // A peek ends by itself.
        if self.peek_until.is_some() {
            return true;
        }
        // The wait for a friend whose link broke counts down.
        if self.link_lost() && !self.game.is_over() {
            return true;
        }
        !self.game.is_over()
            && !self.clock_stopped()
            && (self.game.clocks().is_some()
                || self.watch.queued.is_some()
                || self.watch.paced.is_some())
    }

    /// Time the side to move has used on this move so far. A move held back by the watch delay
    /// stopped its clock when it arrived: the delay is for the viewer, not charged to the player.
    pub fn thinking_time(&self) -> Duration {
        if self.first_move_free() {
            Duration::ZERO
        } else if let Some((_, thought)) = self.watch.queued {
            thought
        } else if self.clock.held {
            Duration::ZERO
        } else if self.clock_stopped() {
            self.clock.paused_spent
        } else {
            self.now.saturating_duration_since(self.clock.started)
        }
    }

    /// Whether a person to move has yet to make their first move of a game on the clock: as on
    /// lichess, a person's clock starts with their first move, so nothing runs while they read
    /// a new board (or after "play again"). An engine has nothing to read: its clock runs from
    /// its first `go`, so one that never answers loses on time like any other.
    pub fn first_move_free(&self) -> bool {
        let turn = self.game.turn();
        self.game.clocks().is_some()
            && self.game.ply() < 2
            && (!self.is_engine(turn) || self.friend() == Some(turn))
    }

    /// Paused with nothing running, or held after a finished game was reopened: the clocks
    /// stand still.
    pub(super) fn clock_stopped(&self) -> bool {
        self.watch.paused && self.search.pending.is_none() || self.clock.held || self.link_lost()
    }

    /// Starts the side to move's thinking time from zero.
    pub(super) fn restart_clock(&mut self) {
        self.clock.started = self.now;
        self.clock.paused_spent = Duration::ZERO;
        self.clock.low_time_rung = false;
    }

    /// How long a weaker level takes over `m` on the clock, as a person would: nothing for the
    /// only legal move or a recapture, about a sixtieth of what is left otherwise (more in
    /// check or for a capture), varied from move to move; full strength and untimed games take
    /// what the search took.
    pub(super) fn human_pace(&self, m: Move) -> Duration {
        let pos = self.game.position();
        let turn = pos.turn();
        let Some(clocks) = self.game.clocks() else {
            return Duration::ZERO;
        };
        // The first move of each side is played at once: a person plays it without a thought.
        if self.mode != super::Mode::Play
            || self.game.ply() < 2
            || self.settings.level(turn) >= crate::engine::strength::MAX_LEVEL
            || pos.legal_moves().len() == 1
            || m.is_capture() && self.game.moves().last().is_some_and(|l| l.to() == m.to())
        {
            return Duration::ZERO;
        }
        let left = clocks.left(turn);
        let budget = left / 60 + clocks.tc.inc / 2;
        let mut pace = budget.clamp(Duration::from_millis(300), Duration::from_secs(10));
        if pos.is_check() || m.is_capture() {
            pace = pace * 3 / 2;
        }
        // Half to one and a half times that, the same for the same position.
        let key = self.game.keys().last().copied().unwrap_or(0);
        let percent = 50 + (key % 101) as u32;
        (pace * percent / 100).min(left / 10)
    }

    /// Whether the bell is on in this game: a person against an engine, with sound on.
    pub(super) fn bell_on(&self) -> bool {
        self.settings.sound && self.mode == super::Mode::Play && self.person_vs_engine()
    }

    /// How little time left counts as low: 20 s, or a tenth of a shorter clock.
    pub fn low_time(&self) -> Option<Duration> {
        self.game
            .clocks()
            .map(|c| (c.tc.base / 10).min(Duration::from_secs(20)))
    }

    /// Restarts the clock of the side to move where the pause stopped it.
    pub(super) fn unfreeze_clock(&mut self) {
        self.clock.started = self
            .now
            .checked_sub(self.clock.paused_spent)
            .unwrap_or(self.now);
    }

    pub(super) fn on_tick(&mut self, fx: &mut Vec<Effect>) {
        if self.peek_until.is_some_and(|until| self.now >= until) {
            self.peek_until = None;
            self.say("The pieces are hidden again (^W peeks).", super::Tone::Info);
        }
        if self.game.is_over() {
            return;
        }
        self.waiting();
        // Against a friend the host's clock is the game's: the guest waits for its word.
        if self.game.clocks().is_some() && !self.clock_stopped() && self.keeps_time() {
            let turn = self.game.turn();
            // Engines get a little grace: their own time manager keeps them inside the clock, and
            // the move's arrival is what counts. A friend's move has the network to cross.
            let grace = if self.friend() == Some(turn) {
                super::LAG_CAP
            } else if self.is_engine(turn) {
                Duration::from_millis(200)
            } else {
                Duration::ZERO
            };
            let spent = self.thinking_time();
            if self.game.is_flagged(turn, spent.saturating_sub(grace)) {
                if self.bell_on() {
                    fx.push(Effect::Bell);
                }
                self.game.flag(turn);
                self.tell_flag(fx);
                self.drop_search(fx);
                self.game_over(fx);
                return;
            }
            // The person's time running low: one bell a move.
            if let (Some(low), Some(clocks)) = (self.low_time(), self.game.clocks())
                && self.bell_on()
                && !self.is_engine(turn)
                && !self.clock.low_time_rung
                && clocks.left(turn).saturating_sub(spent) < low
            {
                self.clock.low_time_rung = true;
                fx.push(Effect::Bell);
            }
        }
        // A weaker level's move, once it has taken a person's time.
        if let Some((_, pace)) = self.watch.paced
            && self.thinking_time() >= pace
            && !self.clock_stopped()
            && let Some((m, pace)) = self.watch.paced.take()
        {
            self.play_move_after(m, pace, fx);
            return;
        }
        if self.watch.queued.is_some()
            && self.now.saturating_duration_since(self.watch.last_move_at) >= self.watch.min_delay
            && !self.watch.paused
            || self.watch.queued.is_some() && self.watch.step
        {
            self.watch.step = false;
            if let Some((m, thought)) = self.watch.queued.take() {
                self.play_move_after(m, thought, fx);
            }
        }
    }
}
