//! The Redis room store: any number of `damas-server` instances share rooms through one Redis
//! node ([`RedisStore::connect`]) or a Redis Cluster ([`RedisStore::connect_cluster`]), through
//! the `redis` crate (its `ConnectionManager`, or its cluster client).
//!
//! Keys of a room carry its code in a hash tag, so a room lives in one slot and every script below
//! touches one slot only (a Cluster runs them on the room's shard):
//! - `damas:{CODE}:record`   hash `version`, `record`: the version and the JSON [`RoomRecord`];
//!   `lease`: the instance running the room's timers; `seat:N`: seat N's presence entry
//!   (`CONNECTION INSTANCE`). Lease and presence go with the record when it expires.
//! - `damas:instances`       sorted set of live instances, scored by when their heartbeat lapses
//!   (Redis clock, ms): one key for all rooms, written once a second per instance.
//! - channel `damas:{CODE}:events`: the room's [`RoomEvent`]s as JSON (on a Cluster, a shard
//!   channel: `SPUBLISH`/`SSUBSCRIBE` keep a room's events on the room's shard).
//!
//! Writes that must be atomic (create, compare-and-set save, heartbeat, lease take/release,
//! presence, delete) are Lua scripts sent with `EVALSHA` by `redis::Script`. A save returns only after Redis
//! answered, so a move acknowledged to a client is in Redis. When the Redis holding rooms has
//! replicas (seen at connect), a create or save also waits (`WAIT 1`, in the same pipeline, on the
//! same connection) until a replica has it: a failover that promotes that replica loses no
//! acknowledged move, and a save no replica confirms in time is answered `Unavailable`.
//! Expiry is Redis's own: each save sets `PEXPIRE` on the record to the room's time left (renewed
//! by `touch`); nothing of a room is renewed per room otherwise: liveness is the instances'
//! heartbeats.
//!
//! Events: see the `events` module; keys: `layout`; scripts: `scripts`.

mod events;
mod layout;
mod scripts;

use super::{
    EventStream, RoomCode, RoomEvent, RoomRecord, RoomStore, Save, StoreError, Versioned,
    PRESENCE_SEATS,
};
use events::{run_pubsub, run_shard_pushes, Fanout, Subscriber};
use layout::{
    events_channel, instance_of_entry, millis, presence_field, room_key, unavailable, LIVE_KEY,
    RESPONSE_TIMEOUT,
};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::cluster::ClusterClientBuilder;
use redis::cluster_async::ClusterConnection;
use redis::{AsyncCommands, Client, Script};
use scripts::{Scripts, CREATE_LUA, SAVE_LUA};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;

/// Connection attempts per command while Redis is unreachable: one, no back-off (the next command
/// tries again, so the server recovers by itself as soon as Redis is back).
const CONNECT_RETRIES: usize = 0;
/// How long a create or save waits for a replica to confirm it (`WAIT 1 <ms>`) before it is
/// answered `Unavailable`; within [`RESPONSE_TIMEOUT`]. On a healthy link a replica confirms
/// within a millisecond.
const REPLICA_WAIT_MS: u64 = 200;
/// Attempts of a Cluster command that meets a moved slot or a failing node, so that a failover
/// (a few seconds) is answered `Unavailable` rather than waited out.
const CLUSTER_RETRIES: u32 = 3;

/// Where commands go: one node, or a Cluster (each command to the shard of its key).
#[derive(Clone)]
enum Commands {
    /// One multiplexed connection that reconnects by itself.
    Node(ConnectionManager),
    /// A connection to every shard, following slot moves and failovers.
    Cluster(ClusterConnection),
}

impl redis::aio::ConnectionLike for Commands {
    fn req_packed_command<'a>(
        &'a mut self,
        cmd: &'a redis::Cmd,
    ) -> redis::RedisFuture<'a, redis::Value> {
        match self {
            Commands::Node(conn) => conn.req_packed_command(cmd),
            Commands::Cluster(conn) => conn.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> redis::RedisFuture<'a, Vec<redis::Value>> {
        match self {
            Commands::Node(conn) => conn.req_packed_commands(pipeline, offset, count),
            Commands::Cluster(conn) => conn.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Commands::Node(conn) => conn.get_db(),
            Commands::Cluster(conn) => conn.get_db(),
        }
    }
}

/// Rooms in Redis; cheap to share behind an `Arc`. Dropping it stops its pub/sub task.
pub struct RedisStore {
    commands: Commands,
    scripts: Scripts,
    fanout: Arc<Mutex<Fanout>>,
    pubsub_task: tokio::task::JoinHandle<()>,
    /// The Redis holding rooms has replicas: creates and saves wait for one (`WAIT 1`).
    wait_for_replica: bool,
}

impl Drop for RedisStore {
    fn drop(&mut self) {
        self.pubsub_task.abort();
    }
}

impl RedisStore {
    /// Connects to `url` (`redis://host:port/db`); fails if Redis does not answer now.
    pub async fn connect(url: &str) -> Result<RedisStore, StoreError> {
        let client = Client::open(url).map_err(unavailable)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(RESPONSE_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_number_of_retries(CONNECT_RETRIES);
        let mut manager = ConnectionManager::new_with_config(client.clone(), config)
            .await
            .map_err(unavailable)?;
        let wait_for_replica = node_has_replicas(&mut manager).await?;
        let (sink, stream) = client
            .get_async_pubsub()
            .await
            .map_err(unavailable)?
            .split();
        let fanout = Arc::new(Mutex::new(Fanout {
            subscriber: Subscriber::Node(Some(sink)),
            rooms: HashMap::new(),
            confirmed: HashSet::new(),
            resyncing: false,
            resync_again: false,
        }));
        let pubsub_task = tokio::spawn(run_pubsub(client, stream, Arc::downgrade(&fanout)));
        Ok(RedisStore {
            commands: Commands::Node(manager),
            scripts: Scripts::new(),
            fanout,
            pubsub_task,
            wait_for_replica,
        })
    }

    /// Connects to a Redis Cluster through any of its nodes (`redis://host:port` each; the
    /// others are discovered); fails if the Cluster does not answer now.
    pub async fn connect_cluster(urls: &[String]) -> Result<RedisStore, StoreError> {
        let (push_sender, pushes) = tokio::sync::mpsc::unbounded_channel();
        let client = ClusterClientBuilder::new(urls.to_vec())
            .use_protocol(redis::ProtocolVersion::RESP3)
            .push_sender(push_sender)
            .connection_timeout(RESPONSE_TIMEOUT)
            .response_timeout(RESPONSE_TIMEOUT)
            .retries(CLUSTER_RETRIES)
            .min_retry_wait(50)
            .max_retry_wait(500)
            .build()
            .map_err(unavailable)?;
        let mut cluster = client.get_async_connection().await.map_err(unavailable)?;
        let wait_for_replica = cluster_has_replicas(&mut cluster).await?;
        let fanout = Arc::new(Mutex::new(Fanout {
            subscriber: Subscriber::Cluster(cluster.clone()),
            rooms: HashMap::new(),
            confirmed: HashSet::new(),
            resyncing: false,
            resync_again: false,
        }));
        let pubsub_task = tokio::spawn(run_shard_pushes(pushes, Arc::downgrade(&fanout)));
        Ok(RedisStore {
            commands: Commands::Cluster(cluster),
            scripts: Scripts::new(),
            fanout,
            pubsub_task,
            wait_for_replica,
        })
    }

    /// A handle on the command connection (clones share it).
    fn conn(&self) -> Commands {
        self.commands.clone()
    }

    /// Whether creates and saves wait for a replica (the Redis had replicas at connect).
    pub fn waits_for_replica(&self) -> bool {
        self.wait_for_replica
    }

    /// Runs a create or save script and, when the Redis has replicas, waits in the same pipeline
    /// (so on the same connection, to the same node) until one of them has the write. Its answer,
    /// or `Unavailable` when no replica confirmed a write in time.
    async fn durable_write(
        &self,
        script: &Script,
        lua: &str,
        key: String,
        args: &[String],
    ) -> Result<u64, StoreError> {
        let mut conn = self.conn();
        if !self.wait_for_replica {
            let mut invocation = script.key(key);
            for arg in args {
                invocation.arg(arg);
            }
            return invocation
                .invoke_async(&mut conn)
                .await
                .map_err(unavailable);
        }
        // EVAL rather than EVALSHA: a pipeline cannot load a script Redis does not know yet.
        let mut pipe = redis::pipe();
        pipe.cmd("EVAL")
            .arg(lua)
            .arg(1)
            .arg(key)
            .arg(args)
            .cmd("WAIT")
            .arg(1)
            .arg(REPLICA_WAIT_MS);
        let (answer, replicas): (u64, i64) =
            pipe.query_async(&mut conn).await.map_err(unavailable)?;
        if answer != 0 && replicas < 1 {
            return Err(StoreError::Unavailable(
                "no replica confirmed the write in time".into(),
            ));
        }
        Ok(answer)
    }
}

/// One node has replicas if `ROLE` lists any.
async fn node_has_replicas(conn: &mut ConnectionManager) -> Result<bool, StoreError> {
    let role: redis::Value = redis::cmd("ROLE")
        .query_async(conn)
        .await
        .map_err(unavailable)?;
    // A master answers ["master", offset, [[ip, port, offset], ...]].
    Ok(match role {
        redis::Value::Array(parts) => match parts.get(2) {
            Some(redis::Value::Array(replicas)) => !replicas.is_empty(),
            _ => false,
        },
        _ => false,
    })
}

/// A Cluster has replicas if `CLUSTER NODES` lists a replica node.
async fn cluster_has_replicas(conn: &mut ClusterConnection) -> Result<bool, StoreError> {
    let nodes: String = redis::cmd("CLUSTER")
        .arg("NODES")
        .query_async(conn)
        .await
        .map_err(unavailable)?;
    Ok(nodes.lines().any(|line| {
        line.split_whitespace()
            .nth(2)
            .is_some_and(|flags| flags.split(',').any(|f| f == "slave" || f == "replica"))
    }))
}

#[async_trait::async_trait]
impl RoomStore for RedisStore {
    async fn create(
        &self,
        code: &RoomCode,
        record: &RoomRecord,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let args = [to_json(record)?, millis(ttl).to_string()];
        let created = self
            .durable_write(
                &self.scripts.create,
                CREATE_LUA,
                room_key(code, "record"),
                &args,
            )
            .await?;
        Ok(created == 1)
    }

    async fn load(&self, code: &RoomCode) -> Result<Option<Versioned<RoomRecord>>, StoreError> {
        let (version, json): (Option<u64>, Option<String>) = self
            .conn()
            .hmget(room_key(code, "record"), &["version", "record"])
            .await
            .map_err(unavailable)?;
        let (Some(version), Some(json)) = (version, json) else {
            return Ok(None);
        };
        let value = serde_json::from_str(&json)
            .map_err(|error| StoreError::Corrupt(format!("room {code}: {error}")))?;
        Ok(Some(Versioned { version, value }))
    }

    async fn save(
        &self,
        code: &RoomCode,
        expected: u64,
        record: &RoomRecord,
        ttl: Duration,
    ) -> Result<Save, StoreError> {
        let args = [
            expected.to_string(),
            to_json(record)?,
            millis(ttl).to_string(),
        ];
        let version = self
            .durable_write(
                &self.scripts.save,
                SAVE_LUA,
                room_key(code, "record"),
                &args,
            )
            .await?;
        Ok(match version {
            0 => Save::Conflict,
            version => Save::Saved(version),
        })
    }

    async fn touch(&self, code: &RoomCode, ttl: Duration) -> Result<bool, StoreError> {
        // PEXPIRE leaves a missing key missing (answers 0).
        let set: i64 = self
            .conn()
            .pexpire(
                room_key(code, "record"),
                i64::try_from(millis(ttl)).unwrap_or(i64::MAX),
            )
            .await
            .map_err(unavailable)?;
        Ok(set == 1)
    }

    async fn delete(&self, code: &RoomCode) -> Result<(), StoreError> {
        let _: i64 = self
            .scripts
            .delete
            .key(room_key(code, "record"))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        self.publish(code, &RoomEvent::Deleted).await
    }

    async fn publish(&self, code: &RoomCode, event: &RoomEvent) -> Result<(), StoreError> {
        // A Cluster broadcasts `PUBLISH` to every node; `SPUBLISH` stays on the room's shard.
        let command = match self.commands {
            Commands::Node(_) => "PUBLISH",
            Commands::Cluster(_) => "SPUBLISH",
        };
        let receivers: i64 = redis::cmd(command)
            .arg(events_channel(code.as_str()))
            .arg(to_json(event)?)
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        tracing::debug!(room = %code, receivers, ?event, "event published");
        Ok(())
    }

    async fn subscribe(&self, code: &RoomCode) -> Result<EventStream, StoreError> {
        events::subscribe(&self.fanout, code).await
    }

    async fn heartbeat(&self, instance: &str, ttl: Duration) -> Result<Vec<String>, StoreError> {
        let mut live: Vec<String> = self
            .scripts
            .heartbeat
            .key(LIVE_KEY)
            .arg(instance)
            .arg(millis(ttl))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        live.sort_unstable();
        Ok(live)
    }

    async fn end_heartbeat(&self, instance: &str) -> Result<(), StoreError> {
        let _: i64 = self
            .conn()
            .zrem(LIVE_KEY, instance)
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    async fn acquire_lease(
        &self,
        code: &RoomCode,
        owner: &str,
        live: &[String],
    ) -> Result<bool, StoreError> {
        let held: i64 = self
            .scripts
            .lease
            .key(room_key(code, "record"))
            .arg(owner)
            .arg(live)
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(held == 1)
    }

    async fn release_lease(&self, code: &RoomCode, owner: &str) -> Result<(), StoreError> {
        let _: i64 = self
            .scripts
            .release
            .key(room_key(code, "record"))
            .arg(owner)
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    async fn set_presence(
        &self,
        code: &RoomCode,
        seat: u8,
        conn: &str,
        instance: &str,
    ) -> Result<(), StoreError> {
        if seat >= PRESENCE_SEATS {
            return Ok(());
        }
        let _: i64 = self
            .scripts
            .set_presence
            .key(room_key(code, "record"))
            .arg(presence_field(seat))
            .arg(conn)
            .arg(instance)
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    async fn clear_presence(
        &self,
        code: &RoomCode,
        seat: u8,
        conn: &str,
    ) -> Result<(), StoreError> {
        let _: i64 = self
            .scripts
            .clear_presence
            .key(room_key(code, "record"))
            .arg(presence_field(seat))
            .arg(conn)
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    async fn present_seats(&self, code: &RoomCode, live: &[String]) -> Result<Vec<u8>, StoreError> {
        let fields: Vec<String> = (0..PRESENCE_SEATS).map(presence_field).collect();
        let entries: Vec<Option<String>> = self
            .conn()
            .hmget(room_key(code, "record"), &fields)
            .await
            .map_err(unavailable)?;
        Ok((0..PRESENCE_SEATS)
            .zip(entries)
            .filter(|(_, entry)| {
                entry
                    .as_deref()
                    .and_then(instance_of_entry)
                    .is_some_and(|instance| live.iter().any(|l| l == instance))
            })
            .map(|(seat, _)| seat)
            .collect())
    }

    async fn ping(&self) -> Result<(), StoreError> {
        let _: String = redis::cmd("PING")
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(())
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    // Records and events are plain data: serialising them cannot fail, but it is not unwrapped.
    serde_json::to_string(value).map_err(|error| StoreError::Corrupt(error.to_string()))
}
