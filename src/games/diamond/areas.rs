//! The Diamond Game's fixed areas: where each colour starts and goes, the holes it may use, and
//! each hole's step distance to a colour's destination apex (docs/rules.md, "Diamond Game").

use crate::geometry::holeset::{Hole, HoleSet};
use crate::geometry::star::{star, Point, Star, HOLES, NO_HOLE};
use crate::position::Seat;
use std::sync::OnceLock;

/// Where each colour starts, seen from Red (whose start is at the bottom). The destination is the
/// opposite point.
pub const START_POINTS: [Point; 3] = [Point::South, Point::NorthWest, Point::NorthEast];

/// The per-colour areas, the same for 2 and 3 players (Green's points are closed to Red and
/// Yellow either way, as every other colour's are).
pub(super) struct Areas {
    /// Holes a colour may stop or land on: the hexagon and its own two points.
    pub(super) open: [HoleSet; 3],
    pub(super) start: [HoleSet; 3],
    pub(super) destination: [HoleSet; 3],
    pub(super) apex: [Hole; 3],
    pub(super) start_apex: [Hole; 3],
    /// Steps from each hole to the colour's destination apex through its open holes (empty board).
    pub(super) distance: [[u8; HOLES]; 3],
    /// Which colour's point each hole lies in (`None` on the hexagon).
    pub(super) zone: [Option<Seat>; HOLES],
}

pub(super) fn areas() -> &'static Areas {
    static AREAS: OnceLock<Areas> = OnceLock::new();
    AREAS.get_or_init(|| {
        let star = star();
        let mut open = [HoleSet::EMPTY; 3];
        let mut start = [HoleSet::EMPTY; 3];
        let mut destination = [HoleSet::EMPTY; 3];
        let mut apex = [NO_HOLE; 3];
        let mut start_apex = [NO_HOLE; 3];
        let mut zone = [None; HOLES];
        for (colour, &point) in START_POINTS.iter().enumerate() {
            let target = point.opposite();
            open[colour] = star.hexagon() | star.point(point) | star.point(target);
            start[colour] = star.punta(point);
            destination[colour] = star.punta(target);
            apex[colour] = star.apex(target);
            start_apex[colour] = star.apex(point);
            for hole in star.point(point) | star.point(target) {
                zone[hole as usize] = Some(colour as Seat);
            }
        }
        let mut distance = [[u8::MAX; HOLES]; 3];
        for colour in 0..3 {
            breadth_first(star, open[colour], apex[colour], &mut distance[colour]);
        }
        Areas {
            open,
            start,
            destination,
            apex,
            start_apex,
            distance,
            zone,
        }
    })
}

/// Step distances from `from` to every hole of `within`.
fn breadth_first(star: &Star, within: HoleSet, from: Hole, distance: &mut [u8; HOLES]) {
    let mut frontier = HoleSet::single(from);
    let mut seen = frontier;
    let mut steps = 0u8;
    while !frontier.is_empty() {
        let mut next = HoleSet::EMPTY;
        for hole in frontier {
            distance[hole as usize] = steps;
            for &n in star.neighbours(hole) {
                if n != NO_HOLE && within.contains(n) && !seen.contains(n) {
                    seen.insert(n);
                    next.insert(n);
                }
            }
        }
        frontier = next;
        steps += 1;
    }
}
