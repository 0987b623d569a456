//! The legal captures and promotions of a position not in check, for quiescence.
//!
//! shakmaty 0.30 has no capture-only generator for `Chess` (its `capture_moves` filters the full
//! legal list), and quiescence nodes are most of the search. The moves come out in exactly the
//! order `legal_moves` gives them, so the move ordering, and with it every node count, is the
//! same as filtering the full list.

use shakmaty::attacks;
use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Every legal capture and promotion of `pos`, which must not be in check, added to `moves`
/// (an empty list the caller owns: a returned list would be 2 KB copied at every node).
pub(crate) fn tactical_moves(pos: &Chess, moves: &mut MoveList) {
    debug_assert!(!pos.is_check());
    let board = pos.board();
    let turn = pos.turn();
    let us = board.by_color(turn);
    let them = board.by_color(!turn);
    let occupied = board.occupied();
    let Some(king) = board.king_of(turn) else {
        return;
    };
    // En passant first, checked for legality by shakmaty itself, as `legal_moves` does.
    if pos.maybe_ep_square().is_some() {
        moves.extend(pos.en_passant_moves());
    }

    let pawns = (board.pawns() & us).0;
    let backranks = Bitboard::BACKRANKS.0;
    // Pawn captures toward the a-file side, then the h-file side, as shakmaty orders them.
    let (west, east, push) = match turn {
        Color::White => ((pawns & !FILE_A) << 7, (pawns & !FILE_H) << 9, 8),
        Color::Black => ((pawns & !FILE_A) >> 9, (pawns & !FILE_H) >> 7, -8),
    };
    let west_back = if turn == Color::White { 7 } else { -9 };
    let east_back = if turn == Color::White { 9 } else { -7 };
    for (targets, offset) in [(west & them.0, west_back), (east & them.0, east_back)] {
        for to in Bitboard(targets & !backranks) {
            moves.push(Move::Normal {
                role: Role::Pawn,
                from: shifted(to, -offset),
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
        for to in Bitboard(targets & backranks) {
            push_promotions(moves, shifted(to, -offset), to, board.role_at(to));
        }
    }
    let single = Bitboard(pawns).shift(push) & !occupied;
    for to in single & Bitboard::BACKRANKS {
        push_promotions(moves, shifted(to, -push), to, None);
    }

    for from in board.knights() & us {
        piece_captures(
            moves,
            board,
            Role::Knight,
            from,
            attacks::knight_attacks(from) & them,
        );
    }
    for from in board.bishops() & us {
        let targets = attacks::bishop_attacks(from, occupied) & them;
        piece_captures(moves, board, Role::Bishop, from, targets);
    }
    for from in board.rooks() & us {
        let targets = attacks::rook_attacks(from, occupied) & them;
        piece_captures(moves, board, Role::Rook, from, targets);
    }
    for from in board.queens() & us {
        let targets = attacks::queen_attacks(from, occupied) & them;
        piece_captures(moves, board, Role::Queen, from, targets);
    }
    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !turn, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }

    // A pinned piece may only move along the line through its king.
    let blockers = pinned(board, them, king);
    if blockers.any() {
        moves.retain(|m| match *m {
            Move::Normal { from, to, .. } => {
                !blockers.contains(from) || attacks::aligned(from, to, king)
            }
            _ => true,
        });
    }
}

/// Pieces (of either colour) that alone stand between `king` and an enemy slider.
fn pinned(board: &shakmaty::Board, enemy: Bitboard, king: Square) -> Bitboard {
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & enemy {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

#[inline]
fn piece_captures(
    moves: &mut MoveList,
    board: &shakmaty::Board,
    role: Role,
    from: Square,
    targets: Bitboard,
) {
    for to in targets {
        moves.push(Move::Normal {
            role,
            from,
            capture: board.role_at(to),
            to,
            promotion: None,
        });
    }
}

fn push_promotions(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    for promotion in PROMOTIONS {
        moves.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion: Some(promotion),
        });
    }
}

/// `sq` moved by `offset` squares; only called where the result is on the board.
#[inline]
fn shifted(sq: Square, offset: i32) -> Square {
    Square::new((sq as i32 + offset) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ordering::is_tactical;
    use crate::engine::walk::{any_move, walk};
    use shakmaty::fen::Fen;

    /// Walks a few thousand positions from tricky starts (pins, en passant, promotions) and
    /// compares against shakmaty's full list, filtered, in order.
    #[test]
    fn same_moves_in_the_same_order_as_the_filtered_legal_list() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1",
            "8/8/3k4/8/1q1pP2K/8/8/8 b - e3 0 1",
        ];
        let mut checked = 0;
        for (i, fen) in starts.iter().enumerate() {
            let visit = |pos: &Chess, legal: &MoveList| {
                if pos.is_check() {
                    return;
                }
                let expected: Vec<Move> =
                    legal.iter().copied().filter(|&m| is_tactical(m)).collect();
                let mut got = MoveList::new();
                tactical_moves(pos, &mut got);
                let got: Vec<Move> = got.into_iter().collect();
                assert_eq!(
                    got,
                    expected,
                    "{}",
                    Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                );
                checked += 1;
            };
            // Captures and promotions half the time, so that the walks reach endings.
            let pick = |rng: &mut crate::rng::Rng, legal: &MoveList| {
                let tactical: Vec<Move> =
                    legal.iter().copied().filter(|&m| is_tactical(m)).collect();
                if rng.below(2) == 0 && !tactical.is_empty() {
                    tactical[rng.index(tactical.len())]
                } else {
                    any_move(rng, legal)
                }
            };
            walk(fen, i as u64, 400, visit, pick);
        }
        assert!(checked > 1000, "only {checked} positions compared");
    }
}
