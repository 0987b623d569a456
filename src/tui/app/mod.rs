//! The game screen's state and how it changes: `App::update` takes one `Action` (a key, a mouse
//! click, an engine report, a tick) and returns the effects the runner must carry out (start or
//! stop a search, save, quit). No drawing and no I/O happen here, so tests drive it directly.

mod clock;
mod keys;
mod commands;
mod engine;
mod flow;
mod friend;
pub mod seat;

pub use crate::store::settings::{Settings, Side};

use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Move};

use super::job::{Purpose, next_generation};
pub use super::screen::{Action, Effect, Tone};
use crate::game::{Game, WallClock};
use crate::player::Source;
use crate::tui::chrome::help::Help;
pub use friend::{LAG_CAP, LINK_WAIT, Remote};
pub use keys::{Browse, GAME_KEYS, GameCommand};

/// The engine accepts a draw offer when its score, from its own side, is at most this: it must
/// judge itself clearly worse, not merely a little behind as Black is in most openings.
pub(crate) const DRAW_ACCEPT_CP: i32 = -150;
/// How long a peek shows the hidden pieces.
pub(crate) const PEEK: Duration = Duration::from_secs(3);
/// From this move on, an equal position (within `EQUAL_CP`) is a long equal ending the engine
/// will share the point in.
pub(crate) const LONG_GAME_MOVES: u32 = 40;
/// How close to level a long game must be for the engine to take a draw.
pub(crate) const EQUAL_CP: i32 = 20;

/// The analysis panel's content: the latest report of the current search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Completed depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Raw engine score from White's view (mate scale included).
    pub score_white: Option<i32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Tablebase probes inside the search that gave a value.
    pub tb_hits: u64,
    /// Principal variation in SAN, with move numbers.
    pub pv: String,
    /// Where the move comes from.
    pub source: Source,
    /// Whose move the engine is thinking about, while it thinks.
    pub thinking: Option<Color>,
    /// The search's iterations so far, one per depth (the latest report of each), oldest first;
    /// shown when the panel has room.
    pub history: Vec<Iteration>,
    /// The level the search played at (its score is that level's opinion below full
    /// strength); 0 when unknown.
    pub level: u8,
}

/// One depth of a search, as the panel's history shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Iteration {
    /// The depth.
    pub depth: u32,
    /// Score from White's view.
    pub score_white: i32,
    /// The line in SAN.
    pub pv: String,
}

/// At most this many iterations are kept (a search rarely goes past depth 60).
pub(crate) const HISTORY_LEN: usize = 64;

/// A step that asks first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// Leave the unfinished game for the new-game screen.
    New,
    /// Resign the game.
    Resign,
    /// Offer the engine a draw.
    Draw,
    /// The friend's offer: accept it?
    Friend(crate::net::message::Offer),
}

/// What the program does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A game with at least one human (or chosen on the setup screen).
    Play,
    /// Engine against engine, to watch.
    Watch,
}

/// Watching engines: pause, single steps, the least time between moves and each side's time
/// per move.
#[derive(Clone, Debug)]
pub struct WatchControl {
    /// Paused.
    pub paused: bool,
    /// The least time between moves.
    pub min_delay: Duration,
    /// Per-side engine think time override, milliseconds.
    pub think_ms: [u64; 2],
    /// A move the engine chose, waiting for the delay, with the time it took.
    queued: Option<(Move, Duration)>,
    /// A weaker level's move on the clock, held until it has thought about as long as a person
    /// would: the move and that time.
    paced: Option<(Move, Duration)>,
    /// Single step requested while paused.
    step: bool,
    /// When the last move was made (for the delay).
    last_move_at: Instant,
}

/// The clock of the side to move, as the screen runs it between moves.
#[derive(Clone, Debug)]
struct TurnClock {
    /// When the side to move started thinking.
    started: Instant,
    /// Thinking time used before a pause (clocks stop while paused).
    paused_spent: Duration,
    /// The clocks wait for the next move (a finished game was reopened by undo).
    held: bool,
    /// The low-time bell has rung on this move.
    low_time_rung: bool,
}

/// The input line and the message line.
#[derive(Clone, Debug, Default)]
pub struct InputLine {
    /// What is typed.
    pub text: String,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// The message was set by the action being applied (older ones clear when a move is made).
    fresh: bool,
}

/// What waits for an answer or a turn: a premove, a draw offer, a question, "play again?".
#[derive(Clone, Debug, Default)]
pub struct Pending {
    /// A move typed while the engine was thinking, tried as soon as it is the person's turn.
    pub premove: Option<String>,
    /// A draw offer: who offered and at which ply.
    pub draw_offer: Option<(Color, usize)>,
    /// A question waiting for y or n.
    pub confirm: Option<Confirm>,
    /// Asking "play again?" after a finished game.
    pub ask_again: bool,
}

/// The game's traffic with the search service and what the analysis panel shows of it.
#[derive(Clone, Debug)]
pub struct SearchState {
    /// The game's generation: renewed on every change of the move list.
    pub generation: u64,
    /// The running search's generation and purpose.
    pub pending: Option<(u64, Purpose)>,
    /// The analysis panel.
    pub analysis: Analysis,
    /// The person asked to see the engine's expected line (Ctrl-V), or it is a hint's.
    pub reveal_line: bool,
    /// The root of the running search, to turn its PV into SAN.
    root: Option<Chess>,
    /// Names external engines gave for themselves (`id name`), by command line.
    identified: Vec<(String, String)>,
    /// The last hint's move, marked on the board until a move is made.
    pub hint: Option<shakmaty::Move>,
}

/// The whole state of the terminal game, by concern.
pub struct App {
    /// The game being played.
    pub game: Game,
    /// Current settings.
    pub settings: Settings,
    /// Play or watch.
    pub mode: Mode,
    /// Watching engines.
    pub watch: WatchControl,
    /// The input and message lines.
    pub line: InputLine,
    /// Premove, draw offer, questions.
    pub offers: Pending,
    /// The search service's work for the game.
    pub search: SearchState,
    /// Board seen from Black's side.
    pub flipped: bool,
    /// No colours (`NO_COLOR`).
    pub no_color: bool,
    /// 24-bit colour available (see `screen::truecolor`); otherwise the 256-colour palette.
    pub truecolor: bool,
    /// The help overlay.
    pub help: Help,
    /// Looking at an earlier position (ply), not the current one.
    pub view: Option<usize>,
    /// The start position for new games (None: standard).
    pub start_fen: Option<String>,
    /// The side to move's clock between moves.
    clock: TurnClock,
    /// The time of the event being applied (of the last one, while drawing): the clocks read
    /// it, so they run on the events' time and never on the wall clock inside an update.
    now: Instant,
    /// The system clock as read when the screen was built: it dates each game begun here by
    /// the events' time. Without it (a test) games are not dated.
    pub wall: Option<WallClock>,
    /// The friend at another Knightfall and the link to them, in a game against a friend.
    pub remote: Option<Remote>,
    /// Blindfolded, the pieces are shown until this moment (a peek).
    pub peek_until: Option<Instant>,
}

impl App {
    /// A new app at the moment `now`.
    pub fn new(settings: Settings, game: Game, mode: Mode, now: Instant) -> App {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let mut app = App {
            watch: WatchControl {
                paused: false,
                min_delay: Duration::ZERO,
                think_ms: [settings.think_ms; 2],
                queued: None,
                paced: None,
                step: false,
                last_move_at: now,
            },
            flipped: !settings.white.is_human() && settings.black.is_human(),
            settings,
            game,
            mode,
            no_color,
            truecolor: crate::tui::screen::truecolor_from_env(),
            line: InputLine::default(),
            offers: Pending::default(),
            search: SearchState {
                generation: next_generation(),
                pending: None,
                analysis: Analysis::default(),
                reveal_line: false,
                root: None,
                identified: Vec::new(),
                hint: None,
            },
            help: Help::default(),
            view: None,
            start_fen: None,
            clock: TurnClock {
                started: now,
                paused_spent: Duration::ZERO,
                held: false,
                low_time_rung: false,
            },
            now,
            wall: None,
            remote: None,
            peek_until: None,
        };
        if app.game.clocks().is_none() {
            app.game.set_time_control(app.settings.time_control());
        }
        app.name_players();
        if app.game.is_over() {
            app.announce_end();
        }
        app
    }

    /// Effects to run once at start, at `now` (the engine may move first).
    pub fn start(&mut self, now: Instant) -> Vec<Effect> {
        self.now = now;
        let mut fx = Vec::new();
        self.restart_clock();
        self.maybe_search(&mut fx);
        fx
    }

    /// Whether the board shows no pieces now: blindfolded, and not peeking.
    pub fn pieces_hidden(&self) -> bool {
        self.settings.blindfold && self.peek_until.is_none_or(|until| self.now >= until)
    }

    /// The position on the board: the viewed one or the current one.
    pub fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.ply())
    }

    /// Sets the message line.
    pub fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.line.message = Some((text.into(), tone));
        self.line.fresh = true;
    }

    /// Whether an engine (Knightfall or another) moves for `color`.
    fn is_engine(&self, color: Color) -> bool {
        !self.settings.side(color).is_human()
    }

    /// A person plays an engine (not two people, not two engines watched).
    pub(crate) fn person_vs_engine(&self) -> bool {
        self.is_engine(Color::White) != self.is_engine(Color::Black)
    }

    fn human_to_move(&self) -> bool {
        !self.is_engine(self.game.turn())
    }

    /// Applies one action that happened at `now` and returns what the runner must do.
    pub fn update(&mut self, action: Action, now: Instant) -> Vec<Effect> {
        let mut fx = Vec::new();
        self.now = now.max(self.now);
        self.line.fresh = false;
        match action {
            Action::Key(key) => self.on_key(key, &mut fx),
            Action::Click(sq) => self.on_click(sq, &mut fx),
            Action::Engine(ev) => self.on_engine(ev, &mut fx),
            Action::Tick => self.on_tick(&mut fx),
            Action::Front => self.on_front(&mut fx),
            Action::Note(text, tone) => self.say(text, tone),
            Action::Saved(path) => {
                self.say(format!("Analysis saved to {}", path.display()), Tone::Info)
            }
            Action::Play(choice) => self.play_choice(*choice, &mut fx),
            Action::Peer(event) => self.on_peer(event, &mut fx),
            Action::Graph { .. }
            | Action::Trained(_)
            | Action::GameRead { .. }
            | Action::Kept(..)
            | Action::Checked(..)
            | Action::Meeting(_) => {}
        }
        fx
    }

    /// Back in front after another screen: the engine goes on if it is its turn, its clock from
    /// where its stopped search left it. A person's clock ran on meanwhile: another screen is
    /// no way to stop it.
    fn on_front(&mut self, fx: &mut Vec<Effect>) {
        if self.is_engine(self.game.turn()) && !self.clock_stopped() {
            self.unfreeze_clock();
        }
        self.watch.last_move_at = self.now;
        self.maybe_search(fx);
    }

    /// The sides as the screen lays them out left to right, beside the board: the one at the
    /// bottom of the board last, nearest its player, as lichess has it (the person's own
    /// clock and name, on a board turned to their side).
    pub fn sides_across(&self) -> [Color; 2] {
        if self.flipped {
            [Color::White, Color::Black]
        } else {
            [Color::Black, Color::White]
        }
    }

    /// `color`'s player as the screen names them: as the game records them, but the person
    /// playing the engine as "You" where the record has Knightfall's anonymous "Human".
    pub fn shown_name(&self, color: Color) -> String {
        let name = &self.game.names[crate::game::side(color)];
        if name == crate::train::mistake::PERSON
            && self.settings.side(color).is_human()
            && self.person_vs_engine()
        {
            "You".to_string()
        } else {
            name.clone()
        }
    }

    /// The colours and glyphs the board is drawn with.
    pub fn palette(&self) -> crate::tui::screen::Palette {
        crate::tui::screen::Palette {
            no_color: self.no_color,
            truecolor: self.truecolor,
            ascii: self.settings.ascii,
            theme: self.settings.theme,
        }
    }
}

/// "White" or "Black".
pub(crate) fn color_name(c: Color) -> &'static str {
    c.fold_wb("White", "Black")
}
