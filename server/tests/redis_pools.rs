//! Pairing pools on many instances: two real `damas-server --redis` processes share a real
//! `redis-server`. Players connected to different instances are paired and play; when the
//! instance running a pool's waves stops and is killed (SIGSTOP, then SIGKILL), the players waiting
//! meanwhile stay in Redis and the other instance pairs them once the pool's lease lapses.

use crate::common;
use crate::redis_server;
use crate::server_process;

use common::{pick_move, ply, to_move, wait_until, Client};
use redis_server::RedisServer;
use serde_json::{json, Value};
use server_process::Instance;
use std::time::Duration;

/// A `damas-server --redis` process with fast waves and the CPU far away.
fn instance(redis_url: &str) -> Instance {
    Instance::start(&[
        "--redis",
        redis_url,
        "--pool-wave-ms",
        "200",
        "--pool-cpu-after-secs",
        "600",
    ])
}

const POOL_LEASE: &str = "damas:pool:{english/casual}:lease";

fn lease_owner(redis: &mut redis::Connection) -> Option<String> {
    redis::cmd("GET")
        .arg(POOL_LEASE)
        .query(redis)
        .expect("GET lease")
}

async fn join_pool(client: &mut Client, nickname: &str) {
    client
        .send(json!({"v":1,"type":"pool_join","pool":{"kind":"english"},"nickname":nickname}))
        .await;
    assert_eq!(client.reply().await["type"], "pool_waiting");
}

/// `paired`, then `joined` and the started room.
async fn paired(client: &mut Client) -> Value {
    let paired = client.reply().await;
    assert_eq!(paired["type"], "paired", "{paired}");
    let joined = client.reply().await;
    assert_eq!(joined["type"], "joined", "{joined}");
    client.code = joined["code"].as_str().map(str::to_string);
    client.token = joined["token"].as_str().map(str::to_string);
    client.state_where(|s| s["room"]["started"] == true).await;
    paired
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_instances_are_paired_and_play() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let first = instance(&redis.url());
    let second = instance(&redis.url());
    let mut ana = Client::connect(first.addr).await;
    let mut bea = Client::connect(second.addr).await;
    join_pool(&mut ana, "Ana").await;
    join_pool(&mut bea, "Bea").await;
    let ana_paired = paired(&mut ana).await;
    let bea_paired = paired(&mut bea).await;
    assert_eq!(ana_paired["code"], bea_paired["code"]);
    assert_eq!(ana_paired["opponent"]["nickname"], "Bea");
    assert_eq!(bea_paired["opponent"]["nickname"], "Ana");
    assert_ne!(ana.you(), bea.you());
    // They play through their own instances.
    let (mover, other) = if ana.you() == Some(to_move(ana.room())) {
        (&mut ana, &mut bea)
    } else {
        (&mut bea, &mut ana)
    };
    let mut seed = 11;
    let text = pick_move(mover.room(), &mut seed);
    mover.play(&text, 0).await;
    other.state_where(|s| ply(&s["room"]) == 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wave_holder_dies_and_nobody_waiting_is_lost() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let mut peek = redis.connection();
    let holder = instance(&redis.url());
    // Alone, the first instance takes the pool's lease at its first wave.
    wait_until(
        "the first instance takes the pool lease",
        Duration::from_secs(10),
        async || lease_owner(&mut peek).as_deref() == Some(holder.name.as_str()),
    )
    .await;
    let survivor = instance(&redis.url());
    // The holder stops mid-wave (it keeps the lease until it lapses), then is killed.
    holder.signal("-STOP");
    let mut ana = Client::connect(survivor.addr).await;
    let mut bea = Client::connect(survivor.addr).await;
    join_pool(&mut ana, "Ana").await;
    join_pool(&mut bea, "Bea").await;
    let waiting: u64 = redis::cmd("ZCARD")
        .arg("damas:pool:{english/casual}:queue")
        .query(&mut peek)
        .expect("ZCARD");
    assert_eq!(waiting, 2, "both wait in Redis");
    holder.signal("-KILL");
    // The lease lapses (6 s); the survivor takes it and pairs them.
    let ana_paired = paired(&mut ana).await;
    let bea_paired = paired(&mut bea).await;
    assert_eq!(ana_paired["code"], bea_paired["code"]);
    assert_eq!(
        lease_owner(&mut peek).as_deref(),
        Some(survivor.name.as_str())
    );
}

fn entry_waits(redis: &mut redis::Connection, id: &str) -> bool {
    redis::cmd("HEXISTS")
        .arg("damas:pool:{english/casual}:entries")
        .arg(id)
        .query(redis)
        .expect("HEXISTS")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_of_a_dead_instance_are_never_paired() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let mut peek = redis.connection();
    let survivor = instance(&redis.url());
    let doomed = instance(&redis.url());
    let alive_key = format!("damas:pool:alive:{}", doomed.name);
    let mut xavi = Client::connect(doomed.addr).await;
    join_pool(&mut xavi, "Xavi").await;
    let queue: Vec<String> = redis::cmd("ZRANGE")
        .arg("damas:pool:{english/casual}:queue")
        .arg(0)
        .arg(-1)
        .query(&mut peek)
        .expect("ZRANGE");
    assert_eq!(queue.len(), 1, "Xavi waits in Redis");
    let alive: bool = redis::cmd("EXISTS")
        .arg(&alive_key)
        .query(&mut peek)
        .expect("EXISTS");
    assert!(alive, "a living instance keeps its heartbeat");
    // The instance holding Xavi's socket dies: nobody could tell Xavi of a pairing any more.
    doomed.signal("-KILL");
    // Its heartbeat lapses (6 s after the last one) and the wave holder drops Xavi's entry.
    wait_until(
        "the dead instance's player leaves the queue",
        Duration::from_secs(20),
        async || !entry_waits(&mut peek, &queue[0]),
    )
    .await;
    let alive: bool = redis::cmd("EXISTS")
        .arg(&alive_key)
        .query(&mut peek)
        .expect("EXISTS");
    assert!(!alive, "dropped only once its instance was taken for dead");
    // Players who come now are paired with each other, never into a room with Xavi.
    let mut yago = Client::connect(survivor.addr).await;
    let mut zoe = Client::connect(survivor.addr).await;
    join_pool(&mut yago, "Yago").await;
    join_pool(&mut zoe, "Zoe").await;
    assert_eq!(paired(&mut yago).await["opponent"]["nickname"], "Zoe");
    assert_eq!(paired(&mut zoe).await["opponent"]["nickname"], "Yago");
    let waiting: u64 = redis::cmd("ZCARD")
        .arg("damas:pool:{english/casual}:queue")
        .query(&mut peek)
        .expect("ZCARD");
    assert_eq!(waiting, 0, "nobody left waiting");
}
