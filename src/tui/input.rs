//! The input line and the board under the mouse, as every screen with a board uses them: keys
//! that edit the line, the piece a typed square selects, its targets, and what a click means.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Chess, Move, Position, Square};

use crate::game::{Game, MoveError};

/// The longest input line, in characters: room for a file path after `save`.
pub(crate) const MAX_INPUT: usize = 240;

/// Applies `key` to the input line if it edits it (a character, Backspace); returns whether it
/// did.
pub(crate) fn edit(line: &mut String, key: &KeyEvent) -> bool {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return false;
    }
    match key.code {
        KeyCode::Char(c) if !c.is_control() => {
            if line.chars().count() < MAX_INPUT {
                line.push(c);
            }
            true
        }
        KeyCode::Backspace => {
            line.pop();
            true
        }
        _ => false,
    }
}

/// The square typed on the input line when it holds one of the mover's pieces.
pub(crate) fn selected(line: &str, pos: &Chess) -> Option<Square> {
    let sq: Square = line.trim().parse().ok()?;
    pos.board()
        .piece_at(sq)
        .filter(|p| p.color == pos.turn())
        .map(|_| sq)
}

/// Where the piece on `from` may go (castling as the king's two-square step).
pub(crate) fn targets(pos: &Chess, from: Square) -> Vec<Square> {
    pos.legal_moves()
        .iter()
        .filter(|m| m.from() == Some(from))
        .map(target)
        .collect()
}

/// Where `m` takes its piece on the board (castling: the king's two-square step).
pub(crate) fn target(m: &Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                shakmaty::File::G
            } else {
                shakmaty::File::C
            };
            Square::from_coords(file, king.rank())
        }
        _ => m.to(),
    }
}

/// What a click on `sq` means, given what the input line holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Click {
    /// One of the mover's pieces: select it (the input line becomes its square).
    Select(Square),
    /// A move from the selected piece, in UCI (a promotion to a queen unless typed otherwise).
    Move(String),
    /// Anything else: clear the selection.
    Clear,
}

/// The meaning of a click on `sq` in `game`'s position with `line` on the input line.
pub(crate) fn click(game: &Game, line: &str, sq: Square) -> Click {
    let pos = game.position();
    let own = pos
        .board()
        .piece_at(sq)
        .is_some_and(|p| p.color == pos.turn());
    match selected(line, pos) {
        Some(from) if !own => {
            let mut text = format!("{from}{sq}");
            if let Err(MoveError::PromotionMissing(_)) = game.parse_move(&text) {
                text.push('q');
            }
            Click::Move(text)
        }
        _ if own => Click::Select(sq),
        _ => Click::Clear,
    }
}
