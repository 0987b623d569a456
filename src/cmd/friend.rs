//! `knightfall host` and `knightfall join`: a game against a friend at another Knightfall.
//! The host listens and prints the code and the command to tell the friend; the guest
//! connects with them; then both play in the game screen they know.

use std::io::IsTerminal;
use std::time::Duration;

use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result, bail};
use clap::{Args as ClapArgs, ValueEnum};

use crate::game::Game;
use crate::net::channel::Role;
use crate::net::code::Code;
use crate::net::meet::{self, Met, Redial};
use crate::net::meeting::{self, News};
use crate::net::message::Colour;
use crate::net::peer::{HEARTBEAT, Peer, SILENCE};
use crate::store::{Paths, Unfinished};
use crate::tui::app::{Mode, Settings, seat};
use crate::tui::{self, Options};

/// The host's colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HostColour {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn at random.
    #[default]
    Random,
}

/// Flags of `knightfall host`.
#[derive(ClapArgs, Debug, Default)]
pub struct HostArgs {
    /// Time control MIN+INC (minutes + seconds, e.g. 5+3); none for an untimed game.
    #[arg(long)]
    pub tc: Option<String>,
    /// Go on with the last game you hosted that did not end (the link broke, or a Knightfall
    /// was stopped), with its clocks as they were; your friend joins with `join --resume`.
    #[arg(long, conflicts_with_all = ["tc", "fen"])]
    pub resume: bool,
    /// Your colour.
    #[arg(long, value_enum, default_value_t = HostColour::Random)]
    pub color: HostColour,
    /// The port to listen on.
    #[arg(long, default_value_t = meet::DEFAULT_PORT)]
    pub port: u16,
    /// Start from this position.
    #[arg(long)]
    pub fen: Option<String>,
    /// The name your friend sees (default: the config file's `name`, else your login).
    #[arg(long)]
    pub name: Option<String>,
    /// Draw pieces as ASCII letters.
    #[arg(long)]
    pub ascii: bool,
    /// In plain text (`knightfall --text host`).
    #[arg(from_global)]
    pub text: bool,
}

/// Flags of `knightfall join`.
#[derive(ClapArgs, Debug)]
pub struct JoinArgs {
    /// The code the host gave, e.g. 7-maple-anchor.
    pub code: String,
    /// The host's address, `HOST:PORT` (`[V6]:PORT` for IPv6; the port defaults to 7777).
    pub address: String,
    /// Go on with the last game you joined that did not end; the host starts with
    /// `host --resume`.
    #[arg(long)]
    pub resume: bool,
    /// The name your friend sees (default: the config file's `name`, else your login).
    #[arg(long)]
    pub name: Option<String>,
    /// Draw pieces as ASCII letters.
    #[arg(long)]
    pub ascii: bool,
    /// In plain text (`knightfall --text host`).
    #[arg(from_global)]
    pub text: bool,
}

/// `knightfall host`.
pub fn host(args: &HostArgs) -> Result<()> {
    super::play::check_tc(&args.tc)?;
    let clock = args.tc.as_deref().map(super::play::tc_setting);
    if let Some(fen) = &args.fen {
        Game::from_fen(fen)?;
    }
    let Ready {
        left,
        mut settings,
        name,
    } = prepare(args.resume, Role::Host, args.name.as_deref())?;
    settings.text |= args.text;
    let listener = meet::listen(args.port)
        .with_context(|| format!("could not listen on port {}", args.port))?;
    let guest = match args.color {
        HostColour::White => Some(Colour::Black),
        HostColour::Black => Some(Colour::White),
        HostColour::Random => None,
    };
    // The game left goes on as it was, whatever the flags.
    let terms = seat::terms(
        left.as_ref().map(|u| &u.game),
        guest,
        clock,
        args.fen.clone(),
    );
    let never = AtomicBool::new(false);
    let met = meeting::host(listener, &name, &terms, &never, &|news| say(&told(&news)))
        .map_err(anyhow::Error::msg)?
        .context("the wait for the friend ended")?;
    play(met, Role::Host, left, settings, name, args.ascii)
}

/// What either side reads before it meets the other, once the terminal is there: the game it
/// left as `role` (when it resumes one), the settings, and the name the friend sees (`name`
/// the flag's).
fn prepare(resume: bool, role: Role, name: Option<&str>) -> Result<Ready> {
    needs_terminal()?;
    let paths = Paths::get();
    let left = if resume {
        Some(seat::left_game(&paths, role).map_err(anyhow::Error::msg)?.0)
    } else {
        None
    };
    let settings = crate::store::load_settings(&paths)?;
    let name = seat::player_name(name, &settings);
    Ok(Ready {
        left,
        settings,
        name,
    })
}

/// What a side has read before it meets the other (see [`prepare`]).
struct Ready {
    left: Option<Unfinished>,
    settings: Settings,
    name: String,
}

/// `knightfall join`.
pub fn join(args: &JoinArgs) -> Result<()> {
    let code: Code = args.code.parse().map_err(anyhow::Error::msg)?;
    let Ready {
        left,
        mut settings,
        name,
    } = prepare(args.resume, Role::Guest, args.name.as_deref())?;
    settings.text |= args.text;
    let offered = seat::offered(left.as_ref().map(|u| &u.game));
    let met = meeting::guest(&args.address, code, &name, offered).map_err(anyhow::Error::msg)?;
    play(met, Role::Guest, left, settings, name, args.ascii)
}

/// Plays the game the two sides met for; a game `left` and resumed keeps its date and tags,
/// and leaves its file once this side's own autosave holds it.
fn play(
    (met, redial): (Met, Redial),
    role: Role,
    left: Option<Unfinished>,
    settings: Settings,
    name: String,
    ascii: bool,
) -> Result<()> {
    let seat::Seated {
        game,
        mut settings,
        remote,
        resumed_from,
    } = seat::seat(&met, role, left, settings, name).map_err(anyhow::Error::msg)?;
    settings.ascii |= ascii || !super::play::unicode_terminal();
    let text = settings.text;
    let peer = Peer::start(met.channel, HEARTBEAT, SILENCE)?;
    tui::run_friend(
        Options {
            settings,
            home: false,
            setup: false,
            mode: Mode::Play,
            game: Some(game),
            resumed_from,
            start_fen: met.fen.clone(),
            think_ms: None,
            min_delay: Duration::ZERO,
            remember: false,
            book: None,
            no_book: false,
            syzygy: None,
            text,
        },
        peer,
        remote,
        redial,
    )
}

/// A line for the player waiting at the terminal for `news`.
fn told(news: &News) -> String {
    match news {
        News::Listening { code, port } => invitation(code, *port),
        other => other.said(),
    }
}

/// The command the host tells the friend, with the addresses this machine has.
fn invitation(code: &Code, port: u16) -> String {
    let mut text = String::from("Tell your friend to run:\n");
    let addresses = meet::addresses(port);
    if addresses.is_empty() {
        text.push_str(&format!(
            "  knightfall join {code} <this machine's address>:{port}\n"
        ));
    }
    for address in addresses {
        text.push_str(&format!("  knightfall join {code} {address}\n"));
    }
    text.push_str(&format!(
        "On this machine: knightfall join {code} 127.0.0.1:{port}\nAcross the internet: a \
         port forwarded on your router, or an SSH tunnel (see the README).\nWaiting for your \
         friend (Ctrl-C stops)..."
    ));
    text
}

fn needs_terminal() -> Result<()> {
    if !std::io::stdout().is_terminal() {
        bail!("a game against a friend needs a terminal");
    }
    Ok(())
}

/// A line for the player waiting at the terminal (before the game's screen takes it).
fn say(text: &str) {
    crate::output::note(format_args!("{text}\n"));
}
