//! The Redis room store: any number of `damas-server` instances share rooms through one Redis,
//! through the `redis` crate.
//!
//! Keys of a room carry its code in a hash tag, so a room lives in one slot and every script below
//! touches one slot only: the layout is ready for Redis Cluster (the connection here is to one
//! node; docs/scaling.md has the plan).
//! - `damas:{CODE}:record`   hash `version`, `record`: the version and the JSON [`RoomRecord`];
//! - `damas:{CODE}:lease`    string: the instance running the room's timers (`PX` ttl);
//! - `damas:{CODE}:presence` sorted set of `seat:connection`, scored by expiry (Redis clock, ms);
//! - channel `damas:{CODE}:events`: the room's [`RoomEvent`]s as JSON.
//!
//! Writes that must be atomic (create, compare-and-set save, lease take/renew/release, presence,
//! delete) are Lua scripts sent with `EVALSHA` by `redis::Script`. A save returns only after Redis
//! answered, so a move acknowledged to a client is in Redis. Expiry is Redis's own: each save
//! sets `PEXPIRE` on the record to the room's time left (renewed by `touch`); the lease and presence keys carry their
//! own short TTLs and vanish unless renewed.
//!
//! Events: one pub/sub connection per instance, owned by a task that fans messages out to local
//! per-room broadcast channels. A room's channel is subscribed when its first local subscriber
//! comes and unsubscribed when the last one goes. If the connection drops, the task reconnects,
//! subscribes again to every room still watched here and sends each of them "reload" (an event
//! published while disconnected is lost; the record is not).

use super::{EventStream, RoomCode, RoomEvent, RoomRecord, RoomStore, Save, StoreError, Versioned};
use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSubSink, PubSubStream};
use redis::{AsyncCommands, Client, Script};
use std::collections::HashMap;
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

/// Redis's clock in ms, so that instances with skewed clocks agree on presence expiry.
const LUA_NOW_MS: &str = "local now = redis.call('TIME')\n\
     local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)\n";

impl Scripts {
    fn new() -> Scripts {
        Scripts {
            // KEYS: record. ARGV: json, ttl ms. 1 if created at version 1, 0 if the code is taken.
            create: Script::new(
                "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
                 redis.call('HSET', KEYS[1], 'version', 1, 'record', ARGV[1])
                 redis.call('PEXPIRE', KEYS[1], ARGV[2])
                 return 1",
            ),
            // KEYS: record. ARGV: expected version, json, ttl ms. The new version, or 0 when the
            // stored version differs or the room is gone.
            save: Script::new(
                "local current = redis.call('HGET', KEYS[1], 'version')
                 if not current or current ~= ARGV[1] then return 0 end
                 local next = tonumber(current) + 1
                 redis.call('HSET', KEYS[1], 'version', next, 'record', ARGV[2])
                 redis.call('PEXPIRE', KEYS[1], ARGV[3])
                 return next",
            ),
            // KEYS: record, lease, presence. ARGV: channel, event json. Deletes the room and tells
            // its subscribers.
            delete: Script::new(
                "redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
                 redis.call('PUBLISH', ARGV[1], ARGV[2])
                 return 1",
            ),
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

/// The local subscribers of each room, and the pub/sub connection's command half while it is up.
#[derive(Default)]
struct Fanout {
    sink: Option<PubSubSink>,
    rooms: HashMap<String, broadcast::Sender<RoomEvent>>,
}

/// Rooms in Redis; cheap to share behind an `Arc`. Dropping it stops its pub/sub task.
pub struct RedisStore {
    /// Commands go through one multiplexed connection that reconnects by itself.
    commands: ConnectionManager,
    scripts: Scripts,
    fanout: Arc<Mutex<Fanout>>,
    pubsub_task: tokio::task::JoinHandle<()>,
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
        let commands = ConnectionManager::new_with_config(client.clone(), config)
            .await
            .map_err(unavailable)?;
        let (sink, stream) = client
            .get_async_pubsub()
            .await
            .map_err(unavailable)?
            .split();
        let fanout = Arc::new(Mutex::new(Fanout {
            sink: Some(sink),
            rooms: HashMap::new(),
        }));
        let pubsub_task = tokio::spawn(run_pubsub(client, stream, Arc::downgrade(&fanout)));
        Ok(RedisStore {
            commands,
            scripts: Scripts::new(),
            fanout,
            pubsub_task,
        })
    }

    /// A handle on the command connection (clones share it).
    fn conn(&self) -> ConnectionManager {
        self.commands.clone()
    }
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
            Some(fanout) => fanout.lock().await.sink = None,
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
    fanout.sink = Some(sink);
    for sender in fanout.rooms.values() {
        let _ = sender.send(RELOAD);
    }
    Ok(stream)
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
                if let Some(sink) = fanout.sink.as_mut() {
                    let _ = sink.unsubscribe(events_channel(&code)).await;
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
        let json = to_json(record)?;
        let created: i64 = self
            .scripts
            .create
            .key(room_key(code, "record"))
            .arg(json)
            .arg(millis(ttl))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
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
        let json = to_json(record)?;
        let version: u64 = self
            .scripts
            .save
            .key(room_key(code, "record"))
            .arg(expected)
            .arg(json)
            .arg(millis(ttl))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
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
            .arg(events_channel(code.as_str()))
            .arg(to_json(&RoomEvent::Deleted)?)
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    async fn publish(&self, code: &RoomCode, event: &RoomEvent) -> Result<(), StoreError> {
        let _: i64 = self
            .conn()
            .publish(events_channel(code.as_str()), to_json(event)?)
            .await
            .map_err(unavailable)?;
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
                if let Some(sink) = fanout.sink.as_mut() {
                    let channel = events_channel(code.as_str());
                    tokio::time::timeout(RESPONSE_TIMEOUT, sink.subscribe(channel))
                        .await
                        .map_err(|_| StoreError::Unavailable("redis SUBSCRIBE timed out".into()))?
                        .map_err(unavailable)?;
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
