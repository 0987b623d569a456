//! The house style every screen follows: a state that takes one [`Action`] at a time, with the
//! moment it happened, and answers with the [`Effect`]s the runner carries out (searches, files,
//! other screens). A screen's `update` touches neither the disk nor the clock, and its drawing
//! only reads it, so tests drive a screen by its actions alone.

use std::path::PathBuf;

use crossterm::event::KeyEvent;
use shakmaty::Square;

use super::job::{EngineEvent, Request};
use super::service::ReviewJob;
use crate::game::Game;
use crate::line_tree::Tree;
use crate::review::Review;
use crate::store::GameKind;
use crate::store::settings::Settings;
use crate::store::{Listed, Unfinished};
use crate::theme::Theme;

/// An incoming event, as a screen sees it.
#[derive(Clone, Debug)]
pub enum Action {
    /// A key press.
    Key(KeyEvent),
    /// A left click on a board square.
    Click(Square),
    /// A left click on the evaluation graph: this many columns from its left edge, of `width`.
    Graph {
        /// Columns from the graph's left edge.
        offset: u16,
        /// The graph's width.
        width: u16,
    },
    /// A report from the search service.
    Engine(EngineEvent),
    /// Time passed (clocks, the watch delay).
    Tick,
    /// The screen is in front again (the one above it closed).
    Front,
    /// How a file effect went, for the message line.
    Note(String, Tone),
    /// A tree of lines was saved to this file.
    Saved(PathBuf),
    /// The new-game screen's choice: play it.
    Play(Box<Choice>),
    /// The training progress as saved: this screen's results merged with what other running
    /// Knightfalls saved.
    Trained(Box<crate::train::progress::Progress>),
    /// Whether the engine [`Effect::CheckEngine`] asked about answered as a UCI engine, or why
    /// not.
    Checked(Box<crate::external::EngineSpec>, Result<(), String>),
    /// Game `id` of the library: its review as the library now keeps it.
    Kept(i64, crate::store::library::reviews::Status),
    /// Game `place` of the screen's list, read from its file as [`Effect::ReadGame`] asked, or
    /// why it cannot be reviewed.
    GameRead {
        /// Its place in the list.
        place: usize,
        /// The game, played through.
        game: Result<Box<Game>, String>,
    },
    /// What the friend at the other Knightfall did, or that the link to them is gone.
    Peer(crate::net::peer::PeerEvent),
    /// What the wait for the friend ([`Effect::Meet`]) brought.
    Meeting(Heard),
}

/// What the wait for the friend brought, for the screen waiting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// The host listens with `code` on `port`, reachable at `addresses`.
    Invite {
        /// The code the friend types.
        code: crate::net::code::Code,
        /// The port listened on.
        port: u16,
        /// This machine's addresses on the port.
        addresses: Vec<std::net::SocketAddr>,
    },
    /// Something the player should know while the wait goes on (a wrong code, a stranger).
    Note(String),
    /// The wait is over without the friend: why.
    Failed(String),
}

/// How to meet the friend.
#[derive(Clone, Debug)]
pub enum Meet {
    /// Host: listen on `port` for the friend.
    Host {
        /// The port.
        port: u16,
        /// The guest's colour (`None`: drawn at random).
        guest: Option<crate::net::message::Colour>,
        /// The clock, `MIN+INC` (empty for none).
        clock: String,
        /// The game left unfinished to go on with, if any: its colours and clock hold.
        left: Option<Unfinished>,
    },
    /// Join the host at `address` with `code`.
    Join {
        /// The code the host's Knightfall showed.
        code: crate::net::code::Code,
        /// The host's address.
        address: String,
        /// The game left unfinished to go on with, if any.
        left: Option<Unfinished>,
    },
}

/// What the new-game screen chose.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The settings chosen (sides, levels, clock).
    pub settings: Settings,
    /// The unfinished game to resume, with the autosave it comes from, if that was chosen.
    pub resume: Option<Unfinished>,
}

/// Kinds of message for the message line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Plain information.
    Info,
    /// A refused entry or a failure.
    Error,
}

/// Something the runner must do after an update.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Start this search (stopping any other job of the service).
    Search(Box<Request>),
    /// Stop the service's running job.
    Stop,
    /// Clear the engine's tables.
    NewGame,
    /// Start this review (stopping any other job of the service).
    Review(Box<ReviewJob>),
    /// Rewrite the in-progress game file (after every change, for resume and crashes).
    Autosave,
    /// Ring the terminal bell.
    Bell,
    /// Keep this game in its own file in the folder of games of its kind (it ended, or was left
    /// for another).
    Archive(Box<Game>, GameKind),
    /// Delete this game's file from the games folder (the player said yes).
    Delete(PathBuf),
    /// The resumed game came from this autosave, which this instance's autosave now replaces:
    /// remove it once the game is safely in ours.
    Adopted(PathBuf),
    /// Save the game as PGN, to this file or a new timestamped file in the games folder.
    Save(Option<String>),
    /// Write the settings to the config file.
    SaveSettings,
    /// Write the game's switches (the bells, the evaluation) to the config file, the rest as
    /// the file has it: a game's sides and clock given by flags, or a friend's, are this
    /// game's alone.
    SaveSwitches,
    /// Write these settings (the settings screen's) to the config file, and draw and play with
    /// them from now on: the look and the sound at once, the defaults for the next game.
    SaveConfig(Box<Settings>),
    /// Start this engine to see that it answers as a UCI engine; [`Action::Checked`] says.
    CheckEngine(Box<crate::external::EngineSpec>),
    /// Draw every screen's board in this theme from now on, and keep it in the config file.
    Theme(Theme),
    /// Save a tree of lines as PGN: to this file, or (`None`) a new file in the games folder
    /// named with this prefix. [`Action::Saved`] or a [`Action::Note`] says how it went.
    SaveLines {
        /// The file the player named, if any.
        file: Option<PathBuf>,
        /// The name's prefix for a new file in the games folder.
        prefix: &'static str,
        /// The PGN text.
        text: String,
    },
    /// Keep what a review found, for next time: in the library when the game is there (its id
    /// there, when the screen knows it; else it is looked for), and in the review cache.
    KeepReview {
        /// The review.
        review: Box<Review>,
        /// The game's id in the library, when known.
        id: Option<i64>,
    },
    /// Start the review of every game of the library not reviewed yet, in the background
    /// (`true`), or stop it (`false`); [`EngineEvent::Bulk`] reports how it goes.
    ReviewAll(bool),
    /// Read game `place` of a list from its file; [`Action::GameRead`] brings it back.
    ReadGame {
        /// Its place in the list.
        place: usize,
        /// The game as listed.
        listed: Box<Listed>,
    },
    /// Save these results in the player's training progress, merged with the record on disk
    /// ([`crate::store::training::save`]); [`Action::Trained`] hands back the merged record.
    SaveTraining(Vec<crate::train::progress::Change>),
    /// Close the new-game screen and play its choice in the game below.
    Play(Box<Choice>),
    /// Open a screen in front of this one.
    Open(Box<Open>),
    /// Close this screen; the one below comes back (or the program ends).
    Close,
    /// Send this message to the friend at the other Knightfall; a failure comes back as
    /// [`Action::Peer`] with the link lost.
    Send(crate::net::message::Message),
    /// Close the link to the friend (they broke the rules): they see it gone at once.
    HangUp,
    /// Wait for the friend in the background as `Meet` says; [`Action::Meeting`] tells what
    /// happens, and once the two have met the game below plays against the friend.
    Meet(Box<Meet>),
    /// Stop waiting for the friend.
    CallOff,
    /// Leave the program.
    Quit,
}

/// A screen to open.
#[derive(Clone, Debug)]
pub enum Open {
    /// The new-game screen over the game, prefilled with its settings.
    Setup {
        /// The unfinished games it offers to resume.
        resume: Vec<Unfinished>,
        /// Engines on both sides, to watch.
        watch: bool,
    },
    /// The home screen over the game.
    Home,
    /// The friend screen over the game: host or join a game against a friend.
    Friend {
        /// The unfinished games it offers to resume (those against a friend).
        resume: Vec<Unfinished>,
        /// The one named first, if any.
        chosen: Option<usize>,
        /// The host's colour (`None`: drawn at random).
        you: Option<shakmaty::Color>,
        /// The host's clock; `None`: the game's settings'.
        clock: Option<String>,
    },
    /// The library (the games folder's finished games and those imported), to choose one to
    /// review.
    Games,
    /// The games folder's files (the analysis board's lines and games watched too), to choose
    /// one to review.
    Files,
    /// The review of game `id` of the library, with what the library knows of it.
    Kept {
        /// Its id in the library.
        id: i64,
    },
    /// The settings screen, over the config file as it is.
    Settings,
    /// The analysis board over `tree`, at its node `at`.
    Board {
        /// Every line.
        tree: Tree,
        /// The node shown first.
        at: usize,
    },
    /// The training screen's list of endings.
    Train,
    /// The player's statistics from the library (the settings' name); a word on the message
    /// line instead when the library has no game of theirs.
    Stats,
    /// The training screen practising these mistakes (one game's, from its review).
    Practice(Vec<crate::train::mistake::Mistake>),
    /// The review of a game, or a list of games to choose from.
    Review {
        /// The games.
        listed: Vec<Listed>,
        /// The one reviewed at once, if any.
        chosen: Option<usize>,
    },
}

/// Where the board was drawn: its top-left square's corner, a square's width and height in
/// cells, and which way round it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardArea {
    /// Column of the board's first square.
    pub x: u16,
    /// Row of the board's first square.
    pub y: u16,
    /// A square's width in cells.
    pub cell_w: u16,
    /// A square's height in cells.
    pub cell_h: u16,
    /// Seen from Black's side.
    pub flipped: bool,
}

impl BoardArea {
    /// The square under a terminal cell, if the cell is on the board.
    pub(crate) fn square_at(&self, column: u16, row: u16) -> Option<Square> {
        if column < self.x || row < self.y || self.cell_w == 0 || self.cell_h == 0 {
            return None;
        }
        let col = (column - self.x) / self.cell_w;
        let row = (row - self.y) / self.cell_h;
        if col >= 8 || row >= 8 {
            return None;
        }
        let (file, rank) = if self.flipped {
            (7 - col, row)
        } else {
            (col, 7 - row)
        };
        Some(Square::from_coords(
            shakmaty::File::new(u32::from(file)),
            shakmaty::Rank::new(u32::from(rank)),
        ))
    }
}

/// What a frame measured, for the mouse: where the board and the evaluation graph are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// The board's place on the screen.
    pub board: Option<BoardArea>,
    /// The evaluation graph's place: x, y, width, height.
    pub graph: Option<(u16, u16, u16, u16)>,
}

impl Drawn {
    /// The action a left click at `column`, `row` stands for, if any.
    pub fn click(&self, column: u16, row: u16) -> Option<Action> {
        if let Some(sq) = self.board.and_then(|b| b.square_at(column, row)) {
            return Some(Action::Click(sq));
        }
        let (x, y, w, h) = self.graph?;
        (column >= x && column < x + w && row >= y && row < y + h).then_some(Action::Graph {
            offset: column - x,
            width: w,
        })
    }
}

/// How the screen is drawn: colours (none with `NO_COLOR`, 24-bit or 256, see [`truecolor`]) and glyphs
/// (ASCII letters when the terminal has no Unicode or the player asked for them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Palette {
    /// No colours.
    pub no_color: bool,
    /// 24-bit colour; otherwise the 256-colour palette.
    pub truecolor: bool,
    /// ASCII letters for the pieces.
    pub ascii: bool,
    /// The board's colours.
    pub theme: Theme,
}

impl Palette {
    /// The palette the environment asks for (`NO_COLOR`, `COLORTERM`, `TERM`), with ASCII pieces
    /// or not.
    pub(crate) fn from_env(ascii: bool, theme: Theme) -> Palette {
        Palette {
            theme,
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            truecolor: truecolor_from_env(),
            ascii,
        }
    }
}

/// Whether the terminal shows 24-bit colour, from its `COLORTERM` and `TERM`: `COLORTERM` says
/// `truecolor` or `24bit`, or the terminfo entry is a `-direct` one. Every other terminal gets
/// the themes' 256-colour indices, chosen by hand, rather than 24-bit colours it (or tmux,
/// without its RGB feature) would round to the nearest index itself: that rounding turns the
/// muted squares grey. macOS Terminal.app and a plain tmux set no `COLORTERM`.
pub fn truecolor(colorterm: Option<&str>, term: Option<&str>) -> bool {
    colorterm.is_some_and(|v| v.contains("truecolor") || v.contains("24bit"))
        || term.is_some_and(|t| t.ends_with("-direct"))
}

/// [`truecolor`] for this process's environment.
pub(crate) fn truecolor_from_env() -> bool {
    let var = |name| std::env::var(name).ok();
    truecolor(var("COLORTERM").as_deref(), var("TERM").as_deref())
}

#[cfg(test)]
mod tests {
    use super::truecolor;

    #[test]
    fn a_256_colour_terminal_without_colorterm_gets_the_256_colour_palette() {
        // macOS Terminal.app, and tmux started with default-terminal screen-256color.
        for term in ["xterm-256color", "screen-256color", "tmux-256color"] {
            assert!(!truecolor(None, Some(term)), "{term}");
            assert!(!truecolor(Some(""), Some(term)), "{term}");
        }
        assert!(!truecolor(None, None));
        for colorterm in ["truecolor", "24bit"] {
            assert!(truecolor(Some(colorterm), Some("xterm-256color")));
            assert!(truecolor(Some(colorterm), None));
        }
        assert!(truecolor(None, Some("xterm-direct")));
    }
}
