//! The UCI loop: reads commands from stdin, runs searches on a worker thread, writes replies.
//!
//! Bad input never stops the engine: unknown commands, malformed numbers, bad FENs and illegal
//! moves are answered with `info string` and leave the current state as it was.
//!
//! A line is read into a [`Command`] (`command.rs`, which checks `setoption` values against the
//! option table of `options.rs`, the same table the `uci` answer lists); this loop acts on it.
//! The `info` lines are written by `uci_info`, which also reads other engines' lines.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Result;
use crossbeam_channel::Receiver;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::book::Book;
use crate::bot::Bot;
use crate::engine::strength;
use crate::engine::{Config, Control, Limits};
use crate::lines::{Line, read_line};
use crate::player::{Decision, Known, Player, Source};
use crate::rng::Rng;
use crate::search_thread::SearchThread;
use crate::tablebase::Tablebases;
use crate::uci_info;
use command::{Command, Go, Setup};
use options::{Id, Setting, default_number};

mod options;
mod command;

const NAME: &str = concat!("Knightfall ", env!("CARGO_PKG_VERSION"));

/// `knightfall uci` options.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// Serve a trivial test opponent instead of the engine (for calibrating the levels).
    #[arg(long, value_enum)]
    pub bot: Option<Bot>,
}

enum Job {
    Search {
        pos: Box<Chess>,
        history: Vec<u64>,
        limits: Box<Limits>,
        control: Arc<Control>,
        infinite: bool,
    },
    SetHash(usize),
    SetBook(Option<Box<Book>>),
    SetBookEnabled(bool),
    SetTablebases(Option<Arc<Tablebases>>),
    SetOverhead(u64),
    SetThreads(usize),
    Clear,
    /// Answers `isready` once every job before it is done (a new hash table allocated).
    Ready,
}

fn send(line: &str) {
    let mut out = io::stdout().lock();
    // A closed stdout means the GUI is gone; there is nobody left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The `bestmove` line: the move (`0000` for none, as when there is no legal move) and the
/// reply to ponder on, if any.
fn bestmove(best: Option<Move>, ponder: Option<Move>) -> String {
    let mut line = match best {
        Some(m) => format!("bestmove {}", m.to_uci(CastlingMode::Standard)),
        None => "bestmove 0000".to_string(),
    };
    if let Some(p) = ponder {
        line.push_str(&format!(" ponder {}", p.to_uci(CastlingMode::Standard)));
    }
    line
}

/// The lines that explain a move found without searching.
fn announce_known(decision: &Decision, book: Option<&Book>) {
    let Some(m) = decision.result.best else {
        return;
    };
    let uci = m.to_uci(CastlingMode::Standard);
    match (decision.source, &decision.tablebase) {
        (Source::Book, _) => send(&format!(
            "info string book move {uci} from {}",
            book.map_or("the book", Book::name)
        )),
        (Source::Search, Some(root)) => send(&format!(
            "info string tb {} dtz {}; searched the moves that keep it",
            root.outcome_word(),
            root.dtz
        )),
        (Source::Tablebase, Some(root)) => {
            send(&uci_info::write_tablebase_move(decision.result.score, m));
            send(&format!(
                "info string tb {} dtz {}",
                root.outcome_word(),
                root.dtz
            ));
        }
        _ => {}
    }
}

fn worker(jobs: Receiver<Job>, searches: &AtomicUsize) {
    let book = match Book::embedded() {
        Ok(book) => Some(book),
        Err(err) => {
            send(&format!("info string no opening book: {err}"));
            None
        }
    };
    let mut player = Player::new(Config::default(), book, None);
    for job in jobs {
        match job {
            Job::Search {
                pos,
                history,
                limits,
                control,
                infinite,
            } => {
                let decided = player.decide(
                    &pos,
                    &history,
                    &limits,
                    Known::Allowed,
                    &control,
                    &mut |info| send(&uci_info::write(info)),
                );
                for warning in player.take_warnings() {
                    send(&format!("info string tablebases: {warning}"));
                }
                let (best, ponder) = match decided {
                    Ok(decision) => {
                        announce_known(&decision, player.book());
                        (decision.result.best, decision.result.ponder)
                    }
                    Err(_) => {
                        // Never leave the GUI waiting: answer with a legal move.
                        send("info string internal error in the search; playing a legal move");
                        (pos.legal_moves().first().copied(), None)
                    }
                };
                // UCI forbids answering an infinite or ponder search before stop/ponderhit.
                while (infinite || control.pondering.load(Ordering::Acquire))
                    && !control.stop.load(Ordering::Acquire)
                {
                    thread::sleep(Duration::from_millis(1));
                }
                searches.fetch_sub(1, Ordering::AcqRel);
                send(&bestmove(best, ponder));
            }
            Job::SetHash(mb) => player.engine_mut().set_hash(mb),
            Job::SetBook(new) => player.set_book(new.map(|b| *b)),
            Job::SetBookEnabled(on) => player.set_book_enabled(on),
            Job::SetTablebases(tb) => player.set_tablebases(tb),
            Job::SetOverhead(ms) => player.engine_mut().set_move_overhead(ms),
            Job::SetThreads(n) => player.engine_mut().set_threads(n),
            Job::Clear => player.new_game(),
            Job::Ready => send("readyok"),
        }
    }
}

/// The protocol state kept by the reading thread.
pub(crate) struct Session {
    pos: Chess,
    /// Keys of the positions before `pos`, oldest first.
    history: Vec<u64>,
    /// The search thread, with the control of its search.
    thread: SearchThread<Job>,
    syzygy_path: String,
    probe_limit: usize,
    /// `Skill Level`, used unless `UCI_LimitStrength` is on.
    skill_level: u8,
    limit_strength: bool,
    uci_elo: i32,
    /// A trivial opponent answering instead of the engine.
    bot: Option<(Bot, Rng)>,
    /// Searches asked for and not yet answered: a count, not a flag, so that a search ending
    /// while the next is queued does not make `isready` wait behind the next one.
    searches: Arc<AtomicUsize>,
    /// The hash size in MB, as last set.
    hash_mb: u64,
    /// An answer found without a search (the bot's, or none after a refused position) to `go
    /// infinite` or `go ponder`, held until `stop` (or `ponderhit` when not infinite).
    held: Option<(String, bool)>,
    /// Why the last `position` was refused: until one is accepted, `go` answers no move
    /// rather than search a position the GUI no longer has.
    refused: Option<String>,
    /// `MultiPV`: how many best lines a search reports.
    multipv: u32,
    /// `Contempt`, in centipawns, for searches of a game.
    contempt: i32,
    /// `UCI_AnalyseMode`: the GUI analyses, so a draw is scored as a draw.
    analyse_mode: bool,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    /// Starts the worker thread.
    pub(crate) fn new() -> Session {
        let searches = Arc::new(AtomicUsize::new(0));
        let searching = searches.clone();
        let thread = SearchThread::spawn("search", move |rx| worker(rx, &searching));
        let mut session = Session {
            pos: Chess::default(),
            history: Vec::new(),
            thread,
            syzygy_path: String::new(),
            probe_limit: default_number(Id::SyzygyProbeLimit) as usize,
            skill_level: default_number(Id::SkillLevel) as u8,
            limit_strength: false,
            uci_elo: default_number(Id::Elo) as i32,
            bot: None,
            held: None,
            refused: None,
            multipv: default_number(Id::MultiPv) as u32,
            contempt: default_number(Id::Contempt) as i32,
            analyse_mode: false,
            searches,
            hash_mb: default_number(Id::Hash) as u64,
        };
        session.set_syzygy(&std::env::var("SYZYGY_PATH").unwrap_or_default());
        session
    }

    /// Loads the embedded tables with the directories of `path` (`SyzygyPath`) on top.
    fn set_syzygy(&mut self, path: &str) {
        self.syzygy_path = path.to_string();
        let user = Some(path).filter(|p| !p.trim().is_empty() && *p != "<empty>");
        let mut tb = Tablebases::load(user);
        tb.set_probe_limit(self.probe_limit);
        if user.is_some() {
            send(&format!(
                "info string tablebases: {} files, up to {} pieces",
                tb.file_count(),
                tb.max_pieces()
            ));
        }
        for warning in tb.warnings() {
            send(&format!("info string tablebases: {warning}"));
        }
        self.post(Job::SetTablebases(Some(Arc::new(tb))));
    }

    /// A session that answers with a trivial bot instead of searching.
    pub(crate) fn with_bot(bot: Bot) -> Session {
        let mut session = Session::new();
        session.bot = Some((bot, Rng::from_entropy()));
        session
    }

    /// The level that `Skill Level`, `UCI_LimitStrength` and `UCI_Elo` select; every `go`
    /// carries it in its limits.
    fn level(&self) -> u8 {
        if self.limit_strength {
            strength::level_for_elo(self.uci_elo)
        } else {
            self.skill_level
        }
    }

    fn stop(&mut self) {
        self.thread.stop();
    }

    fn post(&self, job: Job) {
        self.thread.post(job);
    }

    /// Handles one input line; returns false on `quit`.
    pub(crate) fn handle(&mut self, line: &str) -> bool {
        // A `go`'s clock runs from now, not from when it is read or searched.
        let received = Instant::now();
        let command = Command::parse(line, &self.pos);
        self.act(command, received)
    }

    /// Does what a command, read at `received`, asks; returns false on `quit`.
    fn act(&mut self, command: Command, received: Instant) -> bool {
        match command {
            Command::Uci => {
                match &self.bot {
                    Some((bot, _)) => send(&format!("id name {NAME} {bot:?} bot")),
                    None => send(&format!("id name {NAME}")),
                }
                send("id author the Knightfall developers");
                for option in options::table() {
                    send(&option.listing());
                }
                send("uciok");
            }
            // While a search runs the answer must come at once; otherwise it waits for the
            // jobs before it, so that readyok means a new hash table is in place.
            Command::IsReady => {
                if self.searches.load(Ordering::Acquire) > 0 {
                    send("readyok");
                } else {
                    self.post(Job::Ready);
                }
            }
            Command::UciNewGame => {
                self.stop();
                self.post(Job::Clear);
                self.pos = Chess::default();
                self.history.clear();
                self.refused = None;
            }
            Command::Position(Ok(Setup { pos, history })) => {
                self.pos = pos;
                self.history = history;
                self.refused = None;
            }
            Command::Position(Err(why)) => self.refuse(why),
            Command::Go(go) => self.go(go, received),
            Command::Stop => {
                self.stop();
                if let Some((line, _)) = self.held.take() {
                    send(&line);
                }
            }
            Command::PonderHit => {
                if let Some(control) = self.thread.current() {
                    control.pondering.store(false, Ordering::Release);
                }
                if self.held.as_ref().is_some_and(|(_, infinite)| !infinite)
                    && let Some((line, _)) = self.held.take()
                {
                    send(&line);
                }
            }
            Command::SetOption(Ok(setting)) => self.set(setting),
            Command::SetOption(Err(why)) => send(&format!("info string {why}")),
            Command::Quit => return false,
            Command::Nothing => {}
            Command::Unknown(line) => send(&format!("info string unknown command: {line}")),
        }
        true
    }

    /// Says why a `position` was refused and keeps it for the `go` that follows.
    fn refuse(&mut self, why: String) {
        send(&format!("info string position ignored: {why}"));
        self.refused = Some(why);
    }

    fn go(&mut self, go: Go, received: Instant) {
        self.stop();
        self.held = None;
        let Go {
            mut limits,
            ponder,
            notes,
        } = go;
        for note in notes {
            send(&format!("info string {note}"));
        }
        limits.received = Some(received);
        limits.level = Some(self.level());
        limits.multipv = self.multipv;
        // A game's search plays on in level positions; an analysis calls a draw a draw.
        if !limits.infinite && !self.analyse_mode {
            limits.contempt = self.contempt;
        }
        let waits = limits.infinite || ponder;
        let answer = if let Some(why) = &self.refused {
            send(&format!(
                "info string no search: the last position was refused ({why})"
            ));
            Some(bestmove(None, None))
        } else if let Some((bot, rng)) = &mut self.bot {
            Some(bestmove(bot.choose(&self.pos, rng), None))
        } else {
            None
        };
        if let Some(line) = answer {
            // As a search does, an answer found without one comes for `go infinite` and `go
            // ponder` only when told to.
            if waits {
                self.held = Some((line, limits.infinite));
            } else {
                send(&line);
            }
            return;
        }
        let control = self.thread.begin();
        control.pondering.store(ponder, Ordering::Release);
        // Searching from now: an isready before the worker picks the search up answers at once.
        self.searches.fetch_add(1, Ordering::AcqRel);
        self.post(Job::Search {
            pos: Box::new(self.pos.clone()),
            history: self.history.clone(),
            infinite: limits.infinite,
            limits: Box::new(limits),
            control,
        });
    }

    /// Applies a value `setoption` accepted.
    fn set(&mut self, setting: Setting) {
        match setting {
            Setting::Hash(mb) => match crate::memory::check_fits(mb, self.hash_mb) {
                Ok(()) => {
                    self.hash_mb = mb;
                    self.post(Job::SetHash(mb as usize));
                }
                Err(why) => send(&format!(
                    "info string Hash not changed: {why}; keeping {} MB",
                    self.hash_mb
                )),
            },
            Setting::MoveOverhead(ms) => self.post(Job::SetOverhead(ms)),
            Setting::Threads(n) => self.post(Job::SetThreads(n)),
            Setting::ClearHash => self.post(Job::Clear),
            Setting::MultiPv(n) => self.multipv = n,
            Setting::SkillLevel(level) => self.skill_level = level,
            Setting::Contempt(cp) => self.contempt = cp,
            Setting::AnalyseMode(on) => self.analyse_mode = on,
            Setting::LimitStrength(on) => self.limit_strength = on,
            Setting::Elo(elo) => {
                self.uci_elo = elo;
                if self.limit_strength {
                    send(&format!(
                        "info string UCI_Elo {elo} plays at level {}",
                        strength::level_for_elo(elo)
                    ));
                }
            }
            Setting::OwnBook(on) => self.post(Job::SetBookEnabled(on)),
            Setting::BookFile(path) => {
                let loaded = if path.is_empty() || path == "<embedded>" {
                    Book::embedded()
                } else {
                    Book::open(&path)
                };
                match loaded {
                    Ok(book) => {
                        send(&format!(
                            "info string book {} with {} entries",
                            book.name(),
                            book.len()
                        ));
                        self.post(Job::SetBook(Some(Box::new(book))));
                    }
                    Err(err) => {
                        send(&format!(
                            "info string book not loaded, playing without: {err}"
                        ));
                        self.post(Job::SetBook(None));
                    }
                }
            }
            Setting::SyzygyPath(path) => self.set_syzygy(&path),
            Setting::SyzygyProbeLimit(n) => {
                self.probe_limit = n;
                let path = self.syzygy_path.clone();
                self.set_syzygy(&path);
            }
            Setting::Ponder => {}
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The search stops, the jobs queued before `quit` are done, then the thread ends.
        self.thread.finish();
    }
}

/// Runs the UCI loop on stdin until `quit` or end of input.
pub fn run(args: &Args) -> Result<()> {
    let mut session = match args.bot {
        Some(bot) => Session::with_bot(bot),
        None => Session::new(),
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        match read_line(&mut input, &mut line, MAX_LINE_BYTES)? {
            Line::End => break,
            Line::TooLong => send(&format!(
                "info string ignoring a line longer than {MAX_LINE_BYTES} bytes"
            )),
            // Non-UTF-8 input is garbage like any other: report it and read on.
            Line::Read => match std::str::from_utf8(&line) {
                Ok(text) => {
                    if !session.handle(text) {
                        break;
                    }
                }
                Err(_) => send("info string ignoring a line that is not valid UTF-8"),
            },
        }
    }
    Ok(())
}

/// The longest input line read (a `position` with a thousand moves is about 5 KB); a longer one
/// is skipped without being held in memory.
const MAX_LINE_BYTES: usize = 1 << 20;
