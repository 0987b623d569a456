//! Drawing the training screen: the list of endings with the player's record, or a drill's
//! board beside its task, par and moves.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use shakmaty::Position as _;

use super::board::{self, BoardView};
use super::{bold, input as ui_input};
use crate::train::{Difficulty, Drill, Goal, State};
use crate::tui::input;
use crate::tui::keys;
use crate::tui::practice::{Answer, Practice};
use crate::tui::screen::Drawn;
use crate::tui::train::{TRAIN_KEYS, Train, about};

/// Draws the screen; returns where the board went.
pub fn draw(frame: &mut Frame, t: &Train) -> Drawn {
    let mut drawn = Drawn::default();
    let area = frame.area();
    if super::too_small(frame, area, "training") {
        return drawn;
    }
    let footer = keys::footer(TRAIN_KEYS, |w| t.keys_apply(w));
    let keys = ui_input::key_lines(&footer, area.width);
    let rows = super::game_rows(area, keys.len());
    match (&t.drill, &t.practice) {
        (Some(drill), _) => drawn.board = draw_drill(frame, rows[0], t, drill),
        (None, Some(p)) => drawn.board = draw_practice(frame, rows[0], t, p),
        (None, None) => draw_list(frame, rows[0], t),
    }
    ui_input::draw_message(frame, rows[1], t.message.as_ref(), t.palette);
    let prompt = if t.on_board() { "move> " } else { "ending> " };
    ui_input::draw_input(frame, rows[2], prompt, &t.input, !t.show_help);
    ui_input::draw_keys(frame, rows[3], &keys);
    if t.show_help {
        let mut lines = if t.practice.is_some() {
            vec![
                "A position from one of your games where you made a mistake: find the better \
                 move. The engine's move is right; another is searched for a second and is \
                 right if the review would not flag it. Each one comes back on a schedule: soon \
                 when missed, later and later when found."
                    .to_string(),
            ]
        } else if t.drill.is_some() {
            vec![
                "Play your side against perfect defence from the endgame tables. Type a move \
                 (Kd3, e2e4) and Enter, or click a piece and its square."
                    .to_string(),
                "A move that throws the result away ends the attempt: take it back and find \
                 better. Par is the moves perfect play needs, counted afresh after each capture \
                 or pawn move."
                    .to_string(),
            ]
        } else {
            vec![
                "Choose an ending and a difficulty, then Enter. Or type any ending of 3 or 4 \
                 pieces (KBvKP, the side you play first) or a FEN, and Enter."
                    .to_string(),
            ]
        };
        lines.extend(keys::help_lines(TRAIN_KEYS, true, |w| t.keys_apply(w)));
        super::help::draw(frame, area, &lines);
    }
    drawn
}

/// The list of endings, each with what it teaches and the player's record.
fn draw_list(frame: &mut Frame, area: Rect, t: &Train) {
    let block = super::titled(" Training ", area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let mut lines = vec![
        Line::raw(super::fit(
            "Your own mistakes, found by the reviews of your games; and the endings to know, \
             against perfect defence.",
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
    let name_w = t
        .endings
        .iter()
        .map(|e| e.to_string().len())
        .max()
        .unwrap_or(5)
        .max("Mistakes".len());
    let due = t.due().len();
    let mistakes = if t.mistakes.is_empty() {
        "none yet: review a game you played".to_string()
    } else {
        format!("{due} due, {} in all", t.mistakes.len())
    };
    let mark = if t.choice == 0 { "▶ " } else { "  " };
    let text = format!(
        "{mark}{:name_w$}  {mistakes:<22} yours, from your reviewed games",
        "Mistakes"
    );
    let style = if t.choice == 0 {
        bold()
    } else {
        Style::default()
    };
    lines.push(Line::styled(super::fit(&text, width), style));
    // Rows that fit: the list scrolls to keep the chosen one in view.
    let room = usize::from(inner.height).saturating_sub(lines.len()).max(1);
    let first = t.choice.saturating_sub(room);
    for (i, ending) in t.endings.iter().enumerate().skip(first).take(room) {
        let i = i + 1;
        let name = ending.to_string();
        let record = t.progress.endings.get(&name).map_or_else(
            || "not tried".to_string(),
            |r| {
                let mut s = format!("{}/{} done", r.done, r.tried);
                if let Some(over) = r.best_over_par {
                    s.push_str(&if over == 0 {
                        ", won at par".to_string()
                    } else {
                        format!(", best par+{over}")
                    });
                }
                s
            },
        );
        let mark = if i == t.choice { "▶ " } else { "  " };
        let text = format!("{mark}{name:name_w$}  {record:<22} {}", about(&name));
        let style = if i == t.choice {
            bold()
        } else {
            Style::default()
        };
        lines.push(Line::styled(super::fit(&text, width), style));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The drill: the board from the player's side, and beside it the task, par and the moves.
fn draw_drill(
    frame: &mut Frame,
    area: Rect,
    t: &Train,
    drill: &Drill,
) -> Option<crate::tui::screen::BoardArea> {
    let board_w = board::width_for(area.width.saturating_sub(super::SIDE_MIN), area.height);
    let cols = Layout::horizontal([
        Constraint::Length(board_w),
        Constraint::Min(super::SIDE_MIN),
    ])
    .split(area);
    let pos = drill.pos();
    let mut view = BoardView::new(pos, t.last_move(), t.seen_from_black(), t.palette);
    view.selected = input::selected(&t.input, pos);
    view.targets = view
        .selected
        .map(|from| input::targets(pos, from))
        .unwrap_or_default();
    view.promotion = input::promotion_choices(&drill.game, &t.input);
    if let Some((sq, mv)) = t.hint {
        view.selected = Some(sq);
        view.targets = mv.map(|m| vec![input::target(&m)]).unwrap_or_default();
    }
    let at = board::draw(frame, cols[0], &view);
    let side = Layout::vertical([Constraint::Length(9), Constraint::Min(3)]).split(cols[1]);
    draw_task(frame, side[0], drill);
    draw_moves(frame, side[1], drill);
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
    let board_w = board::width_for(area.width.saturating_sub(super::SIDE_MIN), area.height);
    let cols = Layout::horizontal([
        Constraint::Length(board_w),
        Constraint::Min(super::SIDE_MIN),
    ])
    .split(area);
    let pos = p.game.position();
    let mut view = BoardView::new(pos, t.last_move(), t.seen_from_black(), t.palette);
    view.selected = input::selected(&t.input, pos);
    view.targets = view
        .selected
        .map(|from| input::targets(pos, from))
        .unwrap_or_default();
    view.promotion = input::promotion_choices(&p.game, &t.input);
    if let Some((sq, mv)) = t.hint {
        view.selected = Some(sq);
        view.targets = mv.map(|m| vec![input::target(&m)]).unwrap_or_default();
    }
    let at = board::draw(frame, cols[0], &view);
    let block = super::titled(" Your mistakes ", cols[1]);
    let inner = block.inner(cols[1]);
    frame.render_widget(block, cols[1]);
    let side = p.current.mover();
    let mut lines = vec![
        Line::styled(
            format!("{} to move: find better", crate::tui::app::color_name(side)),
            bold(),
        ),
        Line::raw(p.task()),
        Line::raw(""),
        Line::styled(
            format!("From {}", p.current.source),
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
