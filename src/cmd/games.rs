//! `knightfall games`: the library of games from elsewhere (lichess, chess.com, any PGN):
//! import files into it, list it, and export it, all of it or the games some filters take;
//! on its own, the library screen.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use clap::Subcommand;

use crate::output::tell;
use crate::store::library::Library;
use crate::store::library::filter::{self, Filter};
use crate::store::library::import::Summary;
use crate::store::library::reviews::Origin;
use crate::store::{self, Paths};
use crate::train::mistake::is_you;

/// Arguments of `games`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to do; without it, the library opens on screen to choose a game to review (on a
    /// terminal; elsewhere it is listed).
    #[command(subcommand)]
    pub action: Option<Action>,
    /// In plain text (`knightfall --text games`).
    #[arg(from_global)]
    pub text: bool,
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
    List(Which),
    /// Write games of the library as PGN to standard output (`> mine.pgn`), newest first; a
    /// reviewed game with its review: `[%eval]` on every move, and the verdicts as NAGs and
    /// comments.
    Export(Which),
}

/// Which games of the library: every one, or those all the filters given take.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Which {
    /// Games this player played (either side, any case).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// With --player: the games where they had this colour.
    #[arg(long, value_name = "white|black", requires = "player", value_parser = parse_color)]
    pub color: Option<shakmaty::Color>,
    /// 1-0, 0-1, 1/2-1/2 (or draw); with --player, win or loss.
    #[arg(long, value_parser = filter::Outcome::parse)]
    pub result: Option<filter::Outcome>,
    /// Games on this day or after: YYYY-MM-DD (or YYYY-MM, YYYY).
    #[arg(long, value_name = "DATE", value_parser = |t: &str| filter::parse_date(t, false))]
    pub since: Option<String>,
    /// Games on this day or before: YYYY-MM-DD (or YYYY-MM, YYYY).
    #[arg(long, value_name = "DATE", value_parser = |t: &str| filter::parse_date(t, true))]
    pub until: Option<String>,
    /// An ECO code or its start (B2 for B20-B29), or a piece of the opening's name.
    #[arg(long, value_name = "TEXT")]
    pub opening: Option<String>,
    /// 180+2 (seconds, as PGN writes it), 3+2 (minutes), or bullet, blitz, rapid, classical.
    #[arg(long, value_name = "TC", value_parser = filter::Clock::parse)]
    pub time_control: Option<filter::Clock>,
    /// Only games whose review is complete.
    #[arg(long, conflicts_with = "unreviewed")]
    pub reviewed: bool,
    /// Only games not reviewed, or reviewed in part.
    #[arg(long)]
    pub unreviewed: bool,
    /// At most this many games (the newest).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

impl Which {
    /// The library's filter.
    pub fn filter(&self) -> Result<Filter> {
        let filter = Filter {
            player: self.player.clone(),
            color: self.color,
            result: self.result,
            since: self.since.clone(),
            until: self.until.clone(),
            opening: self.opening.clone(),
            clock: self.time_control.clone(),
            reviewed: match (self.reviewed, self.unreviewed) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
            limit: self.limit,
        };
        filter.check().map_err(anyhow::Error::msg)?;
        Ok(filter)
    }
}

fn parse_color(text: &str) -> Result<shakmaty::Color, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(shakmaty::Color::White),
        "black" | "b" => Ok(shakmaty::Color::Black),
        _ => Err(format!("{text:?} is not a colour: use white or black")),
    }
}

/// Runs `games`.
pub fn run(args: &Args) -> Result<()> {
    let paths = Paths::get();
    let Some(action) = &args.action else {
        let mut config = crate::store::load_settings(&paths)?;
        config.text |= args.text;
        if config.text || std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            let review = super::review::Args::default();
            let settings = super::review::settings(&review, &config)?;
            let opts = super::board::tool_options(config, None);
            return crate::tui::run_library(settings, &opts);
        }
        return run(&Args {
            action: Some(Action::List(Which::default())),
            text: false,
        });
    };
    let mut library = Library::open(&paths.library())?;
    match action {
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
        Action::List(which) => {
            let filter = which.filter()?;
            library.index_folder(&paths)?;
            let mut out = String::new();
            for entry in library.find(&filter)? {
                out.push_str(&entry.line());
                out.push('\n');
            }
            super::emit(&out)
        }
        Action::Export(which) => {
            let filter = which.filter()?;
            library.index_folder(&paths)?;
            let entries = library.find(&filter)?;
            let (mut written, mut reviewed) = (0, 0);
            for entry in &entries {
                let text = match entry.review.filter(|r| r.complete()) {
                    Some(status) => {
                        let Some((review, _)) = library.review(entry.id)? else {
                            continue;
                        };
                        reviewed += 1;
                        review.annotated_pgn_by(annotator(status.origin, &review))
                    }
                    None => match library.pgn(entry.id)? {
                        Some(pgn) => pgn,
                        None => continue,
                    },
                };
                super::emit(&format!("{}\n\n", text.trim_end()))?;
                written += 1;
            }
            let games = if written == 1 { "game" } else { "games" };
            tell!("{written} {games} written, {reviewed} of them with their review.");
            Ok(())
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

/// The `Annotator` of an exported review: Knightfall's search, or the file's evaluations.
fn annotator(origin: Origin, review: &crate::review::Review) -> String {
    match origin {
        Origin::Engine => format!(
            "{}, {} ms per position",
            review.searched_by(),
            review.movetime_ms
        ),
        Origin::File => format!(
            "Knightfall {}, from the evaluations of the file imported",
            env!("CARGO_PKG_VERSION")
        ),
    }
}
