//! A person's own mistakes as drills: each mistake or blunder a review found in a move a
//! person made ("Human" in the game, or the name in the settings) becomes the position before
//! it, with the move played, the engine's best move and the evaluation. A drill is solved by
//! the engine's move, or by any move the review's rules would not flag against that
//! evaluation. A position the person went wrong in, in one game or in several, is one drill.

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

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

/// One mistake to practise: a position where you went wrong, in one game or in several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// The position before the move (FEN), as the newest game reached it.
    pub fen: String,
    /// The move played there, in the newest game.
    pub played: Move,
    /// The engine's best move there.
    pub best: Move,
    /// The evaluation of the position (White's view), with the best move.
    pub before: Eval,
    /// How bad the move played was.
    pub judgement: Judgement,
    /// The games it was made in, the newest first.
    pub games: Vec<Seen>,
    /// Why the move was bad, as the drill says it before it is answered (see
    /// [`crate::review::why::Why::unspoiled`]); empty when the review said nothing concrete.
    pub why: String,
}

/// One game a mistake was made in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The game's date as its PGN has it (`2026.11.20`, `????.??.??`).
    pub date: String,
    /// The other side's name.
    pub opponent: String,
    /// The move's number, with a dot for White and three for Black: `14.`, `14...`.
    pub number: String,
    /// The move played there.
    pub played: Move,
}

/// The games named in a mistake's source; the rest are counted.
const GAMES_NAMED: usize = 3;

impl Mistake {
    /// The key it is scheduled under: the position (see [`card_id`]).
    pub fn id(&self) -> String {
        card_id(&self.fen)
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

    /// Whether `m` was played here in one of its games.
    pub fn was_played(&self, m: Move) -> bool {
        m == self.played || self.games.iter().any(|s| s.played == m)
    }

    /// Where it comes from, each game by its date, opponent and move:
    /// `2026.11.20 against bob, move 14.; also 2026.10.02 against carl, move 12. (Nf3)`, and
    /// `a game against bob, move 14.` when the game has no date.
    pub fn source(&self) -> String {
        let named: Vec<String> = self
            .games
            .iter()
            .take(GAMES_NAMED)
            .map(|s| {
                let dated = s.date.chars().any(|c| c.is_ascii_digit());
                let date = if dated {
                    format!("{} ", s.date)
                } else {
                    "a game ".to_string()
                };
                // Another move played in the same place is named.
                let other = if s.played == self.played {
                    String::new()
                } else {
                    format!(" ({})", SanPlus::from_move(self.pos(), s.played))
                };
                format!("{date}against {}, move {}{other}", s.opponent, s.number)
            })
            .collect();
        let mut text = named.join("; also ");
        match self.games.len().saturating_sub(GAMES_NAMED) {
            0 => {}
            1 => text.push_str("; and 1 more game"),
            n => text.push_str(&format!("; and {n} more games")),
        }
        text
    }

    /// Whether `m` solves it, given the evaluation `after` of the position it leads to
    /// (White's view; `own` when Knightfall's own search made it): the engine's move does;
    /// another does unless the review's rules flag it against the evaluation before, judged
    /// as a review by the same engine judges them.
    pub fn solved_by(&self, m: Move, after: Eval, own: bool) -> bool {
        let (before, after) = (judge::judged(self.before, own), judge::judged(after, own));
        m == self.best || judge::judge(before, after, self.mover()).is_none()
    }
}

/// The key a mistake's card is kept under: the position of `fen` (its pieces, side to move,
/// castling and en passant square), without the move counters, so the same position reached
/// at another move in another game is the same card. The key an earlier version kept a card
/// under (the whole FEN and the move played) gives the same.
pub fn card_id(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// `mistakes` with one per position, in the order each position first comes: a later one
/// joins its games to the first's.
pub fn one_per_position(mistakes: impl IntoIterator<Item = Mistake>) -> Vec<Mistake> {
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out: Vec<Mistake> = Vec::new();
    for m in mistakes {
        match at.entry(m.id()) {
            std::collections::hash_map::Entry::Occupied(e) => {
                out[*e.get()].games.extend(m.games);
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(out.len());
                out.push(m);
            }
        }
    }
    out
}

/// The mistakes and blunders of the person (or people) in a reviewed game, in order, one per
/// position, `yours` being the names that are you (see [`is_you`]); moves whose positions are
/// not reviewed yet are skipped.
pub fn of_review(review: &Review, yours: &[String]) -> Vec<Mistake> {
    let names = &review.game.names;
    let person = |c: Color| is_you(&names[c.fold_wb(0, 1)], yours);
    one_per_position(
        in_review(review)
            .into_iter()
            .filter(|(_, m)| person(m.mover()))
            .map(|(_, m)| m),
    )
}

/// Every mistake and blunder in a reviewed game, whoever made it, with its ply: what the
/// library keeps of a review. A move the engine would have played too is none.
pub fn in_review(review: &Review) -> Vec<(usize, Mistake)> {
    let game = &review.game;
    let mut out = Vec::new();
    for (i, &played) in game.moves().iter().enumerate() {
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
        let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
        let mover = pos.turn();
        out.push((
            i,
            Mistake {
                fen: fen.to_string(),
                played,
                best,
                before: before.eval,
                judgement,
                why: crate::review::why::why(review, i)
                    .map(|w| w.unspoiled())
                    .unwrap_or_default(),
                games: vec![Seen {
                    date: game.date.clone(),
                    opponent: game.names[(!mover).fold_wb(0, 1)].clone(),
                    number: move_number(pos),
                    played,
                }],
            },
        ));
    }
    out
}

/// The number of the move to be made in `pos`: `14.` for White, `14...` for Black.
pub fn move_number(pos: &Chess) -> String {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    format!("{}{dots}", pos.fullmoves().get())
}

/// Reads a move of `pos` written in UCI.
pub fn parse_uci(pos: &Chess, text: &str) -> Option<Move> {
    text.parse::<UciMove>().ok()?.to_move(pos).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
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
            m.source(),
            "2026.11.20 against Knightfall 0.1.0 (level 3), move 3."
        );
        assert_eq!(
            m.id(),
            "r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq -"
        );
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
            m.solved_by(m.best, Eval::Cp(-500), false),
            "the engine's move always solves it"
        );
        let nf3 = parse_uci(&pos, "g1f3").unwrap();
        assert!(
            m.solved_by(nf3, Eval::Cp(5), false),
            "as good as the best by the rules"
        );
        assert!(!m.solved_by(nf3, Eval::Cp(-250), false), "a mistake too");
        assert!(!m.solved_by(m.played, Eval::Cp(-900), false));
    }

    /// The same position reached in two games, at other move numbers and with another move
    /// played: one card, under the key the cards of earlier versions had too, naming both games.
    #[test]
    fn the_same_position_in_two_games_is_one_card_naming_both() {
        let first = &of_review(&reviewed(), &[])[0];
        let mut later = first.clone();
        later.fen = later.fen.replace(" 2 3", " 0 9");
        let nf3 = parse_uci(&first.pos(), "g1f3").unwrap();
        later.games = vec![Seen {
            date: "????.??.??".into(),
            opponent: "carl".into(),
            number: "9.".into(),
            played: nf3,
        }];
        let one = one_per_position([first.clone(), later]);
        assert_eq!(one.len(), 1);
        assert_eq!(
            one[0].source(),
            "2026.11.20 against Knightfall 0.1.0 (level 3), move 3.; also a game against carl, move 9. (Nf3)"
        );
        assert!(one[0].was_played(nf3) && one[0].was_played(first.played));
        // An earlier version's key, the whole FEN and the move played, is this card's.
        assert_eq!(card_id(&format!("{} h5e5", first.fen)), first.id());
        // Four games or more: the first three are named.
        let mut many = one[0].clone();
        many.games = vec![many.games[0].clone(); 5];
        assert!(
            many.source().ends_with("; and 2 more games"),
            "{}",
            many.source()
        );
    }
}
