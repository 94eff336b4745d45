//! A Redis that is down makes the server unavailable at once, not slow: with `redis-server`
//! killed (connections refused) or paused with SIGSTOP (connections accepted, nothing answered),
//! `/health` answers 503 and a move `unavailable` within 1 s; when Redis is back the server
//! serves again by itself.

use crate::common;
use crate::redis_server;

use common::{wait_until, Client, PATIENCE};
use damas_server::store::redis::RedisStore;
use damas_server::Config;
use redis_server::RedisServer;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What "at once" means here (the audit measured 6.5–9.5 s).
const FAST: Duration = Duration::from_secs(1);

async fn start(redis: &RedisServer) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let store = RedisStore::connect(&redis.url())
        .await
        .expect("the store connects");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = Config {
        rate_per_second: 100_000.0,
        rate_burst: 100_000.0,
        ..Config::default()
    };
    tokio::spawn(damas_server::run(
        listener,
        Arc::new(store),
        config,
        async move {
            let _ = stopped.await;
        },
    ));
    (addr, stop)
}

/// `GET /health`: the status and how long it took.
async fn health(addr: SocketAddr) -> (u16, Duration) {
    let started = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = String::new();
    tokio::time::timeout(PATIENCE, stream.read_to_string(&mut response))
        .await
        .expect("/health answers")
        .expect("read");
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {response:?}"));
    (status, started.elapsed())
}

/// Waits until `/health` is 200 again (the server reconnects by itself).
async fn until_healthy(addr: SocketAddr) -> Duration {
    let started = Instant::now();
    wait_until("the server recovers", PATIENCE, async || {
        health(addr).await.0 == 200
    })
    .await;
    started.elapsed()
}

/// A started English game: the two players, the player to move first.
async fn game(addr: SocketAddr) -> (Client, Client) {
    let mut ana = Client::connect(addr).await;
    ana.create("english", 2, json!("none")).await;
    let code = ana.code.clone().expect("code");
    let mut bo = Client::connect(addr).await;
    bo.join(&code, "Bo").await;
    let room = ana.state_where(|s| s["room"]["started"] == true).await;
    bo.state_where(|s| s["room"]["started"] == true).await;
    if ana.you() == Some(common::to_move(&room)) {
        (ana, bo)
    } else {
        (bo, ana)
    }
}

/// The mover's move: the answer (`error` or `state`) and how long it took.
async fn try_move(mover: &mut Client) -> (Value, Duration) {
    let room = mover.room().clone();
    let text = common::pick_move(&room, &mut 7);
    let started = Instant::now();
    mover.play(&text, common::ply(&room)).await;
    let answer = loop {
        let message = mover.next().await.expect("socket open");
        let moved =
            message["type"] == "state" && common::ply(&message["room"]) > common::ply(&room);
        if message["type"] == "error" || moved {
            break message;
        }
    };
    (answer, started.elapsed())
}

fn redis() -> Option<RedisServer> {
    RedisServer::start()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_redis_makes_the_server_unavailable_at_once_and_it_recovers() {
    let Some(mut redis) = redis() else { return };
    let (addr, _stop) = start(&redis).await;
    assert_eq!(health(addr).await.0, 200);
    let (mut mover, _other) = game(addr).await;

    redis.kill();
    let (status, took) = health(addr).await;
    println!("killed Redis: /health {status} in {took:?}");
    assert_eq!(status, 503);
    assert!(took < FAST, "/health took {took:?}");
    let (answer, took) = try_move(&mut mover).await;
    println!("killed Redis: move answered {} in {took:?}", answer["code"]);
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "unavailable", "{answer}");
    assert!(took < FAST, "the move took {took:?}");
    // Still answered at once the second time (no back-off piling up).
    let (status, took) = health(addr).await;
    assert_eq!(status, 503);
    assert!(took < FAST, "/health took {took:?}");

    // Back (empty: this Redis keeps nothing): the server serves new rooms by itself.
    redis.restart();
    let took = until_healthy(addr).await;
    println!("Redis back: healthy after {took:?}");
    let (mut mover, _other) = game(addr).await;
    let (answer, _) = try_move(&mut mover).await;
    assert_eq!(answer["type"], "state", "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_redis_makes_the_server_unavailable_at_once_and_the_game_goes_on() {
    let Some(redis) = redis() else { return };
    let (addr, _stop) = start(&redis).await;
    let (mut mover, mut other) = game(addr).await;

    redis.pause(true);
    let (status, took) = health(addr).await;
    println!("paused Redis: /health {status} in {took:?}");
    assert_eq!(status, 503);
    assert!(took < FAST, "/health took {took:?}");
    let (answer, took) = try_move(&mut mover).await;
    println!("paused Redis: move answered {} in {took:?}", answer["code"]);
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "unavailable", "{answer}");
    assert!(took < FAST, "the move took {took:?}");

    // Continued: the same game goes on, nothing lost.
    redis.pause(false);
    until_healthy(addr).await;
    let ply = common::ply(mover.room());
    let (answer, _) = try_move(&mut mover).await;
    assert_eq!(answer["type"], "state", "{answer}");
    let room = other.state_where(|s| common::ply(&s["room"]) > ply).await;
    assert_eq!(common::ply(&room), ply + 1);
}
