//! The board: squares keep roughly a square look (a cell is twice as wide as high), grow with
//! the space available, and show the last move, a king in check and the selected piece's targets.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tui, Modifier, Style};
use shakmaty::{Chess, Color, File, Move, Piece, Position, Rank, Role, Square};

use super::{Palette, art};
use crate::tui::screen::BoardArea;

/// Board width (labels included) for a given space.
pub(crate) fn width_for(width: u16, height: u16) -> u16 {
    let (cw, _) = cell_size(width, height);
    cw * 8 + 3
}

/// Cell width and height that fit `width` x `height` with labels.
fn cell_size(width: u16, height: u16) -> (u16, u16) {
    let by_h = (height.saturating_sub(1) / 8).max(1);
    let max_w = width.saturating_sub(3) / 8;
    let by_w = (max_w.saturating_sub(1) / 2).max(1);
    let ch = by_h.min(by_w);
    let mut cw = ch * 2 + 1;
    // A cell a column wider when that lets a large piece figure grow a size (6 rows: 14 wide).
    let grown = art::WIDTH * (ch * 2 / 6);
    if grown > cw && grown <= max_w {
        cw = grown;
    }
    (cw, ch)
}

/// The glyph for a piece.
pub(crate) fn glyph(piece: Piece, ascii: bool, no_color: bool) -> &'static str {
    if ascii {
        return match (piece.color, piece.role) {
            (Color::White, r) => ["P", "N", "B", "R", "Q", "K"][r as usize - 1],
            (Color::Black, r) => ["p", "n", "b", "r", "q", "k"][r as usize - 1],
        };
    }
    // Filled shapes coloured for both sides read best; without colour White gets outlines.
    // The black pawn carries U+FE0E so terminals do not draw it as an emoji.
    let filled = ["♟\u{FE0E}", "♞", "♝", "♜", "♛", "♚"];
    let outline = ["♙", "♘", "♗", "♖", "♕", "♔"];
    let i = piece.role as usize - 1;
    if no_color && piece.color == Color::White {
        outline[i]
    } else {
        filled[i]
    }
}

/// Everything the board widget draws: a position and what is marked on it. Each screen makes
/// one from its own state; none builds another screen's state to draw a board.
#[derive(Clone, Debug)]
pub struct BoardView<'a> {
    /// The position.
    pub pos: &'a Chess,
    /// The move that led to it, marked.
    pub last: Option<Move>,
    /// The selected piece's square.
    pub selected: Option<Square>,
    /// Where the selected piece may go.
    pub targets: Vec<Square>,
    /// Seen from Black's side.
    pub flipped: bool,
    /// Colours and glyphs.
    pub palette: Palette,
    /// The promotion picker, open: the pieces the side to move may promote to, on these
    /// squares.
    pub promotion: Option<[(Square, Role); 4]>,
    /// Blindfold: the squares without their pieces (the promotion picker still shows its).
    pub hidden: bool,
}

impl<'a> BoardView<'a> {
    /// A view of `pos` with nothing marked but the last move.
    pub fn new(pos: &'a Chess, last: Option<Move>, flipped: bool, palette: Palette) -> Self {
        BoardView {
            pos,
            last,
            selected: None,
            targets: Vec::new(),
            flipped,
            palette,
            promotion: None,
            hidden: false,
        }
    }

    /// The square of the king in check, if the side to move is in check.
    pub fn check(&self) -> Option<Square> {
        if self.pos.is_check() {
            self.pos.board().king_of(self.pos.turn())
        } else {
            None
        }
    }
}

/// Draws the board into `area`; returns where it went (for the mouse), if it fitted.
pub fn draw(frame: &mut Frame, area: Rect, view: &BoardView) -> Option<BoardArea> {
    let (cw, ch) = cell_size(area.width, area.height);
    let x0 = area.x + 2;
    let y0 = area.y;
    if area.width < cw * 8 + 3 || area.height < ch * 8 + 1 {
        return None;
    }
    let pos = view.pos;
    let flipped = view.flipped;
    let last_squares: Vec<Square> = view
        .last
        .map(|m| match m {
            // Castling is stored king-takes-rook; mark where the king went.
            Move::Castle { king, rook } => {
                let file = if rook.file() > king.file() {
                    File::G
                } else {
                    File::C
                };
                vec![king, Square::from_coords(file, king.rank())]
            }
            _ => {
                let mut v = vec![m.to()];
                v.extend(m.from());
                v
            }
        })
        .unwrap_or_default();
    let check = view.check();
    let buf = frame.buffer_mut();
    for row in 0..8u16 {
        for col in 0..8u16 {
            let (file, rank) = if flipped {
                (7 - col, row)
            } else {
                (col, 7 - row)
            };
            let sq = Square::from_coords(File::new(u32::from(file)), Rank::new(u32::from(rank)));
            let light = (file + rank) % 2 == 1;
            let choice = view
                .promotion
                .and_then(|choices| choices.into_iter().find(|(at, _)| *at == sq));
            let mark = if choice.is_some() {
                Mark::Target
            } else if check == Some(sq) {
                Mark::Check
            } else if view.selected == Some(sq) || view.targets.contains(&sq) {
                Mark::Target
            } else if last_squares.contains(&sq) {
                Mark::Last
            } else {
                Mark::None
            };
            let cell = Rect::new(x0 + col * cw, y0 + row * ch, cw, ch);
            draw_square(
                buf,
                cell,
                view.palette,
                light,
                mark,
                match choice {
                    Some((_, role)) => Some(Piece {
                        color: pos.turn(),
                        role,
                    }),
                    None if view.hidden => None,
                    None => pos.board().piece_at(sq),
                },
            );
        }
        let label = Rect::new(area.x, y0 + row * ch + ch / 2, 1, 1);
        let rank = if flipped { row + 1 } else { 8 - row };
        buf.set_string(label.x, label.y, rank.to_string(), Style::default());
    }
    for col in 0..8u16 {
        let file = if flipped { 7 - col } else { col };
        let c = char::from(b'a' + file as u8);
        buf.set_string(
            x0 + col * cw + cw / 2,
            y0 + 8 * ch,
            c.to_string(),
            Style::default(),
        );
    }
    Some(BoardArea {
        x: x0,
        y: y0,
        cell_w: cw,
        cell_h: ch,
        flipped,
    })
}

/// What a square is marked as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    /// Nothing.
    None,
    /// The last move's squares.
    Last,
    /// The selected piece and where it may go.
    Target,
    /// The king in check.
    Check,
}

fn draw_square(
    buf: &mut Buffer,
    cell: Rect,
    palette: Palette,
    light: bool,
    mark: Mark,
    piece: Option<Piece>,
) {
    let style = square_style(palette, light, mark);
    for y in cell.y..cell.y + cell.height {
        for x in cell.x..cell.x + cell.width {
            buf[(x, y)].set_symbol(" ").set_style(style);
        }
    }
    let cx = cell.x + cell.width / 2;
    let cy = cell.y + cell.height / 2;
    let plain = palette.no_color || palette.ascii;
    match piece {
        Some(p) => {
            let mut s = style;
            if !palette.no_color {
                s = s
                    .fg(p.color.fold_wb(Tui::Rgb(255, 255, 255), Tui::Rgb(0, 0, 0)))
                    .add_modifier(Modifier::BOLD);
                if !palette.truecolor {
                    s = s.fg(p.color.fold_wb(Tui::Indexed(231), Tui::Indexed(16)));
                }
            }
            match art::scale(cell.width, cell.height).filter(|_| !plain) {
                Some(scale) => art::draw(buf, cell, p.role, scale, s),
                None => {
                    buf[(cx, cy)].set_symbol(glyph(p, palette.ascii, palette.no_color));
                    buf[(cx, cy)].set_style(s);
                }
            }
        }
        None if plain && !light => {
            buf[(cx, cy)].set_symbol(if palette.ascii { "." } else { "·" });
        }
        None => {}
    }
    if palette.no_color && mark != Mark::None {
        // Without colour, brackets show highlighted squares.
        let (l, r) = match mark {
            Mark::Check => ("!", "!"),
            Mark::Target => ("(", ")"),
            _ => ("[", "]"),
        };
        if cell.width >= 3 {
            buf[(cx - 1, cy)].set_symbol(l);
            buf[(cx + 1, cy)].set_symbol(r);
        }
    }
}

/// A square's colours in `palette`: light or dark, and marked or not.
pub(crate) fn square_style(palette: Palette, light: bool, mark: Mark) -> Style {
    if palette.no_color {
        return Style::default();
    }
    let squares = palette.theme.squares();
    let side = usize::from(!light);
    let shade = match (mark, light) {
        (Mark::Check, _) => squares.check,
        (Mark::Target, _) => squares.target[side],
        (Mark::Last, _) => squares.last[side],
        (Mark::None, true) => squares.light,
        (Mark::None, false) => squares.dark,
    };
    let bg = if palette.truecolor {
        let (r, g, b) = shade.rgb;
        Tui::Rgb(r, g, b)
    } else {
        Tui::Indexed(shade.indexed)
    };
    Style::default().bg(bg)
}
