//! The six points of the star and the three ways of looking at the board.

/// The six points of the star, clockwise from the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Point {
    South,
    SouthWest,
    NorthWest,
    North,
    NorthEast,
    SouthEast,
}

impl Point {
    pub const ALL: [Point; 6] = [
        Point::South,
        Point::SouthWest,
        Point::NorthWest,
        Point::North,
        Point::NorthEast,
        Point::SouthEast,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The point across the board.
    pub fn opposite(self) -> Point {
        Point::ALL[(self.index() + 3) % 6]
    }

    /// Which cube coordinate leaves the hexagon in this point (0 = q, 1 = r, 2 = s) and on which
    /// side (+1 or -1).
    pub(super) fn axis(self) -> (usize, i8) {
        match self {
            Point::South => (1, -1),
            Point::North => (1, 1),
            Point::NorthWest => (0, -1),
            Point::SouthEast => (0, 1),
            Point::NorthEast => (2, -1),
            Point::SouthWest => (2, 1),
        }
    }
}

/// A way of looking at the board: rotated by `0`, `1` or `2` times 120°, so that the South,
/// NorthWest or NorthEast point is at the bottom. Diamond seats 0, 1, 2 (Red, Yellow, Green) start
/// at those points and look from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View(pub u8);

impl View {
    pub const CANONICAL: View = View(0);

    /// Cube coordinates as seen in this view: a cyclic permutation, i.e. a rotation.
    pub(super) fn rotate(self, (q, r, s): (i8, i8, i8)) -> (i8, i8, i8) {
        match self.0 % 3 {
            0 => (q, r, s),
            1 => (s, q, r),
            _ => (r, s, q),
        }
    }
}
