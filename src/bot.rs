//! Two trivial opponents for calibrating the bottom levels: a random legal mover and a one-ply
//! greedy capturer. They are test opponents, not playing levels; `knightfall uci --bot NAME`
//! serves them over UCI so that match tools can play them like any engine.

use clap::ValueEnum;
use shakmaty::{Chess, Move, Position};

use crate::rng::Rng;

/// Which trivial opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Bot {
    /// Plays a uniformly random legal move.
    Random,
    /// Mates in one if it can, else takes the most valuable piece it can capture (a promotion
    /// counts as winning the new piece less the pawn), else plays a random move. It never looks
    /// at the reply, so it happily takes a defended pawn with its queen.
    Greedy,
}

use crate::game::pawns_worth as value;

/// What the greedy bot gains by playing `m` in `pos`, judged one ply deep.
fn greedy_gain(pos: &Chess, m: &Move) -> i32 {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        return 1000;
    }
    let taken = m.capture().map_or(0, value);
    let promoted = m.promotion().map_or(0, |role| value(role) - 1);
    taken + promoted
}

impl Bot {
    /// The bot's measured rating (docs/LEVELS.md, on the levels' scale).
    pub fn elo(self) -> i32 {
        match self {
            Bot::Random => 652,
            Bot::Greedy => 876,
        }
    }

    /// The moves the bot picks from at random in `pos` (none when there is no legal move).
    pub fn candidates(self, pos: &Chess) -> Vec<Move> {
        let moves = pos.legal_moves();
        match self {
            Bot::Random => moves.to_vec(),
            Bot::Greedy => {
                let gains: Vec<i32> = moves.iter().map(|m| greedy_gain(pos, m)).collect();
                let best = gains.iter().copied().max().unwrap_or(0);
                moves
                    .iter()
                    .zip(gains)
                    .filter(|&(_, g)| g == best)
                    .map(|(m, _)| *m)
                    .collect()
            }
        }
    }

    /// The bot's move in `pos`; `None` when there is no legal move.
    pub fn choose(self, pos: &Chess, rng: &mut Rng) -> Option<Move> {
        let candidates = self.candidates(pos);
        if candidates.is_empty() {
            return None;
        }
        let i = rng.below(candidates.len() as u64) as usize;
        Some(candidates[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn uci(m: Move) -> String {
        UciMove::from_move(m, CastlingMode::Standard).to_string()
    }

    #[test]
    fn greedy_takes_the_queen_not_the_pawn() {
        // The knight on d5 can take the queen on c7 or the pawn on e7 (defended or not).
        let p = pos("4k3/2q1p3/8/3N4/8/8/8/4K3 w - - 0 1");
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            assert_eq!(uci(Bot::Greedy.choose(&p, &mut rng).unwrap()), "d5c7");
        }
    }

    #[test]
    fn greedy_mates_in_one_before_capturing() {
        // Ra8 mates; Kxh2 wins a rook.
        let p = pos("6k1/5ppp/8/8/8/8/7r/R5K1 w - - 0 1");
        let mut rng = Rng::new(7);
        assert_eq!(uci(Bot::Greedy.choose(&p, &mut rng).unwrap()), "a1a8");
    }

    #[test]
    fn greedy_promotes_to_a_queen() {
        let p = pos("8/4P3/8/8/8/k7/8/4K3 w - - 0 1");
        let mut rng = Rng::new(3);
        assert_eq!(uci(Bot::Greedy.choose(&p, &mut rng).unwrap()), "e7e8q");
    }

    #[test]
    fn random_plays_every_legal_move_sometimes_and_nothing_else() {
        let p = Chess::default();
        let mut rng = Rng::new(11);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let m = Bot::Random.choose(&p, &mut rng).unwrap();
            assert!(p.is_legal(m));
            seen.insert(uci(m));
        }
        assert_eq!(seen.len(), 20);
    }

    #[test]
    fn no_move_when_mated() {
        let p = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        let mut rng = Rng::new(5);
        assert_eq!(Bot::Random.choose(&p, &mut rng), None);
        assert_eq!(Bot::Greedy.choose(&p, &mut rng), None);
    }
}
