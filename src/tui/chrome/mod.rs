//! The chrome: what every screen has alike around its own part. The common words (help,
//! back, exit, flip, theme) parsed once (`command`), the key tables every key is found in
//! (`keys`), the help overlay (`help`), the board's colour theme (`theme`), and the common
//! commands run for any screen (`run`). Drawing the frame around a screen is `ui::chrome`'s.
//! The modules are listed in dependency order.

pub mod command;
pub mod keys;
pub mod help;
pub(crate) mod theme;
pub(crate) mod run;
