//! Draws: by repetition, by the fifty-move rule, by insufficient material, and what one is
//! worth under contempt.

use shakmaty::Position;

use super::Searcher;
use crate::engine::node::Node;

impl Searcher<'_> {
    /// A draw's score for the side to move at `ply`.
    #[inline]
    pub(super) fn draw(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// Whether the node is drawn by rule below the root: a repetition, too little material to
    /// mate, or fifty moves without a capture or pawn move (unless the last of them mated).
    #[inline]
    pub(super) fn is_draw(&self, node: &Node, in_check: bool) -> bool {
        let pos = &node.pos;
        self.is_repetition(node)
            || pos.is_insufficient_material()
            || (pos.halfmoves() >= 100 && !(in_check && pos.legal_moves().is_empty()))
    }

    /// Whether the node's position was seen before, since the last irreversible move and the
    /// last null move, with the same side to move.
    fn is_repetition(&self, node: &Node) -> bool {
        let len = self.keys.len();
        let reach = (node.pos.halfmoves() as usize)
            .min(len - 1)
            .min(len - 1 - self.null_floor.min(len - 1));
        let mut i = 2;
        while i <= reach {
            if self.keys[len - 1 - i] == node.key {
                return true;
            }
            i += 2;
        }
        false
    }
}
