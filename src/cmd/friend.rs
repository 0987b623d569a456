//! `knightfall host` and `knightfall join`: a game against a friend at another Knightfall.
//! The host listens and prints the code and the command to tell the friend; the guest
//! connects with them; then both play in the game screen they know.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args as ClapArgs, ValueEnum};
use shakmaty::Color;

use crate::game::Game;
use crate::net::channel::{NetError, Role};
use crate::net::code::Code;
use crate::net::meet::{self, History, Met, Redial, Refused, Terms};
use crate::net::message::Colour;
use crate::net::peer::{HEARTBEAT, Peer, SILENCE};
use crate::net::record::{self, Seat};
use crate::store::{Paths, Unfinished};
use crate::tui::app::{Mode, Remote, Settings, Side};
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
}

/// `knightfall host`.
pub fn host(args: &HostArgs) -> Result<()> {
    super::play::check_tc(&args.tc)?;
    let clock = args
        .tc
        .as_deref()
        .map(super::play::tc_setting)
        .filter(|tc| !tc.is_empty());
    if let Some(fen) = &args.fen {
        Game::from_fen(fen)?;
    }
    let Ready {
        left,
        settings,
        name,
    } = prepare(args.resume, Role::Host, args.name.as_deref())?;
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
    let terms = match &left {
        // The game left goes on as it was, whatever the flags.
        Some((Unfinished { game, .. }, seat)) => Terms {
            guest: seat.guest,
            clock: game.clocks().map(|c| c.tc.to_string()),
            fen: game.start_fen().map(String::from),
            id: seat.id.clone(),
            history: record::history(game),
        },
        None => Terms {
            guest: match args.color {
                HostColour::White => Colour::Black,
                HostColour::Black => Colour::White,
                HostColour::Random => {
                    if crate::rng::Rng::from_entropy().next_u64().is_multiple_of(2) {
                        Colour::White
                    } else {
                        Colour::Black
                    }
                }
            },
            clock,
            fen: args.fen.clone(),
            id: record::new_id(),
            history: Vec::new(),
        },
    };
    let met = meet::greet_guest(channel, &name, &terms).context("the friend's greeting")?;
    let moves = meet::merged(&terms.history, &met.history);
    let seat = Sitting {
        role: Role::Host,
        redial: Redial::Host(listener, code),
    };
    play(
        met,
        seat,
        &moves,
        left.map(|(u, _)| u),
        settings,
        name,
        args.ascii,
    )
}

/// What either side reads before it meets the other, once the terminal is there: the game it
/// left as `role` (when it resumes one), the settings, and the name the friend sees (`name`
/// the flag's).
fn prepare(resume: bool, role: Role, name: Option<&str>) -> Result<Ready> {
    needs_terminal()?;
    let paths = Paths::get();
    let left = if resume {
        Some(left_game(&paths, role)?)
    } else {
        None
    };
    let settings = crate::store::load_settings(&paths)?;
    let name = player_name(name, &settings);
    Ok(Ready {
        left,
        settings,
        name,
    })
}

/// What a side has read before it meets the other (see [`prepare`]).
struct Ready {
    left: Option<(Unfinished, Seat)>,
    settings: Settings,
    name: String,
}

/// The last game against a friend this side played as `role` that did not end, with its
/// seat.
fn left_game(paths: &Paths, role: Role) -> Result<(Unfinished, Seat)> {
    crate::store::unfinished(paths, None)
        .into_iter()
        .find_map(|u| {
            let seat = Seat::of(&u.game).filter(|s| s.role == role)?;
            Some((u, seat))
        })
        .with_context(|| {
            format!(
                "no unfinished game you {} to resume in {}",
                match role {
                    Role::Host => "hosted",
                    Role::Guest => "joined",
                },
                paths.data.display()
            )
        })
}

/// `knightfall join`.
pub fn join(args: &JoinArgs) -> Result<()> {
    let code: Code = args.code.parse().map_err(anyhow::Error::msg)?;
    let Ready {
        left,
        settings,
        name,
    } = prepare(args.resume, Role::Guest, args.name.as_deref())?;
    let channel = match meet::join(&args.address, &code) {
        Ok(channel) => channel,
        Err(NetError::WrongCode) => bail!(
            "the host refused the code {code}: check it with your friend (a wrong try spends \
             the host's code, so ask for the new one)"
        ),
        Err(e) => return Err(e).with_context(|| format!("could not join {}", args.address)),
    };
    let mine = |id: &str| -> History {
        match &left {
            Some((u, seat)) if seat.id == id => record::history(&u.game),
            _ => Vec::new(),
        }
    };
    let met = meet::greet_host(channel, &name, mine).context("the host's greeting")?;
    let mut resumed = None;
    let moves = match left {
        Some((u, seat)) if seat.id == met.id => {
            let moves = meet::merged(&met.history, &record::history(&u.game));
            resumed = Some(u);
            moves
        }
        Some(_) => bail!(
            "the host started another game, not the one you left: ask your friend to start \
             with `knightfall host --resume`"
        ),
        None => met.history.clone(),
    };
    let seat = Sitting {
        role: Role::Guest,
        redial: Redial::Guest(args.address.clone(), code),
    };
    play(met, seat, &moves, resumed, settings, name, args.ascii)
}

/// Plays the game the two sides met for, from `moves` (the record both agreed on); a game
/// `resumed` from an autosave keeps its date and tags, and leaves that file once this
/// side's own autosave holds it.
fn play(
    met: Met,
    Sitting { role, redial }: Sitting,
    moves: &History,
    resumed: Option<Unfinished>,
    mut settings: Settings,
    name: String,
    ascii: bool,
) -> Result<()> {
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
    let (game, from) = match resumed {
        Some(Unfinished { path, mut game }) => {
            while game.undo().is_some() {}
            (game, Some(path))
        }
        None => {
            let mut game = match &met.fen {
                Some(fen) => Game::from_fen(fen)?,
                None => Game::new(),
            };
            game.set_time_control(settings.time_control());
            (game, None)
        }
    };
    let mut game = record::replay(game, moves)
        .map_err(|why| anyhow::anyhow!("the game's record does not hold together: {why}"))?;
    Seat {
        id: met.id.clone(),
        role,
        guest: met.guest,
    }
    .mark(&mut game);
    let peer = Peer::start(met.channel, HEARTBEAT, SILENCE)?;
    tui::run_friend(
        Options {
            settings,
            home: false,
            setup: false,
            mode: Mode::Play,
            game: Some(game),
            resumed_from: from,
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
        redial,
    )
}

/// This side's part in the game and its way back to the other.
struct Sitting {
    role: Role,
    redial: Redial,
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
