//! Opening theory: the moves at the start of a game that the embedded opening book plays.
//! The review answers their positions with a short search and judges none of them, as a
//! player expects of known theory.

use std::sync::OnceLock;

use crate::book::{Book, DEFAULT_MAX_PLY, game_ply};
use crate::game::Game;

/// How deep the positions before a book move are searched: enough for the evaluation graph,
/// a few milliseconds each.
pub const BOOK_DEPTH: u32 = 10;

/// The embedded book, checked once.
fn book() -> Option<&'static Book> {
    static BOOK: OnceLock<Option<Book>> = OnceLock::new();
    BOOK.get_or_init(|| Book::embedded().ok()).as_ref()
}

/// How many of `game`'s first moves are book moves: each in the embedded book with a weight
/// above zero (a weight of zero marks a move that never scored), all of them from the start,
/// and no deeper than the engine plays from its book (beyond that the lines rest on a game or
/// two).
pub fn book_plies(game: &Game) -> usize {
    let Some(book) = book() else {
        return 0;
    };
    game.moves()
        .iter()
        .enumerate()
        .take_while(|&(i, played)| {
            let pos = game.position_at(i);
            game_ply(pos) < DEFAULT_MAX_PLY
                && book
                    .moves(pos)
                    .iter()
                    .any(|b| b.mv == *played && b.weight > 0)
        })
        .count()
}
