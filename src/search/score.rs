//! Score scale shared by every search: wins are near [`WIN`], shortened by the ply they occur at
//! so the search prefers the fastest win and the slowest loss.

/// Larger than any score.
pub const INFINITY: i32 = 2_000_000;
/// A win at the root.
pub const WIN: i32 = 1_000_000;
/// Scores at or above this are wins found by search (evaluations stay below it).
pub const WIN_MIN: i32 = WIN - 10_000;
pub const DRAW: i32 = 0;

/// Whether a score is a forced win or loss.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_MIN
}

/// Plies from the root to the game's end that a decisive score promises.
pub fn plies_to_end(score: i32) -> u32 {
    (WIN - score.abs()).max(0) as u32
}

/// A decisive score as stored in the table: relative to the node, so it stays true wherever
/// the position is met again.
pub fn to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN_MIN {
        score + ply
    } else if score <= -WIN_MIN {
        score - ply
    } else {
        score
    }
}

pub fn from_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN_MIN {
        score - ply
    } else if score <= -WIN_MIN {
        score + ply
    } else {
        score
    }
}
