//! Perft: the number of leaf positions of the legal-move tree at a given depth, the standard
//! proof that a move generator is exact. The last ply is bulk-counted with `count_moves`.

use crate::position::Position;

/// Leaves of the move tree `depth` plies below `position` (a position with no moves before the
/// last ply contributes nothing).
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves(),
        _ => {
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            moves
                .iter()
                .map(|mv| perft(&position.after(mv), depth - 1))
                .sum()
        }
    }
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
