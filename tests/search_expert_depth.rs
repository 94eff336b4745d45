//! The expert level (issue 16): more thinking time never a shallower search. Depths come from the
//! search's own figures (`Decision::depth`, the deepest complete iteration), never from the wall
//! clock.
//!
//! A process of its own: expert keeps its transposition tables from one search to the next in a
//! process-wide pool (`search::table_pool`), so a test in the same process that had just searched
//! the same position at the same time setting would hand the short search a warm table, and it
//! would reach further than a search from scratch. Here each search starts from an empty table
//! (the two settings are two owners in the pool), the comparison the test means.

mod common;

use common::cpu_positions::{movetime, positions, CASES, SEED};
use damas::search::Player;
use std::sync::atomic::AtomicBool;

#[test]
fn more_thinking_time_searches_at_least_as_deep() {
    let stop = AtomicBool::new(false);
    for (kind, players, plies) in [CASES[0], CASES[2], CASES[3], CASES[5]] {
        let game = &positions(kind, players, &plies, SEED)[1];
        let short = game
            .decide(Player::Expert(movetime(500)), SEED, None, &stop)
            .expect("a move");
        let long = game
            .decide(Player::Expert(movetime(2_000)), SEED, None, &stop)
            .expect("a move");
        assert!(
            long.depth >= short.depth,
            "{kind:?} {players}p: 2 s reached depth {}, 0.5 s depth {}",
            long.depth,
            short.depth
        );
        assert!(game.legal_moves().contains(&long.info));
    }
}
