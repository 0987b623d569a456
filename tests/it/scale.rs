//! The endgame scale: how much of an endgame advantage counts, by material, on positions
//! whose outcome a chess player knows, and its effect on the evaluation a user sees.

use crate::common;

use knightfall::engine::scale::{FULL, endgame_scale};
use shakmaty::{Color, Position};

fn scale(fen: &str, strong: Color) -> i32 {
    endgame_scale(common::position(fen).board(), strong)
}

#[test]
fn advantages_that_cannot_or_can_rarely_be_won_are_scaled_down() {
    // Two knights cannot force mate; a rook, or a bishop and knight, against a bare king can.
    assert_eq!(scale("8/8/4k3/8/8/2NN4/8/4K3 w - - 0 1", Color::White), 0);
    assert_eq!(scale("8/8/4k3/8/8/8/8/R3K3 w - - 0 1", Color::White), FULL);
    assert_eq!(
        scale("8/8/4k3/8/8/2NB4/8/4K3 w - - 0 1", Color::White),
        FULL
    );
    // No pawns and at most a minor piece ahead: a lone minor 0, a rook against a minor 4,
    // a rook and bishop against a rook 14, a bishop and knight against a knight 4.
    assert_eq!(scale("8/8/4k3/3n4/8/2B5/8/4K3 w - - 0 1", Color::White), 0);
    assert_eq!(scale("8/8/4k3/3b4/8/8/8/R3K3 w - - 0 1", Color::White), 4);
    assert_eq!(scale("8/8/4k3/8/8/2B5/8/R3K2r w - - 0 1", Color::White), 14);
    assert_eq!(
        scale("2k5/1n6/4K3/1N1B4/8/8/8/8 b - - 0 1", Color::White),
        4
    );
    // A queen against a rook: no pawns, more than a minor ahead, 36.
    assert_eq!(scale("8/8/4k3/3r4/8/8/8/Q3K3 w - - 0 1", Color::White), 36);
}

#[test]
fn opposite_coloured_bishops_and_few_pawns_are_scaled() {
    // Bishops alone on c3 (dark) and e6 (light), White a pawn ahead: 18 + 6.
    let ocb = "8/5k2/4b3/1p6/1P3P2/2B5/6K1/8 w - - 0 1";
    assert_eq!(scale(ocb, Color::White), 24);
    // The same bishops on one colour (c4 is light): only the two pawns count, 36 + 14.
    assert_eq!(
        scale("8/5k2/4b3/1p6/1PB2P2/8/6K1/8 w - - 0 1", Color::White),
        50
    );
    // Opposite bishops with a rook each: 40 + 3 x 2 pawns.
    assert_eq!(
        scale("r7/5k2/4b3/1p6/1P3P2/2B5/6K1/R7 w - - 0 1", Color::White),
        46
    );
    // Otherwise 36 + 7 a pawn, full from four pawns.
    assert_eq!(
        scale("8/8/4k3/8/8/8/2PP1r2/R3K3 w - - 0 1", Color::White),
        50
    );
    assert_eq!(
        scale("8/8/4k3/8/8/8/PPPP1r2/R3K3 w - - 0 1", Color::White),
        FULL
    );
}

#[test]
fn the_evaluation_of_a_drawn_ending_shrinks_and_stays_symmetric() {
    // A user sees it through `eval`: B+N against N is worth well under a pawn, though the
    // material alone says about three; the colour-flipped position is exactly its negation.
    let value = |fen: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_knightfall"))
            .args(["eval", fen])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        text.split_whitespace()
            .last()
            .unwrap()
            .parse::<i32>()
            .unwrap()
    };
    let white = value("2k5/1n6/4K3/1N1B4/8/8/8/8 b - - 0 1");
    let black = value("8/8/8/8/1n1b4/4k3/1N6/2K5 w - - 0 1");
    assert!((0..100).contains(&white), "{white}");
    assert_eq!(white, -black);
    let ocb = value("8/5k2/4b3/1p6/1P3P2/2B5/6K1/8 w - - 0 1");
    // Opposite-coloured bishops a pawn up: a draw more often than not, less than a pawn.
    assert!((0..60).contains(&ocb), "{ocb}");
}
