//! The phase of the game a position is in, as lichess's divider counts it in spirit: the
//! opening lasts while most pieces are on the board and the game is young, the endgame begins
//! when six or fewer queens, rooks, bishops and knights are left.

use shakmaty::{Chess, Position, Role};

/// A phase of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// The first moves, most pieces still on.
    Opening,
    /// Between them.
    Middlegame,
    /// Six or fewer pieces besides kings and pawns.
    Endgame,
}

/// Pieces other than kings and pawns at or under which a position is an endgame.
const ENDGAME_PIECES: usize = 6;
/// Pieces other than kings and pawns over which a young game is still in its opening.
const OPENING_PIECES: usize = 10;
/// Plies after which the opening is over whatever is on the board.
const OPENING_PLIES: usize = 30;

impl Phase {
    /// The phase of `pos`, reached after `ply` moves by either side.
    pub fn of(pos: &Chess, ply: usize) -> Phase {
        let board = pos.board();
        let pieces = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| board.by_role(r).count())
            .sum::<usize>();
        if pieces <= ENDGAME_PIECES {
            Phase::Endgame
        } else if pieces > OPENING_PIECES && ply < OPENING_PLIES {
            Phase::Opening
        } else {
            Phase::Middlegame
        }
    }

    /// Its name in words, as the library keeps it.
    pub fn word(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        }
    }

    /// The phase named `word`.
    pub fn from_word(word: &str) -> Option<Phase> {
        [Phase::Opening, Phase::Middlegame, Phase::Endgame]
            .into_iter()
            .find(|p| p.word() == word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::position;

    #[test]
    fn the_start_is_the_opening_and_few_pieces_an_endgame() {
        assert_eq!(Phase::of(&Chess::default(), 0), Phase::Opening);
        assert_eq!(Phase::of(&Chess::default(), 40), Phase::Middlegame);
        let rooks = position("r3k3/pppp4/8/8/8/8/PPPP4/R3K2R w - - 0 30").unwrap();
        assert_eq!(Phase::of(&rooks, 60), Phase::Endgame);
    }
}
