//! The new-game screen: resume or start, the colour, the opponent (Knightfall's level with its
//! measured rating, or a configured engine), the clock and the engine's time per move.

use ratatui::Frame;
use ratatui::layout::Rect;

use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::centered;
use super::chrome::Chrome;
use crate::tui::chrome::keys;
use crate::tui::screen::Drawn;
use crate::tui::setup::{Field, SETUP_KEYS, SetupScreen, YouPlay, opponent};

/// Draws the screen.
pub fn draw(frame: &mut Frame, screen: &SetupScreen) -> Drawn {
    let frame_chrome = Chrome {
        what: "Knightfall",
        quit: "q",
        // The footer is in the box, and the note below it.
        below: None,
        help: screen
            .help
            .shown
            .then(|| keys::help_lines(SETUP_KEYS, false, |w| screen.keys_apply(w))),
    };
    super::chrome::draw(frame, frame_chrome, |frame, area| {
        draw_box(frame, area, screen);
        Drawn::default()
    })
}

/// The box of choices, its footer inside, and the note below it.
fn draw_box(frame: &mut Frame, area: Rect, screen: &SetupScreen) {
    let s = &screen.settings;
    let mut lines = vec![Line::raw("")];
    for (i, field) in screen.fields().into_iter().enumerate() {
        let (name, value) = screen.row(field);
        let style = if i == screen.field {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        let value: String = value.chars().take(VALUE_WIDTH).collect();
        // The row being changed is marked as well as reversed (reverse video alone is lost on
        // some terminals and to NO_COLOR readers).
        let mark = match (i == screen.field, s.ascii) {
            (false, _) => ' ',
            (true, false) => '▸',
            (true, true) => '>',
        };
        lines.push(Line::styled(
            format!(" {mark}{name:<22} < {value:^VALUE_WIDTH$} >  "),
            style,
        ));
        if field == Field::Opponent
            && YouPlay::of(s) != YouPlay::Both
            && opponent(s) == crate::store::settings::Side::Engine
        {
            // The level in plain words beside its rating.
            let level = s.level.clamp(1, crate::engine::strength::MAX_LEVEL);
            let elo = crate::engine::strength::LEVEL_ELO[usize::from(level) - 1];
            lines.push(Line::styled(
                format!(
                    "    plays like {}",
                    crate::engine::strength::label_for_elo(elo)
                ),
                Style::default().add_modifier(Modifier::DIM),
            ));
        }
        if field == Field::TimeControl {
            let hint = if screen.custom_tc.is_some() {
                "    Enter takes this clock, Esc drops it"
            } else {
                "    or type your own here, like 7+2"
            };
            lines.push(Line::styled(
                hint,
                Style::default().add_modifier(Modifier::DIM),
            ));
        }
        if field == Field::Resume {
            // Which game: its players, how far it went and when.
            let about = match screen.resume_chosen.and_then(|i| screen.resume.get(i)) {
                Some(u) => resume_about(&u.game, usize::from(BOX_WIDTH - 6)),
                None => "a new game with the choices below".to_string(),
            };
            lines.push(Line::styled(
                format!("    {about}"),
                Style::default().add_modifier(Modifier::DIM),
            ));
        }
    }
    lines.push(Line::raw(""));
    let footer = keys::footer(SETUP_KEYS, |w| screen.keys_apply(w));
    // The footer in lines of the box's width, each key whole.
    for row in super::input::key_lines(&footer, BOX_WIDTH - 6) {
        lines.push(Line::raw(format!("  {row}")));
    }
    let rect = centered(area, BOX_WIDTH, lines.len() as u16 + 2);
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" New game ")),
        rect,
    );
    if let Some(note) = &screen.note {
        // Below the box, across the screen, as much as fits.
        let top = rect.y + rect.height + 1;
        if top < area.y + area.height {
            let below = Rect::new(area.x, top, area.width, area.y + area.height - top);
            let style = super::fg(screen.palette, ratatui::style::Color::Red);
            frame.render_widget(
                Paragraph::new(Line::styled(note.clone(), style))
                    .wrap(ratatui::widgets::Wrap { trim: true }),
                below,
            );
        }
    }
}

/// The game the resume row names, in at most `width` characters: its players (White first, as
/// the file has them; Knightfall's "Human" is you), how far it went and its date, shortened by
/// meaning: the players' names first, then the date goes whole.
pub(crate) fn resume_about(game: &crate::game::Game, width: usize) -> String {
    let person = crate::train::mistake::PERSON;
    let [white, black] = &game.names;
    let you = |name: &'_ str, other: &str| {
        if name == person && other != person {
            "You".to_string()
        } else {
            name.to_string()
        }
    };
    let (white, black) = (you(white, black), you(black, white));
    let moves = format!(", move {}", game.ply() / 2 + 1);
    if game.date != crate::game::UNKNOWN_DATE {
        for step in 0..=2 {
            let about = format!(
                "{} vs {}{moves}, {}",
                super::shorter(&white, step),
                super::shorter(&black, step),
                game.date
            );
            if about.chars().count() <= width {
                return about;
            }
        }
    }
    let room = width.saturating_sub(moves.chars().count());
    format!("{}{moves}", super::players(&white, &black, room))
}

/// The box's width.
const BOX_WIDTH: u16 = 54;

/// Characters shown of a choice.
const VALUE_WIDTH: usize = 20;
