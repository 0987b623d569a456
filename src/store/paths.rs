//! Where settings, games and reviews live: `$KNIGHTFALL_HOME` when set (tests), else the
//! platform's config and data directories.

use std::path::PathBuf;

/// Whose a kept game is: one the player played, or one they watched engines play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// A game with a person at the board (or two).
    Played,
    /// Engine against engine (`watch`, or no person chosen on the new-game screen).
    Watched,
}

/// Where settings and games live: `$KNIGHTFALL_HOME` when set (tests), else the platform's
/// config and data directories.
#[derive(Clone, Debug)]
pub struct Paths {
    /// The config file.
    pub config: PathBuf,
    /// Directory for saved games.
    pub data: PathBuf,
    /// Where this instance autosaves its game: `current.pgn`, unless another running Knightfall
    /// holds that (see [`super::AutosaveSlot`]).
    pub autosave: PathBuf,
}

impl Paths {
    /// The paths for this user.
    pub fn get() -> Paths {
        // An empty KNIGHTFALL_HOME is unset, as an empty XDG variable is: not the current folder.
        let home = std::env::var_os("KNIGHTFALL_HOME").filter(|h| !h.is_empty());
        let (config, data) = if let Some(home) = home {
            let home = PathBuf::from(home);
            (home.join("config.toml"), home.join("games"))
        } else {
            match directories::ProjectDirs::from("", "", "knightfall") {
                Some(dirs) => (
                    dirs.config_dir().join("config.toml"),
                    dirs.data_dir().join("games"),
                ),
                None => (
                    PathBuf::from("knightfall.toml"),
                    PathBuf::from("knightfall-games"),
                ),
            }
        };
        Paths {
            autosave: data.join("current.pgn"),
            config,
            data,
        }
    }

    /// The in-progress game, rewritten after every move (for `--resume` and crashes).
    pub fn current(&self) -> PathBuf {
        self.data.join("current.pgn")
    }

    /// Where panics are logged: `knightfall.log` beside the games folder.
    pub fn log(&self) -> PathBuf {
        self.beside_games("knightfall.log")
    }

    /// The library of imported games: `library.sqlite` beside the games folder.
    pub fn library(&self) -> PathBuf {
        self.beside_games("library.sqlite")
    }

    fn beside_games(&self, name: &str) -> PathBuf {
        self.data
            .parent()
            .map_or_else(|| self.data.clone(), PathBuf::from)
            .join(name)
    }

    /// Where the games the player watched (engine against engine) are kept, apart from their
    /// own games: listed for review after them, never read for the player's mistakes.
    pub fn watched(&self) -> PathBuf {
        self.data.join("watched")
    }

    /// The folder games of `kind` are kept in.
    pub fn kept(&self, kind: GameKind) -> PathBuf {
        match kind {
            GameKind::Played => self.data.clone(),
            GameKind::Watched => self.watched(),
        }
    }

    /// Where reviews are cached.
    pub fn reviews(&self) -> PathBuf {
        self.data.join("reviews")
    }
}
