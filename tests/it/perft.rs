//! Perft through the engine's own make-move path (`Node::play`, with its incremental key and
//! evaluation) and its capture filter, against the published counts.

use crate::common;

use knightfall::engine::checks::Checks;
use knightfall::engine::eval::{Evaluator, Profile};
use knightfall::engine::node::Node;
use knightfall::engine::ordering::is_tactical;
use shakmaty::Position;

fn perft(node: &Node, depth: u32, eval: &Evaluator) -> u64 {
    let moves = node.pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft(&node.play(m, eval), depth - 1, eval))
        .sum()
}

/// Leaf captures at `depth` counted through quiescence's filter (`is_tactical` minus the
/// quiet promotions), to compare with the published capture counts.
fn captures(node: &Node, depth: u32, eval: &Evaluator) -> u64 {
    let moves = node.pos.legal_moves();
    if depth == 1 {
        return moves
            .iter()
            .filter(|m| is_tactical(**m) && m.is_capture())
            .count() as u64;
    }
    moves
        .iter()
        .map(|&m| captures(&node.play(m, eval), depth - 1, eval))
        .sum()
}

#[test]
fn the_capture_filter_finds_the_published_captures() {
    let eval = Evaluator::new(Profile::Tapered);
    // Chess Programming Wiki, "Perft Results": captures at each depth (en passant included).
    let start = Node::new(shakmaty::Chess::default(), &eval);
    assert_eq!(captures(&start, 3, &eval), 34);
    assert_eq!(captures(&start, 4, &eval), 1_576);
    let kiwipete =
        common::position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let kiwipete = Node::new(kiwipete, &eval);
    assert_eq!(captures(&kiwipete, 1, &eval), 8);
    assert_eq!(captures(&kiwipete, 2, &eval), 351);
    assert_eq!(captures(&kiwipete, 3, &eval), 17_102);
    // Every promotion is tactical too, capturing or not: a8 and axb8 to four pieces each.
    let pos = common::position("1r6/P7/8/8/8/8/8/k6K w - - 0 1");
    let tactical: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| is_tactical(*m))
        .collect();
    let promotions = tactical.iter().filter(|m| m.is_promotion()).count();
    let captures = tactical.iter().filter(|m| m.is_capture()).count();
    assert_eq!(
        (tactical.len(), promotions, captures),
        (8, 8, 4),
        "{tactical:?}"
    );
}

#[test]
fn perft_cpw_positions() {
    let Some(path) = common::shared("data/perft/perft_cpw.epd") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let eval = Evaluator::new(Profile::Tapered);
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let root = Node::new(common::position(fen), &eval);
        for part in parts {
            let part = part.trim();
            let (d, count) = part.split_once(' ').unwrap();
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let count: u64 = count.trim().parse().unwrap();
            // Keep the run to seconds: every depth up to about ten million leaves (bulk-counted).
            if count > 12_000_000 {
                continue;
            }
            assert_eq!(perft(&root, depth, &eval), count, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} perft counts checked");
}

/// Counts the moves whose check `Checks::gives` predicts wrongly over a tree (castling and en
/// passant may be over-reported, never missed), and the checks seen.
fn check_mismatches(pos: &shakmaty::Chess, depth: u32, checks: &mut u64) -> u64 {
    let mut wrong = 0;
    let predictor = Checks::new(pos);
    for m in pos.legal_moves() {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let predicted = predictor.gives(pos, m);
        let real = after.is_check();
        *checks += u64::from(real);
        let conservative = matches!(
            m,
            shakmaty::Move::Castle { .. } | shakmaty::Move::EnPassant { .. }
        );
        if predicted != real && !(conservative && predicted) {
            wrong += 1;
        }
        if depth > 1 {
            wrong += check_mismatches(&after, depth - 1, checks);
        }
    }
    wrong
}

#[test]
fn checks_are_predicted_before_the_move_is_made() {
    // Positions rich in discovered checks, promotions with check and pins.
    for (fen, depth) in [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            4,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            3,
        ),
    ] {
        let mut checks = 0;
        let wrong = check_mismatches(&common::position(fen), depth, &mut checks);
        assert_eq!(wrong, 0, "{fen}");
        assert!(checks > 100, "{fen}: only {checks} checks");
    }
}
