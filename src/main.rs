//! The `knightfall` binary: parses the command line and hands over to the matching command.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use knightfall::cmd;

/// The version and the commit it was built from, as `--version` prints them.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("KNIGHTFALL_COMMIT"),
    ")"
);

#[derive(Parser)]
#[command(
    name = "knightfall",
    version = VERSION,
    about = "A chess game for the terminal with its own engine",
    long_about = "A chess game for the terminal with its own engine. Without a command it opens \
                  the new-game screen; with standard input not a terminal it speaks UCI."
)]
struct Cli {
    /// Plain text: the game, the review, training and the analysis board as lines of words,
    /// for a screen reader or blindfold play (before or after the command: `knightfall --text
    /// review`, `knightfall train --text`).
    #[arg(long, global = true)]
    text: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The commands in the order a player meets them: the game first, the engine's tools after.
#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (human or engine on each side).
    Play(cmd::play::Args),
    /// Play a friend at another Knightfall: wait for them here, with a code to tell them.
    Host(cmd::friend::HostArgs),
    /// Play a friend who hosts the game: `knightfall join CODE ADDRESS`.
    Join(cmd::friend::JoinArgs),
    /// Watch the engine play itself; `--headless` plays games without a screen.
    Watch(cmd::play::WatchArgs),
    /// Review a game: every move judged, accuracy, an evaluation graph; `--out` writes the game
    /// annotated instead.
    Review(cmd::review::Args),
    /// Your games from elsewhere (lichess, chess.com, any PGN) in one library: import, list.
    Games(cmd::games::Args),
    /// Your statistics from the library: accuracy over time, results by colour, opening and
    /// speed, mistakes by phase, your best and worst games (plain text when piped).
    Stats(cmd::stats::Args),
    /// Train: your own mistakes again (from your reviewed games), puzzles, and endgames against
    /// perfect defence from the built-in tables, every move graded.
    Train(cmd::train::Args),
    /// Puzzles: build them from games (lichess-puzzler's rules), or print a puzzle set as
    /// lichess's puzzle CSV.
    Puzzles(cmd::puzzles::Args),
    /// The analysis board: play both sides, side lines kept, the engine's best lines, the book
    /// and the tablebases beside it.
    Board(cmd::board::Args),
    /// Speak the UCI protocol on stdin/stdout (for chess GUIs and match tools).
    Uci(knightfall::uci::Args),
    /// Search a position and print the engine's thinking and best line.
    Analyse(cmd::analyse::Args),
    /// Print the static evaluation of a position.
    Eval(cmd::eval::Args),
    /// Opening book: list a position's book moves, or build a Polyglot book from PGN games.
    Book(cmd::book::Args),
    /// Syzygy tablebases: probe a position's WDL and DTZ.
    Tb(cmd::tb::Args),
    /// Search a fixed set of positions to a fixed depth and report nodes and speed.
    Bench(cmd::bench::Args),
    /// Print a shell completion script (e.g. `knightfall completions bash >
    /// ~/.local/share/bash-completion/completions/knightfall`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page in roff (e.g. `knightfall man > knightfall.1; man -l knightfall.1`).
    Man,
}

fn main() -> ExitCode {
    // Past a file-size limit (`ulimit -f`) a write fails with EFBIG, which every writer handles
    // (a game is appended whole or not at all), instead of the signal killing the program
    // between the two.
    // SAFETY: setting a signal's disposition to "ignore" runs no code of ours in a handler.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let cli = Cli::parse();
    // What a killed Knightfall left half written goes at the next start of anything that
    // writes files (not the UCI engine, which a GUI starts and stops many times a game).
    let writes_files = !matches!(
        cli.command,
        Some(
            Command::Uci(_)
                | Command::Bench(_)
                | Command::Eval(_)
                | Command::Analyse(_)
                | Command::Tb(_)
                | Command::Completions { .. }
                | Command::Man
        )
    ) && (cli.command.is_some() || cli.text || std::io::stdin().is_terminal());
    if writes_files {
        knightfall::store::temporaries::remove_stale_everywhere(&knightfall::store::Paths::get());
    }
    let result = match cli.command {
        Some(Command::Uci(args)) => knightfall::uci::run(&args),
        None if !cli.text && !std::io::stdin().is_terminal() => {
            knightfall::uci::run(&knightfall::uci::Args::default())
        }
        None => cmd::play::run(
            &cmd::play::Args {
                text: cli.text,
                ..Default::default()
            },
            true,
        ),
        Some(Command::Bench(args)) => cmd::bench::run(&args),
        Some(Command::Eval(args)) => cmd::eval::run(&args),
        Some(Command::Analyse(args)) => cmd::analyse::run(&args),
        Some(Command::Book(args)) => cmd::book::run(&args),
        Some(Command::Tb(args)) => cmd::tb::run(&args),
        Some(Command::Play(args)) => cmd::play::run(&args, false),
        Some(Command::Host(args)) => cmd::friend::host(&args),
        Some(Command::Join(args)) => cmd::friend::join(&args),
        Some(Command::Watch(args)) => cmd::play::watch(&args),
        Some(Command::Review(args)) => cmd::review::run(&args),
        Some(Command::Board(args)) => cmd::board::run(&args),
        Some(Command::Train(args)) => cmd::train::run(&args),
        Some(Command::Games(args)) => cmd::games::run(&args),
        Some(Command::Stats(args)) => cmd::stats::run(&args),
        Some(Command::Puzzles(args)) => cmd::puzzles::run(&args),
        Some(Command::Completions { shell }) => print(|out| {
            clap_complete::generate(shell, &mut Cli::command(), "knightfall", out);
            Ok(())
        }),
        Some(Command::Man) => print(man_page),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of standard output went away (`| head`): nothing more is wanted.
        Err(err) if knightfall::output::closed(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // The terminal may be gone (SIGHUP); failing to say so is not a second error.
            knightfall::output::note(format_args!("knightfall: {err:#}\n"));
            ExitCode::FAILURE
        }
    }
}

/// Writes what `write` makes to standard output, through the one checked writer.
fn print(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> anyhow::Result<()> {
    let mut text = Vec::new();
    write(&mut text)?;
    knightfall::output::write(format_args!("{}", String::from_utf8_lossy(&text)))
}

/// The manual page: the program's page, then every command's synopsis, description and options
/// as sections of the same page (one page to read, not one per command).
fn man_page(out: &mut dyn Write) -> std::io::Result<()> {
    let cli = Cli::command();
    let mut page = Vec::new();
    clap_mangen::Man::new(cli.clone()).render(&mut page)?;
    let mut text = String::from_utf8_lossy(&page).into_owned();
    for sub in cli.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = sub.get_name();
        // The list of commands points into this page, not to pages of their own.
        text = text.replace(
            &format!("knightfall\\-{name}(1)"),
            &format!("knightfall {name}"),
        );
        let man = clap_mangen::Man::new(sub.clone().bin_name(format!("knightfall {name}")));
        let mut part = Vec::new();
        man.render_synopsis_section(&mut part)?;
        man.render_description_section(&mut part)?;
        if sub.get_arguments().any(|a| !a.is_hide_set()) {
            man.render_options_section(&mut part)?;
        }
        let part = String::from_utf8_lossy(&part);
        text.push_str(&format!(".SH \"KNIGHTFALL {}\"\n", name.to_uppercase()));
        for line in part.lines() {
            // The command's own headings become subsections of its section.
            match line.strip_prefix(".SH ") {
                Some(heading) => text.push_str(&format!(".SS {heading}\n")),
                None => {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
    }
    out.write_all(text.as_bytes())
}
