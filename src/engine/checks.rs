//! Whether a move gives check, worked out without making it, so that a move pruned for being
//! quiet costs nothing. Late-move pruning asks this of most of a node's quiet moves, so what
//! does not depend on the move is worked out once a node.

use shakmaty::{Bitboard, Chess, Move, Piece, Position, Square, attacks};

/// The enemy king and the pieces of the side to move that alone block one of its own
/// sliders' lines to that king (moving one off the line uncovers a check).
pub struct Checks {
    king: Option<Square>,
    discoverers: Bitboard,
}

impl Checks {
    /// The enemy king and the discovering pieces of `pos`, for the side to move.
    pub fn new(pos: &Chess) -> Checks {
        let board = pos.board();
        let us = board.by_color(pos.turn());
        let Some(king) = board.king_of(!pos.turn()) else {
            return Checks {
                king: None,
                discoverers: Bitboard::EMPTY,
            };
        };
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & us;
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & board.occupied();
            if let Some(sq) = between.single_square()
                && us.contains(sq)
            {
                discoverers.add(sq);
            }
        }
        Checks {
            king: Some(king),
            discoverers,
        }
    }

    /// Whether the legal move `m` of `pos` (the position these were worked out for) gives
    /// check. Castling and en passant are answered conservatively (`true`: never pruned as
    /// quiet), which only makes the search look at a few more moves.
    #[inline]
    pub fn gives(&self, pos: &Chess, m: Move) -> bool {
        let Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } = m
        else {
            return true;
        };
        let Some(king) = self.king else {
            return false;
        };
        let occupied = (pos.board().occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
        let piece = Piece {
            color: pos.turn(),
            role: promotion.unwrap_or(role),
        };
        attacks::attacks(to, piece, occupied).contains(king)
            // Off its line to the king, a discoverer uncovers the slider behind it.
            || (self.discoverers.contains(from) && !attacks::aligned(king, from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::walk::{any_move, walk};

    /// Against making each move: every normal move of the positions of fixed random walks
    /// from starts with discovered checks, pins and promotions.
    #[test]
    fn a_move_gives_check_exactly_when_the_position_after_it_is_check() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/4N3/8/8/4R3/4K3 w - - 0 1",
            "7k/8/5P2/8/3B4/8/1Q6/K7 w - - 0 1",
            "3k4/1P6/8/8/2R5/8/8/4K2B w - - 0 1",
            // A pawn that blocks a rook's file to the king and may push along it.
            "4k3/8/8/8/4P3/8/8/K3R3 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ];
        let mut checked = 0;
        for (i, fen) in fens.iter().enumerate() {
            let visit = |pos: &Chess, legal: &shakmaty::MoveList| {
                let checks = Checks::new(pos);
                for &m in legal {
                    if matches!(m, Move::Normal { .. }) {
                        let mut after = pos.clone();
                        after.play_unchecked(m);
                        assert_eq!(checks.gives(pos, m), after.is_check(), "{fen} {m:?}");
                        checked += 1;
                    }
                }
            };
            walk(fen, i as u64, 120, visit, any_move);
        }
        assert!(checked > 10_000, "{checked}");
    }
}
