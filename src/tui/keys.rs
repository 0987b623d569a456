//! Key tables: each screen declares its keys once (the keys, the typed word, the footer label,
//! the help text, and when they apply). The screen's key handling looks its keys up here, and
//! the footer, the help overlay and the README's key table are all made from the same rows.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// One key a row answers to.
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
}

/// One row of a key table.
#[derive(Clone, Copy, Debug)]
pub struct KeyHelp {
    /// The keys that do it (empty: a typed word only).
    pub keys: &'static [Binding],
    /// The keys as the help and the README write them.
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

/// The help row every screen has.
pub(crate) const HELP: KeyHelp = KeyHelp {
    keys: &[key(KeyCode::Char('?')), key(KeyCode::F(1))],
    shown: "? F1",
    word: "help",
    label: "? help",
    help: "this help",
    when: When::Always,
};

/// The row that turns the board around, on screens with Ctrl keys free.
pub(crate) const FLIP: KeyHelp = KeyHelp {
    keys: &[ctrl('f')],
    shown: "Ctrl-F",
    word: "flip",
    label: "^F flip",
    help: "turn the board around",
    when: When::Always,
};

/// The row that steps through the board's colour themes, on screens with Ctrl keys free.
pub(crate) const THEME: KeyHelp = KeyHelp {
    keys: &[ctrl('k')],
    shown: "Ctrl-K",
    word: "theme",
    label: "",
    help: "board colours: the next theme (or theme NAME)",
    when: When::Always,
};

/// The theme a `theme` command asks for: the next one after `current`, or the one `arg`
/// names.
pub(crate) fn theme_after(
    current: crate::theme::Theme,
    arg: Option<&str>,
) -> Result<crate::theme::Theme, String> {
    match arg.map(str::trim).filter(|a| !a.is_empty()) {
        None => Ok(current.next()),
        Some(name) => name.parse(),
    }
}

/// What the player reads once the theme changed.
pub(crate) fn theme_said(theme: crate::theme::Theme) -> String {
    format!("Board colours: {}, kept for next time.", theme.describe())
}

/// The row that leaves Knightfall from a screen whose q only closes it.
pub const EXIT: KeyHelp = KeyHelp {
    keys: &[ctrl('q'), ctrl('c')],
    shown: "Ctrl-Q Ctrl-C",
    word: "exit",
    label: "",
    help: "leave Knightfall",
    when: When::Always,
};

/// The row that shows the position's FEN.
pub const FEN: KeyHelp = KeyHelp {
    keys: &[ctrl('e')],
    shown: "Ctrl-E",
    word: "fen",
    label: "",
    help: "show the position's FEN",
    when: When::Always,
};

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
    lookup(std::slice::from_ref(&EXIT), key, |_| true).is_some()
}

/// The row of `table` that `key` stands for on a screen with an input line holding `typed`: a
/// plain letter is a command only while nothing is typed (otherwise it is being typed), Ctrl
/// keys and the other keys always are.
pub(crate) fn command_row(
    table: &'static [KeyHelp],
    key: &KeyEvent,
    typed: &str,
    applies: impl Fn(When) -> bool,
) -> Option<&'static KeyHelp> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let plain_char = !ctrl && matches!(key.code, KeyCode::Char(_));
    if plain_char && !typed.is_empty() {
        return None;
    }
    lookup(table, key, applies)
}

/// The row of `table` that `key` stands for, among the rows `applies` accepts.
pub(crate) fn lookup(
    table: &'static [KeyHelp],
    key: &KeyEvent,
    applies: impl Fn(When) -> bool,
) -> Option<&'static KeyHelp> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    table.iter().find(|row| {
        applies(row.when)
            && row.keys.iter().any(|b| {
                b.ctrl == ctrl
                    && match (b.code, key.code) {
                        // Letters with Ctrl arrive in either case (Shift, Caps Lock).
                        (KeyCode::Char(a), KeyCode::Char(c)) if ctrl => a.eq_ignore_ascii_case(&c),
                        (a, c) => a == c,
                    }
            })
    })
}

/// The footer: the labels of the rows that apply, in table order, but the answers to a
/// question first (they are what the player needs now).
pub(crate) fn footer(table: &[KeyHelp], applies: impl Fn(When) -> bool) -> String {
    let shown = |row: &&KeyHelp| !row.label.is_empty() && applies(row.when);
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

/// The help overlay's lines: a heading, then keys, word and text of every row that applies
/// now, aligned (the README lists them all). `typed`: the screen has an input line, so the
/// words can be typed too.
pub(crate) fn help_lines(
    table: &[KeyHelp],
    typed: bool,
    applies: impl Fn(When) -> bool,
) -> Vec<String> {
    let rows = table
        .iter()
        .filter(|r| applies(r.when))
        .map(|r| (r.shown, if typed { r.word } else { "" }, r.help));
    let heading = if typed {
        ("Key", "Command", "What it does")
    } else {
        ("Key", "", "What it does")
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

/// The table as Markdown, as the README shows it (`typed`: with the words typed on the input
/// line).
pub fn markdown(table: &[KeyHelp], typed: bool) -> String {
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
