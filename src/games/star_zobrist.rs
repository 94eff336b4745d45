//! Zobrist keys for the star games: fixed pseudo-random words, built at compile time.

/// SplitMix64: a fixed, well-mixed sequence, so hashes are stable across runs and builds.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut i = 0;
    while i < N {
        keys[i] = splitmix(seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        i += 1;
    }
    keys
}

/// Keys for (piece kind, hole): kind `k` uses `PIECES[k * 121 + hole]`; 6 kinds cover Diamond's
/// three colours × man/king.
pub static PIECES: [u64; 6 * 121] = table(0xD1A3_0001);
/// Keys for the seat to move.
pub static TO_MOVE: [u64; 6] = table(0xD1A3_0002);
/// Keys for (seat, captures so far) in the capture game: `CAPTURES[seat * 61 + count]`.
pub static CAPTURES: [u64; 6 * 61] = table(0xD1A3_0003);
