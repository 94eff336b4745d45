//! What the search needs from a game beyond the rules: a static evaluation and a few hints.
//!
//! Each game implements [`Searchable`] in `search::eval::<game>`, so the rules modules stay free
//! of CPU concerns and the search stays free of game details.

use super::endgame::{GameTables, Value};
use crate::position::{GameResult, Position, Seat};
use rand::rngs::SmallRng;
use rand::Rng;

/// How much the evaluation knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalStyle {
    /// Every feature of the game's evaluation, with its newest weights (draughts: the tuned
    /// ones).
    Full,
    /// The evaluation as it was before the tuned weights: easy, medium and the frozen baseline
    /// keep it, so they play as they did. The same as `Full` in the star games.
    Classic,
    /// Material only (the seed's reference CPU, and a weaker medium where a game wants one).
    Material,
    /// `Full` plus the learned pattern weights where a game has them (English checkers:
    /// `eval/patterns.rs`); the same as `Full` elsewhere.
    Learned,
}

/// Most seats any game has (the capture game's six).
pub const MAX_SEATS: usize = 6;

/// One value per seat (index: the seat; entries past the game's seats are 0), for max^n.
pub type SeatScores = [i32; MAX_SEATS];

/// What a finished game is worth to each seat, in 0..=1 (index: the seat), for Monte-Carlo
/// tree search.
pub type Rewards = [f32; MAX_SEATS];

/// A game the CPU can play.
pub trait Searchable: Position {
    /// The position's value for `seat`, in hundredths of a man (draughts) or comparable units;
    /// larger is better for `seat`. Never reaches [`crate::search::score::WIN_MIN`].
    fn evaluate(&self, seat: Seat, style: EvalStyle) -> i32;

    /// Whether `mv` captures: captures are tried first and searched past the horizon
    /// (quiescence) when a game asks for it with [`Searchable::QUIESCENCE`].
    fn is_capture(&self, _mv: &Self::Move) -> bool {
        false
    }

    /// Whether the side to move may have a capture; `false` only when it surely has none. Lets
    /// the horizon evaluate a quiet position without generating its moves.
    fn may_capture(&self) -> bool {
        true
    }

    /// Whether the horizon must finish capture sequences (draughts: yes; star games: no, their
    /// jumps do not change material in a way the evaluation misses).
    const QUIESCENCE: bool = false;

    /// A small number naming the move's from/to squares for the history heuristic, below
    /// [`crate::search::ordering::HISTORY_SIZE`]; 0 when the game has none.
    fn history_key(&self, _mv: &Self::Move) -> usize {
        0
    }

    /// Whether `mv` ends the game with its mover the winner, known without playing it; `false`
    /// when the game cannot tell cheaply. Late-move pruning never skips such a move.
    fn wins_at_once(&self, _mv: &Self::Move) -> bool {
        false
    }

    /// A cheap guess of how good a quiet move is (Diamond: rows gained), tried first among
    /// quiet moves; within -512..512.
    fn order_hint(&self, _mv: &Self::Move) -> i32 {
        0
    }

    /// The transposition-table key: the Zobrist hash, plus anything the evaluation reads that
    /// the hash leaves out (the capture game's per-seat tallies).
    fn search_key(&self) -> u64 {
        self.zobrist()
    }

    /// The same position with `seat` to move, for Best-Reply Search (where one opponent moves
    /// while the others pass); `None` when the game cannot say (the search then stays paranoid)
    /// or `seat` cannot move now.
    fn with_turn(&self, _seat: Seat) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// The position's value for `seat` when any other seat may move next (Best-Reply Search's
    /// horizon on the opponents' layer): the worst for `seat` of the others moving.
    fn evaluate_reply(&self, seat: Seat, style: EvalStyle) -> i32
    where
        Self: Sized,
    {
        (0..self.seats() as Seat)
            .filter(|&other| other != seat)
            .filter_map(|other| self.with_turn(other))
            .map(|moved| moved.evaluate(seat, style))
            .min()
            .unwrap_or_else(|| self.evaluate(seat, style))
    }

    /// The position's value in `tables` for the side to move, when its material is there.
    fn endgame_value(&self, _tables: &GameTables) -> Option<Value> {
        None
    }

    /// Every seat's standing, for max^n (each seat maximises its own entry); entries past
    /// [`Position::seats`] are 0. By default each seat's [`Searchable::evaluate`].
    fn evaluate_seats(&self, style: EvalStyle) -> SeatScores {
        let mut scores = [0; MAX_SEATS];
        for (seat, score) in scores.iter_mut().enumerate().take(self.seats()) {
            *score = self.evaluate(seat as Seat, style);
        }
        scores
    }

    /// A move for a Monte-Carlo playout ([`crate::search::mcts`]): cheap and plausible, drawn
    /// from `rng`; `None` once the game is over. By default a uniformly random legal move
    /// (`scratch` holds them).
    fn playout_move(&self, rng: &mut SmallRng, scratch: &mut Vec<Self::Move>) -> Option<Self::Move>
    where
        Self: Sized,
    {
        if self.outcome().is_some() {
            return None;
        }
        self.legal_moves(scratch);
        let index = rng.gen_range(0..scratch.len().max(1));
        scratch.get(index).cloned()
    }

    /// An estimate of each seat's share of the win, which the Monte-Carlo search takes at a new
    /// leaf instead of a playout from it; `None` (the default): play out.
    fn leaf_rewards(&self) -> Option<Rewards>
    where
        Self: Sized,
    {
        None
    }

    /// What the position is worth to each seat at the end of a playout: by default 1 to the
    /// winner and a draw (or a playout cut before the end) shared equally among the seats.
    fn playout_rewards(&self) -> Rewards
    where
        Self: Sized,
    {
        let mut rewards = [0.0; MAX_SEATS];
        match self.outcome().map(|outcome| outcome.result) {
            Some(GameResult::Win(seat)) => rewards[usize::from(seat)] = 1.0,
            _ => {
                let share = 1.0 / self.seats() as f32;
                rewards
                    .iter_mut()
                    .take(self.seats())
                    .for_each(|r| *r = share);
            }
        }
        rewards
    }

    /// Bounds on [`Searchable::evaluate_seats`] for max^n's shallow pruning: `(low, sum)` when
    /// every seat's entry is at least `low` and the seats' entries add up to at most `sum`, the
    /// all-draw vector (every entry 0) included; `None` (no pruning) when the game has none.
    fn seat_score_bounds(&self) -> Option<(i32, i32)> {
        None
    }
}
