//! Everything Knightfall keeps on disk, below the screens and the commands that use it: where
//! files live, atomic writes, the settings and their config file, the games folder (autosave,
//! archive, lists of games) and the review cache.

pub mod atomic;
pub mod paths;
pub(crate) mod read;
pub mod listing;
pub mod review_cache;
pub mod settings;
pub mod config;
pub mod temporaries;
pub mod games;
pub mod stream;
pub mod library;
pub mod training;

pub(crate) use atomic::{append_whole, save_as, write_atomic};
pub(crate) use config::{amend_settings, load_settings, save_settings, unknown_keys};
pub use games::{AutosaveSlot, Unfinished};
pub(crate) use games::{
    archive, keep_damaged_autosave, keep_replaced_autosave, release_adopted, resume_game,
    unfinished,
};
pub use listing::Listed;
pub(crate) use listing::{games_folder, read_games, read_pgn};
pub use paths::{GameKind, Paths};
