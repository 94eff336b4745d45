//! A slice stored compactly: its value bytes cut into fixed blocks of [`BLOCK_POSITIONS`]
//! indices, each block deflated on its own, so that one position is read by inflating one block.
//!
//! The blocks live in memory (a slice just built, before its file is written) or in a file read
//! by slice on demand ([`BlockSource::File`]): opening a file reads its header and block list
//! only, and a probe reads one block. Each block carries a checksum of its compressed bytes,
//! checked when it is read, so a damaged block is an [`EndgameError::Checksum`], never a wrong
//! value or a panic.

use super::error::EndgameError;
use super::index::SliceIndex;
use super::slice::{Counts, SliceTable};
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

impl CompactSlice {
    /// Compresses a solved slice in memory.
    pub fn compress(table: &SliceTable) -> CompactSlice {
        let mut data = Vec::new();
        let mut blocks = Vec::with_capacity(table.values.len().div_ceil(BLOCK_POSITIONS));
        for chunk in table.values.chunks(BLOCK_POSITIONS) {
            let compressed = miniz_oxide::deflate::compress_to_vec(chunk, LEVEL);
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

    /// Inflates block `number` into `out` (resized to the block's length), checking its
    /// checksum and length.
    pub(crate) fn read_block(&self, number: usize, out: &mut Vec<u8>) -> Result<(), EndgameError> {
        let entry = *self.blocks.get(number).ok_or(EndgameError::Truncated)?;
        let mut compressed = vec![0; entry.len as usize];
        self.read_compressed(number, &mut compressed)?;
        let expected = self.block_len(number);
        out.clear();
        out.resize(expected, 0);
        let inflated = miniz_oxide::inflate::decompress_slice_iter_to_slice(
            out,
            std::iter::once(compressed.as_slice()),
            false,
            false,
        )
        .map_err(|_| EndgameError::Checksum)?;
        if inflated != expected {
            return Err(EndgameError::Checksum);
        }
        Ok(())
    }

    /// Every value byte of the slice, inflated (checks and tests; a probe reads one block).
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
