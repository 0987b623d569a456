//! `knightfall eval`: the static evaluation of one position.

use crate::output::say;
use anyhow::{Context, Result, bail};
use shakmaty::fen::Fen;

use crate::engine::{Evaluator, Profile};

/// Arguments of `eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Evaluation profile: simplified or tapered.
    #[arg(long, default_value = "tapered")]
    pub profile: String,
    /// Print each term (`TERM: VALUE`, centipawns, White's view, after tapering) and the
    /// `total: VALUE` they add up to.
    #[arg(long)]
    pub trace: bool,
    /// The position in FEN (quote it, or pass its six fields as separate words).
    #[arg(required = true, num_args = 1..)]
    pub fen: Vec<String>,
}

/// Prints the profile and the evaluation; the last line is the integer, White's view (with
/// `--trace`, each term and then `total: VALUE`).
pub fn run(args: &Args) -> Result<()> {
    let Some(profile) = Profile::parse(&args.profile) else {
        bail!(
            "unknown profile {:?} (use simplified or tapered)",
            args.profile
        );
    };
    // Only the placement matters here, so positions that could not arise in a game (such as the
    // side to move giving check, as in the notebooks' own examples) are evaluated too.
    let text = args.fen.join(" ");
    let fen: Fen = text
        .trim()
        .parse()
        .with_context(|| format!("bad FEN {text:?}"))?;
    let setup = fen.into_setup();
    let (board, turn) = (setup.board, setup.turn);
    let evaluator = Evaluator::new(profile);
    let score = evaluator.evaluate(&board, turn, evaluator.accumulate(&board));
    if args.trace {
        let (how, terms) = evaluator.trace(&board, turn);
        say!("{how}")?;
        for (term, value) in terms {
            say!("{term}: {value}")?;
        }
        say!("total: {score}")?;
        return Ok(());
    }
    say!("profile {}", profile.name())?;
    say!("{score}")?;
    Ok(())
}
