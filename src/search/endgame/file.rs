//! The on-disk format: one file per game and piece count, `<game>-<pieces>.egtb`, holding every
//! slice with exactly that many pieces, block-compressed ([`super::compact`]).
//!
//! Layout (integers little-endian):
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `DAMASEGT` |
//! | 2 | format version ([`VERSION`]) |
//! | 1 | game (0 English, 1 International, 2 Turkish) |
//! | 1 | piece count |
//! | 4 | number of slices |
//! | 4 | indices per block ([`BLOCK_POSITIONS`]) |
//! | 4 | zero (reserved) |
//! | 48 per slice | men of seat 0, men of seat 1, kings of seat 0, kings of seat 1 (1 byte each); indices, positions, wins, draws, losses (8 bytes each); longest distance (4) |
//! | 8 per block | compressed length (4), checksum of the compressed bytes (4); every block of each slice, slices in the order listed |
//! | 8 | FNV-1a 64 checksum of everything before it |
//! | rest | the compressed blocks, in the order listed |
//!
//! Opening reads the header only and checks it against what the game and piece count imply (the
//! slice list, their sizes, the block count, the header's checksum, the file's length); each
//! block is checked against its checksum when it is read. Anything else is refused with a typed
//! error.

use super::compact::{self, BlockEntry, BlockSource, CompactSlice, TableFile, BLOCK_POSITIONS};
use super::error::EndgameError;
use super::games::EndgameGame;
use super::index::{Material, SliceIndex};
use super::slice::Counts;
use crate::position::GameKind;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"DAMASEGT";
/// Version 1 held one byte a position, uncompressed; version 2 compressed blocks of every byte;
/// version 3 stores only the positions without a capture, each block laid out by side to move
/// ([`super::compact`]).
pub const VERSION: u16 = 3;
const HEADER: usize = 24;
const SLICE_ENTRY: usize = 48;
const BLOCK_ENTRY: usize = 8;

/// The file holding `kind`'s slices of `pieces` pieces inside `dir`.
pub fn path(dir: &Path, kind: GameKind, pieces: u32) -> PathBuf {
    dir.join(format!("{}-{pieces}.egtb", kind.as_str()))
}

fn game_code(kind: GameKind) -> u8 {
    match kind {
        GameKind::English => 0,
        GameKind::International => 1,
        GameKind::Turkish => 2,
        GameKind::Diamond => 3,
        GameKind::Capture => 4,
    }
}

/// The header of a file of these slices (all of one piece count, in build order), its checksum
/// included.
fn header(kind: GameKind, pieces: u32, slices: &[&CompactSlice]) -> Vec<u8> {
    let blocks: usize = slices.iter().map(|slice| slice.blocks.len()).sum();
    let mut bytes =
        Vec::with_capacity(HEADER + SLICE_ENTRY * slices.len() + BLOCK_ENTRY * blocks + 8);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(game_code(kind));
    bytes.push(pieces as u8);
    bytes.extend_from_slice(&(slices.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&(BLOCK_POSITIONS as u32).to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    for slice in slices {
        let material = slice.index.material;
        let counts = slice.counts;
        bytes.extend_from_slice(&[
            material.men[0],
            material.men[1],
            material.kings[0],
            material.kings[1],
        ]);
        for number in [
            slice.index.len(),
            counts.positions,
            counts.wins,
            counts.draws,
            counts.losses,
        ] {
            bytes.extend_from_slice(&number.to_le_bytes());
        }
        bytes.extend_from_slice(&counts.longest.to_le_bytes());
    }
    for slice in slices {
        for block in &slice.blocks {
            bytes.extend_from_slice(&block.len.to_le_bytes());
            bytes.extend_from_slice(&block.checksum.to_le_bytes());
        }
    }
    let checksum = compact::fnv1a(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

/// Writes the file's bytes for these slices to `out`.
pub fn encode(
    kind: GameKind,
    pieces: u32,
    slices: &[&CompactSlice],
    out: &mut impl std::io::Write,
) -> Result<(), EndgameError> {
    let io = |source| EndgameError::Io {
        path: PathBuf::new(),
        source,
    };
    out.write_all(&header(kind, pieces, slices)).map_err(io)?;
    for slice in slices {
        slice.write_compressed(out)?;
    }
    Ok(())
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Reads `len` bytes at `at` of `file`, or says the file is truncated.
fn read(file: &TableFile, at: u64, len: usize) -> Result<Vec<u8>, EndgameError> {
    let mut bytes = vec![0; len];
    file.read_at(&mut bytes, at)?;
    Ok(bytes)
}

/// Checks the fixed part of the header against game `G` and `pieces`.
fn check_fixed<G: EndgameGame>(fixed: &[u8], pieces: u32) -> Result<(), EndgameError> {
    if &fixed[..8] != MAGIC {
        return Err(EndgameError::NotATable);
    }
    let version = u16::from_le_bytes([fixed[8], fixed[9]]);
    if version != VERSION {
        return Err(EndgameError::Version(version));
    }
    if fixed[10] != game_code(G::KIND) {
        return Err(EndgameError::WrongGame {
            expected: G::KIND.as_str(),
            found: fixed[10],
        });
    }
    if u32::from(fixed[11]) != pieces {
        return Err(EndgameError::WrongPieces {
            expected: pieces,
            found: u32::from(fixed[11]),
        });
    }
    if u32_at(fixed, 12) as usize != Material::slices(pieces).len()
        || u32_at(fixed, 16) as usize != BLOCK_POSITIONS
        || u32_at(fixed, 20) != 0
    {
        return Err(EndgameError::Slices);
    }
    Ok(())
}

/// One slice entry of the header, checked against the slice it must be.
fn slice_entry(
    entry: &[u8],
    material: Material,
    index: &SliceIndex,
) -> Result<Counts, EndgameError> {
    let found = Material {
        men: [entry[0], entry[1]],
        kings: [entry[2], entry[3]],
    };
    let counts = Counts {
        positions: u64_at(entry, 12),
        wins: u64_at(entry, 20),
        draws: u64_at(entry, 28),
        losses: u64_at(entry, 36),
        longest: u32_at(entry, 44),
    };
    let sum = counts
        .wins
        .checked_add(counts.draws)
        .and_then(|sum| sum.checked_add(counts.losses));
    if found != material
        || u64_at(entry, 4) != index.len()
        || sum != Some(counts.positions)
        || counts.positions > index.len()
    {
        return Err(EndgameError::Slices);
    }
    Ok(counts)
}

/// Opens the file of game `G` with `pieces` pieces in `dir`: reads and checks its header, and
/// returns its slices, whose blocks are read from the file when probed.
pub fn open<G: EndgameGame>(dir: &Path, pieces: u32) -> Result<Vec<CompactSlice>, EndgameError> {
    let path = path(dir, G::KIND, pieces);
    let io = |source| EndgameError::Io {
        path: path.clone(),
        source,
    };
    let handle = std::fs::File::open(&path).map_err(io)?;
    let file_len = handle.metadata().map_err(io)?.len();
    let file = Arc::new(TableFile {
        path: path.clone(),
        file: handle,
    });
    let fixed = read(&file, 0, HEADER)?;
    check_fixed::<G>(&fixed, pieces)?;
    let materials = Material::slices(pieces);
    let entries = read(&file, HEADER as u64, SLICE_ENTRY * materials.len())?;
    let indices: Vec<SliceIndex> = materials
        .iter()
        .map(|material| SliceIndex::new(*material, G::squares()))
        .collect();
    let total_blocks: usize = indices
        .iter()
        .map(|index| compact::block_count(index.len()) as usize)
        .sum();
    let blocks_at = (HEADER + SLICE_ENTRY * materials.len()) as u64;
    let block_bytes = read(&file, blocks_at, BLOCK_ENTRY * total_blocks + 8)?;
    // The checksum first: a damaged header is a checksum error whichever field it hit.
    let checksum_at = BLOCK_ENTRY * total_blocks;
    let checksum = compact::fnv1a_parts(&[&fixed, &entries, &block_bytes[..checksum_at]]);
    if checksum != u64_at(&block_bytes, checksum_at) {
        return Err(EndgameError::Checksum);
    }
    let mut slices = Vec::with_capacity(materials.len());
    for (i, (material, index)) in materials.iter().zip(indices).enumerate() {
        let counts = slice_entry(&entries[SLICE_ENTRY * i..], *material, &index)?;
        slices.push((index, counts));
    }
    let mut start = blocks_at + block_bytes.len() as u64;
    let mut next_block = 0usize;
    let mut opened = Vec::with_capacity(slices.len());
    for (index, counts) in slices {
        let count = compact::block_count(index.len()) as usize;
        let mut blocks = Vec::with_capacity(count);
        let mut offset = 0u64;
        for number in next_block..next_block + count {
            let at = BLOCK_ENTRY * number;
            let len = u32_at(&block_bytes, at);
            if len as usize > compact::MAX_COMPRESSED {
                return Err(EndgameError::Slices);
            }
            blocks.push(BlockEntry {
                offset,
                len,
                checksum: u32_at(&block_bytes, at + 4),
            });
            offset += u64::from(len);
        }
        next_block += count;
        opened.push(CompactSlice {
            index,
            counts,
            blocks,
            source: BlockSource::File {
                file: Arc::clone(&file),
                start,
            },
        });
        start += offset;
    }
    if file_len < start {
        return Err(EndgameError::Truncated);
    }
    if file_len > start {
        return Err(EndgameError::TrailingBytes);
    }
    Ok(opened)
}

/// Reads every block of these slices, checking each (a build deciding whether a file already
/// there can be kept; `damas endgame info --verify`).
pub fn verify(slices: &[CompactSlice]) -> Result<(), EndgameError> {
    let mut block = Vec::new();
    for slice in slices {
        for number in 0..slice.blocks.len() {
            slice.read_block(number, &mut block)?;
        }
    }
    Ok(())
}

/// Writes the file for these slices into `dir` (created if missing), through a temporary file
/// renamed into place so that a reader never sees half a file; returns its size in bytes.
pub fn write(
    dir: &Path,
    kind: GameKind,
    pieces: u32,
    slices: &[&CompactSlice],
) -> Result<u64, EndgameError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EndgameError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let target = path(dir, kind, pieces);
    // One per process: the app and the CLI may write the same file at once.
    let temporary = target.with_extension(format!("egtb.part{}", std::process::id()));
    let file = std::fs::File::create(&temporary).map_err(io(&temporary))?;
    let mut out = std::io::BufWriter::new(file);
    let written = encode(kind, pieces, slices, &mut out)
        .and_then(|()| out.flush().map_err(io(&temporary)))
        .and_then(|()| std::fs::rename(&temporary, &target).map_err(io(&target)));
    if let Err(error) = written {
        // A failed write leaves no part file behind.
        let _ = std::fs::remove_file(&temporary);
        return Err(error);
    }
    std::fs::metadata(&target)
        .map(|meta| meta.len())
        .map_err(io(&target))
}
