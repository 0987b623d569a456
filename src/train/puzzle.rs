//! Puzzles from games, by the rules lichess-puzzler publishes: a puzzle starts right after a
//! mistake, and from there the side to move (the solver) has one clearly best move at every
//! turn: a forced mate where every solver move is the only one that mates, or a line where the
//! best move's winning chances beat the second best's by a wide margin. The opponent answers
//! with the engine's best move. Searches run at full strength with the tablebases, to a fixed
//! node count (so a build finds the same puzzles on any machine).
//!
//! A puzzle is written as lichess's puzzle database writes one: the FEN before the opponent's
//! mistake, then the mistake and the solution in UCI.

use std::sync::Arc;

use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use crate::bot::Bot;
use crate::engine::{Config, Control, Engine, Info, Limits};
use crate::motifs::{self, Motif};
use crate::review::analyse::eval_of;
use crate::review::judge::{Eval, winning_chances};
use crate::tablebase::Tablebases;

/// How much more of the winning chances (lichess's -1..1 scale) the best move must keep than
/// the second best, for it to be the one clear move.
pub const CLEAR_MARGIN: f64 = 0.5;
/// The solver's winning chances a line must reach to be worth solving (about +3 pawns).
pub const WON: f64 = 0.5;
/// The most solver moves in a puzzle.
pub const MAX_SOLVER_MOVES: usize = 5;
/// How much of the mover's winning chances a move must throw away to be a mistake a puzzle
/// can start from (the review's blunder).
pub const MISTAKE_DROP: f64 = 0.3;

/// A puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// A short id: a hash of the position and the moves.
    pub id: String,
    /// The position before the opponent's mistake.
    pub before: Chess,
    /// The mistake, then the solution (solver and opponent in turn, ending with the solver).
    pub moves: Vec<Move>,
    /// Its rating: the Elo at which a player solves it half the time ([`rating_of`]).
    pub rating: i32,
    /// Its motifs (lichess's themes).
    pub motifs: Vec<Motif>,
    /// What lichess's database says of it, for a puzzle imported from there.
    pub lichess: Option<Box<Lichess>>,
}

/// What lichess's puzzle database says of a puzzle besides its position, moves and rating:
/// kept for a puzzle imported from it, shown on its screen and written back by `puzzles export`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lichess {
    /// How far the rating may be off.
    pub rating_deviation: i32,
    /// The players' votes, from -100 (all down) to 100 (all up).
    pub popularity: i32,
    /// How many times it was played.
    pub plays: i64,
    /// Its themes, lichess's names as the file writes them (`crushing fork middlegame`).
    pub themes: String,
    /// The game it comes from.
    pub game_url: String,
    /// Its opening, as lichess's tags (`Sicilian_Defense Sicilian_Defense_Other_variations`).
    pub opening_tags: String,
}

impl Puzzle {
    /// The position the solver sees.
    pub fn start(&self) -> Chess {
        let mut pos = self.before.clone();
        pos.play_unchecked(self.moves[0]);
        pos
    }

    /// The solver's side.
    pub fn solver(&self) -> Color {
        !self.before.turn()
    }

    /// Its themes by lichess's names: all of lichess's for an imported puzzle, the motifs for
    /// one of the built-in set.
    pub fn themes(&self) -> Vec<&str> {
        match &self.lichess {
            Some(l) => l.themes.split_whitespace().collect(),
            None => self.motifs.iter().map(|m| m.name()).collect(),
        }
    }

    /// A line of lichess's puzzle CSV: `PuzzleId,FEN,Moves,Rating,Themes`.
    pub fn csv(&self) -> String {
        let fen = shakmaty::fen::Fen::from_position(&self.before, EnPassantMode::Legal);
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        let motifs: Vec<&str> = self.motifs.iter().map(|t| t.name()).collect();
        format!(
            "{},{fen},{},{},{}",
            self.id,
            moves.join(" "),
            self.rating,
            motifs.join(" ")
        )
    }
}

/// Which puzzles are offered: those of one theme (lichess's name for it), those in a rating
/// range, or both; every puzzle when neither.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// The theme, by lichess's name (`fork`, `mateIn2`, `kingsideAttack`).
    pub theme: Option<String>,
    /// The lowest and the highest rating.
    pub range: Option<(i32, i32)>,
}

impl Filter {
    /// Whether it lets every puzzle through.
    pub fn is_empty(&self) -> bool {
        self.theme.is_none() && self.range.is_none()
    }

    /// Whether it lets `p` through.
    pub fn fits(&self, p: &Puzzle) -> bool {
        let theme = self
            .theme
            .as_deref()
            .is_none_or(|wanted| p.themes().iter().any(|t| motifs::same(t, wanted)));
        theme
            && self
                .range
                .is_none_or(|(lo, hi)| (lo..=hi).contains(&p.rating))
    }
}

/// A rating range, `1200-1600` (the lower first).
pub fn parse_range(text: &str) -> Option<(i32, i32)> {
    let (lo, hi) = text.split_once('-')?;
    let (lo, hi) = (
        lo.trim().parse::<i32>().ok()?,
        hi.trim().parse::<i32>().ok()?,
    );
    (lo <= hi).then_some((lo, hi))
}

/// The header of lichess's puzzle CSV, as `puzzles export` writes it.
pub const CSV_HEADER: &str = "PuzzleId,FEN,Moves,Rating,Themes";

/// The puzzle set built into the program (`assets/puzzles.csv`, made by
/// `tools/build-puzzles.sh`), its motifs found afresh by this build's detectors.
pub fn built_in() -> Vec<Puzzle> {
    read_csv(include_str!("../../assets/puzzles.csv").as_bytes())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(_, p)| p.ok())
        .map(|mut p| {
            p.motifs = motifs::of(&p.start(), &p.moves[1..]);
            p
        })
        .collect()
}

/// The columns a puzzle is read from, by their place in a row.
#[derive(Clone, Copy, Debug)]
struct Columns {
    id: usize,
    fen: usize,
    moves: usize,
    rating: usize,
    /// The motifs, in the `Themes` column: absent in a file without one.
    motifs: Option<usize>,
}

impl Columns {
    /// The layout `puzzles export` writes: `PuzzleId,FEN,Moves,Rating,Themes`.
    const OURS: Columns = Columns {
        id: 0,
        fen: 1,
        moves: 2,
        rating: 3,
        motifs: Some(4),
    };
    /// Lichess's own file: `PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,
    /// Themes,GameUrl,OpeningTags[,DailyDate]`.
    const LICHESS: Columns = Columns {
        id: 0,
        fen: 1,
        moves: 2,
        rating: 3,
        motifs: Some(7),
    };

    /// The columns a header names (in any order, in any case); `None` when it is no header.
    fn of_header(header: &csv::StringRecord) -> Option<Result<Columns, String>> {
        let find = |name: &str| {
            header
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
        };
        let id = find("PuzzleId")?;
        let column = |name: &str| {
            find(name).ok_or_else(|| {
                format!(
                    "the header has no {name} column: {:?}",
                    header.iter().collect::<Vec<_>>().join(",")
                )
            })
        };
        Some((|| {
            Ok(Columns {
                id,
                fen: column("FEN")?,
                moves: column("Moves")?,
                rating: column("Rating")?,
                motifs: find("Themes"),
            })
        })())
    }

    /// The puzzle of `row`.
    fn puzzle(&self, row: &csv::StringRecord) -> Result<Puzzle, String> {
        let field = |i: usize| {
            row.get(i).ok_or_else(|| {
                format!(
                    "not a puzzle row ({} fields, {} wanted): {:?}",
                    row.len(),
                    i + 1,
                    row.iter().collect::<Vec<_>>().join(",")
                )
            })
        };
        let motifs = match self.motifs {
            Some(i) => field(i)?,
            None => "",
        };
        puzzle_of(
            field(self.id)?,
            field(self.fen)?,
            field(self.moves)?,
            field(self.rating)?,
            motifs,
        )
    }
}

/// A row of a puzzle CSV: the line it starts on, and its puzzle or why it is not one.
pub type Row = (u64, Result<Puzzle, String>);

/// Reads a puzzle CSV: lichess's own file (with or without its header) or what `puzzles
/// export` writes. Columns are found by the header's names, a byte-order mark is dropped and
/// quoted fields are read as CSV has them. Each row's puzzle or why it is not one, with the line
/// the row starts on; `Err` when the header lacks a column a puzzle needs, or the text cannot be
/// read.
pub fn read_csv(source: impl std::io::Read) -> Result<Vec<Row>, String> {
    let mut source = std::io::BufReader::new(source);
    // A byte-order mark is not part of the first column's name.
    {
        use std::io::BufRead as _;
        let start = source.fill_buf().map_err(|e| e.to_string())?;
        if start.starts_with(b"\xef\xbb\xbf") {
            source.consume(3);
        }
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(source);
    let mut columns: Option<Columns> = None;
    let mut out = Vec::new();
    let mut row = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut row) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                out.push((line, Err(format!("cannot be read as CSV: {e}"))));
                // A reader that failed is at no known place: nothing after it is trusted.
                if !matches!(e.kind(), csv::ErrorKind::Utf8 { .. }) {
                    break;
                }
                continue;
            }
        }
        let line = row.position().map_or(0, |p| p.line());
        if row.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let layout = match columns {
            Some(c) => c,
            None => match Columns::of_header(&row) {
                Some(header) => {
                    columns = Some(header?);
                    continue;
                }
                // No header: lichess's layout when the row is as wide as lichess's rows.
                None if row.len() >= 9 => *columns.insert(Columns::LICHESS),
                None => *columns.insert(Columns::OURS),
            },
        };
        out.push((line, layout.puzzle(&row)));
    }
    Ok(out)
}

/// Reads one line of a puzzle CSV in the layout `puzzles export` writes
/// (`PuzzleId,FEN,Moves,Rating,Themes`; fields after those are ignored): the position must be
/// legal and every move legal in turn.
pub fn from_csv(line: &str) -> Result<Puzzle, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes());
    let mut row = csv::StringRecord::new();
    match reader.read_record(&mut row) {
        Ok(true) if row.len() >= 5 => Columns::OURS.puzzle(&row),
        _ => Err(format!(
            "not a puzzle line (PuzzleId,FEN,Moves,Rating,Themes): {line:?}"
        )),
    }
}

/// The puzzle of one row's fields: the position must be legal and every move legal in turn.
fn puzzle_of(
    id: &str,
    fen: &str,
    moves: &str,
    rating: &str,
    motifs: &str,
) -> Result<Puzzle, String> {
    let (before, list) = checked(id, fen, moves)?;
    let rating = rating
        .trim()
        .parse::<i32>()
        .map_err(|_| format!("puzzle {id}: {rating:?} is not a rating"))?;
    Ok(Puzzle {
        id: id.to_string(),
        before,
        moves: list,
        rating,
        motifs: motifs.split_whitespace().filter_map(Motif::parse).collect(),
        lichess: None,
    })
}

/// The position of `fen` and the `moves` (UCI, space-separated) played from it: the position
/// must be legal, every move legal in turn, and the moves the opponent's then the solution,
/// ending with the solver's. Why not, naming puzzle `id`, when they are not.
pub fn checked(id: &str, fen: &str, moves: &str) -> Result<(Chess, Vec<Move>), String> {
    let before = crate::fen::position(fen).map_err(|e| format!("puzzle {id}: {e}"))?;
    let mut pos = before.clone();
    let mut list = Vec::new();
    for text in moves.split_whitespace() {
        let m = super::mistake::parse_uci(&pos, text)
            .ok_or_else(|| format!("puzzle {id}: {text} is not a legal move"))?;
        pos.play_unchecked(m);
        list.push(m);
    }
    if list.len() < 2 || !list.len().is_multiple_of(2) {
        return Err(format!(
            "puzzle {id}: the moves must be the opponent's move and the solution, ending with \
             the solver's"
        ));
    }
    Ok((before, list))
}

/// A puzzle of lichess's database: its id, FEN, moves (UCI) and rating, and the rest of its
/// row; its motifs are those of lichess's themes this program knows.
pub fn imported(
    id: &str,
    fen: &str,
    moves: &str,
    rating: i32,
    lichess: Lichess,
) -> Result<Puzzle, String> {
    let (before, list) = checked(id, fen, moves)?;
    Ok(Puzzle {
        id: id.to_string(),
        before,
        moves: list,
        rating,
        motifs: lichess
            .themes
            .split_whitespace()
            .filter_map(Motif::parse)
            .collect(),
        lichess: Some(Box::new(lichess)),
    })
}

/// One line of a search with several lines: its first move and score (side to move's view).
#[derive(Clone, Debug)]
struct Line {
    mv: Move,
    score: i32,
}

/// Finds puzzles: a full-strength engine with the tablebases and a node budget per search.
pub struct Generator {
    engine: Engine,
    nodes: u64,
}

impl Generator {
    /// A generator searching `nodes` nodes per position, with `tablebases` (the built-in ones
    /// when `None`).
    pub fn new(nodes: u64, tablebases: Option<Arc<Tablebases>>) -> Generator {
        // Every search starts from an empty table (a puzzle's check must not lean on another
        // position's), and the searches are small: a small table clears in a fraction of the
        // time a default one takes, which was a good part of building a set.
        let mut engine = Engine::new(Config {
            hash_mb: 2,
            ..Config::default()
        });
        engine.set_tablebases(Some(
            tablebases.unwrap_or_else(|| Arc::new(Tablebases::embedded())),
        ));
        Generator { engine, nodes }
    }

    /// The best two lines of `pos` (one when there is only one legal move).
    fn lines(&mut self, pos: &Chess) -> Vec<Line> {
        let limits = Limits {
            multipv: 2,
            ..Limits::nodes(self.nodes)
        };
        let mut lines: Vec<Option<Line>> = vec![None, None];
        let mut take = |info: &Info| {
            if let (Some(&mv), Some(slot)) = (
                info.pv.first(),
                lines.get_mut(info.multipv.max(1) as usize - 1),
            ) {
                *slot = Some(Line {
                    mv,
                    score: info.score,
                });
            }
        };
        self.engine.clear();
        let result = self
            .engine
            .search(pos, &[], &limits, &Control::default(), &mut take);
        let mut out: Vec<Line> = lines.into_iter().flatten().collect();
        // The search's own choice is the best line, whatever the reports said last.
        if let Some(best) = result.best {
            match out.first_mut() {
                Some(first) => {
                    first.mv = best;
                    first.score = result.score;
                }
                None => out.push(Line {
                    mv: best,
                    score: result.score,
                }),
            }
        }
        out.truncate(pos.legal_moves().len());
        out
    }

    /// The solver's winning chances for a score from the side to move's view in `pos`.
    fn chances(pos: &Chess, score: i32) -> f64 {
        let white = winning_chances(eval_of(score, pos.turn()));
        pos.turn().fold_wb(white, -white)
    }

    /// Whether `score` (side to move's view) is a forced mate for the side to move.
    fn mates(pos: &Chess, score: i32) -> bool {
        matches!(eval_of(score, pos.turn()), Eval::Mate(n) if (n > 0) == pos.turn().is_white())
    }

    /// A puzzle from the game position `before`, where `mistake` was played, if the mistake
    /// threw at least [`MISTAKE_DROP`] of the mover's chances away and the other side then
    /// has one clear line to a won position or a mate.
    pub fn from_mistake(&mut self, before: &Chess, mistake: Move) -> Option<Puzzle> {
        if !before.is_legal(mistake) {
            return None;
        }
        let mut start = before.clone();
        start.play_unchecked(mistake);
        if start.is_game_over() {
            return None;
        }
        // The mistake: the mover's chances before against after it.
        let was = self
            .lines(before)
            .first()
            .map(|l| Self::chances(before, l.score))?;
        let solution = self.solution(&start)?;
        // Taking back what the mistake took, and nothing more, is no puzzle.
        if solution.len() == 1 && mistake.is_capture() && solution[0].to() == mistake.to() {
            return None;
        }
        let first = self.lines(&start);
        let now = -Self::chances(&start, first.first()?.score);
        if was - now < MISTAKE_DROP {
            return None;
        }
        let mut moves = vec![mistake];
        moves.extend(solution);
        let mut puzzle = Puzzle {
            id: String::new(),
            before: before.clone(),
            moves,
            rating: 0,
            motifs: Vec::new(),
            lichess: None,
        };
        puzzle.id = id_of(&puzzle);
        puzzle.motifs = motifs::of(&puzzle.start(), &puzzle.moves[1..]);
        puzzle.rating = self.rate(&puzzle);
        Some(puzzle)
    }

    /// The solver's clear line from `start` (solver to move), ending with a solver move, or
    /// `None` when the first move is not clear or the line wins nothing.
    pub fn solution(&mut self, start: &Chess) -> Option<Vec<Move>> {
        let mut pos = start.clone();
        let mut line: Vec<Move> = Vec::new();
        let mut mate = false;
        for turn in 0..MAX_SOLVER_MOVES {
            let lines = self.lines(&pos);
            let best = lines.first()?;
            let clear = match lines.get(1) {
                // The only legal move is clear, but never a puzzle's first move.
                None => turn > 0,
                Some(second) => {
                    if Self::mates(&pos, best.score) {
                        !Self::mates(&pos, second.score)
                    } else {
                        Self::chances(&pos, best.score) - Self::chances(&pos, second.score)
                            >= CLEAR_MARGIN
                    }
                }
            };
            if !clear {
                if turn == 0 {
                    return None;
                }
                // The puzzle ends with the solver's last clear move: drop the reply after it.
                line.pop();
                break;
            }
            mate = Self::mates(&pos, best.score);
            let won = Self::chances(&pos, best.score);
            pos.play_unchecked(best.mv);
            line.push(best.mv);
            if pos.is_game_over() {
                break;
            }
            // A won position after a move that needs no follow-up ends a material puzzle.
            if !mate && won >= WON && turn + 1 == MAX_SOLVER_MOVES {
                break;
            }
            let reply = self.lines(&pos).first()?.mv;
            pos.play_unchecked(reply);
            line.push(reply);
        }
        if line.len().is_multiple_of(2) {
            line.pop();
        }
        // Worth solving: a mate, or a won position at the end.
        let mut end = start.clone();
        for m in &line {
            end.play_unchecked(*m);
        }
        let solved = end.is_checkmate() || {
            let lines = self.lines(&end);
            let score = lines.first().map_or(0, |l| l.score);
            // The opponent is to move at the end: the solver's chances are the opposite.
            -Self::chances(&end, score) >= WON || mate
        };
        (solved && !line.is_empty()).then_some(line)
    }
}

impl Generator {
    /// The puzzles of `game`: each move that threw [`MISTAKE_DROP`] of its side's chances away
    /// by a quick search (`scan_nodes` a position) is tried as a puzzle's start.
    pub fn from_game(&mut self, game: &crate::game::Game, scan_nodes: u64) -> Vec<Puzzle> {
        let deep = self.nodes;
        self.nodes = scan_nodes;
        // White's chances in every position of the game.
        let chances: Vec<Option<f64>> = (0..=game.ply())
            .map(|ply| {
                let pos = game.position_at(ply);
                if pos.is_game_over() {
                    return None;
                }
                let line = self.lines(pos).into_iter().next()?;
                let mine = Self::chances(pos, line.score);
                Some(pos.turn().fold_wb(mine, -mine))
            })
            .collect();
        self.nodes = deep;
        let mut found = Vec::new();
        for (ply, &mistake) in game.moves().iter().enumerate() {
            let (Some(was), Some(now)) = (chances[ply], chances.get(ply + 1).copied().flatten())
            else {
                continue;
            };
            let mover = game.position_at(ply).turn();
            let drop = mover.fold_wb(was - now, now - was);
            if drop >= MISTAKE_DROP
                && let Some(p) = self.from_mistake(game.position_at(ply), mistake)
            {
                found.push(p);
            }
        }
        found
    }
}

/// Tries per weakened level when rating a puzzle (full strength has no judgement errors, so one
/// try is all it has).
pub const RATING_TRIES: u32 = 8;

impl Generator {
    /// The puzzle's rating: the Elo at which a player solves it half the time, fitted to how
    /// often each level solves it (see [`rating_of`]). The tries' judgement errors come from a
    /// seed made of the puzzle's id, so a puzzle rates the same whatever was rated before it.
    pub fn rate(&mut self, p: &Puzzle) -> i32 {
        rating_of(&self.solve_counts(p))
    }

    /// How often each player solves `p`: (the player's Elo, tries solved, tries), the two test
    /// bots first (their chance worked out exactly, as if tried [`RATING_TRIES`] times), then
    /// the levels, weakest first. Two levels in a row that solve every try stand for the
    /// stronger ones too, which are not tried: a stronger level does not miss what two weaker
    /// ones never do, and the strong levels' searches are most of a rating's time.
    pub fn solve_counts(&mut self, p: &Puzzle) -> Vec<(i32, f64, u32)> {
        use crate::engine::strength::{LEVEL_ELO, MAX_LEVEL};
        let mut counts: Vec<(i32, f64, u32)> = [Bot::Random, Bot::Greedy]
            .into_iter()
            .map(|bot| {
                let tries = f64::from(RATING_TRIES);
                (bot.elo(), tries * bot_solves(p, bot), RATING_TRIES)
            })
            .collect();
        let seed = p.id.bytes().fold(0x9E37_79B9_7F4A_7C15_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        self.engine.reseed(seed);
        let mut perfect_run = 0;
        for level in 1..=MAX_LEVEL {
            let tries = if level == MAX_LEVEL { 1 } else { RATING_TRIES };
            let solved = if perfect_run >= 2 {
                tries
            } else {
                (0..tries).filter(|_| self.solves(p, level)).count() as u32
            };
            perfect_run = if solved == tries { perfect_run + 1 } else { 0 };
            counts.push((LEVEL_ELO[usize::from(level) - 1], f64::from(solved), tries));
        }
        counts
    }

    /// Whether `level` finds every solver move of `p` (a different mate counts as found).
    fn solves(&mut self, p: &Puzzle, level: u8) -> bool {
        self.engine.clear();
        let mut pos = p.start();
        let limits = Limits::nodes(self.nodes).at_level(level);
        for (i, &expected) in p.moves[1..].iter().enumerate() {
            if i % 2 == 0 {
                let found = self
                    .engine
                    .search(&pos, &[], &limits, &Control::default(), &mut |_| {})
                    .best;
                let Some(found) = found else {
                    return false;
                };
                if found != expected {
                    let mut after = pos.clone();
                    after.play_unchecked(found);
                    return after.is_checkmate();
                }
            }
            pos.play_unchecked(expected);
        }
        true
    }
}

/// The chance that `bot` finds every solver move of `p` (a different mate counts as found).
fn bot_solves(p: &Puzzle, bot: Bot) -> f64 {
    let mut pos = p.start();
    let mut chance = 1.0;
    for (i, &expected) in p.moves[1..].iter().enumerate() {
        if i % 2 == 0 {
            let picks = bot.candidates(&pos);
            let right = picks
                .iter()
                .filter(|&&m| {
                    m == expected || {
                        let mut after = pos.clone();
                        after.play_unchecked(m);
                        after.is_checkmate()
                    }
                })
                .count();
            if right == 0 {
                return 0.0;
            }
            chance *= right as f64 / picks.len() as f64;
        }
        pos.play_unchecked(expected);
    }
    chance
}

/// The rating a puzzle's solve counts (player's Elo, solved, tries) give: the Elo at which a
/// player is expected to solve it half the time, by Elo's own curve (a player rated `d` above
/// the puzzle solves it with chance 1 / (1 + 10^(-d/400)), as lichess rates puzzles against
/// players). It is the rating at which the players' expected solves equal their actual ones,
/// with one more try, half solved, at [`RATING_ANCHOR`]: without it a puzzle every player
/// solves, or none, would have no finite rating. So the fit reaches below level 1 for the
/// puzzles every level solves and above level 9 for those only level 10 finds, kept within
/// [`RATING_RANGE`].
pub fn rating_of(counts: &[(i32, f64, u32)]) -> i32 {
    let solves =
        |rating: f64, elo: i32| 1.0 / (1.0 + 10f64.powf((rating - f64::from(elo)) / 400.0));
    let solved: f64 = counts.iter().map(|&(_, s, _)| s).sum::<f64>() + 0.5;
    let expected = |rating: f64| {
        counts
            .iter()
            .map(|&(elo, _, n)| f64::from(n) * solves(rating, elo))
            .sum::<f64>()
            + solves(rating, RATING_ANCHOR)
    };
    // Expected solves fall as the rating rises: halve the range to the crossing.
    let (mut lo, mut hi) = (f64::from(RATING_RANGE.0), f64::from(RATING_RANGE.1));
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if expected(mid) > solved {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    ((lo + hi) / 2.0).round() as i32
}

/// Where the half-solved try that keeps every puzzle's rating finite is played.
pub const RATING_ANCHOR: i32 = 1500;
/// The lowest and highest puzzle ratings.
pub const RATING_RANGE: (i32, i32) = (400, 3000);

/// A puzzle's id: five characters of a hash of its position and moves.
fn id_of(p: &Puzzle) -> String {
    let text = format!(
        "{} {:?}",
        shakmaty::fen::Fen::from_position(&p.before, EnPassantMode::Legal),
        p.moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect::<Vec<_>>()
    );
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    (0..5)
        .map(|i| ALPHABET[((h >> (i * 6)) % 62) as usize] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::mistake::parse_uci;

    fn pos(fen: &str) -> Chess {
        crate::fen::position(fen).unwrap()
    }

    fn generator() -> Generator {
        Generator::new(200_000, None)
    }

    fn ucis(moves: &[Move]) -> Vec<String> {
        moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect()
    }

    #[test]
    fn a_knight_fork_after_a_mistake_is_a_puzzle() {
        // Black's ...Qc6?? walks into Ne7+, forking king and queen.
        let before = pos("3r2k1/p4ppp/8/3N4/q7/8/P4PPP/4R1K1 b - - 0 1");
        let mistake = parse_uci(&before, "a4c6").unwrap();
        let mut g = generator();
        let p = g.from_mistake(&before, mistake).expect("a puzzle");
        let moves = ucis(&p.moves);
        assert_eq!(moves[0], "a4c6");
        assert_eq!(moves[1], "d5e7", "{moves:?}");
        assert_eq!(moves.len() % 2, 0, "ends with the solver's move: {moves:?}");
        assert!(p.motifs.contains(&Motif::Fork), "{:?}", p.motifs);
        assert_eq!(p.solver(), Color::White);
        let csv = p.csv();
        assert!(
            csv.starts_with(&format!(
                "{},3r2k1/p4ppp/8/3N4/q7/8/P4PPP/4R1K1 b - - 0 1,a4c6 d5e7",
                p.id
            )),
            "{csv}"
        );
    }

    #[test]
    fn a_back_rank_mate_in_two_is_a_puzzle_with_every_move_forced() {
        // Black's queen leaves the e-file to take a pawn (...Qxa2??): Re8+ Rxe8 Rxe8#.
        let before = pos("3r2k1/5ppp/4q3/8/8/8/P3RPPP/4R1K1 b - - 0 1");
        let mistake = parse_uci(&before, "e6a2").unwrap();
        let mut g = generator();
        let p = g.from_mistake(&before, mistake).expect("a puzzle");
        assert_eq!(ucis(&p.moves), ["e6a2", "e2e8", "d8e8", "e1e8"]);
        assert!(p.motifs.contains(&Motif::MateIn2), "{:?}", p.motifs);
        assert!(p.motifs.contains(&Motif::BackRankMate), "{:?}", p.motifs);
    }

    #[test]
    fn two_equally_good_moves_make_no_puzzle() {
        // Either rook takes the loose queen: two moves as good as each other, so neither is
        // the one clear move.
        let start = pos("6k1/5pp1/7p/8/8/8/5PPK/1R1q1R2 w - - 0 1");
        let mut g = generator();
        assert_eq!(g.solution(&start), None);
    }

    #[test]
    fn an_easy_puzzle_rates_below_a_hard_one() {
        let mut g = generator();
        let mate_in_one = {
            // ...Nf6?? allows Qxf7#.
            let before = pos("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
            let mistake = parse_uci(&before, "g8f6").unwrap();
            g.from_mistake(&before, mistake).expect("a mate in one")
        };
        assert_eq!(ucis(&mate_in_one.moves), ["g8f6", "h5f7"]);
        assert!(mate_in_one.motifs.contains(&Motif::MateIn1));
        let back_rank = {
            let before = pos("3r2k1/5ppp/4q3/8/8/8/P3RPPP/4R1K1 b - - 0 1");
            g.from_mistake(&before, parse_uci(&before, "e6a2").unwrap())
                .unwrap()
        };
        // Every level and the greedy capturer mate in one: easier than level 1 is strong.
        let level_1 = crate::engine::strength::LEVEL_ELO[0];
        assert!(mate_in_one.rating < level_1, "{}", mate_in_one.rating);
        assert!(
            mate_in_one.rating < back_rank.rating,
            "{} against {}",
            mate_in_one.rating,
            back_rank.rating
        );
        // The rating does not hang on what was rated before.
        let mut fresh = generator();
        assert_eq!(fresh.rate(&back_rank), back_rank.rating);
        assert_eq!(fresh.rate(&mate_in_one), mate_in_one.rating);
    }

    #[test]
    fn a_rating_is_where_a_player_solves_half_the_time() {
        use crate::engine::strength::LEVEL_ELO;
        let counts = |solved: &dyn Fn(i32) -> f64| -> Vec<(i32, f64, u32)> {
            LEVEL_ELO
                .iter()
                .map(|&elo| (elo, solved(elo) * 8.0, 8))
                .collect()
        };
        // Levels 1 to 4 miss it, 6 to 10 find it, level 5 finds it half the time.
        let middle = rating_of(&counts(&|elo| match elo.cmp(&1432) {
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 1.0,
        }));
        assert!((1400..1465).contains(&middle), "{middle}");
        // Solved by all, it is easier than level 1; solved by level 10 alone, harder than 9.
        let easiest = rating_of(&counts(&|_| 1.0));
        assert!(easiest < LEVEL_ELO[0] - 200, "{easiest}");
        let hardest = rating_of(&counts(&|elo| f64::from(u8::from(elo == LEVEL_ELO[9]))));
        assert!(hardest > LEVEL_ELO[8], "{hardest}");
        let nobody = rating_of(&counts(&|_| 0.0));
        assert!(nobody > hardest && nobody <= RATING_RANGE.1, "{nobody}");
        // A level solving it more often makes it easier.
        let mut more = counts(&|elo| if elo >= 1432 { 1.0 } else { 0.0 });
        let less = rating_of(&more);
        more[3].1 = 4.0;
        assert!(rating_of(&more) < less);
    }

    #[test]
    fn a_puzzle_reads_back_from_its_csv_line_and_bad_lines_say_why() {
        let before = pos("3r2k1/5ppp/4q3/8/8/8/P3RPPP/4R1K1 b - - 0 1");
        let p = generator()
            .from_mistake(&before, parse_uci(&before, "e6a2").unwrap())
            .unwrap();
        let back = from_csv(&p.csv()).unwrap();
        assert_eq!(back, p);
        for bad in [
            "",
            "x,not a fen,e2e4 e7e5,1500,",
            "x,8/8/8/8/8/8/8/K6k w - - 0 1,a1a2,1500,",
            "x,3r2k1/5ppp/4q3/8/8/8/P3RPPP/4R1K1 b - - 0 1,e6a2 e2e9,1500,",
            "x,3r2k1/5ppp/4q3/8/8/8/P3RPPP/4R1K1 b - - 0 1,e6a2 e2e8,fast,",
        ] {
            assert!(from_csv(bad).is_err(), "{bad}");
        }
    }

    /// The puzzles of `text`, or the first row's complaint.
    fn read(text: &str) -> Result<Vec<Puzzle>, String> {
        read_csv(text.as_bytes())?
            .into_iter()
            .map(|(line, p)| p.map_err(|e| format!("line {line}: {e}")))
            .collect()
    }

    const MATE_IN_2: &str = "r1b1rbk1/2qn1ppp/pp1ppn2/6N1/2PP1B2/3B1N2/PPQ2PPP/3R1RK1 b - - 2 14";

    #[test]
    fn a_puzzle_csv_is_read_by_its_header_with_a_bom_and_quoted_fields() {
        let ours = format!(
            "PuzzleId,FEN,Moves,Rating,Themes\nx1,{MATE_IN_2},h7h6 d3h7 f6h7 c2h7,961,mate mateIn2\n"
        );
        let with_bom = format!("\u{feff}{ours}");
        let quoted = format!(
            "\"PuzzleId\",\"FEN\",\"Moves\",\"Rating\",\"Themes\"\r\n\"x1\",\"{MATE_IN_2}\",\"h7h6 d3h7 f6h7 c2h7\",\"961\",\"mate mateIn2\"\r\n"
        );
        // Lichess's own layout, the themes in the eighth column and a GameUrl with a comma
        // quoted; and the same without its header, as older lichess files come.
        let lichess_row = format!(
            "x1,{MATE_IN_2},h7h6 d3h7 f6h7 c2h7,961,77,100,218,kingsideAttack mate mateIn2,\"https://lichess.org/eC4hQO6D/black#28,x\",Horwitz_Defense,\n"
        );
        let lichess = format!(
            "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags,DailyDate\n{lichess_row}"
        );
        // Columns in another order are found by name.
        let reordered = format!(
            "Rating,Themes,FEN,PuzzleId,Moves\n961,mate mateIn2,{MATE_IN_2},x1,h7h6 d3h7 f6h7 c2h7\n"
        );
        for text in [
            &ours,
            &with_bom,
            &quoted,
            &lichess,
            &lichess_row,
            &reordered,
        ] {
            let set = read(text).unwrap_or_else(|e| panic!("{e}: {text}"));
            assert_eq!(set.len(), 1, "{text}");
            assert_eq!(set[0].id, "x1");
            assert_eq!(set[0].rating, 961);
            assert_eq!(set[0].moves.len(), 4);
            assert!(set[0].motifs.contains(&Motif::MateIn2), "{text}");
        }
        let missing =
            read("PuzzleId,FEN,Rating\nx1,8/8/8/8/8/8/8/K6k w - - 0 1,1500\n").unwrap_err();
        assert!(missing.contains("no Moves column"), "{missing}");
        let bad = read(&format!("{ours}x2,{MATE_IN_2},h7h6 e2e9,961,\n")).unwrap_err();
        assert!(bad.starts_with("line 3: puzzle x2: e2e9"), "{bad}");
    }

    #[test]
    fn a_filter_lets_through_by_any_of_lichess_themes_and_by_rating() {
        let lichess = Lichess {
            themes: "crushing kingsideAttack mateIn2".to_string(),
            ..Lichess::default()
        };
        let p = imported("x1", MATE_IN_2, "h7h6 d3h7 f6h7 c2h7", 961, lichess).unwrap();
        assert!(p.motifs.contains(&Motif::MateIn2));
        assert_eq!(p.themes(), ["crushing", "kingsideAttack", "mateIn2"]);
        let filter = |theme: Option<&str>, range| Filter {
            theme: theme.map(str::to_string),
            range,
        };
        assert!(filter(None, None).fits(&p));
        assert!(filter(Some("kingsideAttack"), Some((900, 1000))).fits(&p));
        assert!(filter(Some("kingside attack"), None).fits(&p));
        assert!(!filter(Some("fork"), None).fits(&p));
        assert!(!filter(None, Some((1000, 1200))).fits(&p));
        // A built-in puzzle's themes are its motifs.
        let built_in = built_in()
            .into_iter()
            .find(|p| p.motifs.contains(&Motif::Fork))
            .unwrap();
        assert!(filter(Some("fork"), None).fits(&built_in));
        assert_eq!(parse_range("1200-1600"), Some((1200, 1600)));
        assert_eq!(parse_range("1600-1200"), None);
        assert_eq!(parse_range("fork"), None);
    }

    #[test]
    fn the_built_in_set_reads_whole() {
        let text = include_str!("../../assets/puzzles.csv");
        let lines = text.lines().count() - 1;
        let set = built_in();
        assert_eq!(
            set.len(),
            lines,
            "every line of assets/puzzles.csv is a puzzle"
        );
        assert!(set.len() >= 50);
        let mut ids: Vec<&str> = set.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), set.len(), "ids are unique");
    }

    #[test]
    fn the_built_in_set_is_not_mostly_one_movers_nor_one_rating() {
        let set = built_in();
        let one_move = set.iter().filter(|p| p.moves.len() == 2).count();
        assert!(
            one_move * 10 <= set.len() * 4,
            "{one_move} of {} puzzles are one move",
            set.len()
        );
        let mut bands = std::collections::BTreeMap::new();
        for p in &set {
            *bands.entry(p.rating.div_euclid(100) * 100).or_insert(0) += 1;
        }
        for (band, &n) in &bands {
            assert!(
                n * 5 <= set.len(),
                "{n} of {} puzzles rated {band}-{}",
                set.len(),
                band + 99
            );
        }
        // From beginners' puzzles to ones only full strength finds.
        let (low, high) = (bands.keys().next().unwrap(), bands.keys().last().unwrap());
        assert!(*low < 700 && *high >= 2300, "{low} to {high}");
        assert!(set.len() >= 500, "{}", set.len());
        // Easiest first.
        assert!(set.windows(2).all(|w| w[0].rating <= w[1].rating));
    }

    #[test]
    fn a_plain_recapture_is_no_puzzle() {
        // ...Qxc3?? bxc3 wins the queen, but only by taking back.
        let before = pos("4k3/8/8/q7/8/2N5/1P6/4K3 b - - 0 1");
        let mut g = generator();
        assert_eq!(
            g.from_mistake(&before, parse_uci(&before, "a5c3").unwrap()),
            None
        );
    }

    #[test]
    fn a_move_that_loses_nothing_starts_no_puzzle() {
        // 1. e4 is no mistake, whatever follows.
        let before = Chess::default();
        let mut g = generator();
        assert_eq!(
            g.from_mistake(&before, parse_uci(&before, "e2e4").unwrap()),
            None
        );
    }
}
