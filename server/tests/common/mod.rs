//! A real server on a loopback port and a small WebSocket client speaking the room protocol.
#![allow(dead_code)]

use damas_server::store::memory::MemoryStore;
use damas_server::time::TimeSource;
use damas_server::Config;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::wait;
// Not every test module that takes `common` waits on a condition.
#[allow(unused_imports)]
pub use wait::wait_until;

/// How long a test waits for an answer before failing.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct TestServer {
    pub addr: SocketAddr,
    pub time: TimeSource,
    pub store: MemoryStore,
    stop: Option<oneshot::Sender<()>>,
    /// The server's `run`, until `shut_down` waits for it.
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        TestServer::start_with(Config::default()).await
    }

    /// A server whose rate limit lets test clients play as fast as the machine goes (the limit
    /// itself is tested on the default configuration).
    pub async fn start_unthrottled() -> TestServer {
        TestServer::start_with(Config {
            rate_per_second: 100_000.0,
            rate_burst: 100_000.0,
            ..Config::default()
        })
        .await
    }

    pub async fn start_with(config: Config) -> TestServer {
        let store = MemoryStore::new(config.time.clone());
        TestServer::start_on(store, config).await
    }

    /// A server on `store` (another server may share it, as instances share Redis).
    pub async fn start_on(store: MemoryStore, config: Config) -> TestServer {
        let time = config.time.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let shutdown = async move {
            let _ = stopped.await;
        };
        let task = tokio::spawn(damas_server::run(
            listener,
            Arc::new(store.clone()),
            config,
            shutdown,
        ));
        TestServer {
            addr,
            time,
            store,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Shuts the server down and waits until `run` has returned.
    pub async fn shut_down(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let run = tokio::time::timeout(PATIENCE, task)
                .await
                .expect("the server stops in time");
            run.expect("the server's task")
                .expect("the server stops cleanly");
        }
    }

    pub async fn client(&self) -> Client {
        Client::connect(self.addr).await
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The last `state` message received.
    pub state: Option<Value>,
    pub code: Option<String>,
    pub token: Option<String>,
    /// How many `state`s came as deltas.
    pub deltas: usize,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("connect");
        Client {
            ws,
            state: None,
            code: None,
            token: None,
            deltas: 0,
        }
    }

    pub async fn send(&mut self, message: Value) {
        self.send_text(&message.to_string()).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.to_string().into()))
            .await
            .expect("send");
    }

    /// Sends unless the server has closed the socket; false then.
    pub async fn try_send_text(&mut self, text: &str) -> bool {
        self.ws
            .send(Message::Text(text.to_string().into()))
            .await
            .is_ok()
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send");
    }

    /// The next protocol message (`None`: the server closed the socket).
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("no message from the server in time");
            match message {
                Some(Ok(Message::Text(text))) => return Some(self.take(text.as_str())),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// A protocol message received: a `state` is completed and kept.
    fn take(&mut self, text: &str) -> Value {
        let mut value: Value = serde_json::from_str(text).expect("JSON");
        assert_eq!(
            value["v"], 2,
            "every message carries the server's protocol version"
        );
        if value["type"] == "state" {
            self.deltas += usize::from(value["room"]["history_from"].is_u64());
            value = whole_state(self.state.as_ref(), value);
            self.state = Some(value.clone());
        }
        value
    }

    /// Reads until the server closes the socket (keeping the states that come first); the close
    /// frame's code and reason (`None`: closed without a close frame).
    pub async fn closed(&mut self) -> Option<(u16, String)> {
        loop {
            let message = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("the server closes the socket in time");
            match message {
                Some(Ok(Message::Text(text))) => {
                    self.take(text.as_str());
                }
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|frame| (u16::from(frame.code), frame.reason.to_string()))
                }
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    /// Reads whatever arrives until the server has been quiet for `quiet`.
    pub async fn drain(&mut self, quiet: Duration) {
        while let Ok(Some(Ok(message))) = tokio::time::timeout(quiet, self.ws.next()).await {
            if let Message::Text(text) = message {
                let value = self.take(text.as_str());
                assert_ne!(value["type"], "error", "unexpected error {value}");
            }
        }
    }

    /// The next message that is not a `state`.
    pub async fn reply(&mut self) -> Value {
        loop {
            let message = self.next().await.expect("socket closed");
            if message["type"] != "state" {
                return message;
            }
        }
    }

    /// Sends `message` and expects an `error` with `code`.
    pub async fn expect_error(&mut self, message: Value, code: &str) {
        self.send(message.clone()).await;
        let reply = self.reply().await;
        assert_eq!(reply["type"], "error", "{message} → {reply}");
        assert_eq!(reply["code"], code, "{message} → {reply}");
        assert!(reply["message"].is_string());
    }

    /// Waits for a state satisfying `accept`, returns its `room`.
    pub async fn state_where(&mut self, mut accept: impl FnMut(&Value) -> bool) -> Value {
        if let Some(state) = &self.state {
            if accept(state) {
                return state["room"].clone();
            }
        }
        loop {
            let message = self.next().await.expect("socket closed");
            match message["type"].as_str() {
                Some("state") if accept(&message) => return message["room"].clone(),
                Some("error") => panic!("unexpected error {message}"),
                _ => {}
            }
        }
    }

    /// The room as last seen (after draining nothing).
    pub fn room(&self) -> &Value {
        &self.state.as_ref().expect("no state yet")["room"]
    }

    pub fn you(&self) -> Option<u64> {
        self.state.as_ref().and_then(|s| s["you"].as_u64())
    }

    /// Creates a room; returns the creator's seat.
    pub async fn create(&mut self, kind: &str, players: u8, clock: Value) -> u64 {
        let mut message =
            json!({"v":1,"type":"create","game":{"kind":kind,"players":players},"nickname":"Ana"});
        if !clock.is_null() {
            message["clock"] = clock;
        }
        self.send(message).await;
        self.joined().await
    }

    pub async fn join(&mut self, code: &str, nickname: &str) -> u64 {
        self.send(json!({"v":1,"type":"join","code":code,"nickname":nickname}))
            .await;
        self.joined().await
    }

    pub async fn resume(&mut self, code: &str, token: &str) -> u64 {
        self.send(json!({"v":1,"type":"resume","code":code,"token":token}))
            .await;
        self.joined().await
    }

    async fn joined(&mut self) -> u64 {
        let reply = self.reply().await;
        assert_eq!(reply["type"], "joined", "{reply}");
        self.code = reply["code"].as_str().map(str::to_string);
        self.token = reply["token"].as_str().map(str::to_string);
        reply["seat"].as_u64().expect("seat")
    }

    pub async fn play(&mut self, text: &str, ply: u64) {
        self.send(json!({"v":1,"type":"move","move":text,"ply":ply}))
            .await;
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Ply of a room state.
pub fn ply(room: &Value) -> u64 {
    room["view"]["ply"].as_u64().unwrap()
}

pub fn to_move(room: &Value) -> u64 {
    room["view"]["to_move"].as_u64().unwrap()
}

pub fn is_over(room: &Value) -> bool {
    !room["result"].is_null()
}

/// A legal move of the state chosen by a seeded pick: captures first, then any.
pub fn pick_move(room: &Value, seed: &mut u64) -> String {
    let moves = room["view"]["legal_moves"].as_array().expect("legal moves");
    assert!(!moves.is_empty(), "no legal move in a game in play: {room}");
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let capturing: Vec<&Value> = moves
        .iter()
        .filter(|m| m["captures"].as_array().is_some_and(|c| !c.is_empty()))
        .collect();
    let pool: Vec<&Value> = if capturing.is_empty() {
        moves.iter().collect()
    } else {
        capturing
    };
    let index = (*seed >> 33) as usize % pool.len();
    pool[index]["move"].as_str().unwrap().to_string()
}

/// A `state` as a client holds it: a delta (`room.history_from`, docs/protocol.md) completed with
/// the history and layout of the state before it. A delta the client cannot complete is a server
/// fault: the test fails.
pub fn whole_state(previous: Option<&Value>, mut state: Value) -> Value {
    let Some(from) = state["room"]["history_from"].as_u64() else {
        return state;
    };
    let from = from as usize;
    let before = &previous.expect("a delta before any whole state")["room"];
    assert_eq!(
        before["code"], state["room"]["code"],
        "a delta of another room"
    );
    assert_eq!(
        before["rematch"], state["room"]["rematch"],
        "a delta across a rematch"
    );
    assert_eq!(
        before["view"]["id"], state["room"]["view"]["id"],
        "a delta of another game"
    );
    let held = before["view"]["history"].as_array().expect("history");
    assert!(
        held.len() >= from,
        "a delta from ply {from}, but only {} held",
        held.len()
    );
    let room = state["room"].as_object_mut().expect("room");
    room.remove("history_from");
    let view = room["view"].as_object_mut().expect("view");
    let mut history = held[..from].to_vec();
    history.extend(view["history"].as_array().expect("history").iter().cloned());
    view.insert("history".into(), Value::Array(history));
    view.insert("layout".into(), before["view"]["layout"].clone());
    state
}
