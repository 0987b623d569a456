//! Sitting down to a game against a friend, as `knightfall host` / `join` and the friend
//! screen both do it: the terms the host sets (or the game left, when it resumes one), the
//! name the friend sees, and, once the two have met, the game both agreed on with this side's
//! players and clock.

use std::path::PathBuf;

use shakmaty::Color;

use super::{Remote, Settings, Side};
use crate::game::Game;
use crate::net::channel::Role;
use crate::net::meet::{Met, Terms};
use crate::net::message::Colour;
use crate::net::record::{self, Seat};
use crate::store::{Paths, Unfinished};

/// The unfinished games against a friend among `games`, each with its seat.
pub fn friend_games(games: Vec<Unfinished>) -> Vec<(Unfinished, Seat)> {
    games
        .into_iter()
        .filter_map(|u| {
            let seat = Seat::of(&u.game)?;
            Some((u, seat))
        })
        .collect()
}

/// The last game against a friend this side played as `role` that did not end, with its
/// seat.
pub fn left_game(paths: &Paths, role: Role) -> Result<(Unfinished, Seat), String> {
    friend_games(crate::store::unfinished(paths, None))
        .into_iter()
        .find(|(_, seat)| seat.role == role)
        .ok_or_else(|| {
            format!(
                "no unfinished game you {} to resume in {}",
                match role {
                    Role::Host => "hosted",
                    Role::Guest => "joined",
                },
                paths.data.display()
            )
        })
}

/// The host's terms: the game `left` as it was, whatever else is asked, or a new game with
/// the guest playing `guest` (`None`: drawn at random), on `clock`, from `fen`.
pub fn terms(
    left: Option<&Game>,
    guest: Option<Colour>,
    clock: Option<String>,
    fen: Option<String>,
) -> Terms {
    match left.map(|game| (game, Seat::of(game))) {
        Some((game, Some(seat))) => Terms {
            guest: seat.guest,
            clock: game.clocks().map(|c| c.tc.to_string()),
            fen: game.start_fen().map(String::from),
            id: seat.id,
            history: record::history(game),
        },
        _ => Terms {
            guest: guest.unwrap_or_else(|| {
                if crate::rng::Rng::from_entropy().next_u64().is_multiple_of(2) {
                    Colour::White
                } else {
                    Colour::Black
                }
            }),
            clock: clock.filter(|c| !c.is_empty()),
            fen,
            id: record::new_id(),
            history: Vec::new(),
        },
    }
}

/// The name and moves of the game `left`, as a guest offers them to the host.
pub fn offered(left: Option<&Game>) -> Option<(String, crate::net::meet::History)> {
    let game = left?;
    Some((Seat::of(game)?.id, record::history(game)))
}

/// The name the friend sees: the flag's, the config file's, the login's, in that order.
pub fn player_name(flag: Option<&str>, settings: &Settings) -> String {
    let clean = |s: &str| crate::net::message::clean(s, crate::net::message::MAX_NAME);
    [
        flag.map(clean),
        Some(clean(&settings.name)),
        std::env::var("USER").ok().map(|u| clean(&u)),
    ]
    .into_iter()
    .flatten()
    .find(|n| !n.is_empty())
    .unwrap_or_else(|| "Friend".into())
}

/// A game against a friend, ready to play.
#[derive(Clone, Debug)]
pub struct Seated {
    /// The game, its moves so far played.
    pub game: Game,
    /// The players (the friend on their side) and the clock.
    pub settings: Settings,
    /// The friend as the game sees them.
    pub remote: Remote,
    /// The autosave the game was resumed from, which this side's own replaces.
    pub resumed_from: Option<PathBuf>,
}

/// The game `met` is for, as this side (`role`, called `name`) plays it with `settings`: from
/// the record both agreed on, `left` going on when it was resumed (its date and tags kept).
pub fn seat(
    met: &Met,
    role: Role,
    left: Option<Unfinished>,
    mut settings: Settings,
    name: String,
) -> Result<Seated, String> {
    let mine = left.as_ref().map(|u| record::history(&u.game));
    let moves = match (role, &left, mine) {
        (Role::Host, _, mine) => crate::net::meet::merged(&mine.unwrap_or_default(), &met.history),
        (Role::Guest, Some(u), Some(mine)) => {
            if Seat::of(&u.game).is_none_or(|seat| seat.id != met.id) {
                return Err(
                    "the host started another game, not the one you left: ask your \
                            friend to resume it as host"
                        .into(),
                );
            }
            crate::net::meet::merged(&met.history, &mine)
        }
        (Role::Guest, ..) => met.history.clone(),
    };
    let guest = match met.guest {
        Colour::White => Color::White,
        Colour::Black => Color::Black,
    };
    let friend = match role {
        Role::Host => guest,
        Role::Guest => !guest,
    };
    let them = Side::Friend(met.name.clone());
    (settings.white, settings.black) = match friend {
        Color::White => (them, Side::Human),
        Color::Black => (Side::Human, them),
    };
    settings.random_colour = false;
    settings.name = name;
    settings.tc = met.clock.clone().unwrap_or_default();
    let (game, resumed_from) = match left {
        Some(Unfinished { path, mut game }) => {
            while game.undo().is_some() {}
            (game, Some(path))
        }
        None => {
            let mut game = match &met.fen {
                Some(fen) => {
                    Game::from_fen(fen).map_err(|e| format!("the host's position: {e}"))?
                }
                None => Game::new(),
            };
            game.set_time_control(settings.time_control());
            (game, None)
        }
    };
    let mut game = record::replay(game, &moves)
        .map_err(|why| format!("the game's record does not hold together: {why}"))?;
    Seat {
        id: met.id.clone(),
        role,
        guest: met.guest,
    }
    .mark(&mut game);
    Ok(Seated {
        game,
        settings,
        remote: Remote::new(role, friend),
        resumed_from,
    })
}

impl super::App {
    /// Plays `seated` against the friend from now on; the game before it is put away as a game
    /// left for another is.
    pub fn sit_down(&mut self, seated: Seated) -> Vec<super::Effect> {
        let mut fx = Vec::new();
        self.put_away(&mut fx);
        self.settings = seated.settings;
        self.mode = super::Mode::Play;
        self.remote = Some(seated.remote);
        self.begin_game(seated.game, &mut fx);
        // Once the autosave (written by `begin_game`) holds the game, its old file goes.
        fx.extend(seated.resumed_from.map(super::Effect::Adopted));
        self.welcome_friend();
        fx
    }

    /// Turns the board to the player's side and says whom they play and how to go on.
    pub(crate) fn welcome_friend(&mut self) {
        let Some(colour) = self.remote.as_ref().map(|r| r.colour) else {
            return;
        };
        let name = self.game.names[crate::game::side(colour)].clone();
        let going_on = match self.game.ply() {
            0 => String::new(),
            _ => {
                use shakmaty::Position as _;
                let at = self.game.position();
                format!(
                    " The game goes on at move {}, {} to play.",
                    at.fullmoves(),
                    super::color_name(at.turn())
                )
            }
        };
        self.say(
            format!(
                "You play {} against {name}.{going_on} Type a move; say TEXT chats; ? for help.",
                super::color_name(!colour)
            ),
            super::Tone::Info,
        );
        self.flipped = colour == Color::White;
    }
}
