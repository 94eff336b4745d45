//! Past the horizon: capture sequences finished before a position is evaluated.

use super::searcher::{Searcher, MAX_PLY, MAX_QUIESCENCE};
use crate::search::score::INFINITY;
use crate::search::searchable::Searchable;

impl<'a, P: Searchable> Searcher<'a, P> {
    /// Past the horizon: finish capture sequences, then evaluate.
    pub(super) fn quiesce(
        &mut self,
        position: &P,
        key: u64,
        ply: usize,
        alpha: i32,
        beta: i32,
        q: usize,
    ) -> i32 {
        if !self.params.quiescence
            || !P::QUIESCENCE
            || q >= MAX_QUIESCENCE
            || ply >= MAX_PLY
            || !position.may_capture()
        {
            return self.evaluate(position, key);
        }
        let mut buffers = self.take_buffers(ply);
        let value = self.quiesce_captures(position, key, &mut buffers.moves, ply, (alpha, beta), q);
        self.buffers[ply] = buffers;
        value
    }

    /// The captures of a quiescence node, searched in the game's order; the node's value.
    pub(super) fn quiesce_captures(
        &mut self,
        position: &P,
        key: u64,
        moves: &mut Vec<P::Move>,
        ply: usize,
        (alpha, beta): (i32, i32),
        q: usize,
    ) -> i32 {
        moves.clear();
        position.legal_moves(moves);
        let captures = moves.iter().filter(|mv| position.is_capture(mv)).count();
        if captures == 0 {
            return self.evaluate(position, key);
        }
        let maximizing = position.to_move() == self.root;
        let (mut low, mut high) = (alpha, beta);
        // Where captures are optional the side to move may also stand pat.
        let mut best_value = if captures < moves.len() {
            let stand = self.evaluate(position, key);
            if maximizing {
                low = low.max(stand);
            } else {
                high = high.min(stand);
            }
            if low >= high {
                return stand;
            }
            stand
        } else if maximizing {
            -INFINITY
        } else {
            INFINITY
        };
        for mv in moves.iter().filter(|mv| position.is_capture(mv)) {
            if self.budget.tick() {
                return 0;
            }
            let child = position.after(mv);
            let value = match child.outcome() {
                Some(outcome) => self.terminal(outcome, ply + 1),
                None => {
                    let child_key = child.search_key();
                    self.quiesce(&child, child_key, ply + 1, low, high, q + 1)
                }
            };
            if self.budget.aborted() {
                return 0;
            }
            if maximizing {
                best_value = best_value.max(value);
                low = low.max(value);
            } else {
                best_value = best_value.min(value);
                high = high.min(value);
            }
            if low >= high {
                break;
            }
        }
        best_value
    }
}
