//! Chess in words, as a screen reader speaks them: pieces by name ("knight"), squares as
//! coordinates ("f6"), moves as what happens ("knight from g8 takes pawn on f6, check"); never
//! a figurine, a box or a colour.

use shakmaty::{Chess, Color, Move, Piece, Position, Role, Square};

/// A piece's name.
pub(crate) fn role(role: Role) -> &'static str {
    crate::game::input::role_word(role)
}

/// The kinds of piece, the king first, as a side's pieces are read out.
pub(crate) const ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The plural of a piece's name.
pub(crate) fn roles(r: Role) -> String {
    format!("{}s", role(r))
}

/// A colour's name, lower case.
pub(crate) fn colour(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A piece with its colour: "black knight".
pub(crate) fn piece(p: Piece) -> String {
    format!("{} {}", colour(p.color), role(p.role))
}

/// What `m` does in `before`, in words, with check or mate after it.
pub(crate) fn moved(before: &Chess, m: &Move) -> String {
    let mut text = match m {
        Move::Castle { king, rook } => {
            if rook.file() > king.file() {
                "castles kingside".to_string()
            } else {
                "castles queenside".to_string()
            }
        }
        Move::EnPassant { from, to } => {
            format!("pawn from {from} takes pawn on {to}, en passant")
        }
        Move::Normal {
            role: r,
            from,
            capture,
            to,
            promotion,
        } => {
            let mut t = match capture {
                Some(taken) => format!("{} from {from} takes {} on {to}", role(*r), role(*taken)),
                None => format!("{} from {from} to {to}", role(*r)),
            };
            if let Some(p) = promotion {
                t.push_str(&format!(", promoting to {}", role(*p)));
            }
            t
        }
        Move::Put { role: r, to } => format!("{} put on {to}", role(*r)),
    };
    let mut after = before.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        text.push_str(", checkmate");
    } else if after.is_check() {
        text.push_str(", check");
    }
    text
}

/// A clock's time left, as a person reads it: "4:52", "0:09".
pub(crate) fn clock(left: std::time::Duration) -> String {
    let s = left.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// The pieces on `squares` in `pos`, each as "white pawn e4", in order; "empty" for none.
pub(crate) fn on(pos: &Chess, squares: impl Iterator<Item = Square>) -> String {
    let found: Vec<String> = squares
        .filter_map(|sq| {
            pos.board()
                .piece_at(sq)
                .map(|p| format!("{} {sq}", piece(p)))
        })
        .collect();
    if found.is_empty() {
        "empty".to_string()
    } else {
        found.join(", ")
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::san::San;

    fn said(fen: &str, san: &str) -> String {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        moved(&pos, &m)
    }

    #[test]
    fn moves_are_said_as_what_happens() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(said(start, "Nf3"), "knight from g1 to f3");
        let scholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        assert_eq!(
            said(scholar, "Qxf7#"),
            "queen from h5 takes pawn on f7, checkmate"
        );
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(said(castle, "O-O-O"), "castles queenside");
        assert_eq!(
            said("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=N"),
            "pawn from e7 to e8, promoting to knight"
        );
        assert_eq!(
            said("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6"),
            "pawn from e5 takes pawn on d6, en passant"
        );
    }
}
