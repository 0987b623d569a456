//! The one engine path, `Player`, as the game and UCI use it: in tablebase range it keeps what
//! the tables say (a win is won within the fifty-move rule, a draw held) while choosing the
//! moves by search, so that it mates the way a player would.

use crate::common;

use std::sync::Arc;

use knightfall::engine::{Config, Control, Limits};
use knightfall::game::{Game, Reason};
use knightfall::player::{Known, Player, Source};
use knightfall::rng::Rng;
use knightfall::tablebase::Tablebases;
use shakmaty::{Color, Position};

fn player() -> Player {
    Player::new(
        Config::default(),
        None,
        Some(Arc::new(Tablebases::embedded())),
    )
}

/// Plays `fen` out with the player on both sides, `nodes` per move; returns the finished game.
fn play_out(fen: &str, nodes: u64) -> Game {
    let mut p = player();
    let mut game = Game::from_fen(fen).unwrap();
    while !game.is_over() && game.ply() < 300 {
        let d = p
            .decide(
                game.position(),
                game.history_keys(),
                &Limits::nodes(nodes),
                Known::Allowed,
                &Control::default(),
                &mut |_| {},
            )
            .unwrap();
        game.play(d.result.best.unwrap(), None).unwrap();
    }
    game
}

#[test]
fn tablebase_wins_are_mated_within_the_fifty_move_rule() {
    for (fen, winner) in [
        ("8/8/4k3/8/2K5/3R4/8/8 w - - 0 1", Color::White),
        ("8/8/8/3k4/8/8/4K3/Q7 w - - 0 1", Color::White),
        ("8/4k3/8/3K4/3P4/8/8/8 w - - 0 1", Color::White),
        ("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", Color::White),
        ("7q/8/8/8/8/1r6/k7/4K3 b - - 0 1", Color::Black),
        ("4k3/8/8/8/8/8/8/B3K1N1 w - - 0 1", Color::White),
    ] {
        let game = play_out(fen, 20_000);
        let outcome = game.outcome();
        assert_eq!(
            outcome.map(|o| (o.winner, o.reason)),
            Some((Some(winner), Reason::Checkmate)),
            "{fen}: {}",
            game.to_pgn()
        );
    }
}

#[test]
fn a_short_mate_is_played_rather_than_the_fastest_conversion() {
    // Black mates in two (Ra2 and Rb1#, or Rb2 and Ra1#); by distance to zeroing alone the
    // tables pick another move.
    let mut p = player();
    let pos = common::position("6k1/8/8/8/r7/1r6/8/7K b - - 0 1");
    let d = p
        .decide(
            &pos,
            &[],
            &Limits::nodes(50_000),
            Known::Allowed,
            &Control::default(),
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(d.source, Source::Search);
    assert_eq!(d.tablebase.as_ref().map(|t| t.outcome_word()), Some("win"));
    let pv: Vec<String> = d
        .result
        .pv
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect();
    assert_eq!(pv.len(), 3, "mate in two: {pv:?}");
    let mut end = pos.clone();
    for m in &d.result.pv {
        end.play_unchecked(*m);
    }
    assert!(end.is_checkmate(), "mate in two: {pv:?}");
}

#[test]
fn a_drawn_ending_is_held_and_a_lost_one_resists_longest() {
    // KRvKR: only drawing moves are searched; the defending side never drops its rook.
    let game = play_out("8/8/4k3/8/2K5/3R4/8/5r2 w - - 0 1", 5_000);
    assert!(
        game.outcome().is_some_and(|o| o.winner.is_none()),
        "{}",
        game.to_pgn()
    );
    // A lost position: the tables' longest resistance, not a search.
    let mut p = player();
    let pos = common::position("8/8/4k3/8/2K5/3R4/8/8 b - - 0 1");
    let d = p
        .decide(
            &pos,
            &[],
            &Limits::nodes(5_000),
            Known::Allowed,
            &Control::default(),
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(d.source, Source::Tablebase);
    assert_eq!(d.tablebase.unwrap().outcome_word(), "loss");
}

#[test]
fn every_sampled_tablebase_win_is_converted() {
    let Some(csv) = common::shared("data/syzygy-vectors/syzygy_generated_3-4piece.csv") else {
        return;
    };
    let text = std::fs::read_to_string(csv).unwrap();
    let mut rng = Rng::new(0x5EED);
    let wins: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|l| l.split(',').nth(2) == Some("2"))
        .filter(|l| {
            l.split(',')
                .nth(3)
                .is_some_and(|d| d.parse::<i32>().unwrap() > 0)
        })
        .collect();
    for _ in 0..40 {
        let line = wins[rng.index(wins.len())];
        let epd = line.split(',').next().unwrap();
        let fen = format!("{epd} 0 1");
        let winner = common::position(&fen).turn();
        // Full strength at a small budget (weaker levels search less and may let a win slip
        // into a repetition, as people do).
        let mut p = player();
        let mut game = Game::from_fen(&fen).unwrap();
        while !game.is_over() && game.ply() < 400 {
            let d = p
                .decide(
                    game.position(),
                    game.history_keys(),
                    &Limits::nodes(3_000),
                    Known::Allowed,
                    &Control::default(),
                    &mut |_| {},
                )
                .unwrap();
            game.play(d.result.best.unwrap(), None).unwrap();
        }
        let o = game.outcome();
        assert_eq!(
            o.map(|o| o.winner),
            Some(Some(winner)),
            "{fen}: {}",
            game.to_pgn()
        );
    }
}
