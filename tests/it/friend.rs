//! Two real Knightfalls in two pseudo-terminals over loopback: `host` prints the code, `join`
//! connects with it, and the two play a game to mate through their game screens, with a chat
//! line each way, a draw offer declined and a takeback accepted; both keep the same game.

#![allow(
    clippy::unwrap_used,
    reason = "a test's helpers fail loudly, where the failure is"
)]

use std::io::Write as _;
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use knightfall::game::Game;
use knightfall::net::channel::{Channel, NetError, Role};
use knightfall::net::meet;
use knightfall::net::message::Message;

use crate::tui_pty::{STTY_AFTER, Session, archived, start, temp_home};

/// The host's invitation as it printed it: the code and the port.
pub(crate) fn invitation(host: &Session) -> Option<(String, String)> {
    let text = host.text();
    let line = text
        .lines()
        .find(|l| l.contains("On this machine: knightfall join"))?;
    let mut words = line.split_whitespace().skip(5);
    let code = words.next()?.to_string();
    let port = words.next()?.rsplit(':').next()?.to_string();
    Some((code, port))
}

/// Types `line` and Enter.
pub(crate) fn type_line(s: &mut Session, line: &str) {
    s.send(line.as_bytes());
    s.send(b"\r");
}

/// Waits until `s` shows `text` somewhere on its screen.
pub(crate) fn sees(s: &Session, text: &str) {
    s.wait_for_screen(text, 20, |screen| screen.contains(text));
}

/// Both sides leave (`quit`); their shells are back when this returns.
fn both_quit(host: &mut Session, guest: &mut Session, secs: u64) {
    type_line(host, "quit");
    type_line(guest, "quit");
    for s in [&*host, &*guest] {
        s.wait_for("the shell", secs, |s| s.text().contains("DONE"));
    }
}

/// Kills the program in `s` as `kill -9` does (the shell around it lives on).
fn kill_hard(s: &mut Session) {
    let pid = s.child.process_id().unwrap();
    assert!(
        std::process::Command::new("pkill")
            .args(["-KILL", "-P", &pid.to_string()])
            .status()
            .unwrap()
            .success()
    );
}

/// The game kept in `home`'s games folder.
pub(crate) fn kept(home: &Path) -> Game {
    let games = archived(home);
    assert_eq!(games.len(), 1, "{games:?}");
    Game::from_pgn(&games[0]).unwrap()
}

#[test]
fn two_knightfalls_play_a_game_over_loopback_and_keep_the_same_record() {
    let (host_home, guest_home) = (temp_home("friend-host"), temp_home("friend-guest"));
    let mut host = start(
        &host_home,
        &format!("\"$KNIGHTFALL_BIN\" host --port 0 --tc 5+3 --color white --name Ana{STTY_AFTER}"),
    );
    host.wait_for("the invitation", 20, |s| invitation(s).is_some());
    let (code, port) = invitation(&host).unwrap();
    let mut guest = start(
        &guest_home,
        &format!("\"$KNIGHTFALL_BIN\" join {code} 127.0.0.1:{port} --name Bob{STTY_AFTER}"),
    );
    sees(&host, "You play White against Bob");
    sees(&guest, "You play Black against Ana");

    type_line(&mut host, "e4");
    sees(&guest, "1. e4");
    type_line(&mut guest, "e5");
    sees(&host, "1. e4       e5");
    // A line of chat each way, shown under the moves.
    type_line(&mut guest, "say good luck!");
    sees(&host, "Bob: good luck!");
    type_line(&mut host, "say you too");
    sees(&guest, "Ana: you too");
    // A draw offered and declined.
    host.send(b"\x04");
    sees(&guest, "Ana offers a draw: accept? (y/n)");
    guest.send(b"n");
    sees(&host, "Bob declines a draw.");

    type_line(&mut host, "Bc4");
    sees(&guest, "2. Bc4");
    type_line(&mut guest, "Nc6");
    sees(&host, "2. Bc4      Nc6");
    type_line(&mut host, "Qh5");
    sees(&guest, "3. Qh5");
    type_line(&mut guest, "Nf6");
    sees(&host, "3. Qh5      Nf6");
    // A takeback asked for and allowed: the move is gone on both boards.
    guest.send(b"\x1a");
    sees(&host, "Bob asks to take back their last move: allow? (y/n)");
    host.send(b"y");
    sees(&guest, "Black move taken back.");
    host.wait_for_screen("the takeback", 20, |s| !s.contains("Nf6"));
    type_line(&mut guest, "Nf6");
    sees(&host, "3. Qh5      Nf6");
    type_line(&mut host, "Qxf7#");
    sees(&host, "White wins (checkmate)");
    sees(&guest, "White wins (checkmate)");

    both_quit(&mut host, &mut guest, 20);
    for s in [&host, &guest] {
        let out = s.text();
        assert!(out.contains("EXIT=0"), "{out}");
        assert!(out.contains("icanon echo"), "terminal not restored: {out}");
    }
    let (a, b) = (kept(&host_home), kept(&guest_home));
    assert_eq!(a.sans(), ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    assert_eq!(a.sans(), b.sans());
    assert_eq!(a.names, ["Ana".to_string(), "Bob".to_string()]);
    assert_eq!(a.names, b.names);
    assert_eq!(a.outcome(), b.outcome());
    // The same clock after every move, to the tenth of a second the record keeps.
    let clocks = |g: &Game| {
        let pgn = g.to_pgn();
        pgn.match_indices("[%clk ")
            .map(|(i, _)| pgn[i..i + 18].to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(clocks(&a).len(), 7, "{}", a.to_pgn());
    assert_eq!(clocks(&a), clocks(&b));
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}

/// A host in a pty waiting for its guest, and the code and port it printed.
fn hosting(name: &str) -> (Session, std::path::PathBuf, String, String) {
    let home = temp_home(name);
    let (host, code, port) = host_in(&home, "--tc 5+3 --color white");
    (host, home, code, port)
}

/// A guest that is no Knightfall's game screen: the channel, with the raw stream beside it.
fn hostile_guest(code: &str, port: &str) -> (Channel, TcpStream) {
    let stream = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    let raw = stream.try_clone().unwrap();
    let channel = Channel::handshake(
        stream,
        &code.parse().unwrap(),
        Role::Guest,
        Duration::from_secs(10),
    )
    .unwrap();
    let met = meet::greet_host(channel, "Mallory", |_| Vec::new()).unwrap();
    (met.channel, raw)
}

/// The host, told of a peer that broke the rules, says so and goes on: it leaves cleanly on
/// `quit` with the terminal restored.
fn host_survives(mut host: Session, home: &Path, told: &str) {
    host.wait_for_screen(told, 20, |s| s.contains(told));
    type_line(&mut host, "quit");
    host.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    let out = host.text();
    assert!(out.contains("EXIT=0"), "{out}");
    assert!(out.contains("icanon echo"), "terminal not restored: {out}");
    assert!(!out.contains("panicked"), "{out}");
    let _ = std::fs::remove_dir_all(home);
}

#[test]
fn a_hostile_guest_is_disconnected_with_the_reason_and_the_host_goes_on() {
    let mv = |ply, uci: &str| Message::Move {
        ply,
        uci: uci.parse().unwrap(),
        clock_ms: Some(300_000),
    };
    // What each peer sends, and the words the host's screen says of it.
    let cases: Vec<(&str, Vec<Message>, &str)> = vec![
        ("illegal", vec![], "e2e5, which is not legal"),
        ("out-of-turn", vec![mv(0, "e7e5")], "out of turn"),
        (
            "clock",
            vec![Message::Clock {
                ply: 0,
                ms: 999_999,
            }],
            "only the host may set",
        ),
        ("flag", vec![Message::Flag(0)], "only the host may set"),
        (
            "restart",
            vec![Message::Hello { name: "x".into() }],
            "started the game again",
        ),
    ];
    for (name, messages, told) in cases {
        let (host, home, code, port) = hosting(&format!("hostile-{name}"));
        let (mut channel, _raw) = hostile_guest(&code, &port);
        host.wait_for_screen("the game", 20, |s| s.contains("You play White"));
        let mut host = host;
        if messages.is_empty() {
            // The host moves; the guest answers with a move no rule allows.
            type_line(&mut host, "e4");
            host.wait_for_screen("the move", 20, |s| s.contains("1. e4"));
            channel.send(&mv(1, "e2e5").encode()).unwrap();
            host_survives(host, &home, told);
            continue;
        }
        for m in messages {
            channel.send(&m.encode()).unwrap();
        }
        host_survives(host, &home, told);
    }
}

#[test]
fn garbage_oversized_and_silent_guests_are_given_up_cleanly() {
    // Bytes that are no sealed frame.
    let (host, home, code, port) = hosting("hostile-garbage");
    let (_channel, mut raw) = hostile_guest(&code, &port);
    host.wait_for_screen("the game", 20, |s| s.contains("You play White"));
    raw.write_all(&[0, 0, 0, 20]).unwrap();
    raw.write_all(&[0x41; 20]).unwrap();
    host_survives(host, &home, "changed or replayed");
    // A frame longer than any message, told from its length alone.
    let (host, home, code, port) = hosting("hostile-oversized");
    let (_channel, mut raw) = hostile_guest(&code, &port);
    host.wait_for_screen("the game", 20, |s| s.contains("You play White"));
    raw.write_all(&u32::MAX.to_be_bytes()).unwrap();
    host_survives(host, &home, "4294967295 bytes");
    // A peer that says nothing at all after the greeting (no heartbeat either).
    let (host, home, code, port) = hosting("hostile-silent");
    let (_channel, _raw) = hostile_guest(&code, &port);
    host.wait_for_screen("the game", 20, |s| s.contains("You play White"));
    host_survives(host, &home, "no word from");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 8,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Random messages, sealed as the channel seals them, from a guest that knew the code:
    /// whatever they say, the host never panics, and leaves cleanly.
    #[test]
    fn random_frames_from_a_guest_never_break_the_host(
        frames in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64), 1..8)
    ) {
        let (mut host, home, code, port) = hosting("hostile-random");
        let (mut channel, _raw) = hostile_guest(&code, &port);
        host.wait_for_screen("the game", 20, |s| s.contains("You play White"));
        for frame in &frames {
            if channel.send(frame).is_err() {
                break;
            }
        }
        // Time for the host to read them all; then it must still answer the keyboard.
        std::thread::sleep(Duration::from_millis(300));
        type_line(&mut host, "quit");
        host.wait_for("the shell", 20, |s| s.text().contains("DONE"));
        let out = host.text();
        proptest::prop_assert!(out.contains("EXIT=0"), "{}", out);
        proptest::prop_assert!(!out.contains("panicked"), "{}", out);
        let _ = std::fs::remove_dir_all(&home);
    }
}

#[test]
fn a_wrong_code_spends_the_hosts_code_and_the_new_one_is_printed() {
    let (host, home, code, port) = hosting("wrong-code");
    let wrong = std::iter::repeat_with(knightfall::net::code::Code::random)
        .map(|c| c.to_string())
        .find(|c| *c != code)
        .unwrap();
    let try_code = |c: &str| {
        let stream = TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
        Channel::handshake(
            stream,
            &c.parse().unwrap(),
            Role::Guest,
            Duration::from_secs(10),
        )
    };
    let spent = |s: &Session| s.text().matches("that code is spent").count();
    // Each code is printed after the news that the one before it is spent: wait for both.
    let codes = |s: &Session| s.text().matches("On this machine: knightfall join").count();
    assert!(matches!(try_code(&wrong), Err(NetError::WrongCode)));
    host.wait_for("the new code", 20, |s| spent(s) == 1 && codes(s) == 2);
    // The code is spent: the right one of before is refused now, and spends the next.
    assert!(matches!(try_code(&code), Err(NetError::WrongCode)));
    host.wait_for("the next code", 20, |s| spent(s) == 2 && codes(s) == 3);
    let text = host.text();
    let fresh = text
        .lines()
        .rfind(|l| l.contains("On this machine: knightfall join"))
        .and_then(|l| l.split_whitespace().nth(5))
        .unwrap()
        .to_string();
    assert_ne!(fresh, code);
    let (_channel, _raw) = hostile_guest(&fresh, &port);
    host_survives(host, &home, "You play White against Mallory");
}

/// A host in `home` started with `flags`, waiting, with the code and port it printed.
pub(crate) fn host_in(home: &Path, flags: &str) -> (Session, String, String) {
    let host = start(
        home,
        &format!("\"$KNIGHTFALL_BIN\" host --port 0 --name Ana {flags}{STTY_AFTER}"),
    );
    host.wait_for("the invitation", 20, |s| invitation(s).is_some());
    let (code, port) = invitation(&host).unwrap();
    (host, code, port)
}

/// The guest in `home`, joining the host at `port` with `code` and `flags`.
pub(crate) fn guest_in(home: &Path, code: &str, port: &str, flags: &str) -> Session {
    start(
        home,
        &format!("\"$KNIGHTFALL_BIN\" join {code} 127.0.0.1:{port} --name Bob {flags}{STTY_AFTER}"),
    )
}

/// The game in `home`'s autosave.
fn autosaved(home: &Path) -> Game {
    Game::from_pgn(&std::fs::read_to_string(home.join("games/current.pgn")).unwrap()).unwrap()
}

#[test]
fn a_host_killed_mid_game_comes_back_with_resume_and_the_game_goes_on_with_its_clocks() {
    let (host_home, guest_home) = (temp_home("resume-host"), temp_home("resume-guest"));
    let (mut host, code, port) = host_in(&host_home, "--tc 5+3 --color white");
    let mut guest = guest_in(&guest_home, &code, &port, "");
    sees(&host, "You play White against Bob");
    type_line(&mut host, "e4");
    sees(&guest, "1. e4");
    type_line(&mut guest, "e5");
    sees(&host, "1. e4       e5");
    type_line(&mut host, "Nf3");
    sees(&guest, "2. Nf3");
    // The guest's autosave has the move and the host's clock for it.
    guest.wait_for("the autosave", 20, |_| {
        std::fs::read_to_string(guest_home.join("games/current.pgn"))
            .is_ok_and(|t| t.contains("Nf3"))
    });
    let before = autosaved(&guest_home);
    kill_hard(&mut host);
    sees(&guest, "Link lost");
    type_line(&mut guest, "quit");
    guest.wait_for("the guest's shell", 20, |s| s.text().contains("DONE"));

    let (mut host, code, port) = host_in(&host_home, "--resume");
    let mut guest = guest_in(&guest_home, &code, &port, "--resume");
    sees(&host, "You play White against Bob");
    sees(&guest, "2. Nf3");
    type_line(&mut guest, "Nc6");
    sees(&host, "2. Nf3      Nc6");
    type_line(&mut host, "resign");
    sees(&host, "Resign this game?");
    host.send(b"y");
    sees(&guest, "Black wins");
    both_quit(&mut host, &mut guest, 20);
    for s in [&host, &guest] {
        assert!(s.text().contains("EXIT=0"), "{}", s.text());
    }
    let (a, b) = (kept(&host_home), kept(&guest_home));
    assert_eq!(a.sans(), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(a.sans(), b.sans());
    for ply in 0..3 {
        assert_eq!(
            a.clock_after(ply),
            before.clock_after(ply),
            "move {}",
            ply + 1
        );
        assert_eq!(
            b.clock_after(ply),
            before.clock_after(ply),
            "move {}",
            ply + 1
        );
    }
    assert_eq!(a.clock_after(3), b.clock_after(3));
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}

/// Not a test: the time a move takes from one side to the other on loopback, printed for
/// `docs/NETWORK.md` (`cargo test --release --test it friend::move_round_trip -- --ignored
/// --nocapture`). The host is the real program in a pty; the guest is the library's peer, so
/// the guest's side costs no screen.
#[test]
#[ignore = "a measurement, run by hand"]
fn move_round_trip_on_loopback() {
    use knightfall::net::peer::{Peer, PeerEvent};
    use std::time::Instant;
    // The Breyer Ruy Lopez: twenty plies, none repeated.
    let game = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ];
    let (mut out, mut back) = (Vec::new(), Vec::new());
    for round in 0..5 {
        let (mut host, home, code, port) = hosting(&format!("round-trip-{round}"));
        let (channel, _raw) = hostile_guest(&code, &port);
        let peer = Peer::start(channel, Duration::from_secs(1), Duration::from_secs(5)).unwrap();
        host.wait_for_screen("the game", 20, |s| s.contains("You play White"));
        let mut board = Game::new();
        for (ply, pair) in game.chunks(2).enumerate() {
            // The host's move: Enter in its terminal to the message at the guest.
            let t0 = Instant::now();
            type_line(&mut host, pair[0]);
            loop {
                match peer.events().recv().unwrap() {
                    PeerEvent::Message(Message::Move { .. }) => break,
                    PeerEvent::Message(_) => {}
                    PeerEvent::Lost(why) => panic!("{why}"),
                    PeerEvent::Back => {}
                }
            }
            out.push(t0.elapsed());
            board.play_text(pair[0], None).unwrap();
            // The guest's move: sent to the host's screen drawing it.
            let m = board.play_text(pair[1], None).unwrap();
            let mark = host.text().len();
            let t0 = Instant::now();
            peer.send(&Message::Move {
                ply: u32::try_from(2 * ply + 1).unwrap(),
                uci: m.to_uci(shakmaty::CastlingMode::Standard),
                clock_ms: None,
            })
            .unwrap();
            while !host.text()[mark..].contains(pair[1]) {
                std::thread::sleep(Duration::from_micros(200));
                assert!(
                    t0.elapsed() < Duration::from_secs(10),
                    "{} not shown",
                    pair[1]
                );
            }
            back.push(t0.elapsed());
        }
        drop(peer);
        type_line(&mut host, "quit");
        host.wait_for("the shell", 20, |s| s.text().contains("DONE"));
        let _ = std::fs::remove_dir_all(&home);
    }
    let show = |what: &str, v: &mut Vec<Duration>| {
        v.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{what}: {} moves, median {:.2} ms, 90th percentile {:.2} ms, most {:.2} ms",
            v.len(),
            ms(v[v.len() / 2]),
            ms(v[v.len() * 9 / 10]),
            ms(v[v.len() - 1])
        );
    };
    show("host's Enter to the message at the guest", &mut out);
    show("guest's message to the host's screen showing it", &mut back);
}

/// The time each move of `color` was charged in `game` (its clock before, plus the
/// increment, less its clock after), from its second move on.
pub(crate) fn charged(game: &Game, color: shakmaty::Color) -> Vec<Duration> {
    use shakmaty::Position as _;
    let inc = Duration::from_secs(3);
    let mut before = Duration::from_secs(300);
    let mut out = Vec::new();
    for ply in 0..game.ply() {
        if game.position_at(ply).turn() != color {
            continue;
        }
        let after = game.clock_after(ply).unwrap();
        if ply >= 2 {
            out.push((before + inc).saturating_sub(after));
        }
        before = after;
    }
    out
}

#[test]
fn across_a_slow_link_the_guest_is_not_charged_the_network_and_both_keep_the_same_clocks() {
    let (host_home, guest_home) = (temp_home("slow-host"), temp_home("slow-guest"));
    let (mut host, code, port) = host_in(&host_home, "--tc 5+3 --color white");
    let proxy = crate::common::proxy::Proxy::start(port.parse().unwrap());
    let mut guest = guest_in(&guest_home, &code, &proxy.port.to_string(), "");
    sees(&host, "You play White against Bob");
    sees(&guest, "You play Black against Ana");
    proxy.delay(Duration::from_millis(150), Duration::from_millis(50));
    let game = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "d3", "Be7", "O-O", "O-O",
    ];
    let mut shown = String::new();
    for (ply, san) in game.iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            (&mut host, &guest)
        } else {
            (&mut guest, &host)
        };
        type_line(mover, san);
        shown = if ply % 2 == 0 {
            format!("{}. {san}", ply / 2 + 1)
        } else {
            format!("{shown:<12}{san}")
        };
        let wanted = shown.clone();
        other.wait_for_screen(&wanted, 30, |s| s.contains(&wanted));
    }
    type_line(&mut host, "resign");
    sees(&host, "Resign this game?");
    host.send(b"y");
    sees(&guest, "Black wins");
    both_quit(&mut host, &mut guest, 30);
    let (a, b) = (kept(&host_home), kept(&guest_home));
    assert_eq!(a.sans(), game);
    assert_eq!(a.sans(), b.sans());
    for ply in 0..game.len() {
        assert_eq!(a.clock_after(ply), b.clock_after(ply), "move {}", ply + 1);
    }
    // Both sides' moves are typed as soon as the other's shows: without the compensation each
    // of the guest's would cost it a round trip (200 ms at the least) more than the host's.
    let mean = |v: Vec<Duration>| v.iter().sum::<Duration>() / u32::try_from(v.len()).unwrap();
    let (host_mean, guest_mean) = (
        mean(charged(&a, shakmaty::Color::White)),
        mean(charged(&a, shakmaty::Color::Black)),
    );
    println!("charged a move over 150 ms +- 50 each way: host {host_mean:?}, guest {guest_mean:?}");
    assert!(
        guest_mean < host_mean + Duration::from_millis(150),
        "the guest was charged {guest_mean:?} a move, the host {host_mean:?}"
    );
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}

#[test]
fn a_link_cut_while_a_move_is_on_its_way_comes_back_by_itself_with_the_move() {
    let (host_home, guest_home) = (temp_home("cut-host"), temp_home("cut-guest"));
    let (mut host, code, port) = host_in(&host_home, "--tc 5+3 --color white");
    let proxy = crate::common::proxy::Proxy::start(port.parse().unwrap());
    let mut guest = guest_in(&guest_home, &code, &proxy.port.to_string(), "");
    sees(&host, "You play White against Bob");
    type_line(&mut host, "e4");
    sees(&guest, "1. e4");
    type_line(&mut guest, "e5");
    sees(&host, "1. e4       e5");
    type_line(&mut host, "Nf3");
    sees(&guest, "2. Nf3");
    // The guest's move leaves it and never arrives: the link breaks under it.
    proxy.swallow_guest();
    type_line(&mut guest, "Nc6");
    sees(&guest, "2. Nf3      Nc6");
    guest.wait_for("the guest's autosave", 20, |_| {
        std::fs::read_to_string(guest_home.join("games/current.pgn"))
            .is_ok_and(|t| t.contains("Nc6"))
    });
    proxy.cut();
    // The guest calls again, the host lets it in with the game's code, and the records agree.
    sees(&host, "Bob is back");
    sees(&guest, "Ana is back");
    sees(&host, "2. Nf3      Nc6");
    type_line(&mut host, "Bb5");
    sees(&guest, "3. Bb5");
    type_line(&mut guest, "resign");
    sees(&guest, "Resign this game?");
    guest.send(b"y");
    sees(&host, "White wins");
    both_quit(&mut host, &mut guest, 20);
    let (a, b) = (kept(&host_home), kept(&guest_home));
    assert_eq!(a.sans(), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    assert_eq!(a.sans(), b.sans());
    for ply in 0..5 {
        assert_eq!(a.clock_after(ply), b.clock_after(ply), "move {}", ply + 1);
    }
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}

#[test]
fn a_guest_killed_mid_game_joins_the_waiting_host_again_with_the_games_code() {
    let (host_home, guest_home) = (temp_home("rejoin-host"), temp_home("rejoin-guest"));
    let (mut host, code, port) = host_in(&host_home, "--tc 5+3 --color white");
    let mut guest = guest_in(&guest_home, &code, &port, "");
    sees(&host, "You play White against Bob");
    type_line(&mut host, "e4");
    sees(&guest, "1. e4");
    type_line(&mut guest, "e5");
    sees(&host, "1. e4       e5");
    kill_hard(&mut guest);
    sees(&host, "waiting");
    // The host waits with its door open; the guest comes back with the code it had.
    let mut guest = guest_in(&guest_home, &code, &port, "--resume");
    sees(&host, "Bob is back");
    sees(&guest, "1. e4       e5");
    type_line(&mut host, "Nf3");
    sees(&guest, "2. Nf3");
    type_line(&mut guest, "say back again");
    sees(&host, "Bob: back again");
    both_quit(&mut host, &mut guest, 20);
    for s in [&host, &guest] {
        assert!(s.text().contains("EXIT=0"), "{}", s.text());
    }
    assert_eq!(autosaved(&host_home).sans(), ["e4", "e5", "Nf3"]);
    assert_eq!(autosaved(&guest_home).sans(), ["e4", "e5", "Nf3"]);
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}

#[test]
fn after_a_game_a_rematch_swaps_the_colours_and_both_keep_both_games() {
    let (host_home, guest_home) = (temp_home("rematch-host"), temp_home("rematch-guest"));
    let (mut host, code, port) = host_in(&host_home, "--tc 5+3 --color white");
    let mut guest = guest_in(&guest_home, &code, &port, "");
    sees(&host, "You play White against Bob");
    type_line(&mut host, "f3");
    sees(&guest, "1. f3");
    type_line(&mut guest, "e5");
    sees(&host, "1. f3       e5");
    type_line(&mut host, "g4");
    sees(&guest, "2. g4");
    type_line(&mut guest, "Qh4#");
    sees(&host, "Black wins (checkmate)");
    sees(&guest, "y asks for a rematch");
    guest.send(b"y");
    sees(&host, "Bob offers a rematch, you with Black: play? (y/n)");
    host.send(b"y");
    sees(&host, "Rematch: you play Black against Bob.");
    sees(&guest, "Rematch: you play White against Ana.");
    type_line(&mut guest, "d4");
    sees(&host, "1. d4");
    type_line(&mut host, "resign");
    sees(&host, "Resign this game?");
    host.send(b"y");
    sees(&guest, "White wins (resignation)");
    both_quit(&mut host, &mut guest, 20);
    for s in [&host, &guest] {
        assert!(s.text().contains("EXIT=0"), "{}", s.text());
    }
    for home in [&host_home, &guest_home] {
        let games: Vec<Game> = archived(home)
            .iter()
            .map(|t| Game::from_pgn(t).unwrap())
            .collect();
        assert_eq!(games.len(), 2, "{}", home.display());
        let mut names: Vec<_> = games.iter().map(|g| g.names.clone()).collect();
        names.sort();
        assert_eq!(
            names,
            [
                ["Ana".to_string(), "Bob".to_string()],
                ["Bob".to_string(), "Ana".to_string()]
            ]
        );
    }
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}

#[test]
fn a_hostile_host_cannot_reach_the_guests_terminal_and_is_disconnected_for_an_illegal_move() {
    use knightfall::net::code::Code;
    use knightfall::net::message::Colour;
    let home = temp_home("hostile-host");
    let listener = meet::listen(0).unwrap();
    let port = listener.local_addr().unwrap().port();
    let code = Code::random();
    let mallory = std::thread::spawn(move || {
        let channel = meet::accept(&listener, &code).unwrap().unwrap();
        let terms = meet::Terms {
            guest: Colour::Black,
            clock: Some("5+3".into()),
            fen: None,
            id: "bad".replace("bad", "badc0de"),
            history: Vec::new(),
        };
        let mut met = meet::greet_guest(channel, "Mallory\u{1b}[31m", &terms).unwrap();
        met.channel
            .send(&Message::Chat("hi\u{1b}[2J\u{7} there\u{202e}".into()).encode())
            .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let illegal = Message::Move {
            ply: 0,
            uci: "e2e5".parse().unwrap(),
            clock_ms: None,
        };
        met.channel.send(&illegal.encode()).unwrap();
        std::thread::sleep(Duration::from_millis(500));
    });
    let mut guest = guest_in(&home, &code.to_string(), &port.to_string(), "");
    sees(&guest, "Mallory[31m vs Bob");
    sees(&guest, "Mallory[31m: hi[2J there");
    assert!(
        !guest.text().contains("\u{1b}[31m"),
        "an escape sequence reached the terminal"
    );
    sees(&guest, "not legal");
    // Nothing to wait for from a side that broke the rules: the win may be claimed at once.
    type_line(&mut guest, "claim");
    sees(&guest, "Black wins (the other side left)");
    type_line(&mut guest, "quit");
    guest.wait_for("the shell", 20, |s| s.text().contains("DONE"));
    assert!(guest.text().contains("EXIT=0"), "{}", guest.text());
    mallory.join().unwrap();
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_guest_whose_host_quit_does_not_spend_the_code_of_the_host_started_again() {
    let (host_home, guest_home) = (temp_home("quit-host"), temp_home("quit-guest"));
    let (mut host, code, port) = host_in(&host_home, "--tc 5+3 --color white");
    let mut guest = guest_in(&guest_home, &code, &port, "");
    sees(&host, "You play White against Bob");
    type_line(&mut host, "e4");
    sees(&guest, "1. e4");
    type_line(&mut host, "quit");
    host.wait_for("the host's shell", 20, |s| s.text().contains("DONE"));
    sees(&guest, "Ana left");
    // The host comes back with a new code; the guest, still playing, does not call it with
    // the old one (which would spend the new).
    let (host, code, port) = host_in(&host_home, "--resume");
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        !host.text().contains("that code is spent"),
        "{}",
        host.text()
    );
    type_line(&mut guest, "quit");
    guest.wait_for("the guest's shell", 20, |s| s.text().contains("DONE"));
    let mut guest = guest_in(&guest_home, &code, &port, "--resume");
    sees(&host, "You play White against Bob");
    type_line(&mut guest, "e5");
    sees(&host, "1. e4       e5");
    let mut host = host;
    both_quit(&mut host, &mut guest, 20);
    for s in [&host, &guest] {
        assert!(s.text().contains("EXIT=0"), "{}", s.text());
    }
    let _ = std::fs::remove_dir_all(&host_home);
    let _ = std::fs::remove_dir_all(&guest_home);
}
