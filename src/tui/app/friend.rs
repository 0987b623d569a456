//! A game against a friend at another Knightfall: their moves, offers, answers and chat as
//! they come, each checked against the game before it counts; the player's own sent to them;
//! the host's clock the game's, with the network's time up to a cap not charged to the mover.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Position as _};

use super::{App, Confirm, Effect, Tone};
use crate::net::channel::Role;
use crate::net::message::{Colour, Message, Offer};
use crate::net::peer::PeerEvent;

/// The most network time a move is not charged for (lichess's compensation, capped): a
/// guest's move is charged what the guest measured, but never less than what the host
/// measured less this.
pub const LAG_CAP: Duration = Duration::from_millis(500);

/// How long the one left waits for a friend whose link broke before the game may be claimed.
pub const LINK_WAIT: Duration = Duration::from_secs(120);

/// The lines of chat kept.
const CHAT_KEPT: usize = 100;

/// The friend and the link to them, as the game keeps them.
#[derive(Clone, Debug)]
pub struct Remote {
    /// Whether this side hosts the game (its clock is the game's) or joined it.
    pub role: Role,
    /// The friend's colour.
    pub colour: Color,
    /// Why the link is gone, once it is.
    pub lost: Option<String>,
    /// When it went (on the events' clock).
    pub lost_at: Option<std::time::Instant>,
    /// The wait for the friend is over and the player was told so.
    pub waited: bool,
    /// The link is back and the friend's record of the game is awaited.
    resync: bool,
    /// A rematch is agreed and the host's terms for it are awaited (the guest).
    rematch: bool,
    /// The friend said they were leaving (quit), not merely lost.
    pub left: bool,
    /// The player's offer waiting for the friend's answer, with the ply it was made at.
    pub offered: Option<(Offer, usize)>,
    /// The friend's offer waiting for the player's answer.
    pub asked: Option<(Offer, usize)>,
    /// The chat so far, oldest first: who said it (None: the player) and what.
    pub chat: Vec<(Option<String>, String)>,
}

impl Remote {
    /// A fresh link to a friend who plays `colour`.
    pub fn new(role: Role, colour: Color) -> Remote {
        Remote {
            role,
            colour,
            lost: None,
            lost_at: None,
            waited: false,
            resync: false,
            rematch: false,
            left: false,
            offered: None,
            asked: None,
            chat: Vec::new(),
        }
    }

    fn said(&mut self, who: Option<String>, text: String) {
        self.chat.push((who, text));
        if self.chat.len() > CHAT_KEPT {
            self.chat.remove(0);
        }
    }
}

/// What an offer is called in a sentence.
fn offer_name(what: Offer) -> &'static str {
    match what {
        Offer::Draw => "a draw",
        Offer::Takeback => "to take back a move",
        Offer::Rematch => "a rematch",
    }
}

impl App {
    /// The friend's colour, in a game against a friend.
    pub fn friend(&self) -> Option<Color> {
        self.remote.as_ref().map(|r| r.colour)
    }

    /// The friend's name as the screen says it.
    fn friend_name(&self) -> String {
        match self.friend() {
            Some(c) => self.game.names[crate::game::side(c)].clone(),
            None => "your friend".into(),
        }
    }

    /// Who the person plays, as a sentence names them: the friend, or the engine.
    pub(super) fn opponent_word(&self) -> String {
        match self.friend() {
            Some(_) => self.friend_name(),
            None => "the engine".into(),
        }
    }

    /// Whether the link to the friend is gone (the clocks stand still then).
    pub fn link_lost(&self) -> bool {
        self.remote.as_ref().is_some_and(|r| r.lost.is_some())
    }

    /// Whether this side should look for the friend again now the link is gone: not a guest
    /// whose host quit, which comes back (if it does) with a new code that calling with the
    /// old one would spend.
    pub fn calls_back(&self) -> bool {
        self.remote
            .as_ref()
            .is_some_and(|r| r.role == Role::Host || !r.left)
    }

    /// Whether this side's clock is the game's: not the guest's.
    pub(super) fn keeps_time(&self) -> bool {
        self.remote.as_ref().is_none_or(|r| r.role == Role::Host)
    }

    /// Tells the friend about the player's move just played (`ply` from 0).
    pub(super) fn send_move(&mut self, m: shakmaty::Move, ply: usize, fx: &mut Vec<Effect>) {
        let Some(remote) = self.remote.as_mut() else {
            return;
        };
        remote.offered = None;
        remote.asked = None;
        let mover = !self.game.turn();
        let clock_ms = self
            .game
            .clocks()
            .map(|c| crate::net::record::millis(c.left(mover)));
        // Both sides keep the clock as the message carries it, to the millisecond.
        if let Some(ms) = clock_ms {
            self.game.set_clock_after(ply, Duration::from_millis(ms));
        }
        fx.push(Effect::Send(Message::Move {
            ply: wire(ply),
            uci: m.to_uci(CastlingMode::Standard),
            clock_ms,
        }));
    }

    /// What the friend did, or the link gone.
    pub(super) fn on_peer(&mut self, event: PeerEvent, fx: &mut Vec<Effect>) {
        if self.remote.is_none() {
            return;
        }
        match event {
            PeerEvent::Lost(why) => self.lose_link(why),
            PeerEvent::Back => self.link_back(fx),
            PeerEvent::Message(message) => self.on_message(message, fx),
        }
    }

    fn on_message(&mut self, message: Message, fx: &mut Vec<Effect>) {
        let name = self.friend_name();
        let host = self.keeps_time();
        match message {
            Message::Move { ply, uci, clock_ms } => self.friend_moved(ply, &uci, clock_ms, fx),
            Message::Offer(what, ply) => self.friend_offers(what, ply as usize, fx),
            Message::Accept(what, ply) => self.friend_answers(what, ply as usize, true, fx),
            Message::Decline(what, ply) => self.friend_answers(what, ply as usize, false, fx),
            Message::Resign => {
                if let Some(colour) = self.friend()
                    && !self.game.is_over()
                {
                    self.game.resign(colour);
                    self.end_now(fx);
                }
            }
            Message::Chat(text) => {
                self.say(format!("{name}: {text}"), Tone::Info);
                if let Some(remote) = self.remote.as_mut() {
                    remote.said(Some(name), text);
                }
            }
            Message::Clock { ply, ms } if !host => {
                let me = self.friend().map(|c| !c);
                let ply = ply as usize;
                // Only the player's own moves have their clock set by the host.
                if ply < self.game.ply() && Some(self.game.position_at(ply).turn()) == me {
                    self.host_counted(ply, ms, fx);
                }
            }
            Message::Flag(ply) if !host => {
                let ply = ply as usize;
                if self.game.is_over() || ply > self.game.ply() {
                    return;
                }
                // A move of the player's that crossed the host's word does not count.
                while self.game.ply() > ply {
                    self.game.undo();
                }
                let turn = self.game.turn();
                self.game.flag(turn);
                self.end_now(fx);
            }
            Message::Bye => {
                self.lose_link(format!("{name} left"));
                if let Some(remote) = self.remote.as_mut() {
                    remote.left = true;
                }
            }
            Message::Clock { .. } | Message::Flag(_) => {
                self.cut("sent a clock only the host may set", fx)
            }
            // A new link's greeting: the name again, the host's terms (the same game, or it
            // is another's), then the record.
            Message::Start { id, .. }
                if !host && self.remote.as_ref().is_some_and(|r| r.rematch) =>
            {
                self.rematch(Some(id), fx)
            }
            Message::Hello { .. } if self.resyncing() => {}
            Message::Start { id, .. } if self.resyncing() && !host => {
                if crate::net::record::Seat::of(&self.game).is_none_or(|s| s.id != id) {
                    self.cut("came back with another game", fx);
                }
            }
            Message::History(theirs) if self.resyncing() => self.resync(&theirs, fx),
            Message::Hello { .. }
            | Message::Start { .. }
            | Message::History(_)
            | Message::Ping(_)
            | Message::Pong(_) => self.cut("started the game again in the middle of it", fx),
        }
    }

    /// The friend's move `ply`: checked (the ply, their turn, a legal move) before it is
    /// played, charged on the host's clock.
    fn friend_moved(
        &mut self,
        ply: u32,
        uci: &UciMove,
        clock_ms: Option<u64>,
        fx: &mut Vec<Effect>,
    ) {
        let Some(colour) = self.friend() else {
            return;
        };
        if self.game.is_over() {
            // A move that crossed the end (a flag, a resignation) on the way.
            return;
        }
        if ply as usize != self.game.ply() || self.game.turn() != colour {
            return self.cut(&format!("played {uci} out of turn"), fx);
        }
        let Ok(m) = uci.to_move(self.game.position()) else {
            return self.cut(&format!("played {uci}, which is not legal here"), fx);
        };
        if let Some(remote) = self.remote.as_mut() {
            remote.offered = None;
            remote.asked = None;
        }
        let ply = self.game.ply();
        if self.keeps_time() {
            let spent = self.charge(colour, clock_ms);
            self.play_move_after(m, spent, fx);
            if self.game.ply() == ply {
                // The move came after the flag fell: the host's clock says so.
                fx.push(Effect::Send(Message::Flag(wire(ply))));
            } else if let Some(c) = self.game.clocks() {
                fx.push(Effect::Send(Message::Clock {
                    ply: wire(ply),
                    ms: crate::net::record::millis(c.left(colour)),
                }));
            }
        } else {
            // The host's move is charged what leaves its clock as the host counted it (never
            // its whole time: the host's word on a flag comes as a message of its own).
            let spent = match (self.game.clocks(), clock_ms) {
                (Some(c), Some(ms)) => (c.left(colour) + c.tc.inc)
                    .saturating_sub(Duration::from_millis(ms))
                    .min(c.left(colour).saturating_sub(Duration::from_millis(1))),
                _ => Duration::ZERO,
            };
            self.play_move_after(m, spent, fx);
            if let Some(ms) = clock_ms
                && self.game.ply() > ply
                && self
                    .game
                    .clocks()
                    .is_some_and(|c| c.left(colour).as_millis() != u128::from(ms))
            {
                self.host_counted(ply, ms, fx);
            }
        }
    }

    /// The guest keeps the host's count of the clock after move `ply`, in the autosave and,
    /// for a game that ended on it, in the game kept.
    fn host_counted(&mut self, ply: usize, ms: u64, fx: &mut Vec<Effect>) {
        self.game.set_clock_after(ply, Duration::from_millis(ms));
        fx.push(Effect::Autosave);
        if self.game.is_over() {
            fx.push(Effect::Archive(Box::new(self.game.clone()), self.kept_as()));
        }
    }

    /// What the host charges the guest for a move: what the guest says it thought (from the
    /// time it reports left), but at least the time the host waited less [`LAG_CAP`]; the
    /// first move of each side is free.
    fn charge(&self, colour: Color, clock_ms: Option<u64>) -> Duration {
        let waited = self.thinking_time();
        let Some(clocks) = self.game.clocks() else {
            return waited;
        };
        if self.first_move_free() {
            return Duration::ZERO;
        }
        let claimed = clock_ms.map_or(waited, |ms| {
            (clocks.left(colour) + clocks.tc.inc).saturating_sub(Duration::from_millis(ms))
        });
        claimed.min(waited).max(waited.saturating_sub(LAG_CAP))
    }

    /// The friend offers a draw or a takeback at `ply`: an offer from another ply is stale
    /// and goes unanswered (the move that crossed it answers it).
    fn friend_offers(&mut self, what: Offer, ply: usize, fx: &mut Vec<Effect>) {
        // A rematch is offered once the game is over, the rest while it goes on.
        if self.game.is_over() != (what == Offer::Rematch) || ply != self.game.ply() {
            return;
        }
        let name = self.friend_name();
        if what == Offer::Takeback
            && self.takeback_plies(!self.friend().unwrap_or(Color::White)) == 0
        {
            return self.cut("asked to take back a move it has not made", fx);
        }
        let both = self
            .remote
            .as_ref()
            .is_some_and(|r| r.offered == Some((what, ply)));
        if both {
            // Both asked for the same thing at once: it is agreed.
            fx.push(Effect::Send(Message::Accept(what, wire(ply))));
            return self.agreed(what, !self.friend().unwrap_or(Color::White), fx);
        }
        if let Some(remote) = self.remote.as_mut() {
            remote.asked = Some((what, ply));
        }
        let question = match what {
            Offer::Draw => format!("{name} offers a draw: accept? (y/n)"),
            Offer::Takeback => format!("{name} asks to take back their last move: allow? (y/n)"),
            Offer::Rematch => format!(
                "{name} offers a rematch, you with {}: play? (y/n)",
                super::color_name(self.friend().unwrap_or(Color::White))
            ),
        };
        self.offers.confirm = Some(Confirm::Friend(what));
        self.say(question, Tone::Info);
    }

    /// The friend answers the player's offer made at `ply`.
    fn friend_answers(&mut self, what: Offer, ply: usize, yes: bool, fx: &mut Vec<Effect>) {
        let waiting = self
            .remote
            .as_ref()
            .is_some_and(|r| r.offered == Some((what, ply)));
        if !waiting || ply != self.game.ply() || self.game.is_over() != (what == Offer::Rematch) {
            return;
        }
        if let Some(remote) = self.remote.as_mut() {
            remote.offered = None;
        }
        let name = self.friend_name();
        if yes {
            let me = !self.friend().unwrap_or(Color::White);
            self.agreed(what, me, fx);
        } else {
            self.say(format!("{name} declines {}.", offer_name(what)), Tone::Info);
        }
    }

    /// The player answers the friend's offer (y or n).
    pub(super) fn answer_friend(&mut self, what: Offer, yes: bool, fx: &mut Vec<Effect>) {
        let Some((asked, ply)) = self.remote.as_mut().and_then(|r| r.asked.take()) else {
            return;
        };
        if asked != what || ply != self.game.ply() {
            return;
        }
        if yes {
            fx.push(Effect::Send(Message::Accept(what, wire(ply))));
            let them = self.friend().unwrap_or(Color::White);
            self.agreed(what, them, fx);
        } else {
            fx.push(Effect::Send(Message::Decline(what, wire(ply))));
            self.say(format!("You decline {}.", offer_name(what)), Tone::Info);
        }
    }

    /// An offer both sides agreed to, made by `by`.
    fn agreed(&mut self, what: Offer, by: Color, fx: &mut Vec<Effect>) {
        match what {
            // The host sets the new game up; the guest waits for its terms.
            Offer::Rematch if self.keeps_time() => self.rematch(None, fx),
            Offer::Rematch => {
                if let Some(remote) = self.remote.as_mut() {
                    remote.rematch = true;
                }
                self.say("Rematch agreed: the host sets it up...", Tone::Info);
            }
            Offer::Draw => {
                self.game.agree_draw();
                self.end_now(fx);
            }
            Offer::Takeback => {
                for _ in 0..self.takeback_plies(by) {
                    self.game.undo();
                }
                self.view = None;
                self.offers.premove = None;
                if let Some(remote) = self.remote.as_mut() {
                    remote.offered = None;
                    remote.asked = None;
                }
                self.restart_clock();
                fx.push(Effect::Autosave);
                self.say(
                    format!("{} move taken back.", super::color_name(by)),
                    Tone::Info,
                );
            }
        }
    }

    /// The next game, the colours swapped, on the same clock: named by the host (`id` none),
    /// which tells the guest its terms, or by the host's word (`id`, the guest).
    fn rematch(&mut self, id: Option<String>, fx: &mut Vec<Effect>) {
        let Some(seat) = crate::net::record::Seat::of(&self.game) else {
            return self.say("This game has no record of its own to follow.", Tone::Error);
        };
        let host = id.is_none();
        let id = id.unwrap_or_else(crate::net::record::new_id);
        let guest = match seat.guest {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        };
        let friend = match self.remote.as_mut() {
            Some(remote) => {
                remote.rematch = false;
                remote.offered = None;
                remote.asked = None;
                remote.colour = !remote.colour;
                remote.colour
            }
            None => return,
        };
        std::mem::swap(&mut self.settings.white, &mut self.settings.black);
        let mut game = self.fresh_game();
        crate::net::record::Seat {
            id: id.clone(),
            role: seat.role,
            guest,
        }
        .mark(&mut game);
        if host {
            fx.push(Effect::Send(Message::Start {
                id,
                guest,
                clock: game.clocks().map(|c| c.tc.to_string()),
                fen: game.start_fen().map(String::from),
            }));
        }
        self.flipped = friend == Color::White;
        self.begin_game(game, fx);
        let name = self.friend_name();
        self.say(
            format!(
                "Rematch: you play {} against {name}.",
                super::color_name(!friend)
            ),
            Tone::Info,
        );
    }

    /// The plies a takeback `by` a side undoes: its last move, and the reply to it if there is
    /// one (as lichess does); none when it has not moved.
    fn takeback_plies(&self, by: Color) -> usize {
        let ply = self.game.ply();
        let last_by = |p: usize| self.game.position_at(p).turn() == by;
        if ply >= 1 && last_by(ply - 1) {
            1
        } else if ply >= 2 && last_by(ply - 2) {
            2
        } else {
            0
        }
    }

    /// The player offers the friend a draw (or accepts the friend's).
    pub(super) fn offer_friend(&mut self, what: Offer, fx: &mut Vec<Effect>) {
        if self.game.is_over() != (what == Offer::Rematch) {
            return self.say(
                if what == Offer::Rematch {
                    "A rematch is for when the game is over."
                } else {
                    "The game is over."
                },
                Tone::Error,
            );
        }
        if self.link_lost() {
            if what == Offer::Draw {
                return self.end_left(false, fx);
            }
            return self.say(
                "The link to your friend is gone: nobody can answer.",
                Tone::Error,
            );
        }
        let ply = self.game.ply();
        let me = !self.friend().unwrap_or(Color::White);
        if what == Offer::Takeback && self.takeback_plies(me) == 0 {
            return self.say("You have no move to take back.", Tone::Error);
        }
        if self
            .remote
            .as_ref()
            .is_some_and(|r| r.asked == Some((what, ply)))
        {
            // The friend offered the same: this is the player's yes.
            self.offers.confirm = None;
            return self.answer_friend(what, true, fx);
        }
        if self
            .remote
            .as_ref()
            .is_some_and(|r| r.offered == Some((what, ply)))
        {
            return self.say("Your offer is waiting for the answer.", Tone::Info);
        }
        if let Some(remote) = self.remote.as_mut() {
            remote.offered = Some((what, ply));
        }
        fx.push(Effect::Send(Message::Offer(what, wire(ply))));
        let name = self.friend_name();
        self.say(
            format!(
                "You ask {name} for {}; waiting for the answer.",
                offer_name(what)
            ),
            Tone::Info,
        );
    }

    /// The player's line of chat, sent and kept.
    pub(super) fn chat(&mut self, text: &str, fx: &mut Vec<Effect>) {
        let text = crate::net::message::clean(text, crate::net::message::MAX_CHAT);
        if text.is_empty() {
            return self.say("say TEXT sends a line to your friend.", Tone::Error);
        }
        if self.link_lost() {
            return self.say(
                "The link to your friend is gone: the line was not sent.",
                Tone::Error,
            );
        }
        fx.push(Effect::Send(Message::Chat(text.clone())));
        if let Some(remote) = self.remote.as_mut() {
            remote.said(None, text);
        }
        self.line.message = None;
    }

    /// The player resigned: the friend is told.
    pub(super) fn tell_resigned(&self, fx: &mut Vec<Effect>) {
        if self.remote.is_some() {
            fx.push(Effect::Send(Message::Resign));
        }
    }

    /// The host's clock flagged the side to move: the guest is told.
    pub(super) fn tell_flag(&self, fx: &mut Vec<Effect>) {
        if self.remote.is_some() && self.keeps_time() {
            fx.push(Effect::Send(Message::Flag(wire(self.game.ply()))));
        }
    }

    /// The link is gone: the clocks stop where they stood and the game is kept as it is.
    fn lose_link(&mut self, why: String) {
        if self.link_lost() {
            return;
        }
        if !self.clock_stopped() {
            self.clock.paused_spent = self.thinking_time();
        }
        let name = self.friend_name();
        let now = self.now;
        if let Some(remote) = self.remote.as_mut() {
            remote.lost = Some(why.clone());
            remote.lost_at = Some(now);
            remote.offered = None;
            remote.asked = None;
        }
        if matches!(self.offers.confirm, Some(Confirm::Friend(_))) {
            self.offers.confirm = None;
        }
        if self.game.is_over() {
            self.say(format!("{name} is gone ({why})."), Tone::Info);
        } else {
            let again = if self.keeps_time() {
                "knightfall host --resume"
            } else {
                "knightfall join --resume CODE ADDRESS"
            };
            self.say(
                format!(
                    "The link to {name} is lost ({why}); the clocks stopped until {name} is \
                     back. The game is kept: Play a friend on the home screen, or `{again}`, \
                     goes on with it later."
                ),
                Tone::Error,
            );
        }
    }

    /// The friend is back on a new link: the clocks go on once the two records agree, each
    /// side sending its own.
    fn link_back(&mut self, fx: &mut Vec<Effect>) {
        let name = self.friend_name();
        if let Some(remote) = self.remote.as_mut() {
            remote.lost = None;
            remote.lost_at = None;
            remote.waited = false;
            remote.resync = true;
            remote.left = false;
        }
        // The greeting a Knightfall started again expects (see `meet::greet_guest` and
        // `greet_host`): the host's name, its terms and record; the guest's name and record.
        let me = !self.friend().unwrap_or(Color::White);
        fx.push(Effect::Send(Message::Hello {
            name: self.game.names[crate::game::side(me)].clone(),
        }));
        if self.keeps_time()
            && let Some(seat) = crate::net::record::Seat::of(&self.game)
        {
            fx.push(Effect::Send(Message::Start {
                id: seat.id,
                guest: seat.guest,
                clock: self.game.clocks().map(|c| c.tc.to_string()),
                fen: self.game.start_fen().map(String::from),
            }));
        }
        fx.push(Effect::Send(Message::History(crate::net::record::history(
            &self.game,
        ))));
        self.unfreeze_clock();
        self.say(format!("{name} is back: play on."), Tone::Info);
    }

    /// Whether a new link's greeting is under way.
    fn resyncing(&self) -> bool {
        self.remote.as_ref().is_some_and(|r| r.resync)
    }

    /// The friend's record after a new link: the game goes on from the longer record when it
    /// continues the other (a move sent as the link broke is kept), the host's otherwise.
    fn resync(&mut self, theirs: &crate::net::meet::History, fx: &mut Vec<Effect>) {
        use crate::net::meet::merged;
        if let Some(remote) = self.remote.as_mut() {
            remote.resync = false;
        }
        let mine = crate::net::record::history(&self.game);
        let agreed = if self.keeps_time() {
            merged(&mine, theirs)
        } else {
            merged(theirs, &mine)
        };
        let common = mine
            .iter()
            .zip(&agreed)
            .take_while(|(a, b)| a.0 == b.0)
            .count();
        if common == mine.len() && agreed.len() == mine.len() {
            return;
        }
        let Ok(game) = crate::net::record::replay(
            {
                let mut game = self.game.clone();
                while game.ply() > common {
                    game.undo();
                }
                game
            },
            &agreed[common..].to_vec(),
        ) else {
            return self.cut("sent a record of the game that does not hold together", fx);
        };
        self.game = game;
        self.view = None;
        self.offers.premove = None;
        self.after_change(fx);
    }

    /// How long the player still waits for a friend whose link broke; none once the wait is
    /// over (or the link is there).
    pub fn wait_left(&self) -> Option<Duration> {
        let at = self.remote.as_ref()?.lost_at?;
        LINK_WAIT
            .checked_sub(self.now.saturating_duration_since(at))
            .filter(|d| !d.is_zero())
    }

    /// Whether the player may end the game the friend left: the link is gone, the wait over.
    fn may_claim(&self) -> bool {
        self.link_lost() && !self.game.is_over() && self.wait_left().is_none()
    }

    /// The time passes while the link is gone: once the wait is over the player is told what
    /// they may do.
    pub(super) fn waiting(&mut self) {
        if self.may_claim() && self.remote.as_ref().is_some_and(|r| !r.waited) {
            if let Some(remote) = self.remote.as_mut() {
                remote.waited = true;
            }
            let name = self.friend_name();
            self.say(
                format!(
                    "{name} has been gone {}:{:02}: claim takes the win, draw calls it a draw, \
                     or wait on.",
                    LINK_WAIT.as_secs() / 60,
                    LINK_WAIT.as_secs() % 60
                ),
                Tone::Info,
            );
        }
    }

    /// `claim` (`win`) or `draw` after the wait: the game ends for the one left.
    pub(super) fn end_left(&mut self, win: bool, fx: &mut Vec<Effect>) {
        if self.remote.is_none() {
            return self.say(
                "claim is for a game against a friend who left.",
                Tone::Error,
            );
        }
        if self.game.is_over() {
            return self.say("The game is over.", Tone::Error);
        }
        if !self.link_lost() {
            return self.say("Your friend is here: play on.", Tone::Error);
        }
        if let Some(left) = self.wait_left() {
            let name = self.friend_name();
            return self.say(
                format!(
                    "{name} may come back: {}:{:02} more before the game may be ended.",
                    left.as_secs() / 60,
                    left.as_secs() % 60
                ),
                Tone::Error,
            );
        }
        let me = !self.friend().unwrap_or(Color::White);
        self.game.left(win.then_some(me));
        self.end_now(fx);
    }

    /// The friend broke the rules (`what` they did): the link is closed, the game kept.
    fn cut(&mut self, what: &str, fx: &mut Vec<Effect>) {
        fx.push(Effect::HangUp);
        let name = self.friend_name();
        let why = format!("{name}'s Knightfall {what}: disconnected");
        self.lose_link(why.clone());
        // No way back is kept for a side that broke the rules: nothing to wait for.
        if let Some(remote) = self.remote.as_mut() {
            remote.lost_at = None;
            remote.waited = true;
        }
        if !self.game.is_over() {
            self.say(
                format!("{why}. claim takes the win, draw calls it a draw; the game is kept."),
                Tone::Error,
            );
        }
    }
}

/// A ply as a message carries it.
fn wire(ply: usize) -> u32 {
    u32::try_from(ply).unwrap_or(u32::MAX)
}
