//! PGN, read and written in one place. [`raw`] is the one reader: every game comes out of it
//! raw (tags, moves with their comments and NAGs, side lines where asked for, the result), and
//! each caller builds its own thing from that; [`write`](mod@write) is the one writer of tags and
//! movetext. Around them: the scan for tokens the reader would skip, the text made readable,
//! the clock comment, the dates of a game, the lists of games, and SAN lines for the screens.
//!
//! The modules are listed in dependency order: each uses only those above it.

pub(crate) mod scan;
pub(crate) mod text;
pub(crate) mod clk;
pub mod stamp;
pub mod error;
pub mod raw;
pub mod list;
pub mod write;
pub mod notation;

pub use error::LoadError;
pub use list::{Heading, PgnGames, Spanned};
pub use notation::numbered_san;
pub use raw::{Keep, RawGame, RawMove, Token};
