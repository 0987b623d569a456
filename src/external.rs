//! Another UCI engine as a player: a child process spoken to over its stdin and stdout. Its
//! `info` lines become the same progress reports as Knightfall's own, and everything that can go
//! wrong with it (it does not start, crashes, hangs, talks nonsense, plays an illegal move) is an
//! error for the game to judge, never a panic.

use std::io::{BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, bounded};
use serde::{Deserialize, Serialize};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};
use thiserror::Error;

use crate::engine::{Control, Info, Limits};
use crate::lines::{Line, read_line};
use crate::uci_info;

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// The longest line kept from an engine (an `info` line with a long PV is a few KB); a longer
/// one is skipped whole.
const MAX_LINE_BYTES: usize = 64 << 10;
/// Lines read ahead of the game: an engine that floods its output waits for the game to take
/// them instead of filling the memory.
const LINES_AHEAD: usize = 1024;
/// How long an engine may take to answer `stop` with its move (its clock allowing): a
/// stopped search's move is never played, it is only waited for to keep the engine in step.
const STOP_GRACE: Duration = Duration::from_secs(2);
/// How long the engine may overrun a fixed move time before it is told to stop.
const MOVETIME_GRACE: Duration = Duration::from_millis(500);
/// How long past its whole clock an engine's move is waited for, if nobody stops it first: the
/// game flags it sooner (with less grace), so this only bounds the wait for other callers.
const CLOCK_GRACE: Duration = Duration::from_secs(1);
/// How long an idle engine may take to leave after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);
/// How often a wait for the engine looks at the kill switch.
const POLL: Duration = Duration::from_millis(10);

/// Ends external engines at once, from any thread, when Knightfall leaves: throwing it kills
/// the process group of every engine started under it that owes an answer (its handshake, or a
/// move: it may hang, or ignore `stop` and `quit`), and of any that starts to owe one later;
/// every wait in [`External`] looks at it and gives up. An idle engine is left to its owner,
/// whose drop asks it to `quit` and kills it shortly after: so neither a hung `go` nor an
/// engine deaf to `quit` holds the exit up, and one that keeps something on `quit` still can.
#[derive(Clone, Debug, Default)]
pub struct KillSwitch(Arc<Mutex<Switch>>);

#[derive(Debug, Default)]
struct Switch {
    thrown: bool,
    /// The process groups of the engines not yet reaped, and whether each owes an answer. A
    /// group is forgotten, under the lock, when its leader is reaped, so a throw never kills a
    /// reused pid's group.
    groups: Vec<(i32, bool)>,
}

impl KillSwitch {
    /// Kills every engine started under the switch that owes an answer, now or later.
    pub fn throw(&self) {
        let mut switch = self.lock();
        switch.thrown = true;
        for &(group, busy) in &switch.groups {
            if busy {
                kill_group(group);
            }
        }
    }

    /// Whether the switch was thrown.
    pub fn is_thrown(&self) -> bool {
        self.lock().thrown
    }

    /// Keeps `group`, owing an answer or not; kills it if it does and the switch was thrown.
    fn set_busy(&self, group: i32, busy: bool) {
        let mut switch = self.lock();
        if busy && switch.thrown {
            kill_group(group);
        }
        match switch.groups.iter_mut().find(|(g, _)| *g == group) {
            Some(entry) => entry.1 = busy,
            None => switch.groups.push((group, busy)),
        }
    }

    fn forget(&self, group: i32) {
        self.lock().groups.retain(|&(g, _)| g != group);
    }

    /// The switch's state; a panic while it was held cannot have left it half-written.
    fn lock(&self) -> MutexGuard<'_, Switch> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Kills the process group `group` (an engine and whatever it started).
fn kill_group(group: i32) {
    if group > 0 {
        // SAFETY: kill(2) with a process group id and a signal number touches no memory.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// Makes the child die with the thread that spawns it (`PR_SET_PDEATHSIG`), so that even a
/// `kill -9` of Knightfall takes its engines with it. The signal follows the spawning *thread*,
/// not the process: engines are spawned by the thread that owns them (the search service's, or
/// the caller of [`EngineSpec::check`], which drops its engine before it returns), so that
/// thread outlives them. `parent` is Knightfall's pid, taken before the fork: if it died before
/// `prctl`, the child has been handed to another parent already and must not run on.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    // SAFETY: getpid(2) touches no memory.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the child between fork and exec, and only makes
    // async-signal-safe system calls (prctl, getppid) and builds an error without allocating.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0 as libc::c_ulong,
                0 as libc::c_ulong,
                0 as libc::c_ulong,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_command: &mut Command) {}

/// An external engine as the config file describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    /// The name shown to the player and written in the PGN.
    pub name: String,
    /// The command line that starts it (split like a shell would, no shell involved).
    pub command: String,
    /// UCI options to set after the handshake, e.g. `UCI_Elo = "1500"`.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "options_table")]
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// A spec for a bare command line, named after its program.
    pub(crate) fn from_command(command: &str) -> EngineSpec {
        let program = shell_words::split(command)
            .ok()
            .and_then(|words| words.into_iter().next())
            .unwrap_or_else(|| command.to_string());
        let name = std::path::Path::new(&program)
            .file_name()
            .map_or(program.clone(), |n| n.to_string_lossy().into_owned());
        EngineSpec {
            name,
            command: command.to_string(),
            options: Vec::new(),
        }
    }
}

impl EngineSpec {
    /// Checks that the command names a program that exists (a path, or a name on `PATH`) and
    /// answers the UCI handshake, so a typo or a program that is no chess engine is reported
    /// before the game starts rather than after the first move.
    pub fn check(&self) -> Result<(), ExternalError> {
        let words = shell_words::split(&self.command)
            .map_err(|_| ExternalError::BadCommand(self.command.clone()))?;
        let program = words
            .first()
            .ok_or_else(|| ExternalError::BadCommand(self.command.clone()))?;
        let path = std::path::Path::new(program);
        let found = if path.components().count() > 1 {
            path.is_file()
        } else {
            std::env::var_os("PATH")
                .is_some_and(|p| std::env::split_paths(&p).any(|dir| dir.join(path).is_file()))
        };
        if found {
            External::start(self).map(drop)
        } else {
            Err(ExternalError::Start {
                name: self.name.clone(),
                error: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("no program {program}"),
                ),
            })
        }
    }
}

/// `options` as a TOML table (`options = { UCI_Elo = "1500" }`), kept in file order.
mod options_table {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(
        v: &[(String, String)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let map: toml::Table = v
            .iter()
            .map(|(k, v)| (k.clone(), toml::Value::String(v.clone())))
            .collect();
        map.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(String, String)>, D::Error> {
        let map = toml::Table::deserialize(d)?;
        Ok(map
            .into_iter()
            .map(|(k, v)| {
                let text = match v {
                    toml::Value::String(s) => s,
                    other => other.to_string(),
                };
                (k, text)
            })
            .collect())
    }
}

/// What went wrong with an external engine.
#[derive(Debug, Error)]
pub enum ExternalError {
    /// The command line is empty or not well formed.
    #[error("bad engine command {0:?}")]
    BadCommand(String),
    /// The program could not be started.
    #[error("{name} could not be started: {error}")]
    Start {
        /// The engine's name.
        name: String,
        /// Why.
        error: std::io::Error,
    },
    /// The engine's process ended.
    #[error("{name} exited ({status})")]
    Exited {
        /// The engine's name.
        name: String,
        /// How it ended.
        status: String,
    },
    /// The engine did not answer in time.
    #[error("{name} did not answer {what} in time")]
    Timeout {
        /// The engine's name.
        name: String,
        /// What it was asked.
        what: String,
    },
    /// The engine answered with a move that is not legal, or no move.
    #[error("{name} played {what}")]
    BadMove {
        /// The engine's name.
        name: String,
        /// The move as it sent it.
        what: String,
    },
    /// The engine was killed by its [`KillSwitch`] (Knightfall is leaving).
    #[error("{name} was stopped: Knightfall is leaving")]
    Killed {
        /// The engine's name.
        name: String,
    },
}

/// A running external engine.
pub struct External {
    spec: EngineSpec,
    child: Child,
    /// The engine's process group (its pid), or 0 if the pid does not fit.
    group: i32,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name the engine gave in `id name`.
    id_name: Option<String>,
    switch: KillSwitch,
    /// Whether it owes an answer (to the handshake, `isready` or `go`): such an engine is
    /// killed at once when dropped, as one that does not answer would ignore `quit` as well.
    busy: bool,
    /// When it was asked to `quit`, if it was.
    quit_sent: Option<Instant>,
    /// The lines it was last asked to search at once (UCI `MultiPV`).
    multipv: u32,
}

impl External {
    /// Starts the engine, runs the UCI handshake and sets its options. The engine is killed
    /// when the thread that starts it ends (its parent-death signal follows that thread), so
    /// start it on a thread that outlives it.
    pub fn start(spec: &EngineSpec) -> Result<External, ExternalError> {
        External::start_under(spec, &KillSwitch::default())
    }

    /// Starts the engine as [`External::start`] does, to be killed when `switch` is thrown.
    pub fn start_under(spec: &EngineSpec, switch: &KillSwitch) -> Result<External, ExternalError> {
        let words = shell_words::split(&spec.command)
            .map_err(|_| ExternalError::BadCommand(spec.command.clone()))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| ExternalError::BadCommand(spec.command.clone()))?;
        if switch.is_thrown() {
            return Err(ExternalError::Killed {
                name: spec.name.clone(),
            });
        }
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            // A group of its own: whatever it starts goes with it when it is killed, and the
            // terminal's Ctrl-C is Knightfall's to handle.
            .process_group(0);
        die_with_parent(&mut command);
        let mut child = command.spawn().map_err(|error| ExternalError::Start {
            name: spec.name.clone(),
            error,
        })?;
        let group = i32::try_from(child.id()).unwrap_or(0);
        switch.set_busy(group, true);
        let Some((stdin, stdout)) = child.stdin.take().zip(child.stdout.take()) else {
            // Both were piped above, so this cannot be; the child goes all the same.
            switch.forget(group);
            kill_group(group);
            let _ = child.kill();
            let _ = child.wait();
            return Err(ExternalError::Start {
                name: spec.name.clone(),
                error: std::io::Error::other("no pipes to the engine"),
            });
        };
        let (tx, lines) = bounded(LINES_AHEAD);
        // Owned from here on: any failure below drops it, which kills the process.
        let mut engine = External {
            spec: spec.clone(),
            child,
            group,
            stdin,
            lines,
            id_name: None,
            switch: switch.clone(),
            busy: true,
            quit_sent: None,
            multipv: 1,
        };
        thread::Builder::new()
            .name("external-engine".into())
            .spawn(move || {
                let mut input = BufReader::new(stdout);
                let mut line = Vec::new();
                loop {
                    match read_line(&mut input, &mut line, MAX_LINE_BYTES) {
                        Ok(Line::Read) => {
                            let text = String::from_utf8_lossy(&line).into_owned();
                            if tx.send(text).is_err() {
                                break;
                            }
                        }
                        Ok(Line::TooLong) => {}
                        Ok(Line::End) | Err(_) => break,
                    }
                }
            })
            .map_err(|error| ExternalError::Start {
                name: spec.name.clone(),
                error,
            })?;
        engine.send("uci")?;
        for line in engine.read_until("uciok", "uci")? {
            if let Some(name) = line.strip_prefix("id name ") {
                engine.id_name = Some(name.trim().to_string());
            }
        }
        for (name, value) in spec.options.clone() {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready()?;
        engine.set_busy(false);
        Ok(engine)
    }

    /// The spec it was started from.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The name the engine gives itself, if it did.
    pub(crate) fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Tells the engine a new game starts.
    pub(crate) fn new_game(&mut self) -> Result<(), ExternalError> {
        self.set_busy(true);
        self.send("ucinewgame")?;
        self.ready()?;
        self.set_busy(false);
        Ok(())
    }

    /// Asks the engine to `quit`, without waiting: its drop waits for it (briefly), so that
    /// several engines asked first are waited for together.
    pub fn ask_to_quit(&mut self) {
        if self.quit_sent.is_none() && !self.busy {
            let _ = writeln!(self.stdin, "quit");
            let _ = self.stdin.flush();
            self.quit_sent = Some(Instant::now());
        }
    }

    fn set_busy(&mut self, busy: bool) {
        self.busy = busy;
        self.switch.set_busy(self.group, busy);
    }

    /// Asks for a move in `pos`, reached by `moves` from `start` (the start position's FEN, or
    /// `None` for the standard one), within `limits`, reporting its `info` lines through
    /// `on_info`. A stop request in `control` is passed on; the move it then sends is returned.
    pub fn go(
        &mut self,
        start: Option<&str>,
        moves: &[Move],
        pos: &Chess,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Move, ExternalError> {
        let mut line = match start {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            line.push_str(" moves");
            for m in moves {
                line.push(' ');
                line.push_str(&m.to_uci(CastlingMode::Standard).to_string());
            }
        }
        // The analysis board asks for several lines; a game for one. Lines past those asked
        // for (an engine configured with a MultiPV of its own) are not passed on.
        let lines = limits.multipv.max(1);
        if lines != self.multipv {
            self.send(&format!("setoption name MultiPV value {lines}"))?;
            self.multipv = lines;
        }
        self.set_busy(true);
        self.send(&line)?;
        self.send(&go_line(limits))?;
        let started = Instant::now();
        // The whole clock it was given for this move: past it the move can only lose on time.
        let clock = pos
            .turn()
            .fold_wb(limits.wtime, limits.btime)
            .map(Duration::from_millis);
        let movetime = limits
            .movetime
            .map(|ms| Duration::from_millis(ms) + MOVETIME_GRACE);
        let mut stop_sent: Option<Instant> = None;
        // A report whose score is only a bound is held back: Stockfish's last report when
        // stopped is one, with its first move for a line. It is passed on only when no exact
        // report came before the move.
        let mut held: Option<Info> = None;
        let mut exact = false;
        loop {
            if self.switch.is_thrown() {
                return Err(self.killed());
            }
            let elapsed = started.elapsed();
            let stop_asked = control.stop.load(Ordering::Relaxed);
            // A move after the clock ran out is never played: the engine that is that late,
            // whether the game has flagged it already (and so stops it) or not, is not waited
            // for, or a hung engine would hold up the next game, or leaving.
            if clock.is_some_and(|c| {
                elapsed >= c + CLOCK_GRACE || stop_asked && stop_sent.is_none() && elapsed >= c
            }) {
                return Err(self.timeout("with a move"));
            }
            let wants_stop = stop_asked || movetime.is_some_and(|d| elapsed >= d);
            if wants_stop && stop_sent.is_none() {
                self.send("stop")?;
                stop_sent = Some(Instant::now());
            }
            if stop_sent.is_some_and(|t| t.elapsed() >= STOP_GRACE) {
                return Err(self.timeout("stop with a move"));
            }
            let line = match self.lines.recv_timeout(POLL) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            };
            if let Some(rest) = line.strip_prefix("bestmove") {
                self.set_busy(false);
                if !exact && let Some(info) = held.take() {
                    on_info(&info);
                }
                let text = rest.split_whitespace().next().unwrap_or("");
                return text
                    .parse::<UciMove>()
                    .ok()
                    .and_then(|u| u.to_move(pos).ok())
                    .ok_or_else(|| {
                        let what = if text.is_empty() || text == "0000" {
                            "no move".to_string()
                        } else {
                            format!("the illegal move {text}")
                        };
                        self.bad_move(&what)
                    });
            }
            if let Some(info) = uci_info::read(&line, pos)
                && info.multipv <= lines
            {
                if uci_info::is_bound(&line) {
                    held = Some(info);
                } else {
                    exact = true;
                    on_info(&info);
                }
            }
        }
    }

    fn ready(&mut self) -> Result<(), ExternalError> {
        self.send("isready")?;
        self.read_until("readyok", "isready").map(|_| ())
    }

    fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|_| self.exited())
    }

    /// Reads lines until one is `token`; returns the lines before it.
    fn read_until(&mut self, token: &str, what: &str) -> Result<Vec<String>, ExternalError> {
        let end = Instant::now() + HANDSHAKE;
        let mut seen = Vec::new();
        loop {
            if self.switch.is_thrown() {
                return Err(self.killed());
            }
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timeout(what));
            }
            match self.lines.recv_timeout(left.min(POLL)) {
                Ok(line) if line.trim() == token => return Ok(seen),
                // Only what names the engine is kept; the rest of a chatty handshake is not.
                Ok(line) if line.starts_with("id ") && seen.len() < 16 => seen.push(line),
                Ok(_) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    fn name(&self) -> String {
        self.spec.name.clone()
    }

    fn exited(&mut self) -> ExternalError {
        if self.switch.is_thrown() {
            // It ended because it was killed, which says more than its status; and leaving
            // waits for nothing.
            return self.killed();
        }
        // Give a dying process a moment to be reaped, so the status says how it ended.
        let mut status = None;
        for _ in 0..50 {
            if let Some(s) = self.try_reap() {
                status = Some(s);
                break;
            }
            thread::sleep(POLL);
        }
        ExternalError::Exited {
            name: self.name(),
            status: status.map_or("stopped answering".to_string(), |s| s.to_string()),
        }
    }

    /// The engine's exit status if it has ended (reaping it, and so forgetting its group).
    fn try_reap(&mut self) -> Option<std::process::ExitStatus> {
        // Under the switch's lock, so a throw never kills the group of a pid reaped and reused.
        let mut switch = self.switch.lock();
        let status = self.child.try_wait().ok().flatten();
        if status.is_some() {
            switch.groups.retain(|&(g, _)| g != self.group);
        }
        status
    }

    fn killed(&self) -> ExternalError {
        ExternalError::Killed { name: self.name() }
    }

    fn timeout(&self, what: &str) -> ExternalError {
        ExternalError::Timeout {
            name: self.name(),
            what: what.to_string(),
        }
    }

    fn bad_move(&self, what: &str) -> ExternalError {
        ExternalError::BadMove {
            name: self.name(),
            what: what.to_string(),
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        // An idle engine is asked to leave, as the protocol has it, and given a moment (to
        // write what it keeps, say). One that owes an answer ignored `stop` or hangs, and
        // would ignore `quit` too: it is killed at once.
        if !self.busy {
            self.ask_to_quit();
            if let Some(asked) = self.quit_sent {
                let end = asked + QUIT_GRACE;
                while Instant::now() < end && self.try_reap().is_none() {
                    thread::sleep(POLL);
                }
            }
        }
        // Whatever is left of it (the engine, or what it started in its process group) goes:
        // nothing it started outlives the game.
        self.switch.forget(self.group);
        kill_group(self.group);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `go` command for `limits`.
fn go_line(limits: &Limits) -> String {
    let mut line = "go".to_string();
    let fields = [
        ("wtime", limits.wtime),
        ("btime", limits.btime),
        ("winc", limits.winc),
        ("binc", limits.binc),
        ("movestogo", limits.movestogo.map(u64::from)),
        ("depth", limits.depth.map(u64::from)),
        ("nodes", limits.nodes),
        ("movetime", limits.movetime),
    ];
    for (word, value) in fields {
        if let Some(v) = value {
            line.push_str(&format!(" {word} {v}"));
        }
    }
    if line == "go" {
        line.push_str(" infinite");
    }
    line
}
