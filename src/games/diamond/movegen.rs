//! Diamond move generation: for each piece, a flood fill over the jump graph gives every jump
//! destination at once (see the module opening of `games::diamond`), the "no gift win" rule
//! removes the moves that would complete another colour's goal, and a breadth-first search finds
//! a move's path for display.

use super::areas::areas;
use super::Diamond;
use crate::geometry::holeset::{Hole, HoleSet};
use crate::geometry::star::{star, Star, HOLES, NO_HOLE};

impl Diamond {
    /// The hole that would complete another colour's goal, with that colour's destination: a
    /// move into it from outside that destination is a "gift" and illegal.
    pub(super) fn gift_holes(&self, occupied: HoleSet) -> [(Hole, HoleSet); 2] {
        let areas = areas();
        let mut gifts = [(NO_HOLE, HoleSet::EMPTY); 2];
        let mover = usize::from(self.to_move);
        for (slot, other) in self.colours().filter(|&c| c != mover).enumerate() {
            let missing = HoleSet(areas.destination[other].0 & !occupied.0);
            if self.kings[other] == areas.apex[other] && missing.len() == 1 {
                gifts[slot] = (missing.first().unwrap_or(NO_HOLE), areas.destination[other]);
            }
        }
        gifts
    }

    /// Calls `emit(from, destinations)` for every piece of the side to move, gift moves removed.
    #[inline]
    pub(super) fn for_each_piece(&self, mut emit: impl FnMut(Hole, HoleSet)) {
        let star = star();
        let areas = areas();
        let mover = usize::from(self.to_move);
        let occupied = self.occupied();
        let kings = self.king_set();
        let gifts = self.gift_holes(occupied);
        let mut board = MoveBoard::new(star, areas.open[mover], occupied, kings);
        for from in self.pieces[mover] {
            let mut targets = board.destinations(from, from == self.kings[mover]);
            for (gift, destination) in gifts {
                if gift != NO_HOLE && !destination.contains(from) {
                    targets.remove(gift);
                }
            }
            if !targets.is_empty() {
                emit(from, targets);
            }
        }
    }

    /// A shortest chain of jumps (fewest jumps) from `from` to `to`, or the step, as holes.
    pub(super) fn path(&self, from: Hole, to: Hole) -> Vec<Hole> {
        let star = star();
        let areas = areas();
        let colour = self
            .colours()
            .find(|&c| self.pieces[c].contains(from))
            .unwrap_or(usize::from(self.to_move));
        if star.neighbours(from).contains(&to) {
            return vec![from, to];
        }
        let occupied = self.occupied();
        let others = HoleSet(occupied.0 & !(1u128 << from));
        let kings = self.king_set();
        let is_king = self.kings[colour] == from;
        let mut parent = [NO_HOLE; HOLES];
        let mut seen = HoleSet::single(from);
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(hole) = queue.pop_front() {
            if hole == to {
                break;
            }
            for d in 0..6 {
                let landing = if is_king {
                    king_landing(star, others, kings, hole, d)
                } else {
                    man_landing(star, others, kings, hole, d)
                };
                if landing != NO_HOLE
                    && areas.open[colour].contains(landing)
                    && !seen.contains(landing)
                {
                    seen.insert(landing);
                    parent[landing as usize] = hole;
                    queue.push_back(landing);
                }
            }
        }
        let mut path = vec![to];
        let mut hole = to;
        while hole != from && parent[hole as usize] != NO_HOLE {
            hole = parent[hole as usize];
            path.push(hole);
        }
        path.reverse();
        path
    }
}

/// What the moves of one position are generated against.
struct MoveBoard<'a> {
    star: &'a Star,
    /// Holes the mover may stop or land on.
    open: HoleSet,
    occupied: HoleSet,
    kings: HoleSet,
    /// The men (pieces a man may jump), one byte per hole: in the hot loop a byte load is cheaper
    /// than testing a variable bit of a 128-bit word.
    men: [u8; 128],
}

impl<'a> MoveBoard<'a> {
    fn new(star: &'a Star, open: HoleSet, occupied: HoleSet, kings: HoleSet) -> MoveBoard<'a> {
        let mut men = [0u8; 128];
        for hole in HoleSet(occupied.0 & !kings.0) {
            men[hole as usize] = 1;
        }
        MoveBoard {
            star,
            open,
            occupied,
            kings,
            men,
        }
    }

    /// Every hole the piece on `from` can reach this turn, before the "no gift win" rule.
    /// Each loop is branch-free: whether a jump is possible is unpredictable.
    #[inline]
    fn destinations(&mut self, from: Hole, is_king: bool) -> HoleSet {
        let star = self.star;
        // The moving piece has left its hole: a chain may pass over it or come back to it.
        let others = self.occupied.0 & !(1u128 << from);
        let empty_open = HoleSet(self.open.0 & !others);
        let steps = star.neighbour_set(from) & empty_open;
        // Holes a chain may still land on, and holes reached but not yet jumped from.
        let mut free = empty_open.0 & !(1u128 << from);
        let mut frontier = HoleSet::single(from);
        if is_king {
            // The nearest empty hole of each ray is a landing when the holes before it (the
            // line) are not empty and hold no king.
            let kings = self.kings.0;
            while let Some(hole) = frontier.pop() {
                for d in 0..3 {
                    let ray = star.ray(hole, d).0;
                    let empty = ray & !others;
                    let nearest = empty & empty.wrapping_neg();
                    let line = ray & nearest.wrapping_sub(1);
                    let ok = (line != 0) & (line & kings == 0);
                    let hit = nearest & free & 0u128.wrapping_sub(u128::from(ok));
                    free &= !hit;
                    frontier.0 |= hit;
                }
                for d in 3..6 {
                    let ray = star.ray(hole, d).0;
                    let empty = ray & !others;
                    let nearest = match empty {
                        0 => 0,
                        _ => 1u128 << (127 - empty.leading_zeros()),
                    };
                    let line = ray & !(nearest | nearest.wrapping_sub(1));
                    let ok = (nearest != 0) & (line != 0) & (line & kings == 0);
                    let hit = nearest & free & 0u128.wrapping_sub(u128::from(ok));
                    free &= !hit;
                    frontier.0 |= hit;
                }
            }
        } else {
            // The moving man no longer stands on its hole.
            let restore = self.men[from as usize];
            self.men[from as usize] = 0;
            while let Some(hole) = frontier.pop() {
                let landings = star.jump_landings(hole);
                for (d, &(over, _)) in star.jumps(hole).iter().enumerate() {
                    let can = 0u128.wrapping_sub(u128::from(self.men[over as usize]));
                    let hit = landings[d].0 & free & can;
                    free &= !hit;
                    frontier.0 |= hit;
                }
            }
            self.men[from as usize] = restore;
        }
        // Landed holes are those that left `free`; the start is not a destination.
        let jumped = empty_open.0 & !free & !(1u128 << from);
        steps | HoleSet(jumped)
    }
}

/// Where a man on `hole` lands jumping in direction `d`, or [`NO_HOLE`].
#[inline]
fn man_landing(star: &Star, occupied: HoleSet, kings: HoleSet, hole: Hole, d: usize) -> Hole {
    let over = star.neighbour(hole, d);
    if over == NO_HOLE || !occupied.contains(over) || kings.contains(over) {
        return NO_HOLE;
    }
    let landing = star.neighbour(over, d);
    if landing == NO_HOLE || occupied.contains(landing) {
        return NO_HOLE;
    }
    landing
}

/// Where a king on `hole` lands jumping the line of men starting next to it in direction `d`:
/// the first empty hole of the ray, if the ray's first hole is taken and no king stands before it.
#[inline]
fn king_landing(star: &Star, occupied: HoleSet, kings: HoleSet, hole: Hole, d: usize) -> Hole {
    let ray = star.ray(hole, d);
    let Some(landing) = Star::nearest(HoleSet(ray.0 & !occupied.0), d) else {
        return NO_HOLE;
    };
    let line = if d < 3 {
        ray.0 & ((1u128 << landing) - 1)
    } else {
        ray.0 & !((2u128 << landing) - 1)
    };
    if line == 0 || line & kings.0 != 0 {
        NO_HOLE
    } else {
        landing
    }
}
