//! The runner's part in meeting the friend: the wait the friend screen asks for runs on a
//! thread of its own, its news goes to the screen, and once the two have met the game at the
//! bottom plays against the friend, the screens over it closed.

use std::time::Instant;

use super::{Front, Runner, Step};
use crate::net::channel::Role;
use crate::net::meet::{self, Met};
use crate::net::meeting::{self, Handed, Meeting, News};
use crate::net::peer::{HEARTBEAT, Peer, SILENCE};
use crate::store::Unfinished;
use crate::store::settings::Settings;
use crate::tui::app::seat;
use crate::tui::event::Event;
use crate::tui::screen::{Action, Heard, Meet};

/// A wait for the friend going on, and what sitting down to the game will need.
pub(super) struct Waiting {
    /// The wait; dropping it calls the wait off.
    _meeting: Meeting,
    /// This side's part once met.
    role: Role,
    /// The game left unfinished to go on with, if any.
    left: Option<Unfinished>,
    /// The settings the game is played with (the friend's side and clock set once met).
    settings: Settings,
    /// The name the friend sees.
    name: String,
}

impl Runner {
    /// Starts the wait `meet` asks for; what the screen should hear when it could not start.
    pub(super) fn meet(&mut self, meet: Meet) -> Option<Action> {
        let settings = self.game()?.settings.clone();
        let name = seat::player_name(None, &settings);
        let (news, done) = (self.tx.clone(), self.tx.clone());
        let news = move |n: News| {
            let _ = news.send(Event::News(n));
        };
        let done = move |outcome| {
            let _ = done.send(Event::Met(meeting::hand(outcome)));
        };
        let failed = |why: String| Some(Action::Meeting(Heard::Failed(why)));
        // A new wait replaces one going on (its port free again first).
        self.meeting = None;
        let (meeting, role, left) = match meet {
            Meet::Host {
                port,
                guest,
                clock,
                left,
            } => {
                let listener = match meet::listen(port) {
                    Ok(listener) => listener,
                    Err(e) => return failed(format!("Could not listen on port {port}: {e}")),
                };
                let terms = seat::terms(left.as_ref().map(|u| &u.game), guest, Some(clock), None);
                (
                    Meeting::host(listener, name.clone(), terms, news, done),
                    Role::Host,
                    left,
                )
            }
            Meet::Join {
                code,
                address,
                left,
            } => {
                let offered = seat::offered(left.as_ref().map(|u| &u.game));
                (
                    Meeting::guest(address, code, name.clone(), offered, done),
                    Role::Guest,
                    left,
                )
            }
        };
        match meeting {
            Ok(meeting) => {
                self.meeting = Some(Waiting {
                    _meeting: meeting,
                    role,
                    left,
                    settings,
                    name,
                });
                None
            }
            Err(e) => failed(format!("Could not start waiting for your friend: {e}")),
        }
    }

    /// What the screen waiting should hear of `news`.
    pub(super) fn heard(&self, news: News) -> Action {
        Action::Meeting(match news {
            News::Listening { code, port } => Heard::Invite {
                code,
                port,
                addresses: meet::addresses(port),
            },
            other => Heard::Note(other.said()),
        })
    }

    /// The wait is over: the game below plays against the friend met, the screens over it
    /// closed; or the screen waiting hears why not.
    pub(super) fn met(&mut self, handed: &Handed, now: Instant) -> Step {
        // A wait called off meanwhile has nobody to sit down.
        let (Some(outcome), Some(waiting)) = (meeting::take(handed), self.meeting.take()) else {
            return Step::Continue;
        };
        let (met, redial) = match outcome {
            Ok(met) => met,
            Err(why) => return self.tell_front(Action::Meeting(Heard::Failed(why)), now),
        };
        let Waiting {
            role,
            left,
            settings,
            name,
            ..
        } = waiting;
        let seated = match seat::seat(&met, role, left, settings, name) {
            Ok(seated) => seated,
            Err(why) => return self.tell_front(Action::Meeting(Heard::Failed(why)), now),
        };
        let Met { channel, .. } = met;
        let peer = match Peer::start(channel, HEARTBEAT, SILENCE) {
            Ok(peer) => peer,
            Err(e) => {
                let why = format!("The link to your friend did not start: {e}");
                return self.tell_front(Action::Meeting(Heard::Failed(why)), now);
            }
        };
        // A friend played before is told this side left for another game.
        if let Some(old) = self.peer.take() {
            let _ = old.send(&crate::net::message::Message::Bye);
        }
        self.door = None;
        self.stack.truncate(1);
        let fx = match self.stack.first_mut() {
            Some(Front::Game(app)) => app.sit_down(seated),
            _ => return Step::Continue,
        };
        self.connect(peer);
        self.redial(redial);
        if self.run_effects(fx, now) {
            Step::Quit
        } else {
            Step::Continue
        }
    }

    /// Applies `action` to the screen in front.
    fn tell_front(&mut self, action: Action, now: Instant) -> Step {
        if self.apply(action, now) {
            Step::Quit
        } else {
            Step::Continue
        }
    }
}
