//! The on-disk format: one file per game and piece count, `<game>-<pieces>.egtb`, holding every
//! slice with exactly that many pieces.
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
//! | 12 per slice | men of seat 0, men of seat 1, kings of seat 0, kings of seat 1 (1 byte each), entries (8 bytes) |
//! | entries | one value byte per index of each slice, in the order listed |
//! | 8 | FNV-1a 64 checksum of everything before it |
//!
//! Reading checks all of it against what the game and piece count imply (the slice list, their
//! sizes, the total length and the checksum) and refuses anything else with a typed error.

use super::games::EndgameGame;
use super::index::{Material, SliceIndex};
use super::tables::SliceTable;
use super::EndgameError;
use crate::position::GameKind;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"DAMASEGT";
pub const VERSION: u16 = 1;
const HEADER: usize = 16;
const SLICE_ENTRY: usize = 12;

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

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The size of the file of game `G` with `pieces` pieces: header, slice entries, one byte per
/// index, checksum.
pub fn expected_len<G: EndgameGame>(pieces: u32) -> u64 {
    let slices = Material::slices(pieces);
    let data: u64 = slices
        .iter()
        .map(|material| SliceIndex::new(*material, G::squares()).len())
        .sum();
    (HEADER + SLICE_ENTRY * slices.len()) as u64 + data + 8
}

/// The file's bytes for these slices (all of one piece count, in build order).
pub fn encode(kind: GameKind, pieces: u32, slices: &[&SliceTable]) -> Vec<u8> {
    let data: usize = slices.iter().map(|table| table.values.len()).sum();
    let mut bytes = Vec::with_capacity(HEADER + SLICE_ENTRY * slices.len() + data + 8);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(game_code(kind));
    bytes.push(pieces as u8);
    bytes.extend_from_slice(&(slices.len() as u32).to_le_bytes());
    for table in slices {
        let material = table.index.material;
        bytes.extend_from_slice(&[
            material.men[0],
            material.men[1],
            material.kings[0],
            material.kings[1],
        ]);
        bytes.extend_from_slice(&(table.values.len() as u64).to_le_bytes());
    }
    for table in slices {
        bytes.extend_from_slice(&table.values);
    }
    let checksum = fnv1a(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

/// Reads `count` bytes at `at`, or says the file is truncated.
fn take(bytes: &[u8], at: usize, count: usize) -> Result<&[u8], EndgameError> {
    bytes.get(at..at + count).ok_or(EndgameError::Truncated)
}

fn u16_at(bytes: &[u8], at: usize) -> Result<u16, EndgameError> {
    let mut word = [0u8; 2];
    word.copy_from_slice(take(bytes, at, 2)?);
    Ok(u16::from_le_bytes(word))
}

fn u32_at(bytes: &[u8], at: usize) -> Result<u32, EndgameError> {
    let mut word = [0u8; 4];
    word.copy_from_slice(take(bytes, at, 4)?);
    Ok(u32::from_le_bytes(word))
}

fn u64_at(bytes: &[u8], at: usize) -> Result<u64, EndgameError> {
    let mut word = [0u8; 8];
    word.copy_from_slice(take(bytes, at, 8)?);
    Ok(u64::from_le_bytes(word))
}

/// The slices a file's bytes hold, checked against game `G` and `pieces`.
pub fn decode<G: EndgameGame>(bytes: &[u8], pieces: u32) -> Result<Vec<SliceTable>, EndgameError> {
    if take(bytes, 0, MAGIC.len())? != MAGIC {
        return Err(EndgameError::NotATable);
    }
    let version = u16_at(bytes, 8)?;
    if version != VERSION {
        return Err(EndgameError::Version(version));
    }
    let game = take(bytes, 10, 1)?[0];
    if game != game_code(G::KIND) {
        return Err(EndgameError::WrongGame {
            expected: G::KIND.as_str(),
            found: game,
        });
    }
    let found_pieces = take(bytes, 11, 1)?[0];
    if u32::from(found_pieces) != pieces {
        return Err(EndgameError::WrongPieces {
            expected: pieces,
            found: u32::from(found_pieces),
        });
    }
    let expected = Material::slices(pieces);
    let count = u32_at(bytes, 12)? as usize;
    if count != expected.len() {
        return Err(EndgameError::Slices);
    }
    let mut indices = Vec::with_capacity(count);
    for (i, material) in expected.iter().enumerate() {
        let at = HEADER + SLICE_ENTRY * i;
        let entry = take(bytes, at, 4)?;
        let found = Material {
            men: [entry[0], entry[1]],
            kings: [entry[2], entry[3]],
        };
        let index = SliceIndex::new(*material, G::squares());
        if found != *material || u64_at(bytes, at + 4)? != index.len() {
            return Err(EndgameError::Slices);
        }
        indices.push(index);
    }
    let data_start = HEADER + SLICE_ENTRY * count;
    let data: u64 = indices.iter().map(SliceIndex::len).sum();
    let data = usize::try_from(data).map_err(|_| EndgameError::Truncated)?;
    let end = data_start + data;
    if bytes.len() < end + 8 {
        return Err(EndgameError::Truncated);
    }
    if bytes.len() > end + 8 {
        return Err(EndgameError::TrailingBytes);
    }
    if fnv1a(&bytes[..end]) != u64_at(bytes, end)? {
        return Err(EndgameError::Checksum);
    }
    let mut at = data_start;
    let mut tables = Vec::with_capacity(count);
    for index in indices {
        let len = index.len() as usize;
        tables.push(SliceTable {
            values: bytes[at..at + len].to_vec(),
            index,
        });
        at += len;
    }
    Ok(tables)
}

/// Writes the file for these slices into `dir` (created if missing), through a temporary file
/// renamed into place so that a reader never sees half a file; returns its size in bytes.
pub fn write(
    dir: &Path,
    kind: GameKind,
    pieces: u32,
    slices: &[&SliceTable],
) -> Result<u64, EndgameError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EndgameError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let target = path(dir, kind, pieces);
    // One per process: the app and the CLI may write the same file at once.
    let temporary = target.with_extension(format!("egtb.part{}", std::process::id()));
    let bytes = encode(kind, pieces, slices);
    std::fs::write(&temporary, &bytes).map_err(io(&temporary))?;
    std::fs::rename(&temporary, &target).map_err(io(&target))?;
    Ok(bytes.len() as u64)
}

/// Reads and checks the file of game `G` with `pieces` pieces in `dir`.
pub fn read<G: EndgameGame>(dir: &Path, pieces: u32) -> Result<Vec<SliceTable>, EndgameError> {
    let path = path(dir, G::KIND, pieces);
    let bytes = std::fs::read(&path).map_err(|source| EndgameError::Io {
        path: path.clone(),
        source,
    })?;
    decode::<G>(&bytes, pieces)
}
