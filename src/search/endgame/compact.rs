//! A slice stored compactly: its value bytes cut into fixed blocks of [`BLOCK_POSITIONS`]
//! indices, each block deflated on its own, so that one position is read by inflating one block.
//!
//! Only the bytes a probe reads are stored: an invalid index (two pieces on one square) and a
//! position whose side to move must capture (its value is the best of its captures', read from
//! the smaller slices they lead to: [`super::GameTables`] works it out) hold no byte of their
//! own. Before deflating, a block is laid out for long runs: the positions with seat 0 to move
//! (even indices), then those with seat 1 (odd ones), each unstored index repeating the byte
//! before it. English up to 4 pieces: 2.26 bits an index stored whole, 1.58 so.
//!
//! The blocks live in memory (a slice just built, before its file is written) or in a file read
//! by slice on demand ([`BlockSource::File`]): opening a file reads its header and block list
//! only, and a probe reads one block. Each block carries a checksum of its compressed bytes,
//! checked when it is read, so a damaged block is an [`EndgameError::Checksum`], never a wrong
//! value or a panic.

use super::error::EndgameError;
use super::games::EndgameGame;
use super::index::SliceIndex;
use super::slice::{Counts, SliceTable};
use super::value::{DRAW, INVALID};
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// Indices per block. Larger blocks compress a little better (English 4 pieces, deflate: 2.36
/// bits a position at 4 Ki, 2.20 at 16 Ki, 2.07 at 64 Ki) but cost more to inflate on a cache
/// miss; 8 Ki keeps a miss near 20 µs.
pub const BLOCK_POSITIONS: usize = 8192;

/// Deflate level: 6 compresses within 1 % of the best level at half its time.
const LEVEL: u8 = 6;

/// The largest compressed block accepted: deflate's stored blocks add 5 bytes per 64 KiB, so a
/// larger length can only come from a damaged file.
pub(crate) const MAX_COMPRESSED: usize = BLOCK_POSITIONS + 1024;

/// FNV-1a 64 folded to 32 bits: the checksum of one compressed block.
pub(crate) fn block_checksum(bytes: &[u8]) -> u32 {
    let hash = fnv1a(bytes);
    (hash ^ (hash >> 32)) as u32
}

/// FNV-1a 64.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_parts(&[bytes])
}

/// FNV-1a 64 of these byte strings one after another.
pub(crate) fn fnv1a_parts(parts: &[&[u8]]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for part in parts {
        for &byte in *part {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// An open table file, read at offsets (`pread`), shared by the slices it holds.
#[derive(Debug)]
pub(crate) struct TableFile {
    pub path: PathBuf,
    pub file: File,
}

impl TableFile {
    /// Reads exactly `out.len()` bytes at `offset`.
    pub fn read_at(&self, out: &mut [u8], offset: u64) -> Result<(), EndgameError> {
        read_exact_at(&self.file, out, offset).map_err(|source| match source.kind() {
            std::io::ErrorKind::UnexpectedEof => EndgameError::Truncated,
            _ => EndgameError::Io {
                path: self.path.clone(),
                source,
            },
        })
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, out: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, out, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut out: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !out.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, out, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(read) => {
                out = &mut out[read..];
                offset += read as u64;
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// Where a slice's compressed blocks are.
#[derive(Debug)]
pub(crate) enum BlockSource {
    /// In memory: the blocks one after another.
    Memory(Vec<u8>),
    /// In a file, from byte `start` on.
    File { file: Arc<TableFile>, start: u64 },
}

/// One block's place among its slice's compressed bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockEntry {
    /// Offset from the slice's first block.
    pub offset: u64,
    pub len: u32,
    pub checksum: u32,
}

/// A slice's values, block-compressed.
#[derive(Debug)]
pub struct CompactSlice {
    pub index: SliceIndex,
    pub counts: Counts,
    pub(crate) blocks: Vec<BlockEntry>,
    pub(crate) source: BlockSource,
}

/// How many blocks a slice of `len` indices has.
pub(crate) fn block_count(len: u64) -> u64 {
    len.div_ceil(BLOCK_POSITIONS as u64)
}

/// Whether the file stores the byte at `index` (holding `byte` as built): a valid position whose
/// side to move has no capture.
pub(crate) fn is_stored<G: EndgameGame>(slice: &SliceIndex, index: u64, byte: u8) -> bool {
    byte != INVALID
        && slice
            .placement(G::squares(), index)
            .is_some_and(|placement| !G::from_placement(&placement).must_capture())
}

/// A block of `values` (starting at index `first`, a multiple of the block size, so even
/// offsets are seat 0 to move) as deflated: even offsets, then odd ones, each unstored byte
/// replaced by the stored byte before it.
fn block_layout<G: EndgameGame>(slice: &SliceIndex, first: u64, values: &[u8]) -> Vec<u8> {
    let mut laid = Vec::with_capacity(values.len());
    let mut last = DRAW;
    for offset in (0..values.len())
        .step_by(2)
        .chain((1..values.len()).step_by(2))
    {
        let byte = values[offset];
        if is_stored::<G>(slice, first + offset as u64, byte) {
            last = byte;
        }
        laid.push(last);
    }
    laid
}

/// The inverse of [`block_layout`]'s order: `laid` (even offsets, then odd ones) into `out`.
fn unlay(laid: &[u8], out: &mut [u8]) {
    let evens = out.len().div_ceil(2);
    for (offset, byte) in out.iter_mut().enumerate() {
        let at = if offset % 2 == 0 {
            offset / 2
        } else {
            evens + offset / 2
        };
        *byte = laid[at];
    }
}

impl CompactSlice {
    /// Compresses a solved slice in memory.
    pub fn compress<G: EndgameGame>(table: &SliceTable) -> CompactSlice {
        let mut data = Vec::new();
        let mut blocks = Vec::with_capacity(table.values.len().div_ceil(BLOCK_POSITIONS));
        for (number, chunk) in table.values.chunks(BLOCK_POSITIONS).enumerate() {
            let first = (number * BLOCK_POSITIONS) as u64;
            let laid = block_layout::<G>(&table.index, first, chunk);
            let compressed = miniz_oxide::deflate::compress_to_vec(&laid, LEVEL);
            blocks.push(BlockEntry {
                offset: data.len() as u64,
                len: compressed.len() as u32,
                checksum: block_checksum(&compressed),
            });
            data.extend_from_slice(&compressed);
        }
        CompactSlice {
            index: table.index.clone(),
            counts: table.counts(),
            blocks,
            source: BlockSource::Memory(data),
        }
    }

    /// Indices in block `block` (the last block may be short).
    pub(crate) fn block_len(&self, block: usize) -> usize {
        let start = block as u64 * BLOCK_POSITIONS as u64;
        (self.index.len() - start).min(BLOCK_POSITIONS as u64) as usize
    }

    /// Writes the compressed bytes of every block, in order, to `out` (a file being written).
    pub(crate) fn write_compressed(&self, out: &mut impl Write) -> Result<(), EndgameError> {
        let io = |source| EndgameError::Io {
            path: PathBuf::new(),
            source,
        };
        match &self.source {
            BlockSource::Memory(data) => out.write_all(data).map_err(io),
            BlockSource::File { .. } => {
                let mut data = Vec::new();
                for (number, block) in self.blocks.iter().enumerate() {
                    data.resize(block.len as usize, 0);
                    self.read_compressed(number, &mut data)?;
                    out.write_all(&data).map_err(io)?;
                }
                Ok(())
            }
        }
    }

    /// Reads block `number`'s compressed bytes into `out` (sized to them) and checks their
    /// checksum.
    fn read_compressed(&self, number: usize, out: &mut [u8]) -> Result<(), EndgameError> {
        let entry = *self.blocks.get(number).ok_or(EndgameError::Truncated)?;
        match &self.source {
            BlockSource::Memory(data) => {
                let from = entry.offset as usize;
                let bytes = data
                    .get(from..from + out.len())
                    .ok_or(EndgameError::Truncated)?;
                out.copy_from_slice(bytes);
            }
            BlockSource::File { file, start } => file.read_at(out, start + entry.offset)?,
        }
        if block_checksum(out) != entry.checksum {
            return Err(EndgameError::Checksum);
        }
        Ok(())
    }

    /// Inflates block `number` into `out` (resized to the block's length, in index order),
    /// checking its checksum and length. An unstored index's byte is meaningless.
    pub(crate) fn read_block(&self, number: usize, out: &mut Vec<u8>) -> Result<(), EndgameError> {
        let entry = *self.blocks.get(number).ok_or(EndgameError::Truncated)?;
        let mut compressed = vec![0; entry.len as usize];
        self.read_compressed(number, &mut compressed)?;
        let expected = self.block_len(number);
        let mut laid = vec![0; expected];
        let inflated = miniz_oxide::inflate::decompress_slice_iter_to_slice(
            &mut laid,
            std::iter::once(compressed.as_slice()),
            false,
            false,
        )
        .map_err(|_| EndgameError::Checksum)?;
        if inflated != expected {
            return Err(EndgameError::Checksum);
        }
        out.clear();
        out.resize(expected, 0);
        unlay(&laid, out);
        Ok(())
    }

    /// Every value byte of the slice, inflated (checks and tests; a probe reads one block); an
    /// unstored index's byte is meaningless.
    pub fn values(&self) -> Result<Vec<u8>, EndgameError> {
        let mut values = Vec::with_capacity(self.index.len() as usize);
        let mut block = Vec::new();
        for number in 0..self.blocks.len() {
            self.read_block(number, &mut block)?;
            values.extend_from_slice(&block);
        }
        Ok(values)
    }
}
