//! The game screen's state and how it changes: `App::update` takes one `Action` (a key, a mouse
//! click, an engine report, a tick) and returns the effects the runner must carry out (start or
//! stop a search, save, quit). No drawing and no I/O happen here, so tests drive it directly.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use serde::{Deserialize, Serialize};
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Square};

use super::job::{EngineEvent, Purpose, Request};
use crate::engine::{Info, Limits};
use crate::game::{Game, TimeControl};
use crate::player::Source;

/// The engine accepts a draw offer when its score, from its own side, is at most this.
pub const DRAW_ACCEPT_CP: i32 = -30;

/// Who moves for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// A person at the keyboard.
    #[default]
    Human,
    /// Knightfall's engine.
    Engine,
}

impl Player {
    /// Lower-case name, as the flags and the config file write it.
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "engine",
        }
    }
}

/// Choices that persist in the config file; flags override them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Who plays White.
    pub white: Player,
    /// Who plays Black.
    pub black: Player,
    /// Time control `MIN+INC`, or empty for none.
    pub tc: String,
    /// Engine thinking time per move without a time control, in milliseconds.
    pub think_ms: u64,
    /// Draw pieces with ASCII letters.
    pub ascii: bool,
    /// Engine playing level, 1 (beginner) to 10 (full strength).
    pub level: u8,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            white: Player::Human,
            black: Player::Engine,
            tc: String::new(),
            think_ms: 1000,
            ascii: false,
            level: crate::engine::strength::MAX_LEVEL,
        }
    }
}

impl Settings {
    /// The parsed time control, if one is set and valid.
    pub fn time_control(&self) -> Option<TimeControl> {
        if self.tc.trim().is_empty() || self.tc == "none" {
            None
        } else {
            TimeControl::parse(&self.tc).ok()
        }
    }

    /// The player for `color`.
    pub fn player(&self, color: Color) -> Player {
        color.fold_wb(self.white, self.black)
    }
}

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
}

/// What the screen shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The new-game screen.
    Setup,
    /// The board.
    Game,
}

/// Kinds of message for the message line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Plain information.
    Info,
    /// A refused entry.
    Error,
}

/// Something the runner must do after an update.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Start this search (stopping any other).
    Search(Box<Request>),
    /// Stop the running search.
    Stop,
    /// Clear the engine's tables.
    NewGame,
    /// Rewrite the in-progress game file (after every change, for resume and crashes).
    Autosave,
    /// Save the game as PGN, to this file or a new timestamped file in the data directory.
    Save(Option<String>),
    /// Write the settings to the config file.
    SaveSettings,
    /// Leave the program.
    Quit,
}

/// What the program does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A game with at least one human (or chosen on the setup screen).
    Play,
    /// Engine against engine, to watch.
    Watch,
}

/// An incoming event, as the app sees it.
#[derive(Clone, Debug)]
pub enum Action {
    /// A key press.
    Key(KeyEvent),
    /// A left click on a board square.
    Click(Square),
    /// An engine report.
    Engine(EngineEvent),
    /// Time passed (clocks, watch delay).
    Tick,
}

/// Setup screen fields and their choices.
pub const TC_CHOICES: [&str; 7] = ["", "1+0", "3+2", "5+3", "10+5", "15+10", "30+0"];
/// Engine think times offered on the setup screen, in milliseconds.
pub const THINK_CHOICES: [u64; 5] = [250, 500, 1000, 2000, 5000];

/// The whole state of the terminal game.
pub struct App {
    /// The game being played.
    pub game: Game,
    /// Current settings.
    pub settings: Settings,
    /// Per-side engine think time override (watch mode), milliseconds.
    pub think_ms: [u64; 2],
    /// Play or watch.
    pub mode: Mode,
    /// Which screen is up.
    pub screen: Screen,
    /// Selected field on the setup screen.
    pub setup_field: usize,
    /// Board seen from Black's side.
    pub flipped: bool,
    /// No colours (`NO_COLOR`).
    pub no_color: bool,
    /// 24-bit colour available (`COLORTERM`); otherwise the 256-colour palette.
    pub truecolor: bool,
    /// The input line.
    pub input: String,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// The analysis panel.
    pub analysis: Analysis,
    /// Help overlay shown.
    pub show_help: bool,
    /// Looking at an earlier position (ply), not the current one.
    pub view: Option<usize>,
    /// Asking "play again?" after a finished game.
    pub ask_again: bool,
    /// Watch mode paused.
    pub paused: bool,
    /// Watch mode: the least time between moves.
    pub min_delay: Duration,
    /// The game's generation: bumped on every change of the move list.
    pub generation: u64,
    /// The running search's generation and purpose.
    pub pending: Option<(u64, Purpose)>,
    /// The root of the running search, to turn its PV into SAN.
    search_root: Option<Chess>,
    /// A draw offer: who offered and at which ply.
    pub draw_offer: Option<(Color, usize)>,
    /// The start position for new games (None: standard).
    pub start_fen: Option<String>,
    /// When the side to move started thinking.
    turn_started: Instant,
    /// Thinking time used before a pause (clocks stop while paused).
    paused_spent: Duration,
    /// When the last move was made (watch delay).
    last_move_at: Instant,
    /// A move the engine chose, waiting for the watch delay.
    queued: Option<Move>,
    /// Single step requested while paused.
    step: bool,
    /// Where the board was last drawn: (x, y, cell width, cell height), for mouse clicks.
    pub board_geometry: std::cell::Cell<Option<(u16, u16, u16, u16)>>,
}

impl App {
    /// A new app; `setup` opens the new-game screen first.
    pub fn new(settings: Settings, game: Game, mode: Mode, setup: bool) -> App {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let mut app = App {
            think_ms: [settings.think_ms; 2],
            flipped: settings.white == Player::Engine && settings.black == Player::Human,
            settings,
            game,
            mode,
            screen: if setup { Screen::Setup } else { Screen::Game },
            setup_field: 0,
            no_color,
            truecolor: std::env::var("COLORTERM")
                .is_ok_and(|v| v.contains("truecolor") || v.contains("24bit")),
            input: String::new(),
            message: None,
            analysis: Analysis::default(),
            show_help: false,
            view: None,
            ask_again: false,
            paused: false,
            min_delay: Duration::ZERO,
            generation: 1,
            pending: None,
            search_root: None,
            draw_offer: None,
            start_fen: None,
            turn_started: Instant::now(),
            paused_spent: Duration::ZERO,
            last_move_at: Instant::now(),
            queued: None,
            step: false,
            board_geometry: std::cell::Cell::new(None),
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

    /// Effects to run once at start (the engine may move first).
    pub fn start(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        self.restart_clock();
        self.maybe_search(&mut fx);
        fx
    }

    fn name_players(&mut self) {
        for color in Color::ALL {
            self.game.names[crate::game::side(color)] = match self.settings.player(color) {
                Player::Human => "Human".to_string(),
                Player::Engine => concat!("Knightfall ", env!("CARGO_PKG_VERSION")).to_string(),
            };
        }
    }

    /// Whether a tick is needed to keep the screen current (clocks running, a delay pending).
    pub fn needs_ticks(&self) -> bool {
        self.screen == Screen::Game
            && !self.game.is_over()
            && !self.clock_stopped()
            && (self.game.clocks().is_some() || self.queued.is_some())
    }

    /// Time the side to move has used on this move so far.
    pub fn thinking_time(&self) -> Duration {
        if self.clock_stopped() {
            self.paused_spent
        } else {
            self.turn_started.elapsed()
        }
    }

    /// Paused with nothing running: the clocks stand still.
    fn clock_stopped(&self) -> bool {
        self.paused && self.pending.is_none()
    }

    /// Starts the side to move's thinking time from zero.
    fn restart_clock(&mut self) {
        self.turn_started = Instant::now();
        self.paused_spent = Duration::ZERO;
    }

    /// Restarts the clock of the side to move where the pause stopped it.
    fn unfreeze_clock(&mut self) {
        self.turn_started = Instant::now()
            .checked_sub(self.paused_spent)
            .unwrap_or_else(Instant::now);
    }

    /// The position on the board: the viewed one or the current one.
    pub fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.ply())
    }

    /// Sets the message line.
    pub fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Some((text.into(), tone));
    }

    fn is_engine(&self, color: Color) -> bool {
        self.settings.player(color) == Player::Engine
    }

    fn human_to_move(&self) -> bool {
        !self.is_engine(self.game.turn())
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(key) => self.on_key(key, &mut fx),
            Action::Click(sq) => self.on_click(sq, &mut fx),
            Action::Engine(ev) => self.on_engine(ev, &mut fx),
            Action::Tick => self.on_tick(&mut fx),
        }
        fx
    }

    fn on_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            fx.push(Effect::Stop);
            fx.push(Effect::Quit);
            return;
        }
        if self.show_help {
            // Any key closes the help.
            self.show_help = false;
            return;
        }
        if self.screen == Screen::Setup {
            self.on_setup_key(key, fx);
            return;
        }
        if ctrl {
            let word = match key.code {
                KeyCode::Char('z') => "undo",
                KeyCode::Char('f') => "flip",
                KeyCode::Char('t') => "hint",
                KeyCode::Char('r') => "resign",
                KeyCode::Char('d') => "draw",
                KeyCode::Char('s') => "save",
                KeyCode::Char('n') => "new",
                KeyCode::Char('e') => "fen",
                KeyCode::Char('l') => "moves",
                KeyCode::Char('p') => "pause",
                _ => return,
            };
            self.command(word, None, fx);
            return;
        }
        if self.ask_again && self.input.is_empty() {
            match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => {
                    self.command("new", None, fx);
                    return;
                }
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                    self.ask_again = false;
                    self.say("Type new to play again, quit to leave.", Tone::Info);
                    return;
                }
                _ => {}
            }
        }
        match key.code {
            KeyCode::F(1) => self.show_help = true,
            KeyCode::Char('?') if self.input.is_empty() => self.show_help = true,
            KeyCode::Char(' ') if self.input.is_empty() && self.mode == Mode::Watch => {
                self.command("pause", None, fx)
            }
            KeyCode::Char('>') if self.input.is_empty() && self.mode == Mode::Watch => {
                self.command("step", None, fx)
            }
            KeyCode::Char(c) if self.input.chars().count() < 40 && !c.is_control() => {
                self.input.push(c);
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Esc => {
                self.input.clear();
                self.view = None;
                self.message = None;
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.input);
                self.submit(text.trim(), fx);
            }
            KeyCode::Left | KeyCode::Up => {
                let ply = self.shown_ply();
                if ply > 0 {
                    self.view = Some(ply - 1);
                }
            }
            KeyCode::Right | KeyCode::Down => {
                if let Some(ply) = self.view {
                    self.view = (ply + 1 < self.game.ply()).then_some(ply + 1);
                }
            }
            KeyCode::Home => self.view = Some(0),
            KeyCode::End => self.view = None,
            // A page of the move list: ten moves.
            KeyCode::PageUp => self.view = Some(self.shown_ply().saturating_sub(20)),
            KeyCode::PageDown => {
                let ply = self.shown_ply() + 20;
                self.view = (ply < self.game.ply()).then_some(ply);
            }
            _ => {}
        }
    }

    fn on_setup_key(&mut self, key: KeyEvent, fx: &mut Vec<Effect>) {
        match key.code {
            KeyCode::Up => self.setup_field = (self.setup_field + 4) % 5,
            KeyCode::Down | KeyCode::Tab => self.setup_field = (self.setup_field + 1) % 5,
            KeyCode::Left | KeyCode::Right | KeyCode::Char(' ') => {
                let forward = key.code != KeyCode::Left;
                self.cycle_setup(forward);
            }
            KeyCode::Enter => {
                self.screen = Screen::Game;
                self.think_ms = [self.settings.think_ms; 2];
                self.game = self.fresh_game();
                self.flipped =
                    self.settings.white == Player::Engine && self.settings.black == Player::Human;
                self.generation += 1;
                self.restart_clock();
                fx.push(Effect::SaveSettings);
                fx.push(Effect::NewGame);
                self.say(
                    "Type a move (e2e4 or Nf3) or a command; ? for help.",
                    Tone::Info,
                );
                self.maybe_search(fx);
            }
            KeyCode::Esc | KeyCode::Char('q') => fx.push(Effect::Quit),
            KeyCode::F(1) | KeyCode::Char('?') => self.show_help = true,
            _ => {}
        }
    }

    fn cycle_setup(&mut self, forward: bool) {
        let step = |i: usize, n: usize| {
            if forward {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            }
        };
        match self.setup_field {
            0 | 1 => {
                let p = if self.setup_field == 0 {
                    &mut self.settings.white
                } else {
                    &mut self.settings.black
                };
                *p = match p {
                    Player::Human => Player::Engine,
                    Player::Engine => Player::Human,
                };
            }
            2 => {
                let i = TC_CHOICES
                    .iter()
                    .position(|t| *t == self.settings.tc)
                    .unwrap_or(0);
                self.settings.tc = TC_CHOICES[step(i, TC_CHOICES.len())].to_string();
            }
            3 => {
                let i = THINK_CHOICES
                    .iter()
                    .position(|t| *t == self.settings.think_ms)
                    .unwrap_or(2);
                self.settings.think_ms = THINK_CHOICES[step(i, THINK_CHOICES.len())];
            }
            _ => {
                let max = crate::engine::strength::MAX_LEVEL as usize;
                self.settings.level = step(self.settings.level as usize - 1, max) as u8 + 1;
            }
        }
    }

    fn fresh_game(&mut self) -> Game {
        let mut game = self
            .start_fen
            .as_deref()
            .and_then(|f| Game::from_fen(f).ok())
            .unwrap_or_default();
        game.set_time_control(self.settings.time_control());
        let saved = std::mem::replace(&mut self.game, game);
        self.name_players();
        std::mem::replace(&mut self.game, saved)
    }

    fn on_click(&mut self, sq: Square, fx: &mut Vec<Effect>) {
        if self.screen != Screen::Game || self.show_help {
            return;
        }
        let pos = self.game.position();
        let own = pos
            .board()
            .piece_at(sq)
            .is_some_and(|p| p.color == pos.turn());
        match self.selected() {
            Some(from) if !own => {
                let mut text = format!("{from}{sq}");
                if let Err(crate::game::MoveError::PromotionMissing(_)) =
                    self.game.parse_move(&text)
                {
                    text.push('q');
                }
                self.input.clear();
                self.submit(&text, fx);
            }
            _ if own => self.input = sq.to_string(),
            _ => self.input.clear(),
        }
    }

    /// The square typed so far when the input names one of the mover's pieces.
    pub fn selected(&self) -> Option<Square> {
        let sq: Square = self.input.trim().parse().ok()?;
        let pos = self.game.position();
        pos.board()
            .piece_at(sq)
            .filter(|p| p.color == pos.turn())
            .map(|_| sq)
    }

    /// Legal targets of the selected piece, for highlighting.
    pub fn targets(&self) -> Vec<Square> {
        let Some(from) = self.selected() else {
            return Vec::new();
        };
        self.game
            .position()
            .legal_moves()
            .iter()
            .filter(|m| m.from() == Some(from))
            .map(|m| match m {
                Move::Castle { king, rook } => {
                    if rook.file() > king.file() {
                        Square::from_coords(shakmaty::File::G, king.rank())
                    } else {
                        Square::from_coords(shakmaty::File::C, king.rank())
                    }
                }
                _ => m.to(),
            })
            .collect()
    }

    fn submit(&mut self, text: &str, fx: &mut Vec<Effect>) {
        if text.is_empty() {
            return;
        }
        let (word, arg) = match text.split_once(char::is_whitespace) {
            Some((w, a)) => (w, Some(a.trim())),
            None => (text, None),
        };
        let lower = word.to_ascii_lowercase();
        const WORDS: [&str; 16] = [
            "new", "undo", "flip", "hint", "resign", "draw", "save", "fen", "moves", "help",
            "quit", "exit", "pause", "resume", "step", "q",
        ];
        if WORDS.contains(&lower.as_str()) {
            self.command(&lower, arg, fx);
            return;
        }
        self.try_move(text, fx);
    }

    fn try_move(&mut self, text: &str, fx: &mut Vec<Effect>) {
        if self.game.is_over() {
            self.say("The game is over: type new to play again.", Tone::Error);
            return;
        }
        if !self.human_to_move() {
            self.say(
                format!(
                    "Not your move: the engine plays {}.",
                    color_name(self.game.turn())
                ),
                Tone::Error,
            );
            return;
        }
        match self.game.parse_move(text) {
            Ok(m) => {
                self.view = None;
                self.play_move(m, fx);
            }
            Err(e) => self.say(format!("{e}"), Tone::Error),
        }
    }

    fn play_move(&mut self, m: Move, fx: &mut Vec<Effect>) {
        let spent = self.game.clocks().map(|_| self.turn_started.elapsed());
        let mover = self.game.turn();
        let uci = m.to_uci(CastlingMode::Standard).to_string();
        if self.game.play(m, spent).is_err() {
            self.say(format!("{uci} is not legal here"), Tone::Error);
            return;
        }
        if self
            .draw_offer
            .is_some_and(|(c, ply)| c != mover && ply + 1 < self.game.ply())
        {
            self.draw_offer = None;
        }
        self.after_change(fx);
        if !self.game.is_over() && self.message.as_ref().is_some_and(|m| m.1 == Tone::Error) {
            self.message = None;
        }
    }

    /// Bookkeeping after the move list changed: new generation, clocks, engine, end of game.
    fn after_change(&mut self, fx: &mut Vec<Effect>) {
        self.generation += 1;
        if self.pending.take().is_some() {
            fx.push(Effect::Stop);
        }
        self.queued = None;
        self.analysis.thinking = None;
        self.restart_clock();
        self.last_move_at = Instant::now();
        fx.push(Effect::Autosave);
        if self.game.is_over() {
            self.announce_end();
        } else {
            self.maybe_search(fx);
        }
    }

    fn announce_end(&mut self) {
        if let Some(o) = self.game.outcome() {
            self.ask_again = self.mode == Mode::Play;
            let ask = if self.ask_again {
                " Play again with the same settings? (y/n)"
            } else {
                ""
            };
            self.say(format!("{}.{ask}", o.announce()), Tone::Info);
        }
    }

    /// Starts the engine when it is its turn and nothing holds it back.
    fn maybe_search(&mut self, fx: &mut Vec<Effect>) {
        if self.screen != Screen::Game
            || self.game.is_over()
            || self.paused && !self.step
            || !self.is_engine(self.game.turn())
            || self
                .pending
                .is_some_and(|(g, p)| g == self.generation && p == Purpose::Play)
            || self.queued.is_some()
        {
            return;
        }
        self.step = false;
        let turn = self.game.turn();
        let limits = match self.game.clocks() {
            Some(c) => c.limits(),
            None => Limits::movetime(self.think_ms[crate::game::side(turn)].max(1)),
        };
        self.request(Purpose::Play, limits, fx);
    }

    fn request(&mut self, purpose: Purpose, limits: Limits, fx: &mut Vec<Effect>) {
        let pos = self.game.position().clone();
        self.search_root = Some(pos.clone());
        self.pending = Some((self.generation, purpose));
        self.analysis = Analysis {
            thinking: Some(pos.turn()),
            ..Analysis::default()
        };
        // A hint is the engine's honest best, whatever level it plays at.
        let level = match purpose {
            Purpose::Hint => crate::engine::strength::MAX_LEVEL,
            Purpose::Play | Purpose::DrawOffer => self.settings.level,
        };
        fx.push(Effect::Search(Box::new(Request {
            generation: self.generation,
            purpose,
            pos,
            history: self.game.history_keys().to_vec(),
            limits: limits.at_level(level),
        })));
    }

    fn on_engine(&mut self, ev: EngineEvent, fx: &mut Vec<Effect>) {
        match ev {
            EngineEvent::Info { generation, info } => {
                if generation == self.generation && self.pending.is_some() {
                    self.take_info(&info);
                }
            }
            EngineEvent::Failed {
                generation,
                message,
            } => {
                if generation == self.generation {
                    self.pending = None;
                    self.analysis.thinking = None;
                    self.paused = self.mode == Mode::Watch;
                    self.say(
                        format!("The engine failed ({message}); undo, new or quit."),
                        Tone::Error,
                    );
                }
            }
            EngineEvent::Warning(text) => self.say(text, Tone::Error),
            EngineEvent::Forfeit {
                generation,
                message,
            } => {
                if generation == self.generation
                    && self.pending.is_some_and(|(_, p)| p == Purpose::Play)
                {
                    self.forfeit(message, fx);
                }
            }
            EngineEvent::Done {
                generation,
                purpose,
                best,
                score,
                source,
                note,
            } => {
                if generation != self.generation || self.pending != Some((generation, purpose)) {
                    return; // stale: the game moved on
                }
                if purpose == Purpose::Play
                    && !best.is_some_and(|m| self.game.position().is_legal(m))
                {
                    let what = match best {
                        Some(m) => format!(
                            "played the illegal move {}",
                            m.to_uci(CastlingMode::Standard)
                        ),
                        None => "gave no move".to_string(),
                    };
                    self.forfeit(format!("the engine {what}"), fx);
                    return;
                }
                self.pending = None;
                self.analysis.thinking = None;
                let root_turn = self.game.turn();
                let white_score = root_turn.fold_wb(score, -score);
                self.analysis.score_white = Some(white_score);
                if source != Source::Search {
                    // No search ran: the panel shows the move and where it came from.
                    self.analysis = Analysis {
                        score_white: (source == Source::Tablebase).then_some(white_score),
                        source,
                        pv: match (&self.search_root, best) {
                            (Some(root), Some(m)) => {
                                let line = pv_san(root, &[m]);
                                match note {
                                    Some(n) => format!("{line} ({n})"),
                                    None => line,
                                }
                            }
                            _ => String::new(),
                        },
                        ..Analysis::default()
                    };
                }
                match purpose {
                    Purpose::Hint => {
                        if let Some(m) = best {
                            let san = SanPlus::from_move(self.game.position().clone(), m);
                            self.say(format!("Hint: {san}"), Tone::Info);
                        }
                    }
                    Purpose::DrawOffer => self.judge_draw(-score),
                    Purpose::Play => {
                        if self.draw_offer.is_some_and(|(c, _)| c != root_turn) {
                            self.judge_draw(score);
                            if self.game.is_over() {
                                return;
                            }
                        }
                        let Some(m) = best else { return };
                        if self.mode == Mode::Watch
                            && !self.paused
                            && (self.last_move_at.elapsed() < self.min_delay)
                        {
                            self.queued = Some(m);
                            return;
                        }
                        self.play_move(m, fx);
                    }
                }
            }
        }
    }

    /// The engine to move cannot go on: its side loses, and the message says why.
    fn forfeit(&mut self, why: String, fx: &mut Vec<Effect>) {
        let loser = self.game.turn();
        self.game.forfeit(loser);
        self.end_now(fx);
        let result = self.message.take().map(|(m, _)| m).unwrap_or_default();
        self.say(
            format!("{} forfeits: {why}. {result}", color_name(loser)),
            Tone::Error,
        );
    }

    /// The engine answers a pending draw offer with its own-side score.
    fn judge_draw(&mut self, engine_score: i32) {
        self.draw_offer = None;
        if engine_score <= DRAW_ACCEPT_CP {
            self.game.agree_draw();
            self.announce_end();
        } else {
            self.say(
                format!(
                    "The engine declines the draw (it rates its position {:+.2}).",
                    f64::from(engine_score) / 100.0
                ),
                Tone::Info,
            );
        }
    }

    fn take_info(&mut self, info: &Info) {
        let Some(root) = &self.search_root else {
            return;
        };
        let turn = root.turn();
        self.analysis.depth = info.depth;
        self.analysis.seldepth = info.seldepth;
        self.analysis.nodes = info.nodes;
        self.analysis.nps = info.nps;
        self.analysis.tb_hits = info.tb_hits;
        self.analysis.score_white = Some(turn.fold_wb(info.score, -info.score));
        self.analysis.pv = pv_san(root, &info.pv);
        self.analysis.source = Source::Search;
    }

    fn on_tick(&mut self, fx: &mut Vec<Effect>) {
        if self.screen != Screen::Game || self.game.is_over() {
            return;
        }
        if self.game.clocks().is_some() && !self.clock_stopped() {
            let turn = self.game.turn();
            // Engines get a little grace: their own time manager keeps them inside the clock, and
            // the move's arrival is what counts.
            let grace = if self.is_engine(turn) {
                Duration::from_millis(200)
            } else {
                Duration::ZERO
            };
            let spent = self.turn_started.elapsed();
            if self.game.is_flagged(turn, spent.saturating_sub(grace)) {
                self.game.flag(turn);
                self.generation += 1;
                if self.pending.take().is_some() {
                    fx.push(Effect::Stop);
                }
                fx.push(Effect::Autosave);
                self.announce_end();
                return;
            }
        }
        if self.queued.is_some() && self.last_move_at.elapsed() >= self.min_delay && !self.paused
            || self.queued.is_some() && self.step
        {
            self.step = false;
            if let Some(m) = self.queued.take() {
                self.play_move(m, fx);
            }
        }
    }

    /// Runs a command typed as a word or given by its key.
    fn command(&mut self, word: &str, arg: Option<&str>, fx: &mut Vec<Effect>) {
        match word {
            "quit" | "exit" | "q" => {
                fx.push(Effect::Stop);
                fx.push(Effect::Quit);
            }
            "help" => self.show_help = true,
            "flip" => self.flipped = !self.flipped,
            "fen" => {
                let fen = self.game.fen();
                self.say(format!("FEN: {fen}"), Tone::Info);
            }
            "moves" => {
                let list = self.game.legal_sans();
                if list.is_empty() {
                    self.say("No legal moves.", Tone::Info);
                } else {
                    self.say(
                        format!("{} legal moves: {}", list.len(), list.join(" ")),
                        Tone::Info,
                    );
                }
            }
            "save" => fx.push(Effect::Save(
                arg.filter(|a| !a.is_empty()).map(String::from),
            )),
            "new" => {
                self.game = self.fresh_game();
                self.view = None;
                self.ask_again = false;
                self.draw_offer = None;
                self.analysis = Analysis::default();
                self.paused = false;
                fx.push(Effect::NewGame);
                self.say("New game.", Tone::Info);
                self.generation += 1;
                if self.pending.take().is_some() {
                    fx.push(Effect::Stop);
                }
                self.queued = None;
                self.restart_clock();
                self.last_move_at = Instant::now();
                self.maybe_search(fx);
            }
            "undo" => self.undo(fx),
            "hint" => {
                if self.game.is_over() {
                    self.say("The game is over.", Tone::Error);
                } else if !self.human_to_move() {
                    self.say(
                        "The engine is to move; a hint is for your move.",
                        Tone::Error,
                    );
                } else {
                    self.say("Thinking about a hint...", Tone::Info);
                    self.request(Purpose::Hint, Limits::movetime(1000), fx);
                }
            }
            "resign" => {
                if self.game.is_over() {
                    self.say("The game is over.", Tone::Error);
                    return;
                }
                let turn = self.game.turn();
                // Against the engine the human resigns, whoever is to move.
                let loser = if self.is_engine(turn) && !self.is_engine(!turn) {
                    !turn
                } else {
                    turn
                };
                self.game.resign(loser);
                self.end_now(fx);
            }
            "draw" => self.offer_draw(fx),
            "pause" | "resume" => {
                let pause = match word {
                    "pause" => !self.paused,
                    _ => false,
                };
                if pause && !self.paused {
                    self.paused_spent = self.thinking_time();
                }
                self.paused = pause;
                if pause {
                    self.generation += 1;
                    if self.pending.take().is_some() {
                        fx.push(Effect::Stop);
                    }
                    self.analysis.thinking = None;
                    self.say("Paused: space resumes, > plays one move.", Tone::Info);
                } else {
                    self.message = None;
                    self.unfreeze_clock();
                    self.maybe_search(fx);
                }
            }
            "step" => {
                if self.paused {
                    self.step = true;
                    self.unfreeze_clock();
                    if self.queued.is_some() {
                        self.on_tick(fx);
                    } else {
                        self.maybe_search(fx);
                    }
                } else {
                    self.say("Step works while paused (space).", Tone::Info);
                }
            }
            _ => {}
        }
    }

    fn end_now(&mut self, fx: &mut Vec<Effect>) {
        self.generation += 1;
        if self.pending.take().is_some() {
            fx.push(Effect::Stop);
        }
        self.analysis.thinking = None;
        fx.push(Effect::Autosave);
        self.announce_end();
    }

    fn offer_draw(&mut self, fx: &mut Vec<Effect>) {
        if self.game.is_over() {
            self.say("The game is over.", Tone::Error);
            return;
        }
        let turn = self.game.turn();
        let vs_engine = self.is_engine(Color::White) != self.is_engine(Color::Black);
        if !vs_engine {
            // Two humans (or two engines): the other side accepts by offering back.
            match self.draw_offer {
                Some((c, ply)) if c != turn && ply + 1 >= self.game.ply() => {
                    self.game.agree_draw();
                    self.draw_offer = None;
                    self.end_now(fx);
                }
                _ => {
                    self.draw_offer = Some((turn, self.game.ply()));
                    self.say(
                        format!(
                            "{} offers a draw; {} accepts by typing draw.",
                            color_name(turn),
                            color_name(!turn)
                        ),
                        Tone::Info,
                    );
                }
            }
            return;
        }
        let human = if self.is_engine(Color::White) {
            Color::Black
        } else {
            Color::White
        };
        self.draw_offer = Some((human, self.game.ply()));
        self.say(
            "You offer a draw; the engine is thinking about it...",
            Tone::Info,
        );
        if self.human_to_move() {
            self.request(Purpose::DrawOffer, Limits::movetime(300), fx);
        }
    }

    fn undo(&mut self, fx: &mut Vec<Effect>) {
        if self.game.ply() == 0 {
            self.say("Nothing to undo.", Tone::Error);
            return;
        }
        self.game.undo();
        let humans = Color::ALL.iter().any(|&c| !self.is_engine(c));
        // Against the engine, take back its reply and your move together.
        while humans && self.game.ply() > 0 && self.is_engine(self.game.turn()) {
            self.game.undo();
        }
        self.view = None;
        self.ask_again = false;
        self.draw_offer = None;
        self.analysis = Analysis::default();
        self.say("Move taken back.", Tone::Info);
        self.generation += 1;
        if self.pending.take().is_some() {
            fx.push(Effect::Stop);
        }
        self.queued = None;
        self.restart_clock();
        fx.push(Effect::Autosave);
        self.maybe_search(fx);
    }
}

/// "White" or "Black".
pub fn color_name(c: Color) -> &'static str {
    c.fold_wb("White", "Black")
}

/// A principal variation in SAN with move numbers, played from `root`; stops at the first
/// move that is not legal (a PV from a hash collision).
pub fn pv_san(root: &Chess, pv: &[Move]) -> String {
    let mut pos = root.clone();
    let mut out = String::new();
    for (i, m) in pv.iter().enumerate() {
        if !pos.is_legal(*m) {
            break;
        }
        let num = pos.fullmoves().get();
        if pos.turn() == Color::White {
            out.push_str(&format!("{num}. "));
        } else if i == 0 {
            out.push_str(&format!("{num}... "));
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, *m);
        out.push_str(&san.to_string());
        out.push(' ');
    }
    out.trim_end().to_string()
}

/// Maps a mouse event to a board square using the last drawn geometry.
pub fn click_square(app: &App, ev: &MouseEvent) -> Option<Square> {
    if ev.kind != MouseEventKind::Down(MouseButton::Left) {
        return None;
    }
    let (x0, y0, cw, ch) = app.board_geometry.get()?;
    if ev.column < x0 || ev.row < y0 || cw == 0 || ch == 0 {
        return None;
    }
    let col = (ev.column - x0) / cw;
    let row = (ev.row - y0) / ch;
    if col >= 8 || row >= 8 {
        return None;
    }
    let (file, rank) = if app.flipped {
        (7 - col, row)
    } else {
        (col, 7 - row)
    };
    Some(Square::from_coords(
        shakmaty::File::new(u32::from(file)),
        shakmaty::Rank::new(u32::from(rank)),
    ))
}
