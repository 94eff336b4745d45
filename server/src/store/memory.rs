//! The embedded default store: rooms in this process's memory, behind one mutex (every call is a
//! short map operation, never held across an await). Publish/subscribe is a tokio broadcast
//! channel per room; expiry is checked on every read and by a sweeper task that drops expired
//! rooms ([`MemoryStore::sweep`]). Room expiry is measured on the server's [`TimeSource`] (like
//! the record's deadlines); heartbeats, which only say whether an instance is alive, on tokio's
//! monotonic clock.

use super::{
    EventStream, RoomCode, RoomEvent, RoomRecord, RoomStore, Save, StoreError, Versioned,
    PRESENCE_SEATS,
};
use crate::time::TimeSource;
use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::time::Instant;
use tokio_stream::wrappers::BroadcastStream;

/// Events a slow subscriber may lag behind before it skips to "reload" (one event is enough to
/// reload, so a small buffer loses nothing that matters).
const EVENT_BUFFER: usize = 64;

#[derive(Clone)]
pub struct MemoryStore {
    /// The rooms, shared by every handle.
    inner: Arc<Mutex<Rooms>>,
    /// The time expiry deadlines are measured on (tests move it forward).
    time: TimeSource,
}

#[derive(Default)]
struct Rooms {
    rooms: HashMap<RoomCode, Room>,
    /// Event channels, by room; kept apart from `rooms` so a subscriber may wait for a room that
    /// is being created, and removed with the room.
    channels: HashMap<RoomCode, broadcast::Sender<RoomEvent>>,
    /// Each instance's heartbeat: when it lapses.
    heartbeats: HashMap<String, Instant>,
}

struct Room {
    version: u64,
    record: RoomRecord,
    /// Unix ms after which the room no longer exists.
    expires_at: u64,
    /// The instance holding the lease.
    lease: Option<String>,
    /// Connections per seat: connection id and its instance.
    presence: HashMap<u8, (String, String)>,
}

impl MemoryStore {
    pub fn new(time: TimeSource) -> MemoryStore {
        MemoryStore {
            inner: Arc::new(Mutex::new(Rooms::default())),
            time,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Rooms> {
        // A panic while holding the lock cannot leave a half-made room (every change is one map
        // operation), so a poisoned lock is still consistent.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Drops every expired room; returns how many.
    pub fn sweep(&self) -> usize {
        let now = self.time.now_ms();
        let mut rooms = self.lock();
        let expired: Vec<RoomCode> = rooms
            .rooms
            .iter()
            .filter(|(_, room)| room.expires_at <= now)
            .map(|(code, _)| code.clone())
            .collect();
        for code in &expired {
            rooms.rooms.remove(code);
            if let Some(channel) = rooms.channels.remove(code) {
                let _ = channel.send(RoomEvent::Deleted);
            }
        }
        expired.len()
    }

    /// Runs [`MemoryStore::sweep`] every `every` until the returned task is aborted.
    pub fn spawn_sweeper(&self, every: Duration) -> tokio::task::JoinHandle<()> {
        let store = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                let dropped = store.sweep();
                if dropped > 0 {
                    tracing::info!(rooms = dropped, "expired rooms deleted");
                }
            }
        })
    }

    /// Rooms held (expired ones not yet swept included).
    pub fn room_count(&self) -> usize {
        self.lock().rooms.len()
    }

    /// When the room of `code` expires (unix ms), if it is held: its time to live as last set.
    pub fn expires_at(&self, code: &RoomCode) -> Option<u64> {
        self.lock().rooms.get(code).map(|room| room.expires_at)
    }

    fn deadline(&self, ttl: Duration) -> u64 {
        self.time.now_ms().saturating_add(ttl.as_millis() as u64)
    }
}

impl Rooms {
    /// The live room of `code` (an expired one counts as absent).
    fn live(&mut self, code: &RoomCode, now: u64) -> Option<&mut Room> {
        self.rooms
            .get_mut(code)
            .filter(|room| room.expires_at > now)
    }
}

#[async_trait::async_trait]
impl RoomStore for MemoryStore {
    async fn create(
        &self,
        code: &RoomCode,
        record: &RoomRecord,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let now = self.time.now_ms();
        let expires_at = self.deadline(ttl);
        let mut rooms = self.lock();
        if rooms.live(code, now).is_some() {
            return Ok(false);
        }
        rooms.rooms.insert(
            code.clone(),
            Room {
                version: 1,
                record: record.clone(),
                expires_at,
                lease: None,
                presence: HashMap::new(),
            },
        );
        Ok(true)
    }

    async fn load(&self, code: &RoomCode) -> Result<Option<Versioned<RoomRecord>>, StoreError> {
        let now = self.time.now_ms();
        Ok(self.lock().live(code, now).map(|room| Versioned {
            version: room.version,
            value: room.record.clone(),
        }))
    }

    async fn save(
        &self,
        code: &RoomCode,
        expected: u64,
        record: &RoomRecord,
        ttl: Duration,
    ) -> Result<Save, StoreError> {
        let now = self.time.now_ms();
        let expires_at = self.deadline(ttl);
        let mut rooms = self.lock();
        match rooms.live(code, now) {
            Some(room) if room.version == expected => {
                room.version += 1;
                room.record = record.clone();
                room.expires_at = expires_at;
                Ok(Save::Saved(room.version))
            }
            _ => Ok(Save::Conflict),
        }
    }

    async fn touch(&self, code: &RoomCode, ttl: Duration) -> Result<bool, StoreError> {
        let now = self.time.now_ms();
        let expires_at = self.deadline(ttl);
        Ok(match self.lock().live(code, now) {
            Some(room) => {
                room.expires_at = expires_at;
                true
            }
            None => false,
        })
    }

    async fn delete(&self, code: &RoomCode) -> Result<(), StoreError> {
        let mut rooms = self.lock();
        rooms.rooms.remove(code);
        if let Some(channel) = rooms.channels.remove(code) {
            let _ = channel.send(RoomEvent::Deleted);
        }
        Ok(())
    }

    async fn publish(&self, code: &RoomCode, event: &RoomEvent) -> Result<(), StoreError> {
        if let Some(channel) = self.lock().channels.get(code) {
            // No receiver is not an error: nobody is watching the room.
            let _ = channel.send(event.clone());
        }
        Ok(())
    }

    async fn subscribe(&self, code: &RoomCode) -> Result<EventStream, StoreError> {
        let receiver = {
            let mut rooms = self.lock();
            rooms
                .channels
                .entry(code.clone())
                .or_insert_with(|| broadcast::channel(EVENT_BUFFER).0)
                .subscribe()
        };
        // A subscriber that lagged has missed events; any event means "reload", so it hears one.
        Ok(BroadcastStream::new(receiver)
            .map(|event| event.unwrap_or(RoomEvent::Changed { version: 0 }))
            .boxed())
    }

    async fn heartbeat(&self, instance: &str, ttl: Duration) -> Result<Vec<String>, StoreError> {
        let now = Instant::now();
        let mut rooms = self.lock();
        rooms.heartbeats.insert(instance.to_string(), now + ttl);
        rooms.heartbeats.retain(|_, lapses| *lapses > now);
        let mut live: Vec<String> = rooms.heartbeats.keys().cloned().collect();
        live.sort_unstable();
        Ok(live)
    }

    async fn end_heartbeat(&self, instance: &str) -> Result<(), StoreError> {
        self.lock().heartbeats.remove(instance);
        Ok(())
    }

    async fn acquire_lease(
        &self,
        code: &RoomCode,
        owner: &str,
        live: &[String],
    ) -> Result<bool, StoreError> {
        let now = self.time.now_ms();
        let mut rooms = self.lock();
        let Some(room) = rooms.live(code, now) else {
            return Ok(false);
        };
        match &room.lease {
            Some(holder) if holder != owner && live.contains(holder) => Ok(false),
            _ => {
                room.lease = Some(owner.to_string());
                Ok(true)
            }
        }
    }

    async fn release_lease(&self, code: &RoomCode, owner: &str) -> Result<(), StoreError> {
        let now = self.time.now_ms();
        if let Some(room) = self.lock().live(code, now) {
            if room.lease.as_deref() == Some(owner) {
                room.lease = None;
            }
        }
        Ok(())
    }

    async fn set_presence(
        &self,
        code: &RoomCode,
        seat: u8,
        conn: &str,
        instance: &str,
    ) -> Result<(), StoreError> {
        let now = self.time.now_ms();
        if seat >= PRESENCE_SEATS {
            return Ok(());
        }
        if let Some(room) = self.lock().live(code, now) {
            room.presence
                .insert(seat, (conn.to_string(), instance.to_string()));
        }
        Ok(())
    }

    async fn clear_presence(
        &self,
        code: &RoomCode,
        seat: u8,
        conn: &str,
    ) -> Result<(), StoreError> {
        let now = self.time.now_ms();
        if let Some(room) = self.lock().live(code, now) {
            if room
                .presence
                .get(&seat)
                .is_some_and(|(owner, _)| owner == conn)
            {
                room.presence.remove(&seat);
            }
        }
        Ok(())
    }

    async fn present_seats(&self, code: &RoomCode, live: &[String]) -> Result<Vec<u8>, StoreError> {
        let now = self.time.now_ms();
        let mut seats: Vec<u8> = match self.lock().live(code, now) {
            Some(room) => room
                .presence
                .iter()
                .filter(|(_, (_, instance))| live.contains(instance))
                .map(|(&seat, _)| seat)
                .collect(),
            None => Vec::new(),
        };
        seats.sort_unstable();
        Ok(seats)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lobby;
    use crate::store::{GameChoice, Save};

    fn record(code: &RoomCode, now: u64) -> RoomRecord {
        let game = GameChoice {
            kind: "turkish".into(),
            players: 2,
            long_jump: false,
        };
        lobby::new_room(code.clone(), game, None, "Ana".into(), "h".into(), now)
            .unwrap()
            .0
    }

    #[tokio::test]
    async fn compare_and_set_lease_presence_expiry() {
        let time = TimeSource::new();
        let store = MemoryStore::new(time.clone());
        let code = lobby::new_code();
        let room = record(&code, time.now_ms());
        let ttl = Duration::from_secs(60);
        assert!(store.create(&code, &room, ttl).await.unwrap());
        assert!(
            !store.create(&code, &room, ttl).await.unwrap(),
            "code taken"
        );
        let loaded = store.load(&code).await.unwrap().unwrap();
        assert_eq!(loaded.version, 1);
        let mut changed = room.clone();
        changed.started = true;
        assert_eq!(
            store.save(&code, 1, &changed, ttl).await.unwrap(),
            Save::Saved(2)
        );
        assert_eq!(
            store.save(&code, 1, &room, ttl).await.unwrap(),
            Save::Conflict
        );
        assert_eq!(store.load(&code).await.unwrap().unwrap().value, changed);

        let live = store.heartbeat("a", ttl).await.unwrap();
        assert_eq!(live, ["a"]);
        assert!(store.acquire_lease(&code, "a", &live).await.unwrap());
        let live = store.heartbeat("b", ttl).await.unwrap();
        assert_eq!(live, ["a", "b"]);
        assert!(!store.acquire_lease(&code, "b", &live).await.unwrap());
        assert!(
            store.acquire_lease(&code, "a", &live).await.unwrap(),
            "kept"
        );
        store.release_lease(&code, "b").await.unwrap();
        assert!(!store.acquire_lease(&code, "b", &live).await.unwrap());
        store.release_lease(&code, "a").await.unwrap();
        assert!(store.acquire_lease(&code, "b", &live).await.unwrap());
        store.end_heartbeat("b").await.unwrap();
        let live = store.heartbeat("a", ttl).await.unwrap();
        assert!(
            store.acquire_lease(&code, "a", &live).await.unwrap(),
            "b left"
        );

        store.set_presence(&code, 1, "c1", "a").await.unwrap();
        store.set_presence(&code, 0, "c0", "a").await.unwrap();
        store.set_presence(&code, 2, "c2", "b").await.unwrap();
        assert_eq!(store.present_seats(&code, &live).await.unwrap(), [0, 1]);
        store.clear_presence(&code, 1, "other").await.unwrap();
        assert_eq!(store.present_seats(&code, &live).await.unwrap(), [0, 1]);
        store.clear_presence(&code, 1, "c1").await.unwrap();
        assert_eq!(store.present_seats(&code, &live).await.unwrap(), [0]);

        let mut events = store.subscribe(&code).await.unwrap();
        store
            .publish(&code, &RoomEvent::Changed { version: 2 })
            .await
            .unwrap();
        assert_eq!(events.next().await, Some(RoomEvent::Changed { version: 2 }));

        time.advance(Duration::from_secs(61));
        assert!(store.load(&code).await.unwrap().is_none(), "expired");
        assert_eq!(
            store.save(&code, 2, &changed, ttl).await.unwrap(),
            Save::Conflict
        );
        assert_eq!(store.sweep(), 1);
        assert_eq!(events.next().await, Some(RoomEvent::Deleted));
        assert_eq!(store.room_count(), 0);
    }
}
