//! The opening book's file format. Rule: a file is accepted whole or refused with a
//! [`BookError`]; a refused file costs the player its book, never a panic.
//!
//! Layout (integers little-endian):
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `DAMASBOK` |
//! | 2 | format version ([`VERSION`]) |
//! | 1 | game (0 English, 1 International, 2 Turkish) |
//! | 1 | plies from the start the book covers |
//! | 2 | depth of the searches that made it (0: timed searches) |
//! | 2 | zero (reserved) |
//! | 4 | entry count |
//! | 4 | length of the move texts |
//! | 16 per entry | position key (8), offset of its move's text (4), the text's length (2), the search's score clamped to `i16` (2); keys strictly increasing |
//! | the length above | the moves' texts (notation, ASCII) |
//! | 8 | FNV-1a 64 checksum of everything before it |
//!
//! A position's key is its Zobrist hash ([`crate::position::Position::zobrist`]): board and side
//! to move, from keys built at compile time from fixed seeds, so the same on every run and
//! platform. Sorted keys make a lookup a binary search over the entries in place.

use crate::position::GameKind;
use thiserror::Error;

const MAGIC: &[u8; 8] = b"DAMASBOK";
/// The version this build writes and reads.
pub const VERSION: u16 = 1;
const HEADER: usize = 24;
const ENTRY: usize = 16;
const CHECKSUM: usize = 8;
/// Longest move text stored (an International capture of many pieces stays well below).
const MAX_TEXT: usize = 200;

/// Why a book file was refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BookError {
    #[error("no opening book for this game")]
    Absent,
    #[error("the opening book is shorter than its header")]
    TooShort,
    #[error("not an opening book (bad magic)")]
    Magic,
    #[error("opening book format version {0}, this build reads {VERSION}")]
    Version(u16),
    #[error("unknown game code {0} in the opening book")]
    UnknownGame(u8),
    #[error("the opening book is for {found}, not {expected}")]
    Game {
        found: &'static str,
        expected: &'static str,
    },
    #[error("the opening book's length does not match its entry count")]
    Length,
    #[error("the opening book's checksum does not match")]
    Checksum,
    #[error("the opening book's keys are not strictly increasing at entry {0}")]
    Unsorted(usize),
    #[error("entry {0} of the opening book has a move text out of bounds or not ASCII")]
    MoveText(usize),
    #[error("the opening book has no room for {0} entries")]
    TooMany(usize),
}

/// One position of a book: its key, the move played there in the game's notation, and the
/// score the search gave it (from the mover's side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub key: u64,
    pub text: String,
    pub score: i32,
}

/// A validated book, read in place: lookups binary-search its entries.
#[derive(Clone, Debug)]
pub struct Book {
    bytes: std::borrow::Cow<'static, [u8]>,
    kind: GameKind,
    plies: u8,
    depth: u16,
    count: usize,
}

fn game_code(kind: GameKind) -> Option<u8> {
    match kind {
        GameKind::English => Some(0),
        GameKind::International => Some(1),
        GameKind::Turkish => Some(2),
        GameKind::Diamond | GameKind::Capture => None,
    }
}

fn game_of(code: u8) -> Option<GameKind> {
    match code {
        0 => Some(GameKind::English),
        1 => Some(GameKind::International),
        2 => Some(GameKind::Turkish),
        _ => None,
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// The file of a book of `kind` covering `plies` plies, made by searches to `depth` (0: timed):
/// `entries` in any order, one per key.
pub fn encode(
    kind: GameKind,
    plies: u8,
    depth: u16,
    entries: &[BookEntry],
) -> Result<Vec<u8>, BookError> {
    let code = game_code(kind).ok_or(BookError::Game {
        found: kind.as_str(),
        expected: "a draughts game",
    })?;
    let mut sorted: Vec<&BookEntry> = entries.iter().collect();
    sorted.sort_by_key(|entry| entry.key);
    if let Some(index) = sorted
        .windows(2)
        .position(|pair| pair[0].key == pair[1].key)
    {
        return Err(BookError::Unsorted(index + 1));
    }
    let count = u32::try_from(sorted.len()).map_err(|_| BookError::TooMany(sorted.len()))?;
    let mut texts = Vec::new();
    let mut table = Vec::with_capacity(sorted.len() * ENTRY);
    for (index, entry) in sorted.iter().enumerate() {
        if entry.text.is_empty() || entry.text.len() > MAX_TEXT || !entry.text.is_ascii() {
            return Err(BookError::MoveText(index));
        }
        let offset = u32::try_from(texts.len()).map_err(|_| BookError::TooMany(sorted.len()))?;
        table.extend_from_slice(&entry.key.to_le_bytes());
        table.extend_from_slice(&offset.to_le_bytes());
        table.extend_from_slice(&(entry.text.len() as u16).to_le_bytes());
        let score = entry.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        table.extend_from_slice(&score.to_le_bytes());
        texts.extend_from_slice(entry.text.as_bytes());
    }
    let texts_len = u32::try_from(texts.len()).map_err(|_| BookError::TooMany(sorted.len()))?;
    let mut bytes = Vec::with_capacity(HEADER + table.len() + texts.len() + CHECKSUM);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(code);
    bytes.push(plies);
    bytes.extend_from_slice(&depth.to_le_bytes());
    bytes.extend_from_slice(&0u16.to_le_bytes());
    bytes.extend_from_slice(&count.to_le_bytes());
    bytes.extend_from_slice(&texts_len.to_le_bytes());
    bytes.extend_from_slice(&table);
    bytes.extend_from_slice(&texts);
    let checksum = fnv1a(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    Ok(bytes)
}

impl Book {
    /// Reads and checks a whole book file of `kind`: header, length, checksum, sorted keys and
    /// every move text's bounds. Moves are checked against their positions when looked up.
    pub fn decode(
        bytes: impl Into<std::borrow::Cow<'static, [u8]>>,
        kind: GameKind,
    ) -> Result<Book, BookError> {
        let bytes = bytes.into();
        if bytes.len() < HEADER + CHECKSUM {
            return Err(BookError::TooShort);
        }
        if &bytes[..8] != MAGIC {
            return Err(BookError::Magic);
        }
        let version = u16_at(&bytes, 8);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let found = game_of(bytes[10]).ok_or(BookError::UnknownGame(bytes[10]))?;
        if found != kind {
            return Err(BookError::Game {
                found: found.as_str(),
                expected: kind.as_str(),
            });
        }
        let plies = bytes[11];
        let depth = u16_at(&bytes, 12);
        let count = u32_at(&bytes, 16) as usize;
        let texts_len = u32_at(&bytes, 20) as usize;
        let expected = count
            .checked_mul(ENTRY)
            .and_then(|table| table.checked_add(HEADER + CHECKSUM))
            .and_then(|len| len.checked_add(texts_len));
        if expected != Some(bytes.len()) {
            return Err(BookError::Length);
        }
        let body = bytes.len() - CHECKSUM;
        if fnv1a(&bytes[..body]) != u64_at(&bytes, body) {
            return Err(BookError::Checksum);
        }
        let book = Book {
            bytes,
            kind,
            plies,
            depth,
            count,
        };
        for index in 0..count {
            if index > 0 && book.key(index - 1) >= book.key(index) {
                return Err(BookError::Unsorted(index));
            }
            if book.text(index).is_none() {
                return Err(BookError::MoveText(index));
            }
        }
        Ok(book)
    }

    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Plies from the start the book was made for.
    pub fn plies(&self) -> u32 {
        u32::from(self.plies)
    }

    /// Depth of the searches that made it; 0 when they were timed.
    pub fn depth(&self) -> u32 {
        u32::from(self.depth)
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn entry_at(&self, index: usize) -> usize {
        HEADER + index * ENTRY
    }

    fn key(&self, index: usize) -> u64 {
        u64_at(&self.bytes, self.entry_at(index))
    }

    /// Entry `index`'s move text, `None` when out of the texts' bounds or not ASCII.
    fn text(&self, index: usize) -> Option<&str> {
        let at = self.entry_at(index);
        let start = HEADER + self.count * ENTRY + u32_at(&self.bytes, at + 8) as usize;
        let end = start.checked_add(usize::from(u16_at(&self.bytes, at + 12)))?;
        let texts_end = self.bytes.len() - CHECKSUM;
        if start >= end || end > texts_end {
            return None;
        }
        let text = std::str::from_utf8(&self.bytes[start..end]).ok()?;
        text.is_ascii().then_some(text)
    }

    fn score(&self, index: usize) -> i32 {
        let at = self.entry_at(index) + 14;
        i32::from(i16::from_le_bytes([self.bytes[at], self.bytes[at + 1]]))
    }

    /// The move text stored for the position of `key`.
    pub fn lookup(&self, key: u64) -> Option<&str> {
        let index = self.find(key)?;
        self.text(index)
    }

    /// The move text and the search's score (from the mover's side) stored for `key`.
    pub fn lookup_scored(&self, key: u64) -> Option<(&str, i32)> {
        let index = self.find(key)?;
        Some((self.text(index)?, self.score(index)))
    }

    fn find(&self, key: u64) -> Option<usize> {
        let (mut low, mut high) = (0, self.count);
        while low < high {
            let middle = low + (high - low) / 2;
            match self.key(middle).cmp(&key) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// Every entry, in key order.
    pub fn entries(&self) -> impl Iterator<Item = BookEntry> + '_ {
        (0..self.count).map(|index| BookEntry {
            key: self.key(index),
            text: self.text(index).unwrap_or_default().to_string(),
            score: self.score(index),
        })
    }
}
