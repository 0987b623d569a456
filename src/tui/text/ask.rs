//! The questions a player may ask at any time in the plain-text mode, answered from the game
//! as it stands: the board by rank or by file, where pieces stand, what attacks a square, the
//! last moves, the clocks, a piece's legal moves, the material and the opening. A line that is
//! no question goes to the game as typed.

use shakmaty::{Chess, Color, File, Position, Rank, Role, Square};

use super::words;
use crate::game::Game;
use crate::tui::app::App;

/// What `help` says.
pub(crate) const HELP: &[&str] = &[
    "Type a move as e4, Nf3 or g1f3. Questions, any time:",
    "board: every rank, 8 to 1. rank 4, file e: one of them.",
    "pieces, pieces white, pieces black: where each piece stands.",
    "where queen, where black knight: that piece's squares.",
    "square f7: what stands there, and which pieces attack or defend it.",
    "legal g1: where the piece on g1 may go.",
    "moves: the last moves. clock: the time each side has left.",
    "material: the pieces' points. opening: the opening's name. score: the engine's evaluation, where the game shows it.",
    "Game words: draw, resign, undo, hint, new, save, quit; y or n answers a question.",
    "review: review the game. analysis: the analysis board. Each says help for its own words.",
];

/// The questions' help on a screen other than the game's (no clock there).
pub(crate) const QUESTIONS: &str = "Questions: board, rank 4, file e, pieces, pieces white, where queen, square f7, legal g1, moves, material, opening.";

/// What a question is asked about: the position shown, the game it is in with the plies up
/// to it, and the game being played (its clocks), if it is one.
pub(crate) struct Seen<'a> {
    /// The position shown.
    pub pos: Chess,
    /// The game and how many of its moves lead to the position.
    pub game: Option<(Game, usize)>,
    /// The game played, on the game screen.
    pub app: Option<&'a App>,
}

/// The answer to `line` when it is a question about `seen`, line by line; `None` when it is
/// not one.
pub(crate) fn answer(line: &str, seen: &Seen) -> Option<Vec<String>> {
    let line = line.trim().to_ascii_lowercase();
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    let pos = &seen.pos;
    Some(match (first, rest.as_slice()) {
        ("help", []) => HELP.iter().map(|s| (*s).to_string()).collect(),
        ("board", []) => Rank::ALL.iter().rev().map(|&r| rank_line(pos, r)).collect(),
        ("rank", [n]) => match n.parse::<u32>().ok().filter(|n| (1..=8).contains(n)) {
            Some(n) => vec![rank_line(pos, Rank::new(n - 1))],
            None => vec![format!("There is no rank {n}: ranks go from 1 to 8.")],
        },
        ("file", [f]) => match f.parse::<char>().ok().and_then(File::from_char) {
            Some(file) => vec![format!(
                "File {}: {}.",
                file.char(),
                words::on(pos, Rank::ALL.iter().map(|&r| Square::from_coords(file, r)))
            )],
            None => vec![format!("There is no file {f}: files go from a to h.")],
        },
        ("pieces", []) => Color::ALL.iter().map(|&c| pieces(pos, c)).collect(),
        ("pieces", [c]) => match colour(c) {
            Some(c) => vec![pieces(pos, c)],
            None => vec![format!(
                "There is no colour {c}: pieces white, or pieces black."
            )],
        },
        ("where", what) => vec![whereabouts(pos, what)],
        ("square", [sq]) => match sq.parse::<Square>() {
            Ok(sq) => vec![square(pos, sq)],
            Err(_) => vec![format!(
                "There is no square {sq}: a file and a rank, like f7."
            )],
        },
        ("legal", [sq]) => match sq.parse::<Square>() {
            Ok(sq) => vec![legal(pos, sq)],
            Err(_) => vec![format!(
                "There is no square {sq}: a file and a rank, like g1."
            )],
        },
        ("moves", []) => vec![match &seen.game {
            Some((game, ply)) => last_moves(game, *ply),
            None => "No game here.".to_string(),
        }],
        ("clock" | "clocks" | "time", []) => vec![match seen.app {
            Some(app) => clocks(app),
            None => "No clock here.".to_string(),
        }],
        ("material", []) => vec![material(pos)],
        ("score", []) => vec![match seen.app {
            Some(app) => score(app),
            None => "No evaluation here: the analysis board's is lines.".to_string(),
        }],
        ("opening", []) => vec![match seen.game.as_ref().and_then(|(g, _)| g.opening()) {
            // Its ECO code is left out: letters and digits that say nothing aloud.
            Some(o) => format!("{}.", o.name),
            None => "No opening named yet.".to_string(),
        }],
        _ => return None,
    })
}

fn colour(word: &str) -> Option<Color> {
    match word {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        _ => None,
    }
}

fn role_named(word: &str) -> Option<Role> {
    let word = word.strip_suffix('s').unwrap_or(word);
    words::ROLES.into_iter().find(|&r| words::role(r) == word)
}

fn rank_line(pos: &Chess, rank: Rank) -> String {
    format!(
        "Rank {}: {}.",
        rank.char(),
        words::on(pos, File::ALL.iter().map(|&f| Square::from_coords(f, rank)))
    )
}

/// A side's pieces, king first, each kind with its squares.
pub(crate) fn pieces(pos: &Chess, c: Color) -> String {
    let board = pos.board();
    let kinds: Vec<String> = words::ROLES
        .into_iter()
        .filter_map(|r| named(board, r, c, " "))
        .collect();
    format!("{}: {}.", capital(words::colour(c)), kinds.join(", "))
}

fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `c`'s pieces of kind `r` and their squares, the name and the squares with `between`
/// them ("knights on b1 g1"); `None` when there is none.
fn named(board: &shakmaty::Board, r: Role, c: Color, between: &str) -> Option<String> {
    let squares: Vec<String> = (board.by_role(r) & board.by_color(c))
        .into_iter()
        .map(|sq| sq.to_string())
        .collect();
    let name = match squares.len() {
        0 => return None,
        1 => words::role(r).to_string(),
        _ => words::roles(r),
    };
    Some(format!("{name}{between}{}", squares.join(" ")))
}

/// Where a kind of piece stands: `what` is "queen", "black knight" or "knights".
fn whereabouts(pos: &Chess, what: &[&str]) -> String {
    let (colours, name): (Vec<Color>, &str) = match what {
        [c, name] => match colour(c) {
            Some(c) => (vec![c], name),
            None => return format!("There is no colour {c}: where black knight, say."),
        },
        [name] => (Color::ALL.to_vec(), name),
        _ => return "Where what? where queen, or where black knight.".into(),
    };
    let Some(r) = role_named(name) else {
        return format!(
            "There is no piece called {name}: king, queen, rook, bishop, knight or pawn."
        );
    };
    let board = pos.board();
    colours
        .iter()
        .map(|&c| {
            let who = capital(words::colour(c));
            match named(board, r, c, " on ") {
                Some(them) => format!("{who} {them}."),
                None => format!("{who} has no {}.", words::role(r)),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What stands on `sq` and the pieces of each side that attack it.
fn square(pos: &Chess, sq: Square) -> String {
    let board = pos.board();
    let on = match board.piece_at(sq) {
        Some(p) => words::piece(p),
        None => "empty".to_string(),
    };
    let attackers = |c: Color| -> Vec<String> {
        board
            .attacks_to(sq, c, board.occupied())
            .into_iter()
            .filter_map(|from| {
                board
                    .piece_at(from)
                    .map(|p| format!("{} {from}", words::role(p.role)))
            })
            .collect()
    };
    let mut text = format!("{sq}: {on}.");
    for c in Color::ALL {
        let by = attackers(c);
        // A piece's own side defends it, the other attacks it; an empty square is reached.
        let verb = match board.piece_at(sq) {
            Some(p) if p.color == c => "Defended",
            Some(_) => "Attacked",
            None => "Reached",
        };
        if !by.is_empty() {
            text.push_str(&format!(
                " {verb} by {}: {}.",
                words::colour(c),
                by.join(", ")
            ));
        }
    }
    text
}

/// Where the piece on `sq` may go.
fn legal(pos: &Chess, sq: Square) -> String {
    let Some(p) = pos.board().piece_at(sq) else {
        return format!("{sq} is empty.");
    };
    if p.color != pos.turn() {
        return format!(
            "The {} on {sq} is {}'s, and it is {}'s move.",
            words::piece(p),
            words::colour(p.color),
            words::colour(pos.turn())
        );
    }
    let targets: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Some(sq))
        .map(|m| words::moved(pos, m))
        .collect();
    if targets.is_empty() {
        format!("The {} on {sq} has no legal move.", words::role(p.role))
    } else {
        format!("{}: {}.", capital(&words::piece(p)), targets.join("; "))
    }
}

/// The last few moves up to ply `ply` of `game`, numbered.
fn last_moves(game: &Game, ply: usize) -> String {
    if ply == 0 {
        return "No move yet.".into();
    }
    let from = ply.saturating_sub(6);
    let said: Vec<String> = (from..ply.min(game.moves().len()))
        .map(|i| {
            let before = game.position_at(i);
            let who = crate::tui::app::color_name(before.turn());
            format!(
                "move {} {who}: {}",
                before.fullmoves(),
                words::moved(before, &game.moves()[i])
            )
        })
        .collect();
    format!("{}.", said.join("; "))
}

/// The time each side has left, the side to move's running.
fn clocks(app: &App) -> String {
    let Some(c) = app.game.clocks() else {
        return "This game has no clock.".into();
    };
    let turn = app.game.turn();
    let left = |side: Color| {
        let l = c.left(side);
        if side == turn && !app.game.is_over() {
            l.saturating_sub(app.thinking_time())
        } else {
            l
        }
    };
    format!(
        "White {}, Black {}.",
        words::clock(left(Color::White)),
        words::clock(left(Color::Black))
    )
}

/// The engine's last evaluation, from White's side, when the game shows it (not while a
/// person plays the engine, unless they asked for it with `eval`).
fn score(app: &App) -> String {
    if app.eval_hidden() {
        return "The evaluation is kept hidden in a game against the engine until it ends; eval shows it from now on.".into();
    }
    let analysis = &app.search.analysis;
    match analysis.score_white {
        Some(score) => format!("{}, depth {}.", words::score(score), analysis.depth),
        None => "No evaluation yet: the engine has not searched this game.".into(),
    }
}

/// Each side's material in points (pawn 1, knight and bishop 3, rook 5, queen 9).
fn material(pos: &Chess) -> String {
    let board = pos.board();
    let points = |c: Color| -> u32 {
        [
            (Role::Pawn, 1),
            (Role::Knight, 3),
            (Role::Bishop, 3),
            (Role::Rook, 5),
            (Role::Queen, 9),
        ]
        .iter()
        .map(|&(r, v)| (board.by_role(r) & board.by_color(c)).count() as u32 * v)
        .sum()
    };
    let (w, b) = (points(Color::White), points(Color::Black));
    let balance = match w.cmp(&b) {
        std::cmp::Ordering::Equal => "even".to_string(),
        std::cmp::Ordering::Greater => format!("White is {} ahead", w - b),
        std::cmp::Ordering::Less => format!("Black is {} ahead", b - w),
    };
    format!("White {w} points, Black {b}: {balance}.")
}
