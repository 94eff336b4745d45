//! A learned pattern evaluation for English checkers: one weight per content of each local
//! window of squares, fitted by the lab (`damas-lab train-eval`, docs/cpu.md "Learned pattern
//! evaluation") to the results of the engine's own games, on top of the tuned hand-written
//! evaluation (material, advancement, back rank...).
//!
//! The windows are the 8 rows (4 squares each) and the 18 crosses centred on a square off the
//! edges (the square and its 4 diagonal neighbours), seen from one side: each square is empty,
//! holds a piece of that side or one of the other (kings count as pieces: material already
//! prices them). A view from seat 1 is the board turned half a turn, so each side reads the
//! board from its own back row and the same weights serve both. The value for a seat is its
//! view's sum minus the other view's, so a position and its colour-flipped mirror score
//! opposite by construction.
//!
//! The weights live in a small binary file ([`PatternWeights::to_bytes`]): magic, version, game,
//! layout, count, the weights as little-endian `i16` in hundredths of a man, and an FNV-1a 64
//! checksum of everything before it. A damaged file is refused with a [`PatternError`].

use thiserror::Error;

/// Rows and crosses on an 8×8 board.
pub const ROW_PATTERNS: usize = 8;
pub const CROSS_PATTERNS: usize = 18;
pub const PATTERNS: usize = ROW_PATTERNS + CROSS_PATTERNS;
const ROW_SQUARES: usize = 4;
const CROSS_SQUARES: usize = 5;
/// 3^4 contents of a row, 3^5 of a cross.
const ROW_CONFIGS: usize = 81;
const CROSS_CONFIGS: usize = 243;
/// Weights in a file of this layout.
pub const WEIGHT_COUNT: usize = ROW_PATTERNS * ROW_CONFIGS + CROSS_PATTERNS * CROSS_CONFIGS;

const MAGIC: &[u8; 8] = b"DAMASPAT";
const VERSION: u16 = 1;
/// The game byte of English checkers (the only game with patterns so far).
pub const GAME_ENGLISH: u8 = 1;
/// The layout byte of rows and crosses on 8×8.
const LAYOUT_ROWS_CROSSES_8: u8 = 1;
const HEADER: usize = 8 + 2 + 1 + 1 + 4;
const CHECKSUM: usize = 8;

/// Why a weights file was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PatternError {
    #[error("the pattern weights file is shorter than its header")]
    TooShort,
    #[error("not a pattern weights file (bad magic)")]
    Magic,
    #[error("pattern weights format version {0}, this build reads {VERSION}")]
    Version(u16),
    #[error("the pattern weights are for game {found}, not {expected}")]
    Game { found: u8, expected: u8 },
    #[error("unknown pattern layout {0}")]
    Layout(u8),
    #[error("the file holds {found} weights, the layout has {expected}")]
    Count { found: u32, expected: usize },
    #[error("the pattern weights file is truncated")]
    Truncated,
    #[error("the pattern weights file has bytes after its checksum")]
    TrailingBytes,
    #[error("the pattern weights file's checksum does not match")]
    Checksum,
}

/// Which bit holds each square of each window, in each side's view.
#[derive(Clone, Debug)]
pub struct PatternLayout {
    /// `bits[view][pattern]`: the squares of the window, as board bits (crosses use 5, rows 4).
    bits: [[[u8; CROSS_SQUARES]; PATTERNS]; 2],
    /// The quick reading where the board's bits allow it (English's layout: a row is 4
    /// consecutive bits, a cross the bits c − 5, c − 4, c, c + 4, c + 5), else `None`.
    gathered: Option<Box<Gathered>>,
}

/// The quick reading of every window: its lowest bit, and for each set of the window's squares
/// (as consecutive bits: a row's 4, a cross's 5 compressed) the sum of 3^k over the squares'
/// places k in the window's content. The content is then `ternary[own] + 2 · ternary[enemy]`.
#[derive(Clone, Debug)]
struct Gathered {
    base: [[u8; PATTERNS]; 2],
    ternary: [[[u16; 32]; PATTERNS]; 2],
}

/// Offsets of a cross's bits from its lowest (c − 5): c − 5, c − 4, c, c + 4, c + 5.
const CROSS_OFFSETS: [u32; CROSS_SQUARES] = [0, 1, 5, 9, 10];

/// The 5 bits of a cross at offsets [`CROSS_OFFSETS`] of `bits`, packed into bits 0–4.
#[inline(always)]
fn compress_cross(bits: u64) -> usize {
    ((bits & 3) | ((bits >> 3) & 4) | ((bits >> 6) & 0x18)) as usize
}

impl PatternLayout {
    /// Builds the windows from each used bit's (row, file), row 0 being seat 0's back row and
    /// file 0 its left. Every dark square of an 8×8 board must be given.
    pub fn build(cell: impl Fn(u32) -> Option<(u32, u32)>) -> PatternLayout {
        let mut at = [[None::<u8>; 8]; 8];
        for bit in 0..64u32 {
            if let Some((row, file)) = cell(bit) {
                at[row as usize][file as usize] = Some(bit as u8);
            }
        }
        let mut bits = [[[0u8; CROSS_SQUARES]; PATTERNS]; 2];
        for (view, patterns) in bits.iter_mut().enumerate() {
            // Seat 1 reads the board turned half a turn.
            let square = |row: usize, file: usize| {
                let (row, file) = if view == 0 {
                    (row, file)
                } else {
                    (7 - row, 7 - file)
                };
                at[row][file].unwrap_or(0)
            };
            for (row, pattern) in patterns.iter_mut().take(ROW_PATTERNS).enumerate() {
                let files = (0..8).filter(|file| (row + file) % 2 == dark_parity(&at));
                for (k, file) in files.enumerate() {
                    pattern[k] = square(row, file);
                }
            }
            let centres = (1..7)
                .flat_map(|row| (1..7).map(move |file| (row, file)))
                .filter(|(row, file)| (row + file) % 2 == dark_parity(&at));
            for (index, (row, file)) in centres.enumerate() {
                patterns[ROW_PATTERNS + index] = [
                    square(row, file),
                    square(row - 1, file - 1),
                    square(row - 1, file + 1),
                    square(row + 1, file - 1),
                    square(row + 1, file + 1),
                ];
            }
        }
        let gathered = Gathered::build(&bits);
        PatternLayout { bits, gathered }
    }

    /// The weight index of every window as `view` sees the board (`own`: its pieces, `enemy`:
    /// the other side's).
    pub fn indices(&self, view: usize, own: u64, enemy: u64) -> [u16; PATTERNS] {
        match &self.gathered {
            Some(gathered) => gathered.indices(view, own, enemy),
            None => self.indices_by_square(view, own, enemy),
        }
    }

    /// [`PatternLayout::indices`] one square at a time (any layout; the reference the quick
    /// reading is tested against).
    pub fn indices_by_square(&self, view: usize, own: u64, enemy: u64) -> [u16; PATTERNS] {
        let state = |bit: u8| ((own >> bit) & 1) as usize + 2 * ((enemy >> bit) & 1) as usize;
        let mut out = [0u16; PATTERNS];
        let patterns = &self.bits[view & 1];
        for (index, squares) in patterns.iter().enumerate() {
            let (count, offset) = if index < ROW_PATTERNS {
                (ROW_SQUARES, index * ROW_CONFIGS)
            } else {
                (
                    CROSS_SQUARES,
                    ROW_PATTERNS * ROW_CONFIGS + (index - ROW_PATTERNS) * CROSS_CONFIGS,
                )
            };
            let mut config = 0;
            for &bit in squares[..count].iter().rev() {
                config = config * 3 + state(bit);
            }
            out[index] = (offset + config) as u16;
        }
        out
    }
}

impl Gathered {
    /// The quick reading of `bits`' windows, if every window's bits lie as English's do.
    fn build(bits: &[[[u8; CROSS_SQUARES]; PATTERNS]; 2]) -> Option<Box<Gathered>> {
        let mut gathered = Box::new(Gathered {
            base: [[0; PATTERNS]; 2],
            ternary: [[[0; 32]; PATTERNS]; 2],
        });
        for (view, windows) in bits.iter().enumerate() {
            for (pattern, window) in windows.iter().enumerate() {
                let squares: &[u8] = if pattern < ROW_PATTERNS {
                    &window[..ROW_SQUARES]
                } else {
                    &window[..]
                };
                let base = *squares.iter().min()?;
                let offsets: Vec<u32> = if pattern < ROW_PATTERNS {
                    (0..ROW_SQUARES as u32).collect()
                } else {
                    CROSS_OFFSETS.to_vec()
                };
                // The place in the packed bits of each square of the window, in content order.
                let mut place = Vec::with_capacity(squares.len());
                for &bit in squares {
                    let offset = u32::from(bit) - u32::from(base);
                    place.push(offsets.iter().position(|&o| o == offset)?);
                }
                let mut sorted = place.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != squares.len() {
                    return None;
                }
                gathered.base[view][pattern] = base;
                for packed in 0..(1usize << squares.len()) {
                    let mut value = 0u16;
                    let mut power = 1u16;
                    for &at in &place {
                        if packed >> at & 1 == 1 {
                            value += power;
                        }
                        power *= 3;
                    }
                    gathered.ternary[view][pattern][packed] = value;
                }
            }
        }
        Some(gathered)
    }

    #[inline]
    fn indices(&self, view: usize, own: u64, enemy: u64) -> [u16; PATTERNS] {
        let view = view & 1;
        let (base, ternary) = (&self.base[view], &self.ternary[view]);
        let mut out = [0u16; PATTERNS];
        for pattern in 0..ROW_PATTERNS {
            let shift = base[pattern];
            let table = &ternary[pattern];
            let config = table[((own >> shift) & 0xF) as usize]
                + 2 * table[((enemy >> shift) & 0xF) as usize];
            out[pattern] = (pattern * ROW_CONFIGS) as u16 + config;
        }
        for pattern in ROW_PATTERNS..PATTERNS {
            let shift = base[pattern];
            let table = &ternary[pattern];
            let config =
                table[compress_cross(own >> shift)] + 2 * table[compress_cross(enemy >> shift)];
            out[pattern] = (ROW_PATTERNS * ROW_CONFIGS + (pattern - ROW_PATTERNS) * CROSS_CONFIGS)
                as u16
                + config;
        }
        out
    }
}

/// The parity of (row + file) of the squares in use (the dark squares).
fn dark_parity(at: &[[Option<u8>; 8]; 8]) -> usize {
    if at[0][0].is_some() {
        0
    } else {
        1
    }
}

/// The fitted weights, one per window content, in hundredths of a man.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    pub game: u8,
    pub weights: Vec<i16>,
}

impl PatternWeights {
    /// All weights 0 (the evaluation they add to, unchanged).
    pub fn zero(game: u8) -> PatternWeights {
        PatternWeights {
            game,
            weights: vec![0; WEIGHT_COUNT],
        }
    }

    /// The sum of the weights of `indices`.
    pub fn sum(&self, indices: &[u16; PATTERNS]) -> i32 {
        indices
            .iter()
            .map(|&index| i32::from(self.weights.get(usize::from(index)).copied().unwrap_or(0)))
            .sum()
    }

    /// The patterns' value for `seat` (0 or 1) of a board whose sides hold `pieces`.
    pub fn value(&self, layout: &PatternLayout, pieces: [u64; 2], seat: usize) -> i32 {
        let me = seat & 1;
        let own = self.sum(&layout.indices(me, pieces[me], pieces[1 - me]));
        let other = self.sum(&layout.indices(1 - me, pieces[1 - me], pieces[me]));
        own - other
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER + 2 * self.weights.len() + CHECKSUM);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.push(self.game);
        bytes.push(LAYOUT_ROWS_CROSSES_8);
        bytes.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        for weight in &self.weights {
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a file of [`PatternWeights::to_bytes`] for game `game`; anything else is refused.
    pub fn from_bytes(bytes: &[u8], game: u8) -> Result<PatternWeights, PatternError> {
        if bytes.len() < HEADER {
            return Err(PatternError::TooShort);
        }
        if &bytes[..8] != MAGIC {
            return Err(PatternError::Magic);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(PatternError::Version(version));
        }
        if bytes[10] != game {
            return Err(PatternError::Game {
                found: bytes[10],
                expected: game,
            });
        }
        if bytes[11] != LAYOUT_ROWS_CROSSES_8 {
            return Err(PatternError::Layout(bytes[11]));
        }
        let count = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
        if count as usize != WEIGHT_COUNT {
            return Err(PatternError::Count {
                found: count,
                expected: WEIGHT_COUNT,
            });
        }
        let end = HEADER + 2 * WEIGHT_COUNT;
        if bytes.len() < end + CHECKSUM {
            return Err(PatternError::Truncated);
        }
        if bytes.len() > end + CHECKSUM {
            return Err(PatternError::TrailingBytes);
        }
        let mut stored = [0u8; CHECKSUM];
        stored.copy_from_slice(&bytes[end..]);
        if u64::from_le_bytes(stored) != fnv1a(&bytes[..end]) {
            return Err(PatternError::Checksum);
        }
        let weights = bytes[HEADER..end]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        Ok(PatternWeights { game, weights })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain 8×8 board whose bits are row * 8 + file, dark squares where row + file is even.
    fn layout() -> PatternLayout {
        PatternLayout::build(|bit| {
            let (row, file) = (bit / 8, bit % 8);
            ((row + file) % 2 == 0).then_some((row, file))
        })
    }

    fn bit(row: u32, file: u32) -> u64 {
        1 << (row * 8 + file)
    }

    #[test]
    fn rows_and_crosses_read_the_squares_by_hand() {
        let layout = layout();
        // Seat 0: a piece on a1 (row 0, file 0) and on c3 (row 2, file 2); seat 1 on d4.
        let own = bit(0, 0) | bit(2, 2);
        let enemy = bit(3, 3);
        let seen = layout.indices(0, own, enemy);
        // Row 0's first square (a1) is own: content 1.
        assert_eq!(seen[0], 1);
        // Row 1 is empty.
        assert_eq!(seen[1], ROW_CONFIGS as u16);
        // Row 2: squares a3, c3, e3, g3: c3 own → 1·3.
        assert_eq!(seen[2], (2 * ROW_CONFIGS + 3) as u16);
        // Row 3: b4, d4, f4, h4: d4 enemy → 2·3.
        assert_eq!(seen[3], (3 * ROW_CONFIGS + 6) as u16);
        // The first cross is centred on b2 (row 1, file 1): b2, a1, c1, a3, c3 → a1 own (1·3),
        // c3 own (1·81).
        let base = ROW_PATTERNS * ROW_CONFIGS;
        assert_eq!(seen[ROW_PATTERNS], (base + 3 + 81) as u16);
        // Seat 1 sees the board turned: its own d4 is its e5 (row 4, file 4), row 4 for it.
        let turned = layout.indices(1, enemy, own);
        // Row 4 for seat 1 is a5, c5, e5, g5 turned: e5 third, its own piece → 1·9.
        assert_eq!(turned[4], (4 * ROW_CONFIGS + 9) as u16);
        // Seat 0's a1 and c3 are seat 1's h8 and f6: enemy pieces on its rows 7 and 5.
        assert_eq!(turned[7], (7 * ROW_CONFIGS + 2 * 27) as u16);
        assert_eq!(turned[5], (5 * ROW_CONFIGS + 2 * 9) as u16);
    }

    #[test]
    fn a_position_and_its_colour_flipped_mirror_score_opposite() {
        let layout = layout();
        let mut weights = PatternWeights::zero(GAME_ENGLISH);
        for (index, weight) in weights.weights.iter_mut().enumerate() {
            *weight = ((index * 7919) % 61) as i16 - 30;
        }
        // Turn a board half a turn and swap the colours.
        let turn = |set: u64| {
            (0..64)
                .filter(|b| set >> b & 1 == 1)
                .fold(0u64, |acc, b| acc | 1 << (63 - b))
        };
        let rows = |range: std::ops::Range<u32>| {
            range
                .flat_map(|row| (0..8).map(move |file| (row, file)))
                .filter(|(row, file)| (row + file) % 2 == 0)
                .fold(0u64, |acc, (row, file)| acc | bit(row, file))
        };
        let positions = [
            [bit(0, 0) | bit(2, 2) | bit(1, 1), bit(5, 5) | bit(7, 7)],
            [rows(0..3), rows(5..8) & !bit(5, 1) | bit(4, 2)],
            [rows(1..2) | bit(3, 3), rows(4..7)],
        ];
        for pieces in positions {
            let flipped = [turn(pieces[1]), turn(pieces[0])];
            let value = weights.value(&layout, pieces, 0);
            assert_ne!(value, 0, "the test weights must see something");
            assert_eq!(value, -weights.value(&layout, pieces, 1));
            assert_eq!(value, -weights.value(&layout, flipped, 0));
            assert_eq!(value, weights.value(&layout, flipped, 1));
        }
    }

    #[test]
    fn weights_round_trip_and_a_damaged_file_is_refused() {
        let mut weights = PatternWeights::zero(GAME_ENGLISH);
        weights.weights[0] = -7;
        weights.weights[WEIGHT_COUNT - 1] = 300;
        let bytes = weights.to_bytes();
        assert_eq!(
            PatternWeights::from_bytes(&bytes, GAME_ENGLISH),
            Ok(weights)
        );
        let refused = |bytes: &[u8]| PatternWeights::from_bytes(bytes, GAME_ENGLISH).err();
        assert_eq!(refused(&bytes[..5]), Some(PatternError::TooShort));
        assert_eq!(
            refused(&bytes[..bytes.len() - 1]),
            Some(PatternError::Truncated)
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(refused(&longer), Some(PatternError::TrailingBytes));
        let mut flipped = bytes.clone();
        flipped[HEADER + 3] ^= 0x10;
        assert_eq!(refused(&flipped), Some(PatternError::Checksum));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(refused(&magic), Some(PatternError::Magic));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(refused(&version), Some(PatternError::Version(9)));
        assert_eq!(
            PatternWeights::from_bytes(&bytes, 2).err(),
            Some(PatternError::Game {
                found: 1,
                expected: 2
            })
        );
        let mut layout = bytes.clone();
        layout[11] = 4;
        assert_eq!(refused(&layout), Some(PatternError::Layout(4)));
        let mut count = bytes;
        count[12] = 1;
        assert!(matches!(refused(&count), Some(PatternError::Count { .. })));
        // Any prefix of a good file is refused, never a panic.
        let good = PatternWeights::zero(GAME_ENGLISH).to_bytes();
        for len in 0..good.len() {
            assert!(PatternWeights::from_bytes(&good[..len], GAME_ENGLISH).is_err());
        }
    }
}
