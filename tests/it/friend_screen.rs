//! The friend screen, where a player meets it: two Knightfalls started with no command, one
//! hosting from the home screen's "Play a friend", the other joining there with the code and
//! address the host's screen shows; a wait stopped frees the port; and the screen's rows, as
//! its actions drive it.

#![allow(
    clippy::unwrap_used,
    reason = "a test's helpers fail loudly, where the failure is"
)]

use std::path::Path;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::game::Game;
use knightfall::net::channel::Role;
use knightfall::net::code::Code;
use knightfall::net::message::Colour;
use knightfall::net::record::Seat;
use knightfall::store::Unfinished;
use knightfall::tui::friend::{FriendScreen, Row, Waiting};
use knightfall::tui::screen::{Action, Effect, Heard, Meet, Palette};
use shakmaty::Color;

use crate::friend::{kept, sees, type_line};
use crate::tui_pty::{STTY_AFTER, Session, start, temp_home};

const DOWN: &[u8] = b"\x1b[B";
const RIGHT: &[u8] = b"\x1b[C";
const CLEAR: &[u8] = b"\x15";

/// A Knightfall started with no command in `home`, whose config names the player `name`.
fn knightfall(home: &Path, name: &str) -> Session {
    std::fs::write(home.join("config.toml"), format!("name = \"{name}\"\n")).unwrap();
    let s = start(home, &format!("\"$KNIGHTFALL_BIN\"{STTY_AFTER}"));
    s.wait_for_screen("the home screen", 20, |screen| {
        screen.contains("Play a friend")
    });
    s
}

/// Hosts from the home screen on a free port with `keys` typed on the form first; the code
/// and the port the waiting screen shows.
fn host_from_home(s: &mut Session, keys: &[&[u8]]) -> (String, String) {
    s.send(b"f");
    s.wait_for_screen("the friend screen", 20, |screen| {
        screen.contains("Host a game")
    });
    for k in keys {
        s.send(k);
    }
    // The port row: a free port, any.
    s.send(DOWN);
    s.send(DOWN);
    s.send(CLEAR);
    s.send(b"0\r");
    let screen = s.wait_for_screen("the invitation", 20, |screen| {
        screen.contains("(on this machine)")
    });
    let code = screen
        .lines()
        .find_map(|l| l.split("Code").nth(1))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let port = screen
        .lines()
        .find(|l| l.contains("(on this machine)"))
        .and_then(|l| l.split("127.0.0.1:").nth(1))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    (code, port)
}

/// Joins from the home screen with `code` at `address`.
fn join_from_home(s: &mut Session, code: &str, address: &str) {
    s.send(b"f");
    s.wait_for_screen("the friend screen", 20, |screen| {
        screen.contains("Join a game")
    });
    for _ in 0..3 {
        s.send(DOWN);
    }
    s.send(code.as_bytes());
    s.send(DOWN);
    s.send(address.as_bytes());
    s.send(b"\r");
}

#[test]
fn two_knightfalls_meet_through_their_friend_screens_and_play() {
    let (host_home, guest_home) = (temp_home("screen-host"), temp_home("screen-guest"));
    let mut host = knightfall(&host_home, "Ana");
    let mut guest = knightfall(&guest_home, "Bob");
    // White, on a 3+2 clock typed on the clock row.
    let (code, port) = host_from_home(&mut host, &[RIGHT, DOWN, CLEAR, b"3+2", b"\x1b[A"]);
    join_from_home(&mut guest, &code, &format!("127.0.0.1:{port}"));
    sees(&host, "You play White against Bob");
    sees(&guest, "You play Black against Ana");
    type_line(&mut host, "e4");
    sees(&guest, "1. e4");
    type_line(&mut guest, "e5");
    sees(&host, "1. e4       e5");
    type_line(&mut guest, "say from the screen");
    sees(&host, "Bob: from the screen");
    // Resigned, and kept alike on both sides.
    host.send(b"\x12");
    sees(&host, "Resign this game? (y/n)");
    host.send(b"y");
    sees(&guest, "Black wins");
    for s in [&mut host, &mut guest] {
        type_line(s, "quit");
        s.wait_for("the shell", 20, |s| s.text().contains("DONE"));
        assert!(s.text().contains("EXIT=0"), "{}", s.text());
    }
    let (a, b) = (kept(&host_home), kept(&guest_home));
    assert_eq!(a.sans(), ["e4", "e5"]);
    assert_eq!(a.sans(), b.sans());
    assert_eq!(a.names, ["Ana".to_string(), "Bob".to_string()]);
    assert_eq!(a.names, b.names);
    assert_eq!(a.outcome(), b.outcome());
    assert!(
        a.to_pgn().contains("[TimeControl \"180+2\"]"),
        "{}",
        a.to_pgn()
    );
    assert_eq!(Seat::of(&a).unwrap().role, Role::Host);
    assert_eq!(Seat::of(&b).unwrap().role, Role::Guest);
    // The host's clock settings are this game's alone: the config file keeps no friend.
    let config = std::fs::read_to_string(host_home.join("config.toml")).unwrap();
    assert!(
        !config.contains("180+2") && !config.contains("3+2"),
        "{config}"
    );
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}

#[test]
fn a_wait_stopped_frees_the_port_and_a_wrong_code_is_said_on_the_screen() {
    let home = temp_home("screen-stop");
    let mut host = knightfall(&home, "Ana");
    let (code, port) = host_from_home(&mut host, &[]);
    // A caller with another code: the host's screen says the code is spent and shows a new one.
    let wrong: Code = std::iter::repeat_with(Code::random)
        .find(|c| c.to_string() != code)
        .unwrap();
    let called = knightfall::net::meet::join(&format!("127.0.0.1:{port}"), &wrong);
    assert!(called.is_err());
    sees(&host, "tried a wrong code");
    let fresh = host.wait_for_screen("a new code", 20, |screen| !screen.contains(&code));
    assert!(fresh.contains("Code"), "{fresh}");
    host.send(b"\x1b");
    sees(&host, "You stopped waiting.");
    let refused = std::net::TcpStream::connect(format!("127.0.0.1:{port}"));
    assert!(refused.is_err(), "the port is still open");
    type_line(&mut host, "");
    host.send(b"\x11");
    host.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let _ = std::fs::remove_dir_all(&home);
}

// The screen as its actions drive it.

fn key(code: KeyCode) -> Action {
    Action::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(screen: &mut FriendScreen, text: &str) {
    for c in text.chars() {
        screen.update(key(KeyCode::Char(c)), Instant::now());
    }
}

fn screen() -> FriendScreen {
    FriendScreen::new(Vec::new(), None, None, String::new(), Palette::default())
}

/// Moves to `row`.
fn to(screen: &mut FriendScreen, row: Row) {
    while screen.chosen_row() != row {
        screen.update(key(KeyCode::Down), Instant::now());
    }
}

fn enter(screen: &mut FriendScreen) -> Vec<Effect> {
    screen.update(key(KeyCode::Enter), Instant::now())
}

fn said(screen: &FriendScreen) -> String {
    screen.message.clone().map(|m| m.0).unwrap_or_default()
}

#[test]
fn enter_hosts_on_the_hosts_rows_with_the_colour_and_clock_chosen() {
    let mut s = screen();
    s.update(key(KeyCode::Right), Instant::now());
    assert_eq!(s.you, Some(Color::White));
    to(&mut s, Row::Clock);
    typed(&mut s, "5+3x");
    assert_eq!(s.clock, "5+3", "a letter no clock has is not typed");
    let fx = enter(&mut s);
    let [Effect::Meet(meet)] = fx.as_slice() else {
        panic!("{fx:?}")
    };
    let Meet::Host {
        port, guest, clock, ..
    } = meet.as_ref()
    else {
        panic!("{meet:?}")
    };
    assert_eq!(
        (*port, *guest, clock.as_str()),
        (7777, Some(Colour::Black), "5+3")
    );
    assert!(matches!(
        s.waiting,
        Some(Waiting::Host { invite: None, .. })
    ));
    // The invitation heard is shown; Esc stops the wait and calls it off.
    let code = Code::random();
    s.update(
        Action::Meeting(Heard::Invite {
            code,
            port: 7777,
            addresses: Vec::new(),
        }),
        Instant::now(),
    );
    assert!(matches!(
        s.waiting,
        Some(Waiting::Host { invite: Some((c, 7777)), .. }) if c == code
    ));
    let fx = s.update(key(KeyCode::Esc), Instant::now());
    assert!(matches!(fx.as_slice(), [Effect::CallOff]), "{fx:?}");
    assert!(s.waiting.is_none());
}

#[test]
fn what_does_not_read_well_is_said_and_nothing_starts() {
    let mut s = screen();
    to(&mut s, Row::Clock);
    typed(&mut s, "5++");
    assert!(enter(&mut s).is_empty());
    assert!(said(&s).starts_with("The clock"), "{}", said(&s));
    s.update(
        Action::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
        Instant::now(),
    );
    to(&mut s, Row::Port);
    s.update(
        Action::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
        Instant::now(),
    );
    typed(&mut s, "99999");
    assert!(enter(&mut s).is_empty());
    assert!(said(&s).contains("is no port"), "{}", said(&s));
    to(&mut s, Row::Code);
    assert!(enter(&mut s).is_empty());
    assert!(said(&s).contains("Type the code"), "{}", said(&s));
    typed(&mut s, "7-Maple-ANCHOR");
    assert_eq!(s.code, "7-Maple-ANCHOR");
    assert!(enter(&mut s).is_empty());
    assert!(said(&s).contains("Type the address"), "{}", said(&s));
    to(&mut s, Row::Address);
    typed(&mut s, "[::1]:7777");
    let fx = enter(&mut s);
    let [Effect::Meet(meet)] = fx.as_slice() else {
        panic!("{fx:?}")
    };
    assert!(
        matches!(meet.as_ref(), Meet::Join { address, code, .. }
            if address == "[::1]:7777" && code.to_string() == "7-maple-anchor"),
        "{meet:?}"
    );
    assert_eq!(s.waiting, Some(Waiting::Join("[::1]:7777".into())));
    // A failure ends the wait with the reason.
    s.update(
        Action::Meeting(Heard::Failed("could not join [::1]:7777".into())),
        Instant::now(),
    );
    assert!(s.waiting.is_none());
    assert_eq!(said(&s), "could not join [::1]:7777");
}

/// A game against a friend left unfinished, in the seat `role`.
fn left(role: Role) -> Unfinished {
    let mut game = Game::new();
    game.play_text("e4", None).unwrap();
    Seat {
        id: "0123456789abcdef".into(),
        role,
        guest: Colour::Black,
    }
    .mark(&mut game);
    Unfinished {
        path: "current.pgn".into(),
        game,
    }
}

#[test]
fn a_game_left_is_hosted_or_joined_again_as_it_was() {
    let hosted = FriendScreen::new(
        vec![left(Role::Host)],
        Some(0),
        None,
        String::new(),
        Palette::default(),
    );
    // Its colours and clock hold: only the port is asked.
    assert_eq!(hosted.rows(), [Row::Game, Row::Port]);
    let mut s = hosted.clone();
    let fx = enter(&mut s);
    assert!(
        matches!(fx.as_slice(), [Effect::Meet(m)] if matches!(m.as_ref(), Meet::Host { left: Some(_), .. })),
        "{fx:?}"
    );
    let mut joined = FriendScreen::new(
        vec![left(Role::Guest)],
        Some(0),
        None,
        String::new(),
        Palette::default(),
    );
    assert_eq!(joined.rows(), [Row::Game, Row::Code, Row::Address]);
    // A new game instead: every row again.
    joined.update(key(KeyCode::Right), Instant::now());
    assert_eq!(joined.chosen, None);
    assert_eq!(joined.rows().len(), 6);
}

#[test]
fn the_new_game_screen_sends_a_game_against_a_friend_and_its_f_key_to_the_friend_screen() {
    use knightfall::store::settings::{Settings, Side};
    use knightfall::tui::screen::Open;
    use knightfall::tui::setup::SetupScreen;
    let plain = Unfinished {
        path: "current-1.pgn".into(),
        game: {
            let mut g = Game::new();
            g.play_text("d4", None).unwrap();
            g
        },
    };
    // The friend's game second: resumed from here, it is the friend screen's first.
    let mut setup = SetupScreen::new(
        Settings::default(),
        vec![plain, left(Role::Guest)],
        true,
        Palette::default(),
        7,
    );
    setup.update(key(KeyCode::Right), Instant::now());
    assert_eq!(setup.resume_chosen, Some(1));
    let fx = setup.update(key(KeyCode::Enter), Instant::now());
    let [Effect::Open(open)] = fx.as_slice() else {
        panic!("{fx:?}")
    };
    let Open::Friend { resume, chosen, .. } = open.as_ref() else {
        panic!("{open:?}")
    };
    assert_eq!((resume.len(), *chosen), (1, Some(0)));
    // f: hosting with the colour and clock chosen here.
    let mut settings = Settings::default();
    (settings.white, settings.black) = (Side::Engine, Side::Human);
    settings.tc = "10+5".into();
    let mut setup = SetupScreen::new(settings, Vec::new(), true, Palette::default(), 7);
    let fx = setup.update(key(KeyCode::Char('f')), Instant::now());
    let [Effect::Open(open)] = fx.as_slice() else {
        panic!("{fx:?}")
    };
    assert!(
        matches!(open.as_ref(), Open::Friend { you: Some(Color::Black), clock: Some(c), chosen: None, .. } if c == "10+5"),
        "{open:?}"
    );
}
