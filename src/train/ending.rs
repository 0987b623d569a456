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

    /// The well-known way to play it, in a sentence, for the endings that have one (what a
    /// player is shown after a failed try).
    pub fn method(&self) -> Option<&'static str> {
        Some(match self.to_string().as_str() {
            "KQvK" => {
                "Keep the queen a knight's move from the lone king and shrink its box to the \
                 edge, then bring your king up and mate; always leave it a move, or it is \
                 stalemate."
            }
            "KRvK" => {
                "Cut the king off with the rook, bring your king to face it, and check when \
                 the kings stand opposite: each check drives it back a rank, to the edge and \
                 mate."
            }
            "KPvK" => {
                "Get your king ahead of the pawn onto a key square (two ranks in front of \
                 it), taking the opposition when the kings face each other; then the pawn \
                 walks in, unless it is a rook's pawn and their king reaches the corner."
            }
            "KvKP" => {
                "Stand in front of the pawn and keep the opposition (kings face to face, them \
                 to move), stepping straight back, never aside; against a rook's pawn, make \
                 for the corner."
            }
            "KBBvK" => {
                "Set the bishops side by side as a wall of diagonals the king cannot cross, \
                 shrink its space with your king, and mate in a corner, minding stalemate."
            }
            "KBNvK" => {
                "Drive the lone king to a corner of your bishop's colour, the only ones where \
                 mate can be forced; from a wrong corner, the knight's W (Nf7-e5-d7-c5-b7, \
                 for h8 to a8) pushes it along the edge."
            }
            "KQvKR" => {
                "Drive the king to the edge with checks and your king, into Philidor's \
                 position (kings face to face, their rook beside theirs); lose a move with \
                 the queen, and the rook must leave its king to be forked or skewered."
            }
            "KQvKP" => {
                "With checks and pins force their king in front of its pawn, and each time \
                 bring your king a step closer; a bishop's or rook's pawn on the seventh may \
                 draw by stalemate."
            }
            "KRvKP" => {
                "Stop the pawn with the rook from behind and bring your king in front of it: \
                 a king cut off from its pawn loses it, one beside a far advanced pawn may \
                 hold."
            }
            "KPvKP" => {
                "Count each pawn's moves to queen and whether the other king is inside its \
                 square; when the kings fight for the pawns, the opposition decides."
            }
            _ => return None,
        })
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
    fn every_offered_ending_has_its_method_in_a_sentence() {
        for name in OFFERED {
            let method = Ending::parse(name).unwrap().method();
            let method = method.unwrap_or_else(|| panic!("{name} has no method"));
            assert!(
                method.ends_with('.') && method.matches(". ").count() == 0,
                "{method}"
            );
        }
        let kbn = Ending::parse("KBNvK").unwrap().method().unwrap();
        assert!(kbn.contains("corner of your bishop's colour") && kbn.contains("W"));
        assert_eq!(Ending::parse("KRvKB").unwrap().method(), None);
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
