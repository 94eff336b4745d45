//! CPU players. Every game the CPU plays is a [`Playable`]: the session layer and the CLI ask its
//! [`Playable::decide`] for a seat's move, with the [`SearchContext`] they own (expert's kept
//! tables and the endgame databases).
//!
//! Layout: [`searchable`] (what a game gives the search), `playable` (the object-safe face
//! over any searchable game), `params` (what shapes a search), [`alphabeta`]
//! (iterative-deepening PVS, paranoid for more than two seats or Best-Reply Search where a game
//! allows it, capture quiescence) with `table`, `table_pool` (expert's tables kept between
//! moves), `ordering` and [`limits`]; `mcts` (Monte-Carlo tree search for the capture game);
//! [`mistakes`] (the easy level); [`levels`] (the levels, their budgets per game); [`player`] (a
//! player on a concrete record); [`eval`] (one evaluation per game); [`endgame`] (the draughts
//! databases); [`book`] (expert's opening book); `context` (the state searches keep, owned by the caller). The match harness
//! and the tuners live in the lab crate (`lab/`), beside the engine.

pub mod alphabeta;
pub mod book;
pub(crate) mod context;
pub mod endgame;
pub mod eval;
pub mod levels;
pub mod limits;
pub(crate) mod mcts;
pub mod mistakes;
#[cfg(any(test, feature = "nim"))]
pub mod nim;
pub(crate) mod ordering;
pub(crate) mod params;
pub(crate) mod playable;
pub mod player;
pub mod score;
pub mod searchable;
pub(crate) mod table;
pub(crate) mod table_pool;
#[cfg(test)]
mod tests;

pub use context::SearchContext;
pub use levels::{Level, MoveTime, Player};
pub use params::{Found, MovePruning, MultiPlayer, Params, ProbCut};
pub use playable::{Decision, GameFactory, Playable};
pub use player::PlayerConfig;
