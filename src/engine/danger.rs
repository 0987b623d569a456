//! Whether the side to move's king is under enough fire that the search's shortcuts for a
//! position well above beta (reverse futility, the null move) cannot be trusted.
//!
//! Both shortcuts assume that a side far ahead can afford a static margin or a free move. A
//! side just given a piece or a queen for an attack is far ahead on the board, and a quiet
//! threat to its king (a rook lift, a mate on the back rank) is exactly what a reduced search
//! after a pass does not see. Counting the attackers of the king's squares is cheap, and where
//! they add up the node is searched move by move instead.

use shakmaty::{Chess, Piece, Position, Role, attacks};

/// Attack units (queen 4, rook 2, bishop or knight 1) on the king and the squares around it
/// from which the shortcuts are off. Measured on WAC at 400,000 and 800,000 nodes, 3 and 4
/// solved the most; 4 searches fewer nodes.
const UNDER_FIRE: u32 = 4;

/// The attack units of the opponent's queens, rooks, bishops and knights that reach the side
/// to move's king or a square next to it (pieces behind others count only through the gap).
pub(crate) fn attack_units(pos: &Chess) -> u32 {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return 0;
    };
    let zone = attacks::king_attacks(king).with(king);
    let occupied = board.occupied();
    let mut units = 0;
    for square in board.by_color(!us) & !(board.pawns() | board.kings()) {
        let Some(role) = board.role_at(square) else {
            continue;
        };
        let piece = Piece { color: !us, role };
        if (attacks::attacks(square, piece, occupied) & zone).any() {
            units += match role {
                Role::Queen => 4,
                Role::Rook => 2,
                _ => 1,
            };
        }
    }
    units
}

/// True when the side to move's king is attacked by at least [`UNDER_FIRE`] units.
#[inline]
pub(crate) fn under_fire(pos: &Chess) -> bool {
    attack_units(pos) >= UNDER_FIRE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Chess {
        crate::fen::position(fen).unwrap()
    }

    #[test]
    fn the_start_is_quiet() {
        assert_eq!(attack_units(&Chess::default()), 0);
        assert!(!under_fire(&Chess::default()));
    }

    #[test]
    fn the_pieces_bearing_on_the_king_of_the_side_to_move_add_up() {
        // The rook on h5 reaches h7 (2), the bishop on d4 g7 (1): not yet under fire.
        let p = pos("6k1/5ppp/8/7R/3B4/8/5PPP/6K1 b - - 0 1");
        assert_eq!(attack_units(&p), 3);
        assert!(!under_fire(&p));
        // A queen on d3 joins them through g6 to h7 (4).
        let p = pos("6k1/5ppp/8/7R/3B4/3Q4/5PPP/6K1 b - - 0 1");
        assert_eq!(attack_units(&p), 7);
        assert!(under_fire(&p));
        // With White to move it is Black's pieces that count, and there are none.
        let p = pos("6k1/5ppp/8/7R/3B4/3Q4/5PPP/6K1 w - - 0 1");
        assert_eq!(attack_units(&p), 0);
    }

    #[test]
    fn a_blocked_piece_does_not_count() {
        // The rook on a8 looks down the eighth rank at the king through the knight on b8.
        let p = pos("Rn4k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
        assert_eq!(attack_units(&p), 0);
        let p = pos("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
        assert_eq!(attack_units(&p), 2);
    }
}
