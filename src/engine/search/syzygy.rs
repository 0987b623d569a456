//! Syzygy WDL probes inside the search.

use shakmaty::Position;

use super::Searcher;
use crate::engine::node::Node;
use crate::engine::score::{MAX_PLY, TB_WIN};
use crate::engine::tt::Bound;
use crate::tablebase::Wdl;

impl Searcher<'_> {
    /// The node's score from the tables, stored in the hash table as exact, when they have
    /// it. Probed only right after a capture or pawn move, where the tables' WDL value is
    /// exact (later, the fifty-move count may have changed it).
    #[inline]
    pub(super) fn probe_tablebases(&mut self, node: &Node, ply: usize) -> Option<i32> {
        let pos = &node.pos;
        let tb = self.tablebases?;
        if pos.halfmoves() != 0 || pos.board().occupied().count() > tb.probe_pieces() {
            return None;
        }
        let wdl = tb.probe_wdl_search(pos)?;
        self.tb_hits += 1;
        let score = match wdl {
            Wdl::Win => TB_WIN - ply as i32,
            Wdl::Loss => -TB_WIN + ply as i32,
            // Cursed wins and blessed losses are draws under the fifty-move rule.
            _ => self.draw(ply),
        };
        let eval = self.evaluate(node);
        self.store(node, ply, None, score, eval, MAX_PLY as i32, Bound::Exact);
        Some(score)
    }
}
