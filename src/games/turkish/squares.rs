//! The Turkish board: 64 squares indexed `rank * 8 + file` (a1 = 0, b1 = 1, …, h8 = 63), so a
//! square set is one `u64`. White (seat 0) moves up the board, Black (seat 1) down.
//!
//! Everything here is built at compile time: one-step neighbours and the rays a king slides along.

/// A set of squares, bit `i` for square `i`.
pub type Bitboard = u64;

pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const FILE_H: Bitboard = FILE_A << 7;
pub const RANK_1: Bitboard = 0xFF;
pub const RANK_8: Bitboard = RANK_1 << 56;

/// The four orthogonal directions. `reverse` is `d ^ 2`, which is what the no-180° rule tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Dir {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub const fn reverse(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// Whether stepping this way increases the square index (the nearest square on a ray is then
    /// its lowest bit, otherwise its highest).
    pub const fn ascending(self) -> bool {
        matches!(self, Dir::North | Dir::East)
    }

    const fn offset(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }
}

/// Marks "off the board" in [`NEIGHBOUR`].
pub const NONE: u8 = 64;

const fn build_neighbours() -> [[u8; 64]; 4] {
    let mut table = [[NONE; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = Dir::ALL[d].offset();
        let mut sq = 0;
        while sq < 64 {
            let file = (sq % 8) as i8 + df;
            let rank = (sq / 8) as i8 + dr;
            if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                table[d][sq] = (rank * 8 + file) as u8;
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

const fn build_rays() -> [[Bitboard; 64]; 4] {
    let mut table = [[0; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 64 {
            let mut ray = 0u64;
            let mut next = NEIGHBOUR[d][sq];
            while next != NONE {
                ray |= 1u64 << next;
                next = NEIGHBOUR[d][next as usize];
            }
            table[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    table
}

/// `NEIGHBOUR[dir][sq]`: the adjacent square that way, or [`NONE`].
pub const NEIGHBOUR: [[u8; 64]; 4] = build_neighbours();

/// `RAY[dir][sq]`: every square strictly beyond `sq` that way, up to the edge.
pub const RAY: [[Bitboard; 64]; 4] = build_rays();

#[inline(always)]
pub const fn bit(sq: u8) -> Bitboard {
    1u64 << sq
}

/// The square of `set` nearest to the ray's origin, for a non-empty subset of one ray.
#[inline(always)]
pub fn nearest(dir: Dir, set: Bitboard) -> u8 {
    if dir.ascending() {
        set.trailing_zeros() as u8
    } else {
        63 - set.leading_zeros() as u8
    }
}

/// Squares a rook-like slider on `sq` reaches that way before the first occupied square.
#[inline(always)]
pub fn slide(dir: Dir, sq: u8, occupied: Bitboard) -> Bitboard {
    let ray = RAY[dir as usize][sq as usize];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        let first = nearest(dir, blockers);
        ray & !RAY[dir as usize][first as usize] & !bit(first)
    }
}

/// Rook-like reach on all four lines, stopping before occupied squares.
#[inline(always)]
pub fn rook_reach(sq: u8, occupied: Bitboard) -> Bitboard {
    slide(Dir::North, sq, occupied)
        | slide(Dir::East, sq, occupied)
        | slide(Dir::South, sq, occupied)
        | slide(Dir::West, sq, occupied)
}

pub fn file_of(sq: u8) -> u8 {
    sq % 8
}

pub fn rank_of(sq: u8) -> u8 {
    sq / 8
}

/// Algebraic name: `a1` … `h8`.
pub fn name(sq: u8) -> String {
    let file = char::from(b'a' + file_of(sq));
    let rank = char::from(b'1' + rank_of(sq));
    format!("{file}{rank}")
}

/// Reads `a1` … `h8` (lower case only, exactly two characters).
pub fn parse(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Some((rank - b'1') * 8 + (file - b'a')),
        _ => None,
    }
}

/// Iterates the squares of a set, lowest first.
pub fn squares(mut set: Bitboard) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let sq = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(sq)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_square() {
        for sq in 0..64 {
            assert_eq!(parse(&name(sq)), Some(sq));
        }
        assert_eq!(name(0), "a1");
        assert_eq!(name(63), "h8");
        for bad in ["", "a", "i1", "a9", "a0", "A1", "a10", "1a"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn rays_stop_at_the_edge_and_blockers() {
        // d4 = 27: north ray d5..d8.
        assert_eq!(
            RAY[Dir::North as usize][27],
            bit(35) | bit(43) | bit(51) | bit(59)
        );
        assert_eq!(RAY[Dir::West as usize][24], 0);
        // A blocker on d6 (43) leaves d5 only.
        assert_eq!(slide(Dir::North, 27, bit(43)), bit(35));
        assert_eq!(slide(Dir::South, 27, bit(11)), bit(19));
        assert_eq!(rook_reach(0, 0).count_ones(), 14);
    }
}
