//! `damas-server bench`: a load generator on loopback. It starts a `damas-server` child (this same
//! binary; in-memory store, or `--redis URL`), opens N rooms of English checkers with 2 clients
//! each, and has every client play legal moves (picked from the server's own list) after a think
//! time, rematching at each game's end. It prints moves/s, the move round trip (send → every
//! client of the room has the new state) at p50/p99, and the server's RSS and CPU.
//!
//! A benchmark, not a test: figures go to docs/performance.md with the command that made them.

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Concurrent rooms (2 clients each).
    #[arg(long, default_value_t = 100)]
    pub rooms: usize,
    /// Mean think time before each move, in ms (each move draws 50–150 % of it).
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// Measured seconds (after every room is open).
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// Run the server on Redis at this URL instead of memory.
    #[arg(long, value_name = "URL")]
    pub redis: Option<String>,
    /// Use a server already running at this address (host:port) instead of starting one; its
    /// RSS and CPU are read from `--server-pid` if given.
    #[arg(long)]
    pub addr: Option<String>,
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Pool load instead of rooms: this many players enter the pairing pools (spread evenly over
    /// `--pool-seconds`), each leaving once paired; then as many wait in pools that do not pair,
    /// for the memory per waiting player.
    #[arg(long, default_value_t = 0)]
    pub pool_players: usize,
    /// Seconds over which the pool players arrive.
    #[arg(long, default_value_t = 60)]
    pub pool_seconds: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("cannot start the server: {0}")]
    Spawn(std::io::Error),
    #[error("the server did not say where it listens")]
    NoAddress,
    #[error("room {0}: {1}")]
    Room(usize, String),
}

/// Shared tallies of the run.
#[derive(Default)]
struct Tally {
    /// Round trips in microseconds, measured moves only.
    round_trips: Vec<u32>,
    moves: u64,
    games: u64,
    errors: u64,
}

pub(crate) struct ServerChild(pub(crate) Child);

impl Drop for ServerChild {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub async fn run(args: BenchArgs) -> Result<(), BenchError> {
    if args.pool_players > 0 {
        return crate::bench_pools::run(&args).await;
    }
    let mut child = None;
    let (addr, pid) = match &args.addr {
        Some(addr) => (addr.clone(), args.server_pid),
        None => {
            let (server, addr) = spawn_server(&args)?;
            let pid = server.0.id();
            child = Some(server);
            (addr, Some(pid))
        }
    };
    let url = format!("ws://{addr}/ws");
    println!(
        "bench: {} rooms × 2 clients, think {} ms, {} s, server {} ({})",
        args.rooms,
        args.think_ms,
        args.seconds,
        addr,
        if args.redis.is_some() {
            "redis"
        } else {
            "memory"
        }
    );
    let tally = Arc::new(Mutex::new(Tally::default()));
    let measuring = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let opening = Arc::new(tokio::sync::Semaphore::new(32));
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::channel::<Result<(), BenchError>>(args.rooms);
    let mut tasks = Vec::new();
    // The idle server's memory, so that the per-room figure is what the rooms add.
    let rss_idle = pid.and_then(rss_kib);
    let open_started = Instant::now();
    for index in 0..args.rooms {
        let room = RoomLoad {
            index,
            url: url.clone(),
            think_ms: args.think_ms,
            tally: Arc::clone(&tally),
            measuring: Arc::clone(&measuring),
            stop: Arc::clone(&stop),
        };
        let opening = Arc::clone(&opening);
        let ready = ready_tx.clone();
        tasks.push(tokio::spawn(async move {
            let opened = {
                let _permit = opening.acquire().await;
                room.open().await
            };
            match opened {
                Ok(sockets) => {
                    let _ = ready.send(Ok(())).await;
                    room.play(sockets).await;
                }
                Err(error) => {
                    let _ = ready.send(Err(error)).await;
                }
            }
        }));
    }
    drop(ready_tx);
    for _ in 0..args.rooms {
        match ready_rx.recv().await {
            Some(Ok(())) => {}
            Some(Err(error)) => return Err(error),
            None => break,
        }
    }
    println!(
        "bench: {} rooms open in {:.1} s; warming up 5 s",
        args.rooms,
        open_started.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(5)).await;
    let cpu_before = pid.and_then(cpu_ticks);
    let started = Instant::now();
    measuring.store(true, std::sync::atomic::Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    measuring.store(false, std::sync::atomic::Ordering::SeqCst);
    let wall = started.elapsed().as_secs_f64();
    let cpu_after = pid.and_then(cpu_ticks);
    let rss = pid.and_then(rss_kib);
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let mut tally = std::mem::take(&mut *tally.lock().unwrap_or_else(|p| p.into_inner()));
    tally.round_trips.sort_unstable();
    let quantile = |q: f64| -> f64 {
        if tally.round_trips.is_empty() {
            return f64::NAN;
        }
        let index = ((tally.round_trips.len() - 1) as f64 * q).round() as usize;
        f64::from(tally.round_trips[index]) / 1000.0
    };
    println!(
        "moves: {} in {wall:.1} s = {:.0} moves/s ({} games finished, {} errors)",
        tally.moves,
        tally.moves as f64 / wall,
        tally.games,
        tally.errors
    );
    println!(
        "round trip (send → both clients updated): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        quantile(0.5),
        quantile(0.99),
        quantile(1.0)
    );
    if let (Some(rss), Some(idle)) = (rss, rss_idle) {
        let rooms = args.rooms.max(1) as f64;
        println!(
            "server RSS: {:.1} MiB, {:.1} MiB idle before the rooms: {:.1} KiB per room above idle \
             ({:.1} KiB per room all told)",
            rss as f64 / 1024.0,
            idle as f64 / 1024.0,
            rss.saturating_sub(idle) as f64 / rooms,
            rss as f64 / rooms
        );
    }
    if let (Some(before), Some(after)) = (cpu_before, cpu_after) {
        // Linux counts process CPU time in USER_HZ ticks (100 per second).
        let seconds = (after - before) as f64 / 100.0;
        println!(
            "server CPU: {:.1} s in {wall:.1} s = {:.0} % of one core",
            seconds,
            100.0 * seconds / wall
        );
    }
    for task in tasks {
        task.abort();
    }
    drop(child);
    Ok(())
}

pub(crate) fn spawn_server(args: &BenchArgs) -> Result<(ServerChild, String), BenchError> {
    spawn_server_with(args, &[])
}

/// Starts the server child with extra arguments; its address.
pub(crate) fn spawn_server_with(
    args: &BenchArgs,
    extra: &[&str],
) -> Result<(ServerChild, String), BenchError> {
    let exe = std::env::current_exe().map_err(BenchError::Spawn)?;
    let mut command = Command::new(exe);
    command
        .args(["--port", "0"])
        .args(extra)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if let Some(url) = &args.redis {
        command.args(["--redis", url]);
    }
    let mut child = ServerChild(command.spawn().map_err(BenchError::Spawn)?);
    let stdout = child.0.stdout.take().ok_or(BenchError::NoAddress)?;
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(BenchError::Spawn)?;
    // "damas-server listening on http://127.0.0.1:PORT (… store)"
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or(BenchError::NoAddress)?
        .to_string();
    Ok((child, addr))
}

fn proc_file(pid: u32, name: &str) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/{name}")).ok()
}

/// Resident memory of a process, KiB.
pub(crate) fn rss_kib(pid: u32) -> Option<u64> {
    proc_file(pid, "status")?
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// User + system CPU ticks of a process.
pub(crate) fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = proc_file(pid, "stat")?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

struct RoomLoad {
    index: usize,
    url: String,
    think_ms: u64,
    tally: Arc<Mutex<Tally>>,
    measuring: Arc<std::sync::atomic::AtomicBool>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

/// What a client last saw of its room.
#[derive(Default, Clone)]
struct Seen {
    you: Option<u64>,
    ply: u64,
    rematch: u64,
    over: bool,
    to_move: u64,
    moves: Vec<String>,
}

fn read_state(value: &Value) -> Option<Seen> {
    if value["type"] != "state" {
        return None;
    }
    let room = &value["room"];
    Some(Seen {
        you: value["you"].as_u64(),
        ply: room["view"]["ply"].as_u64()?,
        rematch: room["rematch"].as_u64()?,
        over: !room["result"].is_null(),
        to_move: room["view"]["to_move"].as_u64()?,
        moves: room["view"]["legal_moves"]
            .as_array()?
            .iter()
            .filter_map(|m| m["move"].as_str().map(str::to_string))
            .collect(),
    })
}

pub(crate) async fn send(socket: &mut Socket, value: Value) -> Result<(), String> {
    socket
        .send(Message::Text(value.to_string().into()))
        .await
        .map_err(|e| e.to_string())
}

pub(crate) async fn receive(socket: &mut Socket) -> Result<Value, String> {
    loop {
        match tokio::time::timeout(Duration::from_secs(30), socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                return serde_json::from_str(text.as_str()).map_err(|e| e.to_string())
            }
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(e))) => return Err(e.to_string()),
            Ok(None) => return Err("closed".into()),
            Err(_) => return Err("no answer in 30 s".into()),
        }
    }
}

async fn expect_joined(socket: &mut Socket) -> Result<String, String> {
    loop {
        let message = receive(socket).await?;
        match message["type"].as_str() {
            Some("joined") => return Ok(message["code"].as_str().unwrap_or_default().to_string()),
            Some("error") => return Err(message.to_string()),
            _ => {}
        }
    }
}

impl RoomLoad {
    async fn connect(&self) -> Result<Socket, BenchError> {
        tokio_tungstenite::connect_async(self.url.as_str())
            .await
            .map(|(socket, _)| socket)
            .map_err(|e| BenchError::Room(self.index, e.to_string()))
    }

    async fn open(&self) -> Result<[Socket; 2], BenchError> {
        let fail = |e: String| BenchError::Room(self.index, e);
        let mut a = self.connect().await?;
        send(
            &mut a,
            json!({"v":1,"type":"create","game":{"kind":"english","players":2},"nickname":"bench","clock":"none"}),
        )
        .await
        .map_err(fail)?;
        let code = expect_joined(&mut a).await.map_err(fail)?;
        let mut b = self.connect().await?;
        send(
            &mut b,
            json!({"v":1,"type":"join","code":code,"nickname":"bench"}),
        )
        .await
        .map_err(fail)?;
        expect_joined(&mut b).await.map_err(fail)?;
        Ok([a, b])
    }

    /// Plays until stopped: the client to move thinks, sends, and the round trip ends when both
    /// clients hold the new state.
    async fn play(&self, sockets: [Socket; 2]) {
        let mut rng = SmallRng::seed_from_u64(self.index as u64);
        let [mut a, mut b] = sockets;
        let mut seen = [Seen::default(), Seen::default()];
        // (ply the move makes, when it was sent, which clients have it)
        let mut pending: Option<(u64, u64, Instant, [bool; 2])> = None;
        let mut next_move_at: Option<tokio::time::Instant> = None;
        loop {
            if self.stop.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            let wake = next_move_at
                .unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
            let (who, message) = tokio::select! {
                m = receive(&mut a) => (0, m),
                m = receive(&mut b) => (1, m),
                _ = tokio::time::sleep_until(wake) => {
                    next_move_at = None;
                    let mover = if seen[0].you == Some(seen[0].to_move) { 0 } else { 1 };
                    let state = seen[mover].clone();
                    if state.over || state.moves.is_empty() {
                        continue;
                    }
                    let text = state.moves[rng.gen_range(0..state.moves.len())].clone();
                    let socket = if mover == 0 { &mut a } else { &mut b };
                    if send(socket, json!({"v":1,"type":"move","move":text,"ply":state.ply})).await.is_err() {
                        return;
                    }
                    pending = Some((state.rematch, state.ply + 1, Instant::now(), [false, false]));
                    continue;
                }
            };
            let message = match message {
                Ok(message) => message,
                Err(_) => return,
            };
            if message["type"] == "error" {
                self.tally.lock().unwrap_or_else(|p| p.into_inner()).errors += 1;
                continue;
            }
            let Some(state) = read_state(&message) else {
                continue;
            };
            seen[who] = state.clone();
            if let Some((rematch, ply, sent, mut got)) = pending {
                if state.rematch == rematch && state.ply >= ply {
                    got[who] = true;
                    pending = Some((rematch, ply, sent, got));
                    if got == [true, true] {
                        pending = None;
                        if self.measuring.load(std::sync::atomic::Ordering::Relaxed) {
                            let mut tally = self.tally.lock().unwrap_or_else(|p| p.into_inner());
                            tally.moves += 1;
                            tally
                                .round_trips
                                .push(sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
                        }
                    }
                }
            }
            // Both clients up to date: the next move (or a rematch) after a think time.
            let agreed = seen[0].ply == seen[1].ply && seen[0].rematch == seen[1].rematch;
            if pending.is_none() && agreed && next_move_at.is_none() {
                if seen[0].over {
                    if who == 0 {
                        self.tally.lock().unwrap_or_else(|p| p.into_inner()).games += 1;
                        let _ = send(&mut a, json!({"v":1,"type":"rematch"})).await;
                    }
                    continue;
                }
                let think = self.think_ms / 2 + rng.gen_range(0..=self.think_ms);
                next_move_at = Some(tokio::time::Instant::now() + Duration::from_millis(think));
            }
        }
    }
}
