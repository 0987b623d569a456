//! The plain-text mode (`--text`): the same game as a conversation, for players who listen
//! to a screen reader and for blindfold play. The game runs in the same runner as on the
//! screen; instead of frames, what changed after each event is said once as a line of plain
//! words ([`narrator`]), with no colour, box, cursor movement or escape sequence, and a line
//! typed is a question answered at once ([`ask`]) or is typed into the game as on the screen.

pub(crate) mod words;
pub(crate) mod ask;
pub(crate) mod narrator;

use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::Result;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::event::{self, Event};
use super::runner::{Runner, Step};
use narrator::Narrator;

/// Serves `runner`'s game in plain text, started by `start`, until the player leaves (or
/// standard input ends), then says what the screens had to say on the way out.
pub(crate) fn show(
    runner: &mut Runner,
    start: impl FnOnce(&mut Runner, Instant) -> bool,
) -> Result<()> {
    event::route_signals_to(runner.sender());
    let lines = runner.sender();
    // Ends with standard input: the game ends as if the player quit.
    std::thread::Builder::new()
        .name("knightfall-lines".into())
        .spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if lines.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            let _ = lines.send(Event::Terminate);
        })?;
    let quit = start(runner, Instant::now());
    let Some(app) = runner.game() else {
        return Ok(());
    };
    let (mut narrator, opening) = Narrator::new(app);
    say(&opening);
    if !quit {
        say(&narrator.after(app));
        while let Some(ev) = runner.next_event() {
            let step = match ev {
                Some(Event::Line(line)) => typed(runner, &line),
                other => runner.step(other, Instant::now()),
            };
            if let Some(app) = runner.game() {
                say(&narrator.after(app));
            }
            if step == Step::Quit {
                break;
            }
        }
    }
    say(&runner.farewell());
    Ok(())
}

/// A line the player typed: a question is answered here; anything else goes to the game as
/// typed on its input line (a single character as its key, so y and n answer a question).
fn typed(runner: &mut Runner, line: &str) -> Step {
    if let Some(answer) = runner.game().and_then(|app| ask::answer(line, app)) {
        say(&answer);
        return Step::Continue;
    }
    let key = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    let line = line.trim();
    let mut chars = line.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return runner.step(Some(key(KeyCode::Char(c))), Instant::now());
    }
    runner.type_line(line);
    runner.step(Some(key(KeyCode::Enter)), Instant::now())
}

/// Writes `lines`, one each; a closed output is no error (the player is gone).
fn say(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}
