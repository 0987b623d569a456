//! Playing a friend over the network: the short code the players share ([`code`]), what the
//! two sides say ([`message`]), and the channel the code opens between two Knightfalls
//! ([`channel`]): a key agreed from the code by SPAKE2, every message after it sealed with
//! ChaCha20-Poly1305, so a wrong code is refused and nobody on the path can read or change a
//! move; then the other side as a game sees it ([`peer`]): its messages as they come, and
//! the moment it is gone; and how the two find each other ([`meet`]; waited for, in the
//! background or not, by [`meeting`]) and the game as each keeps it, to resume it
//! ([`record`]).

pub mod code;
pub mod message;
pub mod channel;
pub mod peer;
pub mod meet;
pub mod meeting;
pub mod record;
