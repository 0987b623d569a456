//! The board's colour theme as a command changes it: the next one or the one named, with what
//! the player reads after.

use crate::theme::Theme;
use crate::tui::screen::{Effect, Tone};

/// The theme a `theme` command asks for: the next one after `current`, or the one `arg`
/// names.
pub(crate) fn after(current: Theme, arg: Option<&str>) -> Result<Theme, String> {
    match arg.map(str::trim).filter(|a| !a.is_empty()) {
        None => Ok(current.next()),
        Some(name) => name.parse(),
    }
}

/// What the player reads once the theme changed.
pub(crate) fn said(theme: Theme) -> String {
    format!("Board colours: {}, kept for next time.", theme.describe())
}

/// Changes the theme from `current` as `theme [NAME]` asks: the effect that draws every
/// screen in it (and keeps it) goes into `fx`; returns what the player reads.
pub(crate) fn change(current: Theme, arg: Option<&str>, fx: &mut Vec<Effect>) -> (String, Tone) {
    match after(current, arg) {
        Ok(theme) => {
            fx.push(Effect::Theme(theme));
            (said(theme), Tone::Info)
        }
        Err(e) => (e, Tone::Error),
    }
}
