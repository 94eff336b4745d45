//! What shapes a search ([`Params`]) and what it answers ([`Found`]): shared by the alpha-beta
//! search, the Monte-Carlo search and the table pool, which depend on these values and not on
//! each other.

use super::limits::Limits;
use super::searchable::EvalStyle;

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
    /// ones are helpers sharing the table (`alphabeta::search`). Only the alpha-beta root (two seats, the
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
    /// ProbCut: a node this deep first asks a shallower search whether its value lies far
    /// enough past the window to cut it off at once. None for every level but expert in English
    /// (measured in lab/JOURNAL.md, "ProbCut and countermoves").
    pub probcut: Option<ProbCut>,
    /// Countermove ordering: the quiet move that last refuted the previous move is tried right
    /// after the killers. Off for every level but expert in English.
    pub countermoves: bool,
    /// Play the opening book's move where the context's book of the game holds the position
    /// (`search::book`; expert only: every other level and the lab's yardsticks replay as
    /// before).
    pub book: bool,
}

impl Params {
    /// A plain alpha-beta search to `limits`: the full evaluation, no quiescence, no noise, 2^16
    /// table entries, the paranoid search with more seats, one thread, and none of expert's
    /// refinements (reductions, aspiration, pruning, endgame tables, contempt, opening book). What a test
    /// varies a field of; the levels spell theirs out (`levels.rs`).
    pub fn plain(limits: Limits) -> Params {
        Params {
            limits,
            style: EvalStyle::Full,
            quiescence: false,
            noise: 0,
            seed: 0,
            table_bits: 16,
            reductions: false,
            multi_player: MultiPlayer::Paranoid,
            aspiration: 0,
            threads: 1,
            endgame: false,
            contempt: 0,
            move_pruning: None,
            probcut: None,
            countermoves: false,
            book: false,
        }
    }
}

/// ProbCut (Buro, 1995): at a node with `min_depth` plies or more left, searched with a null
/// window (not on the principal variation), a search `reduction` plies shallower predicts the
/// deep value by the linear fit `deep ≈ slope · shallow + intercept` (from the mover's side,
/// fitted by `damas-lab probcut-fit`); when the prediction lies `margin` or more past the
/// window on the mover's side, the node is cut off without its full search. Unlike the null
/// move, it assumes nothing about passing, so zugzwang (common in draughts) does not fool it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbCut {
    pub min_depth: u32,
    pub reduction: u32,
    /// The fit's slope, in thousandths (positive).
    pub slope_permille: i32,
    pub intercept: i32,
    /// How far past the bound the predicted value must lie: a multiple of the fit's residual
    /// standard deviation.
    pub margin: i32,
}

impl ProbCut {
    /// The least shallow value, from the mover's side, whose predicted deep value lies at least
    /// `margin` above `bound`.
    pub(crate) fn shallow_bound(self, bound: i32) -> i32 {
        let slope = i64::from(self.slope_permille.max(1));
        let target = (i64::from(bound) + i64::from(self.margin) - i64::from(self.intercept)) * 1000;
        let shallow = target.div_euclid(slope) + i64::from(target.rem_euclid(slope) != 0);
        shallow.clamp(i64::from(i32::MIN / 2), i64::from(i32::MAX / 2)) as i32
    }
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
    pub(crate) fn kept(self, depth: i32) -> usize {
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
    /// Monte-Carlo tree search (`search::mcts`): no alpha-beta at all.
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
    /// The per-level time guard stopped the search (see `limits::Budget::timed_out`).
    pub timed_out: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probcut_bound_is_the_least_shallow_value_predicted_past_the_margin() {
        for (slope_permille, intercept, margin) in [(1000, 0, 50), (2000, 7, 30), (870, -12, 61)] {
            let probcut = ProbCut {
                min_depth: 6,
                reduction: 4,
                slope_permille,
                intercept,
                margin,
            };
            let predicted = |shallow: i32| {
                i64::from(slope_permille) * i64::from(shallow) + 1000 * i64::from(intercept)
            };
            for bound in -400..=400 {
                let shallow = probcut.shallow_bound(bound);
                let target = 1000 * i64::from(bound + margin);
                assert!(predicted(shallow) >= target, "{probcut:?} {bound}");
                assert!(predicted(shallow - 1) < target, "{probcut:?} {bound}");
            }
        }
    }

    #[test]
    fn plain_searches_have_no_probcut_and_no_countermoves() {
        let plain = Params::plain(Limits::depth(5));
        assert_eq!(plain.probcut, None);
        assert!(!plain.countermoves);
    }
}
