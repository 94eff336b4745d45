//! CPU players. The session layer asks [`decide`] for a seat's move (with the player's count of
//! finished games); the CLI uses [`bestmove`] and [`selfplay::run`].
//!
//! Layout: [`searchable`] (what a game gives the search), [`alphabeta`] (iterative-deepening
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
pub mod player;
pub mod score;
pub mod searchable;
pub mod selfplay;
pub mod table;
#[cfg(test)]
mod testgame;

use crate::games::capture::Capture;
use crate::games::diamond::Diamond;
use crate::games::english::English;
use crate::games::international::International;
use crate::games::turkish::Turkish;
use crate::position::{GameKind, MoveInfo};
use crate::record::{AnyGame, Record};
use player::PlayerConfig;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use searchable::Searchable;
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

/// The CPU's answer in notation, with how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub info: MoveInfo,
    /// From the mover's side, in the game's evaluation units (decisive near ±1 000 000).
    pub score: i32,
    /// Deepest completed iteration (the easy level: its scoring depth).
    pub depth: u32,
    pub nodes: u64,
    /// The level's time guard ([`levels::time_guard`]) stopped the search: the move then depends
    /// on the machine's speed. Node budgets are sized so that this never happens on one core.
    pub timed_out: bool,
}

/// The move the CPU plays for the seat to move, or `None` when the game is over.
/// Deterministic for a given game, level and seed; returns early when `stop` is set.
pub fn choose_move(
    game: &dyn AnyGame,
    level: Level,
    seed: u64,
    stop: &AtomicBool,
) -> Option<MoveInfo> {
    decide(game, Player::Cpu(level), seed, None, stop).map(|decision| decision.info)
}

/// [`choose_move`] for any player, with the player's number of finished games (the easy level
/// is gentler in the first ones) and the search's figures.
pub fn decide(
    game: &dyn AnyGame,
    player: Player,
    seed: u64,
    games_played: Option<u32>,
    stop: &AtomicBool,
) -> Option<Decision> {
    let config = levels::config(game.variant(), player);
    let any = game.as_any();
    let run = match game.variant().kind {
        GameKind::English => decide_on::<English>,
        GameKind::International => decide_on::<International>,
        GameKind::Turkish => decide_on::<Turkish>,
        GameKind::Diamond => decide_on::<Diamond>,
        GameKind::Capture => decide_on::<Capture>,
    };
    run(any, &config, seed, games_played, stop).or_else(|| unknown_game_move(game, seed))
}

/// A game type the search does not know (test games behind `AnyGame`): a seeded legal move, so
/// layers above can still be exercised with any game.
fn unknown_game_move(game: &dyn AnyGame, seed: u64) -> Option<Decision> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = SmallRng::seed_from_u64(seed ^ game.ply() as u64);
    let info = moves[rng.gen_range(0..moves.len())].clone();
    Some(Decision {
        info,
        score: 0,
        depth: 0,
        nodes: 0,
        timed_out: false,
    })
}

/// Runs a player on the concrete record behind `any`.
fn decide_on<P: Searchable>(
    any: &dyn std::any::Any,
    config: &PlayerConfig,
    seed: u64,
    games_played: Option<u32>,
    stop: &AtomicBool,
) -> Option<Decision> {
    let record = any.downcast_ref::<Record<P>>()?;
    let choice = player::choose(record, config, seed, games_played, stop)?;
    Some(Decision {
        info: record.position().move_info(&choice.mv),
        score: choice.score,
        depth: choice.depth,
        nodes: choice.nodes,
        timed_out: choice.timed_out,
    })
}

/// `damas bestmove`: the decision for the game's current position.
pub fn bestmove(
    game: &dyn AnyGame,
    player: Player,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Decision> {
    decide(game, player, seed, None, stop)
}
