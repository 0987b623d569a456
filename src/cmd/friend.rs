//! `knightfall host` and `knightfall join`: a game against a friend at another Knightfall.
//! The host listens and prints the code and the command to tell the friend; the guest
//! connects with them; then both play in the game screen they know.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args as ClapArgs, ValueEnum};
use shakmaty::Color;

use crate::game::{Game, TimeControl};
use crate::net::channel::{NetError, Role};
use crate::net::code::Code;
use crate::net::meet::{self, Met, Refused, Terms};
use crate::net::message::Colour;
use crate::net::peer::Peer;
use crate::store::Paths;
use crate::tui::app::{Mode, Remote, Settings, Side};
use crate::tui::{self, Options};

/// How often each side says it is there.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// How long a silent link is given before it counts as lost.
const SILENCE: Duration = Duration::from_secs(5);

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
}

/// Flags of `knightfall join`.
#[derive(ClapArgs, Debug)]
pub struct JoinArgs {
    /// The code the host gave, e.g. 7-maple-anchor.
    pub code: String,
    /// The host's address, `HOST:PORT` (`[V6]:PORT` for IPv6; the port defaults to 7777).
    pub address: String,
    /// The name your friend sees (default: the config file's `name`, else your login).
    #[arg(long)]
    pub name: Option<String>,
    /// Draw pieces as ASCII letters.
    #[arg(long)]
    pub ascii: bool,
}

/// `knightfall host`.
pub fn host(args: &HostArgs) -> Result<()> {
    let clock = match args.tc.as_deref().map(str::trim) {
        None | Some("" | "none" | "0" | "0+0") => None,
        Some(tc) => {
            TimeControl::parse(tc).map_err(anyhow::Error::msg)?;
            Some(tc.to_string())
        }
    };
    if let Some(fen) = &args.fen {
        Game::from_fen(fen)?;
    }
    needs_terminal()?;
    let settings = crate::store::load_settings(&Paths::get())?;
    let name = player_name(args.name.as_deref(), &settings);
    let listener = meet::listen(args.port)
        .with_context(|| format!("could not listen on port {}", args.port))?;
    let port = listener.local_addr()?.port();
    let mut code = Code::random();
    say(&invitation(&code, port));
    let channel = loop {
        match meet::accept(&listener, &code)? {
            Ok(channel) => break channel,
            Err(Refused::WrongCode(from)) => {
                code = Code::random();
                say(&format!(
                    "Someone at {from} tried a wrong code: that code is spent, so a guess gets \
                     one try.\n{}",
                    invitation(&code, port)
                ));
            }
            Err(Refused::Stranger(from, why)) => say(&format!(
                "A connection from {from} was turned away ({why}); the code still holds. \
                 Still waiting."
            )),
        }
    };
    let guest = match args.color {
        HostColour::White => Colour::Black,
        HostColour::Black => Colour::White,
        HostColour::Random => {
            if crate::rng::Rng::from_entropy().next_u64().is_multiple_of(2) {
                Colour::White
            } else {
                Colour::Black
            }
        }
    };
    let terms = Terms {
        guest,
        clock,
        fen: args.fen.clone(),
    };
    let met = meet::greet_guest(channel, &name, &terms).context("the friend's greeting")?;
    play(met, Role::Host, settings, name, args.ascii)
}

/// `knightfall join`.
pub fn join(args: &JoinArgs) -> Result<()> {
    let code: Code = args.code.parse().map_err(anyhow::Error::msg)?;
    needs_terminal()?;
    let settings = crate::store::load_settings(&Paths::get())?;
    let name = player_name(args.name.as_deref(), &settings);
    let channel = match meet::join(&args.address, &code) {
        Ok(channel) => channel,
        Err(NetError::WrongCode) => bail!(
            "the host refused the code {code}: check it with your friend (a wrong try spends \
             the host's code, so ask for the new one)"
        ),
        Err(e) => return Err(e).with_context(|| format!("could not join {}", args.address)),
    };
    let met = meet::greet_host(channel, &name).context("the host's greeting")?;
    play(met, Role::Guest, settings, name, args.ascii)
}

/// Plays the game the two sides met for.
fn play(met: Met, role: Role, mut settings: Settings, name: String, ascii: bool) -> Result<()> {
    let guest = match met.guest {
        Colour::White => Color::White,
        Colour::Black => Color::Black,
    };
    let friend = match role {
        Role::Host => guest,
        Role::Guest => !guest,
    };
    let them = Side::Friend(met.name.clone());
    (settings.white, settings.black) = match friend {
        Color::White => (them, Side::Human),
        Color::Black => (Side::Human, them),
    };
    settings.random_colour = false;
    settings.name = name;
    settings.tc = met.clock.clone().unwrap_or_default();
    settings.ascii |= ascii || !super::play::unicode_terminal();
    let game = match &met.fen {
        Some(fen) => Some(Game::from_fen(fen)?),
        None => None,
    };
    let peer = Peer::start(met.channel, HEARTBEAT, SILENCE)?;
    tui::run_friend(
        Options {
            settings,
            home: false,
            setup: false,
            mode: Mode::Play,
            game,
            resumed_from: None,
            start_fen: met.fen.clone(),
            think_ms: None,
            min_delay: Duration::ZERO,
            remember: false,
            book: None,
            no_book: false,
            syzygy: None,
        },
        peer,
        Remote::new(role, friend),
    )
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

/// The name the friend sees: the flag's, the config file's, the login's, in that order.
fn player_name(flag: Option<&str>, settings: &Settings) -> String {
    let clean = |s: &str| crate::net::message::clean(s, crate::net::message::MAX_NAME);
    [
        flag.map(clean),
        Some(clean(&settings.name)),
        std::env::var("USER").ok().map(|u| clean(&u)),
    ]
    .into_iter()
    .flatten()
    .find(|n| !n.is_empty())
    .unwrap_or_else(|| "Friend".into())
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
