//! The help overlay: the keys that work now, over the screen until a key closes it.

use crossterm::event::KeyEvent;

use super::keys;

/// Whether the help overlay is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Help {
    /// Shown over the screen.
    pub shown: bool,
}

impl Help {
    /// Shows the overlay.
    pub fn open(&mut self) {
        self.shown = true;
    }

    /// Whether the overlay takes `key`: while it is shown any key closes it and does nothing
    /// else, but the keys that leave Knightfall, which leave from anywhere.
    pub fn takes(&mut self, key: &KeyEvent) -> bool {
        if self.shown && !keys::is_exit(key) {
            self.shown = false;
            return true;
        }
        false
    }
}
