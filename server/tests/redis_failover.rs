//! Many instances, one Redis: two real `damas-server` processes (the built binary, `--redis`)
//! share a real `redis-server` (see `redis_server`), with players on different instances. Then
//! the instance holding the room's lease is killed with SIGKILL mid-game: the clients reconnect to
//! the survivor, which takes the lease and runs the room's timers (the CPU's moves, the takeover of
//! a dropped seat, clock flags), and the final move list is exactly every move that was ever
//! acknowledged. The same runs on a real Redis Cluster (3 masters, 3 replicas; see
//! `redis_cluster`).
//!
//! Then Redis itself fails mid-game: a Cluster master holding the room is killed with SIGKILL
//! (its replica takes over; moves acknowledged before were confirmed by that replica), and a
//! single Redis with AOF (`appendfsync always`) is killed and started again. Either way the game
//! resumes through both instances and no acknowledged move is lost.

use crate::common;
use crate::redis_cluster;
use crate::redis_server;
use crate::server_process;

use common::{is_over, pick_move, ply, to_move, wait_until, Client};
use redis_cluster::RedisCluster;
use redis_server::{PersistentRedis, RedisServer};
use serde_json::{json, Value};
use server_process::Instance;
use std::time::{Duration, Instant};

/// Seconds a dropped seat waits before the CPU plays it (the real 45 s, shortened).
const TAKEOVER_SECS: u64 = 2;

/// The Redis the instances share.
enum Shared {
    Node(RedisServer),
    Cluster(RedisCluster),
}

impl Shared {
    /// The `damas-server` arguments that name it.
    fn store_args(&self) -> Vec<String> {
        match self {
            Shared::Node(server) => vec!["--redis".into(), server.url()],
            Shared::Cluster(cluster) => vec!["--redis-cluster".into(), cluster.urls_arg()],
        }
    }

    /// A blocking connection for the test to look inside.
    fn peek(&self) -> Box<dyn redis::ConnectionLike> {
        match self {
            Shared::Node(server) => Box::new(server.connection()),
            Shared::Cluster(cluster) => Box::new(cluster.connection()),
        }
    }
}

/// A `damas-server` on the shared Redis. Its rate limit is raised: the players here answer the
/// CPU the instant its move arrives, faster than a person (the limit has its own tests).
fn instance(store_args: &[String]) -> Instance {
    let mut args = store_args.to_vec();
    args.extend(["--takeover-secs".to_string(), TAKEOVER_SECS.to_string()]);
    args.extend(["--message-rate", "100000", "--message-burst", "100000"].map(String::from));
    Instance::start(&args)
}

fn lease_owner(redis: &mut dyn redis::ConnectionLike, code: &str) -> Option<String> {
    redis::cmd("HGET")
        .arg(format!("damas:{{{code}}}:record"))
        .arg("lease")
        .query(redis)
        .expect("HGET lease")
}

/// Waits until `owner` holds the room's lease.
async fn wait_for_lease(
    redis: &mut dyn redis::ConnectionLike,
    code: &str,
    owner: &str,
    within: Duration,
) {
    wait_until(&format!("{owner} takes the lease"), within, async || {
        lease_owner(redis, code).as_deref() == Some(owner)
    })
    .await;
}

fn history(room: &Value) -> Vec<String> {
    room["view"]["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|entry| {
            entry["move"]["move"]
                .as_str()
                .expect("move text")
                .to_string()
        })
        .collect()
}

/// Every move list any client was shown: each one was acknowledged, so each must be a prefix
/// of the final list.
#[derive(Default)]
struct Acknowledged {
    lists: Vec<Vec<String>>,
}

impl Acknowledged {
    fn saw(&mut self, room: &Value) {
        self.lists.push(history(room));
    }

    fn check_final(&self, last: &[String]) {
        for list in &self.lists {
            assert!(
                last.starts_with(list),
                "an acknowledged move list {list:?} is not part of the final one {last:?}"
            );
        }
    }
}

/// The client of the seat to move plays a legal move; waits until `watchers` see it.
async fn play_one(
    mover: &mut Client,
    watchers: &mut [&mut Client],
    seed: &mut u64,
    acknowledged: &mut Acknowledged,
) -> Value {
    let room = mover.room().clone();
    let target = ply(&room);
    let text = pick_move(&room, seed);
    mover.play(&text, target).await;
    let room = mover
        .state_where(|s| ply(&s["room"]) > target || is_over(&s["room"]))
        .await;
    assert_eq!(
        history(&room)[target as usize],
        text,
        "the move acknowledged is the move sent"
    );
    acknowledged.saw(&room);
    for watcher in watchers.iter_mut() {
        let seen = watcher
            .state_where(|s| ply(&s["room"]) > target || is_over(&s["room"]))
            .await;
        acknowledged.saw(&seen);
    }
    room
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_one_room_survive_a_kill_of_the_lease_holder() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    two_instances_survive_a_kill_of_the_lease_holder(Shared::Node(redis)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_one_room_on_a_cluster_survive_a_kill_of_the_lease_holder() {
    let Some(cluster) = RedisCluster::start() else {
        return;
    };
    two_instances_survive_a_kill_of_the_lease_holder(Shared::Cluster(cluster)).await;
}

async fn two_instances_survive_a_kill_of_the_lease_holder(redis: Shared) {
    let mut peek = redis.peek();
    let mut first = instance(&redis.store_args());
    let second = instance(&redis.store_args());

    // Ana opens the room on the first instance, Bea joins on the second.
    let mut ana = Client::connect(first.addr).await;
    let ana_seat = ana.create("english", 2, json!("none")).await;
    let code = ana.code.clone().expect("code");
    let ana_token = ana.token.clone().expect("token");
    let mut bea = Client::connect(second.addr).await;
    let bea_seat = bea.join(&code, "Bea").await;
    assert_eq!(bea_seat, 1 - ana_seat);
    for client in [&mut ana, &mut bea] {
        client.state_where(|s| s["room"]["started"] == true).await;
    }
    // The room's hub on the creator's instance took the lease first.
    wait_for_lease(&mut *peek, &code, &first.name, Duration::from_secs(10)).await;

    // Ten plies, each player on their own instance; each move reaches the other instance.
    let mut seed = 11;
    let mut acknowledged = Acknowledged::default();
    for _ in 0..10 {
        let room = ana.state_where(|_| true).await;
        if to_move(&room) == ana_seat {
            play_one(&mut ana, &mut [&mut bea], &mut seed, &mut acknowledged).await;
        } else {
            bea.state_where(|s| ply(&s["room"]) == ply(&room)).await;
            play_one(&mut bea, &mut [&mut ana], &mut seed, &mut acknowledged).await;
        }
    }
    let before_kill = bea.room().clone();
    assert!(!is_over(&before_kill));

    // The lease holder dies. Ana's socket goes with it.
    first.kill();
    let killed_at = Instant::now();
    assert!(
        ana.next().await.is_none(),
        "the killed instance's socket is closed"
    );
    let mut ana = Client::connect(second.addr).await;
    assert_eq!(ana.resume(&code, &ana_token).await, ana_seat);
    let room = ana.state_where(|_| true).await;
    assert_eq!(
        history(&room),
        history(&before_kill),
        "no acknowledged move lost"
    );
    // The survivor takes the lease once the dead holder's heartbeat lapses (5 s TTL, 1 s beats).
    wait_for_lease(&mut *peek, &code, &second.name, Duration::from_secs(15)).await;
    eprintln!(
        "the survivor took the lease {:.1} s after the kill",
        killed_at.elapsed().as_secs_f64()
    );

    // The game goes on on the survivor.
    for _ in 0..6 {
        let room = ana.state_where(|_| true).await;
        if is_over(&room) {
            break;
        }
        if to_move(&room) == ana_seat {
            play_one(&mut ana, &mut [&mut bea], &mut seed, &mut acknowledged).await;
        } else {
            bea.state_where(|s| ply(&s["room"]) == ply(&room)).await;
            play_one(&mut bea, &mut [&mut ana], &mut seed, &mut acknowledged).await;
        }
    }

    // Bea drops: the survivor's timers give her seat to the CPU after the takeover delay, and
    // the CPU answers Ana's moves from then on.
    bea.close().await;
    let dropped_at = Instant::now();
    let mut cpu_moves = 0;
    let mut room = ana.state_where(|_| true).await;
    while !is_over(&room) && ply(&room) < 200 {
        if to_move(&room) == ana_seat {
            room = play_one(&mut ana, &mut [], &mut seed, &mut acknowledged).await;
        } else {
            let target = ply(&room);
            room = ana
                .state_where(|s| ply(&s["room"]) > target || is_over(&s["room"]))
                .await;
            acknowledged.saw(&room);
            let entry = &room["view"]["history"][target as usize];
            assert_eq!(entry["seat"], bea_seat);
            assert_eq!(room["seats"][bea_seat as usize]["cpu_playing"], true);
            if cpu_moves == 0 {
                assert!(
                    dropped_at.elapsed() >= Duration::from_secs(TAKEOVER_SECS),
                    "the CPU waited for the takeover delay"
                );
            }
            cpu_moves += 1;
        }
    }
    assert!(
        cpu_moves >= 3,
        "the CPU played Bea's seat on the survivor ({cpu_moves} moves)"
    );
    if !is_over(&room) {
        ana.send(json!({"v":1,"type":"resign"})).await;
        room = ana.state_where(|s| is_over(&s["room"])).await;
    }

    // What Redis holds is the final word: every acknowledged move, in order, nothing else.
    let stored: String = redis::cmd("HGET")
        .arg(format!("damas:{{{code}}}:record"))
        .arg("record")
        .query(&mut *peek)
        .expect("the record");
    let stored: Value = serde_json::from_str(&stored).expect("JSON record");
    let stored_moves: Vec<String> = serde_json::from_value(stored["moves"].clone()).unwrap();
    assert_eq!(stored_moves, history(&room));
    acknowledged.check_final(&stored_moves);
    assert!(stored_moves.len() > 16, "{} moves", stored_moves.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_runs_out_on_the_survivor_after_the_lease_holder_dies() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let redis = Shared::Node(redis);
    let mut peek = redis.peek();
    let mut first = instance(&redis.store_args());
    let second = instance(&redis.store_args());

    let mut ana = Client::connect(first.addr).await;
    // Shorter than the survivor needs to see Ana gone (her instance's heartbeat lapses 5 s after
    // the kill) plus the takeover delay: her clock, not the CPU standing in, ends her turn.
    let clock = json!({"main_ms": 6_000, "periods": 0, "period_ms": 0});
    let ana_seat = ana.create("english", 2, clock).await;
    let code = ana.code.clone().expect("code");
    let mut bea = Client::connect(second.addr).await;
    let bea_seat = bea.join(&code, "Bea").await;
    let room = bea.state_where(|s| s["room"]["started"] == true).await;
    let mut seed = 5;
    let mut acknowledged = Acknowledged::default();
    if to_move(&room) == bea_seat {
        play_one(&mut bea, &mut [&mut ana], &mut seed, &mut acknowledged).await;
    }
    let room = bea.state_where(|s| to_move(&s["room"]) == ana_seat).await;
    assert_eq!(room["clock"]["running"], ana_seat);
    let flag_at = room["clock"]["flag_at"].as_u64().expect("Ana's flag time");
    wait_for_lease(&mut *peek, &code, &first.name, Duration::from_secs(10)).await;

    // Ana's instance, the lease holder, dies with Ana's clock running; Ana never comes back.
    first.kill();
    let room = bea.state_where(|s| is_over(&s["room"])).await;
    assert_eq!(room["result"]["reason"], "time");
    assert_eq!(room["result"]["flagged"], ana_seat);
    assert_eq!(room["result"]["winner"], bea_seat);
    assert_eq!(room["clock"]["seats"][ana_seat as usize]["main_ms"], 0);
    assert!(
        room["now"].as_u64().unwrap() >= flag_at,
        "no flag before the deadline"
    );
    assert_eq!(
        lease_owner(&mut *peek, &code).as_deref(),
        Some(second.name.as_str())
    );
    acknowledged.check_final(&history(&room));
}

/// A room whose only instance dies with both players in it is not kept for the rest of its
/// 24 h: what Redis holds expires within 30 min, like a room everyone left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_orphaned_by_a_crash_expires_within_thirty_minutes() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let redis = Shared::Node(redis);
    let mut peek = redis.peek();
    let mut only = instance(&redis.store_args());
    let mut ana = Client::connect(only.addr).await;
    ana.create("turkish", 2, json!("none")).await;
    let code = ana.code.clone().expect("code");
    let mut bea = Client::connect(only.addr).await;
    bea.join(&code, "Bea").await;
    bea.state_where(|s| s["room"]["started"] == true).await;
    wait_for_lease(&mut *peek, &code, &only.name, Duration::from_secs(10)).await;

    only.kill();
    let ttl_ms: i64 = redis::cmd("PTTL")
        .arg(format!("damas:{{{code}}}:record"))
        .query(&mut *peek)
        .expect("PTTL");
    let thirty_minutes = damas_server::store::EMPTY_ROOM_MS as i64;
    assert!(
        ttl_ms > 0 && ttl_ms <= thirty_minutes,
        "the orphaned room lives {ttl_ms} ms more (at most {thirty_minutes})"
    );
}

/// How long a move may go unaccepted while Redis fails over or restarts.
const OUTAGE: Duration = Duration::from_secs(40);

/// Like `play_one`, through a Redis outage: a move answered `unavailable` (or `busy`) is sent
/// again (at the poll cadence of `wait_until`) until a state shows it played. A `stale_ply` answer means an earlier
/// attempt was stored after all: the state that follows must show it.
async fn play_through_outage(
    mover: &mut Client,
    watchers: &mut [&mut Client],
    seed: &mut u64,
    acknowledged: &mut Acknowledged,
) -> Value {
    let room = mover.room().clone();
    let target = ply(&room);
    let text = pick_move(&room, seed);
    wait_until(&format!("move {text} is accepted"), OUTAGE, async || {
        mover.play(&text, target).await;
        let refused = loop {
            let message = mover.next().await.expect("the socket stays open");
            match message["type"].as_str() {
                Some("state") if ply(&message["room"]) > target || is_over(&message["room"]) => {
                    break None
                }
                // A late answer to an attempt at an earlier ply (stored after all, its retry
                // refused after the state that showed it) is not this attempt's answer.
                Some("error")
                    if message["code"] == "stale_ply"
                        && !message["message"]
                            .as_str()
                            .unwrap_or_default()
                            .contains(&format!("for ply {target},")) => {}
                Some("error") => break message["code"].as_str().map(str::to_string),
                _ => {}
            }
        };
        match refused.as_deref() {
            None | Some("stale_ply") => true,
            Some("unavailable" | "busy") => false,
            Some(code) => panic!("move {text} refused: {code}"),
        }
    })
    .await;
    // Answers to attempts still in flight may follow: refusals of a move already played.
    let room = loop {
        if mover
            .state
            .as_ref()
            .is_some_and(|s| ply(&s["room"]) > target || is_over(&s["room"]))
        {
            break mover.room().clone();
        }
        let message = mover.next().await.expect("the socket stays open");
        if message["type"] == "error" {
            let code = message["code"].as_str().unwrap_or_default();
            assert!(
                matches!(code, "stale_ply" | "unavailable" | "busy"),
                "move {text}: {message}"
            );
        }
    };
    assert_eq!(
        history(&room)[target as usize],
        text,
        "the move acknowledged is the move sent"
    );
    acknowledged.saw(&room);
    for watcher in watchers.iter_mut() {
        let seen =
            state_through_outage(watcher, |s| ply(&s["room"]) > target || is_over(&s["room"]))
                .await;
        acknowledged.saw(&seen);
    }
    room
}

/// Waits for a state satisfying `accept`, passing over late answers to the client's own earlier
/// attempts: through an outage an attempt may be stored while its answer says `unavailable`, and
/// the answer to its retry (`stale_ply`) can then arrive after the state that shows the move.
/// Any other error fails the test.
async fn state_through_outage(
    client: &mut Client,
    mut accept: impl FnMut(&Value) -> bool,
) -> Value {
    if let Some(state) = &client.state {
        if accept(state) {
            return state["room"].clone();
        }
    }
    loop {
        let message = client.next().await.expect("the socket stays open");
        match message["type"].as_str() {
            Some("state") if accept(&message) => return message["room"].clone(),
            Some("error") => {
                let code = message["code"].as_str().unwrap_or_default();
                assert!(
                    matches!(code, "stale_ply" | "unavailable" | "busy"),
                    "unexpected error {message}"
                );
            }
            _ => {}
        }
    }
}

/// Ana (on `first`) and Bea (on `second`) play `plies` moves, each move sent again through an
/// outage; returns the last state.
async fn play_plies(
    players: [(&mut Client, u64); 2],
    plies: usize,
    seed: &mut u64,
    acknowledged: &mut Acknowledged,
) -> Value {
    let [(ana, ana_seat), (bea, _)] = players;
    let mut room = ana.state_where(|_| true).await;
    for _ in 0..plies {
        if is_over(&room) {
            break;
        }
        let target = ply(&room);
        state_through_outage(ana, |s| ply(&s["room"]) == target).await;
        state_through_outage(bea, |s| ply(&s["room"]) == target).await;
        room = if to_move(&room) == ana_seat {
            play_through_outage(ana, &mut [bea], seed, acknowledged).await
        } else {
            play_through_outage(bea, &mut [ana], seed, acknowledged).await
        };
    }
    room
}

/// The moves Redis holds for the room.
fn stored_moves(peek: &mut dyn redis::ConnectionLike, code: &str) -> Vec<String> {
    let stored: String = redis::cmd("HGET")
        .arg(format!("damas:{{{code}}}:record"))
        .arg("record")
        .query(peek)
        .expect("the record");
    let stored: Value = serde_json::from_str(&stored).expect("JSON record");
    serde_json::from_value(stored["moves"].clone()).expect("the moves")
}

/// Two instances, Ana on the first and Bea on the second, in a started English room.
async fn two_players(store_args: &[String]) -> (Instance, Instance, Client, u64, Client, u64) {
    let first = instance(store_args);
    let second = instance(store_args);
    let mut ana = Client::connect(first.addr).await;
    let ana_seat = ana.create("english", 2, json!("none")).await;
    let code = ana.code.clone().expect("code");
    let mut bea = Client::connect(second.addr).await;
    let bea_seat = bea.join(&code, "Bea").await;
    for client in [&mut ana, &mut bea] {
        client.state_where(|s| s["room"]["started"] == true).await;
    }
    (first, second, ana, ana_seat, bea, bea_seat)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_master_killed_mid_game_loses_no_acknowledged_move() {
    let Some(mut cluster) = RedisCluster::start() else {
        return;
    };
    let args = vec!["--redis-cluster".to_string(), cluster.urls_arg()];
    let (_first, _second, mut ana, ana_seat, mut bea, bea_seat) = two_players(&args).await;
    let code = ana.code.clone().expect("code");
    let mut seed = 23;
    let mut acknowledged = Acknowledged::default();
    let before_kill = play_plies(
        [(&mut ana, ana_seat), (&mut bea, bea_seat)],
        8,
        &mut seed,
        &mut acknowledged,
    )
    .await;
    assert!(!is_over(&before_kill));

    // The master holding the room dies right after acknowledging moves; its replica takes over.
    let key = format!("damas:{{{code}}}:record");
    let master = cluster.master_of(&key);
    cluster.kill(master);
    let promoted = tokio::task::block_in_place(|| cluster.wait_for_new_master(&key, master));
    assert_ne!(promoted, master);
    let mut peek = cluster.connection();
    assert_eq!(
        stored_moves(&mut peek, &code),
        history(&before_kill),
        "the promoted replica holds every acknowledged move"
    );
    // The dead master comes back as the new one's replica: moves are confirmed again, and the
    // game goes on through both instances.
    cluster.restart(master);
    tokio::task::block_in_place(|| cluster.wait_until_healthy());
    let last = play_plies(
        [(&mut ana, ana_seat), (&mut bea, bea_seat)],
        8,
        &mut seed,
        &mut acknowledged,
    )
    .await;
    let mut peek = cluster.connection();
    let stored = stored_moves(&mut peek, &code);
    assert_eq!(stored, history(&last));
    assert!(
        stored.len() > history(&before_kill).len(),
        "the game went on"
    );
    acknowledged.check_final(&stored);
}

/// Redis itself crashes: a single `redis-server` with the persistence docs/scaling.md prescribes
/// (AOF, `appendfsync always`: every write is in the AOF before Redis answers) is killed with
/// SIGKILL mid-game and started again from its directory. While it is down a move is refused,
/// not acknowledged; after the restart both instances reconnect by themselves, the record comes
/// back with every acknowledged move, and the game goes on through both instances.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_killed_mid_game_and_restarted_with_aof_loses_no_acknowledged_move() {
    let Some(mut redis) =
        PersistentRedis::start(&["--appendonly", "yes", "--appendfsync", "always"])
    else {
        return;
    };
    let args = vec!["--redis".to_string(), redis.url()];
    let (_first, _second, mut ana, ana_seat, mut bea, bea_seat) = two_players(&args).await;
    let code = ana.code.clone().expect("code");
    let mut seed = 31;
    let mut acknowledged = Acknowledged::default();
    let before_kill = play_plies(
        [(&mut ana, ana_seat), (&mut bea, bea_seat)],
        8,
        &mut seed,
        &mut acknowledged,
    )
    .await;
    assert!(!is_over(&before_kill));

    redis.kill();
    let mover = if to_move(&before_kill) == ana_seat {
        &mut ana
    } else {
        &mut bea
    };
    let text = pick_move(&before_kill, &mut seed.clone());
    mover.play(&text, ply(&before_kill)).await;
    let reply = mover.reply().await;
    assert_eq!(reply["type"], "error", "{reply}");
    assert_eq!(reply["code"], "unavailable", "{reply}");

    redis.restart();
    let mut peek = redis.connection();
    assert_eq!(
        stored_moves(&mut peek, &code),
        history(&before_kill),
        "the restarted Redis holds every acknowledged move"
    );
    let last = play_plies(
        [(&mut ana, ana_seat), (&mut bea, bea_seat)],
        8,
        &mut seed,
        &mut acknowledged,
    )
    .await;
    let stored = stored_moves(&mut peek, &code);
    assert_eq!(stored, history(&last));
    assert!(
        stored.len() > history(&before_kill).len(),
        "the game went on"
    );
    acknowledged.check_final(&stored);
}
