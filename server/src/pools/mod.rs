//! Quick pairing: "play someone at random". A player enters the pool of a game kind (the five
//! games' 2-player forms), casual or rated; the pools pair their players in waves, and a pairing
//! makes an ordinary room (clock, takeover, reconnect, rematch as every room).
//!
//! - Waves every [`crate::config::POOL_WAVE`] (2 s): a pool's players are sorted by rating, and neighbours are paired
//!   by a matching that first pairs as many players as it can, then minimises the rating gaps
//!   ([`pairing::pair_wave`]). A pair is accepted only within both players' rating limits, which widen with
//!   the waves each has missed ([`pairing::rating_limit`]), the way lichess's pools work.
//! - A player is never paired with themself (two devices, one account: same player key) and, when
//!   others wait too, not with the opponent of their previous pairing.
//! - Nobody free after [`crate::config::POOL_CPU_AFTER`] (20 s; `Config::pool_cpu_after`): the CPU stands in, at a
//!   level chosen from the player's rating ([`pairing::cpu_level_for`]), shown as the CPU (a `cpu` seat);
//!   such a game is casual, never rated.
//! - Rated pools need a signed-in account ([`PlayerIdentity::account`]); a guest is refused. A
//!   rated game's end is handed to a [`crate::rated_results::RatedResults`] (the seam where the ratings are updated).
//!
//! This module keeps the pools of one server instance in memory. The pairing itself
//! ([`pairing::pair_wave`]) is a pure function, so a shared backend (a sorted set per pool in Redis, waves
//! run by the holder of a pool lease) only has to gather the waiting players and hand them over.
//!
//! Modules: [`choice`] (what a player asks for and hears), [`pairing`] (the pure pairing of a
//! wave), [`waves`] (the waves that make the rooms), and here the pools themselves.

pub mod choice;
pub mod pairing;
pub mod waves;

pub use choice::{
    all_pools, pool_clock, Opponent, PlayerIdentity, PoolChoice, PoolNotice, Ticket,
    DEFAULT_RATING, LONG_DRAUGHTS_CLOCK,
};
pub use pairing::{decide_pool, remember_opponents, Decision, WaitingEntry};

use crate::error::RoomError;
use crate::lobby;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::mpsc;

#[derive(Default)]
struct MemoryPools {
    pools: HashMap<String, Vec<WaitingEntry>>,
    previous_opponent: HashMap<String, String>,
}

/// The pools: in this instance's memory, or shared through Redis (see `pool_redis`).
#[derive(Default)]
pub struct Pools {
    memory: Mutex<MemoryPools>,
    /// Connections of this instance waiting in a pool, by entry id.
    waiters: Mutex<HashMap<String, mpsc::UnboundedSender<PoolNotice>>>,
    #[cfg(feature = "redis")]
    redis: Option<crate::pool_redis::RedisPools>,
    /// With Redis: this instance's waiting entries (by id, with their pool), put back if the
    /// instance was taken for dead meanwhile (see `pool_redis`).
    #[cfg(feature = "redis")]
    local: Mutex<HashMap<String, (String, WaitingEntry)>>,
}

impl Pools {
    /// Pools shared by every instance on one Redis.
    #[cfg(feature = "redis")]
    pub fn redis(redis: crate::pool_redis::RedisPools) -> Pools {
        Pools {
            redis: Some(redis),
            ..Pools::default()
        }
    }

    fn memory(&self) -> std::sync::MutexGuard<'_, MemoryPools> {
        self.memory.lock().unwrap_or_else(|p| p.into_inner())
    }

    #[cfg(feature = "redis")]
    fn local(&self) -> std::sync::MutexGuard<'_, HashMap<String, (String, WaitingEntry)>> {
        self.local.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// This instance was taken for dead while it lived: its waiting players go back in Redis
    /// (those whose connections still wait).
    #[cfg(feature = "redis")]
    async fn put_back(&self) {
        let Some(redis) = &self.redis else {
            return;
        };
        let entries: Vec<(String, WaitingEntry)> = self
            .local()
            .values()
            .filter(|(_, entry)| self.is_waiting_here(&entry.id))
            .cloned()
            .collect();
        tracing::warn!(
            waiting = entries.len(),
            "this instance was taken for dead: its pool entries go back"
        );
        for (pool, entry) in entries {
            if let Err(error) = redis.add(&pool, &entry).await {
                tracing::warn!(%error, "pool entry not put back");
            }
        }
    }

    fn waiters(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::UnboundedSender<PoolNotice>>> {
        self.waiters.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Puts a player in a pool (`token_hash`: the hash of the seat token the player's connection
    /// keeps). Rated pools refuse guests.
    pub async fn join(
        &self,
        choice: PoolChoice,
        identity: PlayerIdentity,
        nickname: String,
        token_hash: String,
        instance: &str,
        now: u64,
    ) -> Result<(Ticket, mpsc::UnboundedReceiver<PoolNotice>), RoomError> {
        let pool = choice.check()?;
        if choice.rated && identity.account.is_none() {
            return Err(RoomError::SignInRequired);
        }
        let id = lobby::new_code().to_string();
        let entry = WaitingEntry {
            id: id.clone(),
            instance: instance.to_string(),
            choice,
            player: identity.player,
            account: identity.account,
            rating: identity.rating,
            nickname,
            token_hash,
            joined_at: now,
            waves_missed: 0,
        };
        let (notify, notices) = mpsc::unbounded_channel();
        self.waiters().insert(id.clone(), notify);
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            if let Err(error) = redis.add(&pool, &entry).await {
                self.waiters().remove(&id);
                return Err(error.into());
            }
            self.local().insert(id.clone(), (pool.clone(), entry));
            return Ok((Ticket { pool, id }, notices));
        }
        self.memory()
            .pools
            .entry(pool.clone())
            .or_default()
            .push(entry);
        Ok((Ticket { pool, id }, notices))
    }

    /// Takes a player out of their pool; false if they were no longer there (paired).
    /// The player's connection keeps hearing a pairing already made.
    pub async fn leave(&self, ticket: &Ticket) -> bool {
        let removed = self.remove_entry(ticket).await;
        if removed {
            self.forget(&ticket.id);
        }
        removed
    }

    async fn remove_entry(&self, ticket: &Ticket) -> bool {
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            return redis
                .remove(&ticket.pool, &ticket.id)
                .await
                .unwrap_or(false);
        }
        let mut state = self.memory();
        let Some(entries) = state.pools.get_mut(&ticket.pool) else {
            return false;
        };
        let before = entries.len();
        entries.retain(|e| e.id != ticket.id);
        let removed = entries.len() != before;
        if entries.is_empty() {
            state.pools.remove(&ticket.pool);
        }
        removed
    }

    /// Players waiting in this instance's memory pools.
    pub fn waiting(&self) -> usize {
        self.memory().pools.values().map(Vec::len).sum()
    }

    /// Tells a player of this instance about their pairing (false: not waiting here any more).
    pub fn deliver(&self, id: &str, notice: PoolNotice) -> bool {
        #[cfg(feature = "redis")]
        self.local().remove(id);
        match self.waiters().remove(id) {
            Some(notify) => notify.send(notice).is_ok(),
            None => false,
        }
    }

    /// The connection of entry `id` is gone: it hears nothing more.
    pub fn forget(&self, id: &str) {
        #[cfg(feature = "redis")]
        self.local().remove(id);
        self.waiters().remove(id);
    }

    fn is_waiting_here(&self, id: &str) -> bool {
        self.waiters().get(id).is_some_and(|n| !n.is_closed())
    }

    /// One wave of the memory pools.
    fn decide_memory(&self, now: u64, cpu_after_ms: u64) -> Vec<Decision> {
        let mut state = self.memory();
        let MemoryPools {
            pools,
            previous_opponent,
        } = &mut *state;
        let mut decisions = Vec::new();
        for entries in pools.values_mut() {
            // A player whose connection is gone is no longer waiting.
            let waiting: Vec<WaitingEntry> = std::mem::take(entries)
                .into_iter()
                .filter(|e| self.is_waiting_here(&e.id))
                .collect();
            let (decided, rest) = decide_pool(
                waiting,
                |player| previous_opponent.get(player).cloned(),
                now,
                cpu_after_ms,
            );
            *entries = rest;
            decisions.extend(decided);
        }
        pools.retain(|_, entries| !entries.is_empty());
        remember_opponents(previous_opponent, &decisions);
        decisions
    }

    /// Puts entries back after a room could not be made (the store is down): next wave.
    async fn requeue(&self, entries: Vec<WaitingEntry>) {
        for entry in entries {
            let pool = entry.choice.check().unwrap_or_default();
            #[cfg(feature = "redis")]
            if let Some(redis) = &self.redis {
                let _ = redis.add(&pool, &entry).await;
                continue;
            }
            self.memory().pools.entry(pool).or_default().push(entry);
        }
    }
}

/// Notes who met whom (a player is not paired with the same opponent twice in a row while others
/// wait).
#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn guests_are_refused_rated_pools() {
        let pools = Pools::default();
        let rated = PoolChoice {
            kind: "english".into(),
            rated: true,
        };
        let guest = PlayerIdentity::guest("c1");
        let error = pools
            .join(rated.clone(), guest, "Ana".into(), "h".into(), "i", 0)
            .await
            .unwrap_err();
        assert_eq!(error.code(), "sign_in_required");
        let member = PlayerIdentity {
            account: Some("acct-1".into()),
            ..PlayerIdentity::guest("c2")
        };
        let (ticket, _notices) = pools
            .join(rated, member, "Bea".into(), "h".into(), "i", 0)
            .await
            .unwrap();
        assert_eq!(pools.waiting(), 1);
        assert!(pools.leave(&ticket).await);
        assert!(!pools.leave(&ticket).await);
        assert_eq!(pools.waiting(), 0);
    }
}
