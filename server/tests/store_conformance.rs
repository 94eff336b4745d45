//! The room store contract, run with the same test bodies against every backend: the in-memory
//! store, the Redis store on a real `redis-server`, and the Redis store on a real Redis Cluster of
//! 3 masters and 3 replicas (both started here; see `redis_server` and `redis_cluster`). Each
//! backend is seen through two handles, "instance A" and "instance B", sharing the same rooms (two
//! clones of one memory store; two Redis connections), so cross-instance behaviour is tested too.
//! The Redis-only tests at the end look inside Redis: key names and slots, TTLs, the pub/sub
//! connection's recovery, and an unreachable Redis.

use crate::redis_cluster;
use crate::redis_server;

use damas_server::store::memory::MemoryStore;
use damas_server::store::redis::RedisStore;
use damas_server::store::{
    GameChoice, RoomCode, RoomEvent, RoomRecord, RoomStore, Save, SeatRecord, StoreError,
    RECORD_FORMAT,
};
use damas_server::time::TimeSource;
use futures_util::StreamExt;
use redis_cluster::RedisCluster;
use redis_server::RedisServer;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Longest wait for an event that should come.
const EVENT_WAIT: Duration = Duration::from_secs(5);

struct Backend {
    a: Arc<dyn RoomStore>,
    b: Arc<dyn RoomStore>,
    /// Memory: the store's server time, moved by hand. Redis: `None`.
    time: Option<TimeSource>,
    _redis: Option<RedisServer>,
    _cluster: Option<Arc<RedisCluster>>,
}

impl Backend {
    fn memory() -> Backend {
        let time = TimeSource::new();
        let store = MemoryStore::new(time.clone());
        Backend {
            a: Arc::new(store.clone()),
            b: Arc::new(store),
            time: Some(time),
            _redis: None,
            _cluster: None,
        }
    }

    async fn redis() -> Option<Backend> {
        let server = RedisServer::start()?;
        let a = RedisStore::connect(&server.url())
            .await
            .expect("instance A connects");
        let b = RedisStore::connect(&server.url())
            .await
            .expect("instance B connects");
        Some(Backend {
            a: Arc::new(a),
            b: Arc::new(b),
            time: None,
            _redis: Some(server),
            _cluster: None,
        })
    }

    /// Two instances on one shared Cluster (each contract test uses rooms of its own).
    async fn cluster(cluster: &Arc<RedisCluster>) -> Backend {
        let a = RedisStore::connect_cluster(&cluster.urls())
            .await
            .expect("instance A connects to the cluster");
        let b = RedisStore::connect_cluster(&cluster.urls())
            .await
            .expect("instance B connects to the cluster");
        assert!(
            a.waits_for_replica() && b.waits_for_replica(),
            "the cluster has replicas: saves wait for one"
        );
        Backend {
            a: Arc::new(a),
            b: Arc::new(b),
            time: None,
            _redis: None,
            _cluster: Some(Arc::clone(cluster)),
        }
    }

    /// Lets `by` pass for the stores. Redis: real time (TTLs are Redis's). Memory: its server
    /// time (room expiry) moves forward, and real time passes too (heartbeats are on tokio's
    /// monotonic clock).
    async fn pass(&self, by: Duration) {
        if let Some(time) = &self.time {
            time.advance(by);
        }
        tokio::time::sleep(by).await;
    }
}

/// A fresh valid room code per call (16 base64url characters).
fn fresh_code() -> RoomCode {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    RoomCode::parse(&format!("conformance{n:05}")).expect("a valid code")
}

fn record(code: &RoomCode) -> RoomRecord {
    RoomRecord {
        format: RECORD_FORMAT,
        code: code.clone(),
        game: GameChoice {
            kind: "english".to_string(),
            players: 2,
            long_jump: false,
        },
        clock: None,
        seats: vec![SeatRecord::empty(), SeatRecord::empty()],
        started: false,
        moves: Vec::new(),
        clocks: Vec::new(),
        turn_started_at: None,
        resigned: None,
        result: None,
        rematch: 0,
        seed: 7,
        created_at: 1_700_000_000_000,
        emptied_at: None,
        kind: Default::default(),
        offers: Default::default(),
        redo: Vec::new(),
    }
}

const LONG: Duration = Duration::from_secs(600);

async fn next_event(stream: &mut damas_server::store::EventStream) -> RoomEvent {
    tokio::time::timeout(EVENT_WAIT, stream.next())
        .await
        .expect("an event within 5 s")
        .expect("the stream goes on")
}

// ---- the contract -------------------------------------------------------------------------

async fn create_then_load_at_version_one(backend: Backend) {
    let code = fresh_code();
    let room = record(&code);
    assert!(backend.a.load(&code).await.unwrap().is_none());
    assert!(backend.a.create(&code, &room, LONG).await.unwrap());
    let loaded = backend
        .b
        .load(&code)
        .await
        .unwrap()
        .expect("B sees the room");
    assert_eq!(loaded.version, 1);
    assert_eq!(loaded.value, room);
}

async fn create_refuses_a_taken_code(backend: Backend) {
    let code = fresh_code();
    let first = record(&code);
    let mut second = record(&code);
    second.seed = 99;
    assert!(backend.a.create(&code, &first, LONG).await.unwrap());
    assert!(!backend.b.create(&code, &second, LONG).await.unwrap());
    assert_eq!(backend.a.load(&code).await.unwrap().unwrap().value, first);
}

async fn save_is_compare_and_set(backend: Backend) {
    let code = fresh_code();
    let mut room = record(&code);
    backend.a.create(&code, &room, LONG).await.unwrap();
    room.moves.push("11-15".to_string());
    assert_eq!(
        backend.a.save(&code, 1, &room, LONG).await.unwrap(),
        Save::Saved(2)
    );
    // B read version 1 before A's save: its save must not overwrite A's move.
    let mut stale = record(&code);
    stale.moves.push("9-13".to_string());
    assert_eq!(
        backend.b.save(&code, 1, &stale, LONG).await.unwrap(),
        Save::Conflict
    );
    let loaded = backend.b.load(&code).await.unwrap().unwrap();
    assert_eq!(
        (loaded.version, loaded.value.moves),
        (2, vec!["11-15".to_string()])
    );
    room.moves.push("22-18".to_string());
    assert_eq!(
        backend.b.save(&code, 2, &room, LONG).await.unwrap(),
        Save::Saved(3)
    );
    assert_eq!(backend.a.load(&code).await.unwrap().unwrap().value, room);
}

async fn concurrent_saves_of_one_version_let_exactly_one_win(backend: Backend) {
    let code = fresh_code();
    backend.a.create(&code, &record(&code), LONG).await.unwrap();
    let mut attempts = Vec::new();
    for n in 0..16u64 {
        let store = if n % 2 == 0 {
            backend.a.clone()
        } else {
            backend.b.clone()
        };
        let code = code.clone();
        attempts.push(tokio::spawn(async move {
            let mut room = record(&code);
            room.seed = n;
            (n, store.save(&code, 1, &room, LONG).await.unwrap())
        }));
    }
    let mut winners = Vec::new();
    for attempt in attempts {
        let (n, outcome) = attempt.await.unwrap();
        if outcome == Save::Saved(2) {
            winners.push(n);
        } else {
            assert_eq!(outcome, Save::Conflict);
        }
    }
    assert_eq!(winners.len(), 1, "exactly one save of version 1 wins");
    let loaded = backend.a.load(&code).await.unwrap().unwrap();
    assert_eq!((loaded.version, loaded.value.seed), (2, winners[0]));
}

async fn save_of_a_missing_room_conflicts(backend: Backend) {
    let code = fresh_code();
    assert_eq!(
        backend
            .a
            .save(&code, 1, &record(&code), LONG)
            .await
            .unwrap(),
        Save::Conflict
    );
    assert!(
        backend.a.load(&code).await.unwrap().is_none(),
        "a save creates no room"
    );
}

async fn rooms_expire_by_their_ttl_and_saves_extend_it(backend: Backend) {
    let short = Duration::from_millis(300);
    let (kept, dropped) = (fresh_code(), fresh_code());
    backend
        .a
        .create(&kept, &record(&kept), short)
        .await
        .unwrap();
    backend
        .a
        .create(&dropped, &record(&dropped), short)
        .await
        .unwrap();
    assert_eq!(
        backend
            .a
            .save(&kept, 1, &record(&kept), LONG)
            .await
            .unwrap(),
        Save::Saved(2)
    );
    backend.pass(Duration::from_millis(500)).await;
    assert!(
        backend.b.load(&kept).await.unwrap().is_some(),
        "the save gave it a new TTL"
    );
    assert!(backend.b.load(&dropped).await.unwrap().is_none(), "expired");
    assert_eq!(
        backend
            .b
            .save(&dropped, 1, &record(&dropped), LONG)
            .await
            .unwrap(),
        Save::Conflict
    );
    // An expired code is free again.
    assert!(backend
        .b
        .create(&dropped, &record(&dropped), LONG)
        .await
        .unwrap());
}

async fn touch_extends_the_ttl_of_a_live_room_only(backend: Backend) {
    let short = Duration::from_millis(300);
    let (touched, left) = (fresh_code(), fresh_code());
    for code in [&touched, &left] {
        backend.a.create(code, &record(code), short).await.unwrap();
    }
    assert!(backend.b.touch(&touched, LONG).await.unwrap());
    backend.pass(Duration::from_millis(500)).await;
    let loaded = backend.a.load(&touched).await.unwrap().expect("kept alive");
    assert_eq!(
        (loaded.version, loaded.value),
        (1, record(&touched)),
        "the record is as it was"
    );
    assert!(backend.a.load(&left).await.unwrap().is_none(), "expired");
    // A gone room stays gone.
    assert!(!backend.b.touch(&left, LONG).await.unwrap());
    assert!(backend.a.load(&left).await.unwrap().is_none());
    let never = fresh_code();
    assert!(!backend.a.touch(&never, LONG).await.unwrap());
    assert!(backend.a.load(&never).await.unwrap().is_none());
}

async fn delete_removes_the_room_and_tells_subscribers(backend: Backend) {
    let code = fresh_code();
    backend.a.create(&code, &record(&code), LONG).await.unwrap();
    let (a, b) = (fresh_instance(), fresh_instance());
    let live = backend.a.heartbeat(&a, LONG).await.unwrap();
    assert!(backend.a.acquire_lease(&code, &a, &live).await.unwrap());
    backend
        .a
        .set_presence(&code, 0, "conn-1", &a)
        .await
        .unwrap();
    let mut events = backend.b.subscribe(&code).await.unwrap();
    backend.a.delete(&code).await.unwrap();
    assert_eq!(next_event(&mut events).await, RoomEvent::Deleted);
    assert!(backend.b.load(&code).await.unwrap().is_none());
    assert_eq!(
        backend.b.present_seats(&code, &live).await.unwrap(),
        Vec::<u8>::new()
    );
    // The lease went with the room: a new room of the same code starts with a free lease,
    // though its former holder is live.
    backend.b.create(&code, &record(&code), LONG).await.unwrap();
    let live = backend.b.heartbeat(&b, LONG).await.unwrap();
    assert!(live.contains(&a));
    assert!(backend.b.acquire_lease(&code, &b, &live).await.unwrap());
    assert_eq!(
        backend.b.present_seats(&code, &live).await.unwrap(),
        Vec::<u8>::new(),
        "no presence left over"
    );
}

async fn events_reach_every_subscriber_of_the_room_in_order(backend: Backend) {
    let (code, other) = (fresh_code(), fresh_code());
    let mut on_a = backend.a.subscribe(&code).await.unwrap();
    let mut on_b = backend.b.subscribe(&code).await.unwrap();
    let mut on_b_too = backend.b.subscribe(&code).await.unwrap();
    let mut other_room = backend.b.subscribe(&other).await.unwrap();
    let sent = [
        RoomEvent::Changed { version: 2 },
        RoomEvent::Presence,
        RoomEvent::Changed { version: 3 },
    ];
    for (n, event) in sent.iter().enumerate() {
        // From both instances: every subscriber hears its own instance's events too.
        let publisher = if n % 2 == 0 { &backend.a } else { &backend.b };
        publisher.publish(&code, event).await.unwrap();
    }
    for stream in [&mut on_a, &mut on_b, &mut on_b_too] {
        for event in &sent {
            assert_eq!(&next_event(stream).await, event);
        }
    }
    backend
        .a
        .publish(&other, &RoomEvent::Presence)
        .await
        .unwrap();
    assert_eq!(next_event(&mut other_room).await, RoomEvent::Presence);
    assert!(
        tokio::time::timeout(Duration::from_millis(200), on_b.next())
            .await
            .is_err(),
        "another room's event is not heard here"
    );
}

async fn a_dropped_subscriber_leaves_the_others_listening(backend: Backend) {
    let code = fresh_code();
    let first = backend.b.subscribe(&code).await.unwrap();
    let mut second = backend.b.subscribe(&code).await.unwrap();
    drop(first);
    tokio::time::sleep(Duration::from_millis(50)).await;
    backend
        .a
        .publish(&code, &RoomEvent::Changed { version: 5 })
        .await
        .unwrap();
    assert_eq!(
        next_event(&mut second).await,
        RoomEvent::Changed { version: 5 }
    );
    drop(second);
    tokio::time::sleep(Duration::from_millis(50)).await;
    // Subscribing again after the last one left works as the first time.
    let mut again = backend.b.subscribe(&code).await.unwrap();
    backend
        .a
        .publish(&code, &RoomEvent::Presence)
        .await
        .unwrap();
    assert_eq!(next_event(&mut again).await, RoomEvent::Presence);
}

/// A heartbeat's time to live in these tests (real instances: seconds).
const BEAT: Duration = Duration::from_millis(1000);

/// A fresh instance name per call (the Cluster is shared by the contract tests, and so is its
/// live set).
fn fresh_instance() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("instance-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

async fn heartbeats_make_the_live_set(backend: Backend) {
    let (a, b) = (fresh_instance(), fresh_instance());
    let live = backend.a.heartbeat(&a, BEAT).await.unwrap();
    assert!(live.contains(&a) && !live.contains(&b));
    let live = backend.b.heartbeat(&b, BEAT).await.unwrap();
    assert!(live.contains(&a) && live.contains(&b), "{live:?}");
    let mut sorted = live.clone();
    sorted.sort();
    assert_eq!(live, sorted, "sorted");
    // A beats on, B stops (a crashed instance): B lapses after its TTL, A stays.
    for _ in 0..4 {
        backend.pass(Duration::from_millis(300)).await;
        let live = backend.a.heartbeat(&a, BEAT).await.unwrap();
        assert!(live.contains(&a));
    }
    let live = backend.b.heartbeat(&a, BEAT).await.unwrap();
    assert!(
        live.contains(&a) && !live.contains(&b),
        "B lapsed: {live:?}"
    );
    // A clean shutdown leaves at once.
    backend.a.end_heartbeat(&a).await.unwrap();
    let live = backend.b.heartbeat(&b, BEAT).await.unwrap();
    assert!(!live.contains(&a) && live.contains(&b), "A left: {live:?}");
}

async fn the_lease_has_one_holder_while_its_instance_is_live(backend: Backend) {
    let code = fresh_code();
    let (a, b) = (fresh_instance(), fresh_instance());
    let live = backend.a.heartbeat(&a, BEAT).await.unwrap();
    assert!(
        !backend.a.acquire_lease(&code, &a, &live).await.unwrap(),
        "no room, no lease"
    );
    backend.a.create(&code, &record(&code), LONG).await.unwrap();
    assert!(backend.a.acquire_lease(&code, &a, &live).await.unwrap());
    let live = backend.b.heartbeat(&b, BEAT).await.unwrap();
    assert!(!backend.b.acquire_lease(&code, &b, &live).await.unwrap());
    // The lease is never renewed per room: while A's heartbeat lives, well past one heartbeat
    // TTL, nobody takes it over.
    for _ in 0..4 {
        backend.pass(Duration::from_millis(300)).await;
        backend.a.heartbeat(&a, BEAT).await.unwrap();
        let live = backend.b.heartbeat(&b, BEAT).await.unwrap();
        assert!(
            !backend.b.acquire_lease(&code, &b, &live).await.unwrap(),
            "no takeover while the holder is live"
        );
    }
    let live = backend.a.heartbeat(&a, BEAT).await.unwrap();
    assert!(
        backend.a.acquire_lease(&code, &a, &live).await.unwrap(),
        "still A's"
    );
    // Only the holder can release it.
    backend.b.release_lease(&code, &b).await.unwrap();
    assert!(!backend.b.acquire_lease(&code, &b, &live).await.unwrap());
    backend.a.release_lease(&code, &a).await.unwrap();
    assert!(backend.b.acquire_lease(&code, &b, &live).await.unwrap());
    assert!(!backend.a.acquire_lease(&code, &a, &live).await.unwrap());
    // B's heartbeat lapses (it crashed): A takes the lease over.
    backend.pass(Duration::from_millis(600)).await;
    backend.a.heartbeat(&a, BEAT).await.unwrap();
    backend.pass(Duration::from_millis(600)).await;
    let live = backend.a.heartbeat(&a, BEAT).await.unwrap();
    assert!(!live.contains(&b), "B lapsed: {live:?}");
    assert!(
        backend.a.acquire_lease(&code, &a, &live).await.unwrap(),
        "taken over from a lapsed holder"
    );
    // B comes back: the lease stays A's, and B cannot take it while A is live.
    let live = backend.b.heartbeat(&b, BEAT).await.unwrap();
    assert!(!backend.b.acquire_lease(&code, &b, &live).await.unwrap());
    // A leaves cleanly: B takes the lease at once.
    backend.a.end_heartbeat(&a).await.unwrap();
    let live = backend.b.heartbeat(&b, BEAT).await.unwrap();
    assert!(backend.b.acquire_lease(&code, &b, &live).await.unwrap());
}

async fn presence_counts_connections_of_live_instances_only(backend: Backend) {
    let code = fresh_code();
    let (a, b) = (fresh_instance(), fresh_instance());
    backend.a.create(&code, &record(&code), LONG).await.unwrap();
    backend.a.heartbeat(&a, BEAT).await.unwrap();
    let live = backend.b.heartbeat(&b, BEAT).await.unwrap();
    assert_eq!(
        backend.a.present_seats(&code, &live).await.unwrap(),
        Vec::<u8>::new()
    );
    backend
        .a
        .set_presence(&code, 1, "conn-1", &a)
        .await
        .unwrap();
    backend
        .b
        .set_presence(&code, 0, "conn-0", &b)
        .await
        .unwrap();
    assert_eq!(
        backend.a.present_seats(&code, &live).await.unwrap(),
        vec![0, 1]
    );
    // Another connection's clear leaves the entry alone.
    backend.a.clear_presence(&code, 1, "conn-0").await.unwrap();
    assert_eq!(
        backend.b.present_seats(&code, &live).await.unwrap(),
        vec![0, 1]
    );
    backend.a.clear_presence(&code, 1, "conn-1").await.unwrap();
    assert_eq!(
        backend.b.present_seats(&code, &live).await.unwrap(),
        vec![0]
    );
    // A reconnection takes the seat's entry: the old connection's late clear changes nothing.
    backend
        .a
        .set_presence(&code, 0, "conn-0-again", &a)
        .await
        .unwrap();
    backend.b.clear_presence(&code, 0, "conn-0").await.unwrap();
    assert_eq!(
        backend.b.present_seats(&code, &live).await.unwrap(),
        vec![0]
    );
    // Entries are written once, not renewed: they count while their instance is live …
    backend
        .b
        .set_presence(&code, 2, "conn-2", &b)
        .await
        .unwrap();
    for _ in 0..4 {
        backend.pass(Duration::from_millis(300)).await;
        backend.a.heartbeat(&a, BEAT).await.unwrap();
        let live = backend.b.heartbeat(&b, BEAT).await.unwrap();
        assert_eq!(
            backend.a.present_seats(&code, &live).await.unwrap(),
            vec![0, 2]
        );
    }
    // … and not once it lapsed (B died with its sockets).
    backend.pass(Duration::from_millis(600)).await;
    backend.a.heartbeat(&a, BEAT).await.unwrap();
    backend.pass(Duration::from_millis(600)).await;
    let live = backend.a.heartbeat(&a, BEAT).await.unwrap();
    assert_eq!(
        backend.a.present_seats(&code, &live).await.unwrap(),
        vec![0],
        "a dead instance's connections do not count"
    );
    // A seat taken again through a live instance counts again.
    backend
        .a
        .set_presence(&code, 2, "conn-2-again", &a)
        .await
        .unwrap();
    assert_eq!(
        backend.b.present_seats(&code, &live).await.unwrap(),
        vec![0, 2]
    );
}

async fn presence_of_a_missing_room_is_empty(backend: Backend) {
    let code = fresh_code();
    let a = fresh_instance();
    let live = backend.a.heartbeat(&a, LONG).await.unwrap();
    backend.a.set_presence(&code, 0, "conn", &a).await.unwrap();
    assert_eq!(
        backend.a.present_seats(&code, &live).await.unwrap(),
        Vec::<u8>::new()
    );
    assert!(
        backend.a.load(&code).await.unwrap().is_none(),
        "presence creates no room"
    );
}

async fn ping_answers(backend: Backend) {
    backend.a.ping().await.unwrap();
    backend.b.ping().await.unwrap();
}

/// One `#[tokio::test]` per contract test and backend: `on_memory::NAME` and `on_redis::NAME`;
/// on the Cluster, one test runs them all in turn on one cluster (a cluster takes seconds to
/// form), saying which one it runs.
macro_rules! conformance {
    ($($name:ident),* $(,)?) => {
        mod on_memory {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name(super::Backend::memory()).await;
                }
            )*
        }
        mod on_redis {
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(backend) = super::Backend::redis().await else { return };
                    super::$name(backend).await;
                }
            )*
        }
        mod on_redis_cluster {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn every_contract_test() {
                let Some(cluster) = super::RedisCluster::start() else { return };
                let cluster = std::sync::Arc::new(cluster);
                $(
                    eprintln!("on the cluster: {}", stringify!($name));
                    super::$name(super::Backend::cluster(&cluster).await).await;
                )*
            }
        }
    };
}

conformance!(
    create_then_load_at_version_one,
    create_refuses_a_taken_code,
    save_is_compare_and_set,
    concurrent_saves_of_one_version_let_exactly_one_win,
    save_of_a_missing_room_conflicts,
    rooms_expire_by_their_ttl_and_saves_extend_it,
    touch_extends_the_ttl_of_a_live_room_only,
    delete_removes_the_room_and_tells_subscribers,
    events_reach_every_subscriber_of_the_room_in_order,
    a_dropped_subscriber_leaves_the_others_listening,
    heartbeats_make_the_live_set,
    the_lease_has_one_holder_while_its_instance_is_live,
    presence_counts_connections_of_live_instances_only,
    presence_of_a_missing_room_is_empty,
    ping_answers,
);

// ---- Redis only: what the store leaves in Redis ---------------------------------------------

/// The hash tag of a key: the part Redis Cluster hashes (between the first `{` and the next `}`).
fn hash_tag(key: &str) -> Option<&str> {
    let open = key.find('{')?;
    let close = open + 1 + key[open + 1..].find('}')?;
    (close > open + 1).then(|| &key[open + 1..close])
}

#[tokio::test]
async fn redis_keys_of_a_room_share_its_hash_slot_and_expire() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let store = RedisStore::connect(&server.url()).await.unwrap();
    let code = fresh_code();
    let ttl = Duration::from_secs(90);
    store.create(&code, &record(&code), ttl).await.unwrap();
    let live = store.heartbeat("a", Duration::from_secs(5)).await.unwrap();
    assert!(store.acquire_lease(&code, "a", &live).await.unwrap());
    store.set_presence(&code, 0, "conn", "a").await.unwrap();
    let mut redis = server.connection();
    let mut keys: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut redis).unwrap();
    keys.sort();
    let tagged = |part: &str| format!("damas:{{{code}}}:{part}");
    // One key per room (lease and presence are fields of the record: they expire with it), and
    // one live set for every room.
    assert_eq!(keys, vec!["damas:instances".to_string(), tagged("record")]);
    assert_eq!(hash_tag(&tagged("record")), Some(code.as_str()));
    let (lease, seat): (String, String) = redis::cmd("HMGET")
        .arg(tagged("record"))
        .arg("lease")
        .arg("seat:0")
        .query(&mut redis)
        .unwrap();
    assert_eq!((lease.as_str(), seat.as_str()), ("a", "conn a"));
    let record_ttl: i64 = redis::cmd("PTTL")
        .arg(tagged("record"))
        .query(&mut redis)
        .unwrap();
    assert!(
        record_ttl > 80_000 && record_ttl <= 90_000,
        "record TTL {record_ttl} ms"
    );
    let beat: f64 = redis::cmd("ZSCORE")
        .arg("damas:instances")
        .arg("a")
        .query(&mut redis)
        .unwrap();
    let (secs, micros): (u64, u64) = redis::cmd("TIME").query(&mut redis).unwrap();
    let now_ms = (secs * 1000 + micros / 1000) as f64;
    assert!(
        beat > now_ms && beat <= now_ms + 5_000.0,
        "the heartbeat lapses 5 s after it was written (score {beat}, now {now_ms})"
    );
}

#[tokio::test]
async fn redis_record_is_json_with_its_version() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let store = RedisStore::connect(&server.url()).await.unwrap();
    let code = fresh_code();
    let mut room = record(&code);
    store.create(&code, &room, LONG).await.unwrap();
    room.moves.push("11-15".to_string());
    store.save(&code, 1, &room, LONG).await.unwrap();
    let mut redis = server.connection();
    let key = format!("damas:{{{code}}}:record");
    let (version, json): (u64, String) = redis::cmd("HMGET")
        .arg(&key)
        .arg("version")
        .arg("record")
        .query(&mut redis)
        .unwrap();
    assert_eq!(version, 2);
    let stored: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(stored["moves"], serde_json::json!(["11-15"]));
    // A record that does not read back is reported, not unwrapped.
    let _: () = redis::cmd("HSET")
        .arg(&key)
        .arg("record")
        .arg("{not json")
        .query(&mut redis)
        .unwrap();
    assert!(matches!(
        store.load(&code).await,
        Err(StoreError::Corrupt(_))
    ));
}

#[tokio::test]
async fn redis_pubsub_listens_once_per_room_and_stops_with_the_last_subscriber() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let store = RedisStore::connect(&server.url()).await.unwrap();
    let code = fresh_code();
    let channel = format!("damas:{{{code}}}:events");
    let mut redis = server.connection();
    let mut subscribers = || -> i64 {
        let counts: Vec<(String, i64)> = redis::cmd("PUBSUB")
            .arg("NUMSUB")
            .arg(&channel)
            .query(&mut redis)
            .unwrap();
        counts[0].1
    };
    let first = store.subscribe(&code).await.unwrap();
    let second = store.subscribe(&code).await.unwrap();
    assert_eq!(subscribers(), 1, "one Redis subscription for the instance");
    drop(first);
    drop(second);
    let mut waited = Duration::ZERO;
    while subscribers() != 0 {
        assert!(
            waited < EVENT_WAIT,
            "the channel is unsubscribed after the last subscriber"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
        waited += Duration::from_millis(20);
    }
}

#[tokio::test]
async fn redis_pubsub_recovers_a_lost_connection_and_says_reload() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let store = RedisStore::connect(&server.url()).await.unwrap();
    let code = fresh_code();
    let mut events = store.subscribe(&code).await.unwrap();
    let mut redis = server.connection();
    let killed: i64 = redis::cmd("CLIENT")
        .arg("KILL")
        .arg("TYPE")
        .arg("pubsub")
        .query(&mut redis)
        .unwrap();
    assert_eq!(killed, 1);
    // Events published while the instance was not listening are lost: it is told to reload.
    assert_eq!(
        next_event(&mut events).await,
        RoomEvent::Changed { version: 0 }
    );
    store
        .publish(&code, &RoomEvent::Changed { version: 9 })
        .await
        .unwrap();
    assert_eq!(
        next_event(&mut events).await,
        RoomEvent::Changed { version: 9 }
    );
}

#[tokio::test]
async fn redis_unreachable_is_an_error_not_a_panic() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let url = server.url();
    let store = RedisStore::connect(&url).await.unwrap();
    let code = fresh_code();
    drop(server);
    assert!(matches!(
        store.ping().await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(
        store.load(&code).await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(
        store.save(&code, 1, &record(&code), LONG).await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(
        RedisStore::connect(&url).await.is_err(),
        "no store without a Redis"
    );
}

#[tokio::test]
async fn redis_restart_is_survived_by_commands_and_events() {
    let Some(mut redis) =
        redis_server::PersistentRedis::start(&["--appendonly", "yes", "--appendfsync", "always"])
    else {
        return;
    };
    let store = RedisStore::connect(&redis.url()).await.unwrap();
    let code = fresh_code();
    store.create(&code, &record(&code), LONG).await.unwrap();
    let mut events = store.subscribe(&code).await.unwrap();
    redis.kill();
    assert!(matches!(
        store.load(&code).await,
        Err(StoreError::Unavailable(_))
    ));
    redis.restart();
    // The instance listens again and says "reload"; the room is back from the AOF.
    assert_eq!(
        next_event(&mut events).await,
        RoomEvent::Changed { version: 0 }
    );
    assert_eq!(store.load(&code).await.unwrap().unwrap().version, 1);
    store
        .publish(&code, &RoomEvent::Changed { version: 9 })
        .await
        .unwrap();
    assert_eq!(
        next_event(&mut events).await,
        RoomEvent::Changed { version: 9 }
    );
}
