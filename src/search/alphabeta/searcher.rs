//! The searcher's own state: its start, the path it keeps for repetition draws, and the values
//! of the nodes it does not search further (ends, draws, endgame databases, evaluation).

use super::{Job, Searcher};
use crate::position::{GameResult, Outcome};
use crate::search::endgame::Value;
use crate::search::limits::Budget;
use crate::search::ordering::Ordering;
use crate::search::params::MultiPlayer;
use crate::search::score::{DRAW, WIN};
use crate::search::searchable::Searchable;
use std::sync::atomic::AtomicBool;

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
