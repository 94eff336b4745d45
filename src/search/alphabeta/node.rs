//! One node of the search: the table's verdict, ProbCut where the parameters ask, the moves
//! searched in order by principal-variation search (with reductions and move pruning where the
//! parameters ask), and the result stored.

use super::searcher::{PlyBuffers, Searcher, MAX_PLY};
use super::window::{Probe, Window};
use crate::search::score;
use crate::search::searchable::Searchable;
use crate::search::table::Bound;

impl<'a, P: Searchable> Searcher<'a, P> {
    pub(super) fn alphabeta(
        &mut self,
        position: &P,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if let Some(value) = self.settled(position, ply) {
            return value;
        }
        let key = position.search_key();
        if ply > 0 && self.repeats(position.zobrist()) {
            return self.draw();
        }
        if ply > 0 {
            if let Some(score) = self.endgame_score(position, ply) {
                return score;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(position, key, ply, alpha, beta, 0);
        }
        if let Some(cut) = self.probcut(position, depth, ply, alpha, beta) {
            return cut;
        }
        let mut buffers = self.take_buffers(ply);
        let value = self.search_moves(position, key, &mut buffers, depth, ply, (alpha, beta));
        self.buffers[ply] = buffers;
        value
    }

    /// ProbCut ([`ProbCut`](crate::search::params::ProbCut)): the node's window bound on the
    /// mover's side when a shallower search predicts its value lies far enough past it, else
    /// `None` (search the node). Only below the root, with a null window (the principal
    /// variation keeps its exact values) and away from decisive scores.
    fn probcut(
        &mut self,
        position: &P,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let probcut = self.params.probcut?;
        if ply == 0
            || depth < probcut.min_depth as i32
            || beta.saturating_sub(alpha) != 1
            || score::is_decisive(alpha)
            || score::is_decisive(beta)
        {
            return None;
        }
        let shallow = depth - probcut.reduction as i32;
        // Scores are the root seat's: a minimizing node's mover sees them negated.
        let maximizing = position.to_move() == self.root;
        let (bound, cut) = if maximizing {
            (probcut.shallow_bound(beta), beta)
        } else {
            (-probcut.shallow_bound(-alpha), alpha)
        };
        if score::is_decisive(bound) {
            return None;
        }
        let value = if maximizing {
            self.alphabeta(position, shallow, ply, bound - 1, bound)
        } else {
            self.alphabeta(position, shallow, ply, bound, bound + 1)
        };
        let past = if maximizing {
            value >= bound
        } else {
            value <= bound
        };
        (past && !self.budget.aborted()).then_some(cut)
    }

    /// Its ply's buffers, taken out for a node (empty ones the first time).
    pub(super) fn take_buffers(&mut self, ply: usize) -> PlyBuffers<P::Move> {
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, PlyBuffers::default);
        }
        std::mem::take(&mut self.buffers[ply])
    }

    /// An inner node past the checks that need no moves: the table's verdict, else its moves
    /// searched in order in `buffers`; the node's value.
    pub(super) fn search_moves(
        &mut self,
        position: &P,
        key: u64,
        buffers: &mut PlyBuffers<P::Move>,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        let tt_move = match self.probe(key, ply, depth, alpha, beta) {
            Probe::Cut(score) => return score,
            Probe::First(index) => index,
        };
        let PlyBuffers { moves, ranked } = buffers;
        moves.clear();
        position.legal_moves(moves);
        if moves.is_empty() {
            return self.evaluate(position, key);
        }
        self.rank_moves(moves.iter().map(|mv| (position, mv)), ply, tt_move, ranked);
        // A forced reply costs one node: look one ply further.
        let child_depth = if moves.len() == 1 { depth } else { depth - 1 };
        let maximizing = position.to_move() == self.root;
        let mut window = Window::new(alpha, beta, maximizing, ranked[0].1);
        let irreversible_key = position.zobrist();
        let kept = match self.params.move_pruning {
            Some(pruning) if ply > 0 => pruning.kept(depth),
            _ => usize::MAX,
        };
        for (rank, &(_, index)) in ranked.iter().enumerate() {
            let mv = &moves[index];
            if rank >= kept && !position.wins_at_once(mv) {
                continue;
            }
            let child = position.after(mv);
            self.push(irreversible_key, position.is_irreversible(mv));
            self.note_played(ply, position.history_key(mv));
            let reduce = self.params.reductions
                && rank >= 3
                && depth >= 3
                && child_depth == depth - 1
                && !position.is_capture(mv);
            // A reduced probe that fails to beat the best so far settles the move.
            let settled = if reduce {
                let (low, high) = window.null_window();
                let probe = self.alphabeta(&child, child_depth - 1, ply + 1, low, high);
                window.fails(probe).then_some(probe)
            } else {
                None
            };
            let value = match settled {
                Some(probe) => probe,
                None => window.search(rank, |low, high| {
                    self.alphabeta(&child, child_depth, ply + 1, low, high)
                }),
            };
            self.pop();
            if self.budget.aborted() {
                return 0;
            }
            if self.take_value(&mut window, index, value, (position, mv), ply, depth) {
                break;
            }
        }
        self.store(key, ply, depth, &window)
    }

    /// The table's verdict on a node searched `depth` deep in the window (`alpha`, `beta`).
    pub(super) fn probe(&self, key: u64, ply: usize, depth: i32, alpha: i32, beta: i32) -> Probe {
        let Some(entry) = self.table.probe(key, ply) else {
            return Probe::First(usize::MAX);
        };
        if ply > 0 && i32::from(entry.depth) >= depth {
            let cut = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.score >= beta,
                Bound::Upper => entry.score <= alpha,
            };
            if cut {
                return Probe::Cut(entry.score);
            }
        }
        Probe::First(usize::from(entry.best))
    }

    /// Takes the value of the move at `index` (`mv`, played by `mover`) into the node's window;
    /// true when it cuts the node off (a quiet move then becomes a killer and gains history).
    pub(super) fn take_value(
        &mut self,
        window: &mut Window,
        index: usize,
        value: i32,
        (mover, mv): (&P, &P::Move),
        ply: usize,
        depth: i32,
    ) -> bool {
        if window.improves(value) {
            window.best_value = value;
            window.best_index = index;
            if ply == 0 {
                self.root_best = Some(index);
                if value > window.low {
                    self.root_raised = Some(index);
                }
            }
        }
        if window.maximizing {
            window.low = window.low.max(value);
        } else {
            window.high = window.high.min(value);
        }
        let cut = window.low >= window.high;
        if cut && !mover.is_capture(mv) {
            let previous = self.previous_key(ply);
            self.ordering
                .cutoff(mv, ply, depth, mover.history_key(mv), previous);
        }
        cut
    }

    /// Stores the node's result in the table, with the bound its window gives; returns its value.
    pub(super) fn store(&self, key: u64, ply: usize, depth: i32, window: &Window) -> i32 {
        let bound = if window.best_value <= window.alpha {
            Bound::Upper
        } else if window.best_value >= window.beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table
            .store(key, ply, depth, window.best_value, bound, window.best_index);
        window.best_value
    }
}
