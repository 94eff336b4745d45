//! Perft: the number of leaf positions of the legal-move tree at a given depth, the standard
//! proof that a move generator is exact. The last ply is bulk-counted with `count_moves`.
//!
//! Three ways to count, which must agree (tests check it): [`perft`] (plain recursion),
//! [`perft_hashed`] (subtree counts cached by zobrist hash and depth, for games with many
//! transpositions such as draughts) and [`perft_parallel`] (root moves split over threads).

use crate::position::Position;

/// Leaves of the move tree `depth` plies below `position` (a position with no moves before the
/// last ply contributes nothing).
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    let mut buffers = move_lists(depth);
    perft_with(position, depth, &mut buffers, &mut NoTable)
}

/// Perft split by first move, for locating a generator bug.
pub fn divide<P: Position>(position: &P, depth: u32) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .moves()
        .into_iter()
        .map(|mv| {
            let count = perft(&position.after(&mv), depth - 1);
            (mv, count)
        })
        .collect()
}

/// Perft with a table of subtree counts keyed by the position's zobrist hash and the depth.
/// `table_bits` sets its size (2^bits entries of 16 bytes, bits clamped to 4..=26). A wrong count would need two positions
/// whose 64-bit keys agree; tests compare it with [`perft`].
pub fn perft_hashed<P: Position>(position: &P, depth: u32, table_bits: u32) -> u64 {
    let mut table = PerftTable::new(table_bits);
    let mut buffers = move_lists(depth);
    perft_with(position, depth, &mut buffers, &mut table)
}

/// Perft with the root moves shared out to `threads` threads, each with its own hash table of
/// `table_bits` bits (0: no table).
pub fn perft_parallel<P: Position>(
    position: &P,
    depth: u32,
    threads: usize,
    table_bits: u32,
) -> u64 {
    if depth < 2 || threads < 2 {
        return if table_bits > 0 {
            perft_hashed(position, depth, table_bits)
        } else {
            perft(position, depth)
        };
    }
    let moves = position.moves();
    let children: Vec<P> = moves.iter().map(|mv| position.after(mv)).collect();
    let threads = threads.min(children.len().max(1));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                let children = &children;
                scope.spawn(move || {
                    let mut buffers = move_lists(depth);
                    let mut table = (table_bits > 0).then(|| PerftTable::new(table_bits));
                    children
                        .iter()
                        .skip(worker)
                        .step_by(threads)
                        .map(|child| match table.as_mut() {
                            Some(table) => perft_with(child, depth - 1, &mut buffers, table),
                            None => perft_with(child, depth - 1, &mut buffers, &mut NoTable),
                        })
                        .sum::<u64>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap_or(0))
            .sum()
    })
}

/// Reusable move lists, one per depth (bounded: a silly depth must not allocate a silly amount).
fn move_lists<M>(depth: u32) -> Vec<Vec<M>> {
    (0..depth.min(64)).map(|_| Vec::new()).collect()
}

/// Where subtree counts may be remembered.
trait Cache {
    fn get(&self, hash: u64, depth: u32) -> Option<u64>;
    fn put(&mut self, hash: u64, depth: u32, count: u64);
}

struct NoTable;

impl Cache for NoTable {
    #[inline(always)]
    fn get(&self, _: u64, _: u32) -> Option<u64> {
        None
    }
    #[inline(always)]
    fn put(&mut self, _: u64, _: u32, _: u64) {}
}

/// Always-replace table of (key, count); a zero count marks an empty slot.
struct PerftTable {
    entries: Vec<(u64, u64)>,
    mask: usize,
}

impl PerftTable {
    fn new(bits: u32) -> PerftTable {
        let size = 1usize << bits.clamp(4, 26);
        PerftTable {
            entries: vec![(0, 0); size],
            mask: size - 1,
        }
    }

    #[inline(always)]
    fn key(hash: u64, depth: u32) -> u64 {
        // Mixing the depth in keeps counts of one position at different depths apart.
        hash ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Cache for PerftTable {
    #[inline(always)]
    fn get(&self, hash: u64, depth: u32) -> Option<u64> {
        let key = Self::key(hash, depth);
        let (stored, count) = self.entries[(key as usize) & self.mask];
        (stored == key && count != 0).then_some(count)
    }

    #[inline(always)]
    fn put(&mut self, hash: u64, depth: u32, count: u64) {
        let key = Self::key(hash, depth);
        self.entries[(key as usize) & self.mask] = (key, count);
    }
}

fn perft_with<P: Position, C: Cache>(
    position: &P,
    depth: u32,
    buffers: &mut [Vec<P::Move>],
    cache: &mut C,
) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves(),
        _ => {
            let hash = position.zobrist();
            if let Some(count) = cache.get(hash, depth) {
                return count;
            }
            // Move lists are reused per depth; past the preallocated depths, fresh lists.
            let mut own = Vec::new();
            let (moves, rest) = match buffers.split_first_mut() {
                Some((moves, rest)) => (moves, rest),
                None => (&mut own, &mut [][..]),
            };
            moves.clear();
            position.legal_moves(moves);
            let mut total = 0;
            for mv in moves.iter() {
                total += perft_with(&position.after(mv), depth - 1, rest, cache);
            }
            cache.put(hash, depth, total);
            total
        }
    }
}
