//! Drawing the training screen: the list of endings with the player's record, or a drill's
//! board beside its task, par and moves.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use shakmaty::Position as _;

use super::board::{self, BoardView};
use super::chrome::{Below, Chrome};
use super::{bold, input as ui_input};
use crate::motifs;
use crate::train::{Difficulty, Drill, Goal, State};
use crate::tui::chrome::keys;
use crate::tui::input;
use crate::tui::screen::Drawn;
use crate::tui::train::{Answer, FIRST_ENDING, OnBoard, Practice, Solve, Stage, TRAIN_KEYS, Train};

/// Draws the screen; returns where the board went.
pub fn draw(frame: &mut Frame, t: &Train) -> Drawn {
    let prompt = if t.on_board() { "move> " } else { "ending> " };
    let frame_chrome = Chrome {
        what: "training",
        quit: "q",
        below: Some(Below {
            message: ui_input::message_line(t.message.as_ref(), t.palette),
            input: Some((prompt, &t.input)),
            footer: keys::footer(TRAIN_KEYS, |w| t.keys_apply(w)),
        }),
        help: t.help.shown.then(|| help_lines(t)),
    };
    super::chrome::draw(frame, frame_chrome, |frame, area| {
        let mut drawn = Drawn::default();
        match &t.board {
            OnBoard::Drill(d) => drawn.board = draw_drill(frame, area, t, &d.drill),
            OnBoard::Mistakes(p) => drawn.board = draw_practice(frame, area, t, p),
            OnBoard::Puzzle(s) => drawn.board = draw_solve(frame, area, t, s),
            OnBoard::List => draw_list(frame, area, t),
        }
        if let Some(notice) = &t.notice {
            draw_notice(frame, area, notice, t.palette);
        }
        drawn
    })
}

/// The help overlay's lines: what the part shown is about, then the keys that work now.
fn help_lines(t: &Train) -> Vec<String> {
    let mut lines = match &t.board {
        OnBoard::Puzzle(_) => vec![
            "Find the best move, and the next ones: the opponent answers each right move. \
             Only the first try counts for your rating, and a hint or the solution counts as \
             not solved. Type filter fork, filter mate in 2 or filter 1200-1600 for puzzles \
             of one theme or rating range."
                .to_string(),
        ],
        OnBoard::Mistakes(_) => vec![
            "A position from one of your games where you made a mistake: find the better \
             move. The engine's move is right; another is right if the review would not flag \
             it, judged by the endgame tables (the fifty-move rule counted) when they know the \
             position, else by a second's search. Each one comes back on a schedule: soon \
             when missed, later and later when found."
                .to_string(),
        ],
        OnBoard::Drill(_) => vec![
            "Play your side against perfect defence from the endgame tables. Type a move \
             (Kd3, e2e4) and Enter, or click a piece and its square."
                .to_string(),
            "A move that throws the result away ends the attempt: take it back and find \
             better; the panel then gives the ending's method. Par is your moves on the \
             tables' own line from the start to mate, pawn moves and captures on the way \
             included: set at the start, it stays."
                .to_string(),
        ],
        OnBoard::List => vec![
            "Choose an ending and a difficulty, then Enter. Or type any ending of 3 or 4 \
             pieces (KBvKP, the side you play first) or a FEN, and Enter."
                .to_string(),
        ],
    };
    lines.extend(keys::help_lines(TRAIN_KEYS, true, |w| t.keys_apply(w)));
    lines
}

/// The list of endings, each with what it teaches and the player's record.
/// The notice in a box over the top of `area`, every word of it (a path is not cut off).
fn draw_notice(frame: &mut Frame, area: Rect, text: &str, palette: super::Palette) {
    let width = area.width.min(90);
    let style = ui_input::tone_style(palette, crate::tui::screen::Tone::Error);
    let para = Paragraph::new(Line::styled(text.to_string(), style)).wrap(Wrap { trim: true });
    let lines = u16::try_from(para.line_count(width.saturating_sub(2))).unwrap_or(u16::MAX);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y,
        width,
        height: lines.saturating_add(2).min(area.height),
    };
    frame.render_widget(ratatui::widgets::Clear, rect);
    frame.render_widget(
        para.block(
            ratatui::widgets::Block::default()
                .borders(ratatui::widgets::Borders::ALL)
                .title(" Any key closes this "),
        ),
        rect,
    );
}

fn draw_list(frame: &mut Frame, area: Rect, t: &Train) {
    let block = super::titled(" Training ", area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let mut lines = vec![
        Line::raw(super::fit(
            "Your own mistakes again, puzzles, and the endings every player has to know",
            width,
        )),
        Line::raw(""),
    ];
    let difficulty: Vec<Span> = std::iter::once(Span::raw("Endings' difficulty: "))
        .chain(Difficulty::ALL.iter().flat_map(|&d| {
            let style = if d == t.difficulty {
                Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                Style::default()
            };
            [
                Span::styled(format!(" {} ", d.name()), style),
                Span::raw(" "),
            ]
        }))
        .chain(std::iter::once(Span::styled(
            "(←→)",
            Style::default().add_modifier(Modifier::DIM),
        )))
        .collect();
    lines.push(Line::from(difficulty));
    lines.push(Line::raw(""));
    let rows = t.rows();
    let name_w = rows.iter().map(|r| r.name.len()).max().unwrap_or(5);
    let row_line = |i: usize, row: &crate::tui::train::Row| {
        let mark = if i == t.choice { "▶ " } else { "  " };
        let text = format!(
            "{mark}{:name_w$}  {:<24} {}",
            row.name, row.record, row.about
        );
        let style = if i == t.choice {
            bold()
        } else {
            Style::default()
        };
        Line::styled(super::fit(&text, width), style)
    };
    for (i, row) in rows.iter().enumerate().take(FIRST_ENDING) {
        lines.push(row_line(i, row));
    }
    // Rows that fit: the list scrolls to keep the chosen one in view.
    let room = usize::from(inner.height).saturating_sub(lines.len()).max(1);
    let first = t.choice.saturating_sub(FIRST_ENDING + room - 1);
    for (i, row) in rows
        .iter()
        .enumerate()
        .skip(FIRST_ENDING + first)
        .take(room)
    {
        lines.push(row_line(i, row));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The board of `game` on the left of `area`, from the player's side with the input's
/// selection and the hint marked; returns where it went and the side column's area.
fn board_beside(
    frame: &mut Frame,
    area: Rect,
    t: &Train,
    game: &crate::game::Game,
) -> (Option<crate::tui::screen::BoardArea>, Rect) {
    let board_w = board::width_for(area.width.saturating_sub(super::SIDE_MIN), area.height);
    let cols = Layout::horizontal([
        Constraint::Length(board_w),
        Constraint::Min(super::SIDE_MIN),
    ])
    .split(area);
    let pos = game.position();
    let mut view = BoardView::new(pos, t.last_move(), t.seen_from_black(), t.palette);
    view.selected = input::selected(&t.input, pos);
    view.targets = view
        .selected
        .map(|from| input::targets(pos, from))
        .unwrap_or_default();
    view.promotion = input::promotion_choices(game, &t.input);
    if let Some((sq, mv)) = t.hint {
        view.selected = Some(sq);
        view.targets = mv.map(|m| vec![input::target(&m)]).unwrap_or_default();
    }
    (board::draw(frame, cols[0], &view), cols[1])
}

/// The drill: the board from the player's side, and beside it the task, par and the moves
/// (after a failed try, the ending's method above the moves).
fn draw_drill(
    frame: &mut Frame,
    area: Rect,
    t: &Train,
    drill: &Drill,
) -> Option<crate::tui::screen::BoardArea> {
    let (at, side_area) = board_beside(frame, area, t, &drill.game);
    let side = Layout::vertical([Constraint::Length(9), Constraint::Min(3)]).split(side_area);
    draw_task(frame, side[0], drill);
    // After a failed try, the ending's method comes first: the moves are on the board.
    let method = match drill.state {
        State::Failed(_) => drill.ending.method(),
        _ => None,
    };
    let Some(method) = method else {
        draw_moves(frame, side[1], drill);
        return at;
    };
    let para = Paragraph::new(method).wrap(Wrap { trim: true });
    let lines = para.line_count(side[1].width.saturating_sub(2));
    let height = u16::try_from(lines).unwrap_or(u16::MAX).saturating_add(2);
    let parts = Layout::vertical([Constraint::Length(height), Constraint::Min(0)]).split(side[1]);
    let block = super::titled(" The method ", parts[0]);
    let inner = block.inner(parts[0]);
    frame.render_widget(block, parts[0]);
    frame.render_widget(para, inner);
    if parts[1].height >= 3 {
        draw_moves(frame, parts[1], drill);
    }
    at
}

/// A mistake of the player's: the board from their side, and beside it what they played,
/// where it came from and how the answer went.
fn draw_practice(
    frame: &mut Frame,
    area: Rect,
    t: &Train,
    p: &Practice,
) -> Option<crate::tui::screen::BoardArea> {
    let (at, side_area) = board_beside(frame, area, t, &p.game);
    let block = super::titled(" Your mistakes ", side_area);
    let inner = block.inner(side_area);
    frame.render_widget(block, side_area);
    let side = p.current.mover();
    let mut lines = vec![
        Line::styled(
            format!("{} to move: find better", crate::tui::app::color_name(side)),
            bold(),
        ),
        Line::raw(p.task()),
        Line::raw(""),
        Line::styled(
            format!("From {}", p.current.source()),
            Style::default().add_modifier(Modifier::DIM),
        ),
        Line::styled(
            format!("Evaluation before it: {}", p.current.before.display()),
            Style::default().add_modifier(Modifier::DIM),
        ),
        Line::raw(""),
    ];
    match &p.answer {
        Answer::Waiting => lines.push(Line::raw("Your move.")),
        Answer::Checking { .. } => lines.push(Line::raw("Checking your move…")),
        Answer::Solved(t) | Answer::Missed(t) => {
            lines.push(Line::styled(t.clone(), bold()));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!(
            "This round: {} of {} found, {} to come",
            p.score.1,
            p.score.0,
            p.queue.len()
        ),
        Style::default().add_modifier(Modifier::DIM),
    ));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
    at
}

/// The board of a puzzle and a side column beside it: the puzzle, the player's rating with its
/// history as a chart, and the player's share solved by motif.
fn draw_solve(
    frame: &mut Frame,
    area: Rect,
    t: &Train,
    s: &Solve,
) -> Option<crate::tui::screen::BoardArea> {
    let (at, side_area) = board_beside(frame, area, t, &s.game);
    // An imported puzzle has a line more, lichess's themes are more, and both may wrap.
    let about = if s.puzzle.lichess.is_some() { 9 } else { 7 };
    let side = Layout::vertical([
        Constraint::Length(about),
        Constraint::Length(7),
        Constraint::Min(3),
    ])
    .split(side_area);
    // The puzzle.
    let title = format!(" Puzzle {} · rated {} ", s.puzzle.id, s.puzzle.rating);
    let block = super::titled(&title, side[0]);
    let inner = block.inner(side[0]);
    frame.render_widget(block, side[0]);
    let themes: Vec<String> = s.puzzle.themes().into_iter().map(motifs::words).collect();
    let status = match s.stage {
        Stage::Solving => "Your move.",
        Stage::Solved => "Solved.",
        Stage::Failed(Some(_)) => "Not it: the engine answers…",
        Stage::Failed(None) => "Not solved: Ctrl-R tries again.",
    };
    let mut lines = vec![
        Line::styled(s.task(), bold()),
        Line::raw(status),
        Line::styled(
            format!("Themes: {}", themes.join(", ")),
            Style::default().add_modifier(Modifier::DIM),
        ),
    ];
    if let Some(lichess) = &s.puzzle.lichess {
        lines.push(Line::styled(
            format!(
                "Lichess: popularity {}, played {} times",
                lichess.popularity, lichess.plays
            ),
            Style::default().add_modifier(Modifier::DIM),
        ));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
    // The rating and its history.
    let rating = &t.progress.puzzle_rating;
    let block = super::titled(&format!(" Your rating {} ", rating.shown()), side[1]);
    let inner = block.inner(side[1]);
    frame.render_widget(block, side[1]);
    let history = &t.progress.puzzle_history;
    if history.len() < 2 {
        frame.render_widget(
            Paragraph::new("The chart of your rating starts with your second puzzle.")
                .wrap(Wrap { trim: true }),
            inner,
        );
    } else {
        let low = history.iter().copied().min().unwrap_or(0);
        let high = history.iter().copied().max().unwrap_or(0);
        let shown: Vec<u64> = history
            .iter()
            .rev()
            .take(usize::from(inner.width))
            .rev()
            .map(|&r| u64::try_from(r - low + 1).unwrap_or(1))
            .collect();
        let rows = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).split(inner);
        frame.render_widget(
            ratatui::widgets::Sparkline::default()
                .data(&shown)
                .style(super::fg(t.palette, ratatui::style::Color::Cyan)),
            rows[0],
        );
        frame.render_widget(
            Paragraph::new(format!("{low} to {high} over {} puzzles", history.len())),
            rows[1],
        );
    }
    // Solved by motif, the most tried first.
    let block = super::titled(" Solved by theme ", side[2]);
    let inner = block.inner(side[2]);
    frame.render_widget(block, side[2]);
    let mut by_motif: Vec<(&String, &[u32; 2])> = t.progress.puzzle_motifs.iter().collect();
    by_motif.sort_by_key(|(name, n)| (std::cmp::Reverse(n[0]), (*name).clone()));
    // The record keeps lichess's names; the player reads words.
    let words = motifs::words;
    let width = by_motif
        .iter()
        .map(|(name, _)| words(name).chars().count())
        .max()
        .unwrap_or(0);
    let lines: Vec<Line> = if by_motif.is_empty() {
        vec![Line::raw("No puzzle tried yet.")]
    } else {
        by_motif
            .iter()
            .map(|(name, n)| {
                Line::raw(format!(
                    "{:<width$} {:>3}% of {}",
                    words(name),
                    n[1] * 100 / n[0].max(1),
                    n[0]
                ))
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines), inner);
    at
}

fn draw_task(frame: &mut Frame, area: Rect, drill: &Drill) {
    let title = format!(" {} ({}) ", drill.ending, drill.difficulty.name());
    let block = super::titled(&title, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let mut lines = vec![Line::styled(super::fit(&drill.task(), width), bold())];
    let goal = match drill.goal {
        Goal::Win => format!(
            "Par {} moves; played {}, {} of them the tables' best",
            drill.par(),
            drill.moves_played(),
            drill.best_moves()
        ),
        Goal::Draw => format!(
            "Hold for {} moves; held {}",
            crate::train::drill::HOLD_MOVES,
            drill.moves_played()
        ),
    };
    lines.push(Line::raw(goal));
    let fifty = 50u32.saturating_sub(drill.pos().halfmoves() / 2);
    if drill.goal == Goal::Win && fifty <= 20 {
        lines.push(Line::raw(format!(
            "Fifty-move rule: {fifty} moves left to capture, push a pawn or mate"
        )));
    }
    let (status, style) = match &drill.state {
        State::Playing if drill.game.turn() == drill.player => {
            ("Your move.".to_string(), Style::default())
        }
        State::Playing => ("The tables think.".to_string(), Style::default()),
        State::Done => (
            drill.summary().unwrap_or_default(),
            Style::default().add_modifier(Modifier::BOLD),
        ),
        State::Failed(why) => (
            format!("{why} Ctrl-Z takes it back."),
            Style::default().add_modifier(Modifier::BOLD),
        ),
    };
    lines.push(Line::raw(""));
    lines.push(Line::styled(status, style));
    if drill.hints > 0 || drill.takebacks > 0 {
        lines.push(Line::styled(
            format!("hints {}, take-backs {}", drill.hints, drill.takebacks),
            Style::default().add_modifier(Modifier::DIM),
        ));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

fn draw_moves(frame: &mut Frame, area: Rect, drill: &Drill) {
    let block = super::titled(" Moves ", area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let game = &drill.game;
    let mut text = String::new();
    let mut number = game.start_fullmove();
    let mut white = game.start_turn().is_white();
    for (i, san) in game.sans().iter().enumerate() {
        if white {
            text.push_str(&format!("{number}. {san} "));
        } else {
            if i == 0 {
                text.push_str(&format!("{number}... "));
            }
            text.push_str(&format!("{san} "));
            number += 1;
        }
        white = !white;
    }
    let text = super::numbers_kept_with_moves(text.trim_end());
    // The latest moves stay in view: the text is scrolled to its last lines.
    let width = usize::from(inner.width.max(1));
    let lines = text.chars().count() / width + 1;
    let scroll = lines.saturating_sub(usize::from(inner.height)) as u16;
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .scroll((scroll, 0)),
        inner,
    );
}
