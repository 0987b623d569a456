//! Search behaviour: mate suites, draw rules, endgame technique without tablebases, limits.

use crate::common;

use std::sync::atomic::Ordering;

use knightfall::engine::node::key_of;
use knightfall::engine::{Config, Control, Engine, Limits, Reported, SearchResult, report};
use knightfall::rng::Rng;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

fn engine() -> Engine {
    Engine::new(Config::default())
}

fn search(engine: &mut Engine, pos: &Chess, history: &[u64], limits: Limits) -> SearchResult {
    engine.search(pos, history, &limits, &Control::default(), &mut |_| {})
}

/// The one row of the shared mate files with no mate in the stated number of moves: neither
/// Stockfish 15.1 (`go mate 3` for 20 s, or depth 22) nor this engine finds one. For it the
/// engine must simply not claim a mate.
const NOT_A_MATE: &[&str] = &["k1B5/2p5/NbN5/8/P2p4/P2p4/P1prp3/2RbK3 w - - 0 1"];

fn mate_suite(file: &str, moves: i32, nodes: u64) {
    let Some(path) = common::shared(&format!("data/epd/{file}")) else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut solved = 0;
    let mut failures = Vec::new();
    for fen in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let pos = common::position(fen);
        let mut engine = Engine::new(Config {
            hash_mb: 8,
            ..Config::default()
        });
        // Solved means the mate is found and reported within a modest node budget.
        let control = Control::default();
        let limits = Limits {
            depth: Some(60),
            nodes: Some(nodes),
            ..Limits::default()
        };
        let result = engine.search(&pos, &[], &limits, &control, &mut |info| {
            if matches!(report(info.score), Reported::Mate(n) if (1..=moves).contains(&n)) {
                control.stop.store(true, Ordering::Relaxed);
            }
        });
        let best = result.best.expect("a move");
        assert!(pos.is_legal(best));
        let ok = match report(result.score) {
            Reported::Mate(n) => (1..=moves).contains(&n),
            Reported::Cp(_) => NOT_A_MATE.contains(&fen),
        };
        if ok {
            solved += 1;
        } else {
            failures.push(format!("{fen}: {}", report(result.score)));
        }
    }
    assert!(
        failures.is_empty(),
        "{solved} solved; failed: {failures:#?}"
    );
}

#[test]
fn solves_every_mate_in_two() {
    mate_suite("mate_in_2.fen", 2, 20_000_000);
}

#[test]
fn solves_every_mate_in_three() {
    mate_suite("mate_in_3.fen", 3, 20_000_000);
}

#[test]
fn prefers_the_shortest_mate() {
    // Mate in one is available (Qh7#... Ra8#); the engine must report and play mate 1.
    let pos = common::position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    let result = search(&mut engine(), &pos, &[], Limits::depth(6));
    assert_eq!(report(result.score), Reported::Mate(1));
    let mut after = pos.clone();
    after.play_unchecked(result.best.unwrap());
    assert!(after.is_checkmate());
}

#[test]
fn stalemate_and_checkmate_roots() {
    let mated = common::position("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
    let result = search(&mut engine(), &mated, &[], Limits::depth(3));
    assert_eq!(result.best, None);
    let stalemate = common::position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let result = search(&mut engine(), &stalemate, &[], Limits::depth(3));
    assert_eq!((result.best, result.score), (None, 0));
}

#[test]
fn avoids_stalemating_when_winning() {
    // Qg6?? or Qf7?? stalemate; any sensible queen move keeps the win.
    let pos = common::position("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    let result = search(&mut engine(), &pos, &[], Limits::depth(8));
    let mut after = pos.clone();
    after.play_unchecked(result.best.unwrap());
    assert!(!after.is_stalemate());
    assert!(result.score > 500);
}

#[test]
fn repetition_before_the_root_is_a_draw() {
    // White is a queen down but has perpetual check: Qf6+ Kg8 Qg5+ Kh8 and again.
    let start = common::position("5r1k/5p1p/8/6Q1/8/q7/5PPP/6K1 w - - 0 1");
    let without_history = search(&mut engine(), &start, &[], Limits::depth(10));
    assert_eq!(without_history.score, 0, "perpetual check should be found");
    // After the cycle once, the same position is on the board again: still a draw, and the
    // checks go on.
    let mut pos = start.clone();
    let mut history = Vec::new();
    for uci in ["g5f6", "h8g8", "f6g5", "g8h8"] {
        history.push(key_of(&pos));
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    assert_eq!(key_of(&pos), key_of(&start));
    let result = search(&mut engine(), &pos, &history, Limits::depth(10));
    assert_eq!(result.score, 0);
    let mut after = pos.clone();
    after.play_unchecked(result.best.unwrap());
    assert!(after.is_check());
}

#[test]
fn fifty_move_rule_makes_a_won_position_drawn() {
    // A rook up, but the clock stands at 99 half-moves and no capture or mate is available in
    // one move: every line is a draw.
    let pos = common::position("8/8/8/4k3/8/8/8/R3K3 w - - 99 120");
    let result = search(&mut engine(), &pos, &[], Limits::depth(6));
    assert_eq!(result.score, 0);
    let fresh = common::position("8/8/8/4k3/8/8/8/R3K3 w - - 0 120");
    assert!(search(&mut engine(), &fresh, &[], Limits::depth(6)).score > 400);
}

#[test]
fn insufficient_material_is_a_draw() {
    // White can take the last pawn, leaving king and knight against king.
    let pos = common::position("8/8/4k3/8/8/2N5/1p6/4K3 w - - 0 1");
    let result = search(&mut engine(), &pos, &[], Limits::depth(8));
    assert_eq!(result.score, 0);
}

/// Plays the engine against itself from `pos` and returns the plies until mate, if any, within
/// the fifty-move rule.
fn plies_to_mate(pos: Chess, depth: u32) -> Option<usize> {
    let mut engine = engine();
    let mut pos = pos;
    let mut history = Vec::new();
    for ply in 0..100 {
        if pos.is_checkmate() {
            return Some(ply);
        }
        if pos.is_game_over() {
            return None;
        }
        let best = search(&mut engine, &pos, &history, Limits::depth(depth))
            .best
            .unwrap();
        history.push(key_of(&pos));
        pos.play_unchecked(best);
    }
    pos.is_checkmate().then_some(100)
}

fn random_lone_king(piece: char, rng: &mut Rng) -> Chess {
    loop {
        let mut squares = [0usize; 3];
        for s in squares.iter_mut() {
            *s = rng.index(64);
        }
        if squares[0] == squares[1] || squares[0] == squares[2] || squares[1] == squares[2] {
            continue;
        }
        let mut board = ['.'; 64];
        board[squares[0]] = 'K';
        board[squares[1]] = piece;
        board[squares[2]] = 'k';
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = board[rank * 8 + file];
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(" w - - 0 1");
        let Ok(parsed) = fen.parse::<shakmaty::fen::Fen>() else {
            continue;
        };
        if let Ok(pos) = parsed.into_position::<Chess>(shakmaty::CastlingMode::Standard)
            && !pos.is_game_over()
        {
            return pos;
        }
    }
}

#[test]
fn mates_kqk_and_krk_without_tablebases() {
    let mut rng = Rng::new(12345);
    for piece in ['Q', 'R'] {
        for _ in 0..6 {
            let pos = random_lone_king(piece, &mut rng);
            let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
            let plies = plies_to_mate(pos, 7);
            assert!(plies.is_some(), "no mate within 50 moves from {fen}");
        }
    }
}

#[test]
fn node_limit_and_stop_are_respected() {
    let pos = Chess::default();
    let result = search(&mut engine(), &pos, &[], Limits::nodes(20_000));
    assert!(result.nodes < 25_000, "searched {} nodes", result.nodes);
    assert!(pos.is_legal(result.best.unwrap()));

    // A search told to stop before it starts still returns a legal move.
    let control = Control::default();
    control.stop.store(true, Ordering::Relaxed);
    let result = engine().search(&pos, &[], &Limits::default(), &control, &mut |_| {});
    assert!(pos.is_legal(result.best.unwrap()));
}

#[test]
fn info_reports_each_iteration() {
    let pos = Chess::default();
    let mut depths = Vec::new();
    engine().search(
        &pos,
        &[],
        &Limits::depth(6),
        &Control::default(),
        &mut |info| {
            assert!(!info.pv.is_empty());
            depths.push(info.depth)
        },
    );
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn bench_node_count_is_repeatable() {
    let pos =
        common::position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let a = search(&mut engine(), &pos, &[], Limits::depth(7));
    let b = search(&mut engine(), &pos, &[], Limits::depth(7));
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
}

#[test]
fn low_levels_are_capped_and_still_legal() {
    let pos = common::position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut full = engine();
    let strong = search(&mut full, &pos, &[], Limits::depth(6));
    for level in 1..=9u8 {
        let mut e = engine();
        let cap = knightfall::engine::strength::settings(level);
        let result = search(&mut e, &pos, &[], Limits::depth(6).at_level(level));
        assert!(pos.is_legal(result.best.unwrap()));
        assert!(
            result.nodes <= cap.nodes.unwrap(),
            "level {level}: {} nodes",
            result.nodes
        );
        assert!(result.depth <= cap.depth.unwrap());
    }
    // Level 10 is the full engine: same search, same nodes.
    let mut ten = engine();
    assert_eq!(
        search(&mut ten, &pos, &[], Limits::depth(6).at_level(10)).nodes,
        strong.nodes
    );
}

#[test]
fn the_level_travels_with_each_search() {
    // One engine, no clearing in between: a level-1 search, a full-strength one, level 1 again.
    let pos = common::position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut e = engine();
    let weak = search(&mut e, &pos, &[], Limits::movetime(500).at_level(1));
    assert_eq!(weak.depth, 1);
    assert!(weak.nodes <= 400, "{} nodes", weak.nodes);
    let full = search(&mut e, &pos, &[], Limits::depth(8));
    assert_eq!(full.depth, 8);
    assert!(full.nodes > 2_000, "{} nodes", full.nodes);
    let again = search(&mut e, &pos, &[], Limits::movetime(500).at_level(1));
    assert_eq!((again.depth, again.best), (1, weak.best));
    assert!(again.nodes <= 400);
}

#[test]
fn a_weak_level_varies_between_games_but_not_within_one() {
    let pos = Chess::default();
    let mut e = engine();
    let level2 = || Limits::default().at_level(2);
    let first = search(&mut e, &pos, &[], level2());
    assert_eq!(search(&mut e, &pos, &[], level2()).best, first.best);
    let mut moves = std::collections::HashSet::new();
    for _ in 0..12 {
        e.clear();
        moves.insert(search(&mut e, &pos, &[], level2()).best.unwrap());
    }
    assert!(
        moves.len() >= 3,
        "only {} distinct first moves",
        moves.len()
    );
}

#[test]
fn a_root_move_that_failed_high_is_played_when_time_runs_out_during_its_research() {
    // WAC.146: Bc8 wins. Depth 17 prefers Bd3 (+2.53), and depth 18 finds Bc8 as a fail high
    // above the aspiration window at about 90,000 nodes, then fails high again and again while
    // the window widens, until about 190,000. A search stopped in between plays Bc8, not the
    // last finished iteration's Bd3.
    let pos = common::position("8/8/2Kp4/3P1B2/2P2k2/5p2/8/8 w - - 0 1");
    let bc8 = "f5c8".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    let result = search(&mut engine(), &pos, &[], Limits::nodes(140_000));
    assert_eq!(result.best, Some(bc8));
    assert!(result.score > 253, "{}", result.score);
    // The line shown is the one that failed high, legal from the root.
    assert_eq!(result.pv.first(), Some(&bc8));
    let mut line = pos.clone();
    for &m in &result.pv {
        assert!(line.is_legal(m), "{m} in {:?}", result.pv);
        line.play_unchecked(m);
    }
}
