//! Evaluation of capture Chinese checkers: own captures minus the most any other seat has, after
//! the seat to move takes the longest chain it has (every move captures, so the horizon is never
//! quiet: the next seat's best take is the first thing the position offers).

use crate::games::capture::{Capture, CaptureMove};
use crate::geometry::star::HOLES;
use crate::position::{Position, Seat};
use crate::search::searchable::{EvalStyle, Searchable};

/// Value of one captured piece.
const PIECE: i32 = 100;

/// Own captures minus the most any other seat has, after the longest chain on the board is
/// credited to every seat for which `takes_next` holds.
fn standing(position: &Capture, seat: Seat, takes_next: impl Fn(Seat) -> bool) -> i32 {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let next_take = moves.iter().map(|mv| mv.captured.len()).max().unwrap_or(0) as i32;
    let tally =
        |who: Seat| position.captures_of(who) as i32 + if takes_next(who) { next_take } else { 0 };
    let best_other = (0..position.seats() as Seat)
        .filter(|&other| other != seat)
        .map(tally)
        .max()
        .unwrap_or(0);
    PIECE * (tally(seat) - best_other)
}

impl Searchable for Capture {
    fn evaluate(&self, seat: Seat, _style: EvalStyle) -> i32 {
        let mover = self.to_move();
        standing(self, seat, |who| who == mover)
    }

    /// Any other seat may take the longest chain next: the best placed of them does.
    fn evaluate_reply(&self, seat: Seat, _style: EvalStyle) -> i32 {
        standing(self, seat, |who| who != seat)
    }

    /// Pieces belong to nobody: only the turn changes.
    fn with_turn(&self, seat: Seat) -> Option<Capture> {
        self.with_seat_to_move(seat)
    }

    /// Longer chains first.
    fn order_hint(&self, mv: &CaptureMove) -> i32 {
        mv.captured.len() as i32
    }

    fn history_key(&self, mv: &CaptureMove) -> usize {
        usize::from(mv.from) * HOLES + usize::from(mv.to)
    }
}
