//! Static exchange evaluation on the notebooks' cases and a few classic ones.

use crate::common;

use knightfall::engine::see::see;
use shakmaty::uci::UciMove;

fn see_of(fen: &str, uci: &str) -> i32 {
    let pos = common::position(fen);
    let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    see(&pos, m)
}

#[test]
fn pinned_bishop_cannot_recapture() {
    // The g7 bishop is pinned to g8 by the g1 rook, so dxe5 simply wins the pawn.
    assert_eq!(see_of("6k1/6b1/8/4p3/3P4/8/8/1K4R1 w - - 0 1", "d4e5"), 100);
}

#[test]
fn xray_exchange_on_e5_wins_800() {
    assert_eq!(
        see_of("6k1/6b1/5p2/4q3/3P4/8/8/1K2Q3 w - - 0 1", "d4e5"),
        800
    );
}

#[test]
fn classic_cases() {
    // Undefended pawn.
    assert_eq!(
        see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
        100
    );
    // Rook takes a defended pawn: loses the exchange value.
    assert_eq!(
        see_of(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "d3e5"
        ),
        -220
    );
    // Quiet moves exchange nothing unless the piece can be taken.
    assert_eq!(see_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 0);
}

#[test]
fn king_cannot_capture_into_defence() {
    // Qxe2 Rxe2 Kxe2: pawn and rook for the queen.
    assert_eq!(
        see_of("4r2k/8/8/8/8/8/4p3/3QK3 w - - 0 1", "d1e2"),
        100 - 900 + 500
    );
    // With the bishop recapturing first, the rook still guards e2 and the king cannot take.
    assert_eq!(
        see_of("4r2k/8/8/7b/8/8/4p3/3QK3 w - - 0 1", "d1e2"),
        100 - 900
    );
}
