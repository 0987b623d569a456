//! A review from the evaluations a file already carries: lichess writes its analysis into the
//! export as `[%eval 0.17]` (`[%eval #-3]`, a mate) after every move, so such a game is reviewed
//! at once, without a search. Only a game evaluated throughout is: one evaluated in part would
//! judge some moves and not others.

use super::Review;
use super::analyse::{PositionEval, terminal};
use super::judge::Eval;
use crate::game::Game;
use crate::pgn::raw::RawGame;

/// The `[%eval …]` of `comment`, from White's view, if it holds one: pawns (`-1.35`) or a
/// mate (`#3`, `#-3`), with the search depth some exports add after a comma left out.
pub fn read_eval(comment: &str) -> Option<Eval> {
    let rest = &comment[comment.find("[%eval")? + 6..];
    let value = rest[..rest.find(']')?].trim();
    let value = value.split(',').next()?.trim();
    if let Some(mate) = value.strip_prefix('#') {
        let n: i32 = mate.parse().ok()?;
        return (n != 0).then_some(Eval::Mate(n));
    }
    let pawns: f64 = value.parse().ok()?;
    pawns
        .is_finite()
        .then(|| Eval::Cp((pawns * 100.0).round().clamp(-1.0e6, 1.0e6) as i32))
}

/// The review that the evaluations of `raw` (the file's text of `game`) make, when every
/// position after a move has one: a position where the game is over by the rules takes the
/// board's verdict (lichess writes none after a mate), and the last position may lack one.
/// `None` when the game has no moves or any other position lacks its evaluation.
pub fn review(raw: &RawGame, game: &Game) -> Option<Review> {
    let plies = game.moves().len();
    if plies == 0 {
        return None;
    }
    let mut after: Vec<Option<Eval>> = raw
        .main_line()
        .take(plies)
        .enumerate()
        .map(|(i, m)| {
            terminal(game.position_at(i + 1))
                .or_else(|| m.comments.iter().rev().find_map(|c| read_eval(c)))
        })
        .collect();
    // An export may stop evaluating at the end (a game resigned or lost on time before the
    // analysis reached it): that position is taken as the one before it, so the last move is
    // judged as costing nothing rather than left unjudged.
    if after.len() == plies && after[plies - 1].is_none() && plies > 1 {
        after[plies - 1] = after[plies - 2];
    }
    let after: Vec<Eval> = after.into_iter().collect::<Option<_>>()?;
    if after.len() != plies {
        return None;
    }
    // The file gives no evaluation of the start: the one after the first move stands for it.
    // A constant (the usual +0.2) would be wrong from a set-up position, and the first move,
    // judged as costing nothing, is almost always opening theory, which is never judged.
    let start = after[0];
    let mut review = Review::new(game.clone(), 0);
    for (ply, eval) in std::iter::once(start).chain(after).enumerate() {
        review.evals[ply] = Some(PositionEval {
            eval,
            line: Vec::new(),
            depth: 0,
        });
    }
    Some(review)
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;
    use crate::pgn::raw::{Keep, first};

    fn reviewed(text: &str) -> Option<Review> {
        let raw = first(text, Keep::MainLine).unwrap();
        let game = Game::from_raw(&raw).unwrap();
        review(&raw, &game)
    }

    #[test]
    fn an_eval_reads_as_pawns_or_a_mate() {
        assert_eq!(read_eval("[%eval 0.17] [%clk 0:03:00]"), Some(Eval::Cp(17)));
        assert_eq!(read_eval(" [%eval -1.5] "), Some(Eval::Cp(-150)));
        assert_eq!(read_eval("[%eval #-3]"), Some(Eval::Mate(-3)));
        assert_eq!(read_eval("[%eval #2]"), Some(Eval::Mate(2)));
        assert_eq!(read_eval("[%eval 0.31,22]"), Some(Eval::Cp(31)));
        // A cutechess comment's score is not an [%eval].
        assert_eq!(read_eval("-0.22/4 2.7s"), None);
        assert_eq!(read_eval("[%clk 0:03:00]"), None);
        assert_eq!(read_eval("[%eval x]"), None);
    }

    #[test]
    fn a_game_evaluated_throughout_is_reviewed_and_the_mate_at_the_end_is_the_boards() {
        let review = reviewed(
            "1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%eval 0.25] } 2. Qh5 { [%eval 0.1] } \
             2... Nc6 { [%eval 0.15] } 3. Bc4 { [%eval 0.1] } 3... Nf6 { [%eval #1] } \
             4. Qxf7# { [%clk 0:02:55] } 1-0",
        )
        .unwrap();
        assert!(review.is_complete());
        assert_eq!(review.eval(0), Some(Eval::Cp(20)), "the start as the first");
        assert_eq!(review.eval(6), Some(Eval::Mate(1)));
        assert_eq!(review.eval(7), Some(Eval::Checkmate(Color::White)));
        // 3...Nf6 allowed mate in one: a blunder.
        let (judgement, _) = review.judgement(5).unwrap();
        assert_eq!(judgement, crate::review::judge::Judgement::Blunder);
        assert!(review.accuracy()[1].is_some());
        // Written back, it names the file's evaluations, not a search of 0 ms.
        let pgn = review.annotated_pgn();
        assert!(
            pgn.contains("[Annotator \"the file's evaluations\"]"),
            "{pgn}"
        );
    }

    #[test]
    fn a_last_position_without_one_is_as_the_one_before_and_a_gap_elsewhere_is_no_review() {
        let review = reviewed("1. d4 { [%eval 0.1] } d5 { [%eval 0.2] } 2. c4 0-1").unwrap();
        assert_eq!(review.eval(3), Some(Eval::Cp(20)));
        assert!(reviewed("1. d4 { [%eval 0.1] } d5 2. c4 { [%eval 0.2] } *").is_none());
        assert!(reviewed("1. d4 { [%clk 0:03:00] } d5 { [%clk 0:03:00] } *").is_none());
        assert!(reviewed("1. d4 *").is_none(), "one move, not evaluated");
        assert!(reviewed("*").is_none());
    }
}
