//! A server that shuts down with games in progress: every socket is closed with "going away"
//! (1001, docs/protocol.md), a move in flight is either answered and stored or not stored at all,
//! and the rooms stay where another server (the same process's next one, or another instance on
//! Redis) takes them on.

use crate::common;
use crate::redis_server;

use common::{pick_move, ply, to_move, Client, TestServer};
use damas_server::store::memory::MemoryStore;
use damas_server::store::{RoomCode, RoomRecord, RoomStore};
use damas_server::time::TimeSource;
use damas_server::Config;
use redis_server::RedisServer;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::oneshot;

const GOING_AWAY: (u16, &str) = (1001, "server shutting down");

fn unthrottled() -> Config {
    Config {
        rate_per_second: 100_000.0,
        rate_burst: 100_000.0,
        ..Config::default()
    }
}

/// Ana and Bea in a room of English draughts, `moves` moves in.
async fn game_in_progress(addr: SocketAddr, moves: u64) -> [Client; 2] {
    let mut ana = Client::connect(addr).await;
    ana.create("english", 2, Value::Null).await;
    let code = ana.code.clone().expect("code");
    let mut bea = Client::connect(addr).await;
    bea.join(&code, "Bea").await;
    let mut clients = [ana, bea];
    let mut seed = 11;
    for target in 0..moves {
        let text = mover_move(&mut clients, target, &mut seed).await;
        assert!(!text.is_empty());
        for client in clients.iter_mut() {
            client.state_where(|s| ply(&s["room"]) > target).await;
        }
    }
    clients
}

/// The seat to move at ply `target` sends a legal move; which one.
async fn mover_move(clients: &mut [Client; 2], target: u64, seed: &mut u64) -> String {
    let mut room = Value::Null;
    // Seats are drawn at the start: every client learns its own from a started state.
    for client in clients.iter_mut() {
        room = client
            .state_where(|s| s["room"]["started"] == true && ply(&s["room"]) == target)
            .await;
    }
    let seat = to_move(&room);
    let mover = clients
        .iter_mut()
        .find(|c| c.you() == Some(seat))
        .unwrap_or_else(|| panic!("no client plays seat {seat}: {room}"));
    let room = mover.state_where(|s| ply(&s["room"]) == target).await;
    let text = pick_move(&room, seed);
    mover.play(&text, target).await;
    text
}

/// After the shutdown: both sockets were closed going away, and the room in `store` holds the
/// move in flight exactly when a state showed it to the players. The stored room.
async fn check_shut_down(
    clients: &mut [Client; 2],
    store: &dyn RoomStore,
    target: u64,
    text: &str,
) -> RoomRecord {
    let code = clients[0].code.clone().expect("code");
    let code = RoomCode::parse(&code).expect("code");
    let record = store.load(&code).await.unwrap().expect("the room").value;
    for client in clients.iter_mut() {
        let (code, reason) = client.closed().await.expect("a close frame");
        assert_eq!((code, reason.as_str()), GOING_AWAY);
    }
    let acknowledged = clients
        .iter()
        .any(|c| c.state.as_ref().is_some_and(|s| ply(&s["room"]) > target));
    if acknowledged {
        assert_eq!(record.moves.len() as u64, target + 1, "answered, so stored");
        assert_eq!(record.moves[target as usize], text);
    } else {
        assert_eq!(
            record.moves.len() as u64,
            target,
            "not answered, so not stored"
        );
    }
    // Each room's hub recorded on its way out that nobody is here any more.
    assert!(
        record.seats.iter().all(|seat| seat.away_since.is_some()),
        "seats marked away before the shutdown completed: {:?}",
        record.seats
    );
    record
}

/// A player back on the next server finds the room as stored.
async fn resumed(addr: SocketAddr, code: &str, token: &str, record: &RoomRecord) {
    let mut ana = Client::connect(addr).await;
    ana.resume(code, token).await;
    let room = ana.state_where(|s| s["room"]["started"] == true).await;
    let history: Vec<&str> = room["view"]["history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|entry| entry["move"]["move"].as_str().expect("a move"))
        .collect();
    assert_eq!(history, record.moves, "the room is resumed as stored");
    ana.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_mid_game_closes_sockets_going_away_and_keeps_the_room() {
    let store = MemoryStore::new(TimeSource::new());
    let mut server = TestServer::start_on(store.clone(), unthrottled()).await;
    let mut clients = game_in_progress(server.addr, 4).await;
    let code = clients[0].code.clone().expect("code");
    let token = clients[0].token.clone().expect("token");
    // A move in flight when the server is told to stop.
    let text = mover_move(&mut clients, 4, &mut 5).await;
    server.shut_down().await;

    let record = check_shut_down(&mut clients, &store, 4, &text).await;
    // The process keeps its rooms for the next server.
    let next = TestServer::start_on(store, unthrottled()).await;
    resumed(next.addr, &code, &token, &record).await;
}

/// Two instances on one Redis: the one shut down gives its rooms' leases up at once, and the
/// players resume on the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_redis_another_instance_resumes_a_room_shut_down_mid_game() {
    use damas_server::store::redis::RedisStore;
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let mut instances = Vec::new();
    for _ in 0..2 {
        let store = RedisStore::connect(&redis.url()).await.expect("Redis");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let run = tokio::spawn(damas_server::run(
            listener,
            Arc::new(store),
            unthrottled(),
            async move {
                let _ = stopped.await;
            },
        ));
        instances.push((addr, stop, run));
    }
    let (second, _keep, _running) = instances.pop().expect("two");
    let (first, stop, run) = instances.pop().expect("two");
    let mut clients = game_in_progress(first, 3).await;
    let code = clients[0].code.clone().expect("code");
    let token = clients[0].token.clone().expect("token");
    let text = mover_move(&mut clients, 3, &mut 9).await;
    let _ = stop.send(());
    tokio::time::timeout(common::PATIENCE, run)
        .await
        .expect("the instance stops in time")
        .expect("its task")
        .expect("it stops cleanly");

    let peek = RedisStore::connect(&redis.url()).await.expect("Redis");
    let record = check_shut_down(&mut clients, &peek, 3, &text).await;
    let lease: Option<String> = redis::cmd("GET")
        .arg(format!("damas:{{{code}}}:lease"))
        .query(&mut redis.connection())
        .expect("GET lease");
    assert_eq!(lease, None, "the lease is given up at shutdown");
    resumed(second, &code, &token, &record).await;
}
