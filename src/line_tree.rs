//! A game with side lines, for the analysis board: each position knows the moves tried from it,
//! the first being the main line. Written and read as PGN with variations.

use pgn_reader::KnownOutcome;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::game::{Game, LoadError};
use crate::pgn::write::{Movetext, tag};
use crate::pgn::{Keep, RawGame, Token, raw};

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

/// At most this many tags of the game a tree was read from are kept.
const MAX_TAGS: usize = 64;

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
            tag(&mut out, name, value);
        }
        let result = all
            .iter()
            .find(|(n, _)| *n == "Result")
            .and_then(|(_, v)| KnownOutcome::from_ascii(v.as_bytes()).ok())
            .map_or("*", KnownOutcome::as_str);
        if let Some(fen) = &self.start_fen {
            tag(&mut out, "SetUp", "1");
            tag(&mut out, "FEN", fen);
        }
        out.push('\n');
        let mut text = Movetext::new();
        self.write_line(0, &mut text);
        out.push_str(&text.finish(result));
        out
    }

    /// Writes the line continuing from node `at`: its main move, the side lines from `at` in
    /// parentheses, then the rest.
    fn write_line(&self, at: usize, text: &mut Movetext) {
        let mut at = at;
        while let Some((&main, sides)) = self.nodes[at].children.split_first() {
            self.write_move(main, text);
            for &side in sides {
                text.open();
                self.write_move(side, text);
                self.write_line(side, text);
                text.close();
            }
            at = main;
        }
    }

    /// Writes the move into node `i`.
    fn write_move(&self, i: usize, text: &mut Movetext) {
        if let Some((p, _)) = self.nodes[i].parent {
            let before = &self.nodes[p].pos;
            text.push_move(before.fullmoves().get(), before.turn(), &self.nodes[i].san);
        }
    }

    /// Reads the first game of a PGN with its variations.
    pub fn from_pgn(text: &str) -> Result<Tree, LoadError> {
        // Past four times the moves the board holds, repeated lines aside, it could not fit.
        let raw = raw::first(
            text,
            Keep::SideLines {
                most: 4 * MAX_NODES,
            },
        )?;
        let tree = Tree::from_raw(&raw)?;
        if raw.cut {
            return Err(LoadError::TooLarge(MAX_NODES));
        }
        Ok(tree)
    }

    /// The tree of every line `raw` writes, its tags kept but for those the tree writes itself.
    fn from_raw(raw: &RawGame) -> Result<Tree, LoadError> {
        let mut tree = Tree::new(raw.start()?, raw.tag("FEN").map(str::to_string));
        tree.tags = raw
            .tags
            .iter()
            .filter(|(name, _)| !matches!(name.as_str(), "FEN" | "Variant" | "SetUp" | "PlyCount"))
            .take(MAX_TAGS)
            .cloned()
            .collect();
        tree.grow(&raw.movetext)?;
        Ok(tree)
    }

    /// Plays every line of `movetext` into the tree, from the start.
    fn grow(&mut self, movetext: &[Token]) -> Result<(), LoadError> {
        let mut at = 0;
        // For each open side line: the node to come back to.
        let mut stack = Vec::new();
        let mut plies = 0;
        for token in movetext {
            match token {
                Token::Move(written) => {
                    plies += 1;
                    let m = written.san.san.to_move(&self.nodes[at].pos).map_err(|_| {
                        LoadError::BadMove {
                            ply: plies,
                            san: written.san.to_string(),
                        }
                    })?;
                    let next = self.play(at, m);
                    if next == at {
                        // The tree is full: no line is cut short or built wrong, the file is
                        // refused.
                        return Err(LoadError::TooLarge(MAX_NODES));
                    }
                    at = next;
                }
                // A side line replaces the move just read: it starts from the position before.
                Token::Open => {
                    stack.push(at);
                    at = self.nodes[at].parent.map_or(at, |(p, _)| p);
                }
                Token::Close => at = stack.pop().unwrap_or(at),
            }
        }
        Ok(())
    }

    /// The FEN of node `at`'s position.
    pub fn fen(&self, at: usize) -> String {
        Fen::from_position(&self.nodes[at].pos, EnPassantMode::Legal).to_string()
    }
}
