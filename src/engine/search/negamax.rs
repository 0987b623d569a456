//! One node of the principal-variation search: its shortcuts (draws, the table, the
//! tablebases, the horizon, node pruning), then its moves in order, each searched with a null
//! window after the first and again with the full one when it beats alpha.

use std::ops::ControlFlow;

use shakmaty::{Chess, Color, Move, Position};

use super::Searcher;
use super::moves::{Frame, Moves, Run};
use super::params::IIR_MIN_DEPTH;
use super::pruning::late_moves;
use super::reductions::reducible;
use super::table::{bound, cuts};
use crate::engine::node::Node;
use crate::engine::ordering::{Picker, is_tactical, pawn_index};
use crate::engine::score::{INFINITY, MATE, MAX_PLY};
use crate::engine::see::see;
use crate::engine::tt::{decode_move, encode_move};

impl Searcher<'_> {
    /// The node's score for the window `alpha..beta` searched `depth` plies deep, `ply` plies
    /// from the root; `cut_null` when the move into it was a null move (no second one).
    pub(super) fn negamax(
        &mut self,
        node: &Node,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut_null: bool,
    ) -> i32 {
        match self.before_moves(node, depth, ply, alpha, beta, cut_null) {
            ControlFlow::Break(score) => score,
            ControlFlow::Continue(frame) => self.search_moves(node, frame),
        }
    }

    /// Everything a node does before its moves: the shortcuts that settle it without them
    /// (a draw, mate distance, the table, the tablebases, the horizon, reverse futility, the
    /// null move), or what its move loop needs.
    #[inline]
    fn before_moves(
        &mut self,
        node: &Node,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_null: bool,
    ) -> ControlFlow<i32, Frame> {
        self.pv[ply].clear();
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return ControlFlow::Break(0);
        }
        let pv_node = beta - alpha > 1;
        let pos = &node.pos;
        let in_check = pos.is_check();

        if ply > 0
            && let Some(score) =
                self.settled_without_search(node, ply, in_check, &mut alpha, &mut beta)
        {
            return ControlFlow::Break(score);
        }
        // Checks that do not lose material are extended where they are played (below); a side
        // in check at the horizon still answers it with a full-width ply.
        if in_check && depth <= 0 {
            depth = 1;
        }
        if depth <= 0 {
            if !self.quiescence {
                return ControlFlow::Break(self.evaluate(node));
            }
            return ControlFlow::Break(self.quiescence(node, ply, alpha, beta));
        }
        self.seldepth = self.seldepth.max(ply);

        let hit = self.probe(node, ply);
        let mut tt_move = hit.map_or(0, |h| h.mv);
        if ply == 0
            && let Some(m) = self.root_order_hint
        {
            tt_move = encode_move(m);
        }
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
            && cuts(h, alpha, beta)
        {
            return ControlFlow::Break(h.score);
        }
        // Internal iterative reduction: a node the table knows no move for is searched a ply
        // shallower (its next visit will have a move to start with).
        if depth >= IIR_MIN_DEPTH && tt_move == 0 {
            depth -= 1;
        }
        if ply > 0
            && let Some(score) = self.probe_tablebases(node, ply)
        {
            return ControlFlow::Break(score);
        }

        let pawns = pawn_index(pos.board());
        let (raw_eval, static_eval) = if in_check {
            (0, -INFINITY)
        } else {
            self.static_eval(node, hit, pawns)
        };

        self.evals[ply] = static_eval;
        // Better than two plies ago: prune and reduce less eagerly.
        let improving = !in_check && (ply < 2 || static_eval > self.evals[ply - 2]);

        if !pv_node
            && !in_check
            && ply > 0
            && let Some(score) =
                self.prune_node(node, depth, ply, beta, static_eval, improving, cut_null)
        {
            return ControlFlow::Break(score);
        }
        ControlFlow::Continue(Frame {
            depth,
            ply,
            alpha,
            beta,
            pv_node,
            in_check,
            tt_move,
            raw_eval,
            static_eval,
            improving,
            pawns,
        })
    }

    /// The node's moves, best first as far as ordering knows, each pruned, reduced or searched;
    /// the node's score, stored in the table with what it taught the histories.
    fn search_moves(&mut self, node: &Node, frame: Frame) -> i32 {
        let pos = &node.pos;
        let killers = self.killers[frame.ply];
        let table_move = if frame.ply > 0 {
            decode_move(pos, frame.tt_move)
        } else {
            None
        };
        let mut moves = Moves::new(table_move, late_moves(frame.depth, frame.improving));
        if table_move.is_none()
            && let Err(score) = self.fill_picker(
                moves.filled_picker(),
                pos,
                frame.ply,
                frame.tt_move,
                &killers,
                frame.alpha,
            )
        {
            return score;
        }
        let mut run = Run::new(frame.alpha);
        while let Some((m, order)) = self.next_move(&mut moves, pos, &frame, &killers) {
            // Pruning is decided before the move is made, so that a pruned move costs nothing.
            if moves.pruned(pos, m, order, &frame, &run) {
                continue;
            }
            let score = self.search_child(node, m, &frame, &run, &killers);
            if self.stopped {
                return 0;
            }
            run.searched += 1;
            if self.raised(&mut run, m, score, &frame, pos.turn()) {
                break;
            }
        }
        self.settle(node, &frame, &run)
    }

    /// The next move to try, the table's first; `None` when all have been.
    #[inline]
    fn next_move(
        &mut self,
        moves: &mut Moves,
        pos: &Chess,
        frame: &Frame,
        killers: &[Option<Move>; 2],
    ) -> Option<(Move, i32)> {
        if let Some(m) = moves.take_table_move() {
            return Some((m, Picker::TT_MOVE));
        }
        if moves.needs_filling() {
            // Only after the table's move was searched: that move is legal, so the list is not
            // empty; the picker hands it out first, and it has been searched.
            let picker = moves.filled_picker();
            let _ = self.fill_picker(picker, pos, frame.ply, frame.tt_move, killers, frame.alpha);
            picker.pick();
        }
        moves.pick()
    }

    /// Makes `m` and searches the position it leads to, extended when it gives a check that
    /// loses nothing and reduced when it comes late; its score for the side to move here.
    #[inline]
    fn search_child(
        &mut self,
        node: &Node,
        m: Move,
        frame: &Frame,
        run: &Run,
        killers: &[Option<Move>; 2],
    ) -> i32 {
        let pos = &node.pos;
        let child = self.child(node, m);
        let gives_check = child.pos.is_check();
        self.keys.push(child.key);
        let extension = i32::from(gives_check && see(pos, m) >= 0);
        let new_depth = frame.depth - 1 + extension;
        let quiet = !is_tactical(m);
        let reduction = if run.searched > 0
            && reducible(
                frame.depth,
                run.searched,
                quiet,
                gives_check,
                frame.in_check,
            ) {
            self.reduction(
                m,
                pos.turn(),
                frame.depth,
                run.searched,
                new_depth,
                frame.pv_node,
                frame.improving,
                killers,
            )
        } else {
            0
        };
        let score = self.search_move(
            &child,
            run.searched == 0,
            new_depth,
            reduction,
            frame.ply,
            run.alpha,
            frame.beta,
        );
        self.keys.pop();
        score
    }

    /// Takes `m`'s `score` (for `color`, the side to move) into the run: a new best, a raised alpha (with its line), and
    /// whether it cuts the node off, teaching the histories when a quiet move did.
    #[inline]
    fn raised(&mut self, run: &mut Run, m: Move, score: i32, frame: &Frame, color: Color) -> bool {
        let quiet = !is_tactical(m);
        if score > run.best_score {
            run.best_score = score;
            if score > run.alpha {
                run.best_move = Some(m);
                run.alpha = score;
                self.extend_pv(frame.ply, m);
                if frame.ply == 0 {
                    self.root_best = Some((m, score));
                }
                if score >= frame.beta {
                    if quiet {
                        self.update_quiet_stats(
                            frame.ply,
                            color,
                            m,
                            frame.depth,
                            &run.quiets_tried,
                        );
                    }
                    return true;
                }
            }
        }
        if quiet && run.quiets_tried.len() < run.quiets_tried.capacity() {
            run.quiets_tried.push(m);
        }
        false
    }

    /// The node's score once its moves are done, stored in the table with what it taught the
    /// correction history.
    #[inline]
    fn settle(&mut self, node: &Node, frame: &Frame, run: &Run) -> i32 {
        if run.searched == 0 {
            // Everything was pruned: the position is at least as bad as a quiet stand.
            return run.alpha;
        }
        let bound = bound(run.best_score, frame.alpha, run.alpha, frame.beta);
        if frame.ply == 0 && !self.excluded.is_empty() {
            // A root searched without its best moves is not the position's value.
            return run.best_score;
        }
        if !frame.in_check {
            self.learn_correction(
                node.pos.turn(),
                frame.pawns,
                run.best_move,
                run.best_score,
                frame.static_eval,
                bound,
                frame.depth,
            );
        }
        self.store(
            node,
            frame.ply,
            run.best_move,
            run.best_score,
            frame.raw_eval,
            frame.depth,
            bound,
        );
        run.best_score
    }

    /// The score of a node below the root that needs no search (a draw by rule, a mate
    /// nearer than any from here, the ply limit); otherwise narrows the window to the mates
    /// still possible.
    #[inline]
    fn settled_without_search(
        &mut self,
        node: &Node,
        ply: usize,
        in_check: bool,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Option<i32> {
        if self.is_draw(node, in_check) {
            return Some(self.draw(ply));
        }
        // Mate distance pruning: no line from here beats a mate already found nearer.
        *alpha = (*alpha).max(-MATE + ply as i32);
        *beta = (*beta).min(MATE - ply as i32 - 1);
        if *alpha >= *beta {
            return Some(*alpha);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(node));
        }
        None
    }

    /// A move's score: the first move with the full window; a later one with a null window,
    /// first `reduction` plies shallower, then at full depth if it beats alpha, then with the
    /// full window if it lands inside it.
    #[expect(
        clippy::too_many_arguments,
        reason = "a move's depths, ply and window, as negamax itself takes them"
    )]
    #[inline]
    fn search_move(
        &mut self,
        child: &Node,
        first: bool,
        new_depth: i32,
        reduction: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if first {
            return -self.negamax(child, new_depth, ply + 1, -beta, -alpha, false);
        }
        let mut score = -self.negamax(
            child,
            new_depth - reduction,
            ply + 1,
            -alpha - 1,
            -alpha,
            false,
        );
        if score > alpha && reduction > 0 {
            score = -self.negamax(child, new_depth, ply + 1, -alpha - 1, -alpha, false);
        }
        if score > alpha && score < beta {
            score = -self.negamax(child, new_depth, ply + 1, -beta, -alpha, false);
        }
        score
    }

    /// Makes `m` followed by the child's line the line at `ply`.
    #[inline]
    fn extend_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend(tail[0].iter().copied().take(MAX_PLY - 1));
    }

    /// Generates and scores the moves of a node, or gives the node's score when there are none
    /// to search: mate, stalemate, or (`alpha`) a root whose moves are all excluded.
    fn fill_picker(
        &mut self,
        picker: &mut Picker,
        pos: &Chess,
        ply: usize,
        tt_move: u16,
        killers: &[Option<Move>; 2],
        alpha: i32,
    ) -> Result<(), i32> {
        let mut legal = pos.legal_moves();
        if legal.is_empty() {
            return Err(if pos.is_check() {
                -MATE + ply as i32
            } else {
                self.draw(ply)
            });
        }
        if ply == 0 {
            self.restrict_root(&mut legal);
            legal.retain(|m| !self.excluded.contains(m));
            if legal.is_empty() {
                return Err(alpha);
            }
        }
        picker.fill(pos, &legal, tt_move, killers, self.history);
        Ok(())
    }
}
