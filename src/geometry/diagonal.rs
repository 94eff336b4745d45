//! The dark squares of an N×N board (8×8 English, 10×10 International) as bits of a `u64`.
//!
//! Squares are numbered 1…N²/2 as in PDN: row by row from the edge where square 1 lies, each row
//! holding N/2 squares. Bit `b` of square `s` (0-based) is `s + s / N`: every two rows leave one
//! unused "ghost" bit, so a diagonal step is always the same shift — `±N/2` or `±(N/2 + 1)` — and a
//! step off the left or right edge lands on a ghost bit (or outside the board), which the mask of
//! valid bits removes. No per-row parity tables are needed.

/// A diagonal direction in bit space. `Higher*` directions go toward higher square numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `+N/2`.
    HigherNear,
    /// `+(N/2 + 1)`.
    HigherFar,
    /// `-N/2`, the reverse of `HigherNear`.
    LowerNear,
    /// `-(N/2 + 1)`, the reverse of `HigherFar`.
    LowerFar,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::HigherNear,
        Direction::HigherFar,
        Direction::LowerNear,
        Direction::LowerFar,
    ];

    /// The two directions toward higher (`true`) or lower square numbers.
    pub const fn toward(higher: bool) -> [Direction; 2] {
        if higher {
            [Direction::HigherNear, Direction::HigherFar]
        } else {
            [Direction::LowerNear, Direction::LowerFar]
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn is_higher(self) -> bool {
        matches!(self, Direction::HigherNear | Direction::HigherFar)
    }

    pub const fn reverse(self) -> Direction {
        match self {
            Direction::HigherNear => Direction::LowerNear,
            Direction::HigherFar => Direction::LowerFar,
            Direction::LowerNear => Direction::HigherNear,
            Direction::LowerFar => Direction::HigherFar,
        }
    }
}

/// One board size: bit layout, masks, rays and square names, built at compile time.
#[derive(Debug)]
pub struct DiagonalGrid {
    /// Squares per side (8 or 10).
    pub size: u32,
    /// Playable squares (32 or 50).
    pub squares: u32,
    /// Every bit that is a square.
    pub valid: u64,
    /// Bits of the row holding square 1, and of the opposite row.
    pub low_row: u64,
    pub high_row: u64,
    /// `rays[dir][bit]`: the squares from `bit` (excluded) to the edge along `dir`.
    pub rays: [[u64; 64]; 4],
    /// Square number (1-based) of each bit, 0 for ghosts.
    pub square_of_bit: [u8; 64],
    /// Bit of each square number (index 0 unused).
    pub bit_of_square: [u8; 65],
}

impl DiagonalGrid {
    pub const fn new(size: u32) -> DiagonalGrid {
        let half = size / 2;
        let squares = size * half;
        let mut valid = 0u64;
        let mut square_of_bit = [0u8; 64];
        let mut bit_of_square = [0u8; 65];
        let mut low_row = 0u64;
        let mut high_row = 0u64;
        let mut s = 0;
        while s < squares {
            let bit = s + s / size;
            valid |= 1 << bit;
            square_of_bit[bit as usize] = (s + 1) as u8;
            bit_of_square[(s + 1) as usize] = bit as u8;
            if s / half == 0 {
                low_row |= 1 << bit;
            }
            if s / half == size - 1 {
                high_row |= 1 << bit;
            }
            s += 1;
        }
        let mut grid = DiagonalGrid {
            size,
            squares,
            valid,
            low_row,
            high_row,
            rays: [[0; 64]; 4],
            square_of_bit,
            bit_of_square,
        };
        let mut d = 0;
        while d < 4 {
            let mut bit = 0;
            while bit < 64 {
                if valid & (1 << bit) != 0 {
                    let mut ray = 0u64;
                    let mut at = shift(1u64 << bit, DIRECTIONS[d], half) & valid;
                    while at != 0 {
                        ray |= at;
                        at = shift(at, DIRECTIONS[d], half) & valid;
                    }
                    grid.rays[d][bit] = ray;
                }
                bit += 1;
            }
            d += 1;
        }
        grid
    }

    /// Squares per row, the near shift.
    pub const fn half(&self) -> u32 {
        self.size / 2
    }

    /// Moves every bit one step along `dir`; bits that leave the board vanish.
    #[inline(always)]
    pub const fn step(&self, bits: u64, dir: Direction) -> u64 {
        shift(bits, dir, self.size / 2) & self.valid
    }

    /// Squares from `bit` (excluded) to the edge along `dir`.
    #[inline(always)]
    pub fn ray(&self, bit: u32, dir: Direction) -> u64 {
        self.rays[dir.index()][bit as usize]
    }

    /// The nearest of `bits` to a square whose ray along `dir` contains them all.
    #[inline(always)]
    pub fn nearest(bits: u64, dir: Direction) -> u32 {
        if dir.is_higher() {
            bits.trailing_zeros()
        } else {
            63 - bits.leading_zeros()
        }
    }

    /// Squares strictly between `from` and the first of `occupied` along `dir`, plus the bit of
    /// that first square (`None` when the ray is clear to the edge).
    #[inline(always)]
    pub fn slide(&self, from: u32, dir: Direction, occupied: u64) -> (u64, Option<u32>) {
        let ray = self.ray(from, dir);
        let blockers = ray & occupied;
        if blockers == 0 {
            return (ray, None);
        }
        let first = Self::nearest(blockers, dir);
        (ray & !self.ray(first, dir) & !(1 << first), Some(first))
    }

    /// Square number of a bit.
    pub fn square(&self, bit: u32) -> u32 {
        u32::from(self.square_of_bit[bit as usize & 63])
    }

    /// Bit of a square number, if it is on the board.
    pub fn bit(&self, square: u32) -> Option<u32> {
        (1..=self.squares)
            .contains(&square)
            .then(|| u32::from(self.bit_of_square[square as usize]))
    }

    /// Row (0 = the row of square 1) and file (0 = left as seen from the side of the high
    /// numbers, i.e. from the player whose men start there) of a square number.
    pub fn row_file(&self, square: u32) -> (u32, u32) {
        let s = square - 1;
        let half = self.half();
        let row = s / half;
        let file = 2 * (s % half) + u32::from(row.is_multiple_of(2));
        (row, file)
    }
}

const DIRECTIONS: [Direction; 4] = Direction::ALL;

#[inline(always)]
const fn shift(bits: u64, dir: Direction, half: u32) -> u64 {
    match dir {
        Direction::HigherNear => bits << half,
        Direction::HigherFar => bits << (half + 1),
        Direction::LowerNear => bits >> half,
        Direction::LowerFar => bits >> (half + 1),
    }
}

/// The 8×8 board of English checkers (squares 1–32).
pub static GRID_8: DiagonalGrid = DiagonalGrid::new(8);
/// The 10×10 board of International draughts (squares 1–50).
pub static GRID_10: DiagonalGrid = DiagonalGrid::new(10);

#[cfg(test)]
mod tests {
    use super::*;

    /// Diagonal neighbours by square number, computed from rows and files instead of bits.
    fn neighbours_by_coordinates(grid: &DiagonalGrid, square: u32) -> Vec<u32> {
        let (row, file) = grid.row_file(square);
        let mut out = Vec::new();
        for other in 1..=grid.squares {
            let (r, f) = grid.row_file(other);
            if r.abs_diff(row) == 1 && f.abs_diff(file) == 1 {
                out.push(other);
            }
        }
        out
    }

    #[test]
    fn bit_steps_match_board_coordinates() {
        for grid in [&GRID_8, &GRID_10] {
            for square in 1..=grid.squares {
                let bit = grid.bit(square).unwrap();
                let mut by_bits: Vec<u32> = Direction::ALL
                    .iter()
                    .map(|&d| grid.step(1 << bit, d))
                    .filter(|&b| b != 0)
                    .map(|b| grid.square(b.trailing_zeros()))
                    .collect();
                by_bits.sort();
                assert_eq!(
                    by_bits,
                    neighbours_by_coordinates(grid, square),
                    "square {square}"
                );
            }
        }
    }

    #[test]
    fn known_squares_and_rays() {
        // 10×10: square 46 is the bottom-left corner of White; the long diagonal runs 46…5.
        assert_eq!(GRID_10.row_file(46), (9, 0));
        assert_eq!(GRID_10.row_file(5), (0, 9));
        let b46 = GRID_10.bit(46).unwrap();
        let long: Vec<u32> = (0..64)
            .filter(|b| GRID_10.ray(b46, Direction::LowerNear) & (1 << b) != 0)
            .map(|b| GRID_10.square(b))
            .collect();
        assert_eq!(long, [5, 10, 14, 19, 23, 28, 32, 37, 41]);
        // 8×8: the double corners 1/5 and 28/32.
        assert_eq!(GRID_8.row_file(1), (0, 1));
        assert_eq!(GRID_8.row_file(32), (7, 6));
        assert_eq!(GRID_8.valid.count_ones(), 32);
        assert_eq!(GRID_10.valid.count_ones(), 50);
    }
}
