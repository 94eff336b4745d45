//! CPU players. The session layer asks [`choose_move`] for a seat's move.

use crate::position::MoveInfo;
use crate::record::AnyGame;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// The three CPU strengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Easy,
    Medium,
    Hard,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    pub fn parse(text: &str) -> Option<Level> {
        [Level::Easy, Level::Medium, Level::Hard]
            .into_iter()
            .find(|level| level.as_str() == text)
    }
}

/// The move the CPU plays for the seat to move, or `None` when the game is over.
/// Deterministic for a given game, level and seed; returns early when `stop` is set.
///
/// Interim: a seeded choice among the legal moves, until the search lands (issue 4).
pub fn choose_move(
    game: &dyn AnyGame,
    level: Level,
    seed: u64,
    stop: &AtomicBool,
) -> Option<MoveInfo> {
    let _ = (level, stop);
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = SmallRng::seed_from_u64(seed ^ game.ply() as u64);
    Some(moves[rng.gen_range(0..moves.len())].clone())
}
