//! Iterative-deepening alpha-beta with principal-variation search, for any number of seats.
//!
//! Scores are always from the root seat's side: the root seat maximises and every other seat
//! minimises. With two seats that is plain minimax; with more it is the paranoid search (the
//! other seats are assumed to play against the root seat), which keeps alpha-beta pruning
//! sound in multi-player games. [`Params::multi_player`] may choose Best-Reply Search
//! (`best_reply.rs`) or max^n (`maxn.rs`) instead. The horizon finishes capture sequences in games that ask for it
//! (captures are compulsory in draughts, so a capture position has no stand-pat value).
//! With `Params::endgame` (expert in draughts), a node below the root whose position the
//! endgame databases hold returns its exact score instead of being searched (docs/cpu.md,
//! "Endgame databases").
//!
//! This module holds the entry ([`search`]), the searcher's state and a node's window; the rest
//! is split by concept: `deepening` (the iterative-deepening driver, helper threads, aspiration
//! windows), `node` (one node: table, principal-variation search of its moves, store),
//! `move_order`, `quiescence`, `searcher` (path, repetition, leaf values) and `root_moves`
//! (every root move's value, for the easy level).

use super::context::SearchContext;
pub use super::params::{Found, MovePruning, MultiPlayer, Params, ProbCut};
use super::searchable::Searchable;
use super::table::Table;
use super::table_pool::Owner;
use std::sync::atomic::AtomicBool;

mod best_reply;
mod deepening;
mod maxn;
mod move_order;
mod node;
mod quiescence;
mod root_moves;
mod searcher;
mod window;

use deepening::{deepen, help};
pub use root_moves::score_root_moves;
use searcher::{root_search, Job, RootSearch};

/// The best move for the seat to move, or `None` when it has none. `history` holds the keys of
/// earlier positions that can still repeat (oldest first), for draughts' repetition draws.
/// With `Params::threads` above one, helper threads search the same position on the same table
/// while this thread deepens (see [`help`]); their nodes are counted in [`Found::nodes`].
/// A timed search without noise (expert) takes its table from the context's pool and keeps it
/// there for the same seat's next move; with `Params::endgame` it probes the context's endgame
/// databases.
pub fn search<P: Searchable + Sync>(
    position: &P,
    history: &[u64],
    params: &Params,
    stop: &AtomicBool,
    context: &SearchContext,
) -> Option<Found<P::Move>> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let first = moves.first()?.clone();
    if moves.len() == 1 {
        return Some(Found {
            best: first,
            score: 0,
            depth: 0,
            nodes: 0,
            timed_out: false,
        });
    }
    if position.seats() > 2 && params.multi_player == MultiPlayer::MonteCarlo {
        return super::mcts::search(position, params, stop);
    }
    let root = root_search(position, params);
    // Without noise the seed changes nothing, so every move of a game has the same owner.
    let owner = (params.limits.is_timed() && params.noise == 0 && root == RootSearch::Paranoid)
        .then(|| Owner {
            variant: position.variant(),
            seat: position.to_move(),
            params: Params { seed: 0, ..*params },
        });
    let pool = context.table_pool();
    let table = match owner {
        Some(owner) => pool.take(owner, params.table_bits, position.search_key()),
        None => Table::new(params.table_bits),
    };
    let endgame = params.endgame.then(|| context.endgame());
    let job = Job {
        position,
        history,
        params,
        table: &table,
        endgame,
    };
    let found = if params.threads > 1 && root == RootSearch::Paranoid {
        search_with_helpers(&job, stop, moves)
    } else {
        deepen(&job, stop, moves)
    };
    if let Some(owner) = owner {
        pool.give_back(owner, table);
    }
    Some(found)
}

/// [`deepen`] on this thread while `params.threads - 1` helpers search the same position on
/// the same table ([`help`]).
fn search_with_helpers<P: Searchable + Sync>(
    job: &Job<'_, P>,
    stop: &AtomicBool,
    moves: Vec<P::Move>,
) -> Found<P::Move> {
    let helpers = job.params.threads.saturating_sub(1);
    // Helpers stop when this thread is done, for whatever reason (its time, or `stop`).
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=helpers)
            .filter_map(|helper| {
                let done = &done;
                std::thread::Builder::new()
                    .name(format!("search-helper-{helper}"))
                    .spawn_scoped(scope, move || help(job, done, helper))
                    .ok()
            })
            .collect();
        let mut found = deepen(job, stop, moves);
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        for handle in handles {
            found.nodes += handle.join().unwrap_or(0);
        }
        found
    })
}
