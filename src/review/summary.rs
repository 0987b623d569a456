//! A finished review in two or three sentences: who was better until the turning point (the
//! flagged move that cost most), what that move did (see [`super::why`]), how the game ended
//! against that, and each side's accuracy. "White was better until 23. Nxe5??, which hangs the
//! knight on e5. Black won. Accuracy: White 71.2%, Black 84.0%."

use shakmaty::Color;

use super::Review;
use super::judge::{Judgement, winning_chances};
use super::why::why;
use crate::pgn::numbered_san;

/// White's winning chances (-1 to 1) under which neither side is called better.
const LEVEL: f64 = 0.2;

/// The summary of `review`, once every position is known.
pub fn summary(review: &Review) -> Option<String> {
    if !review.is_complete() {
        return None;
    }
    let game = &review.game;
    let mut out = Vec::new();
    match turning_point(review) {
        Some(i) => {
            let mover = review.mover(i);
            let before = winning_chances(review.eval(i)?);
            let who = if before.abs() < LEVEL {
                "The game was level".to_string()
            } else {
                let better = if before > 0.0 {
                    Color::White
                } else {
                    Color::Black
                };
                format!("{} was better", side(better))
            };
            let played = numbered_san(game.position_at(i), &game.moves()[i..=i]);
            let (judgement, _) = review.judgement(i)?;
            // The reason without its line: the move itself shows the line.
            let what = why(review, i)
                .filter(|w| w.concrete())
                .map(|w| clause(&w.text))
                .unwrap_or_default();
            out.push(format!("{who} until {played}{}{what}.", judgement.symbol()));
            out.push(ending(game.outcome().map(|o| o.winner), !mover));
        }
        None => out.push("Neither side made a mistake.".to_string()),
    }
    if let [Some(w), Some(b)] = review.accuracy() {
        out.push(format!("Accuracy: White {w:.1}%, Black {b:.1}%."));
    }
    Some(out.join(" "))
}

/// The reason as a clause after the move, without its line (the move itself shows it):
/// `, which hangs the knight on e5`. A missed move that says what it does reads as the move
/// not played (`, instead of 36... d2, which runs the d-pawn to d2`), not a second `which`.
fn clause(reason: &str) -> String {
    let short = reason.split(": ").next().unwrap_or(reason);
    let short = short.split(" after ").next().unwrap_or(short);
    match short.strip_prefix("misses ") {
        Some(rest) if rest.contains(", which ") => format!(", instead of {rest}"),
        _ => format!(", which {short}"),
    }
}

/// The flagged move (a mistake or a blunder) that lost its side the most winning chances.
fn turning_point(review: &Review) -> Option<usize> {
    review
        .flagged()
        .into_iter()
        .filter(|&i| {
            review
                .judgement(i)
                .is_some_and(|(j, _)| j >= Judgement::Mistake)
        })
        .max_by(|&a, &b| lost(review, a).total_cmp(&lost(review, b)))
}

/// The winning chances move `i` lost its side.
fn lost(review: &Review, i: usize) -> f64 {
    let (Some(before), Some(after)) = (review.eval(i), review.eval(i + 1)) else {
        return 0.0;
    };
    review.mover(i).fold_wb(1.0, -1.0) * (winning_chances(before) - winning_chances(after))
}

/// How the game ended against the side the turning point helped: `Black won.`, `Black could
/// not make it count: a draw.`, `White came back and won.`
fn ending(winner: Option<Option<Color>>, helped: Color) -> String {
    match winner {
        Some(Some(w)) if w == helped => format!("{} won.", side(w)),
        Some(Some(w)) => format!("{} came back and won.", side(w)),
        Some(None) => format!("{} could not make it count: a draw.", side(helped)),
        None => "The game was not finished.".to_string(),
    }
}

/// `White` or `Black`.
fn side(c: Color) -> &'static str {
    c.fold_wb("White", "Black")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::review::analyse::PositionEval;
    use crate::review::judge::Eval;

    #[test]
    fn a_missed_move_that_says_what_it_does_reads_as_the_move_not_played() {
        assert_eq!(
            clause("misses 36... d2, which runs the d-pawn to d2, its seventh rank"),
            ", instead of 36... d2, which runs the d-pawn to d2, its seventh rank"
        );
        assert_eq!(
            clause("misses a passed b-pawn: 24. Rxd4 Ra8 25. axb7"),
            ", which misses a passed b-pawn"
        );
        assert_eq!(
            clause("loses the knight after 8... Qxd5 9. Nf3"),
            ", which loses the knight"
        );
    }

    #[test]
    fn the_turning_point_is_named_with_why_and_the_end_and_accuracies_follow() {
        let game = Game::from_pgn("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0").unwrap();
        let mut review = Review::new(game, 100);
        review.book_plies = 0;
        let evals = [
            (Eval::Cp(30), "e2e4"),
            (Eval::Cp(30), "e7e5"),
            (Eval::Cp(30), "d1h5"),
            (Eval::Cp(0), "b8c6"),
            (Eval::Cp(20), "f1c4"),
            (Eval::Cp(20), "g7g6"),
            (Eval::Mate(1), "h5f7"),
            (Eval::Checkmate(Color::White), ""),
        ];
        for (ply, (eval, uci)) in evals.into_iter().enumerate() {
            let pos = review.game.position_at(ply).clone();
            let line = uci
                .parse::<shakmaty::uci::UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .into_iter()
                .collect();
            review.evals[ply] = Some(PositionEval {
                eval,
                line,
                depth: 10,
            });
        }
        let text = summary(&review).unwrap();
        assert!(
            text.starts_with(
                "The game was level until 3... Nf6??, which allows mate in 1. White won. Accuracy: \
                 White"
            ),
            "{text}"
        );
        // Not before the review is done.
        review.evals[3] = None;
        assert_eq!(summary(&review), None);
    }
}
