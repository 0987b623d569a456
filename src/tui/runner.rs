//! The one loop every screen runs in: one event channel (terminal input, signals, the search
//! service's reports), the screen in front applying each event, and the effects it asks for
//! carried out here: searches and reviews by the service, files through `store`, screens opened
//! and closed. The screens are a stack: the game at the bottom, the board or a review opened
//! from it on top; closing the top one brings back the one below. `watch --headless` runs the
//! same loop without drawing.

use std::path::Path;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use crossterm::event::{MouseButton, MouseEventKind};
use ratatui::Frame;

use super::app::App;
use super::board::Board;
use super::event::Event;
use super::friend::FriendScreen;
use super::home::HomeScreen;
use super::job::{BulkReport, EngineEvent};
use super::library::LibraryScreen;
use super::review::ReviewScreen;
use super::review_all::ReviewAll;
use super::screen::{Action, Drawn, Effect, Open, Tone};
use super::service::Service;
use super::settings::SettingsScreen;
use super::setup::SetupScreen;
use super::stats::StatsScreen;
use super::train::Train;
use super::ui::{self, Palette};
use crate::game::{Game, timestamp};
use crate::player::Player;
use crate::review::analyse;
use crate::store::library::{Library, keep};
use crate::store::{self, Paths};

mod meeting;

/// How often the clocks are looked at while they run.
const TICK: Duration = Duration::from_millis(100);

/// What the loop should do after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Go on (redraw if there is a screen).
    Continue,
    /// Leave the program.
    Quit,
}

/// A screen, as the runner holds it.
pub enum Front {
    /// The game.
    Game(Box<App>),
    /// The new-game screen.
    Setup(Box<SetupScreen>),
    /// The analysis board.
    Board(Box<Board>),
    /// A review, or the list of games to review.
    Review(Box<ReviewScreen>),
    /// Training: endgame drills.
    Train(Box<Train>),
    /// The home screen.
    Home(Box<HomeScreen>),
    /// The settings screen.
    Settings(Box<SettingsScreen>),
    /// The player's statistics.
    Stats(Box<StatsScreen>),
    /// The library.
    Library(Box<LibraryScreen>),
    /// The friend screen.
    Friend(Box<FriendScreen>),
}

impl Front {
    fn update(&mut self, action: Action, now: Instant) -> Vec<Effect> {
        match self {
            Front::Game(app) => app.update(action, now),
            Front::Setup(setup) => setup.update(action, now),
            Front::Board(board) => board.update(action, now),
            Front::Review(review) => review.update(action, now),
            Front::Train(train) => train.update(action, now),
            Front::Home(home) => home.update(action, now),
            Front::Settings(settings) => settings.update(action, now),
            Front::Stats(stats) => stats.update(action, now),
            Front::Library(library) => library.update(action, now),
            Front::Friend(friend) => friend.update(action, now),
        }
    }

    fn draw(&self, frame: &mut Frame) -> Drawn {
        match self {
            Front::Game(app) => ui::draw(frame, app),
            Front::Setup(setup) => ui::setup::draw(frame, setup),
            Front::Board(board) => ui::board_screen::draw(frame, board),
            Front::Review(review) => ui::review::draw(frame, review),
            Front::Train(train) => ui::train::draw(frame, train),
            Front::Home(home) => ui::home::draw(frame, home),
            Front::Settings(settings) => ui::settings::draw(frame, settings),
            Front::Stats(stats) => ui::stats::draw(frame, stats),
            Front::Library(library) => ui::library::draw(frame, library),
            Front::Friend(friend) => ui::friend::draw(frame, friend),
        }
    }

    /// Draws the board in `theme` from now on.
    fn set_theme(&mut self, theme: crate::theme::Theme) {
        if let Front::Game(app) = self {
            app.settings.theme = theme;
        } else if let Front::Setup(setup) = self {
            setup.settings.theme = theme;
        }
        if let Some(palette) = self.palette_mut() {
            palette.theme = theme;
        }
    }

    /// The colours and glyphs a screen keeps of its own (the game's come from its settings).
    fn palette_mut(&mut self) -> Option<&mut Palette> {
        match self {
            Front::Game(_) => None,
            Front::Setup(setup) => Some(&mut setup.palette),
            Front::Board(board) => Some(&mut board.palette),
            Front::Review(review) => Some(&mut review.palette),
            Front::Train(train) => Some(&mut train.palette),
            Front::Home(home) => Some(&mut home.palette),
            Front::Settings(settings) => Some(&mut settings.palette),
            Front::Stats(stats) => Some(&mut stats.palette),
            Front::Library(library) => Some(&mut library.palette),
            Front::Friend(friend) => Some(&mut friend.palette),
        }
    }

    /// Takes what the player just chose on the settings screen: the look everywhere; the
    /// sound, the evaluation, the name and the engines in the game and the new-game screen.
    /// The game's players, level and clock stay: the defaults are for the next game.
    fn prefer(&mut self, chosen: &crate::store::settings::Settings) {
        self.set_theme(chosen.theme);
        if let Some(palette) = self.palette_mut() {
            palette.ascii = chosen.ascii;
        }
        let settings = match self {
            Front::Game(app) => &mut app.settings,
            Front::Setup(setup) => &mut setup.settings,
            Front::Review(review) => {
                review.you = chosen.yours();
                return;
            }
            _ => return,
        };
        settings.ascii = chosen.ascii;
        settings.sound = chosen.sound;
        settings.move_bell = chosen.move_bell;
        settings.show_eval = chosen.show_eval;
        settings.name = chosen.name.clone();
        settings.engines = chosen.engines.clone();
    }

    fn needs_ticks(&self) -> bool {
        match self {
            Front::Game(app) => app.needs_ticks(),
            Front::Setup(_)
            | Front::Board(_)
            | Front::Review(_)
            | Front::Train(_)
            | Front::Home(_)
            | Front::Settings(_)
            | Front::Stats(_)
            | Front::Library(_)
            | Front::Friend(_) => false,
        }
    }
}

/// The screens, the search service and the channel that feeds them.
pub struct Runner {
    stack: Vec<Front>,
    service: Service,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    /// Where settings and games are written; `None` writes nothing (headless).
    files: Option<Paths>,
    /// What the last frame measured, for the mouse.
    drawn: Drawn,
    /// How a review opened from a screen searches.
    review: analyse::Settings,
    /// How screens opened from a screen are drawn.
    palette: Palette,
    /// What the effects had to say when no screen was left to say it (printed at the end).
    parting: Vec<String>,
    /// When the clocks were last looked at.
    last_tick: std::cell::Cell<Instant>,
    /// Whether the autosave was written yet (before the first write, an unfinished game left
    /// in it by a crash is archived).
    autosave_checked: bool,
    /// Whether the bell reaches a terminal (not in headless games and tests).
    pub bell: bool,
    /// The engine the analysis board runs (`None`: Knightfall's own).
    pub analysis: Option<crate::external::EngineSpec>,
    /// The board square the left button went down on, until it comes up.
    pressed: Option<shakmaty::Square>,
    /// Training results not saved yet (the last save failed): tried again with the next.
    training: Vec<crate::train::progress::Change>,
    /// The settings as last saved from the settings screen: a new-game screen opened after
    /// starts from their level and clock.
    chosen: Option<crate::store::settings::Settings>,
    /// The library, opened when first needed.
    library: Option<Library>,
    /// The review of every game of the library, while it runs.
    bulk: Option<ReviewAll>,
    /// How it went, as last reported.
    bulk_report: Option<BulkReport>,
    /// The link to the friend at another Knightfall, in a game against them.
    peer: Option<crate::net::peer::Peer>,
    /// The way back to the friend when the link breaks.
    door: Option<crate::net::meet::Door>,
    /// The wait for the friend the friend screen started, while it goes on.
    meeting: Option<meeting::Waiting>,
}

impl Runner {
    /// A runner with the screens of `stack` (the last in front) and `player` in the search
    /// service.
    pub fn new(
        stack: Vec<Front>,
        player: Player,
        files: Option<Paths>,
        review: analyse::Settings,
        palette: Palette,
    ) -> Runner {
        let (tx, rx) = unbounded::<Event>();
        let engine_events = tx.clone();
        let service = Service::spawn(
            move |e| {
                let _ = engine_events.send(Event::Engine(e));
            },
            player,
        );
        Runner {
            stack,
            service,
            tx,
            rx,
            files,
            drawn: Drawn::default(),
            review,
            palette,
            parting: Vec::new(),
            last_tick: std::cell::Cell::new(Instant::now()),
            autosave_checked: false,
            bell: false,
            analysis: None,
            pressed: None,
            training: Vec::new(),
            chosen: None,
            library: None,
            bulk: None,
            bulk_report: None,
            peer: None,
            door: None,
            meeting: None,
        }
    }

    /// Keeps a way back to the friend (`redial`), opened when the link breaks.
    pub(crate) fn redial(&mut self, redial: crate::net::meet::Redial) {
        let tx = self.tx.clone();
        let back = move |found: Result<crate::net::channel::Channel, String>| {
            let found = found.map(|c| std::sync::Arc::new(std::sync::Mutex::new(Some(c))));
            let _ = tx.send(Event::Door(found));
        };
        self.door = crate::net::meet::Door::start(redial, back).ok();
    }

    /// Plays the game against the friend at the other end of `peer`: what they do comes in
    /// as events, what the game sends goes out through it.
    pub(crate) fn connect(&mut self, peer: crate::net::peer::Peer) {
        let (events, tx) = (peer.events().clone(), self.tx.clone());
        // Ends when the link's reader does (after its last event) or the loop is gone.
        let _ = std::thread::Builder::new()
            .name("knightfall-friend".into())
            .spawn(move || {
                for event in events {
                    if tx.send(Event::Peer(event)).is_err() {
                        return;
                    }
                }
            });
        self.peer = Some(peer);
    }

    /// A runner for `app` alone, writing no files (headless games and tests).
    pub fn for_game(app: App, player: Player) -> Runner {
        let review = analyse::Settings {
            movetime_ms: crate::review::DEFAULT_MOVETIME_MS,
            threads: 1,
            tablebases: None,
            engine: None,
        };
        Runner::new(
            vec![Front::Game(Box::new(app))],
            player,
            None,
            review,
            Palette::default(),
        )
    }

    /// Puts `front` in front of the screens.
    pub(crate) fn push(&mut self, front: Front) {
        self.stack.push(front);
    }

    /// The game at the bottom of the stack, if the screens started from one.
    pub fn game(&self) -> Option<&App> {
        match self.stack.first() {
            Some(Front::Game(app)) => Some(app),
            _ => None,
        }
    }

    fn game_mut(&mut self) -> Option<&mut App> {
        match self.stack.first_mut() {
            Some(Front::Game(app)) => Some(app),
            _ => None,
        }
    }

    /// The screen in front and how many are under it.
    pub(crate) fn front(&self) -> Option<(&Front, usize)> {
        let depth = self.stack.len().checked_sub(1)?;
        self.stack.last().map(|f| (f, depth))
    }

    /// The screen in front, to change (the plain text's words that have no key).
    pub(crate) fn front_mut(&mut self) -> Option<&mut Front> {
        self.stack.last_mut()
    }

    /// Clears the message line of the screen in front: the plain text said it already, and
    /// what the next line typed brings is said even when it is the same words.
    pub(crate) fn forget_message(&mut self) {
        match self.stack.last_mut() {
            Some(Front::Game(app)) => app.line.message = None,
            Some(Front::Review(review)) => review.message.clear(),
            Some(Front::Train(train)) => train.message = None,
            Some(Front::Board(board)) => board.message = None,
            _ => {}
        }
    }

    /// Puts `text` on the input line of the screen in front (the game's, the training's or
    /// the board's), as if typed (the plain-text mode's lines); false when it has none.
    pub(crate) fn type_line(&mut self, text: &str) -> bool {
        let text: String = text.chars().take(crate::tui::input::MAX_INPUT).collect();
        match self.stack.last_mut() {
            Some(Front::Game(app)) => app.line.text = text,
            Some(Front::Train(train)) => train.input = text,
            Some(Front::Board(board)) => board.input = text,
            _ => return false,
        }
        true
    }

    /// A sender for other event sources (terminal input, signals).
    pub fn sender(&self) -> Sender<Event> {
        self.tx.clone()
    }

    /// Starts the screen in front (the engine may move first, the board analyses, a review
    /// searches); returns true to quit.
    pub fn start(&mut self, now: Instant) -> bool {
        let fx = match self.stack.last_mut() {
            Some(Front::Game(app)) => app.start(now),
            Some(Front::Board(board)) => board.start(),
            Some(
                Front::Setup(_)
                | Front::Review(_)
                | Front::Train(_)
                | Front::Home(_)
                | Front::Settings(_)
                | Front::Stats(_)
                | Front::Library(_)
                | Front::Friend(_),
            )
            | None => Vec::new(),
        };
        self.run_effects(fx, now)
    }

    /// Opens `open` as the first screen (a command that starts on the library); returns true
    /// to quit.
    pub(crate) fn start_on(&mut self, open: Open, now: Instant) -> bool {
        self.open(open, now)
    }

    /// Starts a review screen on game `chosen` of its list; returns true to quit.
    pub(crate) fn start_review(&mut self, chosen: Option<usize>, now: Instant) -> bool {
        let fx = match self.stack.last_mut() {
            Some(Front::Review(review)) => review.start(chosen),
            _ => Vec::new(),
        };
        self.run_effects(fx, now)
    }

    /// Starts `game` in the game at the bottom, on the same engines (headless series).
    pub fn play(&mut self, game: Game, now: Instant) -> bool {
        let fx = match self.game_mut() {
            Some(app) => app.play(game, now),
            None => return true,
        };
        self.run_effects(fx, now)
    }

    /// Waits for the next event; `Some(None)` is a clock tick, `None` means every sender is gone.
    /// While the clocks run a tick comes every `TICK` however many other events arrive, so a
    /// stream of reports or mouse moves never freezes a clock or hides a flag fall.
    pub fn next_event(&self) -> Option<Option<Event>> {
        if !self.stack.last().is_some_and(Front::needs_ticks) {
            return self.rx.recv().ok().map(Some);
        }
        let due = self.last_tick.get() + TICK;
        let now = Instant::now();
        if now >= due {
            self.last_tick.set(now);
            return Some(None);
        }
        match self.rx.recv_deadline(due) {
            Ok(ev) => Some(Some(ev)),
            Err(RecvTimeoutError::Timeout) => {
                self.last_tick.set(Instant::now());
                Some(None)
            }
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next event if one is waiting, without waiting for it.
    pub fn waiting_event(&self) -> Option<Event> {
        self.rx.try_recv().ok()
    }

    /// Applies one event that arrived at `now` (`None`: a tick) to the screen in front and
    /// carries out what it asks for.
    pub fn step(&mut self, ev: Option<Event>, now: Instant) -> Step {
        let action = match ev {
            None => Some(Action::Tick),
            Some(Event::Key(k)) => Some(Action::Key(k)),
            Some(Event::Mouse(m)) => match m.kind {
                MouseEventKind::Down(MouseButton::Left) => {
                    let action = self.drawn.click(m.column, m.row);
                    self.pressed = match action {
                        Some(Action::Click(sq)) => Some(sq),
                        _ => None,
                    };
                    action
                }
                // Drag and drop: a release on another square than the press is a click there,
                // so the piece picked up goes where it is dropped.
                MouseEventKind::Up(MouseButton::Left) => match self.pressed.take() {
                    Some(from) => match self.drawn.click(m.column, m.row) {
                        Some(Action::Click(to)) if to != from => Some(Action::Click(to)),
                        _ => None,
                    },
                    None => None,
                },
                _ => None,
            },
            Some(Event::Resize | Event::Redraw) => None,
            Some(Event::Engine(EngineEvent::Bulk(report))) => {
                self.bulk_reported(*report, now);
                None
            }
            Some(Event::Engine(e)) => Some(Action::Engine(e)),
            Some(Event::Checked(spec, result)) => Some(Action::Checked(spec, result)),
            // The friend's doings are the game's, whichever screen is in front.
            Some(Event::Peer(event)) => {
                if let (crate::net::peer::PeerEvent::Lost(_), Some(door)) = (&event, &self.door)
                    && self.game().is_some_and(App::calls_back)
                {
                    door.set_open(true);
                }
                return self.tell_game(Action::Peer(event), now);
            }
            Some(Event::Door(found)) => {
                let action = match found {
                    Ok(slot) => {
                        let channel = slot.lock().ok().and_then(|mut c| c.take());
                        let peer = channel.and_then(|c| {
                            use crate::net::peer::{HEARTBEAT, Peer, SILENCE};
                            Peer::start(c, HEARTBEAT, SILENCE).ok()
                        });
                        match peer {
                            Some(peer) => {
                                self.connect(peer);
                                Action::Peer(crate::net::peer::PeerEvent::Back)
                            }
                            None => return Step::Continue,
                        }
                    }
                    Err(note) => Action::Note(note, Tone::Error),
                };
                return self.tell_game(action, now);
            }
            Some(Event::News(news)) => Some(self.heard(news)),
            // The plain-text mode's lines are its own (`text::show`).
            Some(Event::Line(_)) => None,
            Some(Event::Met(handed)) => return self.met(&handed, now),
            Some(Event::Terminate) => return Step::Quit,
        };
        let Some(action) = action else {
            return Step::Continue;
        };
        let quit = self.apply(action, now);
        self.pause_bulk(now);
        if quit { Step::Quit } else { Step::Continue }
    }

    /// Applies what the friend did (or the way back to them found) to the game, whichever
    /// screen is in front; a game no longer against the friend needs no way back to them.
    fn tell_game(&mut self, action: Action, now: Instant) -> Step {
        let fx = match self.game_mut() {
            Some(app) => app.update(action, now),
            None => Vec::new(),
        };
        let quit = self.run_effects(fx, now);
        if self.game().is_none_or(|app| app.remote.is_none()) {
            self.door = None;
        }
        if quit { Step::Quit } else { Step::Continue }
    }

    /// Draws the screen in front and keeps what the frame measured.
    pub fn draw(&mut self, frame: &mut Frame) {
        if let Some(front) = self.stack.last() {
            self.drawn = front.draw(frame);
        }
    }

    /// Lets every screen keep what it must before the program ends (a review's findings, the
    /// board's lines); returns what to tell the player once the terminal is back.
    pub(crate) fn farewell(&mut self) -> Vec<String> {
        let mut fx = Vec::new();
        for front in &mut self.stack {
            match front {
                Front::Review(review) => fx.extend(review.farewell()),
                Front::Board(board) => fx.extend(board.farewell()),
                Front::Train(train) => fx.extend(train.farewell()),
                Front::Game(_)
                | Front::Setup(_)
                | Front::Home(_)
                | Front::Settings(_)
                | Front::Stats(_)
                | Front::Library(_)
                | Front::Friend(_) => {}
            }
        }
        self.service.stop();
        // The friend hears that this side left, not merely that the link broke.
        if let Some(peer) = self.peer.take() {
            let _ = peer.send(&crate::net::message::Message::Bye);
        }
        if let Some(note) = self.stop_bulk() {
            self.parting.push(note);
        }
        let mut replies: Vec<Action> = fx.into_iter().flat_map(|e| self.carry(e)).collect();
        if !self.training.is_empty() {
            // Results whose save failed get a last try.
            replies.extend(self.save_training(Vec::new()));
        }
        self.part(replies);
        std::mem::take(&mut self.parting)
    }

    /// Applies `action` to the screen in front; returns true to quit.
    fn apply(&mut self, action: Action, now: Instant) -> bool {
        let fx = match self.stack.last_mut() {
            Some(front) => front.update(action, now),
            None => return true,
        };
        self.run_effects(fx, now)
    }

    /// Carries out effects; returns true to quit.
    fn run_effects(&mut self, fx: Vec<Effect>, now: Instant) -> bool {
        // What the effects have to tell the screen in front, applied after them.
        let mut replies = Vec::new();
        for effect in fx {
            match effect {
                Effect::Search(mut req) => {
                    // An answer to a mistake is judged by the engine reviews search with, as
                    // the mistake was.
                    if req.purpose == super::job::Purpose::Judge
                        && let Some(spec) = &self.review.engine
                    {
                        req.mover = super::job::Mover::External(spec.clone());
                    }
                    self.service.start(req)
                }
                Effect::Stop => self.service.stop(),
                Effect::NewGame => self.service.new_game(),
                Effect::Review(job) => {
                    let job = self.with_known(job);
                    self.service.review(job);
                }
                Effect::ReviewAll(on) => {
                    if on {
                        replies.extend(self.start_review_all());
                    } else if let Some(run) = &self.bulk {
                        run.stop();
                    }
                }
                Effect::ReadGame { place, listed } => replies.push(Action::GameRead {
                    place,
                    game: listed.load().map(Box::new),
                }),
                Effect::Quit => return self.part(replies),
                Effect::Bell => {
                    if self.bell {
                        use std::io::Write as _;
                        let mut out = std::io::stdout();
                        let _ = out.write_all(b"\x07").and_then(|()| out.flush());
                    }
                }
                Effect::Open(open) => {
                    if self.open(*open, now) {
                        return true;
                    }
                }
                Effect::Close => {
                    self.stack.pop();
                    if self.stack.is_empty() {
                        return self.part(replies);
                    }
                    // The wait for the friend ends with the screen that waits.
                    if !self.stack.iter().any(|f| matches!(f, Front::Friend(_))) {
                        self.meeting = None;
                    }
                    replies.push(Action::Front);
                }
                Effect::Theme(theme) => {
                    self.palette.theme = theme;
                    for front in &mut self.stack {
                        front.set_theme(theme);
                    }
                    replies.extend(self.write(Effect::Theme(theme)));
                }
                Effect::SaveConfig(settings) => {
                    replies.extend(self.save_config(&settings));
                    self.palette.theme = settings.theme;
                    self.palette.ascii = settings.ascii;
                    // The next review and board search with the engines chosen now; a name no
                    // longer known leaves the engine as it was.
                    if let Ok(engine) = settings.engine_for_analysis(&settings.review_engine) {
                        self.review.engine = engine;
                    }
                    if let Ok(engine) = settings.engine_for_analysis(&settings.analysis_engine) {
                        self.analysis = engine;
                    }
                    for front in &mut self.stack {
                        front.prefer(&settings);
                    }
                    self.chosen = Some(*settings);
                }
                Effect::CheckEngine(spec) => {
                    let tx = self.tx.clone();
                    // The handshake may take seconds: the screen goes on meanwhile.
                    std::thread::spawn(move || {
                        let result = spec.check().map_err(|e| e.to_string());
                        let _ = tx.send(Event::Checked(spec, result));
                    });
                }
                Effect::Play(choice) => {
                    // The new-game screen closes; the game below plays its choice.
                    self.stack.pop();
                    if self.stack.is_empty() {
                        return self.part(replies);
                    }
                    replies.push(Action::Play(choice));
                }
                Effect::Send(message) => {
                    if let Some(peer) = &self.peer
                        && let Err(e) = peer.send(&message)
                    {
                        // Said to the game as the link's own loss is.
                        let lost = crate::net::peer::PeerEvent::Lost(e.to_string());
                        let _ = self.tx.send(Event::Peer(lost));
                    }
                }
                Effect::Meet(meet) => replies.extend(self.meet(*meet)),
                Effect::CallOff => self.meeting = None,
                // A friend who broke the rules is not let back in.
                Effect::HangUp => {
                    self.peer = None;
                    self.door = None;
                }
                other => replies.extend(self.carry(other)),
            }
        }
        replies.into_iter().any(|action| self.apply(action, now))
    }

    /// Keeps what `replies` had to tell for the end, as the program leaves; returns true.
    fn part(&mut self, replies: Vec<Action>) -> bool {
        self.parting
            .extend(replies.into_iter().filter_map(|action| match action {
                Action::Saved(path) => Some(format!("Analysis saved to {}", path.display())),
                Action::Note(text, _) => Some(text),
                _ => None,
            }));
        true
    }

    /// Opens a screen in front of the others; returns true to quit.
    fn open(&mut self, open: Open, now: Instant) -> bool {
        let fx = match open {
            Open::Setup { resume, watch } => {
                let Some(app) = self.game() else {
                    return false;
                };
                let mut settings = app.settings.clone();
                // The friend's side is no choice for a new game: the engine takes it.
                for side in [&mut settings.white, &mut settings.black] {
                    if matches!(side, crate::store::settings::Side::Friend(_)) {
                        *side = crate::store::settings::Side::Engine;
                    }
                }
                if let Some(chosen) = &self.chosen {
                    settings.level = chosen.level;
                    (settings.white_level, settings.black_level) = (None, None);
                    settings.tc = chosen.tc.clone();
                    settings.think_ms = chosen.think_ms;
                }
                let mut setup = SetupScreen::new(
                    settings,
                    resume,
                    true,
                    self.palette,
                    crate::rng::Rng::from_entropy().next_u64(),
                );
                if watch {
                    setup.watch();
                }
                self.stack.push(Front::Setup(Box::new(setup)));
                Vec::new()
            }
            Open::Friend {
                resume,
                chosen,
                you,
                clock,
            } => {
                let Some(app) = self.game() else {
                    return false;
                };
                let clock = clock.unwrap_or_else(|| app.settings.tc.clone());
                let screen = FriendScreen::new(resume, chosen, you, clock, self.palette);
                self.stack.push(Front::Friend(Box::new(screen)));
                Vec::new()
            }
            Open::Home => {
                let home = HomeScreen::new(Vec::new(), true, self.palette);
                self.stack.push(Front::Home(Box::new(home)));
                Vec::new()
            }
            Open::Games => return self.open_library(now),
            Open::Files => {
                let listed = self
                    .files
                    .as_ref()
                    .map(store::games_folder)
                    .unwrap_or_default();
                if listed.is_empty() {
                    let folder = self
                        .files
                        .as_ref()
                        .map(|p| p.data.display().to_string())
                        .unwrap_or_default();
                    return self.apply(
                        Action::Note(format!("No games in {folder} yet."), Tone::Info),
                        now,
                    );
                }
                return self.open(
                    Open::Review {
                        listed,
                        chosen: None,
                    },
                    now,
                );
            }
            Open::Kept { id } => {
                let game = self
                    .library()
                    .and_then(|library| library.game(id))
                    .map_err(|e| format!("{e:#}"))
                    .and_then(|game| game.ok_or_else(|| "it is no longer there".to_string()));
                let game = match game {
                    Ok(game) => game,
                    Err(why) => {
                        return self.apply(
                            Action::Note(
                                format!("That game cannot be reviewed: {why}"),
                                Tone::Error,
                            ),
                            now,
                        );
                    }
                };
                let mut review =
                    ReviewScreen::new(Vec::new(), self.review.clone(), self.palette, true);
                review.you = self
                    .files
                    .as_ref()
                    .map(store::training::your_names)
                    .unwrap_or_default();
                let fx = review.start_kept(game, id);
                self.stack.push(Front::Review(Box::new(review)));
                fx
            }
            Open::Settings => {
                let loaded = match &self.files {
                    Some(paths) => store::load_settings(paths),
                    None => Ok(Default::default()),
                };
                match loaded {
                    Ok(settings) => {
                        let cores = crate::engine::Engine::max_threads();
                        let screen = SettingsScreen::new(settings, self.palette, cores);
                        self.stack.push(Front::Settings(Box::new(screen)));
                    }
                    Err(e) => {
                        return self.apply(Action::Note(format!("{e:#}"), Tone::Error), now);
                    }
                }
                Vec::new()
            }
            Open::Board { tree, at } => {
                let mut board = Board::new(tree, at, self.palette, true);
                board.engine = self.analysis.clone();
                board.wall = Some(crate::game::WallClock::read(Instant::now()));
                let fx = board.start();
                self.stack.push(Front::Board(Box::new(board)));
                fx
            }
            Open::Stats => {
                let Some(paths) = &self.files else {
                    return false;
                };
                match super::stats::load(paths, None, self.palette, true) {
                    Ok(Ok(screen)) => self.stack.push(Front::Stats(Box::new(screen))),
                    Ok(Err(none)) => return self.apply(Action::Note(none, Tone::Info), now),
                    Err(e) => {
                        return self.apply(
                            Action::Note(format!("The statistics: {e:#}"), Tone::Error),
                            now,
                        );
                    }
                }
                Vec::new()
            }
            Open::Train => {
                let train = self.train_screen(true);
                self.stack.push(Front::Train(Box::new(train)));
                Vec::new()
            }
            Open::Practice(mistakes) => {
                let mut train = self.train_screen(true);
                train.choice = super::train::MISTAKES_ROW;
                train.practise(mistakes);
                self.stack.push(Front::Train(Box::new(train)));
                Vec::new()
            }
            Open::Review { listed, chosen } => {
                let mut review = ReviewScreen::new(listed, self.review.clone(), self.palette, true);
                review.you = self
                    .files
                    .as_ref()
                    .map(store::training::your_names)
                    .unwrap_or_default();
                let fx = review.start(chosen);
                self.stack.push(Front::Review(Box::new(review)));
                fx
            }
        };
        self.run_effects(fx, now)
    }

    /// A training screen on the list of endings, with the player's progress (and a word on a
    /// progress file that had to be set aside).
    pub(crate) fn train_screen(&self, from_game: bool) -> Train {
        let (progress, note) = match &self.files {
            Some(paths) => store::training::load(paths),
            None => Default::default(),
        };
        let mistakes = self
            .files
            .as_ref()
            .map(store::training::mistakes)
            .unwrap_or_default();
        let mut train = Train::new(
            std::sync::Arc::new(crate::tablebase::Tablebases::embedded()),
            progress,
            self.palette,
            from_game,
            crate::rng::Rng::from_entropy().next_u64(),
        );
        train.notice = note;
        // The imported puzzles, when there is a library: none is made just to look.
        if let Some(path) = self.files.as_ref().map(|p| p.library())
            && path.exists()
        {
            match crate::store::library::Library::open(&path) {
                Ok(library) => train.attach(library),
                Err(e) => train.message = Some((format!("{e:#}"), Tone::Error)),
            }
        }
        train.mistakes = mistakes;
        train.today = crate::game::day_number();
        if train.mistake_counts().0 > 0 {
            train.choice = super::train::MISTAKES_ROW;
        }
        train
    }

    /// A review job with what is known of its game filled in (the library's review, or the
    /// cache's: see [`keep::known`]), at the time per position of the review found.
    fn with_known(
        &mut self,
        mut job: Box<super::service::ReviewJob>,
    ) -> Box<super::service::ReviewJob> {
        let Some(paths) = self.files.clone() else {
            return job;
        };
        let library = self.library().ok().map(|l| &*l);
        let (review, id) = keep::known(
            library,
            &paths,
            job.game.clone(),
            job.library,
            job.settings.movetime_ms,
            job.settings.engine_name(),
        );
        job.settings.movetime_ms = review.movetime_ms;
        job.known = review.evals;
        job.library = id;
        job
    }

    /// The library, opened the first time it is asked for.
    fn library(&mut self) -> anyhow::Result<&mut Library> {
        if self.library.is_none() {
            let Some(paths) = &self.files else {
                anyhow::bail!("no files are kept here");
            };
            self.library = Some(Library::open(&paths.library())?);
        }
        self.library
            .as_mut()
            .ok_or_else(|| anyhow::anyhow!("the library is not open"))
    }

    /// Opens the library screen, the games folder's new games brought in first; returns true
    /// to quit.
    fn open_library(&mut self, now: Instant) -> bool {
        let from_game = !self.stack.is_empty();
        let paths = self.files.clone();
        let listed = match &paths {
            None => Ok(Vec::new()),
            Some(paths) => self.library().and_then(|library| {
                library.index_folder(paths)?;
                library.list()
            }),
        };
        let entries = match listed {
            Ok(entries) => entries,
            Err(e) => {
                let note = format!("The library cannot be read: {e:#}");
                if !from_game {
                    self.parting.push(note);
                    return true;
                }
                return self.apply(Action::Note(note, Tone::Error), now);
            }
        };
        let mut screen = LibraryScreen::new(entries, from_game, self.palette);
        screen.bulk = self.bulk_report.clone();
        screen.empty = format!(
            "No games yet. Play one, or bring yours in with `knightfall games import FILE.pgn` \
             (a lichess or chess.com export); f lists the files of the games folder, {}.",
            paths
                .map(|p| p.data.display().to_string())
                .unwrap_or_default()
        );
        self.stack.push(Front::Library(Box::new(screen)));
        false
    }

    /// Starts the review of every game of the library on a thread of its own, at the default
    /// time per position on every core; what to tell the screen when it cannot start.
    fn start_review_all(&mut self) -> Option<Action> {
        if self.bulk.is_some() {
            return None;
        }
        let Some(paths) = self.files.clone() else {
            return Some(Action::Note("No files are kept here.".into(), Tone::Error));
        };
        let settings = analyse::Settings {
            movetime_ms: crate::review::DEFAULT_MOVETIME_MS,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            tablebases: self.review.tablebases.clone(),
            engine: self.review.engine.clone(),
        };
        match ReviewAll::start(paths, settings, self.tx.clone()) {
            Ok(run) => {
                self.bulk = Some(run);
                None
            }
            Err(e) => Some(Action::Note(
                format!("The review of every game cannot start: {e}"),
                Tone::Error,
            )),
        }
    }

    /// How the review of every game of the library went, as last reported, if it was started.
    pub fn review_all(&self) -> Option<&BulkReport> {
        self.bulk_report.as_ref()
    }

    /// Takes a report of the review of every game: every library screen shows it.
    fn bulk_reported(&mut self, mut report: BulkReport, now: Instant) {
        if !report.running {
            if let Some(run) = self.bulk.take() {
                run.end();
            }
            if report.error.is_some()
                && let Some(last) = &self.bulk_report
            {
                report.progress = last.progress.clone();
            }
        }
        self.bulk_report = Some(report.clone());
        self.tell_libraries(Action::Engine(EngineEvent::Bulk(Box::new(report))), now);
    }

    /// Gives `action` to every library screen, in front or below.
    fn tell_libraries(&mut self, action: Action, now: Instant) {
        for front in &mut self.stack {
            if let Front::Library(library) = front {
                library.update(action.clone(), now);
            }
        }
    }

    /// Pauses the review of every game while a game is played in front, and lets it go on
    /// after; the library screens hear of it.
    fn pause_bulk(&mut self, now: Instant) {
        let playing = matches!(self.stack.last(), Some(Front::Game(app)) if !app.game.is_over());
        if !self.bulk.as_ref().is_some_and(|run| run.pause(playing)) {
            return;
        }
        if let Some(mut report) = self.bulk_report.clone() {
            report.paused = playing;
            self.bulk_reported(report, now);
        }
    }

    /// Stops the review of every game, if it runs, and waits for it to keep what it found;
    /// a word on where it stopped.
    fn stop_bulk(&mut self) -> Option<String> {
        self.bulk.take()?.end();
        let games = self.bulk_report.as_ref().map(|r| &r.progress);
        Some(match games {
            Some(p) => format!(
                "The review of every game stopped: {} done, every position found kept; \
                 `knightfall review --all` goes on from there.",
                p.games_words()
            ),
            None => "The review of every game stopped.".to_string(),
        })
    }

    /// Writes the settings screen's `settings` into the config file (its comments kept);
    /// returns what the screen should hear when that failed.
    fn save_config(&self, settings: &crate::store::settings::Settings) -> Option<Action> {
        let paths = self.files.as_ref()?;
        store::save_settings(paths, settings).err().map(|e| {
            Action::Note(
                format!("Not saved in {}: {e:#}", paths.config.display()),
                Tone::Error,
            )
        })
    }

    /// Carries out a file effect; returns what the screen in front should hear of it.
    fn carry(&mut self, effect: Effect) -> Vec<Action> {
        match effect {
            Effect::SaveTraining(changes) => self.save_training(changes),
            other => self.write(other).into_iter().collect(),
        }
    }

    /// Saves `changes` and any whose save failed before, merged with the record on disk (which
    /// another running Knightfall may have saved to meanwhile); the screen is handed back the
    /// merged record. A failed save keeps them for the next one.
    fn save_training(&mut self, changes: Vec<crate::train::progress::Change>) -> Vec<Action> {
        let Some(paths) = self.files.clone() else {
            return Vec::new();
        };
        self.training.extend(changes);
        match store::training::save(&paths, &self.training) {
            Ok((merged, note)) => {
                self.training.clear();
                let mut replies = vec![Action::Trained(Box::new(merged))];
                replies.extend(note.map(|n| Action::Note(n, Tone::Error)));
                replies
            }
            Err(e) => vec![Action::Note(
                format!("The training progress was not saved: {e:#}"),
                Tone::Error,
            )],
        }
    }

    /// Carries out a file effect, when this runner writes files; returns what the screen in
    /// front should hear of it.
    fn write(&mut self, effect: Effect) -> Option<Action> {
        let paths = self.files.clone()?;
        let note = |r: anyhow::Result<()>, ok: String, fail: &str| {
            Some(match r {
                Ok(()) => Action::Note(ok, Tone::Info),
                Err(e) => Action::Note(format!("{fail}: {e:#}"), Tone::Error),
            })
        };
        match effect {
            Effect::SaveSettings => {
                let app = self.game()?;
                store::save_settings(&paths, &app.settings)
                    .err()
                    .map(|e| Action::Note(format!("Settings not saved: {e:#}"), Tone::Error))
            }
            Effect::SaveSwitches => {
                let now = &self.game()?.settings;
                store::amend_settings(&paths, |s| {
                    s.sound = now.sound;
                    s.move_bell = now.move_bell;
                    s.show_eval = now.show_eval;
                    s.blindfold = now.blindfold;
                })
                .err()
                .map(|e| Action::Note(format!("Settings not saved: {e:#}"), Tone::Error))
            }
            // Only the theme changes: a watched game's sides, or flags given for one game, are
            // not the player's settings.
            Effect::Theme(theme) => store::amend_settings(&paths, |s| s.theme = theme)
                .err()
                .map(|e| Action::Note(format!("Theme not kept: {e:#}"), Tone::Error)),
            Effect::Archive(game, kind) => store::archive(&game, &paths, kind)
                .err()
                .map(|e| Action::Note(format!("The game was not saved: {e:#}"), Tone::Error)),
            Effect::Autosave => {
                let first = !std::mem::replace(&mut self.autosave_checked, true);
                let game = &self.game()?.game;
                if first {
                    store::keep_replaced_autosave(&paths, game);
                }
                // A game without moves has nothing to resume: the last game is not left there.
                let r = if game.ply() == 0 {
                    match std::fs::remove_file(&paths.autosave) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
                        _ => Ok(()),
                    }
                } else {
                    store::write_atomic(&paths.autosave, &game.to_pgn())
                };
                r.err()
                    .map(|e| Action::Note(format!("Autosave failed: {e:#}"), Tone::Error))
            }
            Effect::Delete(path) => Some(match store::games::delete_kept(&paths, &path) {
                Ok(()) => Action::Note(format!("Deleted {}", path.display()), Tone::Info),
                Err(e) => Action::Note(format!("Not deleted: {e:#}"), Tone::Error),
            }),
            Effect::Adopted(path) => {
                store::release_adopted(&paths, &path, &self.game()?.game);
                None
            }
            Effect::Save(None) => {
                // The game's own file in the games folder, the one it is kept in when it ends:
                // saving again (or ending) replaces it, so a game is never listed twice.
                let app = self.game()?;
                Some(match store::archive(&app.game, &paths, app.kept_as()) {
                    Ok(Some(path)) => {
                        Action::Note(format!("Saved to {}", path.display()), Tone::Info)
                    }
                    Ok(None) => Action::Note(
                        "Nothing to save yet: no move was played.".into(),
                        Tone::Error,
                    ),
                    Err(e) => Action::Note(format!("Not saved: {e:#}"), Tone::Error),
                })
            }
            Effect::Save(Some(file)) => {
                let text = self.game()?.game.to_pgn();
                let r = store::save_as(Path::new(&file), &text);
                note(r, format!("Saved to {file}"), "Not saved")
            }
            Effect::SaveLines { file, prefix, text } => {
                let (path, r) = match file {
                    Some(path) => {
                        let r = store::save_as(&path, &text);
                        (path, r)
                    }
                    None => {
                        let path = paths.data.join(format!("{prefix}-{}.pgn", timestamp()));
                        let r = store::write_atomic(&path, &text);
                        (path, r)
                    }
                };
                Some(match r {
                    Ok(()) => Action::Saved(path),
                    Err(e) => Action::Note(format!("Not saved: {e:#}"), Tone::Error),
                })
            }
            Effect::KeepReview { review, id } => {
                let library = self.library().ok();
                match keep::keep(library, &paths, &review, id) {
                    Ok(Some((id, status))) => {
                        self.tell_libraries(Action::Kept(id, status), Instant::now());
                        None
                    }
                    Ok(None) => None,
                    Err(e) => Some(Action::Note(
                        format!("The review could not be kept: {e:#}"),
                        Tone::Error,
                    )),
                }
            }
            Effect::Search(_)
            | Effect::Stop
            | Effect::NewGame
            | Effect::Review(_)
            | Effect::ReviewAll(_)
            | Effect::ReadGame { .. }
            | Effect::Open(_)
            | Effect::Play(_)
            | Effect::Close
            | Effect::Quit
            | Effect::Bell
            | Effect::SaveConfig(_)
            | Effect::CheckEngine(_)
            // Carried by `save_training`.
            | Effect::SaveTraining(_)
            | Effect::Send(_)
            | Effect::HangUp
            | Effect::Meet(_)
            | Effect::CallOff => None,
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.service.stop();
        self.stop_bulk();
    }
}
