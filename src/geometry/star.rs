//! The 121-hole star of Chinese checkers and the Diamond Game.
//!
//! Inside, holes use cube coordinates `(q, r, s)` with `q + r + s = 0` (stored as axial `(q, r)`).
//! The star is the union of two triangles, `max(q, r, s) <= 4` and `min(q, r, s) >= -4`; their
//! intersection is the central hexagon of 61 holes, whose outer ring of 24 is the *border*. The
//! six points ("puntas") of 10 holes each are where one coordinate passes ±4:
//!
//! ```text
//!                 North (r > 4)
//!   NorthWest (q < -4)      NorthEast (s < -4)
//!   SouthWest (s > 4)       SouthEast (q > 4)
//!                 South (r < -4)
//! ```
//!
//! Drawing coordinates are `x = q + r/2`, `y = r·√3/2` (unit spacing, y up), so rows of constant
//! `r` are horizontal and South is at the bottom.
//!
//! **Notation.** `F<row>P<pos>`: row 1 is the apex of the viewer's start point (South in the
//! canonical view), row 17 the opposite apex; rows hold 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12,
//! 13, 4, 3, 2, 1 holes; positions count from the left as the viewer sees the board. A view is a
//! rotation of the board by a multiple of 120° ([`View`]); the canonical view is seat 0's.
//!
//! **Hole index.** Holes are numbered 0..121 in canonical reading order: row 1 first, each row
//! left to right. So `F1P1` is hole 0 and `F17P1` is hole 120.

mod point;

pub use point::{Point, View};

use super::holeset::{Hole, HoleSet};
use std::sync::OnceLock;

pub const HOLES: usize = 121;
/// Marks "no hole" in the neighbour table.
pub const NO_HOLE: Hole = u8::MAX;
/// Stands for "off the board" in the jump table: bit 127 is in no set of real holes, so a test
/// `set.contains(OFF_BOARD)` fails without a separate check.
pub const OFF_BOARD: Hole = 127;
pub const ROWS: usize = 17;
/// Holes per row, row 1 first.
pub const ROW_LENGTHS: [u8; ROWS] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
/// Every hole of the star.
pub const ALL: HoleSet = HoleSet((1u128 << HOLES) - 1);

/// The six line directions in axial `(dq, dr)`, counter-clockwise from East; `d` and `d + 3` are
/// opposite.
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// The board's tables, built once.
pub struct Star {
    coords: [(i8, i8); HOLES],
    neighbours: [[Hole; 6]; HOLES],
    /// `[hole][d] = (over, landing)` for a jump to the second hole along direction `d`, with
    /// [`OFF_BOARD`] where the board ends.
    jumps: [[(Hole, Hole); 6]; HOLES],
    /// `[hole][d]`: the landing hole of `jumps` as a set (empty where the board ends).
    jump_landings: [[HoleSet; 6]; HOLES],
    /// The neighbours of each hole as a set.
    neighbour_sets: [HoleSet; HOLES],
    /// `[hole][d]`: every hole beyond `hole` along direction `d`. Directions 0–2 go to higher hole
    /// numbers, 3–5 to lower ones, so the nearest hole of a ray subset is its lowest or highest bit.
    rays: [[HoleSet; 6]; HOLES],
    /// `[view][hole] = (row, pos)`, both from 1.
    row_pos: [[(u8, u8); HOLES]; 3],
    /// `[view][row][pos] = hole` (index 0 unused).
    by_view: [[[Hole; 14]; ROWS + 1]; 3],
    point_of: [Option<Point>; HOLES],
    points: [HoleSet; 6],
    bases: [HoleSet; 6],
    apexes: [Hole; 6],
    hexagon: HoleSet,
    border: HoleSet,
    centre: Hole,
}

fn in_star(q: i8, r: i8) -> bool {
    let s = -q - r;
    (q <= 4 && r <= 4 && s <= 4) || (q >= -4 && r >= -4 && s >= -4)
}

fn cube_of((q, r): (i8, i8)) -> (i8, i8, i8) {
    (q, r, -q - r)
}

fn coordinate((q, r, s): (i8, i8, i8), axis: usize) -> i8 {
    [q, r, s][axis]
}

impl Star {
    fn build() -> Star {
        // Canonical reading order: rows by increasing r (row 1 is r = -8), each by increasing q.
        let mut coords = [(0i8, 0i8); HOLES];
        let mut index = [[NO_HOLE; 17]; 17];
        let mut n = 0;
        for r in -8..=8i8 {
            for q in -8..=8i8 {
                if in_star(q, r) {
                    coords[n] = (q, r);
                    index[(q + 8) as usize][(r + 8) as usize] = n as Hole;
                    n += 1;
                }
            }
        }
        let lookup = |q: i8, r: i8| -> Hole {
            if (-8..=8).contains(&q) && (-8..=8).contains(&r) {
                index[(q + 8) as usize][(r + 8) as usize]
            } else {
                NO_HOLE
            }
        };
        let mut neighbours = [[NO_HOLE; 6]; HOLES];
        for (hole, &(q, r)) in coords.iter().enumerate() {
            for (d, &(dq, dr)) in DIRECTIONS.iter().enumerate() {
                neighbours[hole][d] = lookup(q + dq, r + dr);
            }
        }
        let mut jumps = [[(OFF_BOARD, OFF_BOARD); 6]; HOLES];
        let mut neighbour_sets = [HoleSet::EMPTY; HOLES];
        let mut jump_landings = [[HoleSet::EMPTY; 6]; HOLES];
        for hole in 0..HOLES {
            for d in 0..6 {
                let over = neighbours[hole][d];
                if over == NO_HOLE {
                    continue;
                }
                neighbour_sets[hole].insert(over);
                let landing = neighbours[over as usize][d];
                jumps[hole][d] = (
                    over,
                    if landing == NO_HOLE {
                        OFF_BOARD
                    } else {
                        landing
                    },
                );
                if landing != NO_HOLE {
                    jump_landings[hole][d] = HoleSet::single(landing);
                }
            }
        }
        let mut rays = [[HoleSet::EMPTY; 6]; HOLES];
        for (hole, hole_rays) in rays.iter_mut().enumerate() {
            for (d, ray) in hole_rays.iter_mut().enumerate() {
                let mut next = neighbours[hole][d];
                while next != NO_HOLE {
                    ray.insert(next);
                    next = neighbours[next as usize][d];
                }
            }
        }
        let mut row_pos = [[(0u8, 0u8); HOLES]; 3];
        let mut by_view = [[[NO_HOLE; 14]; ROWS + 1]; 3];
        for v in 0..3u8 {
            let view = View(v);
            // In a view, a row is a constant r' and the position grows with q'.
            let mut rotated: Vec<(i8, i8, Hole)> = coords
                .iter()
                .enumerate()
                .map(|(hole, &c)| {
                    let (q, r, _) = view.rotate(cube_of(c));
                    (r, q, hole as Hole)
                })
                .collect();
            rotated.sort_unstable();
            let mut last_row = i8::MIN;
            let mut pos = 0u8;
            for (r, _, hole) in rotated {
                if r != last_row {
                    last_row = r;
                    pos = 0;
                }
                pos += 1;
                let row = (r + 9) as u8;
                row_pos[v as usize][hole as usize] = (row, pos);
                by_view[v as usize][row as usize][pos as usize] = hole;
            }
        }
        let mut point_of = [None; HOLES];
        let mut points = [HoleSet::EMPTY; 6];
        let mut bases = [HoleSet::EMPTY; 6];
        let mut apexes = [NO_HOLE; 6];
        let mut hexagon = HoleSet::EMPTY;
        let mut border = HoleSet::EMPTY;
        let mut centre = NO_HOLE;
        for (hole, &c) in coords.iter().enumerate() {
            let hole = hole as Hole;
            let cube = cube_of(c);
            let radius = cube.0.abs().max(cube.1.abs()).max(cube.2.abs());
            if radius <= 4 {
                hexagon.insert(hole);
            }
            if radius == 4 {
                border.insert(hole);
            }
            if radius == 0 {
                centre = hole;
            }
            for point in Point::ALL {
                let (axis, sign) = point.axis();
                let value = coordinate(cube, axis) * sign;
                if value > 4 {
                    point_of[hole as usize] = Some(point);
                    points[point.index()].insert(hole);
                }
                if value == 8 {
                    apexes[point.index()] = hole;
                }
                if value == 4 && radius == 4 {
                    bases[point.index()].insert(hole);
                }
            }
        }
        Star {
            coords,
            neighbours,
            jumps,
            jump_landings,
            neighbour_sets,
            rays,
            row_pos,
            by_view,
            point_of,
            points,
            bases,
            apexes,
            hexagon,
            border,
            centre,
        }
    }

    /// Axial coordinates `(q, r)` of a hole.
    pub fn coords(&self, hole: Hole) -> (i8, i8) {
        self.coords[hole as usize]
    }

    /// The neighbour of `hole` in direction `d` (0..6), or [`NO_HOLE`] off the board.
    #[inline]
    pub fn neighbour(&self, hole: Hole, d: usize) -> Hole {
        self.neighbours[hole as usize][d]
    }

    /// All six neighbours, [`NO_HOLE`] where the board ends.
    #[inline]
    pub fn neighbours(&self, hole: Hole) -> &[Hole; 6] {
        &self.neighbours[hole as usize]
    }

    /// The six `(over, landing)` pairs of the short jumps from `hole` ([`OFF_BOARD`] where the
    /// board ends).
    #[inline]
    pub fn jumps(&self, hole: Hole) -> &[(Hole, Hole); 6] {
        &self.jumps[hole as usize]
    }

    /// The landings of [`Star::jumps`] as one-hole sets (empty where the board ends).
    #[inline]
    pub fn jump_landings(&self, hole: Hole) -> &[HoleSet; 6] {
        &self.jump_landings[hole as usize]
    }

    /// The neighbours of a hole as a set.
    #[inline]
    pub fn neighbour_set(&self, hole: Hole) -> HoleSet {
        self.neighbour_sets[hole as usize]
    }

    /// Every hole beyond `hole` along direction `d` (see [`Star::nearest`]).
    #[inline]
    pub fn ray(&self, hole: Hole, d: usize) -> HoleSet {
        self.rays[hole as usize][d]
    }

    /// The hole of `subset` (a subset of a ray in direction `d`) nearest the ray's start.
    #[inline]
    pub fn nearest(subset: HoleSet, d: usize) -> Option<Hole> {
        if subset.is_empty() {
            None
        } else if d < 3 {
            Some(subset.0.trailing_zeros() as Hole)
        } else {
            Some((127 - subset.0.leading_zeros()) as Hole)
        }
    }

    /// Steps between two holes on the open lattice (the hexagonal distance).
    pub fn distance(&self, a: Hole, b: Hole) -> u32 {
        let (aq, ar, as_) = cube_of(self.coords(a));
        let (bq, br, bs) = cube_of(self.coords(b));
        let d = [(aq - bq).abs(), (ar - br).abs(), (as_ - bs).abs()];
        d.into_iter().max().unwrap_or(0) as u32
    }

    /// The point a hole lies in (its 10-hole interior), or `None` on the hexagon.
    pub fn point_of(&self, hole: Hole) -> Option<Point> {
        self.point_of[hole as usize]
    }

    /// The 10 holes of a point (outside the hexagon).
    pub fn point(&self, point: Point) -> HoleSet {
        self.points[point.index()]
    }

    /// The 5 border holes at the base of a point.
    pub fn base(&self, point: Point) -> HoleSet {
        self.bases[point.index()]
    }

    /// The Diamond Game's 15-hole punta: a point and the 5 border holes at its base.
    pub fn punta(&self, point: Point) -> HoleSet {
        self.point(point) | self.base(point)
    }

    /// The tip of a point (row 1 or 17 in some view).
    pub fn apex(&self, point: Point) -> Hole {
        self.apexes[point.index()]
    }

    /// The 61 holes of the central hexagon.
    pub fn hexagon(&self) -> HoleSet {
        self.hexagon
    }

    /// The 24 holes on the hexagon's outer ring.
    pub fn border(&self) -> HoleSet {
        self.border
    }

    pub fn centre(&self) -> Hole {
        self.centre
    }

    /// `(row, pos)` of a hole in a view, both counted from 1.
    pub fn row_pos(&self, view: View, hole: Hole) -> (u8, u8) {
        self.row_pos[usize::from(view.0 % 3)][hole as usize]
    }

    /// The hole at `(row, pos)` of a view.
    pub fn at(&self, view: View, row: u8, pos: u8) -> Option<Hole> {
        let row_len = *ROW_LENGTHS.get(usize::from(row).checked_sub(1)?)?;
        if pos == 0 || pos > row_len {
            return None;
        }
        Some(self.by_view[usize::from(view.0 % 3)][row as usize][pos as usize])
    }

    /// `F<row>P<pos>` of a hole in a view.
    pub fn name_in(&self, view: View, hole: Hole) -> String {
        let (row, pos) = self.row_pos(view, hole);
        format!("F{row}P{pos}")
    }

    /// The canonical name (seat 0's view).
    pub fn name(&self, hole: Hole) -> String {
        self.name_in(View::CANONICAL, hole)
    }

    /// Reads `F<row>P<pos>` (letters in either case) in a view.
    pub fn parse_in(&self, view: View, text: &str) -> Option<Hole> {
        let rest = text.strip_prefix(['F', 'f'])?;
        let split = rest.find(['P', 'p'])?;
        let (row, pos) = (&rest[..split], &rest[split + 1..]);
        let number = |digits: &str| -> Option<u8> {
            if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            digits.parse().ok()
        };
        self.at(view, number(row)?, number(pos)?)
    }

    /// Reads a canonical hole name.
    pub fn parse(&self, text: &str) -> Option<Hole> {
        self.parse_in(View::CANONICAL, text)
    }

    /// Drawing coordinates: unit spacing, y up, South at the bottom.
    pub fn xy(&self, hole: Hole) -> (f32, f32) {
        let (q, r) = self.coords(hole);
        let (q, r) = (f32::from(q), f32::from(r));
        (q + r / 2.0, r * 3f32.sqrt() / 2.0)
    }

    /// The hole that `view`'s rotation carries `hole` to, so that
    /// `name(rotate(view, h)) == name_in(view, h)`.
    pub fn rotate(&self, view: View, hole: Hole) -> Hole {
        let (q, r, _) = view.rotate(cube_of(self.coords(hole)));
        self.by_axial(q, r).unwrap_or(NO_HOLE)
    }

    /// The hole at axial `(q, r)`, if on the board.
    pub fn by_axial(&self, q: i8, r: i8) -> Option<Hole> {
        if !in_star(q, r) {
            return None;
        }
        let first_q = (-8..=8).find(|&fq| in_star(fq, r))?;
        let row = u8::try_from(r + 9).ok()?;
        let pos = u8::try_from(q - first_q + 1).ok()?;
        self.at(View::CANONICAL, row, pos)
    }
}

/// The star's tables (built on first use).
pub fn star() -> &'static Star {
    static STAR: OnceLock<Star> = OnceLock::new();
    STAR.get_or_init(Star::build)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_has_121_holes_and_a_61_hole_hexagon() {
        let star = star();
        assert_eq!(ALL.len(), 121);
        assert_eq!(star.hexagon().len(), 61);
        assert_eq!(star.border().len(), 24);
        assert_eq!(star.coords(star.centre()), (0, 0));
        let mut covered = star.hexagon();
        for point in Point::ALL {
            assert_eq!(star.point(point).len(), 10, "{point:?}");
            assert_eq!(star.base(point).len(), 5, "{point:?}");
            assert_eq!(star.punta(point).len(), 15);
            assert!(star.point(point).contains(star.apex(point)));
            assert!((covered & star.point(point)).is_empty());
            covered |= star.point(point);
        }
        assert_eq!(covered, ALL);
    }

    #[test]
    fn neighbouring_puntas_share_only_a_hexagon_corner() {
        let star = star();
        for i in 0..6 {
            let a = star.punta(Point::ALL[i]);
            let b = star.punta(Point::ALL[(i + 1) % 6]);
            let shared = a & b;
            assert_eq!(shared.len(), 1);
            let corner = shared.first().unwrap_or(NO_HOLE);
            let (q, r) = star.coords(corner);
            let s = -q - r;
            assert_eq!(
                [q.abs(), r.abs(), s.abs()]
                    .iter()
                    .filter(|&&c| c == 4)
                    .count(),
                2
            );
            // Opposite puntas share nothing.
            assert!((a & star.punta(Point::ALL[(i + 3) % 6])).is_empty());
        }
    }

    #[test]
    fn rows_have_the_seed_lengths_in_every_view() {
        let star = star();
        for v in 0..3 {
            let mut counts = [0u8; ROWS];
            for hole in 0..HOLES as Hole {
                let (row, pos) = star.row_pos(View(v), hole);
                counts[row as usize - 1] += 1;
                assert!(pos >= 1 && pos <= ROW_LENGTHS[row as usize - 1]);
            }
            assert_eq!(counts, ROW_LENGTHS);
        }
        // Canonical order is reading order.
        assert_eq!(star.name(0), "F1P1");
        assert_eq!(star.name(120), "F17P1");
        assert_eq!(star.name(10), "F5P1");
    }

    #[test]
    fn neighbour_counts_and_symmetry() {
        let star = star();
        let mut by_count = [0u32; 7];
        for hole in 0..HOLES as Hole {
            let count = star
                .neighbours(hole)
                .iter()
                .filter(|&&n| n != NO_HOLE)
                .count();
            by_count[count] += 1;
            for d in 0..6 {
                let n = star.neighbour(hole, d);
                if n != NO_HOLE {
                    assert_eq!(star.neighbour(n, (d + 3) % 6), hole);
                    assert_eq!(star.distance(hole, n), 1);
                }
            }
        }
        // Each point: its apex has 2 neighbours, the 6 other holes on its two outer edges have
        // 4, its 3 inner holes 6. The 6 hexagon corners touch two points but miss one hole
        // between them: 5. Every other hexagon hole has 6.
        assert_eq!(by_count[2], 6);
        assert_eq!(by_count[3], 0);
        assert_eq!(by_count[4], 6 * 6);
        assert_eq!(by_count[5], 6);
        assert_eq!(by_count[6], 6 * 3 + (61 - 6));
    }

    #[test]
    fn rays_run_to_the_edge_and_nearest_is_the_first_hole() {
        let star = star();
        for hole in 0..HOLES as Hole {
            for d in 0..6 {
                let ray = star.ray(hole, d);
                let first = star.neighbour(hole, d);
                assert_eq!(Star::nearest(ray, d), (first != NO_HOLE).then_some(first));
                let mut walked = HoleSet::EMPTY;
                let mut next = first;
                while next != NO_HOLE {
                    walked.insert(next);
                    next = star.neighbour(next, d);
                }
                assert_eq!(walked, ray);
            }
        }
    }

    #[test]
    fn every_name_round_trips_in_every_view() {
        let star = star();
        for v in 0..3 {
            for hole in 0..HOLES as Hole {
                let name = star.name_in(View(v), hole);
                assert_eq!(star.parse_in(View(v), &name), Some(hole), "{name}");
                assert_eq!(star.parse_in(View(v), &name.to_lowercase()), Some(hole));
            }
        }
        for bad in [
            "", "F", "F0P1", "F18P1", "F1P2", "F5P14", "F5P0", "P1F1", "F1P", "F01P001", "F+1P1",
        ] {
            assert_eq!(star.parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn views_are_rotations_of_the_canonical_view() {
        let star = star();
        for v in 0..3 {
            let view = View(v);
            for hole in 0..HOLES as Hole {
                // The rotated hole has, canonically, the name `hole` has in the view.
                let seen = star.rotate(view, hole);
                assert_eq!(star.name(seen), star.name_in(view, hole));
                // Rotations keep distances.
                for other in [0, 60, 120] {
                    assert_eq!(
                        star.distance(hole, other),
                        star.distance(seen, star.rotate(view, other))
                    );
                }
            }
        }
        // Seat views put the South, NorthWest and NorthEast apexes at F1P1.
        assert_eq!(star.name_in(View(0), star.apex(Point::South)), "F1P1");
        assert_eq!(star.name_in(View(1), star.apex(Point::NorthWest)), "F1P1");
        assert_eq!(star.name_in(View(2), star.apex(Point::NorthEast)), "F1P1");
        assert_eq!(star.name_in(View(1), star.apex(Point::SouthEast)), "F17P1");
    }
}
