//! `knightfall train`: the training screen. Without a kind it opens its list (your mistakes,
//! the puzzles, the endings); `train mistakes`, `train puzzles` and `train endgames KQvK` start
//! one kind at once.

use anyhow::{Result, bail};

use crate::train::{Difficulty, Drill, Ending};
use crate::tui::train::Start;

/// Arguments of `train`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// What to train (the list when left out).
    #[command(subcommand)]
    pub kind: Option<Kind>,
    /// In plain text (`knightfall --text train`).
    #[arg(from_global)]
    pub text: bool,
}

/// The kinds of drill.
#[derive(clap::Subcommand, Debug)]
pub enum Kind {
    /// Practise your own mistakes and blunders, found by the reviews of your games: the ones
    /// due today, on a spaced-repetition schedule.
    Mistakes,
    /// Solve puzzles from the built-in set and those imported from lichess's database
    /// (`knightfall puzzles import`), the next one near your puzzle rating.
    Puzzles {
        /// Open this puzzle: its id in `knightfall puzzles export`, or lichess's id of an
        /// imported one.
        #[arg(long)]
        id: Option<String>,
    },
    /// Play a 3- or 4-piece ending against perfect defence from the built-in tables: win it
    /// (or hold the draw), graded move by move, against par.
    Endgames {
        /// The ending, the side you play first: KQvK, KRvK, KPvK, KvKP, KBNvK, KQvKR, any of 3
        /// or 4 pieces (the list when left out).
        ending: Option<String>,
        /// How long the win is by the tables: easy, medium or hard.
        #[arg(long, default_value = "medium", value_parser = Difficulty::parse)]
        difficulty: Difficulty,
        /// Start from this position (FEN, 3 or 4 pieces) instead of a random one; the side to
        /// move is yours.
        #[arg(long, conflicts_with = "ending")]
        fen: Option<String>,
    },
}

/// Runs `train`.
pub fn run(args: &Args) -> Result<()> {
    let start = match &args.kind {
        None => Start::List(Difficulty::default()),
        Some(Kind::Mistakes) => Start::Mistakes,
        Some(Kind::Puzzles { id }) => {
            if let Some(id) = id
                && !crate::train::puzzle::built_in().iter().any(|p| p.id == *id)
                && !imported(id)?
            {
                bail!("there is no puzzle {id:?} in the built-in set nor among the imported ones");
            }
            Start::Puzzles(id.clone())
        }
        Some(Kind::Endgames {
            ending,
            difficulty,
            fen,
        }) => match (ending, fen) {
            (_, Some(fen)) => {
                // Refused here, with the reason, before the screen opens.
                let tables = crate::tablebase::Tablebases::embedded();
                if let Err(e) = Drill::from_fen(fen, &tables, crate::rng::Rng::new(1)) {
                    bail!("{e}");
                }
                Start::Fen(fen.clone())
            }
            (Some(name), None) => {
                let ending = Ending::parse(name).map_err(anyhow::Error::msg)?;
                let tables = crate::tablebase::Tablebases::embedded();
                if let Err(e) = Drill::new(&ending, *difficulty, &tables, crate::rng::Rng::new(1)) {
                    bail!("{e}");
                }
                Start::Ending(ending, *difficulty)
            }
            (None, None) => Start::List(*difficulty),
        },
    };
    let mut settings = crate::store::load_settings(&crate::store::Paths::get())?;
    settings.text |= args.text;
    crate::tui::run_train(start, &super::board::tool_options(settings, None))
}

/// Whether the library holds an imported puzzle with id `id` (none without a library).
fn imported(id: &str) -> Result<bool> {
    let path = crate::store::Paths::get().library();
    if !path.exists() {
        return Ok(false);
    }
    let library = crate::store::library::Library::open(&path)?;
    Ok(library.puzzle_row(id)?.is_some())
}
