//! Zobrist hashing of Turkish positions: one random key per (piece kind, square) and one for
//! Black to move, built at compile time with splitmix64 so hashes are stable across runs (save
//! files and repetition checks may compare them).

use super::squares::{self, Bitboard};
use crate::position::Seat;

/// Zobrist keys: one per (piece kind, square), built at compile time with splitmix64.
const KEYS: [[u64; 64]; 4] = {
    let mut table = [[0u64; 64]; 4];
    let mut state: u64 = 0x7475_726b_6973_6821; // "turkish!"
    let mut kind = 0;
    while kind < 4 {
        let mut sq = 0;
        while sq < 64 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            table[kind][sq] = z ^ (z >> 31);
            sq += 1;
        }
        kind += 1;
    }
    table
};
const BLACK_TO_MOVE: u64 = 0x5bd1_e995_7d3c_a1f1;

/// The hash of a board and side to move (no counters).
pub fn hash(white: Bitboard, black: Bitboard, kings: Bitboard, to_move: Seat) -> u64 {
    let mut hash = if to_move == 1 { BLACK_TO_MOVE } else { 0 };
    for (kind, set) in [white & !kings, white & kings, black & !kings, black & kings]
        .into_iter()
        .enumerate()
    {
        for sq in squares::squares(set) {
            hash ^= KEYS[kind][usize::from(sq)];
        }
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_to_move_kind_and_square_all_change_the_hash() {
        let base = hash(1 << 8, 1 << 48, 0, 0);
        assert_ne!(base, hash(1 << 8, 1 << 48, 0, 1));
        assert_ne!(base, hash(1 << 8, 1 << 48, 1 << 8, 0));
        assert_ne!(base, hash(1 << 9, 1 << 48, 0, 0));
        assert_ne!(base, hash(1 << 48, 1 << 8, 0, 0));
    }

    #[test]
    fn keys_are_distinct() {
        let mut keys: Vec<u64> = KEYS.iter().flatten().copied().collect();
        keys.push(BLACK_TO_MOVE);
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 4 * 64 + 1);
    }
}
