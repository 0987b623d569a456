//! One way every review is read and kept, whatever shows it: the library's review when the
//! game is in the library (chosen there, or a game of the games folder, which the library
//! brings in), the review cache's otherwise. What is found is kept in both: the cache is still
//! what `review FILE` and the training's mistakes read.

use anyhow::Result;

use super::Library;
use super::reviews::{Origin, Status};
use crate::game::Game;
use crate::review::Review;
use crate::store::{Paths, review_cache};

/// Game `id` of `library` when given, else `game` found there by what it is.
fn id_of(library: &Library, game: &Game, id: Option<i64>) -> Option<i64> {
    id.or_else(|| library.id_of(game).ok().flatten())
}

/// What is known of `game`'s review (game `id` of `library`, when known), asked for at
/// `movetime_ms` (a review found at another time keeps its own): the library's or the cache's,
/// whichever knows more; and the game's id in the library, when it is there.
pub fn known(
    library: Option<&Library>,
    paths: &Paths,
    game: Game,
    id: Option<i64>,
    movetime_ms: u64,
) -> (Review, Option<i64>) {
    let cached = review_cache::cached(&paths.reviews(), game, movetime_ms);
    let Some(library) = library else {
        return (cached, id);
    };
    let id = id_of(library, &cached.game, id);
    let kept = id.and_then(|id| library.review(id).ok().flatten());
    match kept {
        Some((kept, _))
            if kept.done() > cached.done() && kept.evals.len() == cached.evals.len() =>
        {
            let mut review = Review::new(cached.game, kept.movetime_ms);
            review.evals = kept.evals;
            (review, id)
        }
        _ => (cached, id),
    }
}

/// Keeps what `review` found (of game `id` of `library`, when known): in the library when the
/// game is there, with what the library found of it meanwhile (a bulk review's positions)
/// kept too, and in the review cache. The game's id and status in the library, when it is
/// there.
pub fn keep(
    library: Option<&mut Library>,
    paths: &Paths,
    review: &Review,
    id: Option<i64>,
) -> Result<Option<(i64, Status)>> {
    let Some((library, id)) = library.and_then(|l| id_of(l, &review.game, id).map(|id| (l, id)))
    else {
        review_cache::save(&paths.reviews(), review)?;
        return Ok(None);
    };
    let mut merged = review.clone();
    let mut origin = Origin::Engine;
    if let Some((kept, was)) = library.review(id)?
        && kept.evals.len() == merged.evals.len()
    {
        if kept.done() > 0 {
            origin = was;
        }
        for (mine, theirs) in merged.evals.iter_mut().zip(kept.evals) {
            if mine.is_none() {
                *mine = theirs;
            }
        }
    }
    let cached = review_cache::save(&paths.reviews(), &merged);
    library.save_review(id, &merged, origin)?;
    cached?;
    Ok(library.status(id)?.map(|status| (id, status)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::analyse::PositionEval;
    use crate::review::judge::Eval;

    fn eval(cp: i32) -> Option<PositionEval> {
        Some(PositionEval {
            eval: Eval::Cp(cp),
            line: Vec::new(),
            depth: 5,
        })
    }

    #[test]
    fn a_review_kept_joins_what_the_library_found_meanwhile_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths {
            config: dir.path().join("config.toml"),
            data: dir.path().join("games"),
            autosave: dir.path().join("games/current.pgn"),
        };
        let mut library = Library::open(&paths.library()).unwrap();
        let file = dir.path().join("g.pgn");
        std::fs::write(
            &file,
            "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
        )
        .unwrap();
        library
            .import(&file, &mut super::super::import::Summary::default())
            .unwrap();
        let id = library.list().unwrap()[0].id;
        // The game as `review FILE` reads it, not knowing its id.
        let game = crate::store::read_games(&file).unwrap()[0].load().unwrap();
        // The screen found the first two positions; a bulk review meanwhile the last.
        let (mut bulk, _) = library.review(id).unwrap().unwrap();
        bulk.evals[4] = eval(10);
        library.save_review(id, &bulk, Origin::Engine).unwrap();
        let (mut screen, found) = known(Some(&library), &paths, game.clone(), None, 250);
        assert_eq!(found, Some(id), "the game is found by what it is");
        assert_eq!(screen.done(), 1);
        screen.evals[0] = eval(20);
        screen.evals[1] = eval(30);
        let (kept, status) = keep(Some(&mut library), &paths, &screen, Some(id))
            .unwrap()
            .unwrap();
        assert_eq!((kept, status.done), (id, 3));
        // Both read it back: the library as it keeps it, the cache as far as the screen went.
        let (back, _) = known(Some(&library), &paths, game.clone(), None, 250);
        assert_eq!(back.done(), 3);
        assert_eq!(review_cache::cached(&paths.reviews(), game, 250).done(), 3);
    }
}
