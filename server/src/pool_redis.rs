//! The pairing pools shared by every instance on one Redis (`--redis`). A pool's keys carry its
//! name in a hash tag (one slot per pool):
//! - `damas:pool:{NAME}:queue`   sorted set of waiting entry ids, scored by rating;
//! - `damas:pool:{NAME}:entries` hash entry id → the JSON [`WaitingEntry`];
//! - `damas:pool:{NAME}:lease`   string: the instance running the pool's waves (`PX` ttl), as a
//!   room's lease decides who runs its timers;
//! - `damas:pool:previous`       hash player → the opponent of their last pairing;
//! - `damas:pool:alive:INSTANCE` string with a `PX` ttl: the instance lives (renewed every
//!   [`HEARTBEAT`] by its own task, in real time);
//! - channel `damas:pool:notices:INSTANCE`: pairings for the players connected to INSTANCE.
//!
//! Every instance tries each pool's lease at every wave; the holder reads the queue, decides with
//! [`decide_pool`], and claims each pair atomically (both entries still there, or nothing), so a
//! player who left meanwhile is never paired. A claimed pair's room is made, then each player is
//! told on their instance's channel. If the holder dies, its lease lapses and another instance
//! runs the next waves: the entries are in Redis, nobody is lost.
//!
//! An entry is only good while its instance lives: that instance holds the player's socket and
//! tells them their pairing. The wave holder drops the entries of an instance whose `alive` key
//! has lapsed ([`ALIVE_TTL_MS`] after its last heartbeat), so a dead instance's players are never
//! paired into rooms nobody comes to. An instance whose key lapsed while it lived (cut off from
//! Redis for that long) finds out at its next heartbeat and puts its waiting players back.

use crate::pools::choice::{all_pools, PoolNotice};
use crate::pools::pairing::{decide_pool, Decision, WaitingEntry};
use crate::store::StoreError;
use futures_util::StreamExt;
use redis::aio::ConnectionManager;
use redis::{AsyncCommands, Client, Script};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::mpsc;

/// A pool lease outlives a missed wave or two, and lapses within seconds of a crash.
const LEASE_TTL_MS: u64 = 6_000;
/// An instance renews its `alive` key this often …
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// … which lapses this long after the last renewal: its waiting players are then dropped.
pub const ALIVE_TTL_MS: u64 = 6_000;
/// Pause between attempts to reopen the notices subscription.
const RETRY: Duration = Duration::from_millis(250);
const PREVIOUS: &str = "damas:pool:previous";
/// Previous opponents are forgotten a day after the last pairing.
const PREVIOUS_TTL_MS: u64 = 24 * 60 * 60 * 1000;

fn key(pool: &str, part: &str) -> String {
    format!("damas:pool:{{{pool}}}:{part}")
}

fn alive_key(instance: &str) -> String {
    format!("damas:pool:alive:{instance}")
}

fn notices_channel(instance: &str) -> String {
    format!("damas:pool:notices:{instance}")
}

fn unavailable(error: redis::RedisError) -> StoreError {
    StoreError::Unavailable(error.to_string())
}

/// A notice on an instance's channel: for which waiting entry.
#[derive(Serialize, Deserialize)]
struct Addressed {
    id: String,
    notice: PoolNotice,
}

pub struct RedisPools {
    commands: ConnectionManager,
    add: Script,
    remove: Script,
    claim: Script,
    update: Script,
    lease: Script,
    heartbeat: Script,
    listener: tokio::task::JoinHandle<()>,
}

impl Drop for RedisPools {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl RedisPools {
    /// Connects, and listens to this instance's notices: each arrives on the returned receiver.
    pub async fn connect(
        url: &str,
        instance: &str,
    ) -> Result<(RedisPools, mpsc::UnboundedReceiver<(String, PoolNotice)>), StoreError> {
        let client = Client::open(url).map_err(unavailable)?;
        let commands = ConnectionManager::new(client.clone())
            .await
            .map_err(unavailable)?;
        let (tx, rx) = mpsc::unbounded_channel();
        let channel = notices_channel(instance);
        let mut pubsub = client.get_async_pubsub().await.map_err(unavailable)?;
        pubsub.subscribe(&channel).await.map_err(unavailable)?;
        let listener = tokio::spawn(listen(client, pubsub, channel, tx));
        let pools = RedisPools {
            commands,
            add: Script::new(
                "redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
                 redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
                 return 1",
            ),
            remove: Script::new(
                "local n = redis.call('ZREM', KEYS[1], ARGV[1])
                 redis.call('HDEL', KEYS[2], ARGV[1])
                 return n",
            ),
            claim: Script::new(
                "for i = 1, #ARGV do
                   if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 then return 0 end
                 end
                 for i = 1, #ARGV do
                   redis.call('ZREM', KEYS[1], ARGV[i])
                   redis.call('HDEL', KEYS[2], ARGV[i])
                 end
                 return 1",
            ),
            update: Script::new(
                "if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
                 redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
                 return 1",
            ),
            lease: Script::new(
                "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
                 if redis.call('GET', KEYS[1]) == ARGV[1] then
                   redis.call('PEXPIRE', KEYS[1], ARGV[2])
                   return 1
                 end
                 return 0",
            ),
            // 1: the key had lapsed (or never was): this instance was taken for dead.
            heartbeat: Script::new(
                "if redis.call('SET', KEYS[1], '1', 'XX', 'PX', ARGV[1]) then return 0 end
                 redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
                 return 1",
            ),
            listener,
        };
        pools.beat(instance).await?;
        Ok((pools, rx))
    }

    /// Renews this instance's `alive` key; true if it had lapsed (the holder may have dropped
    /// this instance's entries: they are to be put back).
    pub async fn beat(&self, instance: &str) -> Result<bool, StoreError> {
        let lapsed: i64 = self
            .heartbeat
            .key(alive_key(instance))
            .arg(ALIVE_TTL_MS)
            .invoke_async(&mut self.commands.clone())
            .await
            .map_err(unavailable)?;
        Ok(lapsed == 1)
    }

    pub async fn add(&self, pool: &str, entry: &WaitingEntry) -> Result<(), StoreError> {
        let json = serde_json::to_string(entry).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let _: i64 = self
            .add
            .key(key(pool, "queue"))
            .key(key(pool, "entries"))
            .arg(&entry.id)
            .arg(entry.rating)
            .arg(json)
            .invoke_async(&mut self.commands.clone())
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    /// True if the entry was still waiting.
    pub async fn remove(&self, pool: &str, id: &str) -> Result<bool, StoreError> {
        let removed: i64 = self
            .remove
            .key(key(pool, "queue"))
            .key(key(pool, "entries"))
            .arg(id)
            .invoke_async(&mut self.commands.clone())
            .await
            .map_err(unavailable)?;
        Ok(removed == 1)
    }

    /// Tells a player on `instance` about their pairing.
    pub async fn publish(
        &self,
        instance: &str,
        id: &str,
        notice: &PoolNotice,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_string(&Addressed {
            id: id.to_string(),
            notice: notice.clone(),
        })
        .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let _: i64 = self
            .commands
            .clone()
            .publish(notices_channel(instance), json)
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    /// One wave of every pool whose lease `owner` holds: the claimed decisions.
    pub async fn decide(&self, owner: &str, now: u64, cpu_after_ms: u64) -> Vec<Decision> {
        let mut decisions = Vec::new();
        // Whether each instance met lives, asked once a wave.
        let mut alive = HashMap::new();
        for choice in all_pools() {
            let Ok(pool) = choice.check() else {
                continue;
            };
            match self
                .decide_pool(&pool, owner, now, cpu_after_ms, &mut alive)
                .await
            {
                Ok(decided) => decisions.extend(decided),
                Err(error) => tracing::warn!(%pool, %error, "pool wave failed"),
            }
        }
        decisions
    }

    /// The entries whose instance lives; the others are taken out of the pool.
    async fn drop_dead(
        &self,
        pool: &str,
        entries: Vec<WaitingEntry>,
        alive: &mut HashMap<String, bool>,
    ) -> Result<Vec<WaitingEntry>, StoreError> {
        let mut conn = self.commands.clone();
        let mut living = Vec::with_capacity(entries.len());
        for entry in entries {
            let lives = match alive.get(&entry.instance) {
                Some(&lives) => lives,
                None => {
                    let lives: bool = conn
                        .exists(alive_key(&entry.instance))
                        .await
                        .map_err(unavailable)?;
                    alive.insert(entry.instance.clone(), lives);
                    lives
                }
            };
            if lives {
                living.push(entry);
            } else {
                tracing::info!(%pool, instance = %entry.instance, "waiting player of a dead instance dropped");
                self.remove(pool, &entry.id).await?;
            }
        }
        Ok(living)
    }

    async fn decide_pool(
        &self,
        pool: &str,
        owner: &str,
        now: u64,
        cpu_after_ms: u64,
        alive: &mut HashMap<String, bool>,
    ) -> Result<Vec<Decision>, StoreError> {
        let mut conn = self.commands.clone();
        let held: i64 = self
            .lease
            .key(key(pool, "lease"))
            .arg(owner)
            .arg(LEASE_TTL_MS)
            .invoke_async(&mut conn)
            .await
            .map_err(unavailable)?;
        if held != 1 {
            return Ok(Vec::new());
        }
        let ids: Vec<String> = conn
            .zrange(key(pool, "queue"), 0, -1)
            .await
            .map_err(unavailable)?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let jsons: Vec<Option<String>> = redis::cmd("HMGET")
            .arg(key(pool, "entries"))
            .arg(&ids)
            .query_async(&mut conn)
            .await
            .map_err(unavailable)?;
        let entries: Vec<WaitingEntry> = jsons
            .into_iter()
            .flatten()
            .filter_map(|json| serde_json::from_str(&json).ok())
            .collect();
        let entries = self.drop_dead(pool, entries, alive).await?;
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        let players: Vec<&str> = entries.iter().map(|e| e.player.as_str()).collect();
        let previous: Vec<Option<String>> = redis::cmd("HMGET")
            .arg(PREVIOUS)
            .arg(&players)
            .query_async(&mut conn)
            .await
            .map_err(unavailable)?;
        let previous: HashMap<String, String> = players
            .iter()
            .zip(previous)
            .filter_map(|(p, o)| o.map(|o| (p.to_string(), o)))
            .collect();
        let (decided, rest) = decide_pool(
            entries,
            |player| previous.get(player).cloned(),
            now,
            cpu_after_ms,
        );
        let mut claimed = Vec::new();
        for decision in decided {
            let ids: Vec<&str> = match &decision {
                Decision::Pair(a, b) => vec![&a.id, &b.id],
                Decision::Cpu(entry) => vec![&entry.id],
            };
            let mut invocation = self.claim.key(key(pool, "queue"));
            invocation.key(key(pool, "entries"));
            for id in &ids {
                invocation.arg(*id);
            }
            let won: i64 = invocation
                .invoke_async(&mut conn)
                .await
                .map_err(unavailable)?;
            if won != 1 {
                continue;
            }
            if let Decision::Pair(a, b) = &decision {
                let _: () = redis::pipe()
                    .hset(PREVIOUS, &a.player, &b.player)
                    .ignore()
                    .hset(PREVIOUS, &b.player, &a.player)
                    .ignore()
                    .pexpire(PREVIOUS, PREVIOUS_TTL_MS as i64)
                    .ignore()
                    .query_async(&mut conn)
                    .await
                    .map_err(unavailable)?;
            }
            claimed.push(decision);
        }
        for entry in rest {
            let json =
                serde_json::to_string(&entry).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let _: i64 = self
                .update
                .key(key(pool, "entries"))
                .arg(&entry.id)
                .arg(json)
                .invoke_async(&mut conn)
                .await
                .map_err(unavailable)?;
        }
        Ok(claimed)
    }
}

/// Hands this instance's notices over; reopens the subscription when it drops.
async fn listen(
    client: Client,
    pubsub: redis::aio::PubSub,
    channel: String,
    tx: mpsc::UnboundedSender<(String, PoolNotice)>,
) {
    let mut pubsub = pubsub;
    loop {
        {
            let mut messages = pubsub.on_message();
            while let Some(message) = messages.next().await {
                match serde_json::from_slice::<Addressed>(message.get_payload_bytes()) {
                    Ok(addressed) => {
                        if tx.send((addressed.id, addressed.notice)).is_err() {
                            return;
                        }
                    }
                    Err(_) => tracing::warn!("redis pool notice unreadable: ignored"),
                }
            }
        }
        tracing::warn!("redis pool notices: connection lost, reconnecting");
        pubsub = loop {
            tokio::time::sleep(RETRY).await;
            let opened = async {
                let mut pubsub = client.get_async_pubsub().await?;
                pubsub.subscribe(&channel).await?;
                Ok::<_, redis::RedisError>(pubsub)
            };
            match opened.await {
                Ok(pubsub) => break pubsub,
                Err(error) => tracing::warn!(%error, "redis pool notices: reconnecting failed"),
            }
        };
    }
}
