//! A set of star holes as one 128-bit word: union, membership and iteration are single
//! instructions, which is what keeps the star move generators allocation-free.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// Index of a hole on the 121-hole star (see [`crate::geometry::star`] for the order).
pub type Hole = u8;

/// A set of holes (bit `h` = hole `h`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HoleSet(pub u128);

impl HoleSet {
    pub const EMPTY: HoleSet = HoleSet(0);

    #[inline]
    pub const fn single(hole: Hole) -> HoleSet {
        HoleSet(1u128 << hole)
    }

    #[inline]
    pub const fn contains(self, hole: Hole) -> bool {
        (self.0 >> hole) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, hole: Hole) {
        self.0 |= 1u128 << hole;
    }

    #[inline]
    pub fn remove(&mut self, hole: Hole) {
        self.0 &= !(1u128 << hole);
    }

    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest hole, if any.
    #[inline]
    pub const fn first(self) -> Option<Hole> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as Hole)
        }
    }

    /// Removes and returns the lowest hole.
    #[inline]
    pub fn pop(&mut self) -> Option<Hole> {
        let hole = self.first()?;
        self.0 &= self.0 - 1;
        Some(hole)
    }

    #[inline]
    pub const fn is_subset(self, other: HoleSet) -> bool {
        self.0 & !other.0 == 0
    }

    pub fn iter(self) -> HoleIter {
        HoleIter(self)
    }
}

impl std::fmt::Debug for HoleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Holes of a set in ascending order.
#[derive(Clone, Copy, Debug)]
pub struct HoleIter(HoleSet);

impl Iterator for HoleIter {
    type Item = Hole;

    #[inline]
    fn next(&mut self) -> Option<Hole> {
        self.0.pop()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.len() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for HoleSet {
    type Item = Hole;
    type IntoIter = HoleIter;
    fn into_iter(self) -> HoleIter {
        self.iter()
    }
}

impl FromIterator<Hole> for HoleSet {
    fn from_iter<I: IntoIterator<Item = Hole>>(iter: I) -> HoleSet {
        let mut set = HoleSet::EMPTY;
        for hole in iter {
            set.insert(hole);
        }
        set
    }
}

impl BitOr for HoleSet {
    type Output = HoleSet;
    #[inline]
    fn bitor(self, rhs: HoleSet) -> HoleSet {
        HoleSet(self.0 | rhs.0)
    }
}

impl BitOrAssign for HoleSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: HoleSet) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for HoleSet {
    type Output = HoleSet;
    #[inline]
    fn bitand(self, rhs: HoleSet) -> HoleSet {
        HoleSet(self.0 & rhs.0)
    }
}

impl BitAndAssign for HoleSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: HoleSet) {
        self.0 &= rhs.0;
    }
}

impl Not for HoleSet {
    type Output = HoleSet;
    /// The complement within the 128 bits; callers intersect with [`crate::geometry::star::ALL`].
    #[inline]
    fn not(self) -> HoleSet {
        HoleSet(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut set: HoleSet = [3, 120, 64].into_iter().collect();
        assert_eq!(set.len(), 3);
        assert!(set.contains(120) && set.contains(64) && !set.contains(65));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![3, 64, 120]);
        set.remove(64);
        assert_eq!(set.pop(), Some(3));
        assert_eq!(set.pop(), Some(120));
        assert_eq!(set.pop(), None);
        assert!(HoleSet::single(5).is_subset(HoleSet::single(5) | HoleSet::single(6)));
    }
}
