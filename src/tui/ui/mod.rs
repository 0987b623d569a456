//! Drawing: each module renders one screen, or one part of one, from that screen's state and
//! changes nothing; what a frame measured for the mouse comes back as [`Drawn`].

pub mod analysis;
pub mod art;
pub mod board;
pub mod clock;
pub mod help;
pub mod input;
pub(crate) mod chrome;
pub mod board_screen;
pub mod moves;
pub mod chat;
pub mod review;
pub mod setup;
pub mod friend;
pub mod home;
pub mod settings;
pub mod stats;
pub mod library;
pub mod train;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Tui, Modifier, Style};
use ratatui::widgets::{Block, Borders};

use super::app::App;
use super::screen::Drawn;
pub use super::screen::Palette;

/// The smallest terminal the game draws in.
pub(crate) const MIN_SIZE: (u16, u16) = (60, 18);

/// Width of the column right of the board.
pub(crate) const SIDE_MIN: u16 = 32;

/// Draws the game screen.
pub fn draw(frame: &mut Frame, app: &App) -> Drawn {
    let prompt = if app.mode == super::app::Mode::Watch {
        "cmd> "
    } else {
        "move> "
    };
    let frame_chrome = chrome::Chrome {
        what: "Knightfall",
        quit: "Ctrl-C",
        below: Some(chrome::Below {
            message: input::message_line(app.line.message.as_ref(), app.palette()),
            input: Some((prompt, &app.line.text)),
            footer: input::footer_text(app),
        }),
        help: app.help.shown.then(|| help::game_lines(app)),
    };
    chrome::draw(frame, frame_chrome, |frame, main| {
        draw_game(frame, main, app)
    })
}

/// The game's own part: the board, and beside it the status, the clocks, the analysis and the
/// moves.
fn draw_game(frame: &mut Frame, main: Rect, app: &App) -> Drawn {
    let mut drawn = Drawn::default();
    let board_w = board::width_for(main.width.saturating_sub(SIDE_MIN), main.height);
    let cols =
        Layout::horizontal([Constraint::Length(board_w), Constraint::Min(SIDE_MIN)]).split(main);
    drawn.board = board::draw(frame, cols[0], &game_board(app));
    // A tall side column shows the clocks in large digits and gives the analysis panel room
    // for the search's history.
    let large_clocks = cols[1].height >= 30 && clock::fits(app, cols[1].width);
    let clocks_h = if large_clocks { clock::HEIGHT } else { 0 };
    let analysis_h = if cols[1].height >= 30 {
        (cols[1].height - 4 - clocks_h) / 2
    } else {
        8
    };
    // The rows the moves do not need yet are the analysis panel's: the engine's lines wrap
    // into them.
    let moves_h = cols[1].height.saturating_sub(4 + clocks_h + analysis_h);
    let spare = moves_h.saturating_sub(moves::height_wanted(app));
    let analysis_h = analysis_h + spare;
    let side = Layout::vertical([
        Constraint::Length(4),
        Constraint::Length(clocks_h),
        Constraint::Length(analysis_h),
        Constraint::Min(3),
    ])
    .split(cols[1]);
    input::draw_status(frame, side[0], app, large_clocks);
    if large_clocks {
        clock::draw_large(frame, side[1], app);
    }
    match &app.remote {
        // Against a friend no engine thinks: the chat is under the moves, which take the rows
        // they need, as many as leave the chat five.
        Some(remote) => {
            let below = side[2].union(side[3]);
            let moves_h = moves::height_wanted(app).min(below.height.saturating_sub(5));
            let parts =
                Layout::vertical([Constraint::Length(moves_h), Constraint::Min(3)]).split(below);
            moves::draw(frame, parts[0], app);
            chat::draw(frame, parts[1], app, remote);
        }
        None => {
            analysis::draw(frame, side[2], app);
            moves::draw(frame, side[3], app);
        }
    }
    drawn
}

/// The game's board as the player sees it: the position shown, its last move, the piece
/// selected and its targets (only on the current position).
pub(crate) fn game_board(app: &App) -> board::BoardView<'_> {
    let ply = app.shown_ply();
    let last = ply.checked_sub(1).map(|i| app.game.moves()[i]);
    let mut view =
        board::BoardView::new(app.game.position_at(ply), last, app.flipped, app.palette());
    view.hidden = app.pieces_hidden();
    if app.view.is_none() {
        view.promotion = crate::tui::input::promotion_choices(&app.game, &app.line.text);
    }
    // Blindfolded, nothing on the board gives a piece away: no selection, no hint drawn.
    if app.view.is_none() && !view.hidden {
        view.selected = app.selected();
        view.targets = app.targets();
        // A hint shows on the board too: its piece and where it goes.
        if let (None, Some(m)) = (view.selected, app.search.hint)
            && let Some(from) = m.from()
        {
            view.selected = Some(from);
            view.targets = vec![crate::tui::input::target(&m)];
        }
    }
    view
}

/// `text` in at most `width` characters, cut at a word with `…` when longer: nothing on a
/// screen is cut in the middle of a word.
pub(crate) fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(1);
    let head: String = text.chars().take(room).collect();
    // The last whole word that fits (a word cut by the limit is dropped).
    let whole = match head.rfind(' ') {
        Some(i) if text.chars().nth(room) != Some(' ') => head[..i].trim_end().to_string(),
        _ => head.trim_end().to_string(),
    };
    if whole.is_empty() {
        head.chars().take(room).collect::<String>() + "…"
    } else {
        whole + "…"
    }
}

/// Two players as a title, `left vs right`, in at most `width` characters, shortened by
/// meaning before anything is cut: versions go first ("Knightfall 0.1.0" is Knightfall), then
/// the level's word ("(level 3)" is "L3"). Only then is a name cut, at a word, the longer one
/// first, so that both players stay in view.
pub(crate) fn players(left: &str, right: &str, width: usize) -> String {
    for step in 0..=2 {
        let title = format!("{} vs {}", shorter(left, step), shorter(right, step));
        if title.chars().count() <= width {
            return title;
        }
    }
    let (left, right) = (shorter(left, 2), shorter(right, 2));
    let room = width.saturating_sub(" vs ".len());
    let (l, r) = (left.chars().count(), right.chars().count());
    let half = room / 2;
    let (l, r) = if l <= half {
        (l, room - l)
    } else if r <= half {
        (room - r, r)
    } else {
        (half, room - half)
    };
    format!("{} vs {}", fit(&left, l), fit(&right, r))
}

/// A player's name shortened by meaning, `step` times: 1 drops version numbers
/// (`Stockfish 16.1`, `Knightfall 0.1.0`), 2 also writes a level as `L3`.
pub(crate) fn shorter(name: &str, step: usize) -> String {
    if step == 0 {
        return name.to_string();
    }
    let words: Vec<&str> = name
        .split_whitespace()
        .enumerate()
        .filter(|&(i, word)| i == 0 || !is_version(word))
        .map(|(_, word)| word)
        .collect();
    let mut short = words.join(" ");
    if step >= 2
        && let Some(start) = short.find("(level ")
        && let Some(len) = short[start..].find(')')
    {
        let level = short[start + "(level ".len()..start + len]
            .trim()
            .to_string();
        short.replace_range(start..=start + len, &format!("L{level}"));
    }
    short
}

/// Whether a word of a name is a version: `0.1.0`, `16.1`, `v2.3`, `17`.
fn is_version(word: &str) -> bool {
    let number = word.strip_prefix(['v', 'V']).unwrap_or(word);
    number.starts_with(|c: char| c.is_ascii_digit())
        && number.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// A line of moves with each move number bound to its move (`7.` never ends a wrapped line
/// without `Nf3`): a no-break space after the dots.
pub(crate) fn numbers_kept_with_moves(line: &str) -> String {
    line.replace(". ", ".\u{a0}")
}

/// A bordered box for `area` titled `title`, fitted to its width.
pub(crate) fn titled(title: &str, area: Rect) -> Block<'static> {
    let room = usize::from(area.width.saturating_sub(4));
    Block::default()
        .borders(Borders::ALL)
        .title(format!(" {} ", fit(title.trim(), room)))
}

/// A style that is plain when colours are off.
pub(crate) fn fg(palette: Palette, color: Tui) -> Style {
    if palette.no_color {
        Style::default()
    } else {
        Style::default().fg(color)
    }
}

/// Bold, in any palette.
pub(crate) fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

/// A centred rectangle of at most `w` x `h` inside `area`.
pub(crate) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

#[cfg(test)]
mod tests {
    use super::{fit, players};

    #[test]
    fn players_are_shortened_by_meaning_and_both_stay_in_view() {
        let engine = "Knightfall 0.1.0 (level 3)";
        assert_eq!(
            players(engine, "You", 40),
            "Knightfall 0.1.0 (level 3) vs You"
        );
        assert_eq!(players(engine, "You", 30), "Knightfall (level 3) vs You");
        assert_eq!(players(engine, "You", 22), "Knightfall L3 vs You");
        assert_eq!(
            players(engine, "Knightfall 0.1.0 (level 5)", 31),
            "Knightfall L3 vs Knightfall L5"
        );
        assert_eq!(players("Stockfish 16.1", "You", 20), "Stockfish vs You");
        // Past that, the longer name is cut at a word; the other stays whole.
        assert_eq!(
            players("Grandmaster Deep Thought", "You", 24),
            "Grandmaster Deep… vs You"
        );
        for width in 8..60 {
            let title = players(engine, "Knightfall 0.1.0", width);
            assert!(title.chars().count() <= width, "{title}");
            assert!(title.contains(" vs "), "{title}");
        }
    }

    #[test]
    fn text_is_cut_at_a_word_never_inside_one() {
        assert_eq!(fit("Human vs Knightfall", 30), "Human vs Knightfall");
        assert_eq!(
            fit("Human vs Knightfall 0.1.0 (level 3)", 31),
            "Human vs Knightfall 0.1.0…"
        );
        assert_eq!(
            fit("B50 Sicilian Defense: Modern Variations", 33),
            "B50 Sicilian Defense: Modern…"
        );
        assert_eq!(fit("Taken ♟♟ White +5", 16), "Taken ♟♟ White…");
        assert_eq!(fit("Supercalifragilistic", 8), "Superca…");
        for width in 1..40 {
            assert!(
                fit("Knightfall 0.1.0 (level 3) vs Knightfall 0.1.0", width)
                    .chars()
                    .count()
                    <= width
            );
        }
    }
}
