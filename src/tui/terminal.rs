//! The terminal, set up once and always given back: [`Guard`] turns on raw mode, the alternate
//! screen and mouse capture, and restores all of it when dropped, on quit, Ctrl-C, SIGTERM,
//! SIGHUP and on panic. The panic hook is installed once for the whole process: it restores the
//! terminal when the screen's thread panics, and logs a panic on any thread to a file in the data
//! folder, so a search that dies is never silent.

use std::io::{self, Write};
use std::mem::ManuallyDrop;
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::{Context, Result};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// The terminal the screens draw on.
pub(crate) type Term = Terminal<CrosstermBackend<io::Stdout>>;

static RESTORED: AtomicBool = AtomicBool::new(true);
static HOOK: Once = Once::new();
/// Panics on threads other than the screen's while the screen was up (searches report theirs
/// as events; this says at the end that the log has more).
static OTHER_PANICS: AtomicUsize = AtomicUsize::new(0);

/// Where panics are logged.
fn log_file() -> PathBuf {
    crate::store::Paths::get().log()
}

/// Puts the terminal back: raw mode off, main screen, cursor and mouse as they were.
pub(crate) fn restore_terminal() {
    if RESTORED.swap(true, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// Gives the terminal back while Knightfall is stopped (Ctrl-Z from a shell, `kill -TSTP`);
/// `resume` takes it again. Nothing happens when the screens are not up.
pub(crate) fn suspend() -> bool {
    if RESTORED.load(Ordering::SeqCst) {
        return false;
    }
    restore_terminal();
    true
}

/// Takes the terminal again after `suspend` (the process was continued): raw mode, the
/// alternate screen and the mouse, as `Guard::new` set them up.
pub(crate) fn resume() {
    if enable_raw_mode().is_err() {
        return;
    }
    RESTORED.store(false, Ordering::SeqCst);
    let _ = execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture);
}

/// Appends a panic's thread, place and message to the log file.
fn log_panic(info: &std::panic::PanicHookInfo) {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("unnamed");
    let line = format!(
        "{} panic on thread '{name}': {info}\n",
        crate::game::timestamp()
    );
    let file = log_file();
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
    {
        let _ = f.write_all(line.as_bytes());
    }
}

/// Installs the panic hook, once for the process. A panic on the thread that draws the screen
/// ends the program: the terminal comes back first and the message is printed on it. A panic
/// on any other thread (a search caught by the service, an engine's helper) is only logged,
/// since printing over the running screen would garble it; the screen shows the failure.
fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        let screen_thread = std::thread::current().id();
        std::panic::set_hook(Box::new(move |info| {
            log_panic(info);
            if std::thread::current().id() != screen_thread {
                OTHER_PANICS.fetch_add(1, Ordering::SeqCst);
                return;
            }
            restore_terminal();
            previous(info);
            let _ = writeln!(
                io::stderr(),
                "knightfall: logged in {}",
                log_file().display()
            );
        }));
    });
}

/// The terminal in the screens' mode for as long as the guard lives.
pub(crate) struct Guard {
    terminal: ManuallyDrop<Term>,
}

impl Guard {
    /// Sets the terminal up for the screens (and the panic hook, the first time).
    pub(crate) fn new() -> Result<Guard> {
        install_panic_hook();
        OTHER_PANICS.store(0, Ordering::SeqCst);
        enable_raw_mode().context("the terminal game needs a terminal (raw mode failed)")?;
        RESTORED.store(false, Ordering::SeqCst);
        // From here on a failure must give the terminal back before it is reported.
        let entered = (|| -> Result<Term> {
            let mut out = io::stdout();
            execute!(out, EnterAlternateScreen, EnableMouseCapture)?;
            Ok(Terminal::new(CrosstermBackend::new(out))?)
        })();
        match entered {
            Ok(terminal) => Ok(Guard {
                terminal: ManuallyDrop::new(terminal),
            }),
            Err(e) => {
                restore_terminal();
                Err(e)
            }
        }
    }

    /// The terminal to draw on.
    pub(crate) fn terminal(&mut self) -> &mut Term {
        &mut self.terminal
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let shown = self.terminal.show_cursor().is_ok();
        restore_terminal();
        if shown {
            // SAFETY: the terminal is dropped once, here, and never used again.
            unsafe { ManuallyDrop::drop(&mut self.terminal) };
        }
        // Otherwise the terminal is gone (SIGHUP): ratatui's own clean-up would try the cursor
        // again and report the failure on a closed stderr, which panics. Nothing else is held.
        let others = OTHER_PANICS.swap(0, Ordering::SeqCst);
        if others > 0 {
            let _ = writeln!(
                io::stderr(),
                "knightfall: {others} search thread panic{} logged in {}",
                if others == 1 { " was" } else { "s were" },
                log_file().display()
            );
        }
    }
}
