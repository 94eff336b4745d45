//! What a player asks the pools for (a pool), who they are to the pools, and what they hear.

use crate::clocks::ENGLISH_DEFAULT;
use crate::error::RoomError;
use crate::store::{ClockSettings, GameChoice, RoomCode};
use serde::{Deserialize, Serialize};

/// Everybody's rating before their first rated game (the seed: Elo from 1,200).
pub const DEFAULT_RATING: u32 = 1200;

/// Clocks of the pools besides English (the seed's 5 min + 3 × 30 s): the longer draughts games
/// get 10 min + 3 × 30 s; Diamond and Capture for two, 5 min + 3 × 30 s.
pub const LONG_DRAUGHTS_CLOCK: ClockSettings = ClockSettings {
    main_ms: 10 * 60 * 1000,
    periods: 3,
    period_ms: 30 * 1000,
};

/// The pool a player asks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolChoice {
    /// `english`, `turkish`, `international`, `diamond` or `capture` (2 players).
    pub kind: String,
    #[serde(default)]
    pub rated: bool,
}

impl PoolChoice {
    /// Checks the kind; the pool's name (`english/rated`, `diamond/casual` …).
    pub fn check(&self) -> Result<String, RoomError> {
        if pool_clock(&self.kind).is_none() {
            return Err(RoomError::BadPool(format!(
                "no pool for '{}' (expected english, turkish, international, diamond or capture)",
                self.kind.chars().take(24).collect::<String>()
            )));
        }
        Ok(format!(
            "{}/{}",
            self.kind,
            if self.rated { "rated" } else { "casual" }
        ))
    }

    pub fn game(&self) -> GameChoice {
        GameChoice {
            kind: self.kind.clone(),
            players: 2,
            long_jump: false,
        }
    }
}

/// A pool's clock: English the seed's 5 min + 3 × 30 s; see [`LONG_DRAUGHTS_CLOCK`].
pub fn pool_clock(kind: &str) -> Option<ClockSettings> {
    match kind {
        "english" | "diamond" | "capture" => Some(ENGLISH_DEFAULT),
        "turkish" | "international" => Some(LONG_DRAUGHTS_CLOCK),
        _ => None,
    }
}

/// Who a player is to the pools: a guest (the key is the connection's, no account, the default
/// rating) until the connection signs in (`sign_in`), then the account and its rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerIdentity {
    /// Never paired with an entry of the same key (an account's id, or a guest's connection).
    pub player: String,
    /// The signed-in account, if any (rated pools need one).
    pub account: Option<String>,
    /// The player's rating in the pool's game kind.
    pub rating: u32,
}

impl PlayerIdentity {
    pub fn guest(connection: &str) -> PlayerIdentity {
        PlayerIdentity {
            player: format!("guest:{connection}"),
            account: None,
            rating: DEFAULT_RATING,
        }
    }
}

/// What a waiting player hears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PoolNotice {
    /// A room was made for the player: the seat whose token the player holds is theirs.
    Paired {
        code: RoomCode,
        opponent: Opponent,
        rated: bool,
    },
}

/// Who the player was paired with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opponent {
    /// `None` for the CPU.
    pub nickname: Option<String>,
    pub rating: Option<u32>,
    pub cpu: bool,
    /// The CPU's level when it stands in.
    pub level: Option<String>,
}

/// A player's place in a pool, for leaving it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    pub pool: String,
    pub id: String,
}

/// A waiting player as a pool keeps them (in memory, or as JSON in Redis). The seat token stays
/// Every pool's name, for the waves of a shared backend.
pub fn all_pools() -> Vec<PoolChoice> {
    let mut pools = Vec::new();
    for kind in ["english", "turkish", "international", "diamond", "capture"] {
        for rated in [false, true] {
            pools.push(PoolChoice {
                kind: kind.into(),
                rated,
            });
        }
    }
    pools
}
