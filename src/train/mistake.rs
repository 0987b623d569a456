//! A person's own mistakes as drills: each mistake or blunder a review found in a move a
//! person made ("Human" in the game, or the name in the settings) becomes the position before
//! it, with the move played, the engine's best move and the evaluation. A drill is solved by
//! the engine's move, or by any move the review's rules would not flag against that
//! evaluation.

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::game::Game;
use crate::review::Review;
use crate::review::judge::{self, Eval, Judgement};

/// The name Knightfall gives a person in a game's PGN.
pub const PERSON: &str = "Human";

/// Whether a game's player `name` is you: "Human", or one of `yours` (the settings' `name` and
/// accounts) in any case, as usernames go.
pub fn is_you(name: &str, yours: &[String]) -> bool {
    let name = name.trim();
    name == PERSON
        || yours.iter().any(|y| {
            let y = y.trim();
            !y.is_empty() && name.to_lowercase() == y.to_lowercase()
        })
}

/// One mistake to practise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// The position before the move (FEN).
    pub fen: String,
    /// The move played there.
    pub played: Move,
    /// The engine's best move there.
    pub best: Move,
    /// The evaluation of the position (White's view), with the best move.
    pub before: Eval,
    /// How bad the move played was.
    pub judgement: Judgement,
    /// Where it comes from: the game's date and players, and the move number.
    pub source: String,
}

impl Mistake {
    /// The key it is scheduled under: the position and the move played.
    pub fn id(&self) -> String {
        format!("{} {}", self.fen, uci(&self.played))
    }

    /// The position.
    pub fn pos(&self) -> Chess {
        crate::fen::position(&self.fen).unwrap_or_default()
    }

    /// The side that made the mistake: the side to move.
    pub fn mover(&self) -> Color {
        self.pos().turn()
    }

    /// The move played in SAN, with its mark: `Qxd4??`.
    pub fn played_san(&self) -> String {
        format!(
            "{}{}",
            SanPlus::from_move(self.pos(), self.played),
            self.judgement.symbol()
        )
    }

    /// The engine's move in SAN.
    pub fn best_san(&self) -> String {
        SanPlus::from_move(self.pos(), self.best).to_string()
    }

    /// Whether `m` solves it, given the evaluation `after` of the position it leads to
    /// (White's view): the engine's move does; another does unless the review's rules flag
    /// it against the evaluation before.
    pub fn solved_by(&self, m: Move, after: Eval) -> bool {
        m == self.best || judge::judge(self.before, after, self.mover()).is_none()
    }
}

/// The mistakes and blunders of the person (or people) in a reviewed game, in order, `yours`
/// being the names that are you (see [`is_you`]); moves whose positions are not reviewed yet
/// are skipped.
pub fn of_review(review: &Review, yours: &[String]) -> Vec<Mistake> {
    let game = &review.game;
    let names = &game.names;
    let person = |c: Color| is_you(&names[c.fold_wb(0, 1)], yours);
    let mut out = Vec::new();
    for (i, &played) in game.moves().iter().enumerate() {
        let mover = review.mover(i);
        if !person(mover) {
            continue;
        }
        let Some((judgement, _)) = review.judgement(i) else {
            continue;
        };
        if judgement < Judgement::Mistake {
            continue;
        }
        let Some(before) = review.evals[i].as_ref() else {
            continue;
        };
        let Some(&best) = before.line.first().filter(|&&b| b != played) else {
            continue;
        };
        let pos = game.position_at(i);
        out.push(Mistake {
            fen: shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string(),
            played,
            best,
            before: before.eval,
            judgement,
            source: source(game, i),
        });
    }
    out
}

/// `2026.11.20, Human - Knightfall 0.1.0 (level 3), move 14`.
fn source(game: &Game, ply: usize) -> String {
    let pos = game.position_at(ply);
    let number = pos.fullmoves().get();
    let dots = if pos.turn().is_white() { "." } else { "..." };
    let date = &game.date;
    format!(
        "{date}, {} - {}, move {number}{dots}",
        game.names[0], game.names[1]
    )
}

fn uci(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// Reads a move of `pos` written in UCI.
pub fn parse_uci(pos: &Chess, text: &str) -> Option<Move> {
    text.parse::<UciMove>().ok()?.to_move(pos).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::analyse::PositionEval;

    /// A game where White (a person) leaves the queen to be taken on move 3.
    fn reviewed() -> Review {
        let game = Game::from_pgn(
            "[White \"Human\"]\n[Black \"Knightfall 0.1.0 (level 3)\"]\n[Date \"2026.11.20\"]\n\n\
             1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *",
        )
        .unwrap();
        let mut review = Review::new(game, 1000);
        let line = |pos: &Chess, moves: &[&str]| -> Vec<Move> {
            let mut p = pos.clone();
            moves
                .iter()
                .map(|m| {
                    let mv = parse_uci(&p, m).unwrap();
                    p.play_unchecked(mv);
                    mv
                })
                .collect()
        };
        let evals = [20, 25, 30, 0, 10, -900, -880];
        let lines: [&[&str]; 7] = [
            &["e2e4"],
            &["e7e5"],
            &["g1f3"],
            &["b8c6"],
            &["f1c4"],
            &["c6e5"],
            &["d2d4"],
        ];
        for (ply, (cp, moves)) in evals.iter().zip(lines).enumerate() {
            let pos = review.game.position_at(ply).clone();
            review.evals[ply] = Some(PositionEval {
                eval: Eval::Cp(*cp),
                line: line(&pos, moves),
                depth: 10,
            });
        }
        review
    }

    #[test]
    fn a_persons_blunder_becomes_a_drill_and_the_engines_moves_do_not() {
        let review = reviewed();
        let found = of_review(&review, &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        let m = &found[0];
        assert_eq!(m.played_san(), "Qxe5+??");
        assert_eq!(m.best_san(), "Bc4");
        assert_eq!(m.judgement, Judgement::Blunder);
        assert_eq!(m.mover(), Color::White);
        assert_eq!(
            m.source,
            "2026.11.20, Human - Knightfall 0.1.0 (level 3), move 3."
        );
        assert!(m.id().ends_with(" h5e5"));
        // With the person as Black instead, White's blunder is not theirs.
        let mut other = review.clone();
        other.game.names = ["Knightfall".into(), PERSON.into()];
        assert!(of_review(&other, &[]).is_empty());
        // A game from elsewhere: White is you by a name in the settings, in any case.
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        other.game.names = ["MagnusFan".into(), "someone".into()];
        assert!(of_review(&other, &[]).is_empty());
        assert_eq!(of_review(&other, &names(&[" magnusfan "])).len(), 1);
        assert!(of_review(&other, &names(&["someone"])).is_empty());
        // Any of your accounts.
        assert_eq!(
            of_review(&other, &names(&["Anna", "anna1985", "magnusFAN"])).len(),
            1
        );
        other.game.names = ["Jürgen".into(), "someone".into()];
        assert_eq!(of_review(&other, &names(&["JÜRGEN"])).len(), 1);
    }

    #[test]
    fn the_engines_move_or_one_as_good_solves_it() {
        let m = &of_review(&reviewed(), &[])[0];
        let pos = m.pos();
        assert!(
            m.solved_by(m.best, Eval::Cp(-500)),
            "the engine's move always solves it"
        );
        let nf3 = parse_uci(&pos, "g1f3").unwrap();
        assert!(
            m.solved_by(nf3, Eval::Cp(5)),
            "as good as the best by the rules"
        );
        assert!(!m.solved_by(nf3, Eval::Cp(-250)), "a mistake too");
        assert!(!m.solved_by(m.played, Eval::Cp(-900)));
    }
}
