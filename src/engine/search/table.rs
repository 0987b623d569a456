//! The transposition table as the search uses it: keys salted by level, children prefetched,
//! bounds read and written.

use shakmaty::Move;

use super::Searcher;
use crate::engine::node::Node;
use crate::engine::tt::{Bound, Hit, encode_move};

impl Searcher<'_> {
    /// The node after `m`, its hash-table bucket already on its way into the cache.
    #[inline]
    pub(super) fn child(&self, node: &Node, m: Move) -> Node {
        node.play_then(m, &self.eval, |key| {
            self.tt.prefetch(key ^ self.table_salt);
            self.evals_by_key.prefetch(key);
        })
    }

    /// What the table holds for the node, if anything.
    #[inline]
    pub(super) fn probe(&self, node: &Node, ply: usize) -> Option<Hit> {
        self.tt.probe(node.key ^ self.table_salt, ply)
    }

    /// Stores a node's result under its (level-salted) key.
    #[expect(
        clippy::too_many_arguments,
        reason = "the fields of one table entry, as the table stores them"
    )]
    #[inline]
    pub(super) fn store(
        &mut self,
        node: &Node,
        ply: usize,
        best: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        self.tt.store(
            node.key ^ self.table_salt,
            ply,
            best.map_or(0, encode_move),
            score,
            eval,
            depth,
            bound,
        );
    }
}

/// True when a stored bound settles the node for the window `alpha..beta`.
#[inline]
pub(super) fn cuts(h: Hit, alpha: i32, beta: i32) -> bool {
    match h.bound {
        Bound::Exact => true,
        Bound::Lower => h.score >= beta,
        Bound::Upper => h.score <= alpha,
    }
}

/// What a node's `best` score is, for a search that began with `original_alpha` and ended
/// with `alpha` (raised by each better move) and `beta`.
#[inline]
pub(super) fn bound(best: i32, original_alpha: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if alpha > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
