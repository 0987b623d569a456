//! Rendering snapshots with ratatui's `TestBackend`: the board from both sides, the move list,
//! the analysis panel, ASCII and NO_COLOR modes, the help overlay, the setup screen and a
//! terminal too small to draw in.

use crate::common;

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightfall::engine::Info;
use knightfall::game::Game;
use knightfall::tui::app::{Action, App, Effect, Mode, Settings, Side};
use knightfall::tui::job::EngineEvent;
use knightfall::tui::screen::Drawn;
use knightfall::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::uci::UciMove;

fn new_app(white: Side, black: Side, ascii: bool) -> App {
    let settings = Settings {
        white,
        black,
        ascii,
        ..Settings::default()
    };
    let mut app = App::new(settings, Game::new(), Mode::Play, Instant::now());
    app.no_color = false;
    app.truecolor = true;
    app
}

/// The generation of the search among `fx` (the test fails when there is none).
fn search_generation(fx: &[Effect]) -> u64 {
    fx.iter()
        .find_map(|e| match e {
            Effect::Search(r) => Some(r.generation),
            _ => None,
        })
        .expect("a search request")
}

/// Draws `app` into a `w` x `h` test terminal; returns what the frame measured.
fn draw(app: &App, w: u16, h: u16) -> (Terminal<TestBackend>, Drawn) {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut drawn = Drawn::default();
    term.draw(|f| drawn = ui::draw(f, app)).unwrap();
    (term, drawn)
}

fn render(app: &App, w: u16, h: u16) -> String {
    let (term, _) = draw(app, w, h);
    common::screen_text(&term)
}

fn ruy_lopez(app: &mut App) {
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"] {
        common::type_line(app, m);
    }
}

#[test]
fn board_from_white_with_moves() {
    let mut app = new_app(Side::Human, Side::Human, false);
    ruy_lopez(&mut app);
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn board_from_black_flipped() {
    let mut app = new_app(Side::Human, Side::Human, false);
    ruy_lopez(&mut app);
    app.flipped = true;
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn ascii_board_large_terminal() {
    let mut app = new_app(Side::Human, Side::Human, true);
    ruy_lopez(&mut app);
    insta::assert_snapshot!(render(&app, 120, 40));
}

#[test]
fn no_color_marks_last_move_and_targets() {
    let mut app = new_app(Side::Human, Side::Human, false);
    app.no_color = true;
    ruy_lopez(&mut app);
    for c in "f6".chars() {
        app.update(
            Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
            Instant::now(),
        );
    }
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn analysis_panel_while_thinking() {
    let mut app = new_app(Side::Human, Side::Engine, false);
    let fx = common::type_line(&mut app, "e2e4");
    let generation = search_generation(&fx);
    let pv = line_of(app.game.position(), &["c7c5", "g1f3", "d7d6", "d2d4"]);
    app.update(
        Action::Engine(EngineEvent::Info {
            generation,
            info: Info {
                depth: 12,
                seldepth: 19,
                score: 35, // Black's view: White is 0.35 worse
                nodes: 1_234_567,
                nps: 987_654,
                time_ms: 1250,
                hashfull: 40,
                tb_hits: 0,
                pv,
                multipv: 1,
            },
        }),
        Instant::now(),
    );
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn the_evaluation_is_hidden_against_the_engine_until_asked_for_and_says_whose_it_is() {
    let mut app = new_app(Side::Human, Side::Engine, false);
    app.settings.level = 3;
    let fx = common::type_line(&mut app, "e2e4");
    let generation = search_generation(&fx);
    let pv = line_of(app.game.position(), &["c7c5", "g1f3"]);
    app.update(
        Action::Engine(EngineEvent::Info {
            generation,
            info: Info {
                depth: 7,
                seldepth: 9,
                score: 35,
                nodes: 50_000,
                nps: 900_000,
                time_ms: 50,
                hashfull: 1,
                tb_hits: 0,
                pv,
                multipv: 1,
            },
        }),
        Instant::now(),
    );
    let screen = render(&app, 120, 40);
    assert!(screen.contains("Score hidden"), "{screen}");
    assert!(!screen.contains("-0.35"), "{screen}");
    // Ctrl-G shows it, labelled as level 3's own opinion, and the choice is saved.
    let fx = app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::CONTROL)),
        Instant::now(),
    );
    assert!(
        fx.iter().any(|e| matches!(e, Effect::SaveSwitches)),
        "{fx:?}"
    );
    assert!(app.settings.show_eval);
    let screen = render(&app, 120, 40);
    assert!(screen.contains("Score -0.35"), "{screen}");
    assert!(
        screen.contains("From its search, level 3's view"),
        "{screen}"
    );
    // Two people, or watching: nothing to hide.
    let mut hh = new_app(Side::Human, Side::Human, false);
    hh.settings.show_eval = false;
    assert!(!hh.eval_hidden());
    let mut watch = new_app(Side::Engine, Side::Engine, false);
    watch.mode = Mode::Watch;
    assert!(!watch.eval_hidden());
}

#[test]
fn the_footer_keeps_every_key_at_80_columns_none_cut_in_two() {
    let app = new_app(Side::Human, Side::Engine, false);
    let screen = render(&app, 80, 24);
    let footer: Vec<&str> = screen.lines().rev().take(2).collect();
    for key in [
        "? help",
        "^Q quit",
        "^B board",
        "^G eval",
        "^O sound",
        "←→ browse",
    ] {
        assert!(
            footer.iter().any(|l| l.contains(key)),
            "{key:?} missing:\n{screen}"
        );
    }
}

#[test]
fn small_terminal_gets_a_message() {
    let app = new_app(Side::Human, Side::Engine, false);
    insta::assert_snapshot!(render(&app, 40, 12));
}

#[test]
fn help_overlay() {
    let mut app = new_app(Side::Human, Side::Engine, false);
    app.help.shown = true;
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn long_game_scrolls_move_list_to_current_move() {
    let mut app = new_app(Side::Human, Side::Human, false);
    for _ in 0..5 {
        for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
            common::type_line(&mut app, m);
        }
        if app.game.is_over() {
            break;
        }
    }
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn mouse_clicks_map_to_squares_in_both_orientations() {
    let mut app = new_app(Side::Human, Side::Human, false);
    let click = |app: &App, column, row| draw(app, 80, 24).1.click(column, row);
    // 80x24: cells are 5x2, the board starts at column 2; "e" is labelled at column 24.
    assert!(matches!(
        click(&app, 24, 12),
        Some(Action::Click(shakmaty::Square::E2))
    ));
    assert!(matches!(
        click(&app, 2, 0),
        Some(Action::Click(shakmaty::Square::A8))
    ));
    assert!(click(&app, 60, 0).is_none());
    app.flipped = true;
    assert!(matches!(
        click(&app, 24, 12),
        Some(Action::Click(shakmaty::Square::D7))
    ));
    // Clicking e2 then e4 plays the move.
    app.flipped = false;
    for (x, y) in [(24, 12), (24, 8)] {
        let action = click(&app, x, y).unwrap();
        app.update(action, Instant::now());
    }
    assert_eq!(app.game.sans(), ["e4"]);
}

#[test]
fn square_colours_in_true_colour_256_and_no_colour() {
    use knightfall::theme::Theme;
    use ratatui::style::Color as Tui;
    let bg_at = |app: &App, x: u16, y: u16| {
        let (term, _) = draw(app, 80, 24);
        term.backend().buffer()[(x, y)].bg
    };
    let rgb = |shade: knightfall::theme::Shade| Tui::Rgb(shade.rgb.0, shade.rgb.1, shade.rgb.2);
    let classic = Theme::Classic.squares();
    let mut app = new_app(Side::Human, Side::Human, false);
    // a1 is dark, b1 light (cells are 5x2 from column 2 at 80x24; rank 1 is rows 14-15).
    assert_eq!(bg_at(&app, 2, 14), rgb(classic.dark));
    assert_eq!(bg_at(&app, 7, 14), rgb(classic.light));
    app.truecolor = false;
    assert_eq!(bg_at(&app, 2, 14), Tui::Indexed(classic.dark.indexed));
    assert_eq!(bg_at(&app, 7, 14), Tui::Indexed(classic.light.indexed));
    app.no_color = true;
    assert_eq!(bg_at(&app, 2, 14), Tui::Reset);
    // The last move's squares and a king in check get their own colours.
    let mut app = new_app(Side::Human, Side::Human, false);
    for m in ["e4", "f5", "Qh5+"] {
        common::type_line(&mut app, m);
    }
    assert_eq!(bg_at(&app, 24, 0), rgb(classic.check), "e8 king in check");
    assert_eq!(
        bg_at(&app, 37, 6),
        rgb(classic.last[0]),
        "h5: last move, light"
    );
}

#[test]
fn in_256_colours_the_last_move_and_a_check_stand_out_on_both_square_colours() {
    use knightfall::theme::{Theme, difference, xterm_rgb};
    use ratatui::style::Color as Tui;
    let rgb = |c: Tui| match c {
        Tui::Indexed(i) => xterm_rgb(i).unwrap(),
        other => panic!("not a 256-colour index: {other:?}"),
    };
    // At 80x24 a square is 5x2 cells from column 2, rank 8 on rows 0-1.
    let at = |file: u16, rank: u16| (2 + 5 * file, 2 * (8 - rank));
    for theme in Theme::ALL {
        for (moves, marked, neighbours) in [
            // e7-e5 is a move between dark squares, e2-e4 between light ones.
            (
                &["e4", "e5"][..],
                vec![at(4, 5), at(4, 7)],
                [at(3, 5), at(3, 6)],
            ),
            (&["e4"][..], vec![at(4, 4), at(4, 2)], [at(3, 4), at(3, 3)]),
            (
                &["e4", "f5", "Qh5+"][..],
                vec![at(4, 8)],
                [at(3, 8), at(2, 8)],
            ),
        ] {
            let mut app = new_app(Side::Human, Side::Human, false);
            app.truecolor = false;
            app.settings.theme = theme;
            for m in moves {
                common::type_line(&mut app, m);
            }
            let (term, _) = draw(&app, 80, 24);
            let buf = term.backend().buffer();
            for y in 0..24 {
                for x in 0..80 {
                    for c in [buf[(x, y)].fg, buf[(x, y)].bg] {
                        assert!(
                            !matches!(c, Tui::Rgb(..)),
                            "{theme}: 24-bit {c:?} at ({x},{y})"
                        );
                    }
                }
            }
            let squares = neighbours.map(|(x, y)| rgb(buf[(x, y)].bg));
            assert_ne!(squares[0], squares[1], "{theme}: a light and a dark square");
            for (x, y) in marked {
                let mark = rgb(buf[(x, y)].bg);
                for square in squares {
                    let d = difference(mark, square);
                    assert!(
                        d >= 20.0,
                        "{theme} after {moves:?}: ({x},{y}) {mark:?} beside {square:?} is {d:.1}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_piece_drawn_stands_out_from_its_square_in_every_theme() {
    use knightfall::theme::{Theme, contrast, xterm_rgb};
    use knightfall::tui::app::Effect;
    use ratatui::style::Color as Tui;
    let rgb = |c: Tui| match c {
        Tui::Rgb(r, g, b) => (r, g, b),
        Tui::Indexed(i) => xterm_rgb(i).unwrap(),
        other => panic!("a board colour without a fixed value: {other:?}"),
    };
    let mut app = new_app(Side::Human, Side::Human, false);
    // Marks on both shades: a check, the last move, a selected piece and its targets.
    for m in ["e4", "f5", "Qh5+"] {
        common::type_line(&mut app, m);
    }
    for truecolor in [true, false] {
        app.truecolor = truecolor;
        let mut seen = Vec::new();
        for _ in Theme::ALL {
            let theme = app.settings.theme;
            seen.push(theme);
            for (w, h) in [(120, 40), (80, 24)] {
                let (term, _) = draw(&app, w, h);
                let buf = term.backend().buffer();
                let mut pieces = 0;
                for y in 0..h {
                    for x in 0..w {
                        let cell = &buf[(x, y)];
                        // A piece's cell: a coloured square under a white or black figure.
                        let figure = matches!(
                            cell.fg,
                            Tui::Rgb(255, 255, 255)
                                | Tui::Rgb(0, 0, 0)
                                | Tui::Indexed(231)
                                | Tui::Indexed(16)
                        );
                        if !figure || cell.bg == Tui::Reset || cell.symbol() == " " {
                            continue;
                        }
                        pieces += 1;
                        let ratio = contrast(rgb(cell.fg), rgb(cell.bg));
                        let least = if theme == Theme::Contrast { 4.0 } else { 3.0 };
                        assert!(
                            ratio >= least,
                            "{theme} at {w}x{h} ({x},{y}): {:?} on {:?} is {ratio:.2}:1",
                            cell.fg,
                            cell.bg
                        );
                    }
                }
                assert!(
                    pieces >= 32,
                    "{theme} at {w}x{h}: only {pieces} figure cells"
                );
            }
            // The typed command steps to the next theme and asks for it to be kept.
            let fx = common::type_line(&mut app, "theme");
            assert!(
                fx.iter()
                    .any(|e| matches!(e, Effect::Theme(t) if *t == theme.next())),
                "{fx:?}"
            );
            app.settings.theme = theme.next();
        }
        assert_eq!(seen, Theme::ALL);
    }
    let fx = common::type_line(&mut app, "theme contrast");
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Theme(Theme::Contrast)))
    );
    let before = app.settings.theme;
    let fx = common::type_line(&mut app, "theme purple");
    assert!(!fx.iter().any(|e| matches!(e, Effect::Theme(_))));
    assert_eq!(app.settings.theme, before);
    assert!(render(&app, 120, 40).contains("no theme \"purple\""));
}

#[test]
fn smallest_supported_terminal() {
    let mut app = new_app(Side::Human, Side::Human, false);
    ruy_lopez(&mut app);
    insta::assert_snapshot!(render(&app, 60, 18));
}

#[test]
fn scores_read_as_a_player_expects() {
    use knightfall::engine::score::{MATE, TB_WIN};
    use knightfall::tui::ui::analysis::format_score;
    assert_eq!(format_score(35), "+0.35");
    assert_eq!(format_score(-120), "-1.20");
    assert_eq!(format_score(MATE - 5), "#3");
    assert_eq!(format_score(-MATE + 4), "#-2");
    assert_eq!(format_score(TB_WIN - 7), "TB 1-0");
    assert_eq!(format_score(-TB_WIN + 7), "TB 0-1");
}

#[test]
fn captured_pieces_and_the_material_lead_beside_the_board() {
    let mut app = new_app(Side::Human, Side::Human, false);
    for m in ["e4", "d5", "exd5"] {
        common::type_line(&mut app, m);
    }
    let screen = render(&app, 80, 24);
    // Black's haul first, White's (the side at the bottom) last, as the clocks are.
    assert!(screen.contains("│Captured - | ♟  White +1"), "{screen}");
    for m in ["Nf6", "Nc3", "Nxd5", "Nxd5", "Qxd5"] {
        common::type_line(&mut app, m);
    }
    let screen = render(&app, 80, 24);
    assert!(screen.contains("│Captured ♘♙ | ♞♟ "), "{screen}");
    assert!(!screen.contains(" +"), "level material: {screen}");
    let mut ascii = new_app(Side::Human, Side::Human, true);
    for m in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qxa2", "Rxa2"] {
        common::type_line(&mut ascii, m);
    }
    let screen = render(&ascii, 80, 24);
    assert!(screen.contains("│Captured PP | qp  White +8"), "{screen}");
}

#[test]
fn a_promotion_counts_as_the_piece_it_made_not_as_a_capture() {
    let mut app = new_app(Side::Human, Side::Human, true);
    for m in [
        "e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7", "bxa8=Q",
    ] {
        common::type_line(&mut app, m);
    }
    let screen = render(&app, 80, 24);
    // Three pawns and a rook taken; a queen made from a pawn: 39 - 1 + 9 against 39 - 8.
    assert!(screen.contains("│Captured - | rppp  White +16"), "{screen}");
    let settings = Settings {
        white: Side::Human,
        black: Side::Human,
        ascii: true,
        ..Settings::default()
    };
    let game = Game::from_fen("r3k3/1P6/8/8/8/8/6PP/4K3 w - - 0 1").unwrap();
    let mut app = App::new(settings, game, Mode::Play, Instant::now());
    for m in ["b8=N", "Ra4"] {
        common::type_line(&mut app, m);
    }
    let screen = render(&app, 80, 24);
    // A knight and two pawns against a rook: level, and nothing was taken.
    assert!(!screen.contains("Captured"), "{screen}");
    assert!(!screen.contains(" +1"), "{screen}");
}

#[test]
fn the_engine_s_line_stays_hidden_on_the_person_s_turn() {
    let mut app = new_app(Side::Human, Side::Engine, false);
    let fx = common::type_line(&mut app, "e4");
    let generation = search_generation(&fx);
    let moves = line_of(app.game.position(), &["c7c5", "g1f3", "d7d6"]);
    app.update(
        Action::Engine(EngineEvent::Info {
            generation,
            info: Info {
                depth: 10,
                seldepth: 14,
                score: 30,
                nodes: 50_000,
                nps: 1_000_000,
                time_ms: 50,
                hashfull: 1,
                tb_hits: 0,
                pv: moves.clone(),
                multipv: 1,
            },
        }),
        Instant::now(),
    );
    // While it thinks, its thinking is on show.
    assert!(render(&app, 80, 24).contains("Line 1... c5 2. Nf3 d6"));
    app.update(
        Action::Engine(EngineEvent::Done {
            generation,
            purpose: knightfall::tui::job::Purpose::Play,
            best: Some(moves[0]),
            score: 30,
            source: knightfall::player::Source::Search,
            note: None,
        }),
        Instant::now(),
    );
    // Its move is shown; what it expects of the person is not, until asked (Ctrl-V).
    let screen = render(&app, 80, 24);
    assert!(
        screen.contains("Line 1... c5 (^V shows the line)"),
        "{screen}"
    );
    assert!(!screen.contains("Nf3"), "{screen}");
    app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('v'), KeyModifiers::CONTROL)),
        Instant::now(),
    );
    assert!(render(&app, 80, 24).contains("Line 1... c5 2. Nf3 d6"));
}

/// A line of UCI moves from `pos` as moves.
fn line_of(pos: &shakmaty::Chess, ucis: &[&str]) -> Vec<shakmaty::Move> {
    let mut p = pos.clone();
    ucis.iter()
        .map(|u| {
            let m = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
            shakmaty::Position::play_unchecked(&mut p, m);
            m
        })
        .collect()
}

#[test]
fn large_terminal_draws_big_pieces_and_the_search_history() {
    // A hint for Black after the Ruy Lopez: its line is shown.
    let mut app = new_app(Side::Human, Side::Human, false);
    ruy_lopez(&mut app);
    let fx = app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL)),
        Instant::now(),
    );
    let generation = search_generation(&fx);
    let pos = app.game.position().clone();
    for (depth, score, ucis) in [
        (9, 20, &["f8e7", "f1e1"][..]),
        (10, 28, &["b7b5", "a4b3", "f8e7"][..]),
        (11, 31, &["f8e7", "f1e1", "b7b5", "a4b3"][..]),
    ] {
        app.update(
            Action::Engine(EngineEvent::Info {
                generation,
                info: Info {
                    depth,
                    seldepth: depth + 6,
                    score,
                    nodes: 100_000 * u64::from(depth),
                    nps: 1_000_000,
                    time_ms: 100 * u64::from(depth),
                    hashfull: 10,
                    tb_hits: 0,
                    pv: line_of(&pos, ucis),
                    multipv: 1,
                },
            }),
            Instant::now(),
        );
    }
    let big = render(&app, 200, 60);
    // Pieces are figures of half blocks, not single glyphs, and the panel lists each depth.
    assert!(!big.contains('♜'), "{big}");
    assert!(big.contains("Depth  Score    Line"), "{big}");
    insta::assert_snapshot!("large_200x60", big);
    insta::assert_snapshot!("large_120x40", render(&app, 120, 40));
}

#[test]
fn a_long_game_fills_columns_in_a_wide_move_list() {
    use shakmaty::Position;
    let mut app = new_app(Side::Human, Side::Human, false);
    // A fixed walk through the legal moves (the 7k-th in shakmaty's order), typed in SAN.
    for ply in 0..130usize {
        let pos = app.game.position().clone();
        let moves = pos.legal_moves();
        if app.game.is_over() || moves.is_empty() {
            break;
        }
        let m = moves[(ply * 7) % moves.len()];
        let san = shakmaty::san::San::from_move(&pos, m).to_string();
        common::type_line(&mut app, &san);
    }
    assert!(app.game.sans().len() > 100, "{}", app.game.sans().len());
    let screen = render(&app, 200, 60);
    // Past one column's height the list wraps into the next column, numbers in order.
    let lines: Vec<&str> = screen.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("  1. ") && l.contains(" 25. ") && l.contains(" 49. ")),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn clocks_are_large_beside_the_board_where_there_is_room() {
    use knightfall::tui::ui::clock::big;
    use ratatui::style::Color as Tui;
    use std::time::Duration;
    let settings = Settings {
        white: Side::Human,
        black: Side::Human,
        tc: "3+2".into(),
        ..Settings::default()
    };
    let t0 = Instant::now();
    let at = |ms| t0 + Duration::from_millis(ms);
    let mut app = App::new(settings, Game::new(), Mode::Play, t0);
    app.no_color = false;
    app.truecolor = true;
    app.start(t0);
    let play = |app: &mut App, san: &str, ms| {
        for c in san.chars() {
            app.update(Action::Key(KeyEvent::from(KeyCode::Char(c))), at(ms));
        }
        app.update(Action::Key(KeyEvent::from(KeyCode::Enter)), at(ms));
    };
    play(&mut app, "e4", 0);
    play(&mut app, "e5", 0);
    // White thinks 172.7 s: 3:02 less that leaves 9.3 s, read in tenths, red.
    app.update(Action::Tick, at(172_700));
    let (term, _) = draw(&app, 120, 40);
    let screen = common::screen_text(&term);
    assert!(screen.contains("▶White"), "{screen}");
    for row in big("0:09.3").unwrap().iter().chain(&big("3:02").unwrap()) {
        assert!(screen.contains(row.as_str()), "{row:?} in\n{screen}");
    }
    // The low clock is red, the other is not.
    let buf = term.backend().buffer();
    let top = big("0:09.3").unwrap()[0].clone();
    let (y, line) = screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(&top))
        .unwrap();
    let col = line[..line.find(&top).unwrap()].chars().count() as u16;
    assert_eq!(buf[(col, y as u16)].fg, Tui::Red, "{line}");
    // Black's clock is the left one: White's side is at the bottom of the board.
    let black = line.find(&big("3:02").unwrap()[0]).unwrap();
    assert!(black < line.find(&top).unwrap(), "{line}");
    let black_col = line[..black].chars().count() as u16;
    assert_ne!(buf[(black_col, y as u16)].fg, Tui::Red);
    // The status line does not repeat them; at 80x24 it has them, as text.
    assert!(!screen.contains("W 0:09.3"), "{screen}");
    let small = render(&app, 80, 24);
    assert!(
        small.contains("▶W 0:09.3") && small.contains("B 3:02"),
        "{small}"
    );
    assert!(!small.contains(&top), "{small}");
    // ASCII pieces keep plain clocks.
    app.settings.ascii = true;
    let plain = render(&app, 120, 40);
    assert!(
        plain.contains(">W 0:09.3") && !plain.contains(&top),
        "{plain}"
    );
}

/// A game against Knightfall at level 3 on a 5+3 clock, the person playing `you`, its first
/// two moves played.
fn timed_game(you: shakmaty::Color, name: &str) -> App {
    let engine_side = Side::Engine;
    let (white, black) = match you {
        shakmaty::Color::White => (Side::Human, engine_side),
        shakmaty::Color::Black => (engine_side, Side::Human),
    };
    let settings = Settings {
        white,
        black,
        tc: "5+3".into(),
        level: 3,
        name: name.into(),
        ..Settings::default()
    };
    let mut game = Game::new();
    for m in ["e4", "e5"] {
        game.play_text(m, None).unwrap();
    }
    let mut app = App::new(settings, game, Mode::Play, Instant::now());
    app.no_color = true;
    app
}

/// Whether `first` comes before `second` on one line of `screen`.
fn before_on_a_line(screen: &str, first: &str, second: &str) -> bool {
    screen
        .lines()
        .any(|l| matches!((l.find(first), l.find(second)), (Some(a), Some(b)) if a < b))
}

#[test]
fn the_persons_clock_and_name_are_nearest_them() {
    use shakmaty::Color::{Black, White};
    for you in [White, Black] {
        let app = timed_game(you, "");
        let (mine, theirs) = match you {
            White => ("White", "Black"),
            Black => ("Black", "White"),
        };
        // The board has the person's side at the bottom; beside it their clock is the right
        // one, large or small, and their name the last, "You" for Knightfall's "Human".
        let large = render(&app, 120, 40);
        assert!(
            large.contains("┌ Knightfall 0.1.0 (level 3) vs You ─"),
            "{large}"
        );
        assert!(before_on_a_line(&large, theirs, mine), "{large}");
        let small = render(&app, 80, 24);
        assert!(
            small.contains("┌ Knightfall 0.1.0 (level 3) vs You "),
            "{small}"
        );
        let letter = |c: &str| format!("{} 5:00", &c[..1]);
        assert!(
            before_on_a_line(&small, &letter(theirs), &letter(mine)),
            "{small}"
        );
        // Turned around, the board takes the clocks with it.
        let mut turned = timed_game(you, "");
        turned.flipped = !turned.flipped;
        let large = render(&turned, 120, 40);
        assert!(before_on_a_line(&large, mine, theirs), "{large}");
        assert!(large.contains("┌ You vs Knightfall"), "{large}");
    }
    // A name in the config is the person's, on the screen and in the game's record.
    let app = timed_game(Black, "anna1985");
    let small = render(&app, 80, 24);
    assert!(
        small.contains("┌ Knightfall (level 3) vs anna1985 ─"),
        "{small}"
    );
    assert!(app.game.to_pgn().contains("[Black \"anna1985\"]"));
    assert!(
        timed_game(Black, "")
            .game
            .to_pgn()
            .contains("[Black \"Human\"]")
    );
}

#[test]
fn the_analysis_board_is_offered_only_where_it_opens() {
    use shakmaty::Color::White;
    let footer = |app: &App| {
        let screen = render(app, 80, 24);
        screen.lines().rev().take(2).collect::<Vec<_>>().join("\n")
    };
    // On the clock against the engine the board is refused, so the footer does not offer it.
    let mut timed = timed_game(White, "");
    assert!(!footer(&timed).contains("^B"), "{}", footer(&timed));
    timed.update(
        Action::Key(KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE)),
        Instant::now(),
    );
    assert!(!render(&timed, 120, 40).contains("Ctrl-B"));
    timed.update(
        Action::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
        Instant::now(),
    );
    // Pressed all the same, it says why.
    let fx = timed.update(
        Action::Key(KeyEvent::new(KeyCode::Char('b'), KeyModifiers::CONTROL)),
        Instant::now(),
    );
    assert!(fx.is_empty(), "{fx:?}");
    let said = timed.line.message.clone().unwrap().0;
    assert!(said.contains("not while the engine's clock runs"), "{said}");
    // Untimed, or once the game is over, it opens and is offered.
    let mut untimed = new_app(Side::Human, Side::Engine, false);
    assert!(
        footer(&untimed).contains("^B board"),
        "{}",
        footer(&untimed)
    );
    untimed.settings.tc.clear();
    timed.update(
        Action::Key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL)),
        Instant::now(),
    );
    timed.update(
        Action::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)),
        Instant::now(),
    );
    assert!(timed.game.is_over());
    assert!(footer(&timed).contains("^B board"), "{}", footer(&timed));
}

#[test]
fn the_help_tells_of_premoves() {
    let mut app = new_app(Side::Human, Side::Engine, false);
    app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE)),
        Instant::now(),
    );
    let help = render(&app, 120, 40);
    assert!(
        help.contains("a move") && help.contains("premove: played after the engine's move"),
        "{help}"
    );
}

#[test]
fn long_texts_beside_the_board_are_shortened_by_meaning() {
    use shakmaty::Position;
    // A game of captures: each side takes whatever it can, so both hauls are long.
    let mut app = new_app(Side::Human, Side::Human, false);
    for _ in 0..80 {
        let pos = app.game.position().clone();
        let moves = pos.legal_moves();
        let Some(&m) = moves
            .iter()
            .find(|m| m.is_capture())
            .or_else(|| moves.first())
        else {
            break;
        };
        if app.game.is_over() {
            break;
        }
        let san = shakmaty::san::San::from_move(&pos, m).to_string();
        common::type_line(&mut app, &san);
    }
    let taken = |glyphs: &str| glyphs.chars().filter(|c| "♙♘♗♖♕♟♞♝♜♛".contains(*c)).count();
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = render(&app, w, h);
        let line = screen
            .lines()
            .find(|l| l.contains(" | "))
            .unwrap_or_else(|| panic!("{screen}"));
        let inside = line.rsplit('│').nth(1).unwrap();
        let (left, right) = inside.split_once(" | ").unwrap();
        // Both hauls are there, each with its pieces: none is cut off.
        assert!(taken(left) > 0 && taken(right) > 0, "{line}");
        assert!(!inside.contains('…'), "{line}");
    }
    // Two Knightfalls watched: their titles lose the version, then the level's word, never
    // the other player.
    let settings = Settings {
        white: Side::Engine,
        black: Side::Engine,
        white_level: Some(3),
        black_level: Some(5),
        ..Settings::default()
    };
    let watched = App::new(settings, Game::new(), Mode::Watch, Instant::now());
    let small = render(&watched, 80, 24);
    assert!(
        small.contains("┌ Knightfall L5 vs Knightfall L3 ─"),
        "{small}"
    );
    let large = render(&watched, 120, 40);
    assert!(
        large.contains("┌ Knightfall L5 vs Knightfall L3 ─"),
        "{large}"
    );
}

#[test]
fn a_long_line_of_the_search_wraps_into_the_rooms_free_rows() {
    let mut app = new_app(Side::Human, Side::Human, false);
    ruy_lopez(&mut app);
    let fx = app.update(
        Action::Key(KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL)),
        Instant::now(),
    );
    let generation = search_generation(&fx);
    let pos = app.game.position().clone();
    let long = [
        "f8e7", "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5",
        "d2d4", "d8c7", "b1d2", "c5d4", "c3d4",
    ];
    for depth in 8..=12 {
        app.update(
            Action::Engine(EngineEvent::Info {
                generation,
                info: Info {
                    depth,
                    seldepth: depth + 6,
                    score: 30,
                    nodes: 100_000 * u64::from(depth),
                    nps: 1_000_000,
                    time_ms: 100 * u64::from(depth),
                    hashfull: 10,
                    tb_hits: 0,
                    pv: line_of(&pos, &long),
                    multipv: 1,
                },
            }),
            Instant::now(),
        );
    }
    let screen = render(&app, 120, 40);
    // The newest depth's line goes on under itself to its last move, where it used to stop
    // at the panel's edge after four moves.
    let rows: Vec<&str> = screen.lines().collect();
    let at = rows
        .iter()
        .position(|l| l.contains("   12  -0.30    5... Be7"))
        .unwrap_or_else(|| panic!("{screen}"));
    let history: String = rows[at..at + 4].join("\n");
    assert!(history.contains("13. cxd4"), "{history}");
    assert!(!history.contains('…'), "{history}");
}

#[test]
fn blindfolded_the_board_shows_no_piece_until_a_peek_which_ends_by_itself() {
    let mut app = App::new(
        Settings {
            white: Side::Human,
            black: Side::Human,
            ascii: true,
            ..Default::default()
        },
        Game::new(),
        Mode::Play,
        Instant::now(),
    );
    app.no_color = true;
    let ctrl = |c| Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    let t0 = Instant::now();
    let secs = std::time::Duration::from_secs;
    let board = |app: &App| {
        let (term, _) = draw(app, 100, 30);
        let text = common::screen_text(&term);
        // The board's part: its rows begin with a rank's digit.
        text.lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.chars().take(60).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let has_pieces = |text: &str| text.contains('K') && text.contains('k');
    assert!(has_pieces(&board(&app)), "{}", board(&app));
    let fx = app.update(ctrl('x'), t0);
    assert!(matches!(fx.as_slice(), [Effect::SaveSwitches]), "{fx:?}");
    assert!(app.settings.blindfold);
    assert!(!has_pieces(&board(&app)), "{}", board(&app));
    // The moves are typed as before, the last move still listed.
    for (i, m) in ["e4", "e5"].iter().enumerate() {
        for c in m.chars() {
            app.update(
                Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
                t0,
            );
        }
        app.update(
            Action::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
            t0,
        );
        assert_eq!(app.game.ply(), i + 1);
    }
    assert!(!has_pieces(&board(&app)));
    // A peek shows them for three seconds; the ticks end it.
    app.update(ctrl('w'), t0);
    assert!(has_pieces(&board(&app)));
    assert!(app.needs_ticks());
    app.update(Action::Tick, t0 + secs(2));
    assert!(has_pieces(&board(&app)));
    app.update(Action::Tick, t0 + secs(3));
    assert!(!has_pieces(&board(&app)));
    assert!(app.peek_until.is_none());
    app.update(ctrl('x'), t0 + secs(4));
    assert!(has_pieces(&board(&app)));
}
