//! Which ending a drill plays: the material of the player's side and of the other side, read
//! from a signature like `KQvK` (the player's side first) and checked against the tables the
//! program carries (3 and 4 pieces, kings included).

use std::fmt;

use shakmaty::Role;

/// The endings offered on the training screen, in the order a player learns them.
pub const OFFERED: &[&str] = &[
    "KQvK", "KRvK", "KPvK", "KvKP", "KBBvK", "KBNvK", "KQvKR", "KQvKP", "KRvKP", "KPvKP",
];

/// The most pieces a drill can have, kings included: the tables built into the program.
pub const MAX_PIECES: usize = 4;

/// The pieces of both sides besides the kings, strongest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The player's pieces.
    pub ours: Vec<Role>,
    /// The other side's pieces.
    pub theirs: Vec<Role>,
}

impl Ending {
    /// Reads a signature: `KQvK`, `kbnvk`, `KvKP` (the player's side first).
    pub fn parse(text: &str) -> Result<Ending, String> {
        let clean = text.trim();
        let explain = || {
            format!(
                "{clean:?} is not an ending: write each side's pieces after its king, the \
                 player's side first, like KQvK, KPvK or KvKP"
            )
        };
        let (a, b) = clean
            .split_once(['v', 'V'])
            .filter(|(a, b)| !a.is_empty() && !b.is_empty())
            .ok_or_else(explain)?;
        let side = |s: &str| -> Result<Vec<Role>, String> {
            let mut chars = s.chars();
            if !chars.next().is_some_and(|c| c.eq_ignore_ascii_case(&'k')) {
                return Err(explain());
            }
            let mut roles = chars
                .map(|c| match c.to_ascii_uppercase() {
                    'Q' => Ok(Role::Queen),
                    'R' => Ok(Role::Rook),
                    'B' => Ok(Role::Bishop),
                    'N' => Ok(Role::Knight),
                    'P' => Ok(Role::Pawn),
                    _ => Err(explain()),
                })
                .collect::<Result<Vec<Role>, String>>()?;
            roles.sort_by_key(|r| std::cmp::Reverse(strength(*r)));
            Ok(roles)
        };
        let ending = Ending {
            ours: side(a)?,
            theirs: side(b)?,
        };
        let pieces = ending.pieces();
        if pieces > MAX_PIECES {
            return Err(format!(
                "{ending} has {pieces} pieces; the drills use the built-in tables, which hold \
                 endings of 3 and 4 pieces, kings included"
            ));
        }
        if pieces < 3 {
            return Err(format!("{ending} is a draw with nothing to play for"));
        }
        Ok(ending)
    }

    /// Pieces on the board, kings included.
    pub fn pieces(&self) -> usize {
        2 + self.ours.len() + self.theirs.len()
    }

    /// The same ending seen from the other side (`KvKP` for `KPvK`).
    pub fn swapped(&self) -> Ending {
        Ending {
            ours: self.theirs.clone(),
            theirs: self.ours.clone(),
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |roles: &[Role]| -> String {
            std::iter::once('K')
                .chain(roles.iter().map(|r| r.upper_char()))
                .collect()
        };
        write!(f, "{}v{}", side(&self.ours), side(&self.theirs))
    }
}

/// Orders roles as a signature writes them: queen, rook, bishop, knight, pawn.
fn strength(role: Role) -> u8 {
    match role {
        Role::Queen => 5,
        Role::Rook => 4,
        Role::Bishop => 3,
        Role::Knight => 2,
        Role::Pawn => 1,
        Role::King => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_are_read_in_any_case_and_written_strongest_first() {
        let e = Ending::parse("knbvk").unwrap();
        assert_eq!(e.ours, vec![Role::Bishop, Role::Knight]);
        assert_eq!(e.to_string(), "KBNvK");
        assert_eq!(Ending::parse(" KvKP ").unwrap().to_string(), "KvKP");
        assert_eq!(Ending::parse("KPvK").unwrap().swapped().to_string(), "KvKP");
        for name in OFFERED {
            assert_eq!(Ending::parse(name).unwrap().to_string(), *name);
        }
    }

    #[test]
    fn bad_signatures_say_why() {
        for bad in ["", "KQ", "QvK", "KQvQ", "KXvK", "v", "KQvK vK"] {
            assert!(Ending::parse(bad).is_err(), "{bad}");
        }
        let e = Ending::parse("KQRvKR").unwrap_err();
        assert!(e.contains("5 pieces"), "{e}");
        assert!(Ending::parse("KvK").unwrap_err().contains("draw"));
    }
}
