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

/// The moves of `line` from `before`, numbered and each in words: "12. knight from f3 to
/// e5; 12... pawn from d6 takes knight on e5". Stops at the first move that is not legal.
pub(crate) fn line<'a>(before: &Chess, line: impl IntoIterator<Item = &'a Move>) -> String {
    let mut pos = before.clone();
    let mut said = Vec::new();
    for m in line {
        if !pos.is_legal(*m) {
            break;
        }
        let number = match pos.turn() {
            Color::White => format!("{}.", pos.fullmoves()),
            Color::Black => format!("{}...", pos.fullmoves()),
        };
        said.push(format!("{number} {}", moved(&pos, m)));
        pos.play_unchecked(*m);
    }
    said.join("; ")
}

/// `text` with every move in SAN that is more than a square ("Bxf5", "O-O", "Qh8#", "e8=Q")
/// said in words ("bishop takes f5", "castles kingside", "queen to h8, checkmate"); squares
/// and pawn moves to a square ("e4") stay as they are, since they are read as said.
pub(crate) fn sans_in(text: &str) -> String {
    sans_in_from(text, &[])
}

/// [`sans_in`], where a numbered line of moves that starts from one of `starts` (by its move
/// number and side) is said move by move as it is played there, each with where it comes from
/// and what it takes: "15... bishop from c8 takes knight on f5" for "15...Bxf5".
pub(crate) fn sans_in_from(text: &str, starts: &[&Chess]) -> String {
    let mut out = String::new();
    // The position the line being read has reached, while it is known.
    let mut board: Option<Chess> = None;
    // Whether the last token was a move said in words: the next move is set apart from it.
    let mut after_move = false;
    // A move given as an example of what to type ("SAN like Nf3") is left as it is typed.
    let mut example = false;
    let (mut after_number, mut after_colon) = (false, false);
    for (i, token) in text.split(' ').enumerate() {
        if std::mem::replace(&mut example, token == "like") {
            out.push(' ');
            out.push_str(token);
            (after_move, after_number, after_colon) = (false, false, false);
            continue;
        }
        // A move number before the move ("15...Bxf5"), punctuation after it ("Nc7+;").
        let body_start = token
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(token.len());
        let (number, rest) = token.split_at(body_start);
        let body_end = rest
            .char_indices()
            .rev()
            .find(|&(_, c)| !matches!(c, ',' | ';' | ':' | '.' | ')' | '!' | '?'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let (body, tail) = rest.split_at(body_end);
        // The verdict's marks ("??") are said by the sentence around them.
        let tail: String = tail.chars().filter(|c| !matches!(c, '!' | '?')).collect();
        // A move number starts a line from one of the positions known, unless the line read
        // goes on there.
        if let Some((n, side)) = move_number(number) {
            let at = |p: &Chess| p.fullmoves().get() == n && p.turn() == side;
            if !board.as_ref().is_some_and(at) {
                board = starts.iter().find(|p| at(p)).map(|p| (*p).clone());
            }
        }
        let san = body.parse::<shakmaty::san::SanPlus>().ok().map(|s| s.san);
        let legal = |p: &Chess| san.as_ref()?.to_move(p).ok();
        let in_known_line = board.is_some();
        let played = board.as_mut().and_then(|b| {
            let m = legal(b)?;
            let words = moved(b, &m);
            b.play_unchecked(m);
            Some(words)
        });
        // A move on its own ("You played Ne3??", "Kc3 wins") is one from the first position
        // known, when it is legal there: a later one ("Black answers Nbd7") is from a position
        // not given, and is said as `sans_in` says it.
        // A square ("on g4") is no move on its own, though it reads as a pawn's step.
        let played = played.or_else(|| {
            let first = starts
                .first()
                .filter(|_| !in_known_line && number.is_empty() && san_words(body).is_some())?;
            Some(moved(first, &legal(first)?))
        });
        // A word ends the line; a number alone ("2...") leads into it.
        let number_alone = rest.is_empty() && !number.is_empty();
        if played.is_none() && !number_alone {
            board = None;
        }
        // A pawn's step in a line of moves, or after a colon ("Hint: a4"), is a move too.
        let in_line = after_move || after_number || after_colon;
        let said = played
            .or_else(|| san_words(body))
            .or_else(|| in_line.then(|| pawn_step(body)).flatten())
            .map(|words| {
                if number.is_empty() {
                    format!("{words}{tail}")
                } else {
                    format!("{number} {words}{tail}")
                }
            });
        let numbered = !number.is_empty() && number.ends_with('.') && rest.is_empty();
        // A pawn's step ("e4") is said as it is written, but is a move all the same.
        let a_move = san.is_some();
        if i > 0 {
            out.push_str(if after_move && (a_move || numbered) {
                "; "
            } else {
                " "
            });
        }
        after_move = a_move && tail.is_empty();
        after_number = numbered;
        // "The engine plays d4": a square after the verb is a move.
        after_colon = token.ends_with(':') || matches!(token, "play" | "plays");
        out.push_str(said.as_deref().unwrap_or(token));
    }
    out
}

/// `line` as a screen reader says it well: the symbols the screens use in words ("~1221" is
/// "about 1221", "±" "plus or minus", an arrow "to"), and a capital letter to start it.
pub(crate) fn plain(line: &str) -> String {
    let mut out = line
        .replace('~', "about ")
        .replace(" ± ", " plus or minus ")
        .replace('±', " plus or minus ")
        .replace('…', "...")
        .replace(" → ", " to ")
        .replace('→', " to ");
    // A square ("f7: black pawn") keeps its small letter.
    let mut chars = out.chars();
    if let (Some(first), second) = (chars.next(), chars.next())
        && first.is_lowercase()
        && !second.is_some_and(|c| c.is_ascii_digit())
    {
        out = first.to_uppercase().chain(out.chars().skip(1)).collect();
    }
    out
}

/// The move number and side a token's number stands for: "15." White's 15th, "15..." Black's.
fn move_number(number: &str) -> Option<(u32, Color)> {
    let (digits, side) = match number.strip_suffix("...") {
        Some(d) => (d, Color::Black),
        None => (number.strip_suffix('.')?, Color::White),
    };
    Some((digits.parse().ok()?, side))
}

/// A pawn's step to a square in words ("e4" is "pawn to e4").
fn pawn_step(token: &str) -> Option<String> {
    let square: shakmaty::Square = token.parse().ok()?;
    Some(format!("pawn to {square}"))
}

/// A move in SAN in words, when it is more than a pawn's step to a square.
fn san_words(token: &str) -> Option<String> {
    use shakmaty::san::{San, SanPlus, Suffix};
    let san: SanPlus = token.parse().ok()?;
    let mut text = match san.san {
        San::Castle(side) => match side {
            shakmaty::CastlingSide::KingSide => "castles kingside".to_string(),
            shakmaty::CastlingSide::QueenSide => "castles queenside".to_string(),
        },
        San::Normal {
            role: r,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            if r == Role::Pawn && !capture && promotion.is_none() && san.suffix.is_none() {
                return None;
            }
            let from = match (file, rank) {
                (Some(f), Some(r)) => format!(" from {}{}", f.char(), r.char()),
                (Some(f), None) => format!(" from {}", f.char()),
                (None, Some(r)) => format!(" from {}", r.char()),
                (None, None) => String::new(),
            };
            let verb = if capture { "takes" } else { "to" };
            let mut t = format!("{}{from} {verb} {to}", role(r));
            if let Some(p) = promotion {
                t.push_str(&format!(", promoting to {}", role(p)));
            }
            t
        }
        San::Put { .. } | San::Null => return None,
    };
    match san.suffix {
        Some(Suffix::Check) => text.push_str(", check"),
        Some(Suffix::Checkmate) => text.push_str(", checkmate"),
        None => {}
    }
    Some(text)
}

/// A search's score from White's side (the engine's scale, mates included) as said.
pub(crate) fn score(score_white: i32) -> String {
    use crate::review::judge::Eval;
    eval(match crate::engine::report(score_white) {
        crate::engine::Reported::Mate(n) => Eval::Mate(n),
        crate::engine::Reported::Cp(cp) => Eval::from_cp(cp),
    })
}

/// An evaluation as said: "plus 0.35", "minus 1.20", "White mates in 3", "Black mates in 2",
/// "a tablebase win for White", "a tablebase draw".
pub(crate) fn eval(e: crate::review::judge::Eval) -> String {
    use crate::review::judge::Eval;
    match e {
        Eval::Cp(cp) => {
            let sign = if cp < 0 { "minus" } else { "plus" };
            format!("{sign} {:.2}", f64::from(cp.abs()) / 100.0)
        }
        Eval::Mate(n) if n > 0 => format!("White mates in {n}"),
        Eval::Mate(n) => format!("Black mates in {}", n.unsigned_abs()),
        Eval::Checkmate(winner) => format!("{} has mated", winner.fold_wb("White", "Black")),
        Eval::Tablebase(winner) => {
            format!("a tablebase win for {}", winner.fold_wb("White", "Black"))
        }
        Eval::TablebaseDraw(_) => "a tablebase draw".to_string(),
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

    /// The position after `moves` (SAN) from the start.
    fn after(moves: &str) -> Chess {
        let game = crate::game::Game::from_pgn(&format!("{moves} *")).unwrap();
        game.position_at(game.moves().len()).clone()
    }

    #[test]
    fn a_line_from_a_known_position_says_where_each_move_comes_from_and_what_it_takes() {
        let hung = after("e4 f5 Qg4");
        assert_eq!(
            sans_in_from("hangs the queen on g4: 2... fxg4", &[&hung]),
            "hangs the queen on g4: 2... pawn from f5 takes queen on g4"
        );
        // The line that starts at the other position known, and goes on across move numbers.
        let before = after("e4 e5 Qh5 Nc6 Bc4");
        let next = after("e4 e5 Qh5 Nc6 Bc4 Nf6");
        assert_eq!(
            sans_in_from("allows mate in 1: 4. Qxf7#", &[&before, &next]),
            "allows mate in 1: 4. queen from h5 takes pawn on f7, checkmate"
        );
        assert_eq!(
            sans_in_from("misses 3... g6 4. Qf3 Nf6, which holds", &[&before, &next]),
            "misses 3... pawn from g7 to g6; 4. queen from h5 to f3; knight from g8 to f6, \
             which holds"
        );
        // A line from a position not given, or a move that is not legal there, is said as
        // `sans_in` says it.
        assert_eq!(
            sans_in_from("hangs the knight on f5: 15...Bxf5", &[&hung]),
            sans_in("hangs the knight on f5: 15...Bxf5")
        );
        assert_eq!(sans_in_from("2... Qxg4", &[&hung]), "2... queen takes g4");
        // A square on its own stays a square, though a pawn could step there.
        assert_eq!(
            sans_in_from(
                "hangs the queen on g4: 2... fxg4, which takes the queen on g4",
                &[&after("e4 f5"), &hung]
            ),
            "hangs the queen on g4: 2... pawn from f5 takes queen on g4, which takes the queen \
             on g4"
        );
        // A move on its own is the first position's, when it is legal there.
        assert_eq!(
            sans_in_from(
                "You played Qg4?? here. Bc4 was better; Black answers Nf6.",
                &[&after("e4 f5"), &hung]
            ),
            "You played queen from d1 to g4 here. bishop from f1 to c4 was better; Black \
             answers knight to f6."
        );
    }

    #[test]
    fn moves_in_a_sentence_are_said_in_words() {
        assert_eq!(
            sans_in("hangs the knight on f5: 15...Bxf5"),
            "hangs the knight on f5: 15... bishop takes f5"
        );
        assert_eq!(
            sans_in("allows mate in 2: 23. Qxh7+ Kf8 24. Qh8#"),
            "allows mate in 2: 23. queen takes h7, check; king to f8; 24. queen to h8, checkmate"
        );
        assert_eq!(sans_in("Hint: a4"), "Hint: pawn to a4");
        assert_eq!(
            sans_in("The engine plays d4."),
            "The engine plays pawn to d4."
        );
        assert_eq!(
            sans_in("plus 0.33: 1... e5 2. Nf3 d6 3. d4"),
            "plus 0.33: 1... pawn to e5; 2. knight to f3; pawn to d6; 3. pawn to d4"
        );
        assert_eq!(
            plain("Knightfall 3 ~1221, 1500 ± 700 → no…"),
            "Knightfall 3 about 1221, 1500 plus or minus 700 to no..."
        );
        assert_eq!(
            plain("no king of yours can move there"),
            "No king of yours can move there"
        );
        assert_eq!(
            sans_in("Right: Black answers Nbd7; e4 was fine, O-O too, then exd5 e8=Q."),
            "Right: Black answers knight from b to d7; e4 was fine, castles kingside too, \
             then pawn from e takes d5; pawn to e8, promoting to queen."
        );
        // Any text at all: letters of any width pass through as they are.
        for text in [
            "1500 ± 700",
            "é…",
            "±",
            "Qé",
            "15...±",
            "\u{1F600}!",
            "type UCI like e2e4 or e7e8q, or SAN like Nf3",
        ] {
            assert_eq!(sans_in(text), text);
        }
    }
}
