//! Indexing a material slice: every placement of a fixed set of men and kings, with either side
//! to move, numbered densely from 0.
//!
//! A slice is named by its [`Material`] (men and kings of each seat). The four piece groups (seat
//! 0's men, seat 1's men, seat 0's kings, seat 1's kings) are each ranked as a combination of the
//! squares that group may stand on (men: every square but their crowning row; kings: every
//! square), in colex order, and the ranks are mixed with the side to move into one number. The
//! groups are ranked independently, so a few indices name two pieces on one square: those are
//! *invalid* and hold no value. That costs 22 % of the English 5-piece file and 7–9 % of the
//! International and Turkish 4-piece ones (docs/cpu.md), and keeps indexing a few
//! multiplications.

use crate::position::Seat;

/// Most pieces a slice may hold (the binomial table's width).
pub const MAX_PIECES: usize = 8;

/// Pieces of each seat in a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub men: [u8; 2],
    pub kings: [u8; 2],
}

impl Material {
    /// The material of piece sets (`men[seat]`, `kings[seat]`).
    pub fn of(men: [u64; 2], kings: [u64; 2]) -> Material {
        Material {
            men: [men[0].count_ones() as u8, men[1].count_ones() as u8],
            kings: [kings[0].count_ones() as u8, kings[1].count_ones() as u8],
        }
    }

    pub fn pieces(&self) -> u32 {
        u32::from(self.men[0] + self.men[1] + self.kings[0] + self.kings[1])
    }

    pub fn seat_pieces(&self, seat: Seat) -> u8 {
        self.men[usize::from(seat)] + self.kings[usize::from(seat)]
    }

    pub fn total_men(&self) -> u32 {
        u32::from(self.men[0] + self.men[1])
    }

    /// Text such as `2m1k-0m1k` (seat 0, then seat 1).
    pub fn label(&self) -> String {
        format!(
            "{}m{}k-{}m{}k",
            self.men[0], self.kings[0], self.men[1], self.kings[1]
        )
    }

    /// Every slice with exactly `pieces` pieces and at least one piece per seat, in build order:
    /// fewer men first, since a crowning turns a man into a king (same piece count, one man
    /// fewer), so every slice a move can lead to other than its own comes earlier — captures lead
    /// to smaller piece counts, built before.
    pub fn slices(pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        let n = pieces as u8;
        for m0 in 0..=n {
            for k0 in 0..=n - m0 {
                for m1 in 0..=n - m0 - k0 {
                    let k1 = n - m0 - k0 - m1;
                    if m0 + k0 == 0 || m1 + k1 == 0 {
                        continue;
                    }
                    all.push(Material {
                        men: [m0, m1],
                        kings: [k0, k1],
                    });
                }
            }
        }
        all.sort_by_key(|material| (material.total_men(), *material));
        all
    }
}

/// `BINOMIAL[n][k]` = C(n, k) for n ≤ 64, k ≤ MAX_PIECES.
static BINOMIAL: [[u64; MAX_PIECES + 1]; 65] = {
    let mut table = [[0u64; MAX_PIECES + 1]; 65];
    let mut n = 0;
    while n <= 64 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

/// The squares one piece group may stand on: bit indices in ascending order, and each bit's
/// position in that list (`NOT_HERE` for bits outside it).
#[derive(Clone, Debug)]
pub struct SquareList {
    pub bits: Vec<u8>,
    position: [u8; 64],
}

const NOT_HERE: u8 = u8::MAX;

impl SquareList {
    pub fn new(mask: u64) -> SquareList {
        let mut bits = Vec::new();
        let mut position = [NOT_HERE; 64];
        let mut rest = mask;
        while rest != 0 {
            let bit = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            position[usize::from(bit)] = bits.len() as u8;
            bits.push(bit);
        }
        SquareList { bits, position }
    }

    /// The colex rank of a set of `set.count_ones()` squares of this list; `None` when a square
    /// is not in the list (a man on its crowning row).
    fn rank(&self, set: u64) -> Option<u64> {
        let mut rank = 0;
        let mut rest = set;
        let mut i = 1;
        while rest != 0 {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let at = self.position[bit];
            if at == NOT_HERE {
                return None;
            }
            rank += BINOMIAL[usize::from(at)][i];
            i += 1;
        }
        Some(rank)
    }

    /// The set of `count` squares with colex rank `rank`.
    fn unrank(&self, mut rank: u64, count: u8) -> u64 {
        let mut set = 0;
        let mut top = self.bits.len();
        for k in (1..=usize::from(count)).rev() {
            // The largest position p with C(p, k) <= rank.
            let mut p = top - 1;
            while BINOMIAL[p][k] > rank {
                p -= 1;
            }
            rank -= BINOMIAL[p][k];
            set |= 1u64 << self.bits[p];
            top = p;
        }
        set
    }

    fn combinations(&self, count: u8) -> u64 {
        BINOMIAL[self.bits.len()][usize::from(count)]
    }
}

/// The squares of a game: where each seat's men may stand and where kings may.
#[derive(Clone, Debug)]
pub struct Squares {
    pub men: [SquareList; 2],
    pub kings: SquareList,
}

/// The numbering of one slice.
#[derive(Clone, Debug)]
pub struct SliceIndex {
    pub material: Material,
    /// Combinations of each group: seat 0's men, seat 1's men, seat 0's kings, seat 1's kings.
    sizes: [u64; 4],
    len: u64,
}

/// A position's pieces: men and kings of each seat, and the seat to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub men: [u64; 2],
    pub kings: [u64; 2],
    pub to_move: Seat,
}

impl SliceIndex {
    pub fn new(material: Material, squares: &Squares) -> SliceIndex {
        let sizes = [
            squares.men[0].combinations(material.men[0]),
            squares.men[1].combinations(material.men[1]),
            squares.kings.combinations(material.kings[0]),
            squares.kings.combinations(material.kings[1]),
        ];
        let len = 2 * sizes.iter().product::<u64>();
        SliceIndex {
            material,
            sizes,
            len,
        }
    }

    /// Number of indices (valid or not).
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The index of a placement of this slice's material; `None` if a man stands on its
    /// crowning row.
    pub fn index(&self, squares: &Squares, placement: &Placement) -> Option<u64> {
        let ranks = [
            squares.men[0].rank(placement.men[0])?,
            squares.men[1].rank(placement.men[1])?,
            squares.kings.rank(placement.kings[0])?,
            squares.kings.rank(placement.kings[1])?,
        ];
        let mut index = 0;
        for group in (0..4).rev() {
            index = index * self.sizes[group] + ranks[group];
        }
        Some(u64::from(placement.to_move) + 2 * index)
    }

    /// The placement at `index`; `None` when two pieces would share a square (an unused index).
    pub fn placement(&self, squares: &Squares, index: u64) -> Option<Placement> {
        let to_move = (index & 1) as Seat;
        let mut rest = index / 2;
        let mut sets = [0u64; 4];
        for (group, set) in sets.iter_mut().enumerate() {
            let rank = rest % self.sizes[group];
            rest /= self.sizes[group];
            let list = if group < 2 {
                &squares.men[group]
            } else {
                &squares.kings
            };
            let count = match group {
                0 | 1 => self.material.men[group],
                _ => self.material.kings[group - 2],
            };
            *set = list.unrank(rank, count);
        }
        let union = sets[0] | sets[1] | sets[2] | sets[3];
        let pieces = sets.iter().map(|set| set.count_ones()).sum::<u32>();
        (union.count_ones() == pieces).then_some(Placement {
            men: [sets[0], sets[1]],
            kings: [sets[2], sets[3]],
            to_move,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares() -> Squares {
        // A toy board of 12 squares; each seat's men avoid one end.
        Squares {
            men: [SquareList::new(0x0FF), SquareList::new(0xFF0)],
            kings: SquareList::new(0xFFF),
        }
    }

    #[test]
    fn every_valid_index_round_trips_and_every_placement_has_one_index() {
        let squares = squares();
        let material = Material {
            men: [1, 1],
            kings: [1, 1],
        };
        let slice = SliceIndex::new(material, &squares);
        let mut valid = 0;
        for index in 0..slice.len() {
            if let Some(placement) = slice.placement(&squares, index) {
                valid += 1;
                assert_eq!(Material::of(placement.men, placement.kings), material);
                assert_eq!(slice.index(&squares, &placement), Some(index));
            }
        }
        // Distinct squares: 8 (man 0) × 7 (man 1 on its 8 squares minus man 0's, when shared)…
        // counted directly instead.
        let mut expected = 0;
        for a in 0..12 {
            for b in 0..12 {
                for c in 0..12 {
                    for d in 0..12 {
                        let distinct = [a, b, c, d]
                            .into_iter()
                            .collect::<std::collections::HashSet<_>>();
                        if a < 8 && b >= 4 && distinct.len() == 4 {
                            expected += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(valid, 2 * expected);
    }

    #[test]
    fn slices_come_in_an_order_where_crowning_leads_to_an_earlier_slice() {
        let slices = Material::slices(4);
        for (at, material) in slices.iter().enumerate() {
            for seat in 0..2 {
                if material.men[seat] == 0 {
                    continue;
                }
                let mut crowned = *material;
                crowned.men[seat] -= 1;
                crowned.kings[seat] += 1;
                let before = slices.iter().position(|m| *m == crowned);
                assert!(before.is_some_and(|before| before < at), "{material:?}");
            }
        }
        assert!(slices.iter().all(|m| m.pieces() == 4));
    }
}
