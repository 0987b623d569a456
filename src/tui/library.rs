//! The library screen: every game of the library (the games folder's finished games and those
//! imported), newest first, each with its players, result, opening, clock and how far its
//! review is; narrowed by words typed after `/`, held and filtered in memory, so ten thousand
//! games scroll and narrow at once. Enter opens the chosen game's review; the review of every
//! game not reviewed yet runs in the background from here, its progress shown.

use std::cell::Cell;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::chrome::command::{Command, Common};
use super::chrome::help::Help;
use super::chrome::keys::{self, KeyHelp, Keys, When, key};
use super::chrome::run::{self, Boardless};
use super::job::{BulkReport, EngineEvent};
use super::screen::{Action, Effect, Open, Palette, Tone};
use crate::store::library::Entry;

/// The library screen's own commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibraryCommand {
    /// The game above.
    Up,
    /// The game below.
    Down,
    /// A page up.
    PageUp,
    /// A page down.
    PageDown,
    /// The first game shown (the newest).
    First,
    /// The last game shown.
    Last,
    /// Review the game chosen.
    Open,
    /// Type words to narrow the list.
    Filter,
    /// Clear the words typed and stop typing.
    Clear,
    /// Start the review of every game not reviewed yet, or stop it.
    ReviewAll,
    /// The games folder's files.
    Files,
    /// The player's statistics.
    Stats,
}

const fn own(command: LibraryCommand) -> Command<LibraryCommand> {
    Command::Own(command)
}

/// The library screen's keys. While words are typed, a letter is a word's and Esc clears
/// them; the arrows and Enter work all the same.
pub const LIBRARY_KEYS: &[KeyHelp<Command<LibraryCommand>>] = &[
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Up), own(LibraryCommand::Up)),
            (key(KeyCode::Down), own(LibraryCommand::Down)),
        ]),
        shown: "↑ ↓",
        word: "",
        label: "↑↓ choose",
        help: "the game above or below",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::Char('k')), own(LibraryCommand::Up)),
            (key(KeyCode::Char('j')), own(LibraryCommand::Down)),
        ]),
        shown: "k j",
        word: "",
        label: "",
        help: "the game above or below, when no words are being typed",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::Each(&[
            (key(KeyCode::PageUp), own(LibraryCommand::PageUp)),
            (key(KeyCode::PageDown), own(LibraryCommand::PageDown)),
            (key(KeyCode::Home), own(LibraryCommand::First)),
            (key(KeyCode::End), own(LibraryCommand::Last)),
        ]),
        shown: "PgUp PgDn Home End",
        word: "",
        label: "",
        help: "a page up or down, the newest game, the oldest",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Enter)], own(LibraryCommand::Open)),
        shown: "Enter",
        word: "",
        label: "Enter review",
        help: "review the chosen game (what the library knows of it at once, the rest searched)",
        when: When::Always,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('/'))], own(LibraryCommand::Filter)),
        shown: "/",
        word: "",
        label: "/ filter",
        help: "type words to narrow the list: a player, the opening, the result, the year, the \
               clock (every word must match)",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Esc)], own(LibraryCommand::Clear)),
        shown: "Esc",
        word: "",
        label: "Esc clear",
        help: "while typing, or while the list is narrowed: clear the words, the whole library \
               again (before Esc goes back)",
        when: When::Typing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('A'))], own(LibraryCommand::ReviewAll)),
        shown: "A",
        word: "",
        label: "A review all",
        help: "review every game not reviewed yet, newest first, in the background at the \
               lowest priority, paused while you play (again: stop it)",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('f'))], own(LibraryCommand::Files)),
        shown: "f",
        word: "",
        label: "f files",
        help: "the games folder's files, the analysis board's lines and games watched too",
        when: When::Choosing,
    },
    KeyHelp {
        keys: Keys::All(&[key(KeyCode::Char('s'))], own(LibraryCommand::Stats)),
        shown: "s",
        word: "",
        label: "s stats",
        help: "your statistics: accuracy over time, results, openings, mistakes, best and worst \
               games",
        when: When::Choosing,
    },
    // Not while typing: `?` is then a character of the words.
    KeyHelp {
        keys: Keys::All(
            &[key(KeyCode::Char('?')), key(KeyCode::F(1))],
            Command::Common(Common::Help),
        ),
        shown: "? F1",
        word: "",
        label: "? help",
        help: "this help",
        when: When::Choosing,
    },
    keys::back(
        "",
        "Esc back",
        "back to the screen it was opened from",
        When::Opened,
    ),
    keys::back(
        "",
        "q quit",
        "started on its own (knightfall review, knightfall games): leave",
        When::Alone,
    ),
    keys::exit(),
];

/// A game of the list with the text its words are matched in.
#[derive(Clone, Debug)]
pub struct Row {
    /// The game as the library lists it.
    pub entry: Entry,
    /// Its players, result, date, clock and opening, in lower case.
    words: String,
}

impl Row {
    fn of(entry: Entry) -> Row {
        let e = &entry;
        let words = format!(
            "{} {} {} {} {} {}",
            e.white, e.black, e.result, e.date, e.time_control, e.opening
        )
        .to_lowercase();
        Row { entry, words }
    }

    /// Whether every one of `words` (in lower case) is in the game's text.
    fn matches(&self, words: &[String]) -> bool {
        words.iter().all(|w| self.words.contains(w.as_str()))
    }
}

/// The longest filter typed.
const MAX_TYPED: usize = 200;

/// The library screen's state.
#[derive(Clone, Debug)]
pub struct LibraryScreen {
    /// Every game, newest first.
    pub rows: Vec<Row>,
    /// The places in `rows` of the games the words match, in order.
    pub shown: Vec<usize>,
    /// The words typed.
    pub filter: String,
    /// Whether keys type words.
    pub typing: bool,
    /// The game chosen: its place in `shown`.
    pub selected: usize,
    /// The first game drawn: its place in `shown` (kept by the drawing, so the list scrolls
    /// only when the choice leaves it).
    pub top: Cell<usize>,
    /// The games drawn at once, as last drawn (a page).
    pub page: Cell<usize>,
    /// Opened from another screen (Esc goes back) rather than on its own (q leaves).
    pub from_game: bool,
    /// How the review of every game goes, when it was started.
    pub bulk: Option<BulkReport>,
    /// What to say of an empty library.
    pub empty: String,
    /// The help overlay.
    pub help: Help,
    /// The message line.
    pub message: Option<(String, Tone)>,
    /// Colours and glyphs.
    pub palette: Palette,
}

impl LibraryScreen {
    /// The screen over `entries` (newest first).
    pub fn new(entries: Vec<Entry>, from_game: bool, palette: Palette) -> LibraryScreen {
        let rows: Vec<Row> = entries.into_iter().map(Row::of).collect();
        LibraryScreen {
            shown: (0..rows.len()).collect(),
            rows,
            filter: String::new(),
            typing: false,
            selected: 0,
            top: Cell::new(0),
            page: Cell::new(10),
            from_game,
            bulk: None,
            empty: String::new(),
            help: Help::default(),
            message: None,
            palette,
        }
    }

    /// The game chosen, if any is shown.
    pub fn chosen(&self) -> Option<&Entry> {
        Some(&self.rows[*self.shown.get(self.selected)?].entry)
    }

    /// Which rows of [`LIBRARY_KEYS`] apply now.
    pub fn keys_apply(&self, when: When) -> bool {
        match when {
            // Esc clears a narrowed list before it leaves: words typed are not lost to a key
            // pressed once too often.
            When::Typing => self.typing || !self.filter.is_empty(),
            When::Choosing => !self.typing,
            When::Opened | When::Alone => {
                !self.typing && keys::opened_or_alone(when, self.from_game)
            }
            _ => keys::opened_or_alone(when, self.from_game),
        }
    }

    /// The command `key` gives now; `None` for a letter while typing: it is typed.
    pub fn command_for(&self, key: &KeyEvent) -> Option<Command<LibraryCommand>> {
        keys::while_typing(LIBRARY_KEYS, key, self.typing, |w| self.keys_apply(w))
    }

    /// Applies one action and returns what the runner must do.
    pub fn update(&mut self, action: Action, _now: Instant) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(key) if self.help.takes(&key) => {}
            Action::Key(key) => match self.command_for(&key) {
                Some(Command::Common(common)) => run::run(self, common, None, &mut fx),
                Some(Command::Own(own)) => {
                    self.message = None;
                    self.command(own, &mut fx);
                }
                None => self.type_key(&key),
            },
            Action::Engine(EngineEvent::Bulk(report)) => {
                if let Some((id, status)) = report.progress.game {
                    self.kept(id, status);
                }
                self.bulk = Some(*report);
            }
            Action::Kept(id, status) => self.kept(id, status),
            Action::Note(text, tone) => self.message = Some((text, tone)),
            _ => {}
        }
        fx
    }

    /// Game `id`'s review as the library now keeps it.
    fn kept(&mut self, id: i64, status: crate::store::library::reviews::Status) {
        if let Some(row) = self.rows.iter_mut().find(|r| r.entry.id == id) {
            row.entry.review = Some(status);
        }
    }

    fn command(&mut self, command: LibraryCommand, fx: &mut Vec<Effect>) {
        let last = self.shown.len().saturating_sub(1);
        let page = self.page.get().max(1);
        match command {
            LibraryCommand::Up => self.selected = self.selected.saturating_sub(1),
            LibraryCommand::Down => self.selected = (self.selected + 1).min(last),
            LibraryCommand::PageUp => self.selected = self.selected.saturating_sub(page),
            LibraryCommand::PageDown => self.selected = (self.selected + page).min(last),
            LibraryCommand::First => self.selected = 0,
            LibraryCommand::Last => self.selected = last,
            LibraryCommand::Open => {
                self.typing = false;
                match self.chosen() {
                    Some(entry) => fx.push(Effect::Open(Box::new(Open::Kept { id: entry.id }))),
                    None => self.message = Some(("No game to review.".into(), Tone::Info)),
                }
            }
            LibraryCommand::Filter => self.typing = true,
            LibraryCommand::Clear => {
                self.typing = false;
                self.set_filter(String::new());
            }
            LibraryCommand::ReviewAll => {
                let running = self.bulk.as_ref().is_some_and(|b| b.running);
                fx.push(Effect::ReviewAll(!running));
            }
            LibraryCommand::Files => fx.push(Effect::Open(Box::new(Open::Files))),
            LibraryCommand::Stats => fx.push(Effect::Open(Box::new(Open::Stats))),
        }
    }

    /// A key typed into the words: a character, or Backspace.
    fn type_key(&mut self, key: &KeyEvent) {
        if !self.typing || key.modifiers.contains(KeyModifiers::CONTROL) {
            return;
        }
        let mut filter = self.filter.clone();
        match key.code {
            KeyCode::Char(c) if filter.chars().count() < MAX_TYPED => filter.push(c),
            KeyCode::Backspace => {
                filter.pop();
            }
            _ => return,
        }
        self.set_filter(filter);
    }

    /// Narrows the list to the games `filter`'s words match, the game chosen kept when it is
    /// still shown.
    pub fn set_filter(&mut self, filter: String) {
        let chosen = self.shown.get(self.selected).copied();
        let words: Vec<String> = filter.split_whitespace().map(str::to_lowercase).collect();
        // A word added narrows what is shown already; anything else looks at every game.
        let narrower = filter.starts_with(self.filter.as_str());
        let from: Vec<usize> = if narrower {
            std::mem::take(&mut self.shown)
        } else {
            (0..self.rows.len()).collect()
        };
        self.shown = from
            .into_iter()
            .filter(|&i| self.rows[i].matches(&words))
            .collect();
        self.filter = filter;
        self.selected = chosen
            .and_then(|c| self.shown.iter().position(|&i| i == c))
            .unwrap_or(0);
    }
}

/// The library screen, as the common commands see it: no board; alone, going back leaves.
impl Boardless for LibraryScreen {
    fn chrome(&mut self) -> (&mut Help, &mut Option<(String, Tone)>) {
        (&mut self.help, &mut self.message)
    }

    fn board_theme(&self) -> crate::theme::Theme {
        self.palette.theme
    }

    fn opened(&self) -> bool {
        self.from_game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: i64, white: &str, black: &str, date: &str, tc: &str, opening: &str) -> Entry {
        Entry {
            id,
            white: white.into(),
            black: black.into(),
            result: "1-0".into(),
            date: date.into(),
            time_control: tc.into(),
            site: String::new(),
            opening: opening.into(),
            plies: 40,
            review: None,
        }
    }

    fn shown(screen: &LibraryScreen) -> Vec<i64> {
        screen
            .shown
            .iter()
            .map(|&i| screen.rows[i].entry.id)
            .collect()
    }

    #[test]
    fn every_word_must_match_somewhere_and_a_word_taken_back_widens_the_list() {
        let mut screen = LibraryScreen::new(
            vec![
                entry(
                    1,
                    "Anna",
                    "bob",
                    "2024.03.01",
                    "180+2",
                    "C20 King's Pawn Game",
                ),
                entry(
                    2,
                    "carl",
                    "anna",
                    "2023.05.01",
                    "600+0",
                    "B20 Sicilian Defense",
                ),
                entry(
                    3,
                    "carl",
                    "dora",
                    "2024.01.09",
                    "180+2",
                    "B20 Sicilian Defense",
                ),
            ],
            false,
            Palette::default(),
        );
        let typed = |screen: &mut LibraryScreen, text: &str| {
            screen.set_filter(text.to_string());
            shown(screen)
        };
        assert_eq!(
            typed(&mut screen, "anna"),
            vec![1, 2],
            "in either colour, any case"
        );
        assert_eq!(typed(&mut screen, "anna sicilian"), vec![2]);
        assert_eq!(typed(&mut screen, "anna sicilian 2024"), Vec::<i64>::new());
        assert_eq!(typed(&mut screen, "anna sicilian"), vec![2]);
        assert_eq!(typed(&mut screen, "2024 180+2"), vec![1, 3]);
        assert_eq!(typed(&mut screen, ""), vec![1, 2, 3]);
        // The game chosen stays chosen while it is shown.
        screen.selected = 2;
        assert_eq!(typed(&mut screen, "carl"), vec![2, 3]);
        assert_eq!(screen.chosen().map(|e| e.id), Some(3));
    }
}
