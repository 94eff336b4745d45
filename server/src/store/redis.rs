//! The Redis room store: any number of `damas-server` instances share rooms through one Redis
//! node ([`RedisStore::connect`]) or a Redis Cluster ([`RedisStore::connect_cluster`]), through
//! the `redis` crate (its `ConnectionManager`, or its cluster client).
//!
//! Keys of a room carry its code in a hash tag, so a room lives in one slot and every script below
//! touches one slot only (a Cluster runs them on the room's shard):
//! - `damas:{CODE}:record`   hash `version`, `record`: the version and the JSON [`RoomRecord`];
//! - `damas:{CODE}:lease`    string: the instance running the room's timers (`PX` ttl);
//! - `damas:{CODE}:presence` sorted set of `seat:connection`, scored by expiry (Redis clock, ms);
//! - channel `damas:{CODE}:events`: the room's [`RoomEvent`]s as JSON (on a Cluster, a shard
//!   channel: `SPUBLISH`/`SSUBSCRIBE` keep a room's events on the room's shard).
//!
//! Writes that must be atomic (create, compare-and-set save, lease take/renew/release, presence,
//! delete) are Lua scripts sent with `EVALSHA` by `redis::Script`. A save returns only after Redis
//! answered, so a move acknowledged to a client is in Redis. When the Redis holding rooms has
//! replicas (seen at connect), a create or save also waits (`WAIT 1`, in the same pipeline, on the
//! same connection) until a replica has it: a failover that promotes that replica loses no
//! acknowledged move, and a save no replica confirms in time is answered `Unavailable`.
//! Expiry is Redis's own: each save sets `PEXPIRE` on the record to the room's time left (renewed
//! by `touch`); the lease and presence keys carry their own short TTLs and vanish unless renewed.
//!
//! Events, one node: one pub/sub connection per instance, owned by a task that fans messages out to
//! local per-room broadcast channels. A room's channel is subscribed when its first local
//! subscriber comes and unsubscribed when the last one goes. If the connection drops, the task
//! reconnects, subscribes again to every room still watched here and sends each of them "reload"
//! (an event published while disconnected is lost; the record is not).
//!
//! Events, Cluster: the cluster connection (RESP3) carries the shard subscriptions and pushes
//! their messages to the same fan-out; it follows slot moves and failovers and subscribes again
//! by itself, and each confirmation of a room already confirmed tells that room to reload. That
//! alone can leave a room deaf (the library resubscribes only when it refreshes its slot map, and
//! forgets a subscription a node drops when its slot leaves it), so when a node's connection drops
//! or a node drops a subscription, the instance asks for every watched room's subscription again
//! and tells those rooms to reload; the confirmation that comes once a subscription lands on the
//! slot's new master makes them reload once more.

use super::{EventStream, RoomCode, RoomEvent, RoomRecord, RoomStore, Save, StoreError, Versioned};
use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSubSink, PubSubStream};
use redis::cluster::ClusterClientBuilder;
use redis::cluster_async::ClusterConnection;
use redis::{AsyncCommands, Client, PushInfo, PushKind, Script};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, Mutex};

/// Events a slow local subscriber may lag behind before it skips to "reload".
const EVENT_BUFFER: usize = 64;
/// Pause between attempts to reopen the pub/sub connection.
const PUBSUB_RETRY: Duration = Duration::from_millis(250);
/// How long a command may wait for Redis (then the caller gets `Unavailable`), and how long a
/// connection attempt may take. A Redis that is down or paused must make the server unavailable
/// at once, not slow: `/health` answers 503 and actions `unavailable` within 1 s (a room action
/// may wait for one command of the room's housekeeping, then make its own). A healthy Redis
/// answers in well under a millisecond.
const RESPONSE_TIMEOUT: Duration = Duration::from_millis(300);
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

/// What a lagging or resynchronised subscriber hears: any event means "reload the record".
const RELOAD: RoomEvent = RoomEvent::Changed { version: 0 };

fn room_key(code: &RoomCode, part: &str) -> String {
    format!("damas:{{{}}}:{part}", code.as_str())
}

fn events_channel(code: &str) -> String {
    format!("damas:{{{code}}}:events")
}

/// The room code in an events channel's name.
fn code_of_channel(channel: &str) -> Option<&str> {
    channel.strip_prefix("damas:{")?.strip_suffix("}:events")
}

/// A duration as Redis milliseconds (at least 1: `PX 0` is an error).
fn millis(ttl: Duration) -> u64 {
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1)
}

fn unavailable(error: redis::RedisError) -> StoreError {
    StoreError::Unavailable(error.to_string())
}

/// A presence entry: the seat and the connection holding it.
fn presence_member(seat: u8, conn: &str) -> String {
    format!("{seat}:{conn}")
}

fn seat_of_member(member: &str) -> Option<u8> {
    member.split_once(':')?.0.parse().ok()
}

/// The Lua scripts. Each names every key it touches in KEYS (all in the room's slot).
struct Scripts {
    create: Script,
    save: Script,
    delete: Script,
    lease: Script,
    release: Script,
    set_presence: Script,
    present: Script,
}

/// KEYS: record. ARGV: json, ttl ms. 1 if created at version 1, 0 if the code is taken.
const CREATE_LUA: &str = "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
     redis.call('HSET', KEYS[1], 'version', 1, 'record', ARGV[1])
     redis.call('PEXPIRE', KEYS[1], ARGV[2])
     return 1";

/// KEYS: record. ARGV: expected version, json, ttl ms. The new version, or 0 when the stored
/// version differs or the room is gone.
const SAVE_LUA: &str = "local current = redis.call('HGET', KEYS[1], 'version')
     if not current or current ~= ARGV[1] then return 0 end
     local next = tonumber(current) + 1
     redis.call('HSET', KEYS[1], 'version', next, 'record', ARGV[2])
     redis.call('PEXPIRE', KEYS[1], ARGV[3])
     return next";

/// Redis's clock in ms, so that instances with skewed clocks agree on presence expiry.
const LUA_NOW_MS: &str = "local now = redis.call('TIME')\n\
     local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)\n";

impl Scripts {
    fn new() -> Scripts {
        Scripts {
            create: Script::new(CREATE_LUA),
            save: Script::new(SAVE_LUA),
            // KEYS: record, lease, presence. Deletes the room.
            // (The event is published after, as a shard channel's `SPUBLISH` on a Cluster.)
            delete: Script::new("return redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])"),
            // KEYS: lease, record. ARGV: owner, ttl ms. Takes a free lease (SET NX PX) or renews
            // the owner's own; 1 if the owner holds it now. No lease for a room that is gone.
            lease: Script::new(
                "if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
                 if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
                 if redis.call('GET', KEYS[1]) == ARGV[1] then
                   redis.call('PEXPIRE', KEYS[1], ARGV[2])
                   return 1
                 end
                 return 0",
            ),
            // KEYS: lease. ARGV: owner. Deletes the lease only if the owner holds it.
            release: Script::new(
                "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
                 return 0",
            ),
            // KEYS: presence, record. ARGV: seat, connection, ttl ms. The seat's entry becomes this
            // connection's (an older connection's entry for the seat is replaced).
            set_presence: Script::new(
                format!(
                    "if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
                 {LUA_NOW_MS}
                 local ttl = tonumber(ARGV[3])
                 for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
                   if string.sub(member, 1, #ARGV[1] + 1) == ARGV[1] .. ':' then
                     redis.call('ZREM', KEYS[1], member)
                   end
                 end
                 redis.call('ZADD', KEYS[1], now_ms + ttl, ARGV[1] .. ':' .. ARGV[2])
                 if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
                 return 1"
                )
                .as_str(),
            ),
            // KEYS: presence. Drops lapsed entries; the live members.
            present: Script::new(
                format!(
                    "{LUA_NOW_MS}
                 redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
                 return redis.call('ZRANGE', KEYS[1], 0, -1)"
                )
                .as_str(),
            ),
        }
    }
}

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

/// How this instance listens to room channels.
enum Subscriber {
    /// One node: the pub/sub connection's command half, while it is up.
    Node(Option<PubSubSink>),
    /// A Cluster: shard subscriptions through the cluster connection, which subscribes again by
    /// itself after a failover or a slot move.
    Cluster(ClusterConnection),
}

/// The local subscribers of each room, and how the instance subscribes.
struct Fanout {
    subscriber: Subscriber,
    rooms: HashMap<String, broadcast::Sender<RoomEvent>>,
    /// Cluster: rooms whose shard subscription was confirmed once (a later confirmation is a
    /// resubscription: events may have been missed).
    confirmed: HashSet<String>,
    /// Cluster: a resubscription of every watched room is under way (see [`resubscribe_shards`]).
    resyncing: bool,
    /// Cluster: a node's connection dropped again while resubscribing: one more round.
    resync_again: bool,
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

/// Owns the instance's pub/sub connection (its command half is in `fanout`, its message half is
/// `stream`): hands each message to the room's local subscribers; when the connection drops,
/// reopens it, subscribes again and tells every watched room to reload.
async fn run_pubsub(client: Client, mut stream: PubSubStream, fanout: Weak<Mutex<Fanout>>) {
    loop {
        while let Some(message) = stream.next().await {
            let Some(code) = code_of_channel(message.get_channel_name()) else {
                continue;
            };
            let Ok(event) = serde_json::from_slice::<RoomEvent>(message.get_payload_bytes()) else {
                tracing::warn!(room = code, "redis pub/sub: unreadable event ignored");
                continue;
            };
            let Some(fanout) = fanout.upgrade() else {
                return;
            };
            let fanout = fanout.lock().await;
            if let Some(sender) = fanout.rooms.get(code) {
                let _ = sender.send(event);
            }
        }
        tracing::warn!("redis pub/sub: connection lost, reconnecting");
        match fanout.upgrade() {
            Some(fanout) => fanout.lock().await.subscriber = Subscriber::Node(None),
            None => return,
        }
        stream = loop {
            tokio::time::sleep(PUBSUB_RETRY).await;
            let Some(fanout) = fanout.upgrade() else {
                return;
            };
            match resubscribe(&client, &fanout).await {
                Ok(stream) => break stream,
                Err(error) => tracing::warn!(%error, "redis pub/sub: reconnecting failed"),
            }
        };
    }
}

/// Opens a new pub/sub connection, subscribes it to every room watched here, installs it and
/// tells those rooms' subscribers to reload (they may have missed events meanwhile).
async fn resubscribe(
    client: &Client,
    fanout: &Mutex<Fanout>,
) -> Result<PubSubStream, redis::RedisError> {
    let (mut sink, stream) = client.get_async_pubsub().await?.split();
    let mut fanout = fanout.lock().await;
    let channels: Vec<String> = fanout
        .rooms
        .keys()
        .map(|code| events_channel(code))
        .collect();
    if !channels.is_empty() {
        sink.subscribe(&channels).await?;
    }
    fanout.subscriber = Subscriber::Node(Some(sink));
    for sender in fanout.rooms.values() {
        let _ = sender.send(RELOAD);
    }
    Ok(stream)
}

/// Reads the cluster connection's pushes: shard messages go to the room's local subscribers; a
/// subscription confirmed again (after a failover, a slot move or a reconnection, when the
/// cluster connection subscribes again by itself) tells the room to reload.
async fn run_shard_pushes(
    mut pushes: tokio::sync::mpsc::UnboundedReceiver<PushInfo>,
    fanout_weak: Weak<Mutex<Fanout>>,
) {
    while let Some(push) = pushes.recv().await {
        if push.kind == PushKind::Disconnection {
            // A node's connection dropped: the subscriptions it carried are gone, and events sent
            // until they are back are lost.
            let Some(fanout) = fanout_weak.upgrade() else {
                return;
            };
            tracing::info!("redis cluster: a node's connection dropped; resubscribing rooms");
            start_resubscribing(&mut *fanout.lock().await, &fanout_weak);
            continue;
        }
        let channel = match push.data.first() {
            Some(redis::Value::BulkString(bytes)) => String::from_utf8_lossy(bytes).into_owned(),
            _ => continue,
        };
        let Some(code) = code_of_channel(&channel) else {
            continue;
        };
        let Some(fanout) = fanout_weak.upgrade() else {
            return;
        };
        let mut fanout = fanout.lock().await;
        match push.kind {
            PushKind::SMessage => {
                let event = match push.data.get(1) {
                    Some(redis::Value::BulkString(bytes)) => {
                        serde_json::from_slice::<RoomEvent>(bytes).ok()
                    }
                    _ => None,
                };
                let Some(event) = event else {
                    tracing::warn!(room = code, "redis pub/sub: unreadable event ignored");
                    continue;
                };
                if let Some(sender) = fanout.rooms.get(code) {
                    let _ = sender.send(event);
                }
            }
            PushKind::SSubscribe => {
                if !fanout.rooms.contains_key(code) {
                    continue;
                }
                if !fanout.confirmed.insert(code.to_string()) {
                    if let Some(sender) = fanout.rooms.get(code) {
                        let _ = sender.send(RELOAD);
                    }
                }
            }
            // Unasked (the room is still watched here): the node dropped the subscription because
            // the room's slot left it (it became a replica, the slot moved), and the cluster
            // connection forgets it too. Subscribe again where the slot is now.
            PushKind::SUnsubscribe if fanout.rooms.contains_key(code) => {
                tracing::info!(
                    room = code,
                    "redis cluster: shard subscription dropped by a node"
                );
                start_resubscribing(&mut fanout, &fanout_weak);
            }
            _ => {}
        }
    }
}

/// Starts [`resubscribe_shards`] unless it runs already (then it does one more round).
fn start_resubscribing(fanout: &mut Fanout, weak: &Weak<Mutex<Fanout>>) {
    if fanout.rooms.is_empty() {
        return;
    }
    if fanout.resyncing {
        fanout.resync_again = true;
        return;
    }
    fanout.resyncing = true;
    fanout.resync_again = false;
    tokio::spawn(resubscribe_shards(weak.clone()));
}

/// After a node's connection dropped or a node dropped a subscription: asks the cluster
/// connection to subscribe every room watched here again (it keeps the subscription and places it
/// on the master serving the room's slot once its slot map says which), retrying while it refuses,
/// then tells each room to reload; the confirmation from the new master (a repeated confirmation,
/// see [`run_shard_pushes`]) makes the room reload again. An event published while a room was not
/// listening is lost, but the save it announced is in the record the reload reads: events are
/// hints, the store is the truth.
async fn resubscribe_shards(fanout: Weak<Mutex<Fanout>>) {
    loop {
        tokio::time::sleep(PUBSUB_RETRY).await;
        let Some(shared) = fanout.upgrade() else {
            return;
        };
        let (mut cluster, codes) = {
            let mut guard = shared.lock().await;
            guard.resync_again = false;
            let Subscriber::Cluster(cluster) = &guard.subscriber else {
                guard.resyncing = false;
                return;
            };
            let codes: Vec<String> = guard.rooms.keys().cloned().collect();
            (cluster.clone(), codes)
        };
        drop(shared);
        let mut failed = false;
        for code in &codes {
            let subscribed =
                tokio::time::timeout(RESPONSE_TIMEOUT, cluster.ssubscribe(events_channel(code)))
                    .await;
            if !matches!(subscribed, Ok(Ok(()))) {
                failed = true;
                break;
            }
        }
        let Some(shared) = fanout.upgrade() else {
            return;
        };
        let mut guard = shared.lock().await;
        if failed {
            continue;
        }
        for code in &codes {
            match guard.rooms.get(code) {
                Some(sender) => {
                    let _ = sender.send(RELOAD);
                }
                // Its last local stream went meanwhile: do not keep listening for it.
                None => {
                    let unsubscribe = cluster.sunsubscribe(events_channel(code));
                    let _ = tokio::time::timeout(RESPONSE_TIMEOUT, unsubscribe).await;
                }
            }
        }
        if !guard.resync_again {
            guard.resyncing = false;
            tracing::info!(
                rooms = codes.len(),
                "redis cluster: shard subscriptions renewed"
            );
            return;
        }
    }
}

/// Held by each local event stream: when a room's last local stream goes, the instance stops
/// listening to the room's channel.
struct Unsubscribe {
    code: String,
    fanout: Weak<Mutex<Fanout>>,
}

impl Drop for Unsubscribe {
    fn drop(&mut self) {
        let (Some(fanout), Ok(runtime)) =
            (self.fanout.upgrade(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let code = std::mem::take(&mut self.code);
        runtime.spawn(async move {
            let mut fanout = fanout.lock().await;
            let unused = fanout
                .rooms
                .get(&code)
                .is_some_and(|sender| sender.receiver_count() == 0);
            if unused {
                fanout.rooms.remove(&code);
                fanout.confirmed.remove(&code);
                match &mut fanout.subscriber {
                    Subscriber::Node(Some(sink)) => {
                        let _ = sink.unsubscribe(events_channel(&code)).await;
                    }
                    Subscriber::Node(None) => {}
                    Subscriber::Cluster(cluster) => {
                        let _ = cluster.sunsubscribe(events_channel(&code)).await;
                    }
                }
            }
        });
    }
}

/// A room's local events as a stream; a subscriber that fell behind hears "reload" instead of
/// the events it missed.
fn local_stream(receiver: broadcast::Receiver<RoomEvent>, guard: Unsubscribe) -> EventStream {
    futures_util::stream::unfold((receiver, guard), |(mut receiver, guard)| async move {
        match receiver.recv().await {
            Ok(event) => Some((event, (receiver, guard))),
            Err(broadcast::error::RecvError::Lagged(_)) => Some((RELOAD, (receiver, guard))),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    })
    .boxed()
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
            .key(room_key(code, "lease"))
            .key(room_key(code, "presence"))
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
        let mut fanout = self.fanout.lock().await;
        let receiver = match fanout.rooms.get(code.as_str()) {
            Some(sender) => sender.subscribe(),
            None => {
                // The first local subscriber: listen to the room's channel before returning, so
                // that no event published after this call is missed. While the connection is
                // down the room is only registered: the reconnection subscribes it and says
                // "reload".
                let channel = events_channel(code.as_str());
                match &mut fanout.subscriber {
                    Subscriber::Node(Some(sink)) => {
                        tokio::time::timeout(RESPONSE_TIMEOUT, sink.subscribe(channel))
                            .await
                            .map_err(|_| {
                                StoreError::Unavailable("redis SUBSCRIBE timed out".into())
                            })?
                            .map_err(unavailable)?;
                    }
                    Subscriber::Node(None) => {}
                    Subscriber::Cluster(cluster) => {
                        tokio::time::timeout(RESPONSE_TIMEOUT, cluster.ssubscribe(channel))
                            .await
                            .map_err(|_| {
                                StoreError::Unavailable("redis SSUBSCRIBE timed out".into())
                            })?
                            .map_err(unavailable)?;
                    }
                }
                let (sender, receiver) = broadcast::channel(EVENT_BUFFER);
                fanout.rooms.insert(code.as_str().to_string(), sender);
                receiver
            }
        };
        let guard = Unsubscribe {
            code: code.as_str().to_string(),
            fanout: Arc::downgrade(&self.fanout),
        };
        Ok(local_stream(receiver, guard))
    }

    async fn acquire_lease(
        &self,
        code: &RoomCode,
        owner: &str,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let held: i64 = self
            .scripts
            .lease
            .key(room_key(code, "lease"))
            .key(room_key(code, "record"))
            .arg(owner)
            .arg(millis(ttl))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(held == 1)
    }

    async fn release_lease(&self, code: &RoomCode, owner: &str) -> Result<(), StoreError> {
        let _: i64 = self
            .scripts
            .release
            .key(room_key(code, "lease"))
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
        ttl: Duration,
    ) -> Result<(), StoreError> {
        let _: i64 = self
            .scripts
            .set_presence
            .key(room_key(code, "presence"))
            .key(room_key(code, "record"))
            .arg(seat)
            .arg(conn)
            .arg(millis(ttl))
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
            .conn()
            .zrem(room_key(code, "presence"), presence_member(seat, conn))
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    async fn present_seats(&self, code: &RoomCode) -> Result<Vec<u8>, StoreError> {
        let members: Vec<String> = self
            .scripts
            .present
            .key(room_key(code, "presence"))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        let mut seats: Vec<u8> = members.iter().filter_map(|m| seat_of_member(m)).collect();
        seats.sort_unstable();
        seats.dedup();
        Ok(seats)
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
