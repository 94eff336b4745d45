//! `damas-loadgen`: a load generator for the room server. N rooms of English checkers, each with
//! two WebSocket clients playing legal moves (picked at random from the server's `legal_moves`)
//! after a think time; a finished game is followed by a rematch, so every room plays for the
//! whole run. Prints moves/s, the move round trip (send → both clients hold the new state) at
//! p50/p99/max, and the server's RSS and CPU (and with `--redis`, Redis's memory and CPU).
//!
//! By default it starts the `damas-server` next to its own executable on a free loopback port
//! (`--redis URL` passed through), so the figures are the server's alone; `--url` load-tests a
//! server already running (then `--pid` names it for RSS/CPU). docs/performance.md has the runs.

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

#[derive(Parser, Debug)]
#[command(name = "damas-loadgen", about = "Load generator for damas-server")]
struct Cli {
    /// Concurrent rooms (two sockets each).
    #[arg(long, default_value_t = 100)]
    rooms: usize,
    /// Mean think time before each move, ms (each pause is drawn from 0.5× to 1.5× of it).
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Seconds measured, after the rooms are open and a warm-up.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Seconds of play before measuring.
    #[arg(long, default_value_t = 10)]
    warmup: u64,
    /// Rooms opened per second while ramping up.
    #[arg(long, default_value_t = 200)]
    ramp: u64,
    /// Start the server with this Redis (else: the in-memory store).
    #[arg(long, value_name = "URL")]
    redis: Option<String>,
    /// Load an already running server (`ws://host:port/ws`) instead of starting one.
    #[arg(long)]
    url: Option<String>,
    /// The running server's pid, for its RSS and CPU (with `--url`).
    #[arg(long)]
    pid: Option<u32>,
    /// Random seed for the moves and think times.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

#[derive(Debug, thiserror::Error)]
enum LoadError {
    #[error("websocket: {0}")]
    Socket(#[from] tokio_tungstenite::tungstenite::Error),
    #[error("connection closed")]
    Closed,
    #[error("server error: {0}")]
    Server(String),
    #[error("unexpected message: {0}")]
    Unexpected(String),
}

/// What the rooms report while measuring.
#[derive(Default)]
struct Stats {
    measuring: AtomicBool,
    moves: AtomicU64,
    errors: AtomicU64,
    games: AtomicU64,
    /// Round trips in microseconds.
    round_trips: Mutex<Vec<u32>>,
}

fn main() {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    if let Err(message) = runtime.block_on(run(cli)) {
        eprintln!("damas-loadgen: {message}");
        std::process::exit(1);
    }
}

async fn run(cli: Cli) -> Result<(), String> {
    let mut server = None;
    let (url, pid) = match &cli.url {
        Some(url) => (url.clone(), cli.pid),
        None => {
            let started = start_server(cli.redis.as_deref())?;
            let pair = (started.url.clone(), Some(started.child.id()));
            server = Some(started);
            pair
        }
    };
    let backend = if cli.redis.is_some() {
        "redis"
    } else {
        "memory"
    };
    println!(
        "damas-loadgen: {} rooms × 2 clients, think {} ms, {} store, server {url}",
        cli.rooms, cli.think_ms, backend
    );
    let base = pid.and_then(sample);
    let stats = Arc::new(Stats::default());
    let opened = Arc::new(AtomicU64::new(0));
    let think = Duration::from_millis(cli.think_ms);
    let mut rooms = Vec::with_capacity(cli.rooms);
    let ramp_pause = Duration::from_micros(1_000_000 / cli.ramp.max(1));
    for n in 0..cli.rooms {
        let (url, stats, opened) = (url.clone(), Arc::clone(&stats), Arc::clone(&opened));
        let seed = cli.seed.wrapping_mul(1_000_003).wrapping_add(n as u64);
        rooms.push(tokio::spawn(async move {
            if let Err(error) = play_room(&url, think, seed, &stats, &opened).await {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                eprintln!("room {n}: {error}");
            }
        }));
        tokio::time::sleep(ramp_pause).await;
    }
    let ramp_deadline = Instant::now() + Duration::from_secs(60);
    while (opened.load(Ordering::Relaxed) as usize) < cli.rooms && Instant::now() < ramp_deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "rooms open: {} of {}",
        opened.load(Ordering::Relaxed),
        cli.rooms
    );
    tokio::time::sleep(Duration::from_secs(cli.warmup)).await;

    let redis_before = match &cli.redis {
        Some(url) => redis_info(url).await,
        None => None,
    };
    let start = pid.and_then(sample);
    let self_start = sample(std::process::id());
    let started_at = Instant::now();
    stats.measuring.store(true, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(cli.seconds)).await;
    stats.measuring.store(false, Ordering::SeqCst);
    let elapsed = started_at.elapsed().as_secs_f64();
    let end = pid.and_then(sample);
    let self_end = sample(std::process::id());
    let redis_after = match &cli.redis {
        Some(url) => redis_info(url).await,
        None => None,
    };

    let moves = stats.moves.load(Ordering::Relaxed);
    let mut trips =
        std::mem::take(&mut *stats.round_trips.lock().unwrap_or_else(|p| p.into_inner()));
    trips.sort_unstable();
    let at = |q: f64| -> f64 {
        if trips.is_empty() {
            return f64::NAN;
        }
        let index = ((trips.len() as f64 - 1.0) * q).round() as usize;
        f64::from(trips[index]) / 1000.0
    };
    println!("measured {elapsed:.1} s");
    println!(
        "moves: {moves} ({:.1} moves/s), games finished: {}, errors: {}",
        moves as f64 / elapsed,
        stats.games.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed)
    );
    println!(
        "move round trip (send → both clients updated): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    );
    if let (Some(base), Some(start), Some(end)) = (base, start, end) {
        let cpu = (end.cpu_secs - start.cpu_secs) / elapsed * 100.0;
        let per_room = (end.rss_kib.saturating_sub(base.rss_kib)) as f64 / cli.rooms as f64;
        println!(
            "server: RSS {} KiB at end ({} KiB before the rooms; {per_room:.1} KiB per room), CPU {cpu:.0}% of one core",
            end.rss_kib, base.rss_kib
        );
    }
    if let (Some(start), Some(end)) = (self_start, self_end) {
        let cpu = (end.cpu_secs - start.cpu_secs) / elapsed * 100.0;
        println!("load generator: CPU {cpu:.0}% of one core (same machine)");
    }
    if let (Some(before), Some(after)) = (redis_before, redis_after) {
        let cpu = (after.cpu_secs - before.cpu_secs) / elapsed * 100.0;
        println!(
            "redis: used_memory {} KiB, CPU {cpu:.0}% of one core, {} keys",
            after.used_memory / 1024,
            after.keys
        );
    }
    for room in rooms {
        room.abort();
    }
    drop(server);
    Ok(())
}

/// A server process this tool started; killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(redis: Option<&str>) -> Result<Server, String> {
    let me = std::env::current_exe().map_err(|e| format!("own path: {e}"))?;
    let binary = me.with_file_name("damas-server");
    let mut command = Command::new(&binary);
    command
        .args(["--port", "0"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if let Some(url) = redis {
        command.args(["--redis", url]);
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let Some(stdout) = child.stdout.take() else {
        return Err("no server stdout".into());
    };
    let mut stdout = BufReader::new(stdout);
    let mut line = String::new();
    stdout
        .read_line(&mut line)
        .map_err(|e| format!("server start line: {e}"))?;
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or_else(|| format!("unexpected server start line {line:?}"))?
        .to_string();
    std::thread::spawn(move || {
        let mut sink = String::new();
        while stdout.read_line(&mut sink).is_ok_and(|n| n > 0) {
            sink.clear();
        }
    });
    Ok(Server {
        child,
        url: format!("ws://{addr}/ws"),
    })
}

/// A client socket with Nagle's algorithm off, as a game client's small messages want.
async fn connect(url: &str) -> Result<Socket, LoadError> {
    // Small read buffers: 2,000 sockets at the default 128 KiB each would be 250 MB here.
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true).await?;
    Ok(socket)
}

async fn send(socket: &mut Socket, message: Value) -> Result<(), LoadError> {
    socket
        .send(Message::Text(message.to_string().into()))
        .await?;
    Ok(())
}

/// Reads until a message of `kind` (a `state` must also satisfy `accept`); an `error` fails.
async fn until(
    socket: &mut Socket,
    kind: &str,
    mut accept: impl FnMut(&Value) -> bool,
) -> Result<Value, LoadError> {
    loop {
        let Some(message) = socket.next().await else {
            return Err(LoadError::Closed);
        };
        let Message::Text(text) = message? else {
            continue;
        };
        let value: Value = serde_json::from_str(text.as_str())
            .map_err(|e| LoadError::Unexpected(e.to_string()))?;
        match value["type"].as_str() {
            Some("error") => return Err(LoadError::Server(value.to_string())),
            Some(found) if found == kind && (kind != "state" || accept(&value)) => {
                return Ok(value)
            }
            _ => {}
        }
    }
}

fn ply(state: &Value) -> u64 {
    state["room"]["view"]["ply"].as_u64().unwrap_or(0)
}

fn over(state: &Value) -> bool {
    !state["room"]["result"].is_null()
}

/// One room: opens it with two clients, then plays (and rematches) until aborted.
async fn play_room(
    url: &str,
    think: Duration,
    seed: u64,
    stats: &Stats,
    opened: &AtomicU64,
) -> Result<(), LoadError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut first = connect(url).await?;
    send(
        &mut first,
        json!({"v":1,"type":"create","game":{"kind":"english","players":2},"nickname":"A","clock":"none"}),
    )
    .await?;
    let joined = until(&mut first, "joined", |_| true).await?;
    let code = joined["code"].as_str().unwrap_or_default().to_string();
    let mut second = connect(url).await?;
    send(
        &mut second,
        json!({"v":1,"type":"join","code":code,"nickname":"B"}),
    )
    .await?;
    until(&mut second, "joined", |_| true).await?;
    opened.fetch_add(1, Ordering::Relaxed);
    let mut clients = [first, second];
    let mut states = [Value::Null, Value::Null];
    let mut rematch = 0u64;
    for (client, state) in clients.iter_mut().zip(states.iter_mut()) {
        *state = until(client, "state", |s| s["room"]["started"] == true).await?;
    }
    loop {
        if over(&states[0]) {
            stats.games.fetch_add(1, Ordering::Relaxed);
            rematch += 1;
            send(&mut clients[0], json!({"v":1,"type":"rematch"})).await?;
            for (client, state) in clients.iter_mut().zip(states.iter_mut()) {
                *state = until(client, "state", |s| {
                    s["room"]["rematch"].as_u64() == Some(rematch) && s["room"]["started"] == true
                })
                .await?;
            }
            continue;
        }
        let to_move = states[0]["room"]["view"]["to_move"].as_u64();
        let mover = states
            .iter()
            .position(|s| s["you"].as_u64() == to_move)
            .ok_or_else(|| LoadError::Unexpected("nobody sits at the seat to move".into()))?;
        let moves = states[mover]["room"]["view"]["legal_moves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if moves.is_empty() {
            return Err(LoadError::Unexpected(
                "no legal move in a game in play".into(),
            ));
        }
        let text = moves[rng.gen_range(0..moves.len())]["move"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let pause = think.mul_f64(rng.gen_range(0.5..1.5));
        tokio::time::sleep(pause).await;
        let target = ply(&states[mover]);
        let measured = stats.measuring.load(Ordering::Relaxed);
        let sent = Instant::now();
        send(
            &mut clients[mover],
            json!({"v":1,"type":"move","move":text,"ply":target}),
        )
        .await?;
        for (client, state) in clients.iter_mut().zip(states.iter_mut()) {
            *state = until(client, "state", |s| ply(s) > target || over(s)).await?;
        }
        if measured {
            let micros = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
            stats.moves.fetch_add(1, Ordering::Relaxed);
            stats
                .round_trips
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(micros);
        }
    }
}

/// Clock ticks per second of /proc/*/stat times (USER_HZ: 100 on Linux).
const USER_HZ: f64 = 100.0;

#[derive(Clone, Copy)]
struct Sample {
    rss_kib: u64,
    cpu_secs: f64,
}

/// RSS and user+system CPU time of a process, from /proc.
fn sample(pid: u32) -> Option<Sample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kib = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start at ") ".
    let fields: Vec<&str> = stat.rsplit_once(") ")?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(Sample {
        rss_kib,
        cpu_secs: ticks / USER_HZ,
    })
}

struct RedisInfo {
    used_memory: u64,
    cpu_secs: f64,
    keys: u64,
}

#[cfg(feature = "redis")]
async fn redis_info(url: &str) -> Option<RedisInfo> {
    let client = redis::Client::open(url).ok()?;
    let mut connection = client.get_multiplexed_async_connection().await.ok()?;
    let info: String = redis::cmd("INFO").query_async(&mut connection).await.ok()?;
    let field = |name: &str| -> Option<f64> {
        info.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))?
            .trim()
            .parse()
            .ok()
    };
    let keys: u64 = redis::cmd("DBSIZE")
        .query_async(&mut connection)
        .await
        .ok()?;
    Some(RedisInfo {
        used_memory: field("used_memory")? as u64,
        cpu_secs: field("used_cpu_user")? + field("used_cpu_sys")?,
        keys,
    })
}

#[cfg(not(feature = "redis"))]
async fn redis_info(_url: &str) -> Option<RedisInfo> {
    None
}
