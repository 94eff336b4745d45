//! The searcher's own state: its start, the path it keeps for repetition draws, and the values
//! of the nodes it does not search further (ends, draws, endgame databases, evaluation).

use crate::position::Seat;
use crate::position::{GameResult, Outcome};
use crate::search::endgame::Value;
use crate::search::endgame::{EndgameTables, GameTables};
use crate::search::limits::Budget;
use crate::search::ordering::Ordering;
use crate::search::params::MultiPlayer;
use crate::search::params::Params;
use crate::search::score::{DRAW, WIN};
use crate::search::searchable::Searchable;
use crate::search::table::Table;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Deepest path (plies, quiescence included) the search follows.
pub(super) const MAX_PLY: usize = 120;
/// Deepest capture sequence followed past the horizon.
pub(super) const MAX_QUIESCENCE: usize = 24;

/// What the threads of one search share: the position searched, the earlier positions it may
/// repeat, the parameters, the table and the endgame databases it probes.
pub(super) struct Job<'a, P> {
    pub(super) position: &'a P,
    pub(super) history: &'a [u64],
    pub(super) params: &'a Params,
    pub(super) table: &'a Table,
    pub(super) endgame: Option<&'a EndgameTables>,
}

/// Which search the root runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RootSearch {
    /// Alpha-beta on the root seat's score (two seats, or the paranoid search).
    Paranoid,
    BestReply,
    MaxN,
}

pub(super) fn root_search<P: Searchable>(position: &P, params: &Params) -> RootSearch {
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

pub(super) struct Searcher<'a, P: Searchable> {
    pub(super) root: Seat,
    pub(super) params: &'a Params,
    pub(super) budget: Budget<'a>,
    pub(super) table: &'a Table,
    pub(super) ordering: Ordering<P::Move>,
    /// Keys of the positions on the path (history first) that later positions may repeat.
    pub(super) path: Vec<u64>,
    /// For each path entry, the first index it may repeat (after the last irreversible move).
    pub(super) reversible_from: Vec<usize>,
    pub(super) repetition: bool,
    /// The root move with the best value of the iteration under way.
    pub(super) root_best: Option<usize>,
    /// The best root move of the iteration under way whose value rose above the root's window
    /// floor (what a timed search cut short may play).
    pub(super) root_raised: Option<usize>,
    /// The endgame databases probed below the root (`Params::endgame`).
    pub(super) endgame: Option<Arc<GameTables>>,
    /// Per ply, the buffers its nodes work in (see [`PlyBuffers`]).
    pub(super) buffers: Vec<PlyBuffers<P::Move>>,
    /// Per ply, the history key of the move played there on the current path
    /// (`Params::countermoves` only: empty otherwise).
    pub(super) played: Vec<usize>,
}

/// The lists a node fills, kept per ply and reused by every node at that ply: a node no longer
/// allocates (allocation took a few per cent of expert's time). A node takes its ply's buffers
/// out while it searches, so its children, one ply deeper, never touch them.
pub(super) struct PlyBuffers<M> {
    pub(super) moves: Vec<M>,
    /// (rank, index) of each move, best first: the search order.
    pub(super) ranked: Vec<(u32, usize)>,
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
    pub(super) fn new(job: &Job<'a, P>, stop: &'a AtomicBool) -> Self {
        let Job {
            position,
            history,
            params,
            table,
            endgame,
        } = *job;
        // The clock starts first: the first search's reading of the files (a fifth of a second
        // for International's) is part of its move's time, which must not exceed the limit.
        let budget = Budget::new(params.limits, stop);
        let endgame = endgame.and_then(|tables| tables.tables(position.variant().kind));
        Searcher {
            root: position.to_move(),
            params,
            budget,
            table,
            ordering: Ordering::with_countermoves(params.countermoves),
            path: history.to_vec(),
            reversible_from: vec![0; history.len()],
            repetition: position.repetition_limit().is_some(),
            root_best: None,
            root_raised: None,
            endgame,
            buffers: Vec::new(),
            played: Vec::new(),
        }
    }

    /// Notes that the move with `key` is searched at `ply` (for countermoves).
    pub(super) fn note_played(&mut self, ply: usize, key: usize) {
        if !self.params.countermoves {
            return;
        }
        if self.played.len() <= ply {
            self.played.resize(ply + 1, 0);
        }
        self.played[ply] = key;
    }

    /// The history key of the move that led to the node at `ply`, when countermoves are on.
    pub(super) fn previous_key(&self, ply: usize) -> Option<usize> {
        self.played.get(ply.checked_sub(1)?).copied()
    }

    pub(super) fn push(&mut self, key: u64, irreversible: bool) {
        let from = if irreversible {
            self.path.len() + 1
        } else {
            self.reversible_from.last().copied().unwrap_or(0)
        };
        self.path.push(key);
        self.reversible_from.push(from);
    }

    pub(super) fn pop(&mut self) {
        self.path.pop();
        self.reversible_from.pop();
    }

    /// A position already on the path since the last irreversible move: the search scores it a
    /// draw, as repeating it is the best both sides can force from there.
    pub(super) fn repeats(&self, key: u64) -> bool {
        let from = self.reversible_from.last().copied().unwrap_or(0);
        self.repetition
            && self
                .path
                .get(from..)
                .is_some_and(|keys| keys.contains(&key))
    }

    /// A node's value known before its moves are looked at: 0 once the budget is spent (the
    /// search is being abandoned), the end's score when the game is over there.
    pub(super) fn settled(&mut self, position: &P, ply: usize) -> Option<i32> {
        if self.budget.tick() {
            return Some(0);
        }
        position
            .outcome()
            .map(|outcome| self.terminal(outcome, ply))
    }

    pub(super) fn terminal(&self, outcome: Outcome, ply: usize) -> i32 {
        match outcome.result {
            GameResult::Win(seat) if seat == self.root => WIN - ply as i32,
            GameResult::Win(_) => -(WIN - ply as i32),
            GameResult::Draw => self.draw(),
        }
    }

    /// A draw's score for the root seat.
    pub(super) fn draw(&self) -> i32 {
        DRAW - self.params.contempt
    }

    /// The databases' exact score of a position at `ply`, when they hold it and its value stands
    /// under the position's draw counters: a draw always (counters only add draws), a win or loss
    /// only when it ends within the fewest plies any counter leaves. A longer one is left to the
    /// search, whose deeper nodes may reach a capture or a man move that resets the counters.
    pub(super) fn endgame_score(&self, position: &P, ply: usize) -> Option<i32> {
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

    pub(super) fn evaluate(&self, position: &P, key: u64) -> i32 {
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
    pub(super) fn noisy(&self, value: i32, key: u64) -> i32 {
        if self.params.noise == 0 {
            return value;
        }
        // A fixed pseudo-random offset per position and seed: different games, same replay.
        let mixed = (key ^ self.params.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let span = 2 * self.params.noise as u64 + 1;
        value + ((mixed >> 33) % span) as i32 - self.params.noise
    }
}
