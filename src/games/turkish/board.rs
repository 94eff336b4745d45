//! The Turkish position itself: the pieces, the side to move and the no-progress counter, with
//! the questions about it that move generation answers.

use super::movegen::{self, Sides, TurkishMove};
use super::squares::{bit, Bitboard};
use crate::position::Seat;

/// A Turkish position: the pieces, the side to move and the no-progress counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turkish {
    pub(crate) white: Bitboard,
    pub(crate) black: Bitboard,
    /// Kings of either colour.
    pub(crate) kings: Bitboard,
    /// 0 = White, 1 = Black.
    pub(crate) to_move: Seat,
    /// Plies since the last capture or man move (§T10).
    pub(crate) quiet_plies: u32,
}

impl Turkish {
    /// Whether the side to move has a capture (so it must capture).
    pub fn has_capture(&self) -> bool {
        movegen::has_capture(&self.sides())
    }

    pub(super) fn sides(&self) -> Sides {
        let (own, opp) = if self.to_move == 0 {
            (self.white, self.black)
        } else {
            (self.black, self.white)
        };
        Sides {
            own,
            opp,
            kings: self.kings,
            white: self.to_move == 0,
        }
    }

    /// White's pieces (men and kings), bit `i` for square `i` (a1 = 0 … h8 = 63).
    pub fn white(&self) -> Bitboard {
        self.white
    }

    /// Black's pieces (men and kings).
    pub fn black(&self) -> Bitboard {
        self.black
    }

    /// The kings of both sides.
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Plies since the last capture or man move.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// The same position with the no-progress counter set (FEN does not carry it).
    pub fn with_quiet_plies(mut self, plies: u32) -> Turkish {
        self.quiet_plies = plies;
        self
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        movegen::has_capture(&self.sides())
    }

    /// Every legal capture path, including several paths to the same move.
    pub fn move_paths(&self, out: &mut Vec<TurkishMove>) {
        movegen::generate_paths(&self.sides(), out);
    }

    pub(super) fn is_man(&self, sq: u8) -> bool {
        self.kings & bit(sq) == 0
    }
}
