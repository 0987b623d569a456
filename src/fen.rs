//! The one rule for reading a FEN, wherever it comes from: a PGN's `FEN` tag, `position fen`
//! over UCI, or `--fen` on the command line. A FEN that parses and describes a legal position
//! is taken; castling rights its rooks and king cannot have and an en passant square no pawn can
//! take on are dropped, as GUIs send them stale and other programs drop them too. Anything else
//! is refused with the reason.

use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::{CastlingMode, Chess, PositionError};
use thiserror::Error;

/// Why a FEN gives no position.
#[derive(Debug, Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error("bad FEN {0:?}: {1}")]
    Syntax(String, ParseFenError),
    /// A FEN, but of a position that cannot arise (no king, the side not to move in check).
    #[error("illegal position in FEN {0:?}: {1}")]
    Illegal(String, Box<PositionError<Chess>>),
}

/// The position `text` describes, or why it describes none.
pub fn position(text: &str) -> Result<Chess, FenError> {
    let fen: Fen = text
        .trim()
        .parse()
        .map_err(|e| FenError::Syntax(text.to_string(), e))?;
    fen.into_position(CastlingMode::Standard)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .map_err(|e| FenError::Illegal(text.to_string(), Box::new(e)))
}

/// The moves `ucis`, each legal in turn, played from `pos`: a line for a test to write.
#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    reason = "a test's line is legal or the test fails"
)]
pub(crate) fn line(pos: &Chess, ucis: &[&str]) -> Vec<shakmaty::Move> {
    use shakmaty::Position;
    let mut walk = pos.clone();
    ucis.iter()
        .map(|u| {
            let m = u
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&walk)
                .unwrap();
            walk.play_unchecked(m);
            m
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingSide, Color, EnPassantMode, Position};

    #[test]
    fn stale_castling_rights_and_en_passant_square_are_dropped() {
        // The white rooks have left a1 and h1, and no black pawn stands beside e4.
        let pos = position("4k3/8/8/8/4P3/8/8/1R2K1R1 b KQ e3 0 1").unwrap();
        assert!(!pos.castles().has(Color::White, CastlingSide::KingSide));
        assert!(!pos.castles().has(Color::White, CastlingSide::QueenSide));
        assert_eq!(
            Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
            "4k3/8/8/8/4P3/8/8/1R2K1R1 b - - 0 1"
        );
    }

    #[test]
    fn an_impossible_position_is_refused_with_the_reason() {
        let err = position("8/8/8/8/8/8/8/4K3 w - - 0 1")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("illegal position in FEN"), "{err}");
        assert!(err.contains("king"), "{err}");
        assert!(position("not a fen").is_err());
    }
}
