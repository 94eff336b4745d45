//! Transposition table: one entry per slot, replaced when the new search is as deep or the
//! slot holds another position. Scores are from the root seat's side (one table per search).

use super::score;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score.
    Lower,
    /// The true value is at most the score.
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// Index of the best move in the position's `legal_moves` order (games list moves in a
    /// fixed order), or `u16::MAX`.
    pub best: u16,
}

pub struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits;
        Table {
            entries: vec![None; size],
            mask: size - 1,
        }
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let entry = self.entries[key as usize & self.mask]?;
        (entry.key == key).then(|| Entry {
            score: score::from_table(entry.score, ply),
            ..entry
        })
    }

    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        depth: i32,
        value: i32,
        bound: Bound,
        best: usize,
    ) {
        let slot = &mut self.entries[key as usize & self.mask];
        let depth = depth.clamp(0, i16::MAX as i32) as i16;
        if let Some(old) = slot {
            if old.key == key && old.depth > depth && bound != Bound::Exact {
                return;
            }
        }
        *slot = Some(Entry {
            key,
            score: score::to_table(value, ply),
            depth,
            bound,
            best: u16::try_from(best).unwrap_or(u16::MAX),
        });
    }
}
