//! The alpha-beta window of one node, and what the table says of a node before it is searched.

use crate::search::score::INFINITY;

/// What the table says of a node: a score that settles it, or the index of the move to try first
/// (`usize::MAX`: none).
pub(super) enum Probe {
    Cut(i32),
    First(usize),
}

/// The alpha-beta window of one node and its best move so far, shared by the paranoid search and
/// Best-Reply Search. Scores are the root seat's: a maximizing node raises `low`, a minimizing
/// node lowers `high`.
pub(super) struct Window {
    /// The window the node was called with (for the bound it stores).
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) low: i32,
    pub(super) high: i32,
    pub(super) maximizing: bool,
    pub(super) best_value: i32,
    pub(super) best_index: usize,
}

impl Window {
    pub(super) fn new(alpha: i32, beta: i32, maximizing: bool, first_index: usize) -> Window {
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
    pub(super) fn null_window(&self) -> (i32, i32) {
        if self.maximizing {
            (self.low, self.low + 1)
        } else {
            (self.high - 1, self.high)
        }
    }

    /// Whether `value` fails to improve on the node's side of the window.
    pub(super) fn fails(&self, value: i32) -> bool {
        if self.maximizing {
            value <= self.low
        } else {
            value >= self.high
        }
    }

    pub(super) fn improves(&self, value: i32) -> bool {
        if self.maximizing {
            value > self.best_value
        } else {
            value < self.best_value
        }
    }

    /// Principal-variation search of the move ranked `rank`: the first with the full window, the
    /// others with a null window and, when that finds a better move, again with the rest of it.
    pub(super) fn search(&self, rank: usize, mut child: impl FnMut(i32, i32) -> i32) -> i32 {
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
