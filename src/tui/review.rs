//! The review screen: the board at the move shown, each side's accuracy and mistakes, the
//! evaluation graph with the move shown marked, the move list with verdicts, and for a flagged
//! move the engine's better move (shown on the board on request). The game is searched in the
//! background (every core) and the screen fills in as results arrive; a list of games comes
//! first when none was chosen.

use std::io;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use anyhow::Result;
use crossbeam_channel::{Receiver, select, unbounded};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::app::{App, Mode};
use super::event::{self, Event};
use super::terminal;
use super::ui::review as draw;
use crate::engine::Control;
use crate::game::Game;
use crate::review::Review;
use crate::review::analyse::{self, PositionEval};
use crate::store::{Listed, Paths, load_settings, review_cache};

/// What the screen shows.
pub enum View {
    /// Choosing a game.
    Pick,
    /// Reviewing one.
    Review,
}

/// The screen's state.
pub struct Screen {
    /// The games to choose from.
    pub listed: Vec<Listed>,
    /// The highlighted one.
    pub selected: usize,
    /// Choosing or reviewing.
    pub view: View,
    /// The review under way.
    pub review: Option<Review>,
    /// The position shown (0 = the start).
    pub ply: usize,
    /// Whether the board shows the engine's better move instead of the game's.
    pub show_better: bool,
    /// The board's drawing state (a browsing game app; only its board is drawn).
    pub board: Option<App>,
    /// A message for the message line.
    pub message: String,
    /// Where the graph was drawn: x, y, width, height (for mouse clicks).
    pub graph_area: std::cell::Cell<Option<(u16, u16, u16, u16)>>,
    /// Opened from a game: q goes back to it.
    pub from_game: bool,
    /// The search, while it runs.
    search: Option<Search>,
    ascii: bool,
    flipped: bool,
}

struct Search {
    control: Arc<Control>,
    results: Receiver<(usize, PositionEval)>,
    handle: Option<thread::JoinHandle<()>>,
}

impl Drop for Search {
    fn drop(&mut self) {
        self.control
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Screen {
    /// A screen over `listed`, reviewing `chosen` at once if given.
    pub fn new(listed: Vec<Listed>, ascii: bool) -> Screen {
        Screen {
            listed,
            selected: 0,
            view: View::Pick,
            review: None,
            ply: 0,
            show_better: false,
            board: None,
            message: String::new(),
            graph_area: std::cell::Cell::new(None),
            search: None,
            from_game: false,
            ascii,
            flipped: false,
        }
    }

    /// Opens `game` for review: cached results at once, the rest searched in the background.
    pub fn open(&mut self, game: Game, settings: &analyse::Settings, cache_dir: &std::path::Path) {
        self.close(cache_dir);
        let mut review = Review::new(game, settings.movetime_ms);
        review_cache::load(cache_dir, &mut review);
        self.search = None;
        if !review.is_complete() {
            let control = Arc::new(Control::default());
            let (tx, results) = unbounded();
            let game = review.game.clone();
            let known = review.evals.clone();
            let settings = settings.clone();
            let stop = control.clone();
            let handle = thread::Builder::new()
                .name("review".into())
                .stack_size(64 * 1024 * 1024)
                .spawn(move || {
                    analyse::analyse(&game, &settings, &known, &stop, &mut |ply, eval| {
                        let _ = tx.send((ply, eval));
                    });
                })
                .ok();
            self.search = Some(Search {
                control,
                results,
                handle,
            });
        }
        self.ply = 0;
        self.show_better = false;
        self.review = Some(review);
        self.view = View::Review;
        self.message.clear();
        self.refresh_board();
    }

    /// The search's results channel, while it runs.
    fn results(&self) -> Option<Receiver<(usize, PositionEval)>> {
        self.search.as_ref().map(|s| s.results.clone())
    }

    /// Stops the review shown, keeping whatever was searched for next time.
    pub fn close(&mut self, cache_dir: &std::path::Path) {
        self.search = None;
        if let Some(review) = self.review.take().filter(|r| r.done() > 0)
            && let Err(e) = review_cache::save(cache_dir, &review)
        {
            self.message = format!("The review could not be cached: {e:#}");
        }
    }

    /// Takes in a search result; saves the review when it is the last one.
    pub fn take(&mut self, ply: usize, eval: PositionEval, cache_dir: &std::path::Path) {
        let Some(review) = self.review.as_mut() else {
            return;
        };
        if let Some(slot) = review.evals.get_mut(ply) {
            *slot = Some(eval);
        }
        if review.is_complete() {
            self.search = None;
            if let Err(e) = review_cache::save(cache_dir, review) {
                self.message = format!("The review could not be cached: {e:#}");
            }
        }
    }

    /// The number of moves of the game reviewed.
    pub fn plies(&self) -> usize {
        self.review.as_ref().map_or(0, |r| r.game.moves().len())
    }

    /// Shows position `ply`.
    pub fn go_to(&mut self, ply: usize) {
        self.ply = ply.min(self.plies());
        self.show_better = false;
        self.refresh_board();
    }

    /// Rebuilds the board's drawing state for the position shown.
    fn refresh_board(&mut self) {
        let Some(review) = &self.review else {
            self.board = None;
            return;
        };
        let mut settings = super::app::Settings {
            ascii: self.ascii,
            ..super::app::Settings::default()
        };
        settings.white = super::app::Side::Human;
        settings.black = super::app::Side::Human;
        let mut game = review.game.clone();
        let mut view = Some(self.ply);
        if self.show_better
            && let Some(better) = self.ply.checked_sub(1).and_then(|i| {
                review
                    .evals
                    .get(i)?
                    .as_ref()?
                    .line
                    .first()
                    .copied()
                    .map(|m| (i, m))
            })
        {
            // The position before the move, with the engine's move played instead.
            let (i, m) = better;
            while game.ply() > i {
                game.undo();
            }
            let _ = game.play_on(m);
            view = None;
        }
        let mut app = App::new(settings, game, Mode::Play, false);
        app.flipped = self.flipped;
        app.view = view;
        self.board = Some(app);
    }

    /// Handles a key; returns false to quit.
    pub fn key(
        &mut self,
        key: KeyEvent,
        args: &analyse::Settings,
        cache_dir: &std::path::Path,
    ) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            event::request_exit();
            return false;
        }
        match self.view {
            View::Pick => match key.code {
                KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
                KeyCode::Down | KeyCode::Char('j') => {
                    self.selected = (self.selected + 1).min(self.listed.len().saturating_sub(1));
                }
                KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
                KeyCode::PageDown => {
                    self.selected = (self.selected + 10).min(self.listed.len().saturating_sub(1));
                }
                KeyCode::Enter => match self.listed.get(self.selected).map(|l| l.game.clone()) {
                    Some(Ok(game)) => self.open(game, args, cache_dir),
                    Some(Err(why)) => self.message = format!("That game cannot be reviewed: {why}"),
                    None => {}
                },
                KeyCode::Char('q') | KeyCode::Esc => return false,
                _ => {}
            },
            View::Review => match key.code {
                KeyCode::Left | KeyCode::Char('h') => self.go_to(self.ply.saturating_sub(1)),
                KeyCode::Right | KeyCode::Char('l') => self.go_to(self.ply + 1),
                KeyCode::Home | KeyCode::Up => self.go_to(0),
                KeyCode::End | KeyCode::Down => self.go_to(self.plies()),
                KeyCode::Char('n') => self.jump_flagged(true),
                KeyCode::Char('p') | KeyCode::Char('N') => self.jump_flagged(false),
                KeyCode::Char('b') => {
                    let better = self.note_shown().and_then(|n| n.better);
                    if better.is_some() {
                        self.show_better = !self.show_better;
                        self.refresh_board();
                    } else {
                        self.message =
                            "The engine has no better move here than the one played.".into();
                    }
                }
                KeyCode::Char('f') => {
                    self.flipped = !self.flipped;
                    self.refresh_board();
                }
                KeyCode::Char('q') => return false,
                KeyCode::Esc => {
                    if self.listed.len() > 1 {
                        self.close(cache_dir);
                        self.view = View::Pick;
                    } else {
                        return false;
                    }
                }
                _ => {}
            },
        }
        true
    }

    /// The review's note on the move that led to the position shown.
    pub fn note_shown(&self) -> Option<crate::review::MoveNote> {
        let review = self.review.as_ref()?;
        review.note(self.ply.checked_sub(1)?)
    }

    fn jump_flagged(&mut self, forward: bool) {
        let Some(review) = &self.review else { return };
        let flagged = review.flagged();
        // A flagged move i is shown as the position after it, ply i + 1.
        let target = if forward {
            flagged.iter().map(|i| i + 1).find(|&p| p > self.ply)
        } else {
            flagged.iter().rev().map(|i| i + 1).find(|&p| p < self.ply)
        };
        match target {
            Some(p) => self.go_to(p),
            None => {
                self.message = if flagged.is_empty() {
                    "No inaccuracies, mistakes or blunders found (so far).".into()
                } else if forward {
                    "No flagged move after this one.".into()
                } else {
                    "No flagged move before this one.".into()
                }
            }
        }
    }

    /// A mouse click: on the graph it jumps to the move under it.
    pub fn click(&mut self, column: u16, row: u16) {
        let Some((x, y, w, h)) = self.graph_area.get() else {
            return;
        };
        if column < x || column >= x + w || row < y || row >= y + h || w == 0 {
            return;
        }
        let plies = self.plies();
        let offset = usize::from(column - x);
        let ply = if w <= 1 {
            0
        } else {
            (offset * plies + usize::from(w - 1) / 2) / usize::from(w - 1)
        };
        self.go_to(ply);
    }
}

/// Runs the screen until the player quits (`from_game`: q goes back to the game it came from).
pub fn run(
    args: &analyse::Settings,
    listed: Vec<Listed>,
    chosen: Option<usize>,
    from_game: bool,
) -> Result<()> {
    let paths = Paths::get();
    let dir = paths.reviews();
    let ascii = load_settings(&paths)?.ascii;
    let mut screen = Screen::new(listed, ascii);
    screen.from_game = from_game;
    if let Some(i) = chosen {
        screen.selected = i;
        match screen.listed[i].game.clone() {
            Ok(game) => screen.open(game, args, &dir),
            Err(why) => anyhow::bail!("game {} cannot be reviewed: {why}", i + 1),
        }
    } else if screen.listed.is_empty() {
        anyhow::bail!(
            "no finished games in {} yet; name a PGN file to review",
            paths.data.display()
        );
    }
    let mut term = terminal::setup_terminal()?;
    let result = main_loop(&mut term, &mut screen, args, &dir);
    terminal::restore_terminal();
    std::mem::forget(term);
    // Whatever was searched is kept for next time.
    screen.close(&dir);
    drop(screen);
    result
}

fn main_loop(
    term: &mut Terminal<CrosstermBackend<io::Stdout>>,
    screen: &mut Screen,
    args: &analyse::Settings,
    dir: &std::path::Path,
) -> Result<()> {
    let (tx, input) = unbounded();
    event::route_input_to(tx);
    term.draw(|f| draw::draw(f, screen))?;
    loop {
        let never = crossbeam_channel::never();
        let results = screen.results().unwrap_or(never);
        select! {
            recv(input) -> ev => match ev {
                Ok(Event::Key(k)) => {
                    screen.message.clear();
                    if !screen.key(k, args, dir) {
                        return Ok(());
                    }
                }
                Ok(Event::Mouse(m)) => {
                    if let MouseEventKind::Down(MouseButton::Left) = m.kind {
                        screen.click(m.column, m.row);
                    }
                }
                // Engine reports left over from the game are of no interest here.
                Ok(Event::Resize) | Ok(Event::Engine(_)) => {}
                Ok(Event::Terminate) | Err(_) => return Ok(()),
            },
            recv(results) -> r => match r {
                Ok((ply, eval)) => screen.take(ply, eval, dir),
                // The search ended (all done, or it failed): nothing more will come.
                Err(_) => screen.search = None,
            },
            default(Duration::from_millis(500)) => {}
        }
        term.draw(|f| draw::draw(f, screen))?;
    }
}
