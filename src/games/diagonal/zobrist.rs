//! Zobrist keys for draughts boards: one random word per (seat, man or king, bit), plus one for
//! the side to move. Built at compile time from a fixed seed, so hashes are stable across runs.

use crate::position::Seat;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// `KEYS[seat * 2 + king][bit]`, then the side key.
static KEYS: ([[u64; 64]; 4], u64) = {
    let mut keys = [[0u64; 64]; 4];
    let mut state = 0x0DA3_A5D8_AF75_0001u64;
    let mut table = 0;
    while table < 4 {
        let mut bit = 0;
        while bit < 64 {
            let (next, value) = splitmix64(state);
            state = next;
            keys[table][bit] = value;
            bit += 1;
        }
        table += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
};

#[inline(always)]
pub fn key(seat: Seat, king: bool, bit: u32) -> u64 {
    KEYS.0[usize::from(seat) * 2 + usize::from(king)][bit as usize & 63]
}

/// Toggled on every move: set when seat 1 is to move.
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.1
}

pub fn full_hash(pieces: &[u64; 2], kings: u64, to_move: Seat) -> u64 {
    let mut hash = if to_move == 1 { side_key() } else { 0 };
    for seat in 0..2u8 {
        let mut bits = pieces[usize::from(seat)];
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            hash ^= key(seat, kings & (1 << bit) != 0, bit);
        }
    }
    hash
}
