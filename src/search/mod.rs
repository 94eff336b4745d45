//! CPU players. Every game the CPU plays is a [`Playable`]: the session layer and the CLI ask its
//! [`Playable::decide`] for a seat's move; the CLI also runs matches with [`selfplay::run`].
//!
//! Layout: [`searchable`] (what a game gives the search), [`playable`] (the object-safe face
//! over any searchable game), [`alphabeta`] (iterative-deepening PVS, paranoid for more than two
//! seats or Best-Reply Search where a game allows it, capture quiescence) with [`table`],
//! [`table_pool`] (expert's tables kept between moves), [`ordering`] and [`limits`]; [`mistakes`] (the easy level); [`levels`] (the levels and
//! players, their budgets per game); [`player`] (a player on a concrete record); [`eval`] (one
//! evaluation per game); [`selfplay`] (the match harness); [`tuning`] (the Texel tuner of the
//! draughts weights).

pub mod alphabeta;
pub mod endgame;
pub mod eval;
pub mod levels;
pub mod limits;
pub mod mcts;
pub mod mistakes;
pub mod ordering;
pub mod playable;
pub mod player;
pub mod score;
pub mod searchable;
pub mod selfplay;
pub mod share_tuning;
pub mod table;
pub mod table_pool;
#[cfg(test)]
mod testgame;
pub mod tuning;

pub use levels::{Level, Player};
pub use playable::{Decision, GameFactory, Playable};
