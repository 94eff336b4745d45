//! A bounded cache of inflated blocks, shared by the search threads probing one game's tables.
//!
//! Set-associative: a block may sit in one set of [`WAYS`] slots, chosen by a hash of (slice,
//! block), and replaces the set's least recently used block. Each set has its own lock, so
//! threads probing blocks of different sets never wait on each other, and the memory is fixed:
//! slots × [`BLOCK_POSITIONS`] bytes. (Direct-mapped, half of English's 4-piece blocks shared a
//! slot with another and missed on most probes.)

use super::compact::BLOCK_POSITIONS;
use super::error::EndgameError;
use std::sync::Mutex;

/// The cache's size in bytes of inflated values when none is given: with the file's own block
/// list and the engine, well under the 64 MB the tables may cost a phone.
pub const DEFAULT_CACHE_BYTES: usize = 16 << 20;

/// Slots of a set.
const WAYS: usize = 4;

#[derive(Default)]
struct Slot {
    /// (slice number, block number) of the values held.
    key: Option<(u32, u32)>,
    /// The set's clock when the slot was last read.
    used: u64,
    values: Vec<u8>,
}

#[derive(Default)]
struct Set {
    slots: [Slot; WAYS],
    clock: u64,
}

/// Inflated blocks, at most `sets × WAYS` of them.
pub(crate) struct BlockCache {
    sets: Box<[Mutex<Set>]>,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockCache")
            .field("slots", &(self.sets.len() * WAYS))
            .finish()
    }
}

impl BlockCache {
    /// A cache of about `bytes` bytes of inflated values (at least one block).
    pub fn new(bytes: usize) -> BlockCache {
        let sets = (bytes / BLOCK_POSITIONS / WAYS).max(1).next_power_of_two();
        BlockCache {
            sets: (0..sets).map(|_| Mutex::new(Set::default())).collect(),
        }
    }

    fn set(&self, slice: u32, block: u32) -> &Mutex<Set> {
        let key = (u64::from(slice) << 32 | u64::from(block)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let at = (key >> 32) as usize & (self.sets.len() - 1);
        &self.sets[at]
    }

    /// Byte `offset` of block `block` of slice `slice`, inflating the block with `fill` when the
    /// cache does not hold it.
    pub fn byte(
        &self,
        slice: u32,
        block: u32,
        offset: usize,
        fill: impl FnOnce(&mut Vec<u8>) -> Result<(), EndgameError>,
    ) -> Result<u8, EndgameError> {
        let mut set = self
            .set(slice, block)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        set.clock += 1;
        let clock = set.clock;
        let key = Some((slice, block));
        let at = match set.slots.iter().position(|slot| slot.key == key) {
            Some(at) => at,
            None => {
                let at = (0..WAYS)
                    .min_by_key(|&at| set.slots[at].used)
                    .unwrap_or_default();
                let slot = &mut set.slots[at];
                slot.key = None;
                fill(&mut slot.values)?;
                slot.key = key;
                at
            }
        };
        let slot = &mut set.slots[at];
        slot.used = clock;
        slot.values
            .get(offset)
            .copied()
            .ok_or(EndgameError::Truncated)
    }
}
