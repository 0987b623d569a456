//! Searching every position of a game, on every core: each worker has its own engine and takes
//! the next position not yet taken, and each result is reported as it comes, so a screen can
//! fill in while the rest is searched.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use crossbeam_channel::unbounded;
use shakmaty::{Chess, Color, Move, Position};

use super::judge::Eval;
use crate::engine::{Config, Control, Limits, Reported, report};
use crate::game::Game;
use crate::player::{Known, Player};
use crate::tablebase::Tablebases;

/// What the search found in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionEval {
    /// The evaluation, from White's view.
    pub eval: Eval,
    /// The best line from here (empty when the game is over in this position).
    pub line: Vec<Move>,
    /// The depth searched (0 when no search was needed).
    pub depth: u32,
}

/// The evaluation of a position where the game is over by the rules of the board, if it is.
pub fn terminal(pos: &Chess) -> Option<Eval> {
    if pos.is_checkmate() {
        Some(Eval::Checkmate(!pos.turn()))
    } else if pos.is_stalemate() || pos.is_insufficient_material() {
        Some(Eval::Cp(0))
    } else {
        None
    }
}

/// A search score from the side to move's view as an evaluation from White's view.
pub(crate) fn eval_of(score: i32, turn: Color) -> Eval {
    let white = turn.fold_wb(score, -score);
    match report(white) {
        Reported::Cp(cp) => Eval::from_cp(cp),
        Reported::Mate(n) => Eval::Mate(n),
    }
}

/// How the positions are searched.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Milliseconds per position.
    pub movetime_ms: u64,
    /// Worker threads (each with its own engine).
    pub threads: usize,
    /// Tablebases for the search.
    pub tablebases: Option<Arc<Tablebases>>,
}

/// Searches the positions of `game` whose entry in `done` is `None` (all of them, for an empty
/// `done`), calling `on_result(ply, eval)` as each finishes (or `Err` with why its search
/// failed), until all are done or `cancel`'s stop flag is set (which also ends the searches
/// under way). The positions are taken from the end of the game backwards, one worker thread
/// per `settings.threads`.
pub fn analyse(
    game: &Game,
    settings: &Settings,
    done: &[Option<PositionEval>],
    cancel: &Control,
    on_result: &mut dyn FnMut(usize, Result<PositionEval, String>),
) {
    let plies = game.moves().len();
    let mut todo: Vec<usize> = (0..=plies)
        .rev()
        .filter(|&i| done.get(i).is_none_or(Option::is_none))
        .collect();
    // Positions decided by the rules of the board need no search.
    todo.retain(|&i| match terminal(game.position_at(i)) {
        Some(eval) => {
            on_result(
                i,
                Ok(PositionEval {
                    eval,
                    line: Vec::new(),
                    depth: 0,
                }),
            );
            false
        }
        None => true,
    });
    if todo.is_empty() {
        return;
    }
    // The repetition keys of every position (the ones before position i are keys[..i]).
    let keys = game.keys();
    let next = AtomicUsize::new(0);
    let (tx, rx) = unbounded::<(usize, Result<PositionEval, String>)>();
    let threads = settings.threads.clamp(1, todo.len());
    thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (todo, next) = (&todo, &next);
            // A worker the system cannot start leaves its share of the positions to the others.
            let _ = thread::Builder::new()
                .name("knightfall-review".into())
                .stack_size(crate::engine::SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut player = Player::new(
                        Config {
                            move_overhead_ms: 0,
                            ..Config::default()
                        },
                        None,
                        settings.tablebases.clone(),
                    );
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= todo.len() || cancel.stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let ply = todo[k];
                        let pos = game.position_at(ply);
                        let limits = Limits::movetime(settings.movetime_ms.max(1));
                        let decided = player.decide(
                            pos,
                            &keys[..ply],
                            &limits,
                            Known::SearchOnly,
                            cancel,
                            &mut |_| {},
                        );
                        if cancel.stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let eval = decided.map(|decision| {
                            let result = decision.result;
                            PositionEval {
                                eval: eval_of(result.score, pos.turn()),
                                line: result.pv,
                                depth: result.depth,
                            }
                        });
                        if tx.send((ply, eval)).is_err() {
                            break;
                        }
                    }
                });
        }
        drop(tx);
        for (ply, eval) in rx {
            on_result(ply, eval);
        }
    });
}
