//! How a game ended: the winner, the reason, and the words for both (the status line, the PGN
//! `Result` and `Termination` tags).

use pgn_reader::KnownOutcome;
use shakmaty::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position occurred three times.
    Threefold,
    /// Fifty moves by each side without a capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A player resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// A flag fell.
    Time,
    /// A flag fell but the other side cannot mate.
    TimeInsufficient,
    /// An engine played an illegal move or no move.
    Forfeit,
    /// An engine crashed or stopped answering.
    Abandoned,
    /// A friend over the network left the game and did not come back: the one left claimed
    /// the win, or called it a draw.
    Left,
    /// The result came from a PGN file without a rule that explains it here.
    Recorded,
    /// A flag fell before both sides had made their first move: as on lichess the game is
    /// aborted, with no result (`*`), a loss for nobody.
    Aborted,
}

impl Reason {
    /// Words for the status line and the PGN `Termination` tag.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Threefold => "threefold repetition",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Resignation => "resignation",
            Reason::Agreement => "draw agreed",
            Reason::Time => "time forfeit",
            Reason::TimeInsufficient => "time out against insufficient material",
            Reason::Forfeit => "forfeit",
            Reason::Abandoned => "engine failure",
            Reason::Left => "the other side left",
            Reason::Recorded => "as recorded",
            Reason::Aborted => "aborted on time before both sides had moved",
        }
    }
}

/// The `Termination` of an aborted game, by which a file read back says it ended so.
pub(crate) const ABORTED: &str = "Aborted on time before both sides had moved";

/// A finished game's result: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// The result a file records, without a rule here that explains it.
    pub(crate) fn recorded(result: KnownOutcome) -> Outcome {
        Outcome {
            winner: result.winner(),
            reason: Reason::Recorded,
        }
    }

    /// The PGN result token: `*` for an aborted game, which has none.
    pub fn result_str(&self) -> &'static str {
        if self.reason == Reason::Aborted {
            return "*";
        }
        match self.winner {
            Some(winner) => KnownOutcome::Decisive { winner },
            None => KnownOutcome::Draw,
        }
        .as_str()
    }

    /// The PGN `Termination` text: what happened, in words ("Black won by resignation").
    pub fn termination(&self) -> String {
        let won = |how: &str| match self.winner {
            Some(c) => format!("{} won {how}", c.fold_wb("White", "Black")),
            None => format!("Draw {how}"),
        };
        match self.reason {
            Reason::Checkmate => won("by checkmate"),
            Reason::Stalemate => won("by stalemate"),
            Reason::Threefold => won("by threefold repetition"),
            Reason::FiftyMoves => won("by the fifty-move rule"),
            Reason::InsufficientMaterial => won("by insufficient material"),
            Reason::Resignation => won("by resignation"),
            Reason::Agreement => won("by agreement"),
            Reason::Time => won("on time"),
            Reason::TimeInsufficient => won("on time against insufficient material"),
            Reason::Forfeit => won("by forfeit (illegal move)"),
            Reason::Abandoned => won("by forfeit (engine failure)"),
            Reason::Left => won("as the other side left"),
            Reason::Recorded => won("as recorded"),
            Reason::Aborted => ABORTED.to_string(),
        }
    }

    /// A sentence for the player: "White wins by checkmate", "Draw by stalemate".
    pub(crate) fn announce(&self) -> String {
        if self.reason == Reason::Aborted {
            return "Game aborted on time before both sides had moved: no result".to_string();
        }
        match self.winner {
            Some(Color::White) => format!("White wins ({})", self.reason.describe()),
            Some(Color::Black) => format!("Black wins ({})", self.reason.describe()),
            None => format!("Draw ({})", self.reason.describe()),
        }
    }
}
