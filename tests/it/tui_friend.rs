//! The game screen against a friend, as state: the friend's messages in at given instants,
//! the effects out. The clocks run on the events' time, so the lag compensation is checked
//! to the millisecond without a network or a clock.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::game::Game;
use knightfall::net::channel::Role;
use knightfall::net::message::{Message, Offer};
use knightfall::net::peer::PeerEvent;
use knightfall::tui::app::{Action, App, Effect, Mode, Remote, Settings, Side};
use shakmaty::Color;

/// A game on 5+3 where the friend plays `friend`, this side being `role`.
fn friend_game(role: Role, friend: Color, t0: Instant) -> App {
    let them = Side::Friend("Bob".into());
    let (white, black) = match friend {
        Color::White => (them, Side::Human),
        Color::Black => (Side::Human, them),
    };
    let settings = Settings {
        white,
        black,
        tc: "5+3".into(),
        ..Settings::default()
    };
    let mut app = App::new(settings, Game::new(), Mode::Play, t0);
    app.remote = Some(Remote::new(role, friend));
    app.start(t0);
    app
}

fn typed(app: &mut App, text: &str, at: Instant) -> Vec<Effect> {
    for c in text.chars() {
        app.update(
            Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
            at,
        );
    }
    app.update(
        Action::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        at,
    )
}

fn from_friend(app: &mut App, message: Message, at: Instant) -> Vec<Effect> {
    app.update(Action::Peer(PeerEvent::Message(message)), at)
}

fn friend_move(ply: u32, uci: &str, clock_ms: Option<u64>) -> Message {
    Message::Move {
        ply,
        uci: uci.parse().expect("a move"),
        clock_ms,
    }
}

fn sent(fx: &[Effect]) -> Vec<Message> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Send(m) => Some(m.clone()),
            _ => None,
        })
        .collect()
}

fn left(app: &App, color: Color) -> Duration {
    app.game.clocks().expect("clocks").left(color)
}

const S: Duration = Duration::from_secs(1);
const MS: Duration = Duration::from_millis(1);

#[test]
fn the_host_charges_the_guest_its_own_time_but_no_more_than_half_a_second_of_the_network() {
    let t0 = Instant::now();
    let mut app = friend_game(Role::Host, Color::Black, t0);
    // The first moves are free.
    let fx = typed(&mut app, "e4", t0);
    assert!(matches!(
        sent(&fx)[..],
        [Message::Move {
            ply: 0,
            clock_ms: Some(303_000),
            ..
        }]
    ));
    from_friend(&mut app, friend_move(1, "e7e5", Some(303_000)), t0 + S);
    assert_eq!(left(&app, Color::Black), 303 * S);
    typed(&mut app, "Nf3", t0 + 2 * S);
    assert_eq!(left(&app, Color::White), 305 * S);
    // The guest says it thought 100 ms, the host waited 900: 400 ms are charged.
    let fx = from_friend(
        &mut app,
        friend_move(3, "b8c6", Some(305_900)),
        t0 + 2900 * MS,
    );
    assert_eq!(left(&app, Color::Black), 305_600 * MS);
    assert_eq!(
        sent(&fx),
        [Message::Clock {
            ply: 3,
            ms: 305_600
        }]
    );
    // Thinking 600 ms of 900 waited: the 600 are charged, the network's 300 are not.
    typed(&mut app, "Bc4", t0 + 3 * S);
    from_friend(
        &mut app,
        friend_move(5, "g8f6", Some(308_000)),
        t0 + 3900 * MS,
    );
    assert_eq!(left(&app, Color::Black), 308 * S);
    // A guest that claims more time left than it had is charged the host's wait less the cap.
    typed(&mut app, "d3", t0 + 4 * S);
    from_friend(&mut app, friend_move(7, "f8c5", Some(999_999)), t0 + 6 * S);
    assert_eq!(left(&app, Color::Black), 308 * S + 3 * S - 1500 * MS);
}

#[test]
fn the_guest_keeps_the_hosts_count_and_a_flag_from_the_host_ends_the_game() {
    let t0 = Instant::now();
    let mut app = friend_game(Role::Guest, Color::White, t0);
    from_friend(&mut app, friend_move(0, "e2e4", Some(303_000)), t0);
    typed(&mut app, "e5", t0 + S);
    from_friend(&mut app, friend_move(2, "g1f3", Some(301_234)), t0 + 3 * S);
    assert_eq!(left(&app, Color::White), 301_234 * MS);
    let fx = typed(&mut app, "Nc6", t0 + 4 * S);
    assert!(matches!(sent(&fx)[..], [Message::Move { ply: 3, .. }]));
    // The host counted the move otherwise: its count is the game's.
    from_friend(
        &mut app,
        Message::Clock {
            ply: 3,
            ms: 305_500,
        },
        t0 + 5 * S,
    );
    assert_eq!(left(&app, Color::Black), 305_500 * MS);
    // The guest's clock never flags it on its own, however long it waits.
    from_friend(&mut app, friend_move(4, "f1c4", Some(300_000)), t0 + 6 * S);
    app.update(Action::Tick, t0 + 400 * S);
    assert!(!app.game.is_over());
    // A move of the guest's that crossed the host's flag does not count.
    typed(&mut app, "Nf6", t0 + 401 * S);
    assert_eq!(app.game.ply(), 6);
    from_friend(&mut app, Message::Flag(5), t0 + 402 * S);
    assert_eq!(app.game.ply(), 5);
    assert!(app.game.is_over());
    assert_eq!(
        app.game.outcome().and_then(|o| o.winner),
        Some(Color::White)
    );
}

#[test]
fn a_move_against_the_rules_hangs_up_and_stops_the_clocks() {
    let t0 = Instant::now();
    for bad in [
        friend_move(1, "e7e4", None),
        friend_move(0, "e7e5", None),
        friend_move(3, "e7e5", None),
        Message::Clock { ply: 0, ms: 1 },
        Message::Flag(1),
    ] {
        let mut app = friend_game(Role::Host, Color::Black, t0);
        typed(&mut app, "e4", t0);
        let fx = from_friend(&mut app, bad.clone(), t0 + S);
        assert!(fx.iter().any(|e| matches!(e, Effect::HangUp)), "{bad:?}");
        assert!(app.link_lost(), "{bad:?}");
        assert_eq!(app.game.ply(), 1);
        // The clocks stand still: long past the time left, nobody's flag falls.
        app.update(Action::Tick, t0 + 1000 * S);
        assert!(!app.game.is_over(), "{bad:?}: the clocks stand still");
        assert!(app.thinking_time() <= S, "{bad:?}");
        // Nothing is played or sent while the link is gone.
        let fx = typed(&mut app, "d4", t0 + 2 * S);
        assert!(sent(&fx).is_empty());
    }
}

#[test]
fn offers_are_answered_by_the_other_side_and_a_takeback_undoes_the_askers_move() {
    let t0 = Instant::now();
    let mut app = friend_game(Role::Host, Color::Black, t0);
    typed(&mut app, "e4", t0);
    from_friend(&mut app, friend_move(1, "e7e5", None), t0);
    typed(&mut app, "Qh5", t0);
    from_friend(&mut app, friend_move(3, "b8c6", None), t0);
    // Asked when the friend has replied: both moves go back.
    let fx = app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL)),
        t0,
    );
    assert_eq!(sent(&fx), [Message::Offer(Offer::Takeback, 4)]);
    // An answer to another ply is not this one's.
    from_friend(&mut app, Message::Accept(Offer::Takeback, 3), t0);
    assert_eq!(app.game.ply(), 4);
    from_friend(&mut app, Message::Accept(Offer::Takeback, 4), t0);
    assert_eq!(app.game.sans(), ["e4", "e5"]);
    // The friend's draw offer, declined by typing on.
    from_friend(&mut app, Message::Offer(Offer::Draw, 2), t0);
    let fx = typed(&mut app, "d4", t0);
    assert_eq!(
        sent(&fx)[0],
        Message::Decline(Offer::Draw, 2),
        "typing a move answers no"
    );
    assert_eq!(app.game.ply(), 3);
    // Offered back at once, a draw is agreed.
    from_friend(&mut app, Message::Offer(Offer::Draw, 3), t0);
    let fx = app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)),
        t0,
    );
    assert_eq!(sent(&fx), [Message::Accept(Offer::Draw, 3)]);
    assert!(app.game.is_over());
}

#[test]
fn the_one_left_may_end_the_game_once_the_wait_is_over_and_a_friend_back_plays_on() {
    use knightfall::game::Reason;
    use knightfall::tui::app::LINK_WAIT;
    let t0 = Instant::now();
    let lost = |app: &mut App, at| {
        app.update(
            Action::Peer(PeerEvent::Lost(
                "the other side closed the connection".into(),
            )),
            at,
        )
    };
    let mut app = friend_game(Role::Guest, Color::White, t0);
    from_friend(&mut app, friend_move(0, "e2e4", Some(303_000)), t0);
    lost(&mut app, t0 + S);
    assert!(app.needs_ticks(), "the wait counts down");
    typed(&mut app, "claim", t0 + 60 * S);
    assert!(!app.game.is_over(), "claimed before the wait was over");
    // The friend comes back in time: play goes on, nothing claimed.
    app.update(Action::Peer(PeerEvent::Back), t0 + 90 * S);
    assert!(!app.link_lost());
    let fx = typed(&mut app, "e5", t0 + 91 * S);
    assert!(matches!(sent(&fx)[..], [Message::Move { ply: 1, .. }]));
    // Gone again, for good: after the wait the win may be claimed.
    lost(&mut app, t0 + 100 * S);
    app.update(Action::Tick, t0 + 100 * S + LINK_WAIT);
    typed(&mut app, "claim", t0 + 101 * S + LINK_WAIT);
    let o = app.game.outcome().expect("the game ended");
    assert_eq!((o.winner, o.reason), (Some(Color::Black), Reason::Left));
    // Or called a draw.
    let mut app = friend_game(Role::Host, Color::Black, t0);
    typed(&mut app, "d4", t0);
    lost(&mut app, t0);
    typed(&mut app, "draw", t0 + LINK_WAIT + S);
    let o = app.game.outcome().expect("the game ended");
    assert_eq!((o.winner, o.reason), (None, Reason::Left));
}

#[test]
fn after_a_new_link_the_longer_record_is_played_on_both_sides() {
    let t0 = Instant::now();
    let mut app = friend_game(Role::Host, Color::Black, t0);
    typed(&mut app, "e4", t0);
    from_friend(&mut app, friend_move(1, "e7e5", Some(303_000)), t0);
    typed(&mut app, "Nf3", t0 + S);
    app.update(Action::Peer(PeerEvent::Lost("silence".into())), t0 + 2 * S);
    let fx = app.update(Action::Peer(PeerEvent::Back), t0 + 3 * S);
    assert!(matches!(&sent(&fx)[..], [Message::Hello { .. }, Message::History(h)] if h.len() == 3));
    // The guest had answered before the link broke: its move is played here.
    let theirs = vec![
        ("e2e4".parse().unwrap(), Some(303_000)),
        ("e7e5".parse().unwrap(), Some(303_000)),
        ("g1f3".parse().unwrap(), Some(302_000)),
        ("b8c6".parse().unwrap(), Some(304_500)),
    ];
    from_friend(&mut app, Message::History(theirs), t0 + 3 * S);
    assert_eq!(app.game.sans(), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(left(&app, Color::Black), 304_500 * MS);
    // A second record, unasked, is a rule broken.
    let fx = from_friend(&mut app, Message::History(Vec::new()), t0 + 4 * S);
    assert!(fx.iter().any(|e| matches!(e, Effect::HangUp)));
}
