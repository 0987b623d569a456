//! The plain-text mode (`--text`): the same program as a conversation, for players who listen
//! to a screen reader and for blindfold play. The screens run in the same runner as on the
//! terminal; instead of frames, what changed after each event on the screen in front is said
//! once as lines of plain words (the game's [`narrator`], and a teller for the review, the
//! training, the new-game choices and the analysis board), with no colour, box, cursor
//! movement or escape sequence; a line typed is a question answered at once ([`ask`]), a word
//! of the screen in front, or is typed into its input line as on the terminal.

pub(crate) mod words;
pub(crate) mod ask;
pub(crate) mod narrator;
mod review;
mod train;
mod setup;
mod board;
mod library;

use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::Result;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::chrome::keys::{Binding, KeyHelp};
use super::event::{self, Event};
use super::runner::{Front, Runner, Step};
use narrator::Narrator;

/// Serves `runner`'s screens in plain text, started by `start`, until the player leaves (or
/// standard input ends), then says what the screens had to say on the way out.
pub(crate) fn show(
    runner: &mut Runner,
    start: impl FnOnce(&mut Runner, Instant) -> bool,
) -> Result<()> {
    event::route_signals_to(runner.sender());
    let lines = runner.sender();
    // Ends with standard input: the screens end as if the player quit.
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
    let mut tellers = Tellers::default();
    say(&tellers.after(runner));
    if !quit {
        while let Some(ev) = runner.next_event() {
            let step = match ev {
                Some(Event::Line(line)) => typed(runner, &mut tellers, &line),
                other => runner.step(other, Instant::now()),
            };
            say(&tellers.after(runner));
            if step == Step::Quit {
                break;
            }
        }
    }
    say(&runner.farewell());
    Ok(())
}

/// Which screen is in front: its place in the stack and its kind.
type Place = (usize, &'static str);

fn kind(front: &Front) -> &'static str {
    match front {
        Front::Game(_) => "game",
        Front::Setup(_) => "new game",
        Front::Board(_) => "analysis board",
        Front::Review(_) => "review",
        Front::Train(_) => "training",
        Front::Home(_) => "home",
        Front::Settings(_) => "settings",
        Front::Stats(_) => "statistics",
        Front::Library(_) => "library",
        Front::Friend(_) => "friend",
    }
}

/// What was said of each screen, so nothing is said twice.
#[derive(Default)]
struct Tellers {
    /// The screen said last.
    front: Option<Place>,
    game: Option<Narrator>,
    review: review::Teller,
    train: train::Teller,
    setup: setup::Teller,
    board: board::Teller,
    library: library::Teller,
}

impl Tellers {
    /// Forgets the last message said of each screen.
    fn forget_message(&mut self) {
        if let Some(narrator) = &mut self.game {
            narrator.forget_message();
        }
        self.review.forget_message();
        self.train.forget_message();
        self.board.forget_message();
        self.library.forget_message();
    }

    /// What to say of the screen in front as it is now; a screen that comes to the front is
    /// said from its start.
    fn after(&mut self, runner: &Runner) -> Vec<String> {
        let Some((front, depth)) = runner.front() else {
            return Vec::new();
        };
        let place = (depth, kind(front));
        let arrived = self.front != Some(place);
        if arrived {
            self.front = Some(place);
            self.review = review::Teller::default();
            self.train = train::Teller::default();
            self.setup = setup::Teller::default();
            self.board = board::Teller::default();
            self.library = library::Teller::default();
        }
        let lines = self.of_front(front, arrived, place.1);
        // The screens' messages name their Ctrl keys: here the words that do the same.
        let table = |line: &String| match front {
            Front::Game(_) => spoken(crate::tui::app::GAME_KEYS, line),
            Front::Train(_) => spoken(crate::tui::train::TRAIN_KEYS, line),
            Front::Board(_) => spoken(crate::tui::board::BOARD_KEYS, line),
            Front::Review(_) => spoken(crate::tui::review::REVIEW_KEYS, line),
            _ => line.clone(),
        };
        lines.iter().map(|l| words::plain(&table(l))).collect()
    }

    /// What to say of `front`, which has just come to the front when `arrived`.
    fn of_front(&mut self, front: &Front, arrived: bool, kind: &str) -> Vec<String> {
        match front {
            Front::Game(app) => {
                if let Some(narrator) = self.game.as_mut()
                    && narrator.same_game(app)
                {
                    let mut lines = Vec::new();
                    if arrived {
                        narrator.again();
                        lines.push("Back to the game.".to_string());
                    }
                    lines.extend(narrator.after(app));
                    return lines;
                }
                let (mut narrator, mut lines) = Narrator::new(app);
                lines.extend(narrator.after(app));
                self.game = Some(narrator);
                lines
            }
            Front::Review(screen) => self.review.after(screen),
            Front::Train(screen) => self.train.after(screen),
            Front::Setup(screen) => self.setup.after(screen),
            Front::Board(screen) => self.board.after(screen),
            Front::Library(screen) => self.library.after(screen),
            Front::Home(_) | Front::Settings(_) | Front::Stats(_) | Front::Friend(_) => {
                if arrived {
                    vec![format!(
                        "The {kind} screen has no plain-text form; q goes back."
                    )]
                } else {
                    Vec::new()
                }
            }
        }
    }
}

/// A line the player typed: a question is answered here; a word of the screen in front is
/// its keys; anything else goes to the screen's input line as typed (a single character as
/// its key, so y and n answer a question).
fn typed(runner: &mut Runner, tellers: &mut Tellers, line: &str) -> Step {
    let line = line.trim();
    let lower = line.to_ascii_lowercase();
    if let Some(answer) = answer(runner, &lower) {
        say(&answer.iter().map(|l| words::plain(l)).collect::<Vec<_>>());
        return Step::Continue;
    }
    // What the screen answers is said, even in the same words as its last message.
    runner.forget_message();
    tellers.forget_message();
    if let Some(Front::Library(screen)) = runner.front_mut()
        && let Some(words) = library::narrowed(&lower)
    {
        screen.typing = false;
        screen.set_filter(words);
        return Step::Continue;
    }
    let keys = match runner.front() {
        Some((Front::Review(screen), _)) => review::keys(screen, &lower).map(|k| k.map(plains)),
        Some((Front::Train(screen), _)) => train::keys(screen, &lower).map(|k| Ok(plains(k))),
        Some((Front::Board(_), _)) => board::keys(&lower).map(|k| Ok(plains(k))),
        Some((Front::Library(screen), _)) => library::keys(screen, &lower).map(|k| k.map(plains)),
        Some((Front::Setup(screen), _)) => tellers.setup.keys(screen, &lower),
        _ => None,
    };
    match keys {
        Some(Ok(keys)) => return press(runner, keys),
        Some(Err(said)) => {
            say(&said);
            return Step::Continue;
        }
        None => {}
    }
    let mut chars = line.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return press(runner, vec![plain(KeyCode::Char(c))]);
    }
    // The game's word for the analysis board is a question here ("board"): said otherwise.
    let line = match (runner.front(), lower.as_str()) {
        (Some((Front::Game(_), _)), "analysis" | "analyse" | "analyze") => "board",
        // On a training board q goes to the list; quit, said there, means leave.
        (Some((Front::Train(t), _)), "quit") if t.on_board() && !t.from_game => "exit",
        _ => line,
    };
    if runner.type_line(line) {
        return press(runner, vec![plain(KeyCode::Enter)]);
    }
    if let Some(key) = named_key(&lower) {
        return press(runner, vec![key]);
    }
    match screen_word(runner, &lower) {
        Some(key) => press(runner, vec![key]),
        None => {
            say(&[format!(
                "{line}: not a word of this screen. Type help for what you can say."
            )]);
            Step::Continue
        }
    }
}

/// The answer to a question about the screen in front, or its help; `None` when `line` asks
/// nothing.
fn answer(runner: &Runner, line: &str) -> Option<Vec<String>> {
    let (front, _) = runner.front()?;
    let board_game = |game: &crate::game::Game, ply: usize| ask::Seen {
        pos: game.position_at(ply).clone(),
        game: Some((game.clone(), ply)),
        app: None,
    };
    let seen = match front {
        Front::Game(app) => Some(ask::Seen {
            pos: app.game.position().clone(),
            game: Some((app.game.clone(), app.game.ply())),
            app: Some(app),
        }),
        Front::Review(screen) => screen
            .review
            .as_ref()
            .filter(|_| screen.view == crate::tui::review::View::Review)
            .map(|r| board_game(&r.game, screen.ply)),
        Front::Train(screen) => screen.board_game().map(|g| board_game(g, g.ply())),
        Front::Board(screen) => Some(board_game(&screen.game, screen.game.ply())),
        _ => None,
    };
    if line == "help" {
        return Some(help(front, seen.is_some()));
    }
    match front {
        Front::Review(screen) if line == "summary" => {
            return Some(review::verdict(screen)).filter(|lines| !lines.is_empty());
        }
        Front::Review(screen)
            if line == "list" && screen.view == crate::tui::review::View::Pick =>
        {
            return Some(review::list(screen));
        }
        Front::Board(screen) if line == "lines" => return Some(board::lines(screen)),
        Front::Library(screen) if line == "list" => return Some(library::list(screen)),
        _ => {}
    }
    ask::answer(line, &seen?)
}

/// What `help` says on `front`: the plain text's words there, then the screen's own.
fn help(front: &Front, questions: bool) -> Vec<String> {
    let own: &[&str] = match front {
        Front::Game(_) => return ask::HELP.iter().map(|s| (*s).to_string()).collect(),
        Front::Review(_) => review::HELP,
        Front::Train(_) => train::HELP,
        Front::Setup(_) => setup::HELP,
        Front::Board(_) => board::HELP,
        Front::Library(_) => library::HELP,
        _ => &["q goes back."],
    };
    let mut lines: Vec<String> = own.iter().map(|s| (*s).to_string()).collect();
    if questions {
        lines.push(ask::QUESTIONS.to_string());
    }
    lines
}

/// The key a row of the front screen's table gives for `word`, among the rows that apply.
fn screen_word(runner: &Runner, word: &str) -> Option<KeyEvent> {
    fn find<C: Copy>(
        table: &[KeyHelp<C>],
        applies: impl Fn(super::chrome::keys::When) -> bool,
        word: &str,
    ) -> Option<KeyEvent> {
        table
            .iter()
            .filter(|row| !row.word.is_empty() && row.word == word && applies(row.when))
            .find_map(|row| row.keys.iter().next().map(|(b, _)| key_of(b)))
    }
    use crate::tui::{friend, home, library, review, settings, stats};
    match runner.front()?.0 {
        Front::Review(s) => find(review::REVIEW_KEYS, |w| s.keys_apply(w), word),
        Front::Setup(s) => find(crate::tui::setup::SETUP_KEYS, |w| s.keys_apply(w), word),
        Front::Home(s) => find(home::HOME_KEYS, |w| s.keys_apply(w), word),
        Front::Settings(s) => find(settings::SETTINGS_KEYS, |w| s.keys_apply(w), word),
        Front::Stats(s) => find(stats::STATS_KEYS, |w| s.keys_apply(w), word),
        Front::Library(s) => find(library::LIBRARY_KEYS, |w| s.keys_apply(w), word),
        Front::Friend(s) => find(friend::FRIEND_KEYS, |w| s.keys_apply(w), word),
        // Their words are typed on their input lines.
        Front::Game(_) | Front::Train(_) | Front::Board(_) => None,
    }
}

/// `line` with the Ctrl keys of `table` that have a word named by the word ("Ctrl-N: the
/// next" is "next: the next").
fn spoken<C>(table: &[KeyHelp<C>], line: &str) -> String {
    let mut out = line.to_string();
    for row in table.iter().filter(|r| !r.word.is_empty()) {
        for key in row.shown.split(' ').filter(|k| k.starts_with("Ctrl-")) {
            out = out.replace(key, row.word);
            // Messages write a Ctrl key short too: ^G.
            out = out.replace(&key.replacen("Ctrl-", "^", 1), row.word);
        }
    }
    out
}

fn key_of(b: Binding) -> KeyEvent {
    let modifiers = if b.ctrl {
        KeyModifiers::CONTROL
    } else {
        KeyModifiers::NONE
    };
    KeyEvent::new(b.code, modifiers)
}

fn plains(codes: Vec<KeyCode>) -> Vec<KeyEvent> {
    codes.into_iter().map(plain).collect()
}

fn plain(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// A key said by its name: enter, escape, the arrows, home, end, page up and down, tab.
fn named_key(word: &str) -> Option<KeyEvent> {
    Some(plain(match word {
        "enter" | "return" => KeyCode::Enter,
        "esc" | "escape" => KeyCode::Esc,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "pgup" | "page up" => KeyCode::PageUp,
        "pgdn" | "page down" => KeyCode::PageDown,
        "tab" => KeyCode::Tab,
        _ => return None,
    }))
}

/// Presses `keys` on the screen in front, one after another, until one leaves.
fn press(runner: &mut Runner, keys: impl IntoIterator<Item = KeyEvent>) -> Step {
    for key in keys {
        if runner.step(Some(Event::Key(key)), Instant::now()) == Step::Quit {
            return Step::Quit;
        }
    }
    Step::Continue
}

/// Writes `lines`, one each; a closed output is no error (the player is gone).
fn say(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}
