//! Reviews kept on disk: one small text file per game and search time, named by a hash of the
//! start position, the moves, the time per position and the engine version, so reopening a
//! reviewed game is instant and a changed game or engine is searched afresh. A damaged file is
//! ignored line by line (each line is checked against the game). A review at a time other than
//! the default also leaves a note of that time (`.latest`), so that what asks for a game's
//! review at the default (the training's mistakes, the review list) finds it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Position};

use crate::game::Game;
use crate::review::Review;
use crate::review::analyse::PositionEval;
use crate::review::judge::Eval;

/// Cache files larger than this are not read (a review of a 500-move game is under 200 KB).
const MAX_BYTES: u64 = 4 << 20;

/// The cache file for `review` in `dir`.
pub fn path(dir: &Path, review: &Review) -> PathBuf {
    let text = format!("{} {}", review.movetime_ms, game_text(review));
    dir.join(format!("{:016x}.tsv", fnv1a(text.as_bytes())))
}

/// The file in `dir` naming the time per position of the game's latest review at a time other
/// than the default.
fn latest_path(dir: &Path, review: &Review) -> PathBuf {
    dir.join(format!(
        "{:016x}.latest",
        fnv1a(game_text(review).as_bytes())
    ))
}

/// The engine (Knightfall's version, or the other engine's name), the start position and the
/// moves.
fn game_text(review: &Review) -> String {
    let engine = match &review.engine {
        Some(name) => format!("engine:{name}"),
        None => env!("CARGO_PKG_VERSION").to_string(),
    };
    let mut text = format!("{engine} {}", review.game.start_fen().unwrap_or("startpos"));
    for m in review.game.moves() {
        let _ = write!(text, " {}", m.to_uci(CastlingMode::Standard));
    }
    text
}

/// FNV-1a, 64 bits: stable across builds, unlike the standard library's hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `game`'s review as far as the cache in `dir` knows it, asked for at `movetime_ms` (see
/// [`load`] for the time it may take instead). The review command, the review screen and the
/// training all read reviews through this, so a review one of them made is the others' too.
pub fn cached(dir: &Path, game: Game, movetime_ms: u64) -> Review {
    let mut review = Review::new(game, movetime_ms);
    load(dir, &mut review);
    review
}

/// The default search times of earlier versions: a game reviewed then is not searched again
/// at today's default, and its mistakes stay on the training list.
const EARLIER_DEFAULTS_MS: [u64; 1] = [1000];

/// Fills in `review`'s unknown positions from its cache file in `dir`; returns how many. A
/// review at today's default time that was never cached is looked for at the earlier
/// defaults and at the time of the game's latest review at another time, and when one is
/// found `review` takes its time per position.
pub fn load(dir: &Path, review: &mut Review) -> usize {
    let filled = load_exact(dir, review);
    if filled > 0 || review.movetime_ms != crate::review::DEFAULT_MOVETIME_MS {
        return filled;
    }
    for earlier in EARLIER_DEFAULTS_MS
        .into_iter()
        .chain(latest_time(dir, review))
    {
        review.movetime_ms = earlier;
        let filled = load_exact(dir, review);
        if filled > 0 {
            return filled;
        }
    }
    review.movetime_ms = crate::review::DEFAULT_MOVETIME_MS;
    0
}

/// The time per position that the game's `.latest` note names, if it is readable.
fn latest_time(dir: &Path, review: &Review) -> Option<u64> {
    read_small(&latest_path(dir, review), 32)?
        .trim()
        .parse()
        .ok()
}

/// The text of `file` when it is a regular file of at most `max` bytes.
fn read_small(file: &Path, max: u64) -> Option<String> {
    super::read::read_checked(file, max)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
}

fn load_exact(dir: &Path, review: &mut Review) -> usize {
    let Some(text) = read_small(&path(dir, review), MAX_BYTES) else {
        return 0;
    };
    fill(review, &text)
}

/// Fills in `review`'s unknown positions from `text` (as [`text`] writes it), each line checked
/// against the game; returns how many. The library keeps its reviews in the same words.
pub(crate) fn fill(review: &mut Review, text: &str) -> usize {
    let mut filled = 0;
    for line in text.lines() {
        if let Some((ply, eval)) = parse_line(review, line)
            && review.evals[ply].is_none()
        {
            review.evals[ply] = Some(eval);
            filled += 1;
        }
    }
    filled
}

fn parse_line(review: &Review, line: &str) -> Option<(usize, PositionEval)> {
    let mut fields = line.split('\t');
    let ply: usize = fields.next()?.parse().ok()?;
    if ply >= review.evals.len() {
        return None;
    }
    let eval = parse_eval(fields.next()?, fields.next()?)?;
    let depth = fields.next()?.parse().ok()?;
    let mut pos = review.game.position_at(ply).clone();
    let mut line_moves = Vec::new();
    for text in fields.next().unwrap_or("").split_whitespace() {
        let m = text.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
        line_moves.push(m);
    }
    Some((
        ply,
        PositionEval {
            eval,
            line: line_moves,
            depth,
        },
    ))
}

/// An evaluation from its kind and value, as [`eval_words`] gives them.
pub(crate) fn parse_eval(kind: &str, value: &str) -> Option<Eval> {
    Some(match kind {
        // A tablebase win cached as its search score reads as the result it is.
        "cp" => Eval::from_cp(value.parse().ok()?),
        "tb" if value == "white" => Eval::Tablebase(Color::White),
        "tb" if value == "black" => Eval::Tablebase(Color::Black),
        "tbdraw" if value == "none" => Eval::TablebaseDraw(None),
        "tbdraw" if value == "white" => Eval::TablebaseDraw(Some(Color::White)),
        "tbdraw" if value == "black" => Eval::TablebaseDraw(Some(Color::Black)),
        "mate" => Eval::Mate(value.parse().ok()?),
        "checkmate" if value == "white" => Eval::Checkmate(Color::White),
        "checkmate" if value == "black" => Eval::Checkmate(Color::Black),
        _ => return None,
    })
}

/// An evaluation's kind and value in the cache's words: `cp 35`, `mate -3`, `tb white`.
pub(crate) fn eval_words(eval: Eval) -> (&'static str, String) {
    match eval {
        Eval::Cp(cp) => ("cp", cp.to_string()),
        Eval::Mate(n) => ("mate", n.to_string()),
        Eval::Checkmate(c) => ("checkmate", c.fold_wb("white", "black").to_string()),
        Eval::Tablebase(c) => ("tb", c.fold_wb("white", "black").to_string()),
        Eval::TablebaseDraw(cursed) => (
            "tbdraw",
            cursed
                .map_or("none", |c| c.fold_wb("white", "black"))
                .to_string(),
        ),
    }
}

/// What `review` knows, a line per known position: its ply, the evaluation's kind and value,
/// the depth and the engine's line in UCI.
pub(crate) fn text(review: &Review) -> String {
    let mut text = String::new();
    for (ply, e) in review.evals.iter().enumerate() {
        let Some(e) = e else { continue };
        let (kind, value) = eval_words(e.eval);
        let moves: Vec<String> = e
            .line
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        let _ = writeln!(
            text,
            "{ply}\t{kind}\t{value}\t{}\t{}",
            e.depth,
            moves.join(" ")
        );
    }
    text
}

/// Writes what `review` knows to its cache file in `dir`.
pub fn save(dir: &Path, review: &Review) -> anyhow::Result<()> {
    let text = text(review);
    std::fs::create_dir_all(dir)?;
    super::write_atomic(&path(dir, review), &text)?;
    if review.movetime_ms != crate::review::DEFAULT_MOVETIME_MS {
        super::write_atomic(
            &latest_path(dir, review),
            &format!("{}\n", review.movetime_ms),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::DEFAULT_MOVETIME_MS;

    fn reviewed(movetime_ms: u64) -> Review {
        let mut game = Game::new();
        let pos = game.position().clone();
        let mv = pos.legal_moves()[0];
        game.play(mv, None).unwrap();
        let mut review = Review::new(game, movetime_ms);
        for e in &mut review.evals {
            *e = Some(PositionEval {
                eval: Eval::Cp(20),
                line: Vec::new(),
                depth: 12,
            });
        }
        review
    }

    #[test]
    fn a_review_cached_at_an_earlier_default_is_found_at_today_s() {
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), &reviewed(1000)).unwrap();
        let mut today = Review::new(reviewed(1000).game, DEFAULT_MOVETIME_MS);
        assert_eq!(load(dir.path(), &mut today), 2);
        assert_eq!(today.movetime_ms, 1000);
        // Another time asked for on purpose is searched afresh.
        let mut other = Review::new(reviewed(1000).game, 400);
        assert_eq!(load(dir.path(), &mut other), 0);
        // A review at a time of the player's choosing is found at the default too, taking
        // that time; one at the default again is found first.
        save(dir.path(), &reviewed(400)).unwrap();
        let mut chosen = Review::new(reviewed(400).game, DEFAULT_MOVETIME_MS);
        assert_eq!(load(dir.path(), &mut chosen), 2);
        assert_eq!(chosen.movetime_ms, 1000, "the earlier default comes first");
        let dir = tempfile::tempdir().unwrap();
        save(dir.path(), &reviewed(400)).unwrap();
        let mut chosen = Review::new(reviewed(400).game, DEFAULT_MOVETIME_MS);
        assert_eq!(load(dir.path(), &mut chosen), 2);
        assert_eq!(chosen.movetime_ms, 400);
        save(dir.path(), &reviewed(DEFAULT_MOVETIME_MS)).unwrap();
        let mut again = Review::new(reviewed(400).game, DEFAULT_MOVETIME_MS);
        assert_eq!(load(dir.path(), &mut again), 2);
        assert_eq!(again.movetime_ms, DEFAULT_MOVETIME_MS);
        // Nothing cached at all: the default stays.
        let empty = tempfile::tempdir().unwrap();
        let mut fresh = Review::new(reviewed(1000).game, DEFAULT_MOVETIME_MS);
        assert_eq!(load(empty.path(), &mut fresh), 0);
        assert_eq!(fresh.movetime_ms, DEFAULT_MOVETIME_MS);
    }

    #[test]
    fn a_tablebase_draw_reads_back_as_one_cursed_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let mut review = reviewed(1000);
        let draws = [
            Eval::TablebaseDraw(Some(Color::Black)),
            Eval::TablebaseDraw(None),
        ];
        for (slot, eval) in review.evals.iter_mut().zip(draws) {
            slot.as_mut().unwrap().eval = eval;
        }
        save(dir.path(), &review).unwrap();
        let mut back = Review::new(review.game.clone(), 1000);
        assert_eq!(load(dir.path(), &mut back), 2);
        assert_eq!(back.eval(0), Some(draws[0]));
        assert_eq!(back.eval(1), Some(draws[1]));
        assert_eq!(draws[0].display(), "TB draw (cursed win)");
    }
}
