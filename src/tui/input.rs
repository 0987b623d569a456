//! The input line and the board under the mouse, as every screen with a board uses them: keys
//! that edit the line, the piece a typed square selects, its targets, and what a click means.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Chess, Move, Position, Rank, Role, Square};

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
    /// A move in UCI, complete.
    Move(String),
    /// A pawn's move to the last rank: the input line holds it, from and to, while the player
    /// picks the piece (on the board or by typing its letter).
    Promote(String),
    /// Anything else: clear the selection.
    Clear,
}

/// The meaning of a click on `sq` in `game`'s position with `line` on the input line.
pub(crate) fn click(game: &Game, line: &str, sq: Square) -> Click {
    if let Some(choices) = promotion_choices(game, line) {
        // The picker is open: a click on one of its pieces finishes the move, any other
        // click puts it away.
        return match choices.iter().find(|(at, _)| *at == sq) {
            Some((_, role)) => Click::Move(format!("{}{}", line.trim(), role.char())),
            None => Click::Clear,
        };
    }
    let pos = game.position();
    let own = pos
        .board()
        .piece_at(sq)
        .is_some_and(|p| p.color == pos.turn());
    match selected(line, pos) {
        Some(from) if !own => {
            let text = format!("{from}{sq}");
            match game.parse_move(&text) {
                Err(MoveError::PromotionMissing(_)) => Click::Promote(text),
                _ => Click::Move(text),
            }
        }
        _ if own => Click::Select(sq),
        _ => Click::Clear,
    }
}

/// What a click did to the input line, for the screen to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Taken {
    /// It finished a move: play this (UCI); the line is cleared.
    Play(String),
    /// It opened the promotion picker: say [`PROMOTE_ASKED`].
    AskPromotion,
    /// It selected or cleared a piece: nothing more to do.
    Done,
}

/// Applies a click on `sq` to the input `line` of a screen showing `game` (select a piece,
/// clear it, open the promotion picker) and says what is left for the screen to do. Every
/// screen with a board takes clicks through here.
pub(crate) fn take_click(game: &Game, line: &mut String, sq: Square) -> Taken {
    match click(game, line, sq) {
        Click::Move(text) => {
            line.clear();
            Taken::Play(text)
        }
        Click::Select(sq) => {
            *line = sq.to_string();
            Taken::Done
        }
        Click::Promote(text) => {
            *line = text;
            Taken::AskPromotion
        }
        Click::Clear => {
            line.clear();
            Taken::Done
        }
    }
}

/// What the picker says while it is open.
pub(crate) const PROMOTE_ASKED: &str =
    "Promote to which piece? Click it on the board, or type q, r, b or n and Enter.";

/// The pieces a pawn may become, as the picker shows them: on the promotion square and the
/// three squares behind it on its file (queen first), when `line` holds a pawn's move to the
/// last rank without its piece.
pub(crate) fn promotion_choices(game: &Game, line: &str) -> Option<[(Square, Role); 4]> {
    let text = line.trim();
    if text.len() != 4 {
        return None;
    }
    if !matches!(game.parse_move(text), Err(MoveError::PromotionMissing(_))) {
        return None;
    }
    let to: Square = text.get(2..4)?.parse().ok()?;
    let back: i32 = if to.rank() == Rank::Eighth { -1 } else { 1 };
    let at = |i: i32| {
        let rank = u32::try_from(i32::from(to.rank() as u8) + back * i).ok()?;
        Some(Square::from_coords(to.file(), Rank::try_from(rank).ok()?))
    };
    Some([
        (at(0)?, Role::Queen),
        (at(1)?, Role::Rook),
        (at(2)?, Role::Bishop),
        (at(3)?, Role::Knight),
    ])
}
