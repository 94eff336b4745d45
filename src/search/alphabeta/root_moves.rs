//! Every root move's value, for the easy level's choice among them.

use super::searcher::{Job, Searcher};
use crate::search::params::Params;
use crate::search::score::INFINITY;
use crate::search::searchable::Searchable;
use crate::search::table::Table;
use std::sync::atomic::AtomicBool;

/// Each root move's value at `depth` (the easy level picks among them), sorted best first, ties
/// in search order. Without `prune` every move is searched with a full window, in move order.
/// With `prune: Some(margin)` moves are searched in the game's hint order and a move falling
/// more than `margin` below the best so far gets only an upper bound (it can never be picked).
/// When the budget runs out, the moves not yet scored are left out; the node budget always lets
/// the first move be scored. The flag tells whether the time guard cut the scoring short.
pub fn score_root_moves<P: Searchable>(
    position: &P,
    history: &[u64],
    params: &Params,
    depth: u32,
    prune: Option<i32>,
    stop: &AtomicBool,
) -> (Vec<(P::Move, i32)>, bool) {
    let mut moves = position.moves();
    if prune.is_some() {
        // Stable: equal hints keep the game's move order.
        moves.sort_by_key(|mv| std::cmp::Reverse(position.order_hint(mv)));
    }
    let table = Table::new(params.table_bits);
    let job = Job {
        position,
        history,
        params,
        table: &table,
        endgame: None,
    };
    let mut searcher = Searcher::new(&job, stop);
    let root_key = position.zobrist();
    let mut scored = Vec::with_capacity(moves.len());
    let mut best = -INFINITY;
    for mv in moves {
        // The node budget never cuts the first move's search (only the stop flag does).
        searcher
            .budget
            .start_iteration(if scored.is_empty() { 0 } else { depth });
        let child = position.after(&mv);
        searcher.push(root_key, position.is_irreversible(&mv));
        let low = match prune {
            Some(margin) if best > -INFINITY => best - margin - 1,
            _ => -INFINITY,
        };
        let value = searcher.alphabeta(&child, depth as i32 - 1, 1, low, INFINITY);
        searcher.pop();
        // A move whose search was cut short has no score: it is left out.
        if searcher.budget.aborted() {
            break;
        }
        best = best.max(value);
        scored.push((mv, value));
    }
    scored.sort_by_key(|(_, value)| std::cmp::Reverse(*value));
    (scored, searcher.budget.timed_out())
}
