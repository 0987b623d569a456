//! knightfall-tune: Texel tuning of the tapered evaluation, apart from the engine.
//!
//! `gen` plays the engine against itself at a fixed node count and keeps quiet positions with
//! the game's result; `fit` fits every weight of `engine::params` to those results (a logistic
//! fit of the evaluation, the scale K fitted first) and writes `src/engine/tuned.rs`.
//! `tools/tune.sh` runs both with the settings the shipped weights were made with.

mod fit;
mod selfplay;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "knightfall-tune",
    about = "Texel tuning of Knightfall's evaluation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games at a fixed node count; writes `FEN;result;game` lines of quiet positions.
    Gen(selfplay::Args),
    /// Fits the weights to a `gen` file and writes them as Rust source.
    Fit(fit::Args),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Gen(args) => selfplay::run(&args),
        Command::Fit(args) => fit::run(&args),
    }
}
