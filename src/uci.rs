//! The UCI loop: reads commands from stdin, runs searches on a worker thread, writes replies.
//!
//! Bad input never stops the engine: unknown commands, malformed numbers, bad FENs and illegal
//! moves are answered with `info string` and leave the current state as it was.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use anyhow::Result;
use crossbeam_channel::Receiver;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::book::{Book, BookRng};
use crate::bot::Bot;
use crate::engine::node::key_of;
use crate::engine::search::MAX_LINES;
use crate::engine::strength;
use crate::engine::{Config, Control, Engine, Limits, report};
use crate::lines::{Line, read_line};
use crate::player::{Decision, Known, Player, Source};
use crate::search_thread::SearchThread;
use crate::tablebase::Tablebases;
use crate::uci_info;

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
            send(&format!(
                "info depth 1 score {} tbhits 1 pv {uci}",
                report(decision.result.score)
            ));
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
                let mut line = match best {
                    Some(m) => format!("bestmove {}", m.to_uci(CastlingMode::Standard)),
                    None => "bestmove 0000".to_string(),
                };
                if let Some(p) = ponder {
                    line.push_str(&format!(" ponder {}", p.to_uci(CastlingMode::Standard)));
                }
                searches.fetch_sub(1, Ordering::AcqRel);
                send(&line);
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
    bot: Option<(Bot, BookRng)>,
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
            probe_limit: 7,
            skill_level: strength::MAX_LEVEL,
            limit_strength: false,
            uci_elo: strength::max_elo(),
            bot: None,
            held: None,
            refused: None,
            multipv: 1,
            contempt: crate::engine::DEFAULT_CONTEMPT,
            analyse_mode: false,
            searches,
            hash_mb: 16,
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
        session.bot = Some((bot, BookRng::from_entropy()));
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
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => {
                match &self.bot {
                    Some((bot, _)) => send(&format!("id name {NAME} {bot:?} bot")),
                    None => send(&format!("id name {NAME}")),
                }
                send("id author the Knightfall developers");
                send("option name Hash type spin default 16 min 1 max 4096");
                send(&format!(
                    "option name Threads type spin default 1 min 1 max {}",
                    Engine::max_threads()
                ));
                send("option name Move Overhead type spin default 30 min 0 max 5000");
                send(&format!(
                    "option name MultiPV type spin default 1 min 1 max {MAX_LINES}"
                ));
                send("option name Clear Hash type button");
                send("option name Ponder type check default false");
                send(&format!(
                    "option name Contempt type spin default {} min -{max} max {max}",
                    crate::engine::DEFAULT_CONTEMPT,
                    max = crate::engine::MAX_CONTEMPT
                ));
                send("option name UCI_AnalyseMode type check default false");
                send("option name Skill Level type spin default 10 min 1 max 10");
                send("option name UCI_LimitStrength type check default false");
                send(&format!(
                    "option name UCI_Elo type spin default {max} min {min} max {max}",
                    min = strength::min_elo(),
                    max = strength::max_elo()
                ));
                send("option name OwnBook type check default true");
                send("option name BookFile type string default <embedded>");
                send("option name SyzygyPath type string default <empty>");
                send("option name SyzygyProbeLimit type spin default 7 min 0 max 7");
                send("uciok");
            }
            // While a search runs the answer must come at once; otherwise it waits for the
            // jobs before it, so that readyok means a new hash table is in place.
            "isready" => {
                if self.searches.load(Ordering::Acquire) > 0 {
                    send("readyok");
                } else {
                    self.post(Job::Ready);
                }
            }
            "ucinewgame" => {
                self.stop();
                self.post(Job::Clear);
                self.pos = Chess::default();
                self.history.clear();
                self.refused = None;
            }
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => {
                self.stop();
                if let Some((line, _)) = self.held.take() {
                    send(&line);
                }
            }
            "ponderhit" => {
                if let Some(control) = self.thread.current() {
                    control.pondering.store(false, Ordering::Release);
                }
                if self.held.as_ref().is_some_and(|(_, infinite)| !infinite)
                    && let Some((line, _)) = self.held.take()
                {
                    send(&line);
                }
            }
            "setoption" => self.setoption(&rest),
            "quit" => return false,
            "debug" | "register" => {}
            _ => send(&format!("info string unknown command: {}", clip(line))),
        }
        true
    }

    fn position(&mut self, args: &[&str]) {
        let (base, moves) = match args.iter().position(|&w| w == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match base.split_first() {
            Some((&"startpos", [])) => Ok(Chess::default()),
            Some((&"fen", fields)) if !fields.is_empty() => parse_fen(&fields.join(" ")),
            _ => Err("expected 'position startpos' or 'position fen <FEN>'".to_string()),
        };
        let mut pos = match start {
            Ok(pos) => pos,
            Err(err) => {
                self.refuse(err);
                return;
            }
        };
        let mut history = Vec::with_capacity(moves.len());
        for text in moves {
            let m = text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok());
            let Some(m) = m else {
                self.refuse(format!("illegal or malformed move {text}"));
                return;
            };
            history.push(key_of(&pos));
            pos.play_unchecked(m);
        }
        self.pos = pos;
        self.history = history;
        self.refused = None;
    }

    /// Says why a `position` was refused and keeps it for the `go` that follows.
    fn refuse(&mut self, why: String) {
        send(&format!("info string position ignored: {why}"));
        self.refused = Some(why);
    }

    fn go(&mut self, args: &[&str]) {
        // Our clock runs from now, not from when the search thread gets round to it.
        let received = std::time::Instant::now();
        self.stop();
        self.held = None;
        let (mut limits, ponder) = parse_go(args, &self.pos);
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
            Some("bestmove 0000".to_string())
        } else if let Some((bot, rng)) = &mut self.bot {
            Some(match bot.choose(&self.pos, rng) {
                Some(m) => format!("bestmove {}", m.to_uci(CastlingMode::Standard)),
                None => "bestmove 0000".to_string(),
            })
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

    fn setoption(&mut self, args: &[&str]) {
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            send("info string setoption: expected 'setoption name <id> [value <x>]'");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        let number = value.and_then(|v| v.parse::<u64>().ok());
        match name.to_ascii_lowercase().as_str() {
            "hash" => match number {
                Some(mb) if (1..=4096).contains(&mb) => {
                    match crate::memory::check_fits(mb, self.hash_mb) {
                        Ok(()) => {
                            self.hash_mb = mb;
                            self.post(Job::SetHash(mb as usize));
                        }
                        Err(why) => send(&format!(
                            "info string Hash not changed: {why}; keeping {} MB",
                            self.hash_mb
                        )),
                    }
                }
                _ => send("info string Hash must be a number from 1 to 4096"),
            },
            "move overhead" => match number {
                Some(ms) if ms <= 5000 => self.post(Job::SetOverhead(ms)),
                _ => send("info string Move Overhead must be a number from 0 to 5000"),
            },
            "threads" => match number {
                Some(n) if (1..=Engine::max_threads() as u64).contains(&n) => {
                    self.post(Job::SetThreads(n as usize))
                }
                _ => send(&format!(
                    "info string Threads must be a number from 1 to {} (the cores here)",
                    Engine::max_threads()
                )),
            },
            "clear hash" => self.post(Job::Clear),
            "multipv" => match number {
                Some(n) if (1..=MAX_LINES as u64).contains(&n) => self.multipv = n as u32,
                _ => send(&format!(
                    "info string MultiPV must be a number from 1 to {MAX_LINES}"
                )),
            },
            "skill level" => match number {
                Some(level) if (1..=10).contains(&level) => {
                    self.skill_level = level as u8;
                }
                _ => send("info string Skill Level must be a number from 1 to 10"),
            },
            "contempt" => {
                let max = crate::engine::MAX_CONTEMPT;
                match value.and_then(|v| v.parse::<i32>().ok()) {
                    Some(cp) if (-max..=max).contains(&cp) => self.contempt = cp,
                    _ => send(&format!(
                        "info string Contempt must be a number from -{max} to {max}"
                    )),
                }
            }
            "uci_analysemode" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => self.analyse_mode = true,
                Some("false") => self.analyse_mode = false,
                _ => send("info string UCI_AnalyseMode must be true or false"),
            },
            "uci_limitstrength" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => {
                    self.limit_strength = true;
                }
                Some("false") => {
                    self.limit_strength = false;
                }
                _ => send("info string UCI_LimitStrength must be true or false"),
            },
            "uci_elo" => {
                let (min, max) = (strength::min_elo(), strength::max_elo());
                match value.and_then(|v| v.parse::<i32>().ok()) {
                    Some(elo) if (min..=max).contains(&elo) => {
                        self.uci_elo = elo;
                        if self.limit_strength {
                            send(&format!(
                                "info string UCI_Elo {elo} plays at level {}",
                                strength::level_for_elo(elo)
                            ));
                        }
                    }
                    _ => send(&format!(
                        "info string UCI_Elo must be a number from {min} to {max}"
                    )),
                }
            }
            "ownbook" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => self.post(Job::SetBookEnabled(true)),
                Some("false") => self.post(Job::SetBookEnabled(false)),
                _ => send("info string OwnBook must be true or false"),
            },
            "bookfile" => {
                let path = value.unwrap_or("");
                let loaded = if path.is_empty() || path == "<embedded>" {
                    Book::embedded()
                } else {
                    Book::open(path)
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
            "syzygypath" => self.set_syzygy(value.unwrap_or("")),
            "syzygyprobelimit" => match number {
                Some(n) if n <= 7 => {
                    self.probe_limit = n as usize;
                    let path = self.syzygy_path.clone();
                    self.set_syzygy(&path);
                }
                _ => send("info string SyzygyProbeLimit must be a number from 0 to 7"),
            },
            "ponder" => {}
            _ => send(&format!("info string unknown option: {name}")),
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The search stops, the jobs queued before `quit` are done, then the thread ends.
        self.thread.finish();
    }
}

/// The words `go` takes that are followed by a number.
const GO_NUMBERS: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
];

/// Reads `go`'s arguments for a search of `pos`: the limits and whether it is a ponder search.
/// A malformed or unknown word is reported with `info string` and the rest of the line still
/// applies; with no limit at all (and neither `infinite` nor `ponder`) the search gets a
/// second, so that only `infinite` and `ponder` wait for `stop`.
fn parse_go(args: &[&str], pos: &Chess) -> (Limits, bool) {
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut words = args.iter().copied().peekable();
    let is_keyword =
        |w: &str| GO_NUMBERS.contains(&w) || matches!(w, "infinite" | "ponder" | "searchmoves");
    while let Some(word) = words.next() {
        if GO_NUMBERS.contains(&word) {
            let value = words.peek().copied().filter(|v| !is_keyword(v));
            let Some(text) = value else {
                send(&format!("info string go: {word} needs a number"));
                continue;
            };
            words.next();
            let Ok(n) = text.parse::<i64>() else {
                send(&format!(
                    "info string go: {word} needs a whole number, not {text}; ignored"
                ));
                continue;
            };
            match word {
                "wtime" => limits.wtime = Some(n.max(0) as u64),
                "btime" => limits.btime = Some(n.max(0) as u64),
                "winc" => limits.winc = Some(n.max(0) as u64),
                "binc" => limits.binc = Some(n.max(0) as u64),
                "movestogo" => limits.movestogo = Some(n.clamp(1, 1000) as u32),
                "depth" => limits.depth = Some(n.clamp(1, 127) as u32),
                "nodes" => limits.nodes = Some(n.max(1) as u64),
                "movetime" => limits.movetime = Some(n.max(1) as u64),
                _ => limits.depth = Some((n.clamp(1, 60) * 2) as u32),
            }
            continue;
        }
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => ponder = true,
            "searchmoves" => {
                while let Some(&text) = words.peek().filter(|w| !is_keyword(w)) {
                    words.next();
                    match text
                        .parse::<UciMove>()
                        .ok()
                        .and_then(|u| u.to_move(pos).ok())
                    {
                        Some(m) => limits.searchmoves.push(m),
                        None => send(&format!(
                            "info string go: searchmoves: {text} is not a legal move here"
                        )),
                    }
                }
            }
            _ => send(&format!("info string go: ignoring unknown word {word}")),
        }
    }
    let limited = limits.wtime.is_some()
        || limits.btime.is_some()
        || limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some();
    if !limited && !limits.infinite && !ponder {
        send("info string go: no limit given; searching for 1000 ms");
        limits.movetime = Some(1000);
    }
    (limits, ponder)
}

fn parse_fen(text: &str) -> std::result::Result<Chess, String> {
    crate::fen::position(text).map_err(|e| e.to_string())
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

/// `text` as a message quotes it: at most 80 characters.
fn clip(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}
