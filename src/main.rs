//! The `knightfall` binary: parses the command line and hands over to the matching command.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use knightfall::cmd;

#[derive(Parser)]
#[command(
    name = "knightfall",
    version,
    about = "A chess game for the terminal with its own engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the UCI protocol on stdin/stdout (for chess GUIs and match tools).
    Uci(knightfall::uci::Args),
    /// Search a fixed set of positions to a fixed depth and report nodes and speed.
    Bench(cmd::bench::Args),
    /// Print the static evaluation of a position.
    Eval(cmd::eval::Args),
    /// Search a position and print the engine's thinking and best line.
    Analyse(cmd::analyse::Args),
    /// Opening book: list a position's book moves, or build a Polyglot book from PGN games.
    Book(cmd::book::Args),
    /// Syzygy tablebases: probe a position's WDL and DTZ.
    Tb(cmd::tb::Args),
    /// Play a game in the terminal (human or engine on each side).
    Play(cmd::play::Args),
    /// Watch the engine play itself; `--headless` plays games without a screen.
    Watch(cmd::play::WatchArgs),
    /// Review a game: every move judged, accuracy, an evaluation graph; `--out` writes the game
    /// annotated instead.
    Review(cmd::review::Args),
    /// The analysis board: play both sides, side lines kept, the engine's best lines, the book
    /// and the tablebases beside it.
    Board(cmd::board::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Uci(args)) => knightfall::uci::run(&args),
        None if !std::io::stdin().is_terminal() => {
            knightfall::uci::run(&knightfall::uci::Args::default())
        }
        None => cmd::play::run(&cmd::play::Args::default(), true),
        Some(Command::Bench(args)) => cmd::bench::run(&args),
        Some(Command::Eval(args)) => cmd::eval::run(&args),
        Some(Command::Analyse(args)) => cmd::analyse::run(&args),
        Some(Command::Book(args)) => cmd::book::run(&args),
        Some(Command::Tb(args)) => cmd::tb::run(&args),
        Some(Command::Play(args)) => cmd::play::run(&args, false),
        Some(Command::Watch(args)) => cmd::play::watch(&args),
        Some(Command::Review(args)) => cmd::review::run(&args),
        Some(Command::Board(args)) => cmd::board::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // The terminal may be gone (SIGHUP); failing to say so is not a second error.
            let _ = writeln!(std::io::stderr(), "knightfall: {err:#}");
            ExitCode::FAILURE
        }
    }
}
