//! The analysis board: both sides' moves are the player's (typed or clicked), every line tried is
//! kept (going back and playing another move starts a side line), and the engine analyses the
//! position shown without pause, several best lines at once, beside the opening book's moves
//! and, in tablebase range, every move's tablebase verdict.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Result;
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

use super::app::{App, Mode, Settings, Side, Tone, click_square};
use super::event::{self, Event};
use super::terminal;
use crate::book::Book;
use crate::engine::{Config, Control, Info, Limits};
use crate::line_tree::Tree;
use crate::player::{Known, Player};
use crate::store::{Paths, load_settings, write_atomic};
use crate::tablebase::{Tablebases, Wdl};

/// Lines analysed at first, and the most the board shows.
pub const DEFAULT_LINES: u32 = 3;
/// The most lines the board shows.
pub const MAX_LINES: u32 = 10;

/// One analysed line, as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The depth it was found at.
    pub depth: u32,
    /// The score from White's view (engine scale).
    pub score_white: i32,
    /// The line in SAN with move numbers.
    pub san: String,
}

/// A search request for the analysis thread.
struct Job {
    generation: u64,
    pos: Chess,
    keys: Vec<u64>,
    lines: u32,
    control: Arc<Control>,
}

/// The board's state.
pub struct Board {
    /// Every line played.
    pub tree: Tree,
    /// The position shown.
    pub at: usize,
    /// Draws the board and edits the move being typed (its game is the path to `at`).
    pub app: App,
    /// Lines asked of the engine.
    pub lines_wanted: u32,
    /// The engine's lines for the position shown, best first.
    pub lines: Vec<Option<Line>>,
    /// The book's moves for the position shown: SAN and share of the weight in percent.
    pub book_moves: Vec<(String, u32)>,
    /// Every move's tablebase verdict for the position shown, best first: SAN and verdict.
    pub tb_moves: Vec<(String, String)>,
    /// The search counts for the position shown: nodes and nodes per second.
    pub nodes: (u64, u64),
    /// Where the tree was last saved, and whether it changed since.
    pub saved: (Option<PathBuf>, bool),
    /// Opened from a game: `q` goes back to it.
    pub from_game: bool,
    generation: u64,
    flipped: bool,
    ascii: bool,
    book: Option<Book>,
    tablebases: Arc<Tablebases>,
    jobs: Sender<Job>,
    control: Arc<Control>,
    infos: Receiver<(u64, Info)>,
}

impl Board {
    /// A board over `tree` at its node `at`, with its analysis thread started.
    pub fn new(tree: Tree, at: usize, tablebases: Arc<Tablebases>, ascii: bool) -> Board {
        let (jobs, job_rx) = unbounded::<Job>();
        let (info_tx, infos) = unbounded();
        let tables = tablebases.clone();
        thread::Builder::new()
            .name("analysis".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || analyse(&job_rx, &info_tx, tables))
            .expect("spawning the analysis thread");
        let mut board = Board {
            app: App::new(Settings::default(), tree.game_to(at), Mode::Play, false),
            tree,
            at,
            lines_wanted: DEFAULT_LINES,
            lines: Vec::new(),
            book_moves: Vec::new(),
            tb_moves: Vec::new(),
            nodes: (0, 0),
            saved: (None, false),
            from_game: false,
            generation: 0,
            flipped: false,
            ascii,
            book: Book::embedded().ok(),
            tablebases,
            jobs,
            control: Arc::new(Control::default()),
            infos,
        };
        board.show(at);
        board
    }

    /// Shows node `at`: the board, its book moves and tablebase verdicts, and a new analysis.
    pub fn show(&mut self, at: usize) {
        self.at = at;
        let settings = Settings {
            white: Side::Human,
            black: Side::Human,
            ascii: self.ascii,
            ..Settings::default()
        };
        self.app = App::new(settings, self.tree.game_to(at), Mode::Play, false);
        // No "play again?" here: a finished position just says how it ended.
        self.app.ask_again = false;
        self.app.message = None;
        if let Some(o) = self.app.game.outcome() {
            self.app.say(format!("{}.", o.announce()), Tone::Info);
        }
        self.app.flipped = self.flipped;
        let pos = self.tree.node(at).pos.clone();
        self.book_moves = self.book.as_ref().map_or(Vec::new(), |book| {
            let moves = book.moves(&pos);
            let total: u32 = moves.iter().map(|m| u32::from(m.weight)).sum();
            moves
                .iter()
                .map(|m| {
                    (
                        SanPlus::from_move(pos.clone(), m.mv).to_string(),
                        (u32::from(m.weight) * 100).checked_div(total).unwrap_or(0),
                    )
                })
                .collect()
        });
        self.tb_moves = self
            .tablebases
            .rank_root_moves(&pos)
            .map(|ranked| {
                ranked
                    .iter()
                    .map(|r| {
                        let verdict = match r.wdl {
                            Wdl::Win => format!("win, DTZ {}", r.dtz.abs()),
                            Wdl::Loss => format!("loss, DTZ {}", r.dtz.abs()),
                            Wdl::CursedWin => "win, but for the 50-move rule".to_string(),
                            Wdl::BlessedLoss => "loss, but for the 50-move rule".to_string(),
                            Wdl::Draw => "draw".to_string(),
                        };
                        (SanPlus::from_move(pos.clone(), r.mv).to_string(), verdict)
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.restart_analysis();
    }

    /// Stops the analysis under way and starts one of the position shown.
    fn restart_analysis(&mut self) {
        self.control.stop.store(true, Ordering::Relaxed);
        self.generation += 1;
        self.lines = vec![None; self.lines_wanted as usize];
        self.nodes = (0, 0);
        let pos = self.tree.node(self.at).pos.clone();
        if pos.legal_moves().is_empty() {
            self.lines.clear();
            return;
        }
        self.control = Arc::new(Control::default());
        let _ = self.jobs.send(Job {
            generation: self.generation,
            keys: self.app.game.history_keys().to_vec(),
            pos,
            lines: self.lines_wanted,
            control: self.control.clone(),
        });
    }

    /// Takes in an analysis report.
    fn take(&mut self, generation: u64, info: &Info) {
        if generation != self.generation {
            return;
        }
        let pos = &self.tree.node(self.at).pos;
        let k = info.multipv.max(1) as usize - 1;
        if let Some(slot) = self.lines.get_mut(k) {
            *slot = Some(Line {
                depth: info.depth,
                score_white: pos.turn().fold_wb(info.score, -info.score),
                san: crate::review::numbered_line(pos, &info.pv, 12),
            });
        }
        self.nodes = (info.nodes, info.nps);
    }

    /// The player's move `m` from the position shown: into the tree, and shown.
    fn play(&mut self, m: shakmaty::Move) {
        let before = self.tree.len();
        let next = self.tree.play(self.at, m);
        if next == self.at {
            self.app
                .say("The board holds as many positions as it can.", Tone::Error);
            return;
        }
        let from = self.at;
        self.show(next);
        if self.tree.len() > before {
            self.saved.1 = true;
            let tried = self.tree.node(from).children.len();
            if tried > 1 && self.app.message.is_none() {
                self.app.say(
                    format!(
                        "A side line: {tried} moves tried from the position before (↑↓ switch)."
                    ),
                    Tone::Info,
                );
            }
        }
    }

    /// The node one line over (`down`: the next move tried from the same position).
    fn sibling(&self, down: bool) -> Option<usize> {
        let (parent, _) = self.tree.node(self.at).parent?;
        let children = &self.tree.node(parent).children;
        let k = children.iter().position(|&c| c == self.at)?;
        let j = if down { k + 1 } else { k.checked_sub(1)? };
        children.get(j).copied()
    }

    /// Saves the tree as PGN with its side lines: to `file`, or a new file in the games folder.
    fn save(&mut self, file: Option<&str>, paths: &Paths) {
        let path = match file {
            Some(f) => PathBuf::from(f),
            None => self.saved.0.clone().unwrap_or_else(|| {
                paths
                    .data
                    .join(format!("analysis-{}.pgn", crate::game::timestamp()))
            }),
        };
        let tags = [
            ("Event", "Knightfall analysis".to_string()),
            ("Site", "Knightfall".to_string()),
            ("Date", crate::game::today()),
            ("White", "?".to_string()),
            ("Black", "?".to_string()),
            ("Result", "*".to_string()),
        ];
        let text = self.tree.to_pgn(&tags);
        let written = std::fs::create_dir_all(&paths.data)
            .map_err(anyhow::Error::from)
            .and_then(|()| match file {
                Some(_) => crate::store::save_as(&path, &text),
                None => write_atomic(&path, &text),
            });
        match written {
            Ok(()) => {
                self.app
                    .say(format!("Saved to {}", path.display()), Tone::Info);
                self.saved = (Some(path), false);
            }
            Err(e) => self.app.say(format!("Not saved: {e:#}"), Tone::Error),
        }
    }

    /// Handles a key; returns false to quit.
    fn key(&mut self, key: KeyEvent, paths: &Paths) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let typing = !self.app.input.is_empty();
        match key.code {
            KeyCode::Char('c') | KeyCode::Char('q') if ctrl => {
                event::request_exit();
                return false;
            }
            KeyCode::Char('q') if !typing => return false,
            KeyCode::Char('s') if ctrl => self.save(None, paths),
            KeyCode::Char('f') if ctrl => {
                self.flipped = !self.flipped;
                self.app.flipped = self.flipped;
            }
            KeyCode::Char('p') if ctrl => {
                let main = self
                    .tree
                    .path(self.at)
                    .windows(2)
                    .all(|w| self.tree.node(w[0]).children.first() == Some(&w[1]));
                if main {
                    self.app.say("This is the main line already.", Tone::Info);
                } else {
                    self.tree.promote(self.at);
                    self.saved.1 = true;
                    self.app.say("This line is now the main line.", Tone::Info);
                }
            }
            KeyCode::Char('?') if !typing => {
                self.app.say(super::ui::board_screen::KEYS_HELP, Tone::Info)
            }
            KeyCode::Char('+') if !typing => self.set_lines(self.lines_wanted + 1),
            KeyCode::Char('-') if !typing => self.set_lines(self.lines_wanted.saturating_sub(1)),
            KeyCode::Left if !typing => {
                if let Some((p, _)) = self.tree.node(self.at).parent {
                    self.show(p);
                }
            }
            KeyCode::Right if !typing => {
                if let Some(&c) = self.tree.node(self.at).children.first() {
                    self.show(c);
                }
            }
            KeyCode::Up | KeyCode::Down if !typing => {
                match self.sibling(key.code == KeyCode::Down) {
                    Some(s) => self.show(s),
                    None => self.app.say("No other move was tried here.", Tone::Info),
                }
            }
            KeyCode::Home if !typing => self.show(0),
            KeyCode::End if !typing => {
                let mut at = self.at;
                while let Some(&c) = self.tree.node(at).children.first() {
                    at = c;
                }
                self.show(at);
            }
            KeyCode::Enter => {
                let text = self.app.input.trim().to_string();
                self.app.input.clear();
                self.command(&text, paths);
            }
            _ if ctrl => {}
            _ => {
                self.app.update(super::app::Action::Key(key));
            }
        }
        true
    }

    fn set_lines(&mut self, n: u32) {
        let n = n.clamp(1, MAX_LINES);
        if n != self.lines_wanted {
            self.lines_wanted = n;
            self.restart_analysis();
        }
        self.app.say(format!("Analysing {n} lines."), Tone::Info);
    }

    /// A typed line: a move, or `save [FILE]`, `lines N`, `fen`, `quit`.
    fn command(&mut self, text: &str, paths: &Paths) {
        let mut words = text.split_whitespace();
        match words.next() {
            None => {}
            Some("save") => {
                let file = words.next().map(str::to_string);
                self.save(file.as_deref(), paths);
            }
            Some("lines") => match words.next().and_then(|w| w.parse::<u32>().ok()) {
                Some(n) if (1..=MAX_LINES).contains(&n) => self.set_lines(n),
                _ => self.app.say(
                    format!("lines takes a number from 1 to {MAX_LINES}"),
                    Tone::Error,
                ),
            },
            Some("fen") => {
                let fen = self.tree.fen(self.at);
                self.app.say(fen, Tone::Info);
            }
            Some(_) => match self.app.game.parse_move(text) {
                Ok(m) => self.play(m),
                Err(e) => self.app.say(e.to_string(), Tone::Error),
            },
        }
    }

    /// A click on a square: the app selects and moves as in a game; a move made goes into the
    /// tree.
    fn click(&mut self, square: shakmaty::Square) {
        let ply = self.app.game.ply();
        self.app.update(super::app::Action::Click(square));
        if self.app.game.ply() > ply
            && let Some(&m) = self.app.game.moves().last()
        {
            self.play(m);
        }
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        self.control.stop.store(true, Ordering::Relaxed);
    }
}

/// The analysis thread: one search at a time, each until stopped, always of the latest job.
fn analyse(jobs: &Receiver<Job>, infos: &Sender<(u64, Info)>, tablebases: Arc<Tablebases>) {
    let mut player = Player::new(
        Config {
            hash_mb: 64,
            move_overhead_ms: 0,
            threads: crate::engine::Engine::max_threads(),
            ..Config::default()
        },
        None,
        Some(tablebases),
    );
    while let Ok(mut job) = jobs.recv() {
        // Only the newest position matters.
        while let Ok(newer) = jobs.try_recv() {
            job = newer;
        }
        let limits = Limits {
            infinite: true,
            multipv: job.lines,
            ..Limits::default()
        };
        let generation = job.generation;
        let _ = player.decide(
            &job.pos,
            &job.keys,
            &limits,
            Known::SearchOnly,
            &job.control,
            &mut |info| {
                let _ = infos.send((generation, info.clone()));
            },
        );
    }
}

/// Runs the board until the player leaves (`q`: back to the game when it came from one); the
/// tree is saved on the way out if it changed.
pub fn run(tree: Tree, at: usize, tablebases: Arc<Tablebases>, from_game: bool) -> Result<()> {
    let paths = Paths::get();
    let ascii = load_settings(&paths)?.ascii;
    let mut board = Board::new(tree, at, tablebases, ascii);
    board.from_game = from_game;
    let mut term = terminal::setup_terminal()?;
    let result = main_loop(&mut term, &mut board, &paths);
    terminal::restore_terminal();
    std::mem::forget(term);
    if board.saved.1 && board.tree.len() > 1 {
        board.save(None, &paths);
        if let Some(path) = &board.saved.0 {
            println!("Analysis saved to {}", path.display());
        }
    }
    result
}

fn main_loop(
    term: &mut Terminal<CrosstermBackend<io::Stdout>>,
    board: &mut Board,
    paths: &Paths,
) -> Result<()> {
    let (tx, input) = unbounded();
    event::route_input_to(tx);
    let mut trace = super::Trace::open();
    term.draw(|f| super::ui::board_screen::draw(f, board))?;
    let infos = board.infos.clone();
    loop {
        let mut key_at = None;
        select! {
            recv(input) -> ev => match ev {
                Ok(Event::Key(k)) => {
                    key_at = Some(Instant::now());
                    if !board.key(k, paths) {
                        return Ok(());
                    }
                }
                Ok(Event::Mouse(m)) => {
                    if let Some(sq) = click_square(&board.app, &m) {
                        board.click(sq);
                    }
                }
                Ok(Event::Resize) | Ok(Event::Engine(_)) => {}
                Ok(Event::Terminate) | Err(_) => return Ok(()),
            },
            recv(infos) -> r => {
                if let Ok((generation, info)) = r {
                    board.take(generation, &info);
                }
                // Reports come in bursts (one per line and depth): take them all, draw once.
                while let Ok((generation, info)) = infos.try_recv() {
                    board.take(generation, &info);
                }
            },
            default(Duration::from_millis(500)) => {}
        }
        term.draw(|f| super::ui::board_screen::draw(f, board))?;
        if let Some(at) = key_at {
            trace.note("key_to_screen_us", at.elapsed());
        }
    }
}
