//! The common commands, run the same way for every screen: each screen lends the parts they
//! touch through [`Screen`].

use super::command::Common;
use super::help::Help;
use super::theme;
use crate::theme::Theme;
use crate::tui::screen::{Effect, Tone};

/// What the common commands need of a screen.
pub(crate) trait Screen {
    /// The help overlay.
    fn help(&mut self) -> &mut Help;
    /// Puts `text` on the message line.
    fn say(&mut self, text: String, tone: Tone);
    /// The board's colour theme now.
    fn theme(&self) -> Theme;
    /// Whether the board is seen turned around; `None` on a screen without a board (it has
    /// no flip row either).
    fn flipped(&mut self) -> Option<&mut bool>;
    /// What the screen keeps and stops before it goes (its lines saved, its search stopped).
    fn leaving(&mut self, fx: &mut Vec<Effect>);
    /// How `back` goes: closing the screen, or leaving Knightfall from a screen with nothing
    /// the player wants below it.
    fn back(&self) -> Effect {
        Effect::Close
    }
}

/// A screen without a board, as the common commands see it: every such screen lends the
/// same parts, so they are lent once, here.
pub(crate) trait Boardless {
    /// The help overlay and the message line.
    fn chrome(&mut self) -> (&mut Help, &mut Option<(String, Tone)>);
    /// The board's colour theme now, which the theme command changes for the screens below.
    fn board_theme(&self) -> Theme;
    /// Whether it was opened from another screen (back closes it) rather than on its own
    /// (back leaves Knightfall).
    fn opened(&self) -> bool;
}

impl<T: Boardless> Screen for T {
    fn help(&mut self) -> &mut Help {
        self.chrome().0
    }

    fn say(&mut self, text: String, tone: Tone) {
        *self.chrome().1 = Some((text, tone));
    }

    fn theme(&self) -> Theme {
        self.board_theme()
    }

    fn flipped(&mut self) -> Option<&mut bool> {
        None
    }

    fn leaving(&mut self, _fx: &mut Vec<Effect>) {}

    fn back(&self) -> Effect {
        if self.opened() {
            Effect::Close
        } else {
            Effect::Quit
        }
    }
}

/// Runs the common command `command` (with the argument typed after its word) for `screen`.
pub(crate) fn run(
    screen: &mut impl Screen,
    command: Common,
    arg: Option<&str>,
    fx: &mut Vec<Effect>,
) {
    match command {
        Common::Help => screen.help().open(),
        Common::Back => {
            screen.leaving(fx);
            fx.push(screen.back());
        }
        Common::Exit => {
            screen.leaving(fx);
            fx.push(Effect::Quit);
        }
        Common::Flip => {
            if let Some(flipped) = screen.flipped() {
                *flipped = !*flipped;
            }
        }
        Common::Theme => {
            let (text, tone) = theme::change(screen.theme(), arg, fx);
            screen.say(text, tone);
        }
    }
}
