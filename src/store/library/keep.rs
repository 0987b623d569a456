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

/// What is known of `game`'s review (game `id` of `library`, when known) by `engine` (`None`:
/// Knightfall's own search; see [`Review::engine`]), asked for at `movetime_ms` (a review
/// found at another time keeps its own): the library's or the cache's, whichever knows more;
/// and the game's id in the library, when it is there.
pub fn known(
    library: Option<&Library>,
    paths: &Paths,
    game: Game,
    id: Option<i64>,
    movetime_ms: u64,
    engine: Option<String>,
) -> (Review, Option<i64>) {
    let mut cached = Review::new(game, movetime_ms);
    cached.engine = engine;
    review_cache::load(&paths.reviews(), &mut cached);
    let Some(library) = library else {
        return (cached, id);
    };
    let id = id_of(library, &cached.game, id);
    let kept = id.and_then(|id| library.review(id).ok().flatten());
    match kept {
        Some((kept, _))
            if kept.engine == cached.engine
                && kept.done() > cached.done()
                && kept.evals.len() == cached.evals.len() =>
        {
            let mut review = Review::new(cached.game, kept.movetime_ms);
            review.engine = kept.engine;
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
    // What another engine found is replaced, never mixed in: one review, one engine.
    if let Some((kept, was)) = library.review(id)?
        && kept.evals.len() == merged.evals.len()
        && kept.engine == merged.engine
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

    /// A library in `dir` holding the one game of `moves` (imported from `dir/g.pgn`), its
    /// paths and the game's id.
    fn library_of(dir: &std::path::Path, moves: &str) -> (Paths, Library, i64) {
        let paths = Paths {
            config: dir.join("config.toml"),
            data: dir.join("games"),
            autosave: dir.join("games/current.pgn"),
        };
        let mut library = Library::open(&paths.library()).unwrap();
        let file = dir.join("g.pgn");
        std::fs::write(&file, format!("[White \"a\"]\n[Black \"b\"]\n\n{moves}\n")).unwrap();
        library
            .import(&file, &mut super::super::import::Summary::default())
            .unwrap();
        let id = library.list().unwrap()[0].id;
        (paths, library, id)
    }

    #[test]
    fn a_review_kept_joins_what_the_library_found_meanwhile_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let (paths, mut library, id) = library_of(dir.path(), "1. e4 e5 2. Nf3 Nc6 *");
        let file = dir.path().join("g.pgn");
        // The game as `review FILE` reads it, not knowing its id.
        let game = crate::store::read_games(&file).unwrap()[0].load().unwrap();
        // The screen found the first two positions; a bulk review meanwhile the last.
        let (mut bulk, _) = library.review(id).unwrap().unwrap();
        bulk.evals[4] = eval(10);
        library.save_review(id, &bulk, Origin::Engine).unwrap();
        let (mut screen, found) = known(Some(&library), &paths, game.clone(), None, 250, None);
        assert_eq!(found, Some(id), "the game is found by what it is");
        assert_eq!(screen.done(), 1);
        screen.evals[0] = eval(20);
        screen.evals[1] = eval(30);
        let (kept, status) = keep(Some(&mut library), &paths, &screen, Some(id))
            .unwrap()
            .unwrap();
        assert_eq!((kept, status.done), (id, 3));
        // Both read it back: the library as it keeps it, the cache as far as the screen went.
        let (back, _) = known(Some(&library), &paths, game.clone(), None, 250, None);
        assert_eq!(back.done(), 3);
        assert_eq!(review_cache::cached(&paths.reviews(), game, 250).done(), 3);
    }

    #[test]
    fn a_review_by_another_engine_is_its_own_and_replaces_the_other_never_mixed() {
        let dir = tempfile::tempdir().unwrap();
        let (paths, mut library, id) = library_of(dir.path(), "1. d4 d5 *");
        let game = library.game(id).unwrap().unwrap();
        // Knightfall's review, half done.
        let (mut own, _) = known(Some(&library), &paths, game.clone(), Some(id), 250, None);
        own.evals[0] = eval(20);
        own.evals[1] = eval(25);
        keep(Some(&mut library), &paths, &own, Some(id)).unwrap();
        // Asked of Stockfish, nothing is known: Knightfall's positions are not Stockfish's.
        let sf = Some("stockfish".to_string());
        let (mut other, _) = known(
            Some(&library),
            &paths,
            game.clone(),
            Some(id),
            250,
            sf.clone(),
        );
        assert_eq!((other.done(), other.engine.clone()), (0, sf.clone()));
        other.evals[2] = eval(-40);
        keep(Some(&mut library), &paths, &other, Some(id)).unwrap();
        // The library keeps Stockfish's alone, named as such; the cache keeps both apart.
        let (kept, origin) = library.review(id).unwrap().unwrap();
        assert_eq!(
            (kept.done(), kept.engine.clone(), origin),
            (1, sf.clone(), Origin::Engine)
        );
        assert_eq!(kept.eval(2), Some(Eval::Cp(-40)));
        let (mine, _) = known(Some(&library), &paths, game.clone(), Some(id), 250, None);
        assert_eq!(
            (mine.done(), mine.engine),
            (2, None),
            "the cache's own review"
        );
        let (theirs, _) = known(Some(&library), &paths, game, Some(id), 250, sf.clone());
        assert_eq!((theirs.done(), theirs.engine), (1, sf));
    }
}
