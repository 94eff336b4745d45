//! CPU players. Every game the CPU plays is a [`Playable`]: the session layer and the CLI ask its
//! [`Playable::decide`] for a seat's move; the CLI also runs matches with [`selfplay::run`].
//!
//! Layout: [`searchable`] (what a game gives the search), [`playable`] (the object-safe face
//! over any searchable game), [`alphabeta`] (iterative-deepening
//! PVS, paranoid for more than two seats or Best-Reply Search where a game allows it, capture
//! quiescence) with [`table`], [`ordering`] and
//! [`limits`]; [`mistakes`] (the easy level); [`levels`] (budgets per game and level);
//! [`player`] (a player on a concrete record); [`eval`] (one evaluation per game);
//! [`selfplay`] (the match harness).

pub mod alphabeta;
pub mod eval;
pub mod levels;
pub mod limits;
pub mod mistakes;
pub mod ordering;
pub mod playable;
pub mod player;
pub mod score;
pub mod searchable;
pub mod selfplay;
pub mod table;
#[cfg(test)]
mod testgame;

pub use playable::{Decision, GameFactory, Playable};

use serde::{Deserialize, Serialize};

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

/// A CPU player: one of the levels, or the seed's Turkish CPU kept as a yardstick (three plies
/// for each side, captures finished at the horizon, material only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    Cpu(Level),
    Reference,
}

impl Player {
    pub fn as_str(self) -> &'static str {
        match self {
            Player::Cpu(level) => level.as_str(),
            Player::Reference => "reference",
        }
    }

    pub fn parse(text: &str) -> Option<Player> {
        match text {
            "reference" => Some(Player::Reference),
            _ => Level::parse(text).map(Player::Cpu),
        }
    }
}
