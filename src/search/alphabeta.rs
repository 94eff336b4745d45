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

use super::endgame::{GameTables, Value};
use super::limits::{Budget, Limits};
use super::ordering::{MoveHints, Ordering};
use super::score::{self, DRAW, INFINITY, WIN};
use super::searchable::{EvalStyle, Searchable};
use super::table::{Bound, Table};
use super::table_pool::{Owner, TablePool, EXPERT_TABLES};
use crate::position::{GameResult, Outcome, Seat};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod best_reply;
mod maxn;

/// Deepest path (plies, quiescence included) the search follows.
const MAX_PLY: usize = 120;
/// Deepest capture sequence followed past the horizon.
const MAX_QUIESCENCE: usize = 24;

/// What shapes a search besides its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub limits: Limits,
    pub style: EvalStyle,
    /// Finish capture sequences past the horizon (only where the game asks for it).
    pub quiescence: bool,
    /// Amplitude of the seeded evaluation noise that varies play between games (0: none).
    pub noise: i32,
    pub seed: u64,
    /// log2 of the transposition table's entries.
    pub table_bits: u32,
    /// Late-move reductions: quiet moves ordered late are first searched one ply shallower and
    /// searched again at full depth only if they look better than the best so far.
    pub reductions: bool,
    /// The search with more than two seats (ignored with two).
    pub multi_player: MultiPlayer,
    /// Aspiration windows: from the fourth iteration on, the root is searched with a window of
    /// this half-width around the previous iteration's score (widened fourfold on the side that
    /// fails, until it holds). 0: full windows (every level but expert, so they replay as before).
    pub aspiration: i32,
    /// Threads searching (expert; 1 for every other level, which must replay exactly): the extra
    /// ones are helpers sharing the table ([`search`]). Only the alpha-beta root (two seats, the
    /// paranoid search) uses them.
    pub threads: u32,
    /// Probe the game's endgame databases when loaded (expert only: the node-budgeted levels
    /// and the baseline replay exactly whatever files a machine holds).
    pub endgame: bool,
    /// What a draw costs the root seat, in the evaluation's units: draws (by the rules, by
    /// repetition on the path, in the endgame databases) score `-contempt` instead of 0, so a
    /// player that expects to outplay its opponent keeps the game going rather than take a
    /// draw it is not forced into. 0 for every level but expert.
    pub contempt: i32,
    /// Late-move pruning: below the root, only the first moves in the search's order are
    /// searched (and any move that wins at once). None for every level but expert in two-seat
    /// Diamond, where a turn offers a hundred moves and most of them lose ground.
    pub move_pruning: Option<MovePruning>,
}

/// How many of a node's moves [`Params::move_pruning`] keeps: `first` where the children are
/// leaves, `per_ply` more for every ply left beyond that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePruning {
    pub first: u32,
    pub per_ply: u32,
}

impl MovePruning {
    /// Moves searched at a node with `depth` plies left (at least one, so that a node always
    /// has a value).
    fn kept(self, depth: i32) -> usize {
        let beyond = depth.max(1) as u32 - 1;
        self.first
            .saturating_add(self.per_ply.saturating_mul(beyond))
            .max(1) as usize
    }
}

/// How the search treats more than two seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiPlayer {
    /// The other seats play together against the root seat (alpha-beta on the root seat's
    /// score).
    Paranoid,
    /// Best-Reply Search, where the game lets a seat move out of turn
    /// ([`Searchable::with_turn`]); paranoid otherwise.
    BestReply,
    /// Max^n: every seat maximises its own entry of [`Searchable::evaluate_seats`], with shallow
    /// pruning where the game bounds them ([`Searchable::seat_score_bounds`]).
    MaxN,
    /// The paranoid search with the root seat's entry of [`Searchable::evaluate_seats`] at the
    /// leaves instead of [`Searchable::evaluate`].
    ParanoidSeatScores,
    /// Monte-Carlo tree search ([`super::mcts`]): no alpha-beta at all.
    MonteCarlo,
}

/// The search's answer.
#[derive(Clone, Debug)]
pub struct Found<M> {
    pub best: M,
    /// From the root seat's side.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    /// The per-level time guard stopped the search (see [`Budget::timed_out`]).
    pub timed_out: bool,
}

/// The best move for the seat to move, or `None` when it has none. `history` holds the keys of
/// earlier positions that can still repeat (oldest first), for draughts' repetition draws.
/// With `Params::threads` above one, helper threads search the same position on the same table
/// while this thread deepens (see [`help`]); their nodes are counted in [`Found::nodes`].
/// A timed search without noise (expert) takes its table from [`EXPERT_TABLES`] and keeps it
/// there for the same seat's next move.
pub fn search<P: Searchable + Sync>(
    position: &P,
    history: &[u64],
    params: &Params,
    stop: &AtomicBool,
) -> Option<Found<P::Move>> {
    search_in(position, history, params, stop, &EXPERT_TABLES)
}

/// [`search`] with the tables a timed search keeps in `pool` (tests give their own).
pub(crate) fn search_in<P: Searchable + Sync>(
    position: &P,
    history: &[u64],
    params: &Params,
    stop: &AtomicBool,
    pool: &TablePool,
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
    let table = match owner {
        Some(owner) => pool.take(owner, params.table_bits, position.search_key()),
        None => Table::new(params.table_bits),
    };
    let found = if params.threads > 1 && root == RootSearch::Paranoid {
        search_with_helpers(position, history, params, stop, &table, moves)
    } else {
        deepen(position, history, params, stop, &table, moves)
    };
    if let Some(owner) = owner {
        pool.give_back(owner, table);
    }
    Some(found)
}

/// [`deepen`] on this thread while `params.threads - 1` helpers search the same position on
/// the same table ([`help`]).
fn search_with_helpers<P: Searchable + Sync>(
    position: &P,
    history: &[u64],
    params: &Params,
    stop: &AtomicBool,
    table: &Table,
    moves: Vec<P::Move>,
) -> Found<P::Move> {
    let helpers = params.threads.saturating_sub(1);
    // Helpers stop when this thread is done, for whatever reason (its time, or `stop`).
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=helpers)
            .filter_map(|helper| {
                let done = &done;
                std::thread::Builder::new()
                    .name(format!("search-helper-{helper}"))
                    .spawn_scoped(scope, move || {
                        help(position, history, params, done, table, helper)
                    })
                    .ok()
            })
            .collect();
        let mut found = deepen(position, history, params, stop, table, moves);
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        for handle in handles {
            found.nodes += handle.join().unwrap_or(0);
        }
        found
    })
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

/// Iterative deepening on this thread: the search's answer.
fn deepen<P: Searchable>(
    position: &P,
    history: &[u64],
    params: &Params,
    stop: &AtomicBool,
    table: &Table,
    moves: Vec<P::Move>,
) -> Found<P::Move> {
    let mut searcher = Searcher::new(position, history, params, stop, table);
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
fn help<P: Searchable>(
    position: &P,
    history: &[u64],
    params: &Params,
    done: &AtomicBool,
    table: &Table,
    helper: u32,
) -> u64 {
    let params = Params {
        limits: Limits {
            max_nodes: u64::MAX,
            soft_time: None,
            wall_cap: None,
            ..params.limits
        },
        ..*params
    };
    let mut searcher = Searcher::new(position, history, &params, done, table);
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
    let mut searcher = Searcher::new(position, history, params, stop, &table);
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

impl<'a, P: Searchable> Searcher<'a, P> {
    fn new(
        position: &P,
        history: &[u64],
        params: &'a Params,
        stop: &'a AtomicBool,
        table: &'a Table,
    ) -> Self {
        // The clock starts first: the first search's reading of the files (a fifth of a second
        // for International's) is part of its move's time, which must not exceed the limit.
        let budget = Budget::new(params.limits, stop);
        let endgame = if params.endgame {
            P::endgame_tables()
        } else {
            None
        };
        Searcher {
            root: position.to_move(),
            params,
            budget,
            table,
            ordering: Ordering::new(),
            path: history.to_vec(),
            reversible_from: vec![0; history.len()],
            repetition: position.repetition_limit().is_some(),
            root_best: None,
            root_raised: None,
            endgame,
            buffers: Vec::new(),
        }
    }

    /// One iteration at the root: with a full window, or around `guess` (aspiration windows,
    /// `Params::aspiration`), searching again with a wider window on the side a result falls
    /// outside, so the value returned is always exact (unless the budget cut the search).
    fn aspiration_root(&mut self, position: &P, depth: i32, guess: Option<i32>) -> i32 {
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

    fn push(&mut self, key: u64, irreversible: bool) {
        let from = if irreversible {
            self.path.len() + 1
        } else {
            self.reversible_from.last().copied().unwrap_or(0)
        };
        self.path.push(key);
        self.reversible_from.push(from);
    }

    fn pop(&mut self) {
        self.path.pop();
        self.reversible_from.pop();
    }

    /// A position already on the path since the last irreversible move: the search scores it a
    /// draw, as repeating it is the best both sides can force from there.
    fn repeats(&self, key: u64) -> bool {
        let from = self.reversible_from.last().copied().unwrap_or(0);
        self.repetition
            && self
                .path
                .get(from..)
                .is_some_and(|keys| keys.contains(&key))
    }

    fn terminal(&self, outcome: Outcome, ply: usize) -> i32 {
        match outcome.result {
            GameResult::Win(seat) if seat == self.root => WIN - ply as i32,
            GameResult::Win(_) => -(WIN - ply as i32),
            GameResult::Draw => self.draw(),
        }
    }

    /// A draw's score for the root seat.
    fn draw(&self) -> i32 {
        DRAW - self.params.contempt
    }

    /// The databases' exact score of a position at `ply`, when they hold it and its value stands
    /// under the position's draw counters: a draw always (counters only add draws), a win or loss
    /// only when it ends within the fewest plies any counter leaves. A longer one is left to the
    /// search, whose deeper nodes may reach a capture or a man move that resets the counters.
    fn endgame_score(&self, position: &P, ply: usize) -> Option<i32> {
        let tables = self.endgame.as_deref()?;
        let value = position.endgame_value(tables)?;
        let (winner_to_move, distance) = match value {
            Value::Draw => return Some(self.draw()),
            Value::Win(distance) => (true, distance),
            Value::Loss(distance) => (false, distance),
        };
        let room = position
            .draw_counters()
            .iter()
            .map(|counter| counter.plies_left)
            .min()
            .unwrap_or(u32::MAX);
        if distance > room {
            return None;
        }
        let mate = WIN - ply as i32 - distance as i32;
        let root_wins = winner_to_move == (position.to_move() == self.root);
        Some(if root_wins { mate } else { -mate })
    }

    fn evaluate(&self, position: &P, key: u64) -> i32 {
        let value = if self.params.multi_player == MultiPlayer::ParanoidSeatScores
            && position.seats() > 2
        {
            position.evaluate_seats(self.params.style)[usize::from(self.root)]
        } else {
            position.evaluate(self.root, self.params.style)
        };
        self.noisy(value, key)
    }

    /// `value` plus the seeded noise of the position with `key`.
    fn noisy(&self, value: i32, key: u64) -> i32 {
        if self.params.noise == 0 {
            return value;
        }
        // A fixed pseudo-random offset per position and seed: different games, same replay.
        let mixed = (key ^ self.params.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let span = 2 * self.params.noise as u64 + 1;
        value + ((mixed >> 33) % span) as i32 - self.params.noise
    }

    fn alphabeta(&mut self, position: &P, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.budget.tick() {
            return 0;
        }
        if let Some(outcome) = position.outcome() {
            return self.terminal(outcome, ply);
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
        let mut buffers = self.take_buffers(ply);
        let value = self.search_moves(position, key, &mut buffers, depth, ply, (alpha, beta));
        self.buffers[ply] = buffers;
        value
    }

    /// Its ply's buffers, taken out for a node (empty ones the first time).
    fn take_buffers(&mut self, ply: usize) -> PlyBuffers<P::Move> {
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, PlyBuffers::default);
        }
        std::mem::take(&mut self.buffers[ply])
    }

    /// An inner node past the checks that need no moves: the table's verdict, else its moves
    /// searched in order in `buffers`; the node's value.
    fn search_moves(
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
    fn probe(&self, key: u64, ply: usize, depth: i32, alpha: i32, beta: i32) -> Probe {
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
    fn take_value(
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
            self.ordering.cutoff(mv, ply, depth, mover.history_key(mv));
        }
        cut
    }

    /// Stores the node's result in the table, with the bound its window gives; returns its value.
    fn store(&self, key: u64, ply: usize, depth: i32, window: &Window) -> i32 {
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

    /// Past the horizon: finish capture sequences, then evaluate.
    fn quiesce(
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
    fn quiesce_captures(
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

    /// Indices of the moves in search order, each move given with the position it is played in.
    fn order<'m>(
        &self,
        moves: impl Iterator<Item = (&'m P, &'m P::Move)>,
        ply: usize,
        tt_move: usize,
    ) -> Vec<usize>
    where
        P: 'm,
    {
        let mut ranked = Vec::new();
        self.rank_moves(moves, ply, tt_move, &mut ranked);
        ranked.into_iter().map(|(_, index)| index).collect()
    }

    /// Fills `ranked` with (rank, index) of the moves, in search order, each move given with the
    /// position it is played in.
    fn rank_moves<'m>(
        &self,
        moves: impl Iterator<Item = (&'m P, &'m P::Move)>,
        ply: usize,
        tt_move: usize,
        ranked: &mut Vec<(u32, usize)>,
    ) where
        P: 'm,
    {
        ranked.clear();
        ranked.extend(moves.enumerate().map(|(index, (position, mv))| {
            let rank = self.ordering.rank(
                mv,
                ply,
                MoveHints {
                    is_tt: index == tt_move,
                    is_capture: position.is_capture(mv),
                    hint: position.order_hint(mv),
                    history_key: position.history_key(mv),
                },
            );
            (rank, index)
        }));
        // Stable: equal ranks keep the game's move order, so searches replay exactly.
        ranked.sort_by_key(|&(rank, _)| std::cmp::Reverse(rank));
    }
}
