//! The analysis board's lines: side lines kept, written as PGN variations, read back the same.

use knightfall::line_tree::Tree;
use shakmaty::san::San;
use shakmaty::{Chess, Position};

fn play(tree: &mut Tree, at: usize, san: &str) -> usize {
    let m = san
        .parse::<San>()
        .unwrap()
        .to_move(&tree.node(at).pos)
        .unwrap();
    tree.play(at, m)
}

#[test]
fn side_lines_round_trip_through_pgn() {
    let mut tree = Tree::new(Chess::default(), None);
    let e4 = play(&mut tree, 0, "e4");
    let e5 = play(&mut tree, e4, "e5");
    let nf3 = play(&mut tree, e5, "Nf3");
    play(&mut tree, nf3, "Nc6");
    // Side lines: 2. Nc3 Nf6 (with its own 2... Nc6), and 1... c5.
    let nc3 = play(&mut tree, e5, "Nc3");
    play(&mut tree, nc3, "Nf6");
    play(&mut tree, nc3, "Nc6");
    play(&mut tree, e4, "c5");
    // Playing a move already there goes to it, no copy.
    assert_eq!(play(&mut tree, e5, "Nf3"), nf3);
    let pgn = tree.to_pgn(&[("Event", "Test".to_string())]);
    assert!(
        pgn.contains("1. e4 e5 (1... c5) 2. Nf3 (2. Nc3 Nf6 (2... Nc6)) 2... Nc6 *"),
        "{pgn}"
    );
    let back = Tree::from_pgn(&pgn).unwrap();
    assert_eq!(back.len(), tree.len());
    assert_eq!(back.to_pgn(&[("Event", "Test".to_string())]), pgn);
    // A side line made the main line.
    let mut promoted = back.clone();
    let c5 = promoted.node(1).children[1];
    promoted.promote(c5);
    assert!(
        promoted.to_pgn(&[]).contains("1. e4 c5 (1... e5 2. Nf3"),
        "{}",
        promoted.to_pgn(&[])
    );
    // The game along a line, for the board.
    let game = tree.game_to(nc3);
    assert_eq!(game.sans(), ["e4", "e5", "Nc3"]);
    assert!(game.position().turn().is_black());
}

#[test]
fn a_variant_or_a_bad_move_is_refused() {
    assert!(Tree::from_pgn("[Variant \"Crazyhouse\"]\n\n1. e4 *").is_err());
    assert!(Tree::from_pgn("1. e4 e5 2. Ke3 *").is_err());
    assert!(Tree::from_pgn("").is_err());
}

#[test]
fn a_line_goes_on_past_a_repetition_on_the_board() {
    // 3... Ng8 repeats the start position a third time; the line goes on to a mate, and
    // the board's game at its end is that mate, not the repeated position.
    let mut tree = Tree::new(Chess::default(), None);
    let mut at = 0;
    for san in [
        "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "f3", "e5", "g4", "Qh4#",
    ] {
        at = play(&mut tree, at, san);
    }
    let game = tree.game_to(at);
    assert_eq!(game.ply(), 12);
    assert!(game.position().is_checkmate());
    // Before the mate the board still takes moves: the repetition ended nothing.
    let repeated = tree.game_to(tree.path(at)[8]);
    assert!(!repeated.is_over());
    assert!(repeated.parse_move("e4").is_ok());
}

#[test]
fn a_fen_tag_with_stale_castling_rights_is_read_with_them_dropped() {
    let tree = Tree::from_pgn("[FEN \"r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1\"]\n\n1. Rg8+ Rxg8 *")
        .unwrap();
    assert_eq!(tree.fen(0), "r3k2r/8/8/8/8/8/8/1R2K1R1 w kq - 0 1");
}

#[test]
fn figurine_moves_are_read_not_skipped() {
    let tree = Tree::from_pgn("1. e4 e5 2. ♘f3 ♞c6 3. ♗b5 a6 *").unwrap();
    let mut at = 0;
    while let Some(&c) = tree.node(at).children.first() {
        at = c;
    }
    assert_eq!(
        tree.game_to(at).sans(),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    );
    let game = knightfall::game::Game::from_pgn("1. ♙e4 ♟e5 2. ♘f3 *").unwrap();
    assert_eq!(game.sans(), ["e4", "e5", "Nf3"]);
}

#[test]
fn a_pgn_larger_than_the_board_holds_is_refused_not_cut() {
    let moves: Vec<String> = (0..26_000)
        .map(|i| format!("{}. Nf3 Nf6 {}. Ng1 Ng8", 2 * i + 1, 2 * i + 2))
        .collect();
    let pgn = format!("{} *", moves.join(" "));
    let Err(err) = Tree::from_pgn(&pgn) else {
        panic!("a tree of 104,000 positions was built");
    };
    assert_eq!(
        err.to_string(),
        "the PGN has more than 100000 positions (side lines included), more than the board holds"
    );
}

#[test]
fn a_move_after_a_dead_position_is_blamed_on_the_end_not_called_illegal() {
    let pgn = "[FEN \"8/8/4k3/8/8/3K4/8/7n w - - 0 1\"]\n\n1. Kd4 Nf2 *\n";
    let err = knightfall::game::Game::from_pgn(pgn)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "move 1 (Kd4) in the PGN comes after the game ended: insufficient material"
    );
}
