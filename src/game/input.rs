//! A move as a person types it, UCI (`e2e4`, `e7e8q`) or SAN (`Nf3`, `O-O`, forgiving zeros,
//! lower case and a promotion without `=`), read against a position; a move refused says why
//! in words the player can act on.

use shakmaty::san::{San, SanError};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position, Rank, Role, Square};
use thiserror::Error;

/// Why a typed move was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Neither UCI (`e2e4`, `e7e8q`) nor SAN (`Nf3`, `O-O`).
    #[error("malformed move {0:?}: type UCI like e2e4 or e7e8q, or SAN like Nf3")]
    Malformed(String),
    /// The from-square is empty.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// The from-square holds the opponent's piece.
    #[error("the piece on {0} is not yours")]
    NotYours(Square),
    /// A pawn move to the last rank without the piece to promote to; holds the move with a
    /// queen added, as an example.
    #[error("promotion piece missing: add Q, R, B or N (e.g. {0})")]
    PromotionMissing(String),
    /// Well formed but not a legal move here.
    #[error("{0} is not legal here")]
    Illegal(String),
    /// A move of a kind of piece to a square none of them can move to now.
    #[error("no {0} of yours can move to {1}")]
    NoneCanReach(&'static str, Square),
    /// SAN that matches more than one legal move.
    #[error("{0} is ambiguous: say which piece ({1})")]
    Ambiguous(String, String),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
}

/// Reads `text`, UCI or SAN, as a legal move of `pos`.
pub(crate) fn parse(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if looks_uci(text) {
        parse_uci(pos, text)
    } else {
        parse_san(pos, text)
    }
}

/// Reads a UCI move; a pawn reaching the last rank without a piece named is told how to name
/// one.
fn parse_uci(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let lower = text.to_ascii_lowercase();
    let uci = UciMove::from_ascii(lower.as_bytes())
        .map_err(|_| MoveError::Malformed(text.to_string()))?;
    let illegal = || MoveError::Illegal(text.to_string());
    if let UciMove::Normal {
        from,
        to,
        promotion,
    } = uci
    {
        match pos.board().piece_at(from) {
            None => return Err(MoveError::NoPiece(from)),
            Some(p) if p.color != pos.turn() => return Err(MoveError::NotYours(from)),
            Some(p)
                if p.role == Role::Pawn
                    && promotion.is_none()
                    && to.rank() == pos.turn().fold_wb(Rank::Eighth, Rank::First) =>
            {
                let with_q = format!("{lower}q");
                let legal = UciMove::from_ascii(with_q.as_bytes())
                    .ok()
                    .and_then(|u| u.to_move(pos).ok())
                    .is_some();
                return Err(if legal {
                    MoveError::PromotionMissing(with_q)
                } else {
                    illegal()
                });
            }
            Some(_) => {}
        }
    }
    uci.to_move(pos).map_err(|_| illegal())
}

/// Reads a SAN move, tolerating zeros or lower case for castling, a promotion typed without
/// `=`, trailing annotations, and a piece letter in lower case where that is the only sensible
/// reading.
fn parse_san(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let cleaned = cleaned_san(text);
    let cleaned = cleaned.as_str();
    let parsed = San::from_ascii(cleaned.as_bytes())
        .map_err(|_| MoveError::Malformed(text.to_string()))
        .and_then(|san| {
            san.to_move(pos).map_err(|e| match e {
                SanError::AmbiguousSan => {
                    MoveError::Ambiguous(text.to_string(), which_piece(pos, &san))
                }
                SanError::IllegalSan => MoveError::Illegal(text.to_string()),
            })
        });
    // A pawn reaching the last rank without a piece named: say how to name it.
    if let Err(MoveError::Illegal(_)) = parsed
        && cleaned.ends_with(['1', '8'])
        && cleaned.starts_with(|c: char| ('a'..='h').contains(&c))
    {
        let with_q = format!("{cleaned}=Q");
        if San::from_ascii(with_q.as_bytes()).is_ok_and(|s| s.to_move(pos).is_ok()) {
            return Err(MoveError::PromotionMissing(with_q));
        }
    }
    // A piece letter typed in lower case (`nf3`) is read as upper case when that is the only
    // sensible reading (`bxc3` stays a pawn capture when one is legal).
    let parsed = match parsed {
        Err(MoveError::Malformed(_) | MoveError::Illegal(_))
            if cleaned.starts_with(['n', 'b', 'r', 'q', 'k']) =>
        {
            let upper = format!("{}{}", cleaned[..1].to_ascii_uppercase(), &cleaned[1..]);
            match San::from_ascii(upper.as_bytes()).map(|s| s.to_move(pos)) {
                Ok(Ok(m)) => Ok(m),
                _ => parsed,
            }
        }
        other => other,
    };
    // `Nf4` with no knight able to go there says that, not just "not legal".
    if let Err(MoveError::Illegal(_)) = parsed
        && let Ok(San::Normal { role, to, .. }) = San::from_ascii(cleaned.as_bytes())
        && pos.san_candidates(role, to).is_empty()
    {
        return Err(MoveError::NoneCanReach(role_word(role), to));
    }
    parsed
}

/// The moves an ambiguous `san` could mean, as SAN that names the piece: `Rad1 or Rfd1`.
fn which_piece(pos: &Chess, san: &San) -> String {
    let San::Normal { role, to, .. } = *san else {
        return String::new();
    };
    pos.san_candidates(role, to)
        .iter()
        .map(|&m| San::from_move(pos, m).to_string())
        .collect::<Vec<_>>()
        .join(" or ")
}

/// `text` in the SAN shakmaty reads: castling with letters in upper case, the promotion piece
/// after `=`, without check marks or annotations, and a file typed in capitals (`E4`, `Exd5`)
/// in lower case, as lichess reads it (`B` stays the bishop).
fn cleaned_san(text: &str) -> String {
    let mut text = text.to_string();
    if text.starts_with(['A', 'C', 'D', 'E', 'F', 'G', 'H'])
        && text[1..].starts_with(|c: char| c.is_ascii_digit() || c == 'x')
    {
        text = text.to_ascii_lowercase();
    }
    let cleaned: String = text
        .replace('0', "O")
        .trim_end_matches(['!', '?'])
        .to_string();
    let cleaned = match cleaned.trim_end_matches(['+', '#']) {
        "o-o" | "o-o-o" | "o-O" | "O-o" | "o-O-O" | "O-o-o" => cleaned.to_ascii_uppercase(),
        _ => cleaned,
    };
    promotion_san(cleaned.trim_end_matches(['+', '#']))
}

/// SAN promotion as people type it, in the form shakmaty reads: `e8q`, `e8Q` and `e8=q`
/// become `e8=Q` (`exd8n` becomes `exd8=N`); anything else is unchanged.
fn promotion_san(san: &str) -> String {
    let chars: Vec<char> = san.chars().collect();
    let n = chars.len();
    if n >= 3
        && chars[0].is_ascii_lowercase()
        && ('a'..='h').contains(&chars[0])
        && "qrbnQRBN".contains(chars[n - 1])
    {
        let body: String = chars[..n - 1].iter().collect();
        let body = body.trim_end_matches('=');
        if body.ends_with(['1', '8']) {
            return format!("{body}={}", chars[n - 1].to_ascii_uppercase());
        }
    }
    san.to_string()
}

/// A kind of piece in words: `knight`.
pub fn role_word(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Whether `text` has the shape of a UCI move (`e2e4`, `e7e8q`).
fn looks_uci(text: &str) -> bool {
    let b = text.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c.to_ascii_lowercase());
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    (b.len() == 4 || b.len() == 5) && file(b[0]) && rank(b[1]) && file(b[2]) && rank(b[3])
}

#[cfg(test)]
mod tests {
    use shakmaty::{Role, Square};

    use super::*;
    use crate::game::Game;

    #[test]
    fn uci_and_san_moves_and_errors() {
        let mut g = Game::new();
        g.play_text("e2e4", None).unwrap();
        g.play_text("e5", None).unwrap();
        g.play_text("Nf3", None).unwrap();
        assert_eq!(g.sans(), ["e4", "e5", "Nf3"]);
        assert_eq!(g.parse_move("e2e4"), Err(MoveError::NoPiece(Square::E2)));
        assert_eq!(g.parse_move("g1f3"), Err(MoveError::NoPiece(Square::G1)));
        assert_eq!(g.parse_move("f3g5"), Err(MoveError::NotYours(Square::F3)));
        assert_eq!(g.parse_move("e5e4"), Err(MoveError::Illegal("e5e4".into())));
        assert!(matches!(g.parse_move("zz"), Err(MoveError::Malformed(_))));
        assert!(matches!(g.parse_move(""), Err(MoveError::Malformed(_))));
        assert_eq!(g.parse_move("nc6").map(|m| m.to()), Ok(Square::C6));
        assert_eq!(g.parse_move("Nc6").map(|m| m.to()), Ok(Square::C6));
        assert!(matches!(g.parse_move("qh9"), Err(MoveError::Malformed(_))));
        assert_eq!(g.ply(), 3);
    }

    #[test]
    fn a_capital_file_is_the_file_and_an_ambiguous_move_names_its_pieces() {
        let mut g = Game::new();
        g.play_text("E4", None).unwrap();
        g.play_text("d5", None).unwrap();
        g.play_text("Exd5", None).unwrap();
        assert_eq!(g.sans(), ["e4", "d5", "exd5"]);
        // B is the bishop, never the b-file.
        assert!(matches!(g.parse_move("B5"), Err(MoveError::Malformed(_))));
        let g = Game::from_fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1").unwrap();
        let why = g.parse_move("Rd1").unwrap_err();
        assert_eq!(
            why.to_string(),
            "Rd1 is ambiguous: say which piece (Rad1 or Rfd1)"
        );
    }

    #[test]
    fn promotion_missing_and_castling() {
        let mut g = Game::from_fen("4k3/P7/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(
            g.parse_move("a7a8"),
            Err(MoveError::PromotionMissing("a7a8q".into()))
        );
        // SAN without the piece gets the same help.
        assert_eq!(
            g.parse_move("a8"),
            Err(MoveError::PromotionMissing("a8=Q".into()))
        );
        g.play_text("e1g1", None).unwrap();
        assert_eq!(g.sans(), ["O-O"]);
        g.undo();
        g.play_text("a7a8q", None).unwrap();
        assert_eq!(g.sans(), ["a8=Q+"]);
        // The piece as people type it: with or without `=`, either case.
        for text in ["a8Q", "a8=Q", "a8q", "a8=q", "a8N", "a8=n+"] {
            g.undo();
            let m = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(m.is_promotion(), "{text}");
            g.play(m, None).unwrap();
        }
        assert_eq!(g.sans(), ["a8=N"]);
        // A capture promotion, and a lower-case piece move that is not one.
        let g = Game::from_fen("1r2k3/P7/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
        assert!(g.parse_move("axb8n").unwrap().is_promotion());
        assert!(g.parse_move("axb8=R").unwrap().is_promotion());
        assert_eq!(g.parse_move("nc3").unwrap().role(), Role::Knight);
    }
}
