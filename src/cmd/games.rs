//! `knightfall games`: the library of games from elsewhere (lichess, chess.com, any PGN):
//! import files into it, and list it; on its own, the library screen.

use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;

use crate::output::tell;
use crate::store::Paths;
use crate::store::library::Library;
use crate::store::library::import::Summary;

/// Arguments of `games`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to do; without it, the library opens on screen to choose a game to review (on a
    /// terminal; elsewhere it is listed).
    #[command(subcommand)]
    pub action: Option<Action>,
}

/// What `games` does.
#[derive(Subcommand, Debug)]
pub enum Action {
    /// Import PGN files (as lichess and chess.com export them); a game already in the library
    /// is not added again.
    Import {
        /// The PGN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the library (the games folder's finished games too), newest first, a game a line:
    /// date, White, Black, result, opening, time control, moves, review (tab-separated: each
    /// side's accuracy, how far it went, or `unreviewed`).
    List,
}

/// Runs `games`.
pub fn run(args: &Args) -> Result<()> {
    let paths = Paths::get();
    let Some(action) = &args.action else {
        if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            let review = super::review::Args::default();
            let opts = super::board::tool_options(crate::store::load_settings(&paths)?, None);
            return crate::tui::run_library(super::review::settings(&review), &opts);
        }
        return run(&Args {
            action: Some(Action::List),
        });
    };
    let mut library = Library::open(&paths.library())?;
    match action {
        Action::Import { files } => {
            let mut summary = Summary::default();
            for file in files {
                if let Err(e) = library.import(file, &mut summary) {
                    // One file that cannot be read does not stop the others.
                    summary.refused += 1;
                    summary.named.push(format!("{e:#}"));
                }
            }
            tell!("{}", summary.report());
            tell!(
                "The library ({}) holds {} games.",
                paths.library().display(),
                library.count()?
            );
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
