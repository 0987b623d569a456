//! `knightfall play` and `knightfall watch`: flags over the saved settings, then the terminal
//! game; `watch --headless` plays engine games without a screen and writes them as PGN.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;

use crate::game::{Game, TimeControl};
use crate::store::Paths;
use crate::tui::app::{Mode, Settings, Side};
use crate::tui::{self, Options};

/// Playing levels for Knightfall's sides (shared by `play` and `watch`).
#[derive(ClapArgs, Debug, Default, Clone)]
pub struct LevelArgs {
    /// Knightfall's level from 1 (beginner) to 10 (full strength). Without it `play` takes
    /// the config file's `level` (3 at the first start) and `watch` plays at 10.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: Option<u8>,
    /// Knightfall's level when it plays White (overrides --level).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub white_level: Option<u8>,
    /// Knightfall's level when it plays Black (overrides --level).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub black_level: Option<u8>,
}

impl LevelArgs {
    fn apply(&self, settings: &mut Settings) {
        if let Some(level) = self.level {
            settings.level = level;
            (settings.white_level, settings.black_level) = (None, None);
        }
        if self.white_level.is_some() {
            settings.white_level = self.white_level;
        }
        if self.black_level.is_some() {
            settings.black_level = self.black_level;
        }
    }
}

/// Where book and tablebase moves come from (shared by `play` and `watch`).
#[derive(ClapArgs, Debug, Default, Clone)]
pub struct SourceArgs {
    /// Polyglot opening book (default: the embedded one).
    #[arg(long, conflicts_with = "no_book")]
    pub book: Option<String>,
    /// Play without an opening book.
    #[arg(long)]
    pub no_book: bool,
    /// Syzygy tablebase directories, `DIR[:DIR...]` (default: `SYZYGY_PATH`).
    #[arg(long)]
    pub syzygy: Option<String>,
}

/// Flags of `knightfall play`.
#[derive(ClapArgs, Debug, Default)]
pub struct Args {
    /// Who plays White: human, engine (Knightfall), uci:COMMAND (another UCI engine), or the
    /// name of an engine in the config file.
    #[arg(long)]
    pub white: Option<Side>,
    /// Who plays Black (as --white). Naming one side human makes the other the engine.
    #[arg(long)]
    pub black: Option<Side>,
    /// Time control MIN+INC (minutes + seconds, e.g. 5+3; `10s+0.1` for seconds); `none` or 0
    /// for none, which is the default (the new-game screen offers the last one used).
    #[arg(long)]
    pub tc: Option<String>,
    /// Engine thinking time per move without a time control, in milliseconds.
    #[arg(long)]
    pub think_ms: Option<u64>,
    /// Start from this position.
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Continue the game in this PGN file.
    #[arg(long)]
    pub pgn: Option<String>,
    /// Which game of the --pgn file (from 1); a file of several games needs it.
    #[arg(long, requires = "pgn", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// Continue the last unfinished game.
    #[arg(long, conflicts_with_all = ["fen", "pgn"])]
    pub resume: bool,
    /// Knightfall's levels.
    #[command(flatten)]
    pub levels: LevelArgs,
    /// Draw pieces as ASCII letters.
    #[arg(long)]
    pub ascii: bool,
    /// Show the new-game screen first.
    #[arg(long)]
    pub setup: bool,
    /// Plain text (`--text`, before or after the command; also `text = true` in the config):
    /// every event a line of words, questions answered (`help`), no screen.
    #[arg(from_global)]
    pub text: bool,
    /// Opening book and tablebases.
    #[command(flatten)]
    pub sources: SourceArgs,
}

/// Flags of `knightfall watch`.
#[derive(ClapArgs, Debug)]
pub struct WatchArgs {
    /// Who plays White: engine (Knightfall, the default), uci:COMMAND, or a configured engine.
    #[arg(long, default_value = "engine")]
    pub white: Side,
    /// Who plays Black (as --white).
    #[arg(long, default_value = "engine")]
    pub black: Side,
    /// Time control MIN+INC for both engines (minutes + seconds; `10s+0.1` for seconds).
    #[arg(long)]
    pub tc: Option<String>,
    /// Think time per move for both sides without a time control, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// White's think time per move (overrides --think-ms).
    #[arg(long)]
    pub white_ms: Option<u64>,
    /// Black's think time per move (overrides --think-ms).
    #[arg(long)]
    pub black_ms: Option<u64>,
    /// Least time between moves, so a person can follow, in milliseconds.
    #[arg(long, default_value_t = 800)]
    pub delay_ms: u64,
    /// Start from this position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Knightfall's levels.
    #[command(flatten)]
    pub levels: LevelArgs,
    /// Draw pieces as ASCII letters.
    #[arg(long)]
    pub ascii: bool,
    /// Play without a screen, for soak tests.
    #[arg(long)]
    pub headless: bool,
    /// Headless: number of games.
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// Headless: write the games to this PGN file (without it, each game is kept in the games
    /// folder's watched/, apart from your own games).
    #[arg(long)]
    pub pgn: Option<String>,
    /// Headless: random plies at the start of each game (on top of the book), for variety.
    #[arg(long, default_value_t = 0)]
    pub random_plies: u32,
    /// Opening book and tablebases.
    #[command(flatten)]
    pub sources: SourceArgs,
    /// In plain text (`knightfall --text watch`).
    #[arg(from_global)]
    pub text: bool,
}

pub(super) fn check_tc(tc: &Option<String>) -> Result<()> {
    if let Some(tc) = tc
        && !untimed(tc)
    {
        TimeControl::parse(tc).map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

/// Whether a `--tc` value asks for no clock: `none`, `0` or `0+0`.
fn untimed(tc: &str) -> bool {
    matches!(tc.trim(), "" | "none" | "0" | "0+0")
}

/// The settings' time control for a `--tc` value.
pub(super) fn tc_setting(tc: &str) -> String {
    if untimed(tc) {
        String::new()
    } else {
        tc.trim().to_string()
    }
}

/// `knightfall play`; `setup_screen` when started with no arguments.
pub fn run(args: &Args, setup_screen: bool) -> Result<()> {
    check_tc(&args.tc)?;
    let paths = Paths::get();
    let mut settings = crate::store::load_settings(&paths)?;
    if let Some(w) = &args.white {
        settings.white = w.clone();
    }
    if let Some(b) = &args.black {
        settings.black = b.clone();
    }
    // Naming one side human makes the other the engine unless it is named too.
    match (&args.white, &args.black) {
        (Some(Side::Human), None) => settings.black = Side::Engine,
        (None, Some(Side::Human)) => settings.white = Side::Engine,
        _ => {}
    }
    if args.white.is_some() || args.black.is_some() {
        settings.random_colour = false;
    }
    settings.check_sides().map_err(anyhow::Error::msg)?;
    // A file that cannot be a game is refused before anything else (a device or a fifo would
    // never end, a huge file would fill the memory).
    let from_pgn = match &args.pgn {
        Some(file) => Some(pgn_game(file, args.game)?),
        None => None,
    };
    let text = args.text || settings.text;
    if !text && !std::io::stdout().is_terminal() {
        bail!("the terminal game needs a terminal; use `knightfall uci` for GUIs");
    }
    // A game started from the command line has the clock its flags give, none without one;
    // the new-game screen offers the last clock chosen there.
    match &args.tc {
        Some(tc) => settings.tc = tc_setting(tc),
        None if !(setup_screen || args.setup) => settings.tc = String::new(),
        None => {}
    }
    if let Some(ms) = args.think_ms {
        settings.think_ms = ms.max(1);
    }
    args.levels.apply(&mut settings);
    settings.ascii |= args.ascii || !unicode_terminal();
    let mut resumed_from = None;
    let game = if args.resume {
        let crate::store::Unfinished { path, game } = crate::store::resume_game(&paths)?;
        resumed_from = Some(path);
        // The game goes on between the same players, unless the flags name others.
        if args.white.is_none() && args.black.is_none() {
            let unconfirmed = settings.adopt_players(&game);
            if let Some((color, command)) = unconfirmed.first() {
                let flag = color.fold_wb("--white", "--black");
                bail!(
                    "the last game was played against an engine the config file does not name \
                     ({command}); Knightfall runs no program a file names: to go on against it, \
                     say so with `knightfall play --resume {flag} \"uci:{command}\"`"
                );
            }
            // What the game's players are is checked as the flags' are.
            settings.check_sides().map_err(anyhow::Error::msg)?;
        }
        Some(game)
    } else if from_pgn.is_some() {
        from_pgn
    } else if let Some(fen) = &args.fen {
        Some(Game::from_fen(fen)?)
    } else {
        None
    };
    tui::run(Options {
        settings,
        // The plain text has no home screen: it asks the new-game choices first.
        home: setup_screen && !args.setup && !text,
        setup: setup_screen || args.setup,
        mode: Mode::Play,
        game,
        resumed_from,
        start_fen: args.fen.clone(),
        think_ms: None,
        min_delay: Duration::ZERO,
        // Flags override the saved settings for this game only; the setup screen saves.
        remember: false,
        book: args.sources.book.clone(),
        no_book: args.sources.no_book,
        syzygy: args.sources.syzygy.clone(),
        text,
    })
}

/// Game `number` (from 1) of the PGN file `file`; a file of one game needs no number, and one
/// of several is not taken at its first game silently.
fn pgn_game(file: &str, number: Option<u64>) -> Result<Game> {
    // Scanned, not read whole: only a regular file, its games found as the review finds them.
    let listed = crate::store::read_games(std::path::Path::new(file))?;
    let chosen = match (number, listed.len()) {
        (None, 1) => &listed[0],
        (None, n) => bail!(
            "{file} holds {n} games: choose one with --game N (`knightfall review {file}` lists them)"
        ),
        (Some(k), n) => listed
            .get(usize::try_from(k - 1).unwrap_or(usize::MAX))
            .with_context(|| format!("{file} holds {n} games; --game {k} is not one"))?,
    };
    chosen
        .load()
        .map_err(|why| anyhow::anyhow!("reading {file}: {why}"))
}

/// Whether the locale promises UTF-8 (`LC_ALL`, `LC_CTYPE`, `LANG`, first one set); without it
/// the board falls back to ASCII letters.
pub(crate) fn unicode_terminal() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .is_none_or(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

/// `knightfall watch`.
pub fn watch(args: &WatchArgs) -> Result<()> {
    check_tc(&args.tc)?;
    if let Some(fen) = &args.fen {
        Game::from_fen(fen)?;
    }
    // The config file's engines and tables; the sides and clocks come from the flags.
    let saved = crate::store::load_settings(&Paths::get())?;
    let saved_text = saved.text;
    let mut settings = Settings {
        white: args.white.clone(),
        black: args.black.clone(),
        tc: args.tc.as_deref().map(tc_setting).unwrap_or_default(),
        think_ms: args.think_ms.max(1),
        ascii: args.ascii || !unicode_terminal(),
        level: crate::engine::strength::MAX_LEVEL,
        syzygy: saved.syzygy,
        engines: saved.engines,
        threads: saved.threads,
        theme: saved.theme,
        // Not used by watching, but kept should a new game from here save the settings.
        sound: saved.sound,
        show_eval: saved.show_eval,
        name: saved.name,
        ..Settings::default()
    };
    args.levels.apply(&mut settings);
    settings.check_sides().map_err(anyhow::Error::msg)?;
    let text = args.text || saved_text;
    if !args.headless && !text && !std::io::stdout().is_terminal() {
        bail!("watch needs a terminal; add --headless to play without a screen");
    }
    let ms = |o: Option<u64>| o.unwrap_or(args.think_ms).max(1);
    let opts = Options {
        settings,
        home: false,
        setup: false,
        mode: Mode::Watch,
        game: None,
        resumed_from: None,
        start_fen: args.fen.clone(),
        think_ms: Some([ms(args.white_ms), ms(args.black_ms)]),
        min_delay: Duration::from_millis(args.delay_ms),
        remember: false,
        book: args.sources.book.clone(),
        no_book: args.sources.no_book,
        syzygy: args.sources.syzygy.clone(),
        text,
    };
    if args.headless {
        return tui::headless::run(
            &opts,
            &tui::headless::Series {
                games: args.games,
                pgn: args.pgn.clone(),
                random_plies: args.random_plies,
            },
        );
    }
    tui::run(opts)
}
