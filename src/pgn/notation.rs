//! A line of moves written as numbered SAN, the one way every screen and command writes one.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use super::write::Movetext;

/// The moves of `line` played from `pos`, in SAN with move numbers: `1. e4 e5 2. Nf3`, or
/// `12... Qxd4+ 13. Kh1` when Black moves first. Stops at the first move that is not legal
/// (a principal variation from a hash collision); an empty line is an empty string.
pub fn numbered_san<'a>(pos: &Chess, line: impl IntoIterator<Item = &'a Move>) -> String {
    let mut pos = pos.clone();
    let mut text = Movetext::new();
    for m in line {
        if !pos.is_legal(*m) {
            break;
        }
        let (number, turn) = (pos.fullmoves().get(), pos.turn());
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, *m);
        text.push_move(number, turn, &san.to_string());
    }
    text.joined()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::{line as moves, position};

    #[test]
    fn white_first_numbers_every_white_move() {
        let start = Chess::default();
        let line = moves(&start, &["e2e4", "e7e5", "g1f3"]);
        assert_eq!(numbered_san(&start, &line), "1. e4 e5 2. Nf3");
        assert_eq!(numbered_san(&start, &line[..0]), "");
    }

    #[test]
    fn black_first_gets_the_ellipsis_and_checks_and_mates_are_marked() {
        // Fool's mate, Black to move on move 2: a check is not possible here, so a second
        // position shows one.
        let pos =
            position("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2").unwrap();
        let line = moves(&pos, &["d8h4"]);
        assert_eq!(numbered_san(&pos, &line), "2... Qh4#");

        let pos =
            position("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 12").unwrap();
        let line = moves(&pos, &["e5d4", "f3d4", "f8b4", "c2c3"]);
        assert_eq!(numbered_san(&pos, &line), "12... exd4 13. Nxd4 Bb4+ 14. c3");
    }

    #[test]
    fn stops_at_the_first_illegal_move() {
        let start = Chess::default();
        let mut line = moves(&start, &["e2e4", "e7e5"]);
        // e2e4 again is not legal after 1. e4 e5.
        line.push(line[0]);
        line.push(line[1]);
        assert_eq!(numbered_san(&start, &line), "1. e4 e5");
        // A first illegal move gives nothing.
        assert_eq!(numbered_san(&start, &line[1..]), "");
    }
}
