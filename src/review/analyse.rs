//! Searching every position of a game, on every core: each worker has its own engine and takes
//! the next position not yet taken, and each result is reported as it comes, so a screen can
//! fill in while the rest is searched.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;

use crossbeam_channel::unbounded;
use shakmaty::{Chess, Color, Move, Position};

use super::judge::{self, Eval};
use super::theory;
use crate::engine::{Config, Control, Info, Limits, Reported, report};
use crate::external::{EngineSpec, External};
use crate::game::Game;
use crate::player::{Known, Player};
use crate::tablebase::{RootMove, Tablebases, Wdl};

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
    /// Milliseconds per position on the first pass; a move whose verdict is in doubt has the
    /// positions on both sides of it searched [`DOUBT_FACTOR`] times as long again.
    pub movetime_ms: u64,
    /// Worker threads (each with its own engine).
    pub threads: usize,
    /// Tablebases for the search (answered before any engine is asked).
    pub tablebases: Option<Arc<Tablebases>>,
    /// Another UCI engine to search with instead of Knightfall's own (one process a worker).
    pub engine: Option<EngineSpec>,
}

impl Settings {
    /// The name a review searched with these settings goes by (see [`super::Review::engine`]).
    pub fn engine_name(&self) -> Option<String> {
        self.engine.as_ref().map(|spec| spec.name.clone())
    }
}

/// One worker's engine: Knightfall's own, or another engine's process (`None` once it has
/// failed, until it is started again between passes).
enum Worker {
    Own(Player),
    Other(Option<External>),
}

impl Worker {
    /// Position `ply` of `game` evaluated as [`evaluate`] does, by this worker's engine.
    fn evaluate(
        &mut self,
        game: &Game,
        ply: usize,
        keys: &[u64],
        limits: &Limits,
        cancel: &Control,
        settings: &Settings,
    ) -> Result<PositionEval, String> {
        match self {
            Worker::Own(player) => evaluate(
                player,
                game.position_at(ply),
                &keys[..ply],
                limits,
                cancel,
                &mut |_| {},
            ),
            Worker::Other(slot) => {
                let Some(engine) = slot.as_mut() else {
                    let name = settings.engine_name().unwrap_or_default();
                    return Err(format!("{name} is not running"));
                };
                let found = evaluate_external(engine, game, ply, settings, limits, cancel);
                if found.is_err() {
                    // Started again before the next pass; the rest of this one is missing.
                    *slot = None;
                }
                found
            }
        }
    }
}

/// Position `ply` of `game` as another engine sees it in `limits` (see [`evaluate_other`]).
fn evaluate_external(
    engine: &mut External,
    game: &Game,
    ply: usize,
    settings: &Settings,
    limits: &Limits,
    cancel: &Control,
) -> Result<PositionEval, String> {
    evaluate_other(
        engine,
        game.start_fen(),
        &game.moves()[..ply],
        game.position_at(ply),
        settings.tablebases.as_deref(),
        limits,
        cancel,
    )
}

/// `pos` (reached by `moves` from `start_fen`, or the usual start) as another engine sees it
/// within `limits`: the board's result or the verdict of `tables` first, as for Knightfall's
/// own search ([`evaluate`]), so a review and the training's check of an answer by another
/// engine follow the same rules.
pub fn evaluate_other(
    engine: &mut External,
    start_fen: Option<&str>,
    moves: &[Move],
    pos: &Chess,
    tables: Option<&Tablebases>,
    limits: &Limits,
    cancel: &Control,
) -> Result<PositionEval, String> {
    if let Some(eval) = known(pos, tables) {
        return Ok(eval);
    }
    let mut last: Option<Info> = None;
    let best = engine
        .go(start_fen, moves, pos, limits, cancel, &mut |info| {
            if info.multipv <= 1 {
                last = Some(info.clone());
            }
        })
        .map_err(|e| e.to_string())?;
    let info = last.ok_or_else(|| format!("{} gave no evaluation", engine.spec().name))?;
    // The line is the one that led to the move it chose (its last report may be older).
    let line = if info.pv.first() == Some(&best) {
        info.pv
    } else {
        vec![best]
    };
    Ok(PositionEval {
        eval: eval_of(info.score, pos.turn()),
        line,
        depth: info.depth,
    })
}

/// Starts the workers' engines that are not running: on the caller's thread, which outlives
/// them (an engine dies with the thread that started it). Why one could not start, if one
/// could not.
fn start_missing(workers: &mut [Worker], spec: Option<&EngineSpec>) -> Result<(), String> {
    for worker in workers {
        if let (Worker::Other(slot @ None), Some(spec)) = (worker, spec) {
            *slot = Some(External::start(spec).map_err(|e| e.to_string())?);
        }
    }
    Ok(())
}

/// How much longer the second look at a doubtful move's positions is than the first.
pub const DOUBT_FACTOR: u64 = 3;

/// Searches the positions of `game` whose entry in `done` is `None` (all of them, for an empty
/// `done`), calling `on_result(ply, eval)` as each finishes (or `Err` with why its search
/// failed), until all are done or `cancel`'s stop flag is set (which also ends the searches
/// under way).
///
/// Positions the rules of the board or the tablebases decide are answered at once, and those
/// before a book move (see [`theory::book_plies`]) after a search to [`theory::BOOK_DEPTH`]:
/// those moves are not judged, the evaluation is for the graph. The rest are split into one
/// stretch of the game per worker, each searched from its end backwards by an engine that
/// keeps its hash table, so every position starts from what the search of the one after it
/// found. Then the moves the first look calls blunders (see [`judge::claimed_blunder`]), the
/// largest first, and those whose verdict lies near a threshold (see [`judge::close_call`]),
/// the closest first, have both their positions searched again, longer, the later first, for
/// no more time in all than the first look took; a position searched again is reported
/// again.
pub fn analyse(
    game: &Game,
    settings: &Settings,
    done: &[Option<PositionEval>],
    cancel: &Control,
    on_result: &mut dyn FnMut(usize, Result<PositionEval, String>),
) {
    let plies = game.moves().len();
    let mut evals: Vec<Option<PositionEval>> = (0..=plies)
        .map(|i| done.get(i).cloned().flatten())
        .collect();
    let book = theory::book_plies(game);
    let (mut theory, mut todo) = (Vec::new(), Vec::new());
    for (i, slot) in evals.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        match known(game.position_at(i), settings.tablebases.as_deref()) {
            Some(eval) => {
                on_result(i, Ok(eval.clone()));
                *slot = Some(eval);
            }
            None if i < book => theory.push(i),
            None => todo.push(i),
        }
    }
    if todo.is_empty() && theory.is_empty() {
        return;
    }
    let threads = settings.threads.clamp(1, todo.len().max(theory.len()));
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| match settings.engine {
            None => Worker::Own(Player::new(
                Config::default(),
                None,
                settings.tablebases.clone(),
            )),
            Some(_) => Worker::Other(None),
        })
        .collect();
    let first = settings.movetime_ms.max(1);
    // The opening first: it is done in a moment, and the screen fills in from the start.
    let passes = [
        (&theory, Limits::depth(theory::BOOK_DEPTH)),
        (&todo, Limits::movetime(first)),
    ];
    for (k, (plies, limits)) in passes.iter().enumerate() {
        if let Err(why) = start_missing(&mut workers, settings.engine.as_ref()) {
            for &ply in passes[k..].iter().flat_map(|(plies, _)| plies.iter()) {
                on_result(ply, Err(why.clone()));
            }
            return;
        }
        search_all(
            game,
            &mut workers,
            plies,
            limits,
            settings,
            cancel,
            &mut |ply, eval| {
                if let Ok(e) = &eval {
                    evals[ply] = Some(e.clone());
                }
                on_result(ply, eval);
            },
        );
        if cancel.stop.load(Ordering::Relaxed) {
            return;
        }
    }
    // The second look: only positions searched now, so a review finished before costs nothing,
    // the claimed blunders and then the closest calls first, and no longer in all than the
    // first look took.
    let searched: Vec<bool> = (0..=plies)
        .map(|i| todo.binary_search(&i).is_ok())
        .collect();
    let mut calls: Vec<(f64, usize)> = Vec::new();
    // Judged as the review judges them: Knightfall's own on Stockfish's scale.
    let own = settings.engine.is_none();
    for i in book..plies {
        let (Some(before), Some(after)) = (&evals[i], &evals[i + 1]) else {
            continue;
        };
        let mover = game.position_at(i).turn();
        if before.line.first() == game.moves().get(i) {
            continue;
        }
        let (before, after) = (
            judge::judged(before.eval, own),
            judge::judged(after.eval, own),
        );
        // Claimed blunders first, the largest first (below zero), then the close calls, the
        // closest first.
        if let Some(lost) = judge::claimed_blunder(before, after, mover) {
            calls.push((-lost, i));
        } else if let Some(distance) = judge::close_call(before, after, mover) {
            calls.push((distance, i));
        }
    }
    calls.sort_by(|a, b| a.0.total_cmp(&b.0));
    let budget = todo.len() / DOUBT_FACTOR as usize;
    let mut again: Vec<usize> = Vec::new();
    for (_, i) in calls {
        let new: Vec<usize> = [i, i + 1]
            .into_iter()
            .filter(|&p| searched[p] && !again.contains(&p))
            .collect();
        if again.len() + new.len() > budget {
            break;
        }
        again.extend(new);
    }
    again.sort_unstable();
    if !again.is_empty() && start_missing(&mut workers, settings.engine.as_ref()).is_ok() {
        let limits = Limits::movetime(first * DOUBT_FACTOR);
        search_all(
            game,
            &mut workers,
            &again,
            &limits,
            settings,
            cancel,
            on_result,
        );
    }
}

/// What a position is without a search: the result on the board, or the tablebases' verdict
/// with their best move.
fn known(pos: &Chess, tables: Option<&Tablebases>) -> Option<PositionEval> {
    if let Some(eval) = terminal(pos) {
        return Some(PositionEval {
            eval,
            line: Vec::new(),
            depth: 0,
        });
    }
    let best = tables?.root_move(pos)?;
    Some(PositionEval {
        eval: tablebase_eval(&best, pos.turn()),
        line: vec![best.mv],
        depth: 0,
    })
}

/// The tables' verdict on a position whose best move is `best`, `turn` to move, from White's
/// view: a win or loss as its search score reads, a draw (the fifty-move rule counted) as one.
fn tablebase_eval(best: &RootMove, turn: Color) -> Eval {
    match best.wdl {
        Wdl::Win | Wdl::Loss => eval_of(crate::player::tablebase_score(best), turn),
        Wdl::CursedWin => Eval::TablebaseDraw(Some(turn)),
        Wdl::BlessedLoss => Eval::TablebaseDraw(Some(!turn)),
        Wdl::Draw => Eval::TablebaseDraw(None),
    }
}

/// One position as the review evaluates it: the result on the board or the verdict of
/// `player`'s tablebases when they have one, else `player`'s search within `limits`.
/// `history` holds the repetition keys of the positions before `pos`. The training judges an
/// answer to a mistake here too, so that it is held to the very rules the review flagged the
/// mistake by.
pub fn evaluate(
    player: &mut Player,
    pos: &Chess,
    history: &[u64],
    limits: &Limits,
    cancel: &Control,
    on_info: &mut dyn FnMut(&crate::engine::Info),
) -> Result<PositionEval, String> {
    let tables = player.engine_mut().tablebases().cloned();
    if let Some(eval) = known(pos, tables.as_deref()) {
        return Ok(eval);
    }
    let decision = player.decide(pos, history, limits, Known::SearchOnly, cancel, on_info)?;
    let result = decision.result;
    Ok(PositionEval {
        eval: eval_of(result.score, pos.turn()),
        line: result.pv,
        depth: result.depth,
    })
}

/// Searches `plies` (ascending) within `limits` each: one stretch per player, each from its
/// end backwards. Each result goes to `on_result` as it comes.
fn search_all(
    game: &Game,
    workers: &mut [Worker],
    plies: &[usize],
    limits: &Limits,
    settings: &Settings,
    cancel: &Control,
    on_result: &mut dyn FnMut(usize, Result<PositionEval, String>),
) {
    // The repetition keys of every position (the ones before position i are keys[..i]).
    let keys = game.keys();
    let count = workers.len().min(plies.len());
    let (tx, rx) = unbounded::<(usize, Result<PositionEval, String>)>();
    thread::scope(|scope| {
        for (k, worker) in workers.iter_mut().take(count).enumerate() {
            let stretch = &plies[k * plies.len() / count..(k + 1) * plies.len() / count];
            let (tx, keys) = (tx.clone(), &keys);
            // A worker the system cannot start leaves its stretch unsearched; the review says
            // which positions are missing.
            let _ = thread::Builder::new()
                .name("knightfall-review".into())
                .stack_size(crate::engine::SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    for &ply in stretch.iter().rev() {
                        if cancel.stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let eval = worker.evaluate(game, ply, keys, limits, cancel, settings);
                        if cancel.stop.load(Ordering::Relaxed) {
                            break;
                        }
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
