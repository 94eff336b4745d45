//! Transposition table: one entry per slot, replaced when the new search is as deep, the slot
//! holds another position, or the entry is left from an earlier search. Scores are from the root
//! seat's side: a table serves one search, or (expert, [`super::table_pool`]) the searches of one
//! seat in one game, which share that side.
//!
//! The table may be shared by the threads of one search (expert's helpers, `Params::threads`):
//! each slot is two atomic words, the entry packed into one and the key XOR-ed with it in the
//! other, so an entry torn by two threads writing at once fails its key check and reads as a miss
//! instead of as another position's entry (the "lockless hashing" of chess programs). A single
//! thread reads back exactly what it stored, so the node-budgeted levels replay as before.

use super::score;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score.
    Lower,
    /// The true value is at most the score.
    Upper,
}

impl Bound {
    /// 0 marks an empty slot.
    fn code(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_code(code: u64) -> Option<Bound> {
        match code {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    key: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// The search that stored it, modulo [`GENERATIONS`] ([`Table::next_search`]).
    generation: u8,
    /// Index of the best move in the position's `legal_moves` order (games list moves in a
    /// fixed order), or `u16::MAX`.
    pub best: u16,
}

/// Searches a table tells apart: the generation takes the 6 bits above the bound's 2.
const GENERATIONS: u8 = 64;

impl Entry {
    /// Score in the low 32 bits, then depth (8 bits: `store` keeps it within 0..=255), bound
    /// (2 bits), generation (6 bits) and best move (16 bits).
    fn pack(&self) -> u64 {
        u64::from(self.score as u32)
            | u64::from(self.depth as u8) << 32
            | self.bound.code() << 40
            | u64::from(self.generation) << 42
            | u64::from(self.best) << 48
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        Some(Entry {
            key,
            score: data as u32 as i32,
            depth: ((data >> 32) & 0xFF) as i16,
            bound: Bound::from_code((data >> 40) & 0b11)?,
            generation: ((data >> 42) & 0x3F) as u8,
            best: (data >> 48) as u16,
        })
    }
}

struct Slot {
    /// The key XOR the data: a slot whose two words come from different stores fails the check.
    check: AtomicU64,
    data: AtomicU64,
}

pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
    /// The search now storing ([`Table::next_search`]); a fresh table's searches are all 0.
    generation: u8,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits;
        Table {
            slots: (0..size)
                .map(|_| Slot {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                })
                .collect(),
            mask: size - 1,
            generation: 0,
        }
    }

    /// log2 of the table's entries.
    pub fn bits(&self) -> u32 {
        self.mask.count_ones()
    }

    /// Starts another search on this table: what earlier searches stored still answers probes
    /// (their depths and bounds stay true), but no longer keeps a slot from the new search.
    pub fn next_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    fn read(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (check ^ data == key)
            .then(|| Entry::unpack(key, data))
            .flatten()
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let entry = self.read(key)?;
        Some(Entry {
            score: score::from_table(entry.score, ply),
            ..entry
        })
    }

    pub fn store(&self, key: u64, ply: usize, depth: i32, value: i32, bound: Bound, best: usize) {
        // Depths stay far below 255 (the deepest iteration is 64 plies).
        let depth = depth.clamp(0, i32::from(u8::MAX)) as i16;
        if let Some(old) = self.read(key) {
            if old.depth > depth && bound != Bound::Exact && old.generation == self.generation {
                return;
            }
        }
        let data = Entry {
            key,
            score: score::to_table(value, ply),
            depth,
            bound,
            generation: self.generation,
            best: u16::try_from(best).unwrap_or(u16::MAX),
        }
        .pack();
        let slot = &self.slots[key as usize & self.mask];
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_as_stored() {
        let table = Table::new(8);
        for (key, value, depth, bound, best) in [
            (0x1234_5678_9ABC_DEF0, -1_999_999, 0, Bound::Upper, 0),
            (0x0FED_CBA9_8765_4321, 1_999_999, 64, Bound::Lower, 65_534),
            (7, 0, 3, Bound::Exact, usize::MAX),
        ] {
            table.store(key, 0, depth, value, bound, best);
            let entry = table.probe(key, 0).expect("stored");
            assert_eq!(entry.score, value);
            assert_eq!(i32::from(entry.depth), depth);
            assert_eq!(entry.bound, bound);
            assert_eq!(
                entry.best,
                u16::try_from(best).unwrap_or(u16::MAX),
                "{key:x}"
            );
        }
        assert!(table.probe(8, 0).is_none(), "an empty slot is a miss");
        assert!(
            table.probe(7 + 256, 0).is_none(),
            "another key in the same slot is a miss"
        );
        assert!(Table::new(4).probe(0, 0).is_none(), "key 0 in a new table");
    }

    #[test]
    fn a_deeper_bound_is_kept_and_an_exact_score_always_replaces() {
        let table = Table::new(4);
        table.store(5, 0, 6, 40, Bound::Lower, 1);
        table.store(5, 0, 2, 10, Bound::Upper, 2);
        assert_eq!(table.probe(5, 0).map(|e| (e.depth, e.score)), Some((6, 40)));
        table.store(5, 0, 2, 10, Bound::Exact, 2);
        assert_eq!(table.probe(5, 0).map(|e| (e.depth, e.score)), Some((2, 10)));
        // Another position in the slot is replaced whatever its depth.
        table.store(5 + 16, 0, 1, -3, Bound::Upper, 0);
        assert!(table.probe(5, 0).is_none());
        assert_eq!(table.probe(5 + 16, 0).map(|e| e.score), Some(-3));
    }

    #[test]
    fn a_later_search_replaces_an_earlier_ones_deeper_bound_and_still_reads_it() {
        let mut table = Table::new(4);
        table.store(5, 0, 6, 40, Bound::Lower, 1);
        table.next_search();
        assert_eq!(
            table.probe(5, 0).map(|e| (e.depth, e.score, e.bound)),
            Some((6, 40, Bound::Lower)),
            "an earlier search's entry answers probes"
        );
        table.store(5, 0, 2, 10, Bound::Upper, 2);
        assert_eq!(table.probe(5, 0).map(|e| (e.depth, e.score)), Some((2, 10)));
        // Within the new search the deeper bound is kept again.
        table.store(5, 0, 1, 7, Bound::Upper, 3);
        assert_eq!(table.probe(5, 0).map(|e| (e.depth, e.score)), Some((2, 10)));
        // The generation wraps: search 64 after this one is this one again.
        for _ in 0..GENERATIONS {
            table.next_search();
        }
        table.store(5, 0, 1, 7, Bound::Upper, 3);
        assert_eq!(table.probe(5, 0).map(|e| (e.depth, e.score)), Some((2, 10)));
        table.next_search();
        table.store(5, 0, 1, 7, Bound::Upper, 3);
        assert_eq!(table.probe(5, 0).map(|e| (e.depth, e.score)), Some((1, 7)));
        assert_eq!(table.bits(), 4);
    }

    /// Two threads write entries whose every field derives from the key into the same few
    /// slots, while a third reads: no read may return an entry that is not its key's.
    #[test]
    fn entries_torn_by_threads_writing_at_once_read_as_misses() {
        let table = Table::new(2);
        let fields = |key: u64| {
            let value = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as i32 - (1 << 23);
            (value, (key % 60) as i32, (key % 1000) as usize)
        };
        let rounds = 200_000u64;
        let (mut hits, mut misses) = (0u64, 0u64);
        std::thread::scope(|scope| {
            for writer in 0..2u64 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..rounds {
                        let key = (round * 2 + writer).wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
                        let (value, depth, best) = fields(key);
                        table.store(key, 0, depth, value, Bound::Exact, best);
                    }
                });
            }
            for round in 0..rounds {
                let key = (round % 5000).wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
                match table.probe(key, 0) {
                    Some(entry) => {
                        hits += 1;
                        let (value, depth, best) = fields(key);
                        assert_eq!(
                            (entry.score, i32::from(entry.depth), usize::from(entry.best)),
                            (value, depth, best),
                            "key {key:x}"
                        );
                    }
                    None => misses += 1,
                }
            }
        });
        assert_eq!(hits + misses, rounds);
    }
}
