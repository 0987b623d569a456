//! Perft through the engine's own make-move path (`Node::play`, with its incremental key and
//! evaluation) and its capture filter, against the published counts.

mod common;

use knightfall::engine::eval::{Evaluator, Profile};
use knightfall::engine::node::Node;
use knightfall::engine::ordering::is_tactical;
use shakmaty::Position;

fn perft(node: &Node, depth: u32, eval: &Evaluator) -> u64 {
    let moves = node.pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    // Quiescence's capture filter and the rest must partition the moves.
    let tactical = moves.iter().filter(|m| is_tactical(**m)).count();
    let quiet = moves.iter().filter(|m| !is_tactical(**m)).count();
    assert_eq!(tactical + quiet, moves.len());
    moves
        .iter()
        .map(|&m| perft(&node.play(m, eval), depth - 1, eval))
        .sum()
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
