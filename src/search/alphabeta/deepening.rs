//! The iterative-deepening driver: the main thread's deepening, the helper threads' (lazy SMP)
//! and one root iteration with aspiration windows.

use super::searcher::{root_search, Job, RootSearch, Searcher};
use crate::search::limits::Limits;
use crate::search::params::{Found, Params};
use crate::search::score::{self, INFINITY};
use crate::search::searchable::Searchable;
use std::sync::atomic::AtomicBool;

/// Iterative deepening on this thread: the search's answer.
pub(super) fn deepen<P: Searchable>(
    job: &Job<'_, P>,
    stop: &AtomicBool,
    moves: Vec<P::Move>,
) -> Found<P::Move> {
    let Job {
        position, params, ..
    } = *job;
    let mut searcher = Searcher::new(job, stop);
    let mut found = Found {
        best: moves[0].clone(),
        score: 0,
        depth: 0,
        nodes: 0,
        timed_out: false,
    };
    let root = root_search(position, params);
    // A decisive score ends the deepening. Its distance is only sure once the iteration's depth
    // covers it: every faster end then lies inside the tree. Before that, table entries from
    // deeper searches (the helper thread's, or a transposition's) can show a slow win while a
    // fast one is still past the horizon. Timed and multi-threaded searches deepen until the
    // distance is proven; the node-budgeted levels stop at the first decisive score, as they
    // did when they were measured, so that they replay.
    let prove_distance = params.threads > 1 || params.limits.is_timed();
    let mut depth = 1;
    while searcher.budget.may_start(depth) {
        searcher.budget.start_iteration(depth);
        let value = match root {
            RootSearch::BestReply => {
                searcher.root_best = None;
                searcher.root_raised = None;
                searcher.best_reply(position, depth as i32, 0, -INFINITY, INFINITY)
            }
            RootSearch::MaxN => searcher.maxn_root(position, depth as i32),
            RootSearch::Paranoid => {
                let aspire =
                    params.aspiration > 0 && depth >= 4 && !score::is_decisive(found.score);
                searcher.aspiration_root(position, depth as i32, aspire.then_some(found.score))
            }
        };
        let aborted = searcher.budget.aborted();
        // A timed search abandoned mid-iteration plays the best root move that iteration proved
        // at least as good as its window's floor (for the move searched first, the last complete
        // iteration's best, that is any value), else the last complete iteration's move. A
        // node-budgeted one (every level but expert, replayed exactly) takes the best root move
        // its cut iteration fully searched, as it always has.
        let chosen = if aborted && params.limits.is_timed() && found.depth > 0 {
            searcher.root_raised
        } else {
            searcher.root_best
        };
        if let Some(index) = chosen {
            found.best = moves[index].clone();
            if !aborted {
                found.score = value;
                found.depth = depth;
            }
        }
        let settled =
            score::is_decisive(value) && (!prove_distance || score::plies_to_end(value) <= depth);
        if aborted || settled {
            break;
        }
        depth += 1;
    }
    found.nodes = searcher.budget.nodes();
    found.timed_out = searcher.budget.timed_out();
    found
}

/// A helper thread of a search with `Params::threads` above one ("lazy SMP"): it deepens on the
/// same position and table as the main thread, odd helpers one ply ahead, so that the main
/// thread finds deeper entries and better first moves; its own answer is not used. It runs
/// until `done`, or until its own clock reaches the search's hard limit. Returns its nodes.
pub(super) fn help<P: Searchable>(job: &Job<'_, P>, done: &AtomicBool, helper: u32) -> u64 {
    let params = Params {
        limits: Limits {
            max_nodes: u64::MAX,
            soft_time: None,
            wall_cap: None,
            ..job.params.limits
        },
        ..*job.params
    };
    let position = job.position;
    let job = Job {
        params: &params,
        ..*job
    };
    let mut searcher = Searcher::new(&job, done);
    let mut depth = 1 + helper % 2;
    let mut previous: Option<i32> = None;
    while searcher.budget.may_start(depth) {
        searcher.budget.start_iteration(depth);
        let aspire = params.aspiration > 0 && depth >= 4;
        let guess = previous.filter(|&value| aspire && !score::is_decisive(value));
        let value = searcher.aspiration_root(position, depth as i32, guess);
        if searcher.budget.aborted() || score::is_decisive(value) {
            break;
        }
        previous = Some(value);
        depth += 1;
    }
    searcher.budget.nodes()
}

impl<'a, P: Searchable> Searcher<'a, P> {
    /// One iteration at the root: with a full window, or around `guess` (aspiration windows,
    /// `Params::aspiration`), searching again with a wider window on the side a result falls
    /// outside, so the value returned is always exact (unless the budget cut the search).
    pub(super) fn aspiration_root(&mut self, position: &P, depth: i32, guess: Option<i32>) -> i32 {
        let Some(guess) = guess else {
            self.root_best = None;
            self.root_raised = None;
            return self.alphabeta(position, depth, 0, -INFINITY, INFINITY);
        };
        let mut delta = self.params.aspiration;
        let (mut low, mut high) = (guess - delta, guess + delta);
        loop {
            self.root_best = None;
            self.root_raised = None;
            let value = self.alphabeta(position, depth, 0, low, high);
            if self.budget.aborted() || (value > low && value < high) {
                return value;
            }
            delta = delta.saturating_mul(4);
            // A mate score or a swing past a few pieces: drop that side's bound altogether.
            let wide = delta > 16 * self.params.aspiration || score::is_decisive(value);
            if value <= low {
                low = if wide { -INFINITY } else { value - delta };
            } else {
                high = if wide { INFINITY } else { value + delta };
            }
        }
    }
}
