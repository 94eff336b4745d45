//! Connections from outside: half-open HTTP connections are closed after the header-read timeout
//! and count in the connection cap while they last; one seat token on two sockets leaves the seat
//! to the newest, the older one told `replaced` and closed.

use crate::common;

use common::{Client, TestServer, PATIENCE};
use damas_server::store::memory::MemoryStore;
use damas_server::Config;
use serde_json::json;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The start of a request whose head never ends (no blank line).
const HALF_REQUEST: &[u8] = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n";

/// The status of `GET /health`.
async fn health(addr: SocketAddr) -> u16 {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = String::new();
    tokio::time::timeout(PATIENCE, stream.read_to_string(&mut response))
        .await
        .expect("/health answered in time")
        .expect("read");
    response
        .split_whitespace()
        .nth(1)
        .and_then(|status| status.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {response:?}"))
}

/// Reads until the server closes the connection; when it did.
async fn closed_by_server(mut stream: TcpStream) -> Instant {
    let mut buffer = [0u8; 256];
    loop {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return Instant::now(),
            Ok(_) => {}
        }
    }
}

fn config(header_timeout: Duration) -> Config {
    Config {
        header_timeout,
        rate_per_second: 100_000.0,
        rate_burst: 100_000.0,
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_half_open_connections_close_while_a_game_goes_on() {
    const HALF_OPEN: usize = 2_000;
    let timeout = Duration::from_secs(2);
    // Client and server ends are both in this process: 4,000 descriptors and the game's.
    let files = damas_server::limits::raise_file_limit().unwrap_or(0);
    assert!(
        files >= 2 * HALF_OPEN as u64 + 500,
        "this test needs an open-file limit of at least {} (it is {files}; raise the hard limit)",
        2 * HALF_OPEN + 500
    );
    let server = TestServer::start_with(config(timeout)).await;
    let mut ana = server.client().await;
    ana.create("english", 2, json!("none")).await;
    let code = ana.code.clone().expect("code");
    let mut bo = server.client().await;
    bo.join(&code, "Bo").await;
    ana.state_where(|s| s["room"]["started"] == true).await;
    bo.state_where(|s| s["room"]["started"] == true).await;

    let mut closers = Vec::with_capacity(HALF_OPEN);
    for _ in 0..HALF_OPEN {
        let mut stream = TcpStream::connect(server.addr).await.expect("connect");
        stream.write_all(HALF_REQUEST).await.expect("send");
        let opened = Instant::now();
        closers.push(tokio::spawn(async move {
            closed_by_server(stream).await.duration_since(opened)
        }));
    }

    // The game goes on and the server stays healthy while they are open.
    let mut seed = 48u64;
    let mut moves = 0;
    while closers.iter().any(|closer| !closer.is_finished()) {
        assert_eq!(
            health(server.addr).await,
            200,
            "/health with half-open connections"
        );
        let room = ana.room().clone();
        if common::is_over(&room) {
            continue;
        }
        let ply = common::ply(&room);
        let mover_is_ana = ana.you() == Some(common::to_move(&room));
        let text = common::pick_move(&room, &mut seed);
        let mover = if mover_is_ana { &mut ana } else { &mut bo };
        mover.play(&text, ply).await;
        ana.state_where(|s| common::ply(&s["room"]) > ply).await;
        bo.state_where(|s| common::ply(&s["room"]) > ply).await;
        moves += 1;
        if moves > 400 {
            panic!("half-open connections still open after {moves} moves");
        }
    }
    let mut longest = Duration::ZERO;
    for closer in closers {
        let open_for = tokio::time::timeout(PATIENCE, closer)
            .await
            .expect("closed in time")
            .expect("closer task");
        longest = longest.max(open_for);
    }
    println!("{HALF_OPEN} half-open connections closed, the last after {longest:?}; {moves} moves meanwhile");
    assert!(moves > 0, "the game moved while they were open");
    // Closed by the header-read timeout (with slack for a loaded machine), not by chance.
    assert!(
        longest >= timeout.mul_f64(0.9) && longest < timeout + Duration::from_secs(3),
        "half-open connections closed after {longest:?}, the timeout is {timeout:?}"
    );
    assert_eq!(health(server.addr).await, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_count_in_the_connection_cap() {
    let cap = 20;
    let server = TestServer::start_with(Config {
        max_connections: cap,
        ..config(Duration::from_secs(1))
    })
    .await;
    let mut half_open = Vec::new();
    for _ in 0..cap {
        let mut stream = TcpStream::connect(server.addr).await.expect("connect");
        stream.write_all(HALF_REQUEST).await.expect("send");
        half_open.push(stream);
    }
    // The cap is full of connections that never finish their request: one more is closed at
    // once, unanswered. (The server may accept the extra socket only after the others: wait on
    // its end, not on a clock.)
    let mut extra = TcpStream::connect(server.addr).await.expect("connect");
    let request = format!("GET /health HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
    let _ = extra.write_all(request.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, extra.read_to_end(&mut answer))
        .await
        .expect("the extra connection ends");
    // Either nothing came back, or (had a half-open one already timed out) a real answer.
    let refused = answer.is_empty();
    // After the header-read timeout they are gone and the server answers again.
    for stream in half_open {
        tokio::time::timeout(PATIENCE, closed_by_server(stream))
            .await
            .expect("closed by the header-read timeout");
    }
    assert_eq!(health(server.addr).await, 200);
    assert!(
        refused,
        "a connection beyond the cap was served: {answer:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_newest_socket_of_a_seat_takes_it_and_the_older_is_replaced() {
    let server = TestServer::start_unthrottled().await;
    let mut ana = server.client().await;
    let seat = ana.create("english", 2, json!("none")).await;
    let code = ana.code.clone().expect("code");
    let token = ana.token.clone().expect("token");
    let mut bo = server.client().await;
    bo.join(&code, "Bo").await;
    ana.state_where(|s| s["room"]["started"] == true).await;

    // The same token on a second socket (another tab, another device).
    let mut again = server.client().await;
    assert_eq!(again.resume(&code, &token).await, seat);
    let told = loop {
        match ana.next().await {
            Some(message) if message["type"] == "state" => continue,
            other => break other,
        }
    };
    let told = told.expect("the older socket is told before it closes");
    assert_eq!(told["type"], "replaced", "{told}");
    assert_eq!(told["code"], code.as_str());
    assert!(ana.next().await.is_none(), "the older socket is closed");

    // The newest plays the seat.
    let room = again.state_where(|s| s["room"]["started"] == true).await;
    if common::to_move(&room) == seat as u64 {
        let text = common::pick_move(&room, &mut 1);
        again.play(&text, common::ply(&room)).await;
        again.state_where(|s| common::ply(&s["room"]) == 1).await;
    }
    assert_eq!(again.you(), Some(seat as u64));
    assert!(again.room()["seats"][seat as usize]["connected"] == true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_resumed_on_another_instance_replaces_the_socket_on_the_first() {
    // Two instances on one store, as with Redis.
    let store = MemoryStore::new(damas_server::time::TimeSource::new());
    let mut addrs = Vec::new();
    let mut stops = Vec::new();
    for _ in 0..2 {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        addrs.push(listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        stops.push(stop);
        tokio::spawn(damas_server::run(
            listener,
            Arc::new(store.clone()),
            config(Duration::from_secs(5)),
            async move {
                let _ = stopped.await;
            },
        ));
    }
    let mut ana = Client::connect(addrs[0]).await;
    let seat = ana.create("turkish", 2, json!("none")).await;
    let code = ana.code.clone().expect("code");
    let token = ana.token.clone().expect("token");
    let mut again = Client::connect(addrs[1]).await;
    assert_eq!(again.resume(&code, &token).await, seat);
    let told = loop {
        match ana.next().await {
            Some(message) if message["type"] == "state" => continue,
            other => break other,
        }
    };
    assert_eq!(told.expect("told")["type"], "replaced");
    assert!(ana.next().await.is_none(), "the older socket is closed");
    // The newer one keeps the seat (it is not replaced in turn by the older one's echo).
    again.send(json!({"v":1,"type":"ping"})).await;
    assert_eq!(again.reply().await["type"], "pong");
    drop(stops);
}
