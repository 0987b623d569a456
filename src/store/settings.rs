//! What the player chooses and the config file keeps: who plays each side (a person, Knightfall
//! at a level, or another UCI engine), the clocks, extra tablebase directories, and the external
//! engines the config file names.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::engine::strength::MAX_LEVEL;
use crate::external::EngineSpec;
use crate::game::TimeControl;
use crate::theme::Theme;

/// Who moves for one side.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Side {
    /// A person at the keyboard.
    #[default]
    Human,
    /// Knightfall's engine, at the side's level.
    Engine,
    /// Another engine started with this command line (`uci:COMMAND`).
    Uci(String),
    /// An engine from the config file's `[[engines]]`, by name.
    Named(String),
    /// A friend at another Knightfall, over the network, by the name they gave (never read
    /// from a flag or the config file: `knightfall host` and `join` set it).
    Friend(String),
}

impl Side {
    /// Whether a person moves for this side.
    pub fn is_human(&self) -> bool {
        *self == Side::Human
    }
}

impl FromStr for Side {
    type Err = String;

    /// `human`, `engine` (or `knightfall`), `uci:COMMAND`, or the name of a configured engine.
    fn from_str(text: &str) -> Result<Side, String> {
        let text = text.trim();
        Ok(match text.to_ascii_lowercase().as_str() {
            "" => return Err("empty player; use human, engine or uci:COMMAND".into()),
            "human" => Side::Human,
            "engine" | "knightfall" => Side::Engine,
            _ => match text.strip_prefix("uci:") {
                Some(cmd) if cmd.trim().is_empty() => {
                    return Err(
                        "uci: needs the engine's command, e.g. uci:/usr/games/stockfish".into(),
                    );
                }
                Some(cmd) => Side::Uci(cmd.trim().to_string()),
                None => Side::Named(text.to_string()),
            },
        })
    }
}

impl TryFrom<String> for Side {
    type Error = String;

    fn try_from(text: String) -> Result<Side, String> {
        text.parse()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Side::Human => f.write_str("human"),
            Side::Engine => f.write_str("engine"),
            Side::Uci(cmd) => write!(f, "uci:{cmd}"),
            Side::Named(name) => f.write_str(name),
            // A person played the side: what the config keeps of a game against a friend.
            Side::Friend(_) => f.write_str("human"),
        }
    }
}

impl From<Side> for String {
    fn from(side: Side) -> String {
        side.to_string()
    }
}

/// Choices that persist in the config file; flags override them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Who plays White.
    pub white: Side,
    /// Who plays Black.
    pub black: Side,
    /// Time control `MIN+INC`, or empty for none.
    pub tc: String,
    /// Engine thinking time per move without a time control, in milliseconds.
    pub think_ms: u64,
    /// Draw pieces with ASCII letters.
    pub ascii: bool,
    /// Knightfall's level, 1 (beginner) to 10 (full strength).
    pub level: u8,
    /// White's level when it differs (two Knightfalls watched against each other).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_level: Option<u8>,
    /// Black's level when it differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_level: Option<u8>,
    /// The person asked for a random colour on the new-game screen.
    pub random_colour: bool,
    /// Directories with larger Syzygy tables (`DIR[:DIR...]`), on top of the built-in ones.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub syzygy: String,
    /// Other UCI engines to play against, by name (`[[engines]]` in the config file).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub engines: Vec<EngineSpec>,
    /// Search threads at full strength (level 10); 0, the default, means every core.
    #[serde(skip_serializing_if = "is_zero")]
    pub threads: usize,
    /// Show the evaluation during a game against the engine (hidden by default, as on lichess;
    /// watching and the board always show it).
    pub show_eval: bool,
    /// The terminal bell in a game against the engine: when your time runs low and when a
    /// flag falls.
    pub sound: bool,
    /// The bell on each of the engine's moves too (off by default: in many terminals a bell is
    /// a beep or a flash of the screen).
    pub move_bell: bool,
    /// The board's colours.
    pub theme: Theme,
    /// Your name: the game screen shows it and the games played here record it (unset: "You"
    /// on the screen, "Human" in the file). Games from elsewhere spelling it (a lichess or
    /// chess.com username, say) are yours too: reviews and the training take that player's
    /// moves as yours, as they take those of "Human".
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Your names on lichess, chess.com and the like, as `games import --name` stores them:
    /// in games from elsewhere, a player of any of these names is you, as one named `name` is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accounts: Vec<String>,
    /// The engine reviews search with: empty (or `knightfall`) for Knightfall's own, else
    /// `uci:COMMAND` or a configured engine's name.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub review_engine: String,
    /// The engine the analysis board runs, as `review_engine` names one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub analysis_engine: String,
    /// Blindfold: the game's board shows no pieces (the squares, the last move and the moves
    /// list stay); `peek` shows them for a moment.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub blindfold: bool,
    /// The plain-text mode (as `--text`): every event said as a line of words, for a screen
    /// reader or blindfold play.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub text: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            white: Side::Human,
            black: Side::Engine,
            tc: String::new(),
            think_ms: 1000,
            ascii: false,
            level: MAX_LEVEL,
            white_level: None,
            black_level: None,
            random_colour: false,
            syzygy: String::new(),
            engines: Vec::new(),
            threads: 0,
            show_eval: false,
            sound: true,
            move_bell: false,
            theme: Theme::default(),
            name: String::new(),
            accounts: Vec::new(),
            review_engine: String::new(),
            analysis_engine: String::new(),
            blindfold: false,
            text: false,
        }
    }
}

impl Settings {
    /// Every name that is you in a game (see [`crate::train::mistake::is_you`]): `name` and
    /// the accounts.
    pub fn yours(&self) -> Vec<String> {
        std::iter::once(&self.name)
            .chain(&self.accounts)
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect()
    }

    /// The parsed time control, if one is set and valid.
    pub(crate) fn time_control(&self) -> Option<TimeControl> {
        if self.tc.trim().is_empty() || self.tc == "none" {
            None
        } else {
            TimeControl::parse(&self.tc).ok()
        }
    }

    /// Who plays `color`.
    pub fn side(&self, color: Color) -> &Side {
        color.fold_wb(&self.white, &self.black)
    }

    /// Knightfall's level when it plays `color`.
    pub fn level(&self, color: Color) -> u8 {
        color
            .fold_wb(self.white_level, self.black_level)
            .unwrap_or(self.level)
            .clamp(1, MAX_LEVEL)
    }

    /// The external engine `side` names, if it names one that exists.
    pub(crate) fn engine_spec(&self, side: &Side) -> Option<EngineSpec> {
        match side {
            Side::Uci(cmd) => Some(EngineSpec::from_command(cmd)),
            Side::Named(name) => self
                .engines
                .iter()
                .find(|e| e.name.eq_ignore_ascii_case(name))
                .cloned(),
            Side::Human | Side::Engine | Side::Friend(_) => None,
        }
    }

    /// The engine `text` names for a review or the analysis board (`review_engine`,
    /// `analysis_engine`, `--engine`): `None` for Knightfall's own (empty, `knightfall` or
    /// `engine`), else `uci:COMMAND` or a configured engine. Only the name is checked here;
    /// whether the program starts is seen when it is asked.
    pub fn engine_for_analysis(&self, text: &str) -> Result<Option<EngineSpec>, String> {
        if text.trim().is_empty() {
            return Ok(None);
        }
        let side: Side = text.parse()?;
        match side {
            Side::Engine => Ok(None),
            Side::Human | Side::Friend(_) => {
                Err("a person cannot review: use knightfall, uci:COMMAND or a \
                 configured engine's name"
                    .into())
            }
            Side::Uci(_) | Side::Named(_) => self
                .engine_spec(&side)
                .map(Some)
                .ok_or_else(|| self.unknown_engine(text, "knightfall")),
        }
    }

    /// Why `name` names no engine: what may be named instead (`others`, then `uci:COMMAND`
    /// and the configured engines).
    fn unknown_engine(&self, name: &str, others: &str) -> String {
        let known: Vec<&str> = self.engines.iter().map(|e| e.name.as_str()).collect();
        format!(
            "no engine named {name:?}: use {others}, uci:COMMAND{}",
            if known.is_empty() {
                ", or add it as [[engines]] in the config file".to_string()
            } else {
                format!(" or one of the configured engines: {}", known.join(", "))
            }
        )
    }

    /// Checks that both sides name players that exist (configured engines, programs found).
    pub(crate) fn check_sides(&self) -> Result<(), String> {
        for side in [&self.white, &self.black] {
            if let Some(spec) = self.engine_spec(side) {
                spec.check().map_err(|e| e.to_string())?;
            }
            if let Side::Named(name) = side
                && self.engine_spec(side).is_none()
            {
                return Err(self.unknown_engine(name, "human, engine"));
            }
        }
        Ok(())
    }

    /// Takes the players of a game being resumed from its PGN: a `uci:` engine from the
    /// `WhiteEngine`/`BlackEngine` tag Knightfall wrote for it (its name is the engine's own,
    /// which says nothing of how to start it), else by name as `player_name` wrote it:
    /// `Human`, `Knightfall x.y.z (level N)`, or a configured engine's name. A name it does not
    /// know leaves that side as it is.
    ///
    /// A file decides no program to run: an engine command found only in the game (not among
    /// the config file's engines) is not taken; it comes back, by side, for the player to
    /// confirm by naming it.
    pub(crate) fn adopt_players(&mut self, game: &crate::game::Game) -> Vec<(Color, String)> {
        let mut unconfirmed = Vec::new();
        let names = &game.names;
        for (color, name) in [(Color::White, &names[0]), (Color::Black, &names[1])] {
            let command = game
                .kept_tags
                .iter()
                .find(|(tag, _)| *tag == engine_tag(color))
                .and_then(|(_, value)| value.strip_prefix("uci:"))
                .filter(|command| !command.trim().is_empty());
            let side = if let Some(command) = command {
                match self.engines.iter().find(|e| e.command == command) {
                    Some(e) => Some(Side::Named(e.name.clone())),
                    None => {
                        unconfirmed.push((color, command.to_string()));
                        None
                    }
                }
            } else if crate::train::mistake::is_you(name, &self.yours()) {
                Some(Side::Human)
            } else if let Some(rest) = name.strip_prefix("Knightfall") {
                let level = rest
                    .split("(level ")
                    .nth(1)
                    .and_then(|l| l.trim_end_matches(')').parse::<u8>().ok())
                    .unwrap_or(MAX_LEVEL);
                match color {
                    Color::White => self.white_level = Some(level),
                    Color::Black => self.black_level = Some(level),
                }
                Some(Side::Engine)
            } else {
                self.engines
                    .iter()
                    .find(|e| e.name == *name)
                    .map(|e| Side::Named(e.name.clone()))
            };
            if let Some(side) = side {
                match color {
                    Color::White => self.white = side,
                    Color::Black => self.black = side,
                }
                self.random_colour = false;
            }
        }
        unconfirmed
    }

    /// The name of `color`'s player for the PGN: a person is the config's `name` when one
    /// person plays an engine (two at one keyboard are not both that person), else "Human".
    pub(crate) fn player_name(&self, color: Color) -> String {
        let side = self.side(color);
        match side {
            Side::Human if !self.name.trim().is_empty() && !self.side(!color).is_human() => {
                self.name.trim().to_string()
            }
            Side::Human => crate::train::mistake::PERSON.to_string(),
            Side::Engine => match self.level(color) {
                MAX_LEVEL => KNIGHTFALL.to_string(),
                n => format!("{KNIGHTFALL} (level {n})"),
            },
            Side::Uci(_) | Side::Named(_) => self
                .engine_spec(side)
                .map_or_else(|| side.to_string(), |spec| spec.name),
            Side::Friend(name) => name.clone(),
        }
    }
}

/// The opponent's level before the player has chosen one: about 1200, a gentle first game.
pub(crate) const FIRST_LEVEL: u8 = 3;

/// Knightfall's name and version.
pub(crate) const KNIGHTFALL: &str = concat!("Knightfall ", env!("CARGO_PKG_VERSION"));

/// Time controls offered on the new-game screen.
pub(crate) const TC_CHOICES: [&str; 10] = [
    "", "1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0",
];
/// Engine think times offered on the new-game screen, in milliseconds.
pub(crate) const THINK_CHOICES: [u64; 5] = [250, 500, 1000, 2000, 5000];

/// The PGN tag that records how `color`'s external engine was started, for a resume.
pub(crate) fn engine_tag(color: Color) -> &'static str {
    color.fold_wb("WhiteEngine", "BlackEngine")
}
