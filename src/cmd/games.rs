//! `knightfall games`: the library of games from elsewhere (lichess, chess.com, any PGN):
//! import files into it, and list it.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;

use crate::output::tell;
use crate::store::library::Library;
use crate::store::library::import::Summary;
use crate::store::{self, Paths};
use crate::train::mistake::is_you;

/// Arguments of `games`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// What `games` does.
#[derive(Subcommand, Debug)]
pub enum Action {
    /// Import PGN files (as lichess and chess.com export them); a game already in the library
    /// is not added again.
    Import {
        /// The PGN files, plain or compressed with zstd (`.pgn.zst`, as lichess's database).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Your name in these games (your lichess or chess.com username), kept in the config
        /// file's `accounts`: reviews and training take that player's moves as yours. Give it
        /// again for each account.
        #[arg(long = "name", value_name = "NAME")]
        names: Vec<String>,
    },
    /// Print the library (the games folder's finished games too), newest first, a game a line:
    /// date, White, Black, result, opening, time control, moves, review (tab-separated: each
    /// side's accuracy, how far it went, or `unreviewed`).
    List,
}

/// Runs `games`.
pub fn run(args: &Args) -> Result<()> {
    let paths = Paths::get();
    let mut library = Library::open(&paths.library())?;
    match &args.action {
        Action::Import { files, names } => {
            if !names.is_empty() {
                add_accounts(&paths, names)?;
            }
            let mut summary = Summary::default();
            for file in files {
                if let Err(e) = library.import(file, &mut summary) {
                    // One file that cannot be read does not stop the others.
                    summary.refused += 1;
                    *summary.kinds.entry("unreadable file".into()).or_default() += 1;
                    summary.named.push(format!("{e:#}"));
                }
            }
            tell!("{}", summary.report());
            tell!(
                "The library ({}) holds {} games.",
                paths.library().display(),
                library.count()?
            );
            if names.is_empty() {
                offer_name(&paths, &summary)?;
            }
            Ok(())
        }
        Action::List => {
            library.index_folder(&paths)?;
            let mut out = String::new();
            for entry in library.list()? {
                out.push_str(&entry.line());
                out.push('\n');
            }
            super::emit(&out)
        }
    }
}

/// Adds `names` to the config file's `accounts`, each once (in any case, as usernames go).
fn add_accounts(paths: &Paths, names: &[String]) -> Result<()> {
    let mut settings = store::load_settings(paths)?;
    let mut added = Vec::new();
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        if !is_you(name, &settings.accounts) {
            settings.accounts.push(name.to_string());
            added.push(name);
        }
    }
    if !added.is_empty() {
        store::save_settings(paths, &settings)?;
        tell!(
            "Your accounts, kept in {}: {}.",
            paths.config.display(),
            settings.accounts.join(", ")
        );
    }
    Ok(())
}

/// Where no account is known and none of the player's names plays in the games read, asks on
/// a terminal whether the player in most of them is the player, and keeps the name if so; not
/// on a terminal, says how to give it.
fn offer_name(paths: &Paths, summary: &Summary) -> Result<()> {
    let settings = store::load_settings(paths)?;
    let yours = settings.yours();
    if !settings.accounts.is_empty()
        || summary.games == 0
        || summary.players.keys().any(|n| is_you(n, &yours))
    {
        return Ok(());
    }
    let Some(name) = summary.main_player() else {
        tell!(
            "To have your own games known as yours (in reviews and training), import them with \
             --name and your lichess or chess.com username."
        );
        return Ok(());
    };
    let asking = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !asking {
        tell!(
            "{name} plays in most of these games: if that is you, import with --name {name} to \
             have those moves taken as yours in reviews and training."
        );
        return Ok(());
    }
    crate::output::note(format_args!("Are you {name}? [Y/n] "));
    let mut answer = String::new();
    let read = std::io::stdin().read_line(&mut answer)?;
    let answer = answer.trim().to_ascii_lowercase();
    if read > 0 && matches!(answer.as_str(), "" | "y" | "yes") {
        add_accounts(paths, &[name.to_string()])
    } else {
        tell!("Not kept; give your name with --name when you import.");
        Ok(())
    }
}
