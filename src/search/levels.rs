//! The CPU's levels and players, and what each level means in each game: node budgets, depths,
//! evaluation and mistakes.
//!
//! Budgets are in nodes so that a match replays move for move; they were sized so the move
//! times of issue 4 hold on one core in release (hard median ≤ 1 s, medium ≤ 200 ms, easy
//! ≤ 50 ms — measured figures in docs/cpu.md).

use super::alphabeta::Params;
use super::limits::Limits;
use super::mistakes::Mistakes;
use super::player::PlayerConfig;
use super::searchable::EvalStyle;
use crate::position::{GameKind, Variant};
use serde::{Deserialize, Serialize};
use std::time::Duration;

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

/// Depth of the seed's Turkish CPU: three plies for each side.
pub const REFERENCE_DEPTH: u32 = 6;

/// One level's budget in one game.
struct Budget {
    nodes: u64,
    min_depth: u32,
    max_depth: u32,
    table_bits: u32,
}

fn budget(kind: GameKind, level: Level) -> Budget {
    let (nodes, min_depth, max_depth) = match (kind, level) {
        (GameKind::English | GameKind::International | GameKind::Turkish, Level::Hard) => {
            (600_000, 1, 40)
        }
        // Medium is never weaker than the seed's Turkish CPU: it always completes 3 plies per
        // side (plus capture quiescence).
        (GameKind::Turkish, Level::Medium) => (60_000, REFERENCE_DEPTH, 40),
        (GameKind::English | GameKind::International, Level::Medium) => (60_000, 1, 40),
        (GameKind::Diamond, Level::Hard) => (300_000, 1, 12),
        (GameKind::Diamond, Level::Medium) => (6_000, 1, 12),
        (GameKind::Capture, Level::Hard) => (100_000, 1, 20),
        (GameKind::Capture, Level::Medium) => (8_000, 1, 20),
        (_, Level::Easy) => (20_000, 1, 4),
    };
    Budget {
        nodes,
        min_depth,
        max_depth,
        table_bits: if level == Level::Hard { 20 } else { 16 },
    }
}

/// The easy level's shallow scoring and mistakes, per game (margins in evaluation units).
fn mistakes(kind: GameKind) -> Mistakes {
    let (depth, margin) = match kind {
        GameKind::English | GameKind::International | GameKind::Turkish => (3, 60),
        GameKind::Diamond => (1, 150),
        GameKind::Capture => (2, 100),
    };
    Mistakes {
        depth,
        chance: 25,
        margin,
        beginner_games: 3,
        beginner_chance: 45,
        beginner_margin: margin * 2,
        plausible_first: kind == GameKind::Capture,
    }
}

/// The time each level may think at most, on the thinking thread's CPU clock: a safety net
/// for slow devices well above what the node budgets take here (so matches stay deterministic).
/// Hard's is its move-time limit.
pub fn time_guard(level: Level) -> Duration {
    match level {
        Level::Easy => Duration::from_millis(500),
        Level::Medium => Duration::from_secs(1),
        Level::Hard => Duration::from_secs(2),
    }
}

/// The configuration of `player` in `variant`.
pub fn config(variant: Variant, player: Player) -> PlayerConfig {
    let kind = variant.kind;
    let quiescence = kind.is_draughts();
    match player {
        Player::Reference => PlayerConfig {
            params: Params {
                limits: Limits::depth(REFERENCE_DEPTH),
                style: EvalStyle::Material,
                quiescence: true,
                noise: 3,
                seed: 0,
                table_bits: 16,
                reductions: false,
                best_reply: false,
            },
            mistakes: None,
        },
        Player::Cpu(level) => {
            let budget = budget(kind, level);
            PlayerConfig {
                params: Params {
                    limits: Limits {
                        max_depth: budget.max_depth,
                        min_depth: budget.min_depth,
                        max_nodes: budget.nodes,
                        max_time: time_guard(level),
                    },
                    style: EvalStyle::Full,
                    quiescence,
                    noise: match level {
                        Level::Hard => 2,
                        _ => 4,
                    },
                    seed: 0,
                    table_bits: budget.table_bits,
                    reductions: level == Level::Hard && kind.is_draughts(),
                    // Best-Reply Search lost to the paranoid search in the capture game
                    // (docs/cpu.md): its tree gives the root seat every other move, so it
                    // counts on chains that the second opponent takes in play.
                    best_reply: false,
                },
                mistakes: (level == Level::Easy).then(|| mistakes(kind)),
            }
        }
    }
}
