//! Opening names from lichess's table (embedded), classified as lichess does: the last named
//! position a game reached, so transpositions are named by position.

use knightfall::game::Game;
use knightfall::openings;

/// The opening a game's moves reach, as `ECO Name`.
fn name(moves: &str) -> String {
    let mut game = Game::new();
    for m in moves.split_whitespace().filter(|t| !t.ends_with('.')) {
        game.play_text(m, None)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game.opening()
        .map(|o| format!("{} {}", o.eco, o.name))
        .unwrap_or_default()
}

#[test]
fn named_lines_and_transpositions_match_the_table() {
    // Each expected name is the table's row for that position (see assets/openings/*.tsv).
    let cases = [
        ("1. e4 c5", "B20 Sicilian Defense"),
        ("1. e4 e5 2. Nf3 Nc6 3. Bb5", "C60 Ruy Lopez"),
        ("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4", "E20 Nimzo-Indian Defense"),
        (
            "1. d4 d5 2. Nf3",
            "D02 Queen's Pawn Game: Zukertort Variation",
        ),
        ("1. c4 e5", "A20 English Opening: King's English Variation"),
        ("1. e4 c6 2. d4 d5", "B12 Caro-Kann Defense"),
        ("1. e4 e6 2. d4 d5", "C00 French Defense"),
        ("1. e4 e5 2. Nf3 Nc6 3. Bc4", "C50 Italian Game"),
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5",
            "C50 Italian Game: Giuoco Piano",
        ),
        ("1. d4 d5 2. c4", "D06 Queen's Gambit"),
        ("1. d4 d5 2. c4 e6", "D30 Queen's Gambit Declined"),
        ("1. d4 d5 2. c4 c6", "D10 Slav Defense"),
        ("1. e4 d5", "B01 Scandinavian Defense"),
        (
            "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6",
            "B90 Sicilian Defense: Najdorf Variation",
        ),
        (
            "1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6",
            "E70 King's Indian Defense: Normal Variation",
        ),
        // Transpositions: other move orders reach the same named positions.
        (
            "1. Nf3 d5 2. d4",
            "D02 Queen's Pawn Game: Zukertort Variation",
        ),
        ("1. c4 e6 2. d4 d5", "D30 Queen's Gambit Declined"),
        ("1. c4 c6 2. d4 d5", "D10 Slav Defense"),
        ("1. d4 e6 2. c4 Nf6 3. Nc3 Bb4", "E20 Nimzo-Indian Defense"),
        (
            "1. c4 g6 2. e4 Bg7 3. d4 d6 4. Nc3 Nf6",
            "E70 King's Indian Defense: Normal Variation",
        ),
        (
            "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. h3",
            "B90 Sicilian Defense: Najdorf Variation, Adams Attack",
        ),
        // Past the named positions the last one stays the name.
        (
            "1. e4 c5 2. a3 a6 3. h3 h6",
            "B20 Sicilian Defense: Mengarini Variation",
        ),
    ];
    for (moves, expected) in cases {
        assert_eq!(name(moves), expected, "{moves}");
    }
    assert_eq!(name(""), "", "the start position has no name");
    assert!(
        openings::len() > 3_000,
        "{} named positions",
        openings::len()
    );
}

#[test]
fn saved_games_carry_eco_and_opening_headers() {
    let mut game = Game::new();
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"] {
        game.play_text(m, None).unwrap();
    }
    let pgn = game.to_pgn();
    assert!(pgn.contains("[ECO \"C70\"]"), "{pgn}");
    assert!(
        pgn.contains("[Opening \"Ruy Lopez: Morphy Defense\"]"),
        "{pgn}"
    );
}
