//! Key tables: each screen declares its keys once, row by row (the keys and the command each
//! gives, the typed word, the footer label, the help text, and when the row applies). The
//! screen finds every key it handles in its table, and the footer, the help overlay and
//! `docs/KEYS.md` are all made from the same rows.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::command::{Command, Common};

/// A key: its code, with Ctrl held or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The key.
    pub code: KeyCode,
    /// With Ctrl held.
    pub ctrl: bool,
}

/// A plain key.
pub const fn key(code: KeyCode) -> Binding {
    Binding { code, ctrl: false }
}

/// A key with Ctrl.
pub const fn ctrl(c: char) -> Binding {
    Binding {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

impl Binding {
    /// Whether `event` is this key. Letters with Ctrl arrive in either case (Shift, Caps
    /// Lock), so they match in either.
    pub fn matches(&self, event: &KeyEvent) -> bool {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        self.ctrl == ctrl
            && match (self.code, event.code) {
                (KeyCode::Char(a), KeyCode::Char(c)) if ctrl => a.eq_ignore_ascii_case(&c),
                (a, c) => a == c,
            }
    }
}

/// The keys of a row and the command each gives.
#[derive(Clone, Copy, Debug)]
pub enum Keys<C: 'static> {
    /// No key: a word typed on the input line, or the mouse.
    None,
    /// These keys, all giving this command.
    All(&'static [Binding], C),
    /// Each key with its own command (a move back and a move on, say).
    Each(&'static [(Binding, C)]),
}

impl<C: Copy> Keys<C> {
    /// Every key with the command it gives.
    pub fn iter(&self) -> impl Iterator<Item = (Binding, C)> + '_ {
        let all = match self {
            Keys::All(keys, command) => Some((*keys, *command)),
            Keys::None | Keys::Each(_) => None,
        };
        let each: &[(Binding, C)] = match self {
            Keys::Each(pairs) => pairs,
            Keys::None | Keys::All(..) => &[],
        };
        all.into_iter()
            .flat_map(|(keys, command)| keys.iter().map(move |&b| (b, command)))
            .chain(each.iter().copied())
    }
}

/// When a row applies: the screen says which of these hold now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// A game in progress with a person playing.
    Playing,
    /// A game in progress between engines, watched.
    Watching,
    /// A game in progress, played or watched.
    InGame,
    /// The game is over.
    Over,
    /// A question waits for y or n.
    Asking,
    /// A screen opened from another one (q goes back).
    Opened,
    /// A screen started on its own (q leaves).
    Alone,
    /// Choosing a game from a list.
    Choosing,
    /// Reviewing a game.
    Reviewing,
    /// An item the row removes is chosen (an engine on the settings screen).
    Removable,
    /// The game may be looked into on another screen (the analysis board): not while a person
    /// plays the engine on the clock. Its key is still taken otherwise, to say why not.
    Analysable,
    /// A game against a friend at another Knightfall, going on.
    Friend,
    /// A game going on with a person and an engine in it (not against a friend).
    Engine,
    /// Waiting for the friend to join, or for the host to answer.
    Waiting,
    /// The input the screen takes Esc and Enter for: a clock typed on the new-game screen;
    /// training's input line on a board, or on the list while something is typed.
    Typing,
}

/// One row of a key table, its commands of type `C`.
#[derive(Clone, Copy, Debug)]
pub struct KeyHelp<C: 'static> {
    /// The keys that do it, and what each does.
    pub keys: Keys<C>,
    /// The keys as the help and `docs/KEYS.md` write them.
    pub shown: &'static str,
    /// The typed word that does the same, if any (`""`: none).
    pub word: &'static str,
    /// The footer's short label (`""`: not in the footer).
    pub label: &'static str,
    /// The help text.
    pub help: &'static str,
    /// When it applies.
    pub when: When,
}

// The shared rows' keys, as constants: a generic row below can refer to a constant but not
// build its keys with calls.
const HELP_KEYS: &[Binding] = &[key(KeyCode::Char('?')), key(KeyCode::F(1))];
const FLIP_KEYS: &[Binding] = &[ctrl('f')];
const THEME_KEYS: &[Binding] = &[ctrl('k')];
const EXIT_KEYS: &[Binding] = &[ctrl('q'), ctrl('c')];
const FEN_KEYS: &[Binding] = &[ctrl('e')];
const BACK_KEYS: &[Binding] = &[key(KeyCode::Esc), key(KeyCode::Char('q'))];

/// The help row every screen has.
pub const fn help<S>() -> KeyHelp<Command<S>> {
    KeyHelp {
        keys: Keys::All(HELP_KEYS, Command::Common(Common::Help)),
        shown: "? F1",
        word: "help",
        label: "? help",
        help: "this help",
        when: When::Always,
    }
}

/// The row that turns the board around, on screens with Ctrl keys free.
pub const fn flip<S>() -> KeyHelp<Command<S>> {
    KeyHelp {
        keys: Keys::All(FLIP_KEYS, Command::Common(Common::Flip)),
        shown: "Ctrl-F",
        word: "flip",
        label: "^F flip",
        help: "turn the board around",
        when: When::Always,
    }
}

/// The row that steps through the board's colour themes, on screens with Ctrl keys free.
pub const fn theme<S>() -> KeyHelp<Command<S>> {
    KeyHelp {
        keys: Keys::All(THEME_KEYS, Command::Common(Common::Theme)),
        shown: "Ctrl-K",
        word: "theme",
        label: "",
        help: "board colours: the next theme (or theme NAME)",
        when: When::Always,
    }
}

/// A row of Esc and q going back: to the screen below when `when` is [`When::Opened`], out of
/// Knightfall when it is [`When::Alone`]; with its typed `word` (or `""`), footer `label` and
/// `help`.
pub const fn back<S>(
    word: &'static str,
    label: &'static str,
    help: &'static str,
    when: When,
) -> KeyHelp<Command<S>> {
    KeyHelp {
        keys: Keys::All(BACK_KEYS, Command::Common(Common::Back)),
        shown: "Esc q",
        word,
        label,
        help,
        when,
    }
}

/// The row that leaves Knightfall from a screen whose q only closes it.
pub const fn exit<S>() -> KeyHelp<Command<S>> {
    KeyHelp {
        keys: Keys::All(EXIT_KEYS, Command::Common(Common::Exit)),
        shown: "Ctrl-Q Ctrl-C",
        word: "exit",
        label: "",
        help: "leave Knightfall",
        when: When::Always,
    }
}

/// The row that shows the position's FEN, giving the screen's own `command`.
pub const fn fen<C>(command: C, when: When) -> KeyHelp<C> {
    KeyHelp {
        keys: Keys::All(FEN_KEYS, command),
        shown: "Ctrl-E",
        word: "fen",
        label: "",
        help: "show the position's FEN",
        when,
    }
}

/// Whether a row for `when` applies on a screen that is opened from another one (`from_game`)
/// or started on its own, as far as that decides it: `Always`, `Opened` and `Alone`.
pub(crate) fn opened_or_alone(when: When, from_game: bool) -> bool {
    match when {
        When::Always => true,
        When::Opened => from_game,
        When::Alone => !from_game,
        _ => false,
    }
}

/// Whether `key` is Ctrl-C or Ctrl-Q, which leave from anywhere (even over the help).
pub(crate) fn is_exit(key: &KeyEvent) -> bool {
    EXIT_KEYS.iter().any(|b| b.matches(key))
}

/// The command `key` gives on a screen with an input line holding `typed`: a plain letter is
/// a command only while nothing is typed (otherwise it is being typed), Ctrl keys and the
/// other keys always are.
pub(crate) fn command<C: Copy>(
    table: &[KeyHelp<C>],
    key: &KeyEvent,
    typed: &str,
    applies: impl Fn(When) -> bool,
) -> Option<C> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let plain_char = !ctrl && matches!(key.code, KeyCode::Char(_));
    if plain_char && !typed.is_empty() {
        return None;
    }
    lookup(table, key, applies)
}

/// The command `key` gives in `table` on a screen where text is being typed (`typing`): a
/// plain character is then typed, never a command, even the line's first.
pub(crate) fn while_typing<C: Copy>(
    table: &[KeyHelp<C>],
    key: &KeyEvent,
    typing: bool,
    applies: impl Fn(When) -> bool,
) -> Option<C> {
    let plain_char =
        !key.modifiers.contains(KeyModifiers::CONTROL) && matches!(key.code, KeyCode::Char(_));
    if typing && plain_char {
        return None;
    }
    lookup(table, key, applies)
}

/// The command `key` gives in `table`: the first row that `applies` accepts and has the key.
pub(crate) fn lookup<C: Copy>(
    table: &[KeyHelp<C>],
    key: &KeyEvent,
    applies: impl Fn(When) -> bool,
) -> Option<C> {
    table
        .iter()
        .filter(|row| applies(row.when))
        .find_map(|row| {
            row.keys
                .iter()
                .find_map(|(b, command)| b.matches(key).then_some(command))
        })
}

/// Whether a row that `applies` accepts gives `command`, by one of its keys or by its word
/// (which `parse` reads).
pub(crate) fn offered<C: Copy + PartialEq>(
    table: &[KeyHelp<C>],
    command: C,
    applies: impl Fn(When) -> bool,
    parse: impl Fn(&str) -> Option<C>,
) -> bool {
    table.iter().filter(|row| applies(row.when)).any(|row| {
        row.keys.iter().any(|(_, c)| c == command)
            || (!row.word.is_empty() && parse(row.word) == Some(command))
    })
}

/// The footer: the labels of the rows that apply, in table order, but the answers to a
/// question first (they are what the player needs now).
pub(crate) fn footer<C>(table: &[KeyHelp<C>], applies: impl Fn(When) -> bool) -> String {
    let shown = |row: &&KeyHelp<C>| !row.label.is_empty() && applies(row.when);
    let asking = table
        .iter()
        .filter(shown)
        .filter(|r| r.when == When::Asking);
    let rest = table
        .iter()
        .filter(shown)
        .filter(|r| r.when != When::Asking);
    asking
        .chain(rest)
        .map(|row| row.label)
        .collect::<Vec<_>>()
        .join("  ")
}

/// The help overlay's heading over the texts: where it starts is where a wrapped text goes on.
pub(crate) const WHAT_IT_DOES: &str = "What it does";

/// The help overlay's lines: a heading, then keys, word and text of every row that applies
/// now, aligned (`docs/KEYS.md` lists them all). `typed`: the screen has an input line, so
/// the words can be typed too.
pub(crate) fn help_lines<C>(
    table: &[KeyHelp<C>],
    typed: bool,
    applies: impl Fn(When) -> bool,
) -> Vec<String> {
    let rows = table
        .iter()
        .filter(|r| applies(r.when))
        .map(|r| (r.shown, if typed { r.word } else { "" }, r.help));
    let heading = if typed {
        ("Key", "Command", WHAT_IT_DOES)
    } else {
        ("Key", "", WHAT_IT_DOES)
    };
    let all: Vec<(&str, &str, &str)> = std::iter::once(heading).chain(rows).collect();
    aligned(&all)
}

/// Three columns, each as wide as its widest cell.
fn aligned(rows: &[(&str, &str, &str)]) -> Vec<String> {
    let keys_w = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let word_w = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    rows.iter()
        .map(|(keys, word, help)| {
            let line = if word_w == 0 {
                format!("{keys:keys_w$}  {help}")
            } else {
                format!("{keys:keys_w$}  {word:word_w$}  {help}")
            };
            line.trim_end().to_string()
        })
        .collect()
}

/// The table as Markdown, as `docs/KEYS.md` shows it (`typed`: with the words typed on the
/// input line).
pub fn markdown<C>(table: &[KeyHelp<C>], typed: bool) -> String {
    let mut out = if typed {
        String::from("| Key | Command | What it does |\n|---|---|---|\n")
    } else {
        String::from("| Key | What it does |\n|---|---|\n")
    };
    for r in table {
        if !typed {
            out.push_str(&format!("| `{}` | {} |\n", r.shown, r.help));
            continue;
        }
        let cell = |s: &str| {
            if s.is_empty() {
                String::new()
            } else {
                format!("`{}`", s.replace('|', "\\|"))
            }
        };
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            cell(r.shown),
            cell(r.word),
            r.help.replace('|', "\\|")
        ));
    }
    out
}
