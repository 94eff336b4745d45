//! The solved slices of one game, held as built or compressed, and probing them.

use super::cache::{BlockCache, DEFAULT_CACHE_BYTES};
use super::compact::{CompactSlice, BLOCK_POSITIONS};
use super::error::EndgameError;
use super::games::EndgameGame;
use super::index::{Material, Placement};
use super::slice::{Counts, SliceTable};
use super::value::{self, Value};
use crate::position::GameKind;
use std::collections::HashMap;

/// A build's block cache: its lookups into the slices solved before range over all of them.
const BUILD_CACHE_BYTES: usize = 48 << 20;

/// How a slice is held: its value bytes in memory (as built), or compressed.
#[derive(Debug)]
enum Stored {
    Raw(SliceTable),
    Compact { number: u32, slice: CompactSlice },
}

/// Every loaded (or built) slice of one game; `pieces` is the piece count up to which every
/// slice is present. Compressed slices are read through the tables' own bounded block cache.
#[derive(Debug)]
pub struct GameTables {
    pub kind: GameKind,
    pub pieces: u32,
    slices: HashMap<Material, Stored>,
    /// The most pieces of any slice held (a builder may hold some slices of `pieces + 1`).
    most_pieces: u32,
    /// The longest win or loss in any slice.
    longest: u32,
    /// Compress each slice [`GameTables::insert`] is given (a build bounding its memory).
    compress_inserted: bool,
    /// Numbers the compressed slices for the cache's keys.
    next_number: u32,
    cache: BlockCache,
}

impl GameTables {
    /// Empty tables keeping inserted slices as they are.
    pub fn new(kind: GameKind) -> GameTables {
        GameTables::with_cache(kind, DEFAULT_CACHE_BYTES)
    }

    /// Empty tables whose cache holds about `cache_bytes` of inflated blocks.
    pub fn with_cache(kind: GameKind, cache_bytes: usize) -> GameTables {
        GameTables {
            kind,
            pieces: 1,
            slices: HashMap::new(),
            most_pieces: 0,
            longest: 0,
            compress_inserted: false,
            next_number: 0,
            cache: BlockCache::new(cache_bytes),
        }
    }

    /// Empty tables that compress every slice inserted: a build holds its finished slices in
    /// about a quarter of a byte a position instead of a byte.
    pub fn compressing(kind: GameKind) -> GameTables {
        GameTables {
            compress_inserted: true,
            ..GameTables::with_cache(kind, BUILD_CACHE_BYTES)
        }
    }

    pub fn insert<G: EndgameGame>(&mut self, table: SliceTable) {
        if self.compress_inserted {
            self.insert_compact(CompactSlice::compress::<G>(&table));
            return;
        }
        self.note(table.index.material, table.counts().longest);
        self.slices.insert(table.index.material, Stored::Raw(table));
    }

    pub fn insert_compact(&mut self, slice: CompactSlice) {
        self.note(slice.index.material, slice.counts.longest);
        let number = self.next_number;
        self.next_number += 1;
        self.slices
            .insert(slice.index.material, Stored::Compact { number, slice });
    }

    fn note(&mut self, material: Material, longest: u32) {
        self.longest = self.longest.max(longest);
        self.most_pieces = self.most_pieces.max(material.pieces());
    }

    /// Drops every slice of `pieces` pieces (to read them back from their file).
    pub(crate) fn remove_pieces(&mut self, pieces: u32) {
        self.slices
            .retain(|material, _| material.pieces() != pieces);
    }

    /// A slice held as built, with its value bytes in memory.
    pub fn raw_slice(&self, material: &Material) -> Option<&SliceTable> {
        match self.slices.get(material)? {
            Stored::Raw(table) => Some(table),
            Stored::Compact { .. } => None,
        }
    }

    /// A slice held compressed.
    pub fn compact_slice(&self, material: &Material) -> Option<&CompactSlice> {
        match self.slices.get(material)? {
            Stored::Raw(_) => None,
            Stored::Compact { slice, .. } => Some(slice),
        }
    }

    /// Whether the slice of `material` is here.
    pub fn has(&self, material: &Material) -> bool {
        self.slices.contains_key(material)
    }

    /// The longest win or loss in any slice.
    pub fn longest(&self) -> u32 {
        self.longest
    }

    /// Each slice's material and counts, in no particular order.
    pub fn slice_counts(&self) -> impl Iterator<Item = (Material, Counts)> + '_ {
        self.slices.iter().map(|(material, stored)| {
            let counts = match stored {
                Stored::Raw(table) => table.counts(),
                Stored::Compact { slice, .. } => slice.counts,
            };
            (*material, counts)
        })
    }

    /// The byte at `index` of the slice of `material`: `Ok(None)` when the slice is not here,
    /// an error when its block cannot be read (a damaged file).
    pub(crate) fn byte_at(
        &self,
        material: &Material,
        index: u64,
    ) -> Result<Option<u8>, EndgameError> {
        match self.slices.get(material) {
            None => Ok(None),
            Some(Stored::Raw(table)) => Ok(table.values.get(index as usize).copied()),
            Some(Stored::Compact { number, slice }) => {
                let block = (index / BLOCK_POSITIONS as u64) as usize;
                let offset = (index % BLOCK_POSITIONS as u64) as usize;
                self.cache
                    .byte(*number, block as u32, offset, |out| {
                        slice.read_block(block, out)
                    })
                    .map(Some)
            }
        }
    }

    /// The byte of a placement: a loss in 0 when the side to move has no piece left, the slice's
    /// byte otherwise (worked out from its captures where a compressed slice does not store it);
    /// `Ok(None)` when its slice, or one its captures lead to, is not here.
    pub(crate) fn lookup<G: EndgameGame>(
        &self,
        placement: &Placement,
    ) -> Result<Option<u8>, EndgameError> {
        let material = Material::of(placement.men, placement.kings);
        if material.seat_pieces(placement.to_move) == 0 {
            return Ok(Some(value::distance_byte(0)));
        }
        let index = match self.slices.get(&material) {
            None => return Ok(None),
            Some(Stored::Raw(table)) => table.index.index(G::squares(), placement),
            Some(Stored::Compact { slice, .. }) => {
                let position = G::from_placement(placement);
                if position.must_capture() {
                    return self.capture_byte(&position);
                }
                slice.index.index(G::squares(), placement)
            }
        };
        match index {
            Some(index) => self.byte_at(&material, index),
            None => Ok(None),
        }
    }

    /// The byte of a position that must capture, as its slice was built: the rules' verdict if
    /// they end it at once, else the best of its captures, each read from the smaller slice it
    /// leads to (and worked out again there if that position must capture too).
    fn capture_byte<G: EndgameGame>(&self, position: &G) -> Result<Option<u8>, EndgameError> {
        if let Some(outcome) = position.outcome() {
            return Ok(Some(value::terminal_byte(&outcome)));
        }
        let mut children = Vec::new();
        for mv in position.moves() {
            match self.lookup::<G>(&position.placement_after(&mv))? {
                Some(byte) => children.push(byte),
                None => return Ok(None),
            }
        }
        value::best_of_children(children).map(Some)
    }

    /// [`GameTables::lookup`] where an unreadable block counts as absent: the search then plays
    /// that position without the tables.
    pub(crate) fn byte<G: EndgameGame>(&self, placement: &Placement) -> Option<u8> {
        self.lookup::<G>(placement).ok().flatten()
    }

    /// The value of `position` for the side to move, when its material is in the tables. The
    /// value ignores the draw counters (docs/cpu.md, "Endgame databases").
    pub fn probe<G: EndgameGame>(&self, position: &G) -> Option<Value> {
        if G::KIND != self.kind {
            return None;
        }
        let placement = position.placement();
        let material = Material::of(placement.men, placement.kings);
        // The search asks at every node, and most have more pieces than any slice: answer them
        // before the slice lookup (a hash of the material). A side without pieces has lost,
        // whatever the other holds.
        if material.pieces() > self.most_pieces && material.seat_pieces(placement.to_move) > 0 {
            return None;
        }
        self.byte::<G>(&placement).and_then(value::decode)
    }
}
