//! Reviews kept on disk: one small text file per game and search time, named by a hash of the
//! start position, the moves, the time per position and the engine version, so reopening a
//! reviewed game is instant and a changed game or engine is searched afresh. A damaged file is
//! ignored line by line (each line is checked against the game).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Position};

use crate::review::Review;
use crate::review::analyse::PositionEval;
use crate::review::judge::Eval;

/// Cache files larger than this are not read (a review of a 500-move game is under 200 KB).
const MAX_BYTES: u64 = 4 << 20;

/// The cache file for `review` in `dir`.
pub fn path(dir: &Path, review: &Review) -> PathBuf {
    // The second field is the file's layout: 2 keeps the move played scored in the same search,
    // which the verdicts need, so a file written before it is searched afresh.
    let mut text = format!(
        "{} 2 {} {}",
        env!("CARGO_PKG_VERSION"),
        review.movetime_ms,
        review.game.start_fen().unwrap_or("startpos")
    );
    for m in review.game.moves() {
        let _ = write!(text, " {}", m.to_uci(CastlingMode::Standard));
    }
    dir.join(format!("{:016x}.tsv", fnv1a(text.as_bytes())))
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

/// Fills in `review`'s unknown positions from its cache file in `dir`; returns how many.
pub fn load(dir: &Path, review: &mut Review) -> usize {
    let file = path(dir, review);
    let small = std::fs::metadata(&file).is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES);
    let Some(text) = small.then(|| std::fs::read_to_string(&file).ok()).flatten() else {
        return 0;
    };
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
    // The move played, scored in the same search (a file from before it was kept has none).
    let played = match fields.next() {
        None | Some("") | Some("-") => None,
        Some(text) => {
            let (kind, value) = text.split_once(':')?;
            Some(parse_eval(kind, value)?)
        }
    };
    Some((
        ply,
        PositionEval {
            eval,
            line: line_moves,
            depth,
            played,
        },
    ))
}

/// An evaluation as `save` writes it: its kind and value.
fn parse_eval(kind: &str, value: &str) -> Option<Eval> {
    Some(match kind {
        // A tablebase win cached as its search score reads as the result it is.
        "cp" => Eval::from_cp(value.parse().ok()?),
        "tb" if value == "white" => Eval::Tablebase(Color::White),
        "tb" if value == "black" => Eval::Tablebase(Color::Black),
        "mate" => Eval::Mate(value.parse().ok()?),
        "checkmate" if value == "white" => Eval::Checkmate(Color::White),
        "checkmate" if value == "black" => Eval::Checkmate(Color::Black),
        _ => return None,
    })
}

/// The kind and value `parse_eval` reads back.
fn eval_text(eval: Eval) -> (&'static str, String) {
    match eval {
        Eval::Cp(cp) => ("cp", cp.to_string()),
        Eval::Mate(n) => ("mate", n.to_string()),
        Eval::Checkmate(c) => ("checkmate", c.fold_wb("white", "black").to_string()),
        Eval::Tablebase(c) => ("tb", c.fold_wb("white", "black").to_string()),
    }
}

/// Writes what `review` knows to its cache file in `dir`.
pub fn save(dir: &Path, review: &Review) -> anyhow::Result<()> {
    let mut text = String::new();
    for (ply, e) in review.evals.iter().enumerate() {
        let Some(e) = e else { continue };
        let (kind, value) = eval_text(e.eval);
        let played = match e.played {
            Some(p) => {
                let (kind, value) = eval_text(p);
                format!("{kind}:{value}")
            }
            None => "-".to_string(),
        };
        let moves: Vec<String> = e
            .line
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        let _ = writeln!(
            text,
            "{ply}\t{kind}\t{value}\t{}\t{}\t{played}",
            e.depth,
            moves.join(" ")
        );
    }
    std::fs::create_dir_all(dir)?;
    super::write_atomic(&path(dir, review), &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn the_move_played_and_its_score_come_back_and_an_older_line_reads_without_it() {
        let mut game = Game::new();
        for m in ["e2e4", "e7e5"] {
            game.play_text(m, None).unwrap();
        }
        let mut review = Review::new(game.clone(), 100);
        let e4 = review.game.moves()[0];
        let d4 = "d2d4"
            .parse::<UciMove>()
            .unwrap()
            .to_move(review.game.position_at(0))
            .unwrap();
        review.evals[0] = Some(PositionEval {
            eval: Eval::Cp(30),
            line: vec![d4],
            depth: 12,
            played: Some(Eval::Mate(-3)),
        });
        review.evals[1] = Some(PositionEval {
            eval: Eval::Tablebase(Color::Black),
            line: Vec::new(),
            depth: 9,
            played: None,
        });
        let dir = std::env::temp_dir().join(format!("knightfall-cache-{}", std::process::id()));
        save(&dir, &review).unwrap();
        let mut back = Review::new(game.clone(), 100);
        assert_eq!(load(&dir, &mut back), 2);
        assert_eq!(back.evals[0], review.evals[0]);
        assert_eq!(back.evals[1], review.evals[1]);
        // A line as files had it before the move played was kept: five fields.
        let old = Review::new(game, 100);
        let (ply, e) = parse_line(&old, "0\tcp\t25\t11\te2e4").unwrap();
        assert_eq!((ply, e.played, e.line), (0, None, vec![e4]));
        assert!(parse_line(&old, "0\tcp\t25\t11\te2e4\tcp:x").is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
