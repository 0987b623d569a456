//! A game against a friend as each side keeps it: a tag naming the game and this side's part
//! in it, and its moves with their clocks as the two sides exchange them to resume it.

use std::time::Duration;

use rand_core::{OsRng, RngCore};
use shakmaty::CastlingMode;

use super::channel::Role;
use super::meet::History;
use super::message::{Colour, is_game_id};
use crate::game::Game;

/// The PGN tag of a game against a friend: `"ID host black"` (its name, this side's part,
/// the guest's colour).
pub const TAG: &str = "NetworkGame";

/// What the tag keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The game's name, the same on both sides.
    pub id: String,
    /// This side's part.
    pub role: Role,
    /// The guest's colour.
    pub guest: Colour,
}

impl Seat {
    /// The tag's value.
    pub fn tag(&self) -> String {
        format!(
            "{} {} {}",
            self.id,
            match self.role {
                Role::Host => "host",
                Role::Guest => "guest",
            },
            match self.guest {
                Colour::White => "white",
                Colour::Black => "black",
            }
        )
    }

    /// The seat `game`'s tag records, if it is a game against a friend.
    pub fn of(game: &Game) -> Option<Seat> {
        let (_, value) = game.kept_tags.iter().find(|(name, _)| name == TAG)?;
        let words: Vec<&str> = value.split_whitespace().collect();
        let [id, role, guest] = words.as_slice() else {
            return None;
        };
        Some(Seat {
            id: Some(id.to_string()).filter(|id| is_game_id(id))?,
            role: match *role {
                "host" => Role::Host,
                "guest" => Role::Guest,
                _ => return None,
            },
            guest: match *guest {
                "white" => Colour::White,
                "black" => Colour::Black,
                _ => return None,
            },
        })
    }

    /// Marks `game` as this seat's.
    pub fn mark(&self, game: &mut Game) {
        game.kept_tags.retain(|(name, _)| name != TAG);
        game.kept_tags.push((TAG.to_string(), self.tag()));
    }
}

/// A new game's name, from the system's secure random numbers.
pub fn new_id() -> String {
    format!("{:016x}", OsRng.next_u64())
}

/// `game`'s moves with the clock after each.
pub fn history(game: &Game) -> History {
    game.moves()
        .iter()
        .enumerate()
        .map(|(ply, m)| {
            (
                m.to_uci(CastlingMode::Standard),
                game.clock_after(ply).map(millis),
            )
        })
        .collect()
}

/// A clock as the messages carry it: whole milliseconds.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `start` with `moves` played on it, each side's clock as the moves say; why not, for a
/// move that is not legal where it comes.
pub fn replay(mut game: Game, moves: &History) -> Result<Game, String> {
    for (uci, ms) in moves {
        let ply = game.ply();
        let m = uci
            .to_move(game.position())
            .map_err(|_| format!("move {} ({uci}) is not legal there", ply + 1))?;
        game.play(m, Some(Duration::ZERO))
            .map_err(|e| format!("move {} ({uci}): {e}", ply + 1))?;
        if let Some(ms) = ms {
            game.set_clock_after(ply, Duration::from_millis(*ms));
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use super::*;

    #[test]
    fn a_game_and_its_seat_come_back_from_the_record() {
        let mut game = Game::new();
        game.set_time_control(crate::game::TimeControl::parse("5+3").ok());
        for (m, spent) in [("e4", 2_000), ("e5", 3_500), ("Nf3", 10_000)] {
            game.play_text(m, Some(Duration::from_millis(spent)))
                .unwrap();
        }
        let seat = Seat {
            id: new_id(),
            role: Role::Guest,
            guest: Colour::Black,
        };
        seat.mark(&mut game);
        let again = Game::from_pgn(&game.to_pgn()).unwrap();
        assert_eq!(Seat::of(&again), Some(seat));
        let mut fresh = Game::new();
        fresh.set_time_control(crate::game::TimeControl::parse("5+3").ok());
        let replayed = replay(fresh, &history(&game)).unwrap();
        assert_eq!(replayed.sans(), game.sans());
        assert_eq!(replayed.clocks(), game.clocks());
        assert!(replay(Game::new(), &vec![("e2e5".parse().unwrap(), None)]).is_err());
    }
}
