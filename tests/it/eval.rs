//! Evaluation: the notebooks' exact values for the simplified profile, and incremental updates
//! agreeing with from-scratch evaluation through thousands of random games.

use crate::common;

use knightfall::engine::eval::{Evaluator, Profile, is_king_endgame};
use knightfall::engine::node::{Node, key_of};
use knightfall::rng::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Board, Color, Position};

fn board(fen: &str) -> Board {
    fen.parse::<Fen>().unwrap().into_setup().board
}

fn simplified(fen: &str) -> i32 {
    let e = Evaluator::new(Profile::Simplified);
    let b = board(fen);
    e.evaluate(&b, Color::White, e.accumulate(&b))
}

const NOTEBOOK: &str = "5rk1/1b3p2/8/3p4/3p2P1/2Q4B/5P1K/R3R3 b - - 0 36";

#[test]
fn notebook_position_is_1240() {
    assert_eq!(simplified(NOTEBOOK), 1240);
}

#[test]
fn queen_capture_switches_to_king_endgame_350() {
    let pos = common::position(NOTEBOOK);
    assert!(!is_king_endgame(pos.board()));
    let m = "d4c3".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    let e = Evaluator::new(Profile::Simplified);
    let acc = e.update(e.accumulate(pos.board()), pos.turn(), m);
    let mut after = pos.clone();
    after.play_unchecked(m);
    assert!(is_king_endgame(after.board()));
    // 340 with the middlegame king table; the endgame table adds +10.
    assert_eq!(acc.mg, 340);
    assert_eq!(acc.eg, 350);
    assert_eq!(e.evaluate(after.board(), after.turn(), acc), 350);
    assert_eq!(e.evaluate_position(&after), 350);
    // The pawn capture itself changes the sums by the queen's 900 (the notebooks' -900).
    assert_eq!(acc.mg - 1240, -900);
}

#[test]
fn queen_on_the_board_values() {
    assert_eq!(simplified("4k3/8/8/8/Q7/8/8/4K3 w - - 0 1"), 900);
    assert_eq!(simplified("4k3/8/8/8/7Q/8/8/4K3 w - - 0 1"), 895);
    assert_eq!(simplified("4k3/8/8/7Q/8/8/8/4K3 b - - 0 1"), 895);
    assert_eq!(simplified("4k3/8/8/q7/8/8/8/4K3 w - - 0 1"), -900);
    assert_eq!(simplified("4k3/8/8/7q/8/8/8/4K3 w - - 0 1"), -895);
    assert_eq!(simplified("4k3/8/7q/8/8/8/8/4K3 w - - 0 1"), -890);
}

#[test]
fn single_table_lookups() {
    // Kings on e1/e8 score 0 in the middlegame table, so each sum is the piece alone; with the
    // queens present (and rooks) the middlegame king table applies.
    let white_pawn = simplified("r2qk3/8/8/8/8/8/5P2/R2QK3 w - - 0 1")
        - simplified("r2qk3/8/8/8/8/8/8/R2QK3 w - - 0 1");
    assert_eq!(white_pawn, 110);
    let black_bishop = simplified("r2qk3/1b6/8/8/8/8/8/R2QK3 w - - 0 1")
        - simplified("r2qk3/8/8/8/8/8/8/R2QK3 w - - 0 1");
    assert_eq!(black_bishop, -335);
}

#[test]
fn tapered_is_symmetric_and_zero_at_start() {
    let e = Evaluator::new(Profile::Tapered);
    let start = common::position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // Everything cancels out but the side to move's tempo (all pieces on: its middlegame value).
    let tempo = knightfall::engine::eval::tapered_weights()[knightfall::engine::params::TEMPO].0;
    assert_eq!(e.evaluate_position(&start), tempo);
    let (_, terms) = e.trace(start.board(), Color::White);
    for (term, value) in terms {
        assert_eq!(value, if term == "tempo" { tempo } else { 0 }, "{term}");
    }
    // Mirroring colours negates the score.
    let white = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let black = white.clone().into_swapped_colors();
    let mut flipped = black;
    flipped.flip_vertical();
    let (a, b) = (
        e.evaluate(&white, Color::White, e.accumulate(&white)),
        e.evaluate(&flipped, Color::Black, e.accumulate(&flipped)),
    );
    assert_eq!(a, -b);
    assert_ne!(a, 0);
}

#[test]
fn incremental_matches_scratch_through_random_games() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let evaluators = [
        Evaluator::new(Profile::Simplified),
        Evaluator::new(Profile::Tapered),
    ];
    let (mut castles, mut en_passant, mut promotions, mut plies) = (0, 0, 0, 0);
    for game in 0..2000 {
        let e = &evaluators[game % 2];
        let mut node = Node::new(shakmaty::Chess::default(), e);
        for _ in 0..300 {
            let moves = node.pos.legal_moves();
            if moves.is_empty() || node.pos.is_insufficient_material() {
                break;
            }
            let m = moves[rng.index(moves.len())];
            castles += m.is_castle() as u32;
            en_passant += m.is_en_passant() as u32;
            promotions += m.is_promotion() as u32;
            node = node.play(m, e);
            plies += 1;
            assert_eq!(node.acc, e.accumulate(node.pos.board()), "sums after {m:?}");
            assert_eq!(node.key, key_of(&node.pos), "key after {m:?}");
            let score = e.evaluate(node.pos.board(), node.pos.turn(), node.acc);
            assert_eq!(score, e.evaluate_position(&node.pos));
            // Every term sees the mirrored position from the other side.
            let mut mirrored = node.pos.board().clone().into_swapped_colors();
            mirrored.flip_vertical();
            let turn = !node.pos.turn();
            assert_eq!(
                e.evaluate(&mirrored, turn, e.accumulate(&mirrored)),
                -score,
                "mirror of {}",
                shakmaty::fen::Fen::from_position(&node.pos, shakmaty::EnPassantMode::Legal)
            );
        }
    }
    // The walk must actually have exercised the special moves.
    assert!(castles > 100, "castles {castles}");
    assert!(en_passant > 20, "en passant {en_passant}");
    assert!(promotions > 100, "promotions {promotions}");
    assert!(plies > 200_000, "plies {plies}");
}

/// A level's move that overlooks tactics evaluates without the threat terms: a knight left
/// en prise to a pawn costs it nothing, while every other term stays as it was.
#[test]
fn an_evaluator_blind_to_threats_drops_exactly_the_threat_terms() {
    // Four White pawns: the endgame scale leaves the advantage whole in both evaluations.
    let b = board("4k3/pp6/3p4/4N3/8/8/PPPP4/4K3 w - - 0 1");
    let full = Evaluator::new(Profile::Tapered);
    let blind = full.blind_to_threats();
    let (_, seen) = full.trace(&b, Color::White);
    let (_, unseen) = blind.trace(&b, Color::White);
    let value = |lines: &[(&str, i32)], name: &str| {
        lines
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap()
    };
    let threats = value(&seen, "threats");
    assert!(
        threats < 0,
        "Black's pawn attacks the hanging knight: {threats}"
    );
    assert_eq!(value(&unseen, "threats"), 0);
    for (name, v) in &seen {
        if !matches!(*name, "threats" | "pst") {
            assert_eq!(value(&unseen, name), *v, "{name}");
        }
    }
    let total = |e: &Evaluator| e.evaluate(&b, Color::White, e.accumulate(&b));
    // Tapering the threats apart can round one centipawn differently.
    assert!((total(&blind) - (total(&full) - threats)).abs() <= 1);
}
