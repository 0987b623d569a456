//! Terminal setup and teardown: raw mode, the alternate screen and mouse capture on the way in;
//! everything back on the way out, on quit, Ctrl-C, SIGTERM, SIGHUP and panic.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

static RESTORED: AtomicBool = AtomicBool::new(true);

/// Puts the terminal back: raw mode off, main screen, cursor and mouse as they were.
pub fn restore_terminal() {
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

pub fn setup_terminal() -> Result<Terminal<CrosstermBackend<io::Stdout>>> {
    let previous = std::panic::take_hook();
    let screen_thread = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        // Only a panic on the thread that draws the screen ends the program, so only that one
        // gives the terminal back. Search threads (the game's, Lazy SMP helpers, analysis and
        // review workers) catch theirs or end alone, and the screen reports it; printing the
        // message over the running screen would garble it.
        if std::thread::current().id() != screen_thread {
            return;
        }
        restore_terminal();
        previous(info);
    }));
    enable_raw_mode().context("the terminal game needs a terminal (raw mode failed)")?;
    RESTORED.store(false, Ordering::SeqCst);
    // From here on a failure must give the terminal back before it is reported.
    let entered = (|| -> Result<Terminal<CrosstermBackend<io::Stdout>>> {
        let mut out = io::stdout();
        execute!(out, EnterAlternateScreen, EnableMouseCapture)?;
        Ok(Terminal::new(CrosstermBackend::new(out))?)
    })();
    if entered.is_err() {
        restore_terminal();
    }
    entered
}
