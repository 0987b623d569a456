//! The training screen as a state: keys in, effects out. The list of endings, a drill started
//! from it and played to the end against the tables, a move that throws the win away and its
//! take-back, hints, typed endings and FENs (bad ones refused with a reason), the record kept,
//! and the screen drawn at both sizes.

use crate::common;

use std::sync::Arc;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::tablebase::Tablebases;
use knightfall::train::progress::Progress;
use knightfall::train::{Goal, State};
use knightfall::tui::screen::{Action, Effect, Palette, Tone};
use knightfall::tui::train::Train;
use knightfall::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::Position;

fn train() -> Train {
    Train::new(
        Arc::new(Tablebases::embedded()),
        Progress::default(),
        Palette::default(),
        false,
        42,
    )
}

fn key(t: &mut Train, code: KeyCode) -> Vec<Effect> {
    t.update(
        Action::Key(KeyEvent::new(code, KeyModifiers::NONE)),
        Instant::now(),
    )
}

fn ctrl(t: &mut Train, c: char) -> Vec<Effect> {
    t.update(
        Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
        Instant::now(),
    )
}

fn type_line(t: &mut Train, text: &str) -> Vec<Effect> {
    for c in text.chars() {
        key(t, KeyCode::Char(c));
    }
    key(t, KeyCode::Enter)
}

fn message(t: &Train) -> String {
    t.message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default()
}

fn screen(t: &Train, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| {
        ui::train::draw(f, t);
    })
    .unwrap();
    common::screen_text(&term)
}

/// The tables' best move for the drill on the board, in SAN.
fn best_san(t: &Train) -> String {
    let d = t.drill().unwrap();
    let best = t.tables.root_move(d.pos()).unwrap().mv;
    shakmaty::san::SanPlus::from_move(d.pos().clone(), best).to_string()
}

#[test]
fn a_drill_from_the_list_is_played_to_the_win_and_counted() {
    let mut t = train();
    let list = screen(&t, 120, 40);
    assert!(list.contains("KBNvK"), "{list}");
    assert!(list.contains("not tried"));
    // The second ending (KRvK), easy.
    key(&mut t, KeyCode::Down);
    key(&mut t, KeyCode::Left);
    key(&mut t, KeyCode::Enter);
    let d = t.drill().expect("a drill started");
    assert_eq!(d.ending.to_string(), "KRvK");
    assert_eq!(d.goal, Goal::Win);
    assert!(
        message(&t).contains("to play and win. Par"),
        "{}",
        message(&t)
    );
    let mut saved = Vec::new();
    for _ in 0..60 {
        if t.drill().unwrap().state != State::Playing {
            break;
        }
        let san = best_san(&t);
        saved.extend(type_line(&mut t, &san));
    }
    let d = t.drill().unwrap();
    assert_eq!(d.state, State::Done);
    assert!(d.pos().is_checkmate());
    assert!(message(&t).contains("Won in"), "{}", message(&t));
    let progress = cards(&t, &saved).expect("the record written when the drill ends");
    let r = &progress.endings["KRvK"];
    assert_eq!(
        (r.tried, r.done, r.clean, r.best_over_par),
        (1, 1, 1, Some(0))
    );
    // Counted once: the next start does not count the finished one again.
    let fx = ctrl(&mut t, 'n');
    assert!(!fx.iter().any(|e| matches!(e, Effect::SaveTraining(_))));
    assert_eq!(t.drill().unwrap().moves_played(), 0);
    // Back on the list, the record shows.
    key(&mut t, KeyCode::Char('q'));
    assert!(t.drill().is_none());
    assert!(screen(&t, 120, 40).contains("1/1 done, won at par"));
}

#[test]
fn a_pawn_endings_par_is_the_whole_win_and_the_same_from_start_to_end() {
    let mut t = train();
    type_line(&mut t, "8/8/8/4k3/8/8/3PK3/8 w - - 0 1");
    let said = message(&t);
    let par: u32 = said
        .split("Par ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no par in {said:?}"));
    // The first stretch, to the first pawn move, is a few moves; par is the march and the
    // mate after it.
    assert!(par > 15, "{said}");
    let panel = format!("Par {par} moves");
    for _ in 0..80 {
        if t.drill().unwrap().state != State::Playing {
            break;
        }
        assert!(
            screen(&t, 80, 24).contains(&panel),
            "{}",
            screen(&t, 80, 24)
        );
        let san = best_san(&t);
        type_line(&mut t, &san);
    }
    assert_eq!(t.drill().unwrap().state, State::Done);
    assert!(screen(&t, 120, 40).contains(&panel));
    assert!(
        message(&t).contains(&format!("Won in {par} moves (par {par})")),
        "{}",
        message(&t)
    );
}

#[test]
fn a_failed_try_shows_the_endings_method_until_it_is_taken_back() {
    use knightfall::tablebase::Wdl;
    let mut t = train();
    type_line(&mut t, "KBNvK");
    let pos = t.drill().expect("a KBNvK drill").pos().clone();
    assert!(!screen(&t, 120, 40).contains("The method"));
    // A move that throws the win away: a piece left to be taken, say.
    let ranked = t.tables.rank_root_moves(&pos).unwrap();
    let thrown = ranked
        .iter()
        .find(|r| r.wdl != Wdl::Win)
        .expect("a losing try")
        .mv;
    let san = shakmaty::san::SanPlus::from_move(pos, thrown).to_string();
    type_line(&mut t, &san);
    assert!(
        matches!(t.drill().unwrap().state, State::Failed(_)),
        "{}",
        message(&t)
    );
    for (w, h) in [(120, 40), (80, 24)] {
        let shown = screen(&t, w, h);
        assert!(shown.contains("The method"), "{shown}");
        assert!(shown.contains("bishop's colour"), "{shown}");
        assert!(shown.contains("pushes it along the edge."), "{shown}");
    }
    ctrl(&mut t, 'z');
    assert!(!screen(&t, 120, 40).contains("The method"));
}

#[test]
fn a_thrown_win_is_refuted_taken_back_and_counted_as_tried_when_left() {
    let mut t = train();
    // KQvK: Qb8+ lets the king take the queen.
    type_line(&mut t, "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1");
    assert_eq!(t.drill().unwrap().ending.to_string(), "KQvK");
    type_line(&mut t, "Qb8+");
    let said = message(&t);
    assert!(said.contains("throws the win away"), "{said}");
    assert!(said.contains("Reply: Kxb8"), "{said}");
    assert_eq!(t.message.as_ref().unwrap().1, Tone::Error);
    // No further move in a failed attempt.
    type_line(&mut t, "Kb6");
    assert!(message(&t).contains("attempt is over"), "{}", message(&t));
    ctrl(&mut t, 'z');
    let d = t.drill().unwrap();
    assert_eq!(d.state, State::Playing);
    assert_eq!(d.game.fen(), "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1");
    assert!(screen(&t, 120, 40).contains("take-backs 1"));
    // Leaving counts the start as tried, not done.
    let fx = key(&mut t, KeyCode::Char('q'));
    let Some(p) = cards(&t, &fx) else {
        panic!("no record written: {fx:?}");
    };
    let r = &p.endings["KQvK"];
    assert_eq!((r.tried, r.done), (1, 0));
}

#[test]
fn a_hint_shows_the_piece_then_the_move_and_counts_once() {
    let mut t = train();
    type_line(&mut t, "KQvK");
    let best = best_san(&t);
    ctrl(&mut t, 't');
    assert!(message(&t).starts_with("Move the "), "{}", message(&t));
    assert!(t.hint.is_some_and(|(_, m)| m.is_none()));
    ctrl(&mut t, 't');
    assert_eq!(message(&t), format!("The tables play {best}."));
    assert_eq!(t.drill().unwrap().hints, 1);
    type_line(&mut t, &best);
    assert!(t.hint.is_none());
    assert!(message(&t).contains("the tables' best"), "{}", message(&t));
}

#[test]
fn bad_input_says_why_and_changes_nothing() {
    let mut t = train();
    for bad in [
        "KQRBvK",
        "KXvK",
        "KvKQ",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "nonsense",
    ] {
        type_line(&mut t, bad);
        assert!(t.drill().is_none(), "{bad}");
        let (text, tone) = t.message.clone().unwrap();
        assert_eq!(tone, Tone::Error, "{bad}: {text}");
        t.message = None;
    }
    assert_eq!(t.endings.len(), knightfall::train::ending::OFFERED.len());
    // A typed ending joins the list and starts; a typed difficulty is taken.
    type_line(&mut t, "hard");
    type_line(&mut t, "kbvkp");
    let d = t.drill().unwrap();
    assert_eq!(d.ending.to_string(), "KBvKP");
    assert_eq!(d.goal, Goal::Draw);
    assert_eq!(d.difficulty.name(), "hard");
    // An illegal move on the board is refused.
    let before = d.game.fen();
    type_line(&mut t, "Qh8");
    assert_eq!(t.drill().unwrap().game.fen(), before);
    assert_eq!(t.message.as_ref().unwrap().1, Tone::Error);
}

#[test]
fn the_board_is_seen_from_the_players_side_and_fits_80x24() {
    let mut t = train();
    // Black to play and win.
    type_line(&mut t, "8/8/8/8/2k5/8/6q1/K7 b - - 0 1");
    assert_eq!(t.drill().unwrap().player, shakmaty::Color::Black);
    assert!(t.seen_from_black());
    let big = screen(&t, 120, 40);
    assert!(big.contains("Black to play and win"), "{big}");
    let small = screen(&t, 80, 24);
    assert!(small.contains("Black to play and win"), "{small}");
    assert!(small.contains("^T hint"), "{small}");
    let list_small = {
        key(&mut t, KeyCode::Char('q'));
        screen(&t, 80, 24)
    };
    assert!(list_small.contains("KQvK"), "{list_small}");
}

/// A mistake of White's in the Blackburne Shilling trap: 5. Nxf7?? where Bxf7+ was best.
fn mistake(fen: &str, played: &str, best: &str, cp: i32) -> knightfall::train::mistake::Mistake {
    let pos = common::position(fen);
    let parse = |m: &str| knightfall::train::mistake::parse_uci(&pos, m).unwrap();
    knightfall::train::mistake::Mistake {
        fen: fen.to_string(),
        played: parse(played),
        best: parse(best),
        before: knightfall::review::judge::Eval::Cp(cp),
        judgement: knightfall::review::judge::Judgement::Blunder,
        games: vec![knightfall::train::mistake::Seen {
            date: "2026.11.20".to_string(),
            opponent: "Knightfall".to_string(),
            number: "5.".to_string(),
            played: parse(played),
        }],
        why: String::new(),
    }
}

/// The record as the screen shows it, when `fx` asks for a save: the saved changes are in it.
fn cards(t: &Train, fx: &[Effect]) -> Option<Progress> {
    let changes: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::SaveTraining(c) => Some(c.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    (!changes.is_empty()).then(|| t.progress.clone())
}

#[test]
fn own_mistakes_come_back_graded_on_their_schedule() {
    use knightfall::review::analyse::PositionEval;
    use knightfall::review::judge::Eval;
    use knightfall::tui::job::{EngineEvent, Purpose};
    use knightfall::tui::train::Answer;
    let shilling = mistake(
        "r1b1kbnr/pppp1ppp/8/4N1q1/2BnP3/8/PPPP1PPP/RNBQK2R w KQkq - 1 5",
        "e5f7",
        "c4f7",
        0,
    );
    let early = mistake(
        "r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "f3e5",
        "f3d4",
        100,
    );
    let mut t = train();
    t.mistakes = vec![shilling.clone(), early.clone()];
    t.today = 100;
    assert_eq!(t.due().len(), 2, "never practised: due");
    assert!(screen(&t, 120, 40).contains("2 due, 0/2 learned"));
    key(&mut t, KeyCode::Up);
    key(&mut t, KeyCode::Up);
    key(&mut t, KeyCode::Enter);
    assert!(message(&t).contains("You played Nxf7??"), "{}", message(&t));
    assert!(screen(&t, 80, 24).contains("find better"));
    assert!(
        screen(&t, 120, 40).contains("From 2026.11.20 against Knightfall, move 5."),
        "{}",
        screen(&t, 120, 40)
    );
    // The engine's move: right at once, graded perfect, due tomorrow.
    let fx = type_line(&mut t, "Bxf7+");
    assert!(message(&t).starts_with("Right"), "{}", message(&t));
    let card = cards(&t, &fx).unwrap().mistakes[&shilling.id()];
    assert_eq!((card.reps, card.due), (1, 101));
    // The second: the move played again is wrong at once and the better move is marked.
    ctrl(&mut t, 'n');
    let fx = type_line(&mut t, "Nxe5");
    assert!(
        message(&t).contains("That is the move you played"),
        "{}",
        message(&t)
    );
    assert_eq!(t.message.as_ref().unwrap().1, Tone::Error);
    let best = early.best;
    assert_eq!(t.hint, Some((best.from().unwrap(), Some(best))));
    let card = cards(&t, &fx).unwrap().mistakes[&early.id()];
    assert_eq!((card.reps, card.interval, card.due), (0, 1, 101));
    // Tried again: another move is searched, and judged by the review's rule; a retry is
    // not graded a second time.
    ctrl(&mut t, 'r');
    let fx = type_line(&mut t, "c3");
    let Some(Effect::Search(req)) = fx.iter().find(|e| matches!(e, Effect::Search(_))) else {
        panic!("no search for the move tried: {fx:?}");
    };
    assert_eq!(req.pos.turn(), shakmaty::Color::Black);
    assert!(matches!(
        t.practice().unwrap().answer,
        Answer::Checking { .. }
    ));
    assert_eq!(req.purpose, Purpose::Judge);
    let judged = EngineEvent::Judged {
        generation: req.generation,
        // White keeps +0.80, close to the +1.00 before.
        eval: Ok(PositionEval {
            eval: Eval::Cp(80),
            line: Vec::new(),
            depth: 12,
        }),
        own: true,
    };
    let fx = t.update(Action::Engine(judged), Instant::now());
    assert!(
        message(&t).starts_with("Good: c3 (+0.80)"),
        "{}",
        message(&t)
    );
    assert!(cards(&t, &fx).is_none(), "a retry is not graded again");
    // The round ends; nothing is due until tomorrow.
    ctrl(&mut t, 'n');
    assert!(
        message(&t).contains("Round over: 1 of 2 found"),
        "{}",
        message(&t)
    );
    assert!(t.practice().is_none());
    key(&mut t, KeyCode::Enter);
    assert!(
        message(&t).contains("None of your 2 mistakes is due today"),
        "{}",
        message(&t)
    );
    t.today = 101;
    assert_eq!(t.due().len(), 2);
}

/// A position gone wrong in two games, with another move in each: one drill naming both, and
/// either move is the one you played.
#[test]
fn a_position_gone_wrong_in_two_games_is_one_drill_and_either_move_is_yours() {
    let fen = "r1b1kbnr/pppp1ppp/8/4N1q1/2BnP3/8/PPPP1PPP/RNBQK2R w KQkq - 1 5";
    let mut m = mistake(fen, "e5f7", "c4f7", 0);
    let d3 = knightfall::train::mistake::parse_uci(&common::position(fen), "d2d3").unwrap();
    m.games.push(knightfall::train::mistake::Seen {
        date: "2026.10.01".to_string(),
        opponent: "carl".to_string(),
        number: "5.".to_string(),
        played: d3,
    });
    let mut t = train();
    t.practise(vec![m]);
    let said = message(&t);
    assert!(
        said.contains("From 2026.11.20 against Knightfall, move 5.; also 2026.10.01 against carl, move 5. (d3)"),
        "{said}"
    );
    let fx = type_line(&mut t, "d3");
    assert!(
        message(&t).contains("That is the move you played"),
        "{}",
        message(&t)
    );
    assert!(!fx.iter().any(|e| matches!(e, Effect::Search(_))));
}

/// The evaluation the search service gives the position `req` asks to judge, as the screen
/// receives it: the service runs with the built-in tables, as the program's does.
fn judged_by_the_service(req: &knightfall::tui::job::Request) -> knightfall::tui::job::EngineEvent {
    use knightfall::tui::job::EngineEvent;
    let (tx, rx) = std::sync::mpsc::channel();
    let player = knightfall::player::Player::new(
        knightfall::engine::Config::default(),
        None,
        Some(Arc::new(Tablebases::embedded())),
    );
    let service = knightfall::tui::service::Service::spawn(
        move |ev| {
            let _ = tx.send(ev);
        },
        player,
    );
    service.start(Box::new(req.clone()));
    loop {
        let ev = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the service answers");
        if matches!(&ev, EngineEvent::Judged { generation, .. } if *generation == req.generation) {
            return ev;
        }
    }
}

#[test]
fn an_answer_that_lets_the_win_slip_past_the_fifty_move_rule_is_wrong_by_the_tables() {
    use knightfall::review::judge::{Eval, Judgement};
    use knightfall::tablebase::Wdl;
    use knightfall::tui::train::Answer;
    // Black wins with 25 moves left on the clock: only the quickest moves keep the win inside
    // the fifty-move rule; Re4 is a cursed win, a draw by that rule.
    let fen = "8/8/8/4r3/7k/2K5/8/8 b - - 75 123";
    let tables = Tablebases::embedded();
    let pos = common::position(fen);
    let ranked = tables.rank_root_moves(&pos).unwrap();
    let re4 = knightfall::game::Game::from_fen(fen)
        .unwrap()
        .parse_move("Re4")
        .unwrap();
    let cursed: Vec<_> = ranked
        .iter()
        .filter(|r| r.wdl == Wdl::CursedWin)
        .map(|r| r.mv)
        .collect();
    assert!(cursed.contains(&re4), "{ranked:?}");
    let played = *cursed.iter().find(|&&m| m != re4).unwrap();
    let mistake = knightfall::train::mistake::Mistake {
        fen: fen.to_string(),
        played,
        best: ranked[0].mv,
        before: Eval::Tablebase(shakmaty::Color::Black),
        judgement: Judgement::Blunder,
        games: Vec::new(),
        why: String::new(),
    };
    let mut t = train();
    t.practise(vec![mistake]);
    let fx = type_line(&mut t, "Re4");
    let Some(Effect::Search(req)) = fx.iter().find(|e| matches!(e, Effect::Search(_))) else {
        panic!("no check of the move tried: {fx:?}");
    };
    let judged = judged_by_the_service(req);
    t.update(Action::Engine(judged), Instant::now());
    assert!(
        matches!(t.practice().unwrap().answer, Answer::Missed(_)),
        "{}",
        message(&t)
    );
    assert!(
        message(&t)
            .starts_with("Re4 lets the win slip past the fifty-move rule (TB draw (cursed win)):"),
        "{}",
        message(&t)
    );
    // The panel shows the tables' results, no number of pawns.
    for (w, h) in [(120, 40), (80, 24)] {
        let shown = screen(&t, w, h);
        assert!(shown.contains("TB 0-1"), "{shown}");
        assert!(shown.contains("cursed win"), "{shown}");
        assert!(!shown.contains("-15"), "{shown}");
    }
}

#[test]
fn a_puzzle_is_solved_rated_once_and_a_wrong_move_is_refuted() {
    use knightfall::player::Source;
    use knightfall::tui::job::{EngineEvent, Purpose};
    use knightfall::tui::train::Stage;
    let mut t = train();
    assert!(t.puzzles.len() >= 50);
    assert!(screen(&t, 120, 40).contains("1500 ± 700 (0/0 solved)"));
    // From the list: the puzzles row, the one nearest 1500.
    key(&mut t, KeyCode::Up);
    key(&mut t, KeyCode::Enter);
    let s = t.solve().expect("a puzzle on the board");
    let puzzle = s.puzzle.clone();
    assert!(
        message(&t).contains(&format!("Puzzle {}", puzzle.id)),
        "{}",
        message(&t)
    );
    assert_eq!(t.pos().unwrap().turn(), puzzle.solver());
    // Every solver move of the solution, typed in SAN.
    let mut saved = Vec::new();
    let mut pos = puzzle.start();
    for (i, m) in puzzle.moves[1..].iter().enumerate() {
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string();
        pos.play_unchecked(*m);
        if i % 2 == 0 {
            saved.extend(type_line(&mut t, &san));
        }
    }
    assert_eq!(t.solve().unwrap().stage, Stage::Solved, "{}", message(&t));
    assert!(message(&t).contains("solved!"), "{}", message(&t));
    let progress = cards(&t, &saved).expect("the rating written");
    assert!(progress.puzzle_rating.rating > 1500.0);
    assert_eq!(progress.puzzle_history.len(), 1);
    assert_eq!(progress.puzzles.get(&puzzle.id), Some(&true));
    // The next one: a wrong move is counted as failed once, answered, and shown the solution.
    ctrl(&mut t, 'n');
    let next = t.solve().unwrap().puzzle.clone();
    assert_ne!(next.id, puzzle.id);
    let start = next.start();
    let wrong = start
        .legal_moves()
        .into_iter()
        .find(|m| {
            *m != next.moves[1] && {
                let mut p = start.clone();
                p.play_unchecked(*m);
                !p.is_checkmate() && !p.legal_moves().is_empty()
            }
        })
        .unwrap();
    let san = shakmaty::san::SanPlus::from_move(start.clone(), wrong).to_string();
    let fx = type_line(&mut t, &san);
    let after_wrong = cards(&t, &fx).expect("counted at once");
    assert!(after_wrong.puzzle_rating.rating < progress.puzzle_rating.rating);
    let Some(Effect::Search(req)) = fx.iter().find(|e| matches!(e, Effect::Search(_))) else {
        panic!("no search for the refutation: {fx:?}");
    };
    let reply = req.pos.legal_moves()[0];
    let done = EngineEvent::Done {
        generation: req.generation,
        purpose: Purpose::Analyse,
        best: Some(reply),
        score: 300,
        source: Source::Search,
        note: None,
    };
    t.update(Action::Engine(done), Instant::now());
    assert!(message(&t).contains("Answered by"), "{}", message(&t));
    assert!(message(&t).contains("The solution:"), "{}", message(&t));
    // Tried again and solved: not counted a second time.
    ctrl(&mut t, 'r');
    let mut pos = next.start();
    let mut fx_all = Vec::new();
    for (i, m) in next.moves[1..].iter().enumerate() {
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string();
        pos.play_unchecked(*m);
        if i % 2 == 0 {
            fx_all.extend(type_line(&mut t, &san));
        }
    }
    assert_eq!(t.solve().unwrap().stage, Stage::Solved);
    assert!(cards(&t, &fx_all).is_none(), "a retry is not rated");
    assert!(screen(&t, 120, 40).contains("Solved by theme"));
    assert!(screen(&t, 80, 24).contains("to move: find the best move"));
}

#[test]
fn puzzles_are_filtered_by_motif_and_rating() {
    let mut t = train();
    type_line(&mut t, "filter hangingPiece");
    assert!(
        message(&t).contains("puzzles let through"),
        "{}",
        message(&t)
    );
    assert!(
        t.offered()
            .iter()
            .all(|p| { p.motifs.contains(&knightfall::motifs::Motif::HangingPiece) })
    );
    type_line(&mut t, "filter 1200-1600");
    assert!(
        t.offered()
            .iter()
            .all(|p| (1200..=1600).contains(&p.rating))
    );
    type_line(&mut t, "filter nonsense");
    assert_eq!(t.message.as_ref().unwrap().1, Tone::Error);
    type_line(&mut t, "filter 5000-6000");
    key(&mut t, KeyCode::Up);
    key(&mut t, KeyCode::Enter);
    assert!(t.solve().is_none());
    assert!(message(&t).contains("No puzzle fits"), "{}", message(&t));
    type_line(&mut t, "filter");
    assert_eq!(t.offered().len(), t.puzzles.len());
    // A puzzle on the board that the new filter would not choose gives way to one it would.
    use knightfall::motifs::Motif;
    let plain = t
        .puzzles
        .iter()
        .find(|p| !p.motifs.contains(&Motif::DefensiveMove))
        .unwrap()
        .id
        .clone();
    t.open_puzzle(&plain);
    type_line(&mut t, "filter defensiveMove");
    let shown = &t.solve().unwrap().puzzle;
    assert!(shown.motifs.contains(&Motif::DefensiveMove), "{shown:?}");
    assert!(
        message(&t).contains("let through. Puzzle"),
        "{}",
        message(&t)
    );
    // One that fits stays.
    let kept = shown.id.clone();
    type_line(&mut t, "filter defensiveMove");
    assert_eq!(t.solve().unwrap().puzzle.id, kept);
    t.open_puzzle("nope!");
    assert!(message(&t).contains("no puzzle"), "{}", message(&t));
}

#[test]
fn puzzle_themes_read_in_words_on_the_screen_and_in_the_filter() {
    use knightfall::motifs::Motif;
    let mut t = train();
    let mate_in_2 = t
        .puzzles
        .iter()
        .find(|p| p.motifs.contains(&Motif::MateIn2))
        .unwrap()
        .id
        .clone();
    t.open_puzzle(&mate_in_2);
    t.progress
        .puzzle_motifs
        .insert("defensiveMove".to_string(), [2, 1]);
    t.progress
        .puzzle_motifs
        .insert("veryLong".to_string(), [1, 0]);
    let shown = screen(&t, 120, 40);
    assert!(shown.contains("mate in 2"), "{shown}");
    assert!(shown.contains("defensive move  50% of 2"), "{shown}");
    assert!(shown.contains("very long"), "{shown}");
    for (w, h) in [(120, 40), (80, 24)] {
        let shown = screen(&t, w, h);
        for id in ["mateIn2", "defensiveMove", "veryLong"] {
            assert!(!shown.contains(id), "{id} at {w}x{h}: {shown}");
        }
    }
    // The filter takes the words, and names the themes in words when it does not know one.
    type_line(&mut t, "filter mate in 2");
    assert!(
        t.offered()
            .iter()
            .all(|p| p.motifs.contains(&Motif::MateIn2))
    );
    assert!(!t.offered().is_empty(), "{}", message(&t));
    type_line(&mut t, "filter defensive move 1200-2400");
    assert!(t.offered().iter().all(|p| {
        p.motifs.contains(&Motif::DefensiveMove) && (1200..=2400).contains(&p.rating)
    }));
    type_line(&mut t, "filter nonsense");
    assert!(message(&t).contains("defensive move"), "{}", message(&t));
    assert!(!message(&t).contains("defensiveMove"), "{}", message(&t));
    // Ac6fT ends in a mating net (a mate in 7), not in a defence. It left the built-in set
    // (Stockfish prefers another first move at depth 16), so the test brings it.
    let mut net = knightfall::train::puzzle::from_csv(
        "Ac6fT,6k1/4R3/1pp2r2/p5p1/PP3p2/5P1K/2r5/1R6 w - - 0 42,b4a5 f6h6 h3g4 c2c5,1748,",
    )
    .unwrap();
    net.motifs = knightfall::motifs::of(&net.start(), &net.moves[1..]);
    t.puzzles.push(net);
    t.open_puzzle("Ac6fT");
    let p = &t.solve().unwrap().puzzle;
    assert!(!p.motifs.contains(&Motif::DefensiveMove), "{:?}", p.motifs);
    assert!(screen(&t, 120, 40).contains("Themes: endgame, short"));
}

#[test]
fn a_save_hands_back_the_record_merged_with_other_instances() {
    use knightfall::train::progress::Change;
    let mut t = train();
    type_line(&mut t, "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1");
    type_line(&mut t, "Qb8+");
    let fx = key(&mut t, KeyCode::Char('q'));
    // The save asks for this screen's result alone, not its whole copy of the record.
    let asked: Vec<&Change> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::SaveTraining(c) => Some(c),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(
        matches!(asked.as_slice(), [Change::Ending { ending, done: false, .. }] if ending == "KQvK"),
        "{asked:?}"
    );
    // The record as saved has another instance's drills too; the list shows them.
    let mut merged = t.progress.clone();
    Change::ending("KRvK", true, true, Some(0), 100).apply(&mut merged);
    t.update(Action::Trained(Box::new(merged.clone())), Instant::now());
    assert_eq!(t.progress, merged);
    let list = screen(&t, 120, 40);
    assert!(list.contains("1/1 done, won at par"), "{list}");
    assert!(list.contains("0/1 done"), "{list}");
    // A rating just said is the one kept, which other instances' puzzles moved too.
    let said = format!("Your puzzle rating: {}.", t.progress.puzzle_rating.shown());
    t.message = Some((said, Tone::Info));
    let puzzle = t.puzzles[0].clone();
    Change::puzzle(&puzzle, true).apply(&mut merged);
    t.update(Action::Trained(Box::new(merged.clone())), Instant::now());
    assert_eq!(
        message(&t),
        format!("Your puzzle rating: {}.", merged.puzzle_rating.shown())
    );
}

#[test]
fn a_notice_stays_over_a_started_drill_until_a_key_is_pressed() {
    let mut t = train();
    t.notice = Some("The training progress in x could not be read; it is kept as y.".into());
    t.open_ending(knightfall::train::Ending::parse("KQvK").unwrap());
    assert!(t.drill().is_some());
    let shown = screen(&t, 100, 32);
    assert!(shown.contains("it is kept as y"), "{shown}");
    assert!(shown.contains("Any key closes"), "{shown}");
    ctrl(&mut t, 'f');
    assert!(
        !t.flipped,
        "the key that closes the notice does nothing else"
    );
    let shown = screen(&t, 100, 32);
    assert!(!shown.contains("kept as"), "{shown}");
    assert!(shown.contains("to play and win"), "{shown}");
}

/// A training screen drawing from the sample of lichess's database imported into a library in
/// `dir` too; `None` when `../shared` is absent.
fn train_with_imported(dir: &std::path::Path) -> Option<Train> {
    use knightfall::store::library::Library;
    let sample = common::shared("data/puzzles/lichess-format-sample.csv")?;
    let path = dir.join("library.sqlite");
    let mut summary = knightfall::store::library::import::Summary::default();
    Library::open(&path)
        .unwrap()
        .import_puzzles(&sample, &mut summary)
        .unwrap();
    assert_eq!(summary.imported, 100);
    let mut t = train();
    t.attach(Library::open(&path).unwrap());
    Some(t)
}

#[test]
fn imported_puzzles_are_drawn_nearest_the_rating_by_lichess_theme_and_shown_with_their_figures() {
    let dir = tempfile::tempdir().unwrap();
    let Some(mut t) = train_with_imported(dir.path()) else {
        return;
    };
    assert_eq!(t.imported.as_ref().unwrap().total, 100);
    let list = screen(&t, 120, 40);
    assert!(
        list.contains(&format!("{} built-in, 100 from lichess", t.puzzles.len())),
        "{list}"
    );
    // A theme only lichess's puzzles have, in words: the sample has 13 of them.
    type_line(&mut t, "filter kingside attack");
    assert_eq!(message(&t), "13 puzzles let through.");
    key(&mut t, KeyCode::Up);
    key(&mut t, KeyCode::Enter);
    let first = t.solve().expect("a puzzle on the board").puzzle.clone();
    // The nearest 1500 of the sample's kingside attacks (0A5sQ, rated 1678).
    assert_eq!((first.id.as_str(), first.rating), ("0A5sQ", 1678));
    let lichess = first.lichess.clone().expect("lichess's figures kept");
    assert_eq!((lichess.popularity, lichess.plays), (100, 447));
    for (w, h) in [(120, 40), (80, 24)] {
        let shown = screen(&t, w, h);
        assert!(
            shown.contains("Puzzle 0A5sQ · rated 1678"),
            "{w}x{h}: {shown}"
        );
        assert!(shown.contains("kingside attack"), "{w}x{h}: {shown}");
        assert!(
            shown.contains("Lichess: popularity 100"),
            "{w}x{h}: {shown}"
        );
        assert!(!shown.contains("kingsideAttack"), "{w}x{h}: {shown}");
    }
    // Solved: counted under lichess's themes, and the next one is another.
    let mut pos = first.start();
    let mut fx = Vec::new();
    for (i, m) in first.moves[1..].iter().enumerate() {
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), *m).to_string();
        pos.play_unchecked(*m);
        if i % 2 == 0 {
            fx.extend(type_line(&mut t, &san));
        }
    }
    let progress = cards(&t, &fx).expect("counted");
    assert_eq!(progress.puzzles.get("0A5sQ"), Some(&true));
    assert_eq!(progress.puzzle_motifs.get("kingsideAttack"), Some(&[1, 1]));
    ctrl(&mut t, 'n');
    let next = t.solve().unwrap().puzzle.clone();
    assert_ne!(next.id, first.id);
    assert!(next.lichess.is_some());
    assert!(next.themes().contains(&"kingsideAttack"), "{next:?}");
    // Any puzzle by its id, built-in or imported; an unknown theme lists lichess's too.
    t.open_puzzle("09lz3");
    assert_eq!(t.solve().unwrap().puzzle.rating, 961);
    type_line(&mut t, "filter nonsense");
    assert!(message(&t).contains("kingside attack"), "{}", message(&t));
    assert!(message(&t).contains("mate in 2"), "{}", message(&t));
    // A filter and a range over both sets.
    type_line(&mut t, "filter mate in 2 900-1000");
    let built_in = t.offered().len() as i64;
    assert!(
        message(&t).starts_with(&format!("{} puzzles", built_in + 4)),
        "{}",
        message(&t)
    );
}

#[test]
fn an_answer_is_judged_by_the_engine_reviews_search_with_the_tables_first() {
    use knightfall::review::judge::Eval;
    use knightfall::tui::job::{EngineEvent, Mover, Purpose, Request};
    // A UCI engine in a line of shell: any position, Black to move after 1. e4, "cp 77".
    let spec = knightfall::external::EngineSpec {
        name: "scripted".into(),
        command: "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) echo \"info depth 11 score cp 77 pv e7e5\"; echo \"bestmove e7e5\";; quit) exit;; esac; done'".into(),
        options: Vec::new(),
    };
    let game = knightfall::game::Game::from_pgn("1. e4 *").unwrap();
    let request = |game: &knightfall::game::Game, generation, start: Option<&str>| Request {
        generation,
        purpose: Purpose::Judge,
        pos: game.position().clone(),
        history: game.history_keys().to_vec(),
        limits: knightfall::engine::Limits {
            movetime: Some(200),
            ..Default::default()
        },
        mover: Mover::External(spec.clone()),
        start_fen: start.map(str::to_string),
        moves: game.moves().to_vec(),
    };
    let EngineEvent::Judged { eval, .. } = judged_by_the_service(&request(&game, 7001, None))
    else {
        unreachable!()
    };
    let eval = eval.unwrap();
    assert_eq!((eval.eval, eval.depth), (Eval::Cp(-77), 11), "{eval:?}");
    // In an ending the tables know, they answer: the engine's "cp 77" is never asked.
    let fen = "8/8/8/4k3/8/8/3QK3/8 w - - 0 1";
    let ending = knightfall::game::Game::from_fen(fen).unwrap();
    let EngineEvent::Judged { eval, .. } =
        judged_by_the_service(&request(&ending, 7002, Some(fen)))
    else {
        unreachable!()
    };
    assert_eq!(eval.unwrap().eval, Eval::Tablebase(shakmaty::Color::White));
}
