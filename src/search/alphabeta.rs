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
use super::endgame::{EndgameTables, GameTables};
use super::limits::Budget;
use super::ordering::Ordering;
pub use super::params::{Found, MovePruning, MultiPlayer, Params};
use super::score::INFINITY;
use super::searchable::Searchable;
use super::table::Table;
use super::table_pool::Owner;
use crate::position::Seat;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod best_reply;
mod deepening;
mod maxn;
mod move_order;
mod node;
mod quiescence;
mod root_moves;
mod searcher;

use deepening::{deepen, help};
pub use root_moves::score_root_moves;

/// Deepest path (plies, quiescence included) the search follows.
const MAX_PLY: usize = 120;
/// Deepest capture sequence followed past the horizon.
const MAX_QUIESCENCE: usize = 24;

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

/// What the threads of one search share: the position searched, the earlier positions it may
/// repeat, the parameters, the table and the endgame databases it probes.
struct Job<'a, P> {
    position: &'a P,
    history: &'a [u64],
    params: &'a Params,
    table: &'a Table,
    endgame: Option<&'a EndgameTables>,
}

/// Which search the root runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RootSearch {
    /// Alpha-beta on the root seat's score (two seats, or the paranoid search).
    Paranoid,
    BestReply,
    MaxN,
}

fn root_search<P: Searchable>(position: &P, params: &Params) -> RootSearch {
    let several = position.seats() > 2;
    if several
        && params.multi_player == MultiPlayer::BestReply
        && position.with_turn(position.to_move()).is_some()
    {
        RootSearch::BestReply
    } else if several && params.multi_player == MultiPlayer::MaxN {
        RootSearch::MaxN
    } else {
        RootSearch::Paranoid
    }
}

/// What the table says of a node: a score that settles it, or the index of the move to try first
/// (`usize::MAX`: none).
enum Probe {
    Cut(i32),
    First(usize),
}

/// The alpha-beta window of one node and its best move so far, shared by the paranoid search and
/// Best-Reply Search. Scores are the root seat's: a maximizing node raises `low`, a minimizing
/// node lowers `high`.
struct Window {
    /// The window the node was called with (for the bound it stores).
    alpha: i32,
    beta: i32,
    low: i32,
    high: i32,
    maximizing: bool,
    best_value: i32,
    best_index: usize,
}

impl Window {
    fn new(alpha: i32, beta: i32, maximizing: bool, first_index: usize) -> Window {
        Window {
            alpha,
            beta,
            low: alpha,
            high: beta,
            maximizing,
            best_value: if maximizing { -INFINITY } else { INFINITY },
            best_index: first_index,
        }
    }

    /// The null window at the side the node's player tries to improve.
    fn null_window(&self) -> (i32, i32) {
        if self.maximizing {
            (self.low, self.low + 1)
        } else {
            (self.high - 1, self.high)
        }
    }

    /// Whether `value` fails to improve on the node's side of the window.
    fn fails(&self, value: i32) -> bool {
        if self.maximizing {
            value <= self.low
        } else {
            value >= self.high
        }
    }

    fn improves(&self, value: i32) -> bool {
        if self.maximizing {
            value > self.best_value
        } else {
            value < self.best_value
        }
    }

    /// Principal-variation search of the move ranked `rank`: the first with the full window, the
    /// others with a null window and, when that finds a better move, again with the rest of it.
    fn search(&self, rank: usize, mut child: impl FnMut(i32, i32) -> i32) -> i32 {
        if rank == 0 {
            return child(self.low, self.high);
        }
        let (low, high) = self.null_window();
        let probe = child(low, high);
        if probe <= self.low || probe >= self.high {
            probe
        } else if self.maximizing {
            child(probe, self.high)
        } else {
            child(self.low, probe)
        }
    }
}

struct Searcher<'a, P: Searchable> {
    root: Seat,
    params: &'a Params,
    budget: Budget<'a>,
    table: &'a Table,
    ordering: Ordering<P::Move>,
    /// Keys of the positions on the path (history first) that later positions may repeat.
    path: Vec<u64>,
    /// For each path entry, the first index it may repeat (after the last irreversible move).
    reversible_from: Vec<usize>,
    repetition: bool,
    /// The root move with the best value of the iteration under way.
    root_best: Option<usize>,
    /// The best root move of the iteration under way whose value rose above the root's window
    /// floor (what a timed search cut short may play).
    root_raised: Option<usize>,
    /// The endgame databases probed below the root (`Params::endgame`).
    endgame: Option<Arc<GameTables>>,
    /// Per ply, the buffers its nodes work in (see [`PlyBuffers`]).
    buffers: Vec<PlyBuffers<P::Move>>,
}

/// The lists a node fills, kept per ply and reused by every node at that ply: a node no longer
/// allocates (allocation took a few per cent of expert's time). A node takes its ply's buffers
/// out while it searches, so its children, one ply deeper, never touch them.
struct PlyBuffers<M> {
    moves: Vec<M>,
    /// (rank, index) of each move, best first: the search order.
    ranked: Vec<(u32, usize)>,
}

impl<M> Default for PlyBuffers<M> {
    fn default() -> Self {
        PlyBuffers {
            moves: Vec::new(),
            ranked: Vec::new(),
        }
    }
}
