//! What two Knightfalls say to each other in a game, one message a frame: a line of words,
//! decoded whole (every word checked) before anything acts on it. Text from the other side (a
//! name, a line of chat) keeps no control character, so no escape sequence of theirs ever
//! reaches the terminal.

use std::fmt::Write as _;

use shakmaty::uci::UciMove;

/// The longest name kept, in characters.
pub const MAX_NAME: usize = 40;
/// The longest line of chat kept, in characters.
pub const MAX_CHAT: usize = 200;
/// The most plies a game may have (a move's number past it is refused).
const MAX_PLY: u32 = 10_000;
/// The most milliseconds a clock may show (about 11 days).
const MAX_CLOCK_MS: u64 = 1_000_000_000;

/// What one side offers the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// A draw.
    Draw,
    /// Taking back the last move.
    Takeback,
    /// Another game, the colours swapped (once a game is over).
    Rematch,
}

/// A colour, as the host tells the guest its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

/// One message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Who is there: their name (cleaned).
    Hello {
        /// The name the other side gives.
        name: String,
    },
    /// The game the host sets up: the guest's colour, the clock (`MIN+INC`, or none), and the
    /// start (a FEN, or none for the usual one).
    Start {
        /// The game's name, the same on both sides, so that a game resumed is the one left.
        id: String,
        /// The guest's colour.
        guest: Colour,
        /// The time control, as `TimeControl::parse` reads it.
        clock: Option<String>,
        /// The start position's FEN.
        fen: Option<String>,
    },
    /// A move: its number in the game (from 0), the move, and the mover's clock after it in
    /// milliseconds as the host counts it (none without a clock).
    Move {
        /// The ply the move is (0 for White's first).
        ply: u32,
        /// The move.
        uci: UciMove,
        /// The mover's time left after it.
        clock_ms: Option<u64>,
    },
    /// The game's moves so far as the sender keeps them, with the mover's clock after each
    /// (milliseconds): sent by both sides after the greeting, empty for a new game.
    History(Vec<(UciMove, Option<u64>)>),
    /// An offer, made when the game had this many plies: an answer, or a move, made after
    /// another ply has no bearing on it.
    Offer(Offer, u32),
    /// The offer made at this ply accepted.
    Accept(Offer, u32),
    /// The offer made at this ply declined.
    Decline(Offer, u32),
    /// The host's count of the guest's clock after the guest's move `ply` (the host's clock
    /// is the game's): the guest sets its own to it.
    Clock {
        /// The guest's move it follows.
        ply: u32,
        /// The guest's time left, milliseconds.
        ms: u64,
    },
    /// The host's word that the side to move when the game had `ply` plies lost on time (a
    /// move of the guest's that arrived after it does not count).
    Flag(u32),
    /// The sender resigns.
    Resign,
    /// A line of chat (cleaned).
    Chat(String),
    /// Are you there? (answered with the same number)
    Ping(u64),
    /// I am.
    Pong(u64),
    /// The sender leaves (the game stays as it is, to be resumed).
    Bye,
}

impl Message {
    /// The message as sent.
    pub fn encode(&self) -> Vec<u8> {
        let mut text = String::new();
        let _ = match self {
            Message::Hello { name } => write!(text, "hello {}", clean(name, MAX_NAME)),
            Message::Start {
                id,
                guest,
                clock,
                fen,
            } => write!(
                text,
                "start {id} {} {} {}",
                match guest {
                    Colour::White => "white",
                    Colour::Black => "black",
                },
                clock.as_deref().unwrap_or("none"),
                fen.as_deref().unwrap_or("startpos")
            ),
            Message::Move { ply, uci, clock_ms } => match clock_ms {
                Some(ms) => write!(text, "move {ply} {uci} {ms}"),
                None => write!(text, "move {ply} {uci} -"),
            },
            Message::Offer(what, ply) => write!(text, "offer {} {ply}", offer_word(*what)),
            Message::Accept(what, ply) => write!(text, "accept {} {ply}", offer_word(*what)),
            Message::Decline(what, ply) => write!(text, "decline {} {ply}", offer_word(*what)),
            Message::Clock { ply, ms } => write!(text, "clock {ply} {ms}"),
            Message::History(moves) => {
                let _ = write!(text, "history");
                for (uci, ms) in moves {
                    let _ = match ms {
                        Some(ms) => write!(text, " {uci}:{ms}"),
                        None => write!(text, " {uci}:-"),
                    };
                }
                Ok(())
            }
            Message::Flag(ply) => write!(text, "flag {ply}"),
            Message::Resign => write!(text, "resign"),
            Message::Chat(line) => write!(text, "chat {}", clean(line, MAX_CHAT)),
            Message::Ping(n) => write!(text, "ping {n}"),
            Message::Pong(n) => write!(text, "pong {n}"),
            Message::Bye => write!(text, "bye"),
        };
        text.into_bytes()
    }

    /// A message from the other side's bytes; why they are not one otherwise.
    pub fn decode(bytes: &[u8]) -> Result<Message, String> {
        let text = std::str::from_utf8(bytes).map_err(|_| "a message that is not text")?;
        let (verb, rest) = text.split_once(' ').unwrap_or((text, ""));
        let words: Vec<&str> = rest.split(' ').filter(|w| !w.is_empty()).collect();
        let bad = || format!("a message that makes no sense ({})", clean(verb, 20));
        let number = |w: &str| w.parse::<u64>().map_err(|_| bad());
        let ply = |w: &str| {
            u32::try_from(number(w)?)
                .ok()
                .filter(|&p| p < MAX_PLY)
                .ok_or_else(bad)
        };
        let offer = |w: &str| match w {
            "draw" => Ok(Offer::Draw),
            "takeback" => Ok(Offer::Takeback),
            "rematch" => Ok(Offer::Rematch),
            _ => Err(bad()),
        };
        let message = match (verb, words.as_slice()) {
            ("hello", _) => Message::Hello {
                name: clean(rest, MAX_NAME),
            },
            ("start", [id, guest, clock, fen @ ..]) if !fen.is_empty() => Message::Start {
                id: Some(id.to_string())
                    .filter(|id| is_game_id(id))
                    .ok_or_else(bad)?,
                guest: match *guest {
                    "white" => Colour::White,
                    "black" => Colour::Black,
                    _ => return Err(bad()),
                },
                clock: match *clock {
                    "none" => None,
                    tc if crate::game::TimeControl::parse(tc).is_ok() => Some(tc.to_string()),
                    _ => return Err(bad()),
                },
                fen: match fen.join(" ") {
                    f if f == "startpos" => None,
                    f if crate::fen::position(&f).is_ok() => Some(f),
                    _ => return Err(bad()),
                },
            },
            ("move", [n, uci, clock]) => {
                let ply = ply(n)?;
                let clock_ms = match *clock {
                    "-" => None,
                    ms => Some(number(ms)?)
                        .filter(|&ms| ms <= MAX_CLOCK_MS)
                        .map(Some)
                        .ok_or_else(bad)?,
                };
                Message::Move {
                    ply,
                    uci: uci.parse().map_err(|_| bad())?,
                    clock_ms,
                }
            }
            ("offer", [what, n]) => Message::Offer(offer(what)?, ply(n)?),
            ("accept", [what, n]) => Message::Accept(offer(what)?, ply(n)?),
            ("decline", [what, n]) => Message::Decline(offer(what)?, ply(n)?),
            ("clock", [n, ms]) => Message::Clock {
                ply: ply(n)?,
                ms: Some(number(ms)?)
                    .filter(|&ms| ms <= MAX_CLOCK_MS)
                    .ok_or_else(bad)?,
            },
            ("flag", [n]) => Message::Flag(ply(n)?),
            ("history", moves) if moves.len() < MAX_PLY as usize => Message::History(
                moves
                    .iter()
                    .map(|m| {
                        let (uci, ms) = m.split_once(':').ok_or_else(bad)?;
                        let ms = match ms {
                            "-" => None,
                            ms => Some(number(ms)?)
                                .filter(|&ms| ms <= MAX_CLOCK_MS)
                                .map(Some)
                                .ok_or_else(bad)?,
                        };
                        Ok((uci.parse().map_err(|_| bad())?, ms))
                    })
                    .collect::<Result<_, String>>()?,
            ),
            ("resign", []) => Message::Resign,
            ("chat", _) => Message::Chat(clean(rest, MAX_CHAT)),
            ("ping", [n]) => Message::Ping(number(n)?),
            ("pong", [n]) => Message::Pong(number(n)?),
            ("bye", []) => Message::Bye,
            _ => return Err(bad()),
        };
        Ok(message)
    }
}

/// Whether `id` may name a game: one to 32 lowercase hexadecimal digits.
pub fn is_game_id(id: &str) -> bool {
    (1..=32).contains(&id.len()) && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// An offer as a message names it.
fn offer_word(what: Offer) -> &'static str {
    match what {
        Offer::Draw => "draw",
        Offer::Takeback => "takeback",
        Offer::Rematch => "rematch",
    }
}

/// `text` without a control character (nor a bidirectional override, which reorders what the
/// terminal shows), its runs of spaces made one, cut to `max` characters.
pub fn clean(text: &str, max: usize) -> String {
    let kept: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| !c.is_control() && !('\u{202a}'..='\u{202e}').contains(&c))
        .filter(|&c| !('\u{2066}'..='\u{2069}').contains(&c))
        .collect();
    kept.split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(max)
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use super::*;

    #[test]
    fn every_message_reads_back_as_it_was_sent() {
        let all = [
            Message::Hello {
                name: "anna1985".into(),
            },
            Message::History(Vec::new()),
            Message::History(vec![
                ("e2e4".parse().unwrap(), Some(299_000)),
                ("e7e5".parse().unwrap(), None),
            ]),
            Message::Start {
                id: "0123abcd".into(),
                guest: Colour::Black,
                clock: Some("5+3".into()),
                fen: None,
            },
            Message::Start {
                id: "ff".into(),
                guest: Colour::White,
                clock: None,
                fen: Some("8/8/8/4k3/8/8/3QK3/8 w - - 0 1".into()),
            },
            Message::Move {
                ply: 0,
                uci: "e2e4".parse().unwrap(),
                clock_ms: Some(299_500),
            },
            Message::Move {
                ply: 41,
                uci: "e7e8q".parse().unwrap(),
                clock_ms: None,
            },
            Message::Offer(Offer::Draw, 12),
            Message::Offer(Offer::Takeback, 3),
            Message::Accept(Offer::Takeback, 3),
            Message::Offer(Offer::Rematch, 40),
            Message::Decline(Offer::Draw, 12),
            Message::Clock { ply: 5, ms: 61_250 },
            Message::Flag(40),
            Message::Resign,
            Message::Chat("good game!".into()),
            Message::Ping(7),
            Message::Pong(7),
            Message::Bye,
        ];
        for m in all {
            assert_eq!(Message::decode(&m.encode()), Ok(m.clone()), "{m:?}");
        }
    }

    #[test]
    fn nonsense_is_refused_with_a_reason_and_text_is_cleaned() {
        for bad in [
            &b"\xff\xfe"[..],
            b"",
            b"castle",
            b"move 1 e2e4",
            b"move x e2e4 100",
            b"move 10000 e2e4 100",
            b"move 1 e9e4 100",
            b"move 1 e2e4 99999999999",
            b"start ab green 5+3 startpos",
            b"start ab white 5+x startpos",
            b"start ab white none not-a-fen",
            b"start white 5+3 startpos",
            b"start AB white 5+3 startpos",
            b"history e2e4",
            b"history e2e4:x",
            b"history e9e4:100",
            b"offer cake 3",
            b"offer draw",
            b"accept now",
            b"accept draw x",
            b"clock 5",
            b"clock 5 99999999999",
            b"flag",
            b"ping -1",
        ] {
            assert!(
                Message::decode(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        // An escape sequence, a bell and a bidirectional override are gone; spaces are one.
        let sent = b"chat hi\x1b[2J\x07 there \xe2\x80\xae gg";
        assert_eq!(
            Message::decode(sent),
            Ok(Message::Chat("hi[2J there gg".into()))
        );
        let long = format!("hello {}", "a".repeat(500));
        assert_eq!(
            Message::decode(long.as_bytes()),
            Ok(Message::Hello {
                name: "a".repeat(MAX_NAME)
            })
        );
    }

    proptest::proptest! {
        /// Any bytes decode to a message or a reason, and a message's text never holds a
        /// control character.
        #[test]
        fn any_bytes_decode_cleanly(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
            if let Ok(m) = Message::decode(&bytes) {
                let text = String::from_utf8(m.encode()).unwrap();
                proptest::prop_assert!(!text.chars().any(char::is_control), "{text:?}");
            }
        }
    }
}
