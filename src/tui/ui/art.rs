//! Large pieces: each piece is a 7x6 pixel figure drawn with half blocks (a terminal cell holds
//! two pixels, one above the other, so a pixel is about as wide as it is high), scaled by whole
//! numbers to fill big squares.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use shakmaty::Role;

/// Figure width and height in pixels.
pub(crate) const WIDTH: u16 = 7;
const HEIGHT: u16 = 6;

/// The figure of a piece, top row first; `#` is the piece.
fn figure(role: Role) -> [&'static str; HEIGHT as usize] {
    match role {
        Role::Pawn => [
            ".......", //
            "...#...", //
            "..###..", //
            "...#...", //
            "..###..", //
            ".#####.",
        ],
        Role::Knight => [
            "..##...", //
            ".####..", //
            "######.", //
            "##.###.", //
            "..####.", //
            ".#####.",
        ],
        Role::Bishop => [
            "...#...", //
            "..###..", //
            ".##.##.", //
            "..###..", //
            "...#...", //
            ".#####.",
        ],
        Role::Rook => [
            ".#.#.#.", //
            ".#####.", //
            "..###..", //
            "..###..", //
            "..###..", //
            ".#####.",
        ],
        Role::Queen => [
            "#..#..#", //
            "##.#.##", //
            ".#####.", //
            "..###..", //
            "..###..", //
            ".#####.",
        ],
        Role::King => [
            "...#...", //
            "..###..", //
            "...#...", //
            ".#####.", //
            "..###..", //
            ".#####.",
        ],
    }
}

/// The whole-number scale at which a figure fits a `cw` x `ch` cell, or `None` when the cell is
/// too small for one (then the piece is a single glyph).
pub fn scale(cw: u16, ch: u16) -> Option<u16> {
    let s = (cw / WIDTH).min(ch * 2 / HEIGHT);
    (s >= 1).then_some(s)
}

/// Draws `role`'s figure centred in `cell` in `style`'s colours (the foreground is the piece,
/// the background the square).
pub fn draw(buf: &mut Buffer, cell: Rect, role: Role, scale: u16, style: Style) {
    let rows = figure(role);
    let filled = |px: u16, py: u16| -> bool {
        let (x, y) = (px / scale, py / scale);
        rows.get(usize::from(y))
            .and_then(|r| r.as_bytes().get(usize::from(x)))
            .is_some_and(|&b| b == b'#')
    };
    let w = WIDTH * scale;
    let h = HEIGHT * scale / 2;
    let x0 = cell.x + cell.width.saturating_sub(w) / 2;
    let y0 = cell.y + cell.height.saturating_sub(h) / 2;
    for row in 0..h {
        for px in 0..w {
            let symbol = match (filled(px, row * 2), filled(px, row * 2 + 1)) {
                (true, true) => "█",
                (true, false) => "▀",
                (false, true) => "▄",
                (false, false) => continue,
            };
            let (x, y) = (x0 + px, y0 + row);
            if x < cell.x + cell.width && y < cell.y + cell.height {
                buf[(x, y)].set_symbol(symbol).set_style(style);
            }
        }
    }
}
