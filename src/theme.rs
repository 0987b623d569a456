//! Board colours. Every theme keeps both sides' pieces readable on every square it draws: the
//! pieces are pure white and pure black, so each square colour (plain, last move, the selected
//! piece's targets, a king in check) has a relative luminance between 0.10 and 0.30, which
//! gives at least 3:1 against both (WCAG's contrast ratio; the high-contrast theme keeps 4:1).
//! Each colour comes twice: as 24-bit RGB, and as the xterm-256 index chosen by hand for
//! terminals without 24-bit colour, which is held to the same bound. Nearest-colour rounding
//! would not do: the cube's coarse steps turn the muted 24-bit squares into greys and let a
//! mark fall onto the square it marks.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A board palette, chosen with a key and kept in the config file (`theme = "green"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Theme {
    /// Brown and tan, the wooden board.
    #[default]
    Classic,
    /// Green and cream.
    Green,
    /// Blue-grey.
    Blue,
    /// The most contrast between pieces and squares.
    Contrast,
    /// Blue and sand, with marks told apart by blue, orange and purple rather than red and
    /// green (safe for red-green colour blindness).
    Colourblind,
}

/// One colour, in 24-bit and in the 256-colour palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shade {
    /// Red, green, blue.
    pub rgb: (u8, u8, u8),
    /// The xterm-256 index for terminals without 24-bit colour.
    pub indexed: u8,
}

const fn shade(r: u8, g: u8, b: u8, indexed: u8) -> Shade {
    Shade {
        rgb: (r, g, b),
        indexed,
    }
}

/// The colours of a theme's squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squares {
    /// Light squares.
    pub light: Shade,
    /// Dark squares.
    pub dark: Shade,
    /// The last move's squares, light and dark.
    pub last: [Shade; 2],
    /// The selected piece and where it may go, light and dark.
    pub target: [Shade; 2],
    /// The king in check.
    pub check: Shade,
}

impl Theme {
    /// Every theme, in the order the key steps through them.
    pub const ALL: [Theme; 5] = [
        Theme::Classic,
        Theme::Green,
        Theme::Blue,
        Theme::Contrast,
        Theme::Colourblind,
    ];

    /// The name the config file and the `theme` command use.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Classic => "classic",
            Theme::Green => "green",
            Theme::Blue => "blue",
            Theme::Contrast => "contrast",
            Theme::Colourblind => "colourblind",
        }
    }

    /// What the player reads when the theme changes.
    pub fn describe(self) -> &'static str {
        match self {
            Theme::Classic => "classic (brown)",
            Theme::Green => "green",
            Theme::Blue => "blue",
            Theme::Contrast => "high contrast",
            Theme::Colourblind => "colour-blind safe (blue and orange)",
        }
    }

    /// The theme after this one.
    pub fn next(self) -> Theme {
        let i = Theme::ALL.iter().position(|&t| t == self).unwrap_or(0);
        Theme::ALL[(i + 1) % Theme::ALL.len()]
    }

    /// The theme's square colours.
    pub fn squares(self) -> Squares {
        match self {
            // The 256-colour indices are picked by eye from the few the luminance bound leaves
            // (the cube's steps are coarse): each keeps its theme's character, and every mark
            // stands apart from both squares (see `difference`).
            Theme::Classic => Squares {
                // Tan and brown wood; the last move yellow-green, targets green, check red.
                light: shade(158, 142, 119, 137),
                dark: shade(119, 89, 65, 94),
                last: [shade(145, 148, 75, 100), shade(112, 106, 38, 64)],
                target: [shade(114, 152, 92, 65), shade(79, 114, 57, 28)],
                check: shade(210, 57, 57, 160),
            },
            Theme::Green => Squares {
                // Khaki and green; the last move gold and dark olive, targets blue.
                light: shade(145, 145, 128, 101),
                dark: shade(81, 104, 59, 64),
                last: [shade(150, 150, 64, 136), shade(108, 117, 25, 58)],
                target: [shade(105, 145, 186, 67), shade(65, 105, 162, 61)],
                check: shade(210, 57, 57, 160),
            },
            Theme::Blue => Squares {
                // Steel and slate blue (the 24-bit theme is greyer, which the cube would
                // round to greys); the last move gold and olive, targets green.
                light: shade(141, 145, 146, 67),
                dark: shade(86, 99, 106, 61),
                last: [shade(136, 150, 94, 136), shade(100, 113, 60, 100)],
                target: [shade(126, 148, 111, 65), shade(84, 111, 77, 28)],
                check: shade(210, 57, 57, 160),
            },
            Theme::Contrast => Squares {
                // Grey and blue near the middle luminance, where both sides' pieces keep 4:1
                // in 256 colours too.
                light: shade(124, 124, 108, 243),
                dark: shade(100, 109, 137, 62),
                last: [shade(129, 129, 65, 64), shade(114, 114, 43, 130)],
                target: [shade(74, 135, 142, 30), shade(46, 121, 129, 31)],
                check: shade(234, 37, 37, 161),
            },
            Theme::Colourblind => Squares {
                light: shade(163, 141, 106, 137),
                dark: shade(74, 96, 126, 60),
                last: [shade(172, 143, 57, 136), shade(147, 103, 15, 130)],
                target: [shade(97, 146, 194, 33), shade(44, 96, 175, 26)],
                check: shade(187, 85, 170, 164),
            },
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Theme {
    type Err = String;

    fn from_str(s: &str) -> Result<Theme, String> {
        let s = s.trim().to_ascii_lowercase();
        let s = match s.as_str() {
            "colorblind" | "colour-blind" | "color-blind" => "colourblind",
            "high-contrast" | "high contrast" => "contrast",
            other => other,
        };
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
                format!("no theme {s:?}: use {}", names.join(", "))
            })
    }
}

impl TryFrom<String> for Theme {
    type Error = String;

    fn try_from(s: String) -> Result<Theme, String> {
        s.parse()
    }
}

impl From<Theme> for String {
    fn from(t: Theme) -> String {
        t.name().to_string()
    }
}

/// The RGB value of an xterm-256 colour (the 6x6x6 cube and the grey ramp; the first sixteen
/// are the terminal's own and have no fixed value).
pub fn xterm_rgb(index: u8) -> Option<(u8, u8, u8)> {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    match index {
        0..=15 => None,
        16..=231 => {
            let i = index - 16;
            Some((
                LEVELS[usize::from(i / 36)],
                LEVELS[usize::from(i / 6 % 6)],
                LEVELS[usize::from(i % 6)],
            ))
        }
        _ => {
            let v = 8 + 10 * (index - 232);
            Some((v, v, v))
        }
    }
}

/// An sRGB channel as linear light (0 to 1).
fn linear(v: u8) -> f64 {
    let v = f64::from(v) / 255.0;
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

/// WCAG relative luminance of an sRGB colour.
pub fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// How different two colours look: their distance in CIELAB (CIE76's delta E). Black and white
/// are 100 apart; colours 20 apart are told apart at a glance.
pub fn difference(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (p, q) = (lab(a), lab(b));
    ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2) + (p.2 - q.2).powi(2)).sqrt()
}

/// An sRGB colour in CIELAB (D65 white).
fn lab((r, g, b): (u8, u8, u8)) -> (f64, f64, f64) {
    let (r, g, b) = (linear(r), linear(g), linear(b));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    (116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz))
}

/// WCAG contrast ratio of two colours (1 to 21).
pub fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: (u8, u8, u8) = (255, 255, 255);
    const BLACK: (u8, u8, u8) = (0, 0, 0);

    fn all(s: Squares) -> Vec<(&'static str, Shade)> {
        vec![
            ("light", s.light),
            ("dark", s.dark),
            ("last light", s.last[0]),
            ("last dark", s.last[1]),
            ("target light", s.target[0]),
            ("target dark", s.target[1]),
            ("check", s.check),
        ]
    }

    #[test]
    fn both_sides_pieces_are_readable_on_every_square_of_every_theme() {
        for theme in Theme::ALL {
            let least = if theme == Theme::Contrast { 4.0 } else { 3.0 };
            for (what, shade) in all(theme.squares()) {
                let indexed = xterm_rgb(shade.indexed).expect("a fixed xterm colour");
                for (mode, rgb) in [("24-bit", shade.rgb), ("256", indexed)] {
                    for piece in [WHITE, BLACK] {
                        let ratio = contrast(piece, rgb);
                        assert!(
                            ratio >= least,
                            "{theme} {what} ({mode}) {rgb:?}: {ratio:.2} against {piece:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn light_and_dark_squares_and_marks_are_told_apart() {
        for theme in Theme::ALL {
            let s = theme.squares();
            let shades = all(s);
            for (i, (a, x)) in shades.iter().enumerate() {
                for (b, y) in &shades[i + 1..] {
                    assert_ne!(x.rgb, y.rgb, "{theme}: {a} and {b}");
                    assert_ne!(x.indexed, y.indexed, "{theme}: {a} and {b} (256)");
                }
            }
        }
    }

    #[test]
    fn in_256_colours_every_mark_stands_apart_from_both_squares() {
        for theme in Theme::ALL {
            let s = theme.squares();
            // A mark sits beside squares of both colours, so each is held apart from both, and
            // from the other marks; the two shades of one mark may be alike.
            let roles = [
                ("light", vec![s.light]),
                ("dark", vec![s.dark]),
                ("last move", s.last.to_vec()),
                ("target", s.target.to_vec()),
                ("check", vec![s.check]),
            ];
            for (i, (a, xs)) in roles.iter().enumerate() {
                for (b, ys) in &roles[i + 1..] {
                    for x in xs {
                        for y in ys {
                            let (p, q) = (xterm_rgb(x.indexed), xterm_rgb(y.indexed));
                            let d = difference(p.unwrap(), q.unwrap());
                            assert!(
                                d >= 20.0,
                                "{theme} (256): {a} {} and {b} {} are {d:.1} apart",
                                x.indexed,
                                y.indexed
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn in_256_colours_the_coloured_themes_have_no_grey_squares() {
        for theme in [Theme::Classic, Theme::Green, Theme::Blue] {
            let s = theme.squares();
            for (what, shade) in [("light", s.light), ("dark", s.dark)] {
                let (r, g, b) = xterm_rgb(shade.indexed).unwrap();
                assert!(
                    !(r == g && g == b),
                    "{theme} {what} is grey: {}",
                    shade.indexed
                );
            }
        }
        // Wood is warm: more red than green, more green than blue.
        let (r, g, b) = xterm_rgb(Theme::Classic.squares().dark.indexed).unwrap();
        assert!(r > g && g > b, "{r},{g},{b}");
        let (r, g, b) = xterm_rgb(Theme::Green.squares().dark.indexed).unwrap();
        assert!(g > r && g > b, "{r},{g},{b}");
        for shade in [Theme::Blue.squares().light, Theme::Blue.squares().dark] {
            let (r, g, b) = xterm_rgb(shade.indexed).unwrap();
            assert!(b > r && b > g, "{r},{g},{b}");
        }
    }

    #[test]
    fn the_old_light_square_failed_and_the_ratio_is_wcags() {
        // Lichess's light square under a white piece: the 1.3:1 that made pieces vanish.
        assert!(contrast(WHITE, (240, 217, 181)) < 1.5);
        assert!((contrast(WHITE, BLACK) - 21.0).abs() < 1e-9);
        assert_eq!(xterm_rgb(16), Some(BLACK));
        assert_eq!(xterm_rgb(231), Some(WHITE));
        assert_eq!(xterm_rgb(232), Some((8, 8, 8)));
        assert_eq!(xterm_rgb(7), None);
        assert!((difference(WHITE, BLACK) - 100.0).abs() < 0.01);
        assert!(difference((95, 95, 95), (98, 98, 98)) < 2.0);
    }

    #[test]
    fn names_round_trip_and_the_key_visits_every_theme() {
        let mut t = Theme::Classic;
        for _ in 0..Theme::ALL.len() {
            assert_eq!(t.name().parse::<Theme>(), Ok(t));
            t = t.next();
        }
        assert_eq!(t, Theme::Classic);
        assert_eq!("Color-Blind".parse::<Theme>(), Ok(Theme::Colourblind));
        assert!("purple".parse::<Theme>().unwrap_err().contains("classic"));
    }
}
