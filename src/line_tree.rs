//! A game with side lines, for the analysis board: each position knows the moves tried from it,
//! the first being the main line. Written and read as PGN with variations.

use std::fmt::Write as _;
use std::io;
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus as PgnSan, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use crate::game::{Game, LoadError};

/// One position of the tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// The position.
    pub pos: Chess,
    /// The node before, and the move from it (`None` at the start).
    pub parent: Option<(usize, Move)>,
    /// The move in SAN (empty at the start).
    pub san: String,
    /// The nodes after, main line first.
    pub children: Vec<usize>,
}

/// A start position and every line played from it.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    /// The start position's FEN when it is not the standard one.
    start_fen: Option<String>,
    /// The tags of the game it was read from (names, event, result...; not SetUp or FEN), so
    /// that saving it keeps them.
    pub tags: Vec<(String, String)>,
}

/// At most this many positions in one tree (a long session is a few thousand).
pub(crate) const MAX_NODES: usize = 100_000;

impl Tree {
    /// A tree with only `start` (its FEN given when it is not the standard start).
    pub fn new(start: Chess, start_fen: Option<String>) -> Tree {
        Tree {
            nodes: vec![Node {
                pos: start,
                parent: None,
                san: String::new(),
                children: Vec::new(),
            }],
            start_fen,
            tags: Vec::new(),
        }
    }

    /// A tree holding `game`'s moves as its main line.
    pub fn from_game(game: &Game) -> Tree {
        let mut tree = Tree::new(
            game.position_at(0).clone(),
            game.start_fen().map(str::to_string),
        );
        let mut at = 0;
        for m in game.moves() {
            at = tree.play(at, *m);
        }
        let result = game.outcome().map_or("*", |o| o.result_str());
        tree.tags = vec![
            ("White".to_string(), game.names[0].clone()),
            ("Black".to_string(), game.names[1].clone()),
            ("Result".to_string(), result.to_string()),
        ];
        tree
    }

    /// The node `i`.
    pub fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only the start position is there (never: the root always exists).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node after `m` from node `at`: the existing one if the move was played before, else
    /// a new line (the main line if it is the first move from there). `m` must be legal.
    pub fn play(&mut self, at: usize, m: Move) -> usize {
        if let Some(&c) = self.nodes[at]
            .children
            .iter()
            .find(|&&c| self.nodes[c].parent.map(|p| p.1) == Some(m))
        {
            return c;
        }
        if self.nodes.len() >= MAX_NODES {
            return at;
        }
        let mut pos = self.nodes[at].pos.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        let i = self.nodes.len();
        self.nodes.push(Node {
            pos,
            parent: Some((at, m)),
            san,
            children: Vec::new(),
        });
        self.nodes[at].children.push(i);
        i
    }

    /// The nodes from the start to `at`, the start first.
    pub fn path(&self, at: usize) -> Vec<usize> {
        let mut path = vec![at];
        let mut i = at;
        while let Some((p, _)) = self.nodes[i].parent {
            path.push(p);
            i = p;
        }
        path.reverse();
        path
    }

    /// The game from the start to `at` (for the board, move input and repetition keys).
    pub fn game_to(&self, at: usize) -> Game {
        let mut game = match &self.start_fen {
            Some(fen) => Game::from_fen(fen).unwrap_or_default(),
            None => Game::new(),
        };
        for &i in self.path(at).iter().skip(1) {
            if let Some((_, m)) = self.nodes[i].parent {
                let _ = game.play_on(m);
            }
        }
        // The board explores: a repetition or fifty quiet moves do not stop it.
        game.forget_claimable_draw();
        game
    }

    /// Makes the line through `at` the main line at every branch on its way.
    pub fn promote(&mut self, at: usize) {
        let mut i = at;
        while let Some((p, _)) = self.nodes[i].parent {
            let children = &mut self.nodes[p].children;
            if let Some(k) = children.iter().position(|&c| c == i) {
                let c = children.remove(k);
                children.insert(0, c);
            }
            i = p;
        }
    }

    /// The tree as PGN: `tags` (name, value), with the tree's own tags in place of those of
    /// the same name and after them, then the main line with every side line as a variation.
    pub fn to_pgn(&self, tags: &[(&str, String)]) -> String {
        let mut all: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (*n, v.as_str())).collect();
        for (name, value) in &self.tags {
            match all.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1 = value,
                None => all.push((name, value)),
            }
        }
        let mut out = String::new();
        for (name, value) in &all {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{name} \"{value}\"]");
        }
        let result = all
            .iter()
            .find(|(n, _)| *n == "Result")
            .map(|(_, v)| *v)
            .filter(|v| ["1-0", "0-1", "1/2-1/2"].contains(v))
            .unwrap_or("*");
        if let Some(fen) = &self.start_fen {
            let _ = writeln!(out, "[SetUp \"1\"]\n[FEN \"{fen}\"]");
        }
        out.push('\n');
        let mut tokens = Vec::new();
        self.line_tokens(0, true, &mut tokens);
        tokens.push(result.to_string());
        out.push_str(&crate::game::wrap_movetext(&tokens));
        out
    }

    /// Tokens of the line continuing from node `at`: its main move, the side lines from `at` in
    /// parentheses, then the rest. `numbered` forces a move number on the first move.
    fn line_tokens(&self, at: usize, numbered: bool, tokens: &mut Vec<String>) {
        let mut at = at;
        let mut numbered = numbered;
        while let Some((&main, sides)) = self.nodes[at].children.split_first() {
            tokens.push(self.move_token(main, numbered));
            for &side in sides {
                tokens.push(format!("({}", self.move_token(side, true)));
                self.line_tokens(side, false, tokens);
                if let Some(last) = tokens.last_mut() {
                    last.push(')');
                }
            }
            numbered = !sides.is_empty();
            at = main;
        }
    }

    /// A move with its number where PGN wants one: `12. Nf3`, `12... Nc6`, `Nc6`.
    fn move_token(&self, i: usize, numbered: bool) -> String {
        let Some((p, _)) = self.nodes[i].parent else {
            return String::new();
        };
        let before = &self.nodes[p].pos;
        let num = before.fullmoves().get();
        match before.turn() {
            Color::White => format!("{num}. {}", self.nodes[i].san),
            Color::Black if numbered => format!("{num}... {}", self.nodes[i].san),
            Color::Black => self.nodes[i].san.clone(),
        }
    }

    /// Reads the first game of a PGN with its variations.
    pub fn from_pgn(text: &str) -> Result<Tree, LoadError> {
        let text = crate::game::readable_pgn(text);
        let mut reader = Reader::new(io::Cursor::new(text.as_bytes()));
        let tree = reader
            .read_game(&mut Builder)
            .map_err(|e| LoadError::reading(&text, e))?
            .ok_or(LoadError::Empty)?;
        // A token the reader skipped explains a failure better than the move after it.
        let first = crate::pgn_scan::games(&text).next();
        let main_line = first.as_ref().map_or(0, |s| s.main_line);
        match LoadError::stray(first, main_line, true) {
            Some(stray) => Err(stray),
            None => tree,
        }
    }

    /// The FEN of node `at`'s position.
    pub fn fen(&self, at: usize) -> String {
        Fen::from_position(&self.nodes[at].pos, EnPassantMode::Legal).to_string()
    }
}

/// Builds a tree while the PGN reader walks the movetext.
struct Builder;

/// The reader's state: the tree so far, where the next move goes, and the positions to come
/// back to after each variation.
struct Building {
    tree: Result<Tree, LoadError>,
    fen: Option<String>,
    variant: Option<String>,
    tags: Vec<(String, String)>,
    at: usize,
    /// For each open variation: the node to return to.
    stack: Vec<usize>,
    plies: usize,
}

impl Visitor for Builder {
    type Tags = Building;
    type Movetext = Building;
    type Output = Result<Tree, LoadError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Building> {
        ControlFlow::Continue(Building {
            tree: Err(LoadError::Empty),
            fen: None,
            variant: None,
            tags: Vec::new(),
            at: 0,
            stack: Vec::new(),
            plies: 0,
        })
    }

    fn tag(
        &mut self,
        b: &mut Building,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        match name {
            b"FEN" => b.fen = Some(value.decode_utf8_lossy().into_owned()),
            b"Variant" => b.variant = Some(value.decode_utf8_lossy().into_owned()),
            // Written by Knightfall from the tree itself.
            b"SetUp" | b"PlyCount" => {}
            _ if b.tags.len() < 64 => b.tags.push((
                String::from_utf8_lossy(name).into_owned(),
                value.decode_utf8_lossy().into_owned(),
            )),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, mut b: Building) -> ControlFlow<Self::Output, Building> {
        if let Some(v) = b.variant.as_deref()
            && !matches!(
                v.to_ascii_lowercase().as_str(),
                "" | "standard" | "from position" | "normal"
            )
        {
            return ControlFlow::Break(Err(LoadError::Variant(v.to_string())));
        }
        let start = match &b.fen {
            Some(fen) => crate::fen::position(fen).map_err(LoadError::from),
            None => Ok(Chess::default()),
        };
        match start {
            Ok(pos) => {
                let mut tree = Tree::new(pos, b.fen.clone());
                tree.tags = std::mem::take(&mut b.tags);
                b.tree = Ok(tree);
            }
            Err(e) => return ControlFlow::Break(Err(e)),
        }
        ControlFlow::Continue(b)
    }

    fn san(&mut self, b: &mut Building, san: PgnSan) -> ControlFlow<Self::Output> {
        let Ok(tree) = b.tree.as_mut() else {
            return ControlFlow::Continue(());
        };
        b.plies += 1;
        let pos = &tree.nodes[b.at].pos;
        match san.san.to_move(pos) {
            Ok(m) => {
                let next = tree.play(b.at, m);
                if next == b.at {
                    // The tree is full: no line is cut short or built wrong, the file is refused.
                    return ControlFlow::Break(Err(LoadError::TooLarge(MAX_NODES)));
                }
                b.at = next;
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(Err(LoadError::BadMove {
                ply: b.plies,
                san: san.to_string(),
            })),
        }
    }

    fn begin_variation(&mut self, b: &mut Building) -> ControlFlow<Self::Output, Skip> {
        // A variation replaces the move just read: it starts from the position before it.
        let Ok(tree) = b.tree.as_ref() else {
            return ControlFlow::Continue(Skip(true));
        };
        b.stack.push(b.at);
        b.at = tree.nodes[b.at].parent.map_or(b.at, |(p, _)| p);
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, b: &mut Building) -> ControlFlow<Self::Output> {
        if let Some(at) = b.stack.pop() {
            b.at = at;
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, b: Building) -> Self::Output {
        b.tree
    }
}
