//! What both benchmarks share: their arguments and errors, the server child they start, its
//! memory and CPU read from `/proc`, and JSON messages over a WebSocket.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub(super) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Concurrent rooms (2 clients each).
    #[arg(long, default_value_t = 100)]
    pub rooms: usize,
    /// Mean think time before each move, in ms (each move draws 50–150 % of it).
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// Measured seconds (after every room is open and the warm-up).
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// Seconds between the ramp-up and the measured window.
    #[arg(long, default_value_t = 5)]
    pub warmup_secs: u64,
    /// Rooms opened per second during the ramp-up (0: as fast as 32 openings at a time go).
    #[arg(long, default_value_t = 0)]
    pub open_rate: u32,
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

pub(super) struct ServerChild(pub(super) Child);

impl Drop for ServerChild {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(super) fn spawn_server(args: &BenchArgs) -> Result<(ServerChild, String), BenchError> {
    spawn_server_with(args, &[])
}

/// Starts the server child with extra arguments; its address.
pub(super) fn spawn_server_with(
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
pub(super) fn rss_kib(pid: u32) -> Option<u64> {
    proc_file(pid, "status")?
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// User + system CPU ticks of a process.
pub(super) fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = proc_file(pid, "stat")?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

pub(super) async fn send(socket: &mut Socket, value: Value) -> Result<(), String> {
    socket
        .send(Message::Text(value.to_string().into()))
        .await
        .map_err(|e| e.to_string())
}

pub(super) async fn receive(socket: &mut Socket) -> Result<Value, String> {
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
