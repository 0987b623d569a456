//! What a puzzle is about, found from its moves: mates by length and the back-rank mate, forks,
//! hanging pieces, promotions, sacrifices, defensive moves, endgames, and the puzzle's length.
//! lichess calls these a puzzle's themes, and the player reads that word (the `Themes` column,
//! the training screen's `filter`); here they are motifs, apart from the board's colour
//! themes. The names written to files are lichess's, so an exported puzzle reads as one of
//! theirs; the screen says them in words (`mate in 2`, not `mateIn2`).

use shakmaty::{Bitboard, Chess, Color, Move, Position, Rank, Role, Square};

/// A puzzle motif (a theme, in lichess's words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Motif {
    /// It ends in checkmate.
    Mate,
    /// Mate with one solver move.
    MateIn1,
    /// Mate with two solver moves.
    MateIn2,
    /// Mate with three solver moves.
    MateIn3,
    /// Mate with four or more solver moves.
    MateIn4,
    /// The mated king is shut in on its back rank by its own pieces.
    BackRankMate,
    /// A piece attacks two targets at once and wins one.
    Fork,
    /// A piece pinned to its king (or to a stronger piece) behind it is won.
    Pin,
    /// A king or a strong piece is attacked and, once it steps away, the piece behind it is won.
    Skewer,
    /// A move uncovers an attack of the piece behind it: a check, or a piece won.
    DiscoveredAttack,
    /// A piece with nowhere safe to go is won.
    TrappedPiece,
    /// The first move takes a piece left undefended.
    HangingPiece,
    /// A pawn promotes.
    Promotion,
    /// The solver gives material on the way.
    Sacrifice,
    /// The last solver move is a quiet one that meets a threat: no check, no capture, no
    /// attack on a piece, no pawn running to promote, no mate threatened.
    DefensiveMove,
    /// Few pieces are left.
    Endgame,
    /// One solver move.
    OneMove,
    /// Two solver moves.
    Short,
    /// Three solver moves.
    Long,
    /// Four or more solver moves.
    VeryLong,
}

impl Motif {
    /// Every motif, in the order they are written.
    pub const ALL: [Motif; 20] = [
        Motif::Mate,
        Motif::MateIn1,
        Motif::MateIn2,
        Motif::MateIn3,
        Motif::MateIn4,
        Motif::BackRankMate,
        Motif::Fork,
        Motif::Pin,
        Motif::Skewer,
        Motif::DiscoveredAttack,
        Motif::TrappedPiece,
        Motif::HangingPiece,
        Motif::Promotion,
        Motif::Sacrifice,
        Motif::DefensiveMove,
        Motif::Endgame,
        Motif::OneMove,
        Motif::Short,
        Motif::Long,
        Motif::VeryLong,
    ];

    /// lichess's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Motif::Mate => "mate",
            Motif::MateIn1 => "mateIn1",
            Motif::MateIn2 => "mateIn2",
            Motif::MateIn3 => "mateIn3",
            Motif::MateIn4 => "mateIn4",
            Motif::BackRankMate => "backRankMate",
            Motif::Fork => "fork",
            Motif::Pin => "pin",
            Motif::Skewer => "skewer",
            Motif::DiscoveredAttack => "discoveredAttack",
            Motif::TrappedPiece => "trappedPiece",
            Motif::HangingPiece => "hangingPiece",
            Motif::Promotion => "promotion",
            Motif::Sacrifice => "sacrifice",
            Motif::DefensiveMove => "defensiveMove",
            Motif::Endgame => "endgame",
            Motif::OneMove => "oneMove",
            Motif::Short => "short",
            Motif::Long => "long",
            Motif::VeryLong => "veryLong",
        }
    }

    /// The motif in words, as the screen shows it: `mate in 2`, `defensive move`.
    pub fn words(self) -> &'static str {
        match self {
            Motif::Mate => "mate",
            Motif::MateIn1 => "mate in 1",
            Motif::MateIn2 => "mate in 2",
            Motif::MateIn3 => "mate in 3",
            Motif::MateIn4 => "mate in 4 or more",
            Motif::BackRankMate => "back-rank mate",
            Motif::Fork => "fork",
            Motif::Pin => "pin",
            Motif::Skewer => "skewer",
            Motif::DiscoveredAttack => "discovered attack",
            Motif::TrappedPiece => "trapped piece",
            Motif::HangingPiece => "hanging piece",
            Motif::Promotion => "promotion",
            Motif::Sacrifice => "sacrifice",
            Motif::DefensiveMove => "defensive move",
            Motif::Endgame => "endgame",
            Motif::OneMove => "one move",
            Motif::Short => "short",
            Motif::Long => "long",
            Motif::VeryLong => "very long",
        }
    }

    /// The motif a name stands for: lichess's (`mateIn2`) or the words (`mate in 2`), in any
    /// case, with or without the spaces and hyphens.
    pub fn parse(name: &str) -> Option<Motif> {
        let wanted = key(name);
        Motif::ALL
            .into_iter()
            .find(|m| key(m.name()) == wanted || key(m.words()) == wanted)
    }
}

/// A theme's name as it is compared: its letters and digits in lower case, so that lichess's
/// `kingsideAttack` and the words `kingside attack` are the same theme.
fn key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `a` and `b` name the same theme (see [`key`]), compared without a copy of either.
pub fn same(a: &str, b: &str) -> bool {
    fn letters(s: &str) -> impl Iterator<Item = char> + '_ {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
    }
    letters(a).eq(letters(b))
}

/// Any of lichess's themes in words, as the screen shows it: a motif's own words, and for the
/// themes this program does not find itself lichess's name taken apart where its words join
/// (`kingsideAttack` is `kingside attack`).
pub fn words(name: &str) -> String {
    if let Some(m) = Motif::parse(name) {
        return m.words().to_string();
    }
    let mut out = String::new();
    let mut last: Option<char> = None;
    for c in name.chars() {
        let joins = last.is_some_and(|l| {
            (l.is_lowercase() && (c.is_uppercase() || c.is_ascii_digit()))
                || (l.is_ascii_digit() && c.is_alphabetic())
        });
        if joins {
            out.push(' ');
        }
        out.extend(c.to_lowercase());
        last = Some(c);
    }
    out
}

use crate::game::pawns_worth as value;

/// `color`'s material less the other side's, in pawns.
pub fn balance(pos: &Chess, color: Color) -> i32 {
    let board = pos.board();
    let side = |c: Color| -> i32 {
        board
            .by_color(c)
            .into_iter()
            .filter_map(|sq| board.role_at(sq))
            .map(value)
            .sum()
    };
    side(color) - side(!color)
}

/// Where a tactic happens in a line: the move that makes it (its index in the line) and the
/// squares it is about (the pieces forked; the pinned or skewered piece and the one behind;
/// the piece a discovered attack or a trap wins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The index in the line of the move that makes it.
    pub at: usize,
    /// The squares it is about.
    pub squares: Vec<Square>,
}

/// The tactics a line from `start` (the side to move first, then the replies) carries out:
/// forks, pins, skewers, discovered attacks and trapped pieces, in that order, each with where
/// it happens.
pub fn tactics_in(start: &Chess, line: &[Move]) -> Vec<(Motif, Seen)> {
    tactics(&walk(start, line), line)
}

/// Every position of `line` played from `start`, the start first.
fn walk(start: &Chess, line: &[Move]) -> Vec<Chess> {
    let mut positions = vec![start.clone()];
    for m in line {
        let mut next = positions[positions.len() - 1].clone();
        next.play_unchecked(*m);
        positions.push(next);
    }
    positions
}

fn tactics(positions: &[Chess], line: &[Move]) -> Vec<(Motif, Seen)> {
    [
        (Motif::Fork, fork(positions, line)),
        (Motif::Pin, pin_or_skewer(positions, line, true)),
        (Motif::Skewer, pin_or_skewer(positions, line, false)),
        (Motif::DiscoveredAttack, discovered(positions, line)),
        (Motif::TrappedPiece, trapped(positions, line)),
    ]
    .into_iter()
    .filter_map(|(motif, seen)| Some((motif, seen?)))
    .collect()
}

/// The motifs of a puzzle that starts at `start` (the solver to move) with `solution` (the
/// solver's moves and the replies), in [`Motif::ALL`]'s order.
pub fn of(start: &Chess, solution: &[Move]) -> Vec<Motif> {
    let solver = start.turn();
    // Every position of the solution, from the start.
    let positions = walk(start, solution);
    let end = &positions[positions.len() - 1];
    let solver_moves = solution.len().div_ceil(2);
    let mut found = Vec::new();
    if end.is_checkmate() {
        found.push(Motif::Mate);
        found.push(match solver_moves {
            1 => Motif::MateIn1,
            2 => Motif::MateIn2,
            3 => Motif::MateIn3,
            _ => Motif::MateIn4,
        });
        if back_rank_mate(end) {
            found.push(Motif::BackRankMate);
        }
    }
    found.extend(
        tactics(&positions, solution)
            .into_iter()
            .map(|(motif, _)| motif),
    );
    if hanging(start, solution[0]) {
        found.push(Motif::HangingPiece);
    }
    if solution.iter().step_by(2).any(|m| m.is_promotion()) {
        found.push(Motif::Promotion);
    }
    // Down two pawns or more after one of the opponent's replies, against the start.
    let at_start = balance(start, solver);
    if positions
        .iter()
        .skip(2)
        .step_by(2)
        .any(|pos| balance(pos, solver) <= at_start - 2)
    {
        found.push(Motif::Sacrifice);
    }
    if defensive(&positions, solution) {
        found.push(Motif::DefensiveMove);
    }
    let board = start.board();
    let pieces = (board.occupied() & !board.pawns() & !board.kings()).count();
    if pieces <= 3 || (pieces <= 4 && board.queens().is_empty()) {
        found.push(Motif::Endgame);
    }
    found.push(match solver_moves {
        1 => Motif::OneMove,
        2 => Motif::Short,
        3 => Motif::Long,
        _ => Motif::VeryLong,
    });
    found.sort();
    found.dedup();
    found
}

/// The side to move is mated on its back rank by a rook or queen along it, its king shut in by
/// its own pieces on the rank in front.
fn back_rank_mate(pos: &Chess) -> bool {
    let mated = pos.turn();
    let board = pos.board();
    let Some(king) = board.king_of(mated) else {
        return false;
    };
    let back = mated.fold_wb(Rank::First, Rank::Eighth);
    if king.rank() != back {
        return false;
    }
    let checkers = pos.checkers();
    let along = checkers
        .into_iter()
        .all(|sq| sq.rank() == back && matches!(board.role_at(sq), Some(Role::Rook | Role::Queen)));
    // The squares in front of the king that its own pieces block.
    let front = shakmaty::attacks::king_attacks(king) & !Bitboard::from(back);
    let own_block = front
        .into_iter()
        .all(|sq| board.by_color(mated).contains(sq));
    !checkers.is_empty() && along && own_block
}

/// A solver move whose piece then attacks two of the opponent's pieces worth more than it (or
/// the king), and a later solver move takes one of them: the move and the pieces attacked.
fn fork(positions: &[Chess], solution: &[Move]) -> Option<Seen> {
    for i in (0..solution.len()).step_by(2) {
        let m = solution[i];
        let after = &positions[i + 1];
        let board = after.board();
        let Some(role) = board.role_at(m.to()) else {
            continue;
        };
        if role == Role::King {
            continue;
        }
        let attacked = shakmaty::attacks::attacks(
            m.to(),
            shakmaty::Piece {
                color: !after.turn(),
                role,
            },
            board.occupied(),
        ) & board.by_color(after.turn());
        let targets: Vec<Square> = attacked
            .into_iter()
            .filter(|&sq| {
                board
                    .role_at(sq)
                    .is_some_and(|r| r == Role::King || value(r) > value(role))
            })
            .collect();
        if targets.len() < 2 {
            continue;
        }
        let wins_one = solution
            .iter()
            .skip(i + 2)
            .step_by(2)
            .any(|later| later.is_capture() && targets.contains(&later.to()));
        if wins_one {
            return Some(Seen {
                at: i,
                squares: targets,
            });
        }
    }
    None
}

/// Whether a later solver move (after the one at `i`) takes on `sq`.
fn taken_later(solution: &[Move], i: usize, sq: Square) -> bool {
    solution
        .iter()
        .skip(i + 2)
        .step_by(2)
        .any(|m| m.is_capture() && m.to() == sq)
}

/// A solver move that puts a line piece (bishop, rook, queen) on a line through two of the
/// opponent's pieces, with nothing else between: a pin when the nearer one is the weaker and
/// the farther is the king or stronger (the nearer is later taken), a skewer when the nearer
/// is the king or the stronger (the farther is later taken): the move, the nearer piece and
/// the farther.
fn pin_or_skewer(positions: &[Chess], solution: &[Move], pin: bool) -> Option<Seen> {
    use shakmaty::attacks::{attacks, between};
    for i in (0..solution.len()).step_by(2) {
        let m = solution[i];
        let after = &positions[i + 1];
        let board = after.board();
        let at = m.to();
        let Some(piece) = board.piece_at(at) else {
            continue;
        };
        if !matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen) {
            continue;
        }
        let theirs = board.by_color(!piece.color);
        // Every opponent piece on the piece's lines, and what stands between.
        let on_lines = attacks(at, piece, Bitboard::EMPTY) & theirs;
        for far in on_lines {
            let blockers = between(at, far) & board.occupied();
            let Some(near) = blockers.first() else {
                continue;
            };
            if blockers.count() != 1 || !theirs.contains(near) {
                continue;
            }
            let (Some(near_role), Some(far_role)) = (board.role_at(near), board.role_at(far))
            else {
                continue;
            };
            let worth = |r: Role| if r == Role::King { 100 } else { value(r) };
            let found = if pin {
                near_role != Role::King
                    && worth(far_role) > worth(near_role)
                    && taken_later(solution, i, near)
            } else {
                worth(near_role) > worth(far_role)
                    && worth(near_role) >= 5
                    && taken_later(solution, i, far)
            };
            if found {
                return Some(Seen {
                    at: i,
                    squares: vec![near, far],
                });
            }
        }
    }
    None
}

/// A solver move that uncovers an attack of a line piece behind it: on the king (a
/// discovered check) or on a piece a later solver move takes: the move and the piece attacked.
fn discovered(positions: &[Chess], solution: &[Move]) -> Option<Seen> {
    use shakmaty::attacks::{attacks, between};
    for i in (0..solution.len()).step_by(2) {
        let m = solution[i];
        let Some(from) = m.from() else {
            continue;
        };
        let after = &positions[i + 1];
        let board = after.board();
        let solver = !after.turn();
        let lines = board.by_color(solver) & (board.bishops() | board.rooks() | board.queens());
        for s in lines {
            if s == m.to() {
                continue;
            }
            let Some(piece) = board.piece_at(s) else {
                continue;
            };
            let hit = attacks(s, piece, board.occupied()) & board.by_color(!solver);
            for t in hit {
                if !between(s, t).contains(from) {
                    continue;
                }
                let king = board.role_at(t) == Some(Role::King);
                let won =
                    board.role_at(t).is_some_and(|r| value(r) >= 3) && taken_later(solution, i, t);
                if king || won {
                    return Some(Seen {
                        at: i,
                        squares: vec![t],
                    });
                }
            }
        }
    }
    None
}

/// After a solver move (not a capture of it), an opponent piece worth a knight or more is
/// attacked and every square it can go to is attacked too; a later solver move takes it: the
/// move and the piece.
fn trapped(positions: &[Chess], solution: &[Move]) -> Option<Seen> {
    for i in (0..solution.len()).step_by(2) {
        let after = &positions[i + 1];
        let board = after.board();
        let solver = !after.turn();
        let theirs = board.by_color(!solver) & !board.pawns() & !board.kings();
        for sq in theirs {
            let attacked = |to: Square| !board.attacks_to(to, solver, board.occupied()).is_empty();
            if board.role_at(sq).is_none_or(|r| value(r) < 3)
                || !attacked(sq)
                || !taken_later(solution, i, sq)
            {
                continue;
            }
            // Where it could go were it not for a check or a pin: a piece held by those is
            // not trapped.
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            let reach = shakmaty::attacks::attacks(sq, piece, board.occupied())
                & !board.by_color(piece.color);
            if !reach.into_iter().any(|to| !attacked(to)) {
                return Some(Seen {
                    at: i,
                    squares: vec![sq],
                });
            }
        }
    }
    None
}

/// The solver's last move is a quiet one among at least three: it gives no check, takes
/// nothing, attacks none of the opponent's pieces from where it lands, is no pawn run to the
/// last ranks and threatens no mate. What it does is parry a threat, so the puzzle is about
/// defending.
fn defensive(positions: &[Chess], solution: &[Move]) -> bool {
    let last = solution.len() - 1;
    let (before, after, m) = (&positions[last], &positions[last + 1], solution[last]);
    if before.legal_moves().len() < 3 || after.is_check() || m.is_capture() {
        return false;
    }
    // A quiet move that closes a mating net is the attack at its sharpest.
    if threatens_mate(after) {
        return false;
    }
    let board = after.board();
    let Some(piece) = board.piece_at(m.to()) else {
        return false;
    };
    if m.role() == Role::Pawn {
        let rank = m.to().rank();
        if piece
            .color
            .fold_wb(rank >= Rank::Sixth, rank <= Rank::Third)
        {
            return false;
        }
    }
    let attacked = shakmaty::attacks::attacks(m.to(), piece, board.occupied())
        & board.by_color(!piece.color)
        & !board.pawns();
    attacked.is_empty()
}

/// Whether the side that just moved in `pos` would force mate were it to move again: at once,
/// or by checks within [`THREAT_MOVES`] of its moves.
fn threatens_mate(pos: &Chess) -> bool {
    pos.clone()
        .swap_turn()
        .is_ok_and(|again| mates_by_checks(&again, THREAT_MOVES))
}

/// How many moves of a mate by checks [`threatens_mate`] looks for.
const THREAT_MOVES: u32 = 2;

/// Whether the side to move in `pos` mates within `moves` of its moves, every one before the
/// mate a check (so the search stays small: a check leaves few replies).
fn mates_by_checks(pos: &Chess, moves: u32) -> bool {
    pos.legal_moves().into_iter().any(|m| {
        let mut next = pos.clone();
        next.play_unchecked(m);
        if next.is_checkmate() {
            return true;
        }
        moves > 1
            && next.is_check()
            && next.legal_moves().into_iter().all(|reply| {
                let mut after = next.clone();
                after.play_unchecked(reply);
                mates_by_checks(&after, moves - 1)
            })
    })
}

/// The first move takes a piece (not a pawn) that nothing defended.
pub fn hanging(start: &Chess, first: Move) -> bool {
    let Some(taken) = first.capture() else {
        return false;
    };
    if taken == Role::Pawn {
        return false;
    }
    let board = start.board();
    let defenders = board.attacks_to(first.to(), !start.turn(), board.occupied());
    defenders.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn parse_uci(pos: &Chess, text: &str) -> Option<Move> {
        UciMove::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok()
    }

    #[test]
    fn any_lichess_theme_reads_in_words_and_compares_by_its_letters() {
        for (name, shown) in [
            ("mateIn2", "mate in 2"),
            ("defensiveMove", "defensive move"),
            ("kingsideAttack", "kingside attack"),
            ("crushing", "crushing"),
            ("attackingF2F7", "attacking f2 f7"),
            ("queenRookEndgame", "queen rook endgame"),
        ] {
            assert_eq!(words(name), shown);
            assert_eq!(key(name), key(shown), "{name}");
            assert!(same(name, shown), "{name}");
        }
        assert_ne!(key("fork"), key("forks"));
        assert!(!same("fork", "forks"));
    }

    /// A puzzle as its motifs see it: the start, the solver to move, and the solution.
    struct Line {
        start: Chess,
        solution: Vec<Move>,
    }

    /// The puzzle whose position before is `fen` and whose moves (the opponent's first) are
    /// `moves`.
    fn puzzle(fen: &str, moves: &[&str]) -> Line {
        let mut pos = crate::fen::position(fen).unwrap();
        let mut played: Vec<Move> = moves
            .iter()
            .map(|m| {
                let mv = parse_uci(&pos, m).unwrap();
                pos.play_unchecked(mv);
                mv
            })
            .collect();
        let mut start = crate::fen::position(fen).unwrap();
        start.play_unchecked(played.remove(0));
        Line {
            start,
            solution: played,
        }
    }

    fn motifs_of(p: &Line) -> Vec<Motif> {
        of(&p.start, &p.solution)
    }

    #[test]
    fn a_back_rank_mate_in_two() {
        let p = puzzle(
            "3r2k1/5ppp/4q3/8/8/8/P3RPPP/4R1K1 b - - 0 1",
            &["e6a2", "e2e8", "d8e8", "e1e8"],
        );
        assert_eq!(
            motifs_of(&p),
            [
                Motif::Mate,
                Motif::MateIn2,
                Motif::BackRankMate,
                Motif::Sacrifice,
                Motif::Short
            ]
        );
    }

    #[test]
    fn a_knight_fork_that_wins_the_queen() {
        let p = puzzle(
            "3r2k1/p4ppp/8/3N4/q7/8/P4PPP/4R1K1 b - - 0 1",
            &["a4c6", "d5e7", "g8f8", "e7c6"],
        );
        assert_eq!(motifs_of(&p), [Motif::Fork, Motif::Short]);
    }

    #[test]
    fn a_pin_a_skewer_and_a_discovered_check() {
        // Re1 pins the knight to the king, and takes it later.
        let p = puzzle(
            "3k4/8/8/4n3/8/8/5PPP/R5K1 b - - 0 1",
            &["d8e8", "a1e1", "e8f7", "e1e5"],
        );
        assert!(motifs_of(&p).contains(&Motif::Pin), "{:?}", motifs_of(&p));
        assert!(!motifs_of(&p).contains(&Motif::Skewer));
        // Ra8+ skewers king and queen on the back rank.
        let p = puzzle(
            "3k3q/8/8/8/8/8/8/R5K1 b - - 0 1",
            &["d8e8", "a1a8", "e8e7", "a8h8"],
        );
        assert!(
            motifs_of(&p).contains(&Motif::Skewer),
            "{:?}",
            motifs_of(&p)
        );
        assert!(!motifs_of(&p).contains(&Motif::Pin));
        // Bxh7 takes the queen and uncovers the rook's check.
        let p = puzzle("3k4/6q1/8/8/8/3B4/8/3RK3 b - - 0 1", &["g7h7", "d3h7"]);
        let motifs = motifs_of(&p);
        assert!(motifs.contains(&Motif::DiscoveredAttack), "{motifs:?}");
        assert!(motifs.contains(&Motif::HangingPiece), "{motifs:?}");
        // b3 shuts the bishop in on a2; the king walks over and takes it.
        let p = puzzle(
            "4k3/7p/4b3/8/8/8/PPP5/2K5 b - - 0 1",
            &["e6a2", "b2b3", "h7h6", "c1b2", "h6h5", "b2a2"],
        );
        assert!(
            motifs_of(&p).contains(&Motif::TrappedPiece),
            "{:?}",
            motifs_of(&p)
        );
        // None of them in a plain fork.
        let p = puzzle(
            "3r2k1/p4ppp/8/3N4/q7/8/P4PPP/4R1K1 b - - 0 1",
            &["a4c6", "d5e7", "g8f8", "e7c6"],
        );
        let motifs = motifs_of(&p);
        assert!(!motifs.contains(&Motif::Pin) && !motifs.contains(&Motif::Skewer));
        assert!(!motifs.contains(&Motif::DiscoveredAttack), "{motifs:?}");
        assert!(!motifs.contains(&Motif::TrappedPiece), "{motifs:?}");
    }

    #[test]
    fn a_hanging_piece_a_promotion_and_an_endgame() {
        // A loose rook taken at once.
        let p = puzzle("4k3/8/8/8/8/8/r7/R3K3 b - - 0 1", &["e8d7", "a1a2"]);
        assert_eq!(
            motifs_of(&p),
            [Motif::HangingPiece, Motif::Endgame, Motif::OneMove]
        );
        // A pawn that queens.
        let p = puzzle("8/1P6/8/8/8/8/k7/4K3 b - - 0 1", &["a2a3", "b7b8q"]);
        assert!(motifs_of(&p).contains(&Motif::Promotion));
        assert_eq!(Motif::parse("backRankMate"), Some(Motif::BackRankMate));
        assert_eq!(Motif::parse("defensiveMove"), Some(Motif::DefensiveMove));
        assert_eq!(Motif::parse("nonsense"), None);
        assert_eq!(
            Motif::parse("mateIn5"),
            None,
            "lichess's themes we do not find"
        );
    }

    #[test]
    fn every_motif_reads_in_words_and_both_names_are_understood() {
        for m in Motif::ALL {
            let words = m.words();
            assert!(
                words.chars().all(|c| !c.is_ascii_uppercase()),
                "{words}: words, not an id"
            );
            assert_eq!(Motif::parse(words), Some(m));
            assert_eq!(Motif::parse(m.name()), Some(m));
        }
        assert_eq!(Motif::MateIn2.words(), "mate in 2");
        assert_eq!(Motif::DefensiveMove.words(), "defensive move");
        assert_eq!(Motif::VeryLong.words(), "very long");
        assert_eq!(Motif::parse("Back rank mate"), Some(Motif::BackRankMate));
    }

    #[test]
    fn a_quiet_move_that_closes_a_mating_net_is_not_defensive() {
        // Ac6fT: ...Rh6+ Kg4 Rc5, quiet, and Rh4 mates next: the line is an attack on the
        // king (a mate in 7 in the end), not a defence.
        let p = puzzle(
            "6k1/4R3/1pp2r2/p5p1/PP3p2/5P1K/2r5/1R6 w - - 0 42",
            &["b4a5", "f6h6", "h3g4", "c2c5"],
        );
        assert!(
            !motifs_of(&p).contains(&Motif::DefensiveMove),
            "{:?}",
            motifs_of(&p)
        );
        // OxPmh: Bf6, quiet, and g4+ then mates, whatever the king does.
        let p = puzzle(
            "6R1/p7/rp2p2p/1b5k/8/P3KP1P/PB2P1P1/8 b - - 2 33",
            &["a6a4", "b2f6"],
        );
        assert!(
            !motifs_of(&p).contains(&Motif::DefensiveMove),
            "{:?}",
            motifs_of(&p)
        );
    }

    #[test]
    fn a_quiet_move_that_meets_a_threat_is_defensive_and_a_capture_is_not() {
        // Re8 threatens mate on the back rank; h3 makes room for the king.
        let p = puzzle("6k1/5ppp/8/4r3/8/8/5PPP/R5K1 b - - 0 1", &["e5e8", "h2h3"]);
        assert!(
            motifs_of(&p).contains(&Motif::DefensiveMove),
            "{:?}",
            motifs_of(&p)
        );
        // A rook that lands attacking a piece is no defensive move, nor is a check.
        let p = puzzle("6k1/5ppp/8/4r3/8/8/5PPP/R5K1 b - - 0 1", &["e5e8", "a1a8"]);
        assert!(
            !motifs_of(&p).contains(&Motif::DefensiveMove),
            "{:?}",
            motifs_of(&p)
        );
        let p = puzzle("4k3/8/8/8/8/8/r7/R3K3 b - - 0 1", &["e8d7", "a1a2"]);
        assert!(!motifs_of(&p).contains(&Motif::DefensiveMove));
        // A pawn running to the last ranks is an attack, not a defence.
        let p = puzzle("8/8/1P6/8/8/8/k7/4K3 b - - 0 1", &["a2a3", "b6b7"]);
        assert!(!motifs_of(&p).contains(&Motif::DefensiveMove));
        let p = puzzle("8/1P6/8/8/8/8/k7/4K3 b - - 0 1", &["a2a3", "b7b8q"]);
        assert!(!motifs_of(&p).contains(&Motif::DefensiveMove));
    }
}
