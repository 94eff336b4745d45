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

/// Client processes at most (`--client-processes`, see `clients`).
pub const MAX_CLIENT_PROCESSES: usize = 16;

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
    #[arg(long, value_name = "URL", conflicts_with = "redis_cluster")]
    pub redis: Option<String>,
    /// Run the server on a Redis Cluster reached through these nodes (comma-separated), as
    /// `damas-server --redis-cluster`.
    #[arg(long, value_name = "URL,URL,…", value_delimiter = ',')]
    pub redis_cluster: Vec<String>,
    /// Server instances sharing the store (2 or more need `--redis` or `--redis-cluster`). The
    /// two seats of a room are on different instances whenever there are two or more.
    #[arg(long, default_value_t = 1)]
    pub instances: usize,
    /// Seconds after the measured window with every room open and nobody moving: the Redis calls
    /// of idle rooms (their housekeeping alone).
    #[arg(long, default_value_t = 0)]
    pub idle_secs: u64,
    /// Use a server already running at this address (host:port) instead of starting one; its
    /// RSS and CPU are read from `--server-pid` if given.
    #[arg(long)]
    pub addr: Option<String>,
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Spread the rooms' clients over this many processes of this program (each holds 2 sockets
    /// per room of its share, under its own open-file limit); the report merges them.
    #[arg(long, default_value_t = 1)]
    pub client_processes: usize,
    /// A client process's share (set by the bench for the processes it starts): the servers'
    /// WebSocket URLs, the index of its first room and the number of client processes.
    #[arg(long, hide = true, value_delimiter = ',')]
    pub worker_urls: Vec<String>,
    #[arg(long, hide = true, default_value_t = 0)]
    pub worker_first: usize,
    #[arg(long, hide = true, default_value_t = 1)]
    pub worker_share: usize,
    /// Pool load instead of rooms: this many players enter the pairing pools (spread evenly over
    /// `--pool-seconds`), each leaving once paired; then as many wait in pools that do not pair,
    /// for the memory per waiting player.
    #[arg(long, default_value_t = 0)]
    pub pool_players: usize,
    /// Seconds over which the pool players arrive.
    #[arg(long, default_value_t = 60)]
    pub pool_seconds: u64,
}

/// Instances at most (each is a process with its own runtime on this machine).
pub const MAX_INSTANCES: usize = 16;

#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("--instances must be between 1 and {MAX_INSTANCES}, not {0}")]
    Instances(usize),
    #[error("--instances {0} needs a shared store: --redis URL or --redis-cluster URL,URL,…")]
    InstancesNeedRedis(usize),
    #[error("--instances and --redis-cluster start their own servers: not with --addr")]
    InstancesWithAddr,
    #[error("{0:?} is not a Redis URL (redis://HOST:PORT)")]
    RedisUrl(String),
    #[error("--redis-cluster needs at least one node URL")]
    NoClusterNode,
    #[error("the pool benchmark runs one instance")]
    PoolInstances,
    #[error("--client-processes must be between 1 and {MAX_CLIENT_PROCESSES}, not {0}")]
    ClientProcesses(usize),
    #[error("the pool benchmark runs its clients in one process")]
    PoolClientProcesses,
    #[error("client process of rooms from {0}: {1}")]
    ClientProcess(usize, String),
    #[error("this damas-server was built without Redis support (cargo feature `redis`)")]
    NoRedis,
    #[error("redis calls: {0}")]
    RedisCalls(String),
    #[error("cannot start the server: {0}")]
    Spawn(std::io::Error),
    #[error("the server did not say where it listens")]
    NoAddress,
    #[error("room {0}: {1}")]
    Room(usize, String),
}

/// Where the servers keep rooms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BenchStore {
    Memory,
    Redis(String),
    Cluster(Vec<String>),
}

impl BenchStore {
    /// What the start line calls it.
    pub fn name(&self) -> &'static str {
        match self {
            BenchStore::Memory => "memory",
            BenchStore::Redis(_) => "redis",
            BenchStore::Cluster(_) => "redis cluster",
        }
    }

    /// The servers' arguments for it.
    fn server_args(&self) -> Vec<String> {
        match self {
            BenchStore::Memory => Vec::new(),
            BenchStore::Redis(url) => vec!["--redis".into(), url.clone()],
            BenchStore::Cluster(nodes) => vec!["--redis-cluster".into(), nodes.join(",")],
        }
    }
}

/// A Redis URL as the bench takes it: `redis://` and a host (no check that anything listens).
fn redis_url(url: &str) -> Result<String, BenchError> {
    let url = url.trim();
    let host = url
        .strip_prefix("redis://")
        .map(|rest| rest.split(['/', '?']).next().unwrap_or_default())
        .map(|authority| authority.rsplit('@').next().unwrap_or_default())
        .unwrap_or_default();
    if host.is_empty() || host.starts_with(':') || host.contains(char::is_whitespace) {
        return Err(BenchError::RedisUrl(url.to_string()));
    }
    Ok(url.to_string())
}

impl BenchArgs {
    /// The arguments checked together: the store the servers use.
    pub fn validate(&self) -> Result<BenchStore, BenchError> {
        if self.instances == 0 || self.instances > MAX_INSTANCES {
            return Err(BenchError::Instances(self.instances));
        }
        let store = match (&self.redis, self.redis_cluster.as_slice()) {
            (Some(url), _) => BenchStore::Redis(redis_url(url)?),
            (None, []) => BenchStore::Memory,
            (None, nodes) => {
                let nodes = nodes
                    .iter()
                    .filter(|node| !node.trim().is_empty())
                    .map(|node| redis_url(node))
                    .collect::<Result<Vec<_>, _>>()?;
                if nodes.is_empty() {
                    return Err(BenchError::NoClusterNode);
                }
                BenchStore::Cluster(nodes)
            }
        };
        if self.instances > 1 && store == BenchStore::Memory {
            return Err(BenchError::InstancesNeedRedis(self.instances));
        }
        if self.addr.is_some() && (self.instances > 1 || !self.redis_cluster.is_empty()) {
            return Err(BenchError::InstancesWithAddr);
        }
        if self.pool_players > 0 && self.instances > 1 {
            return Err(BenchError::PoolInstances);
        }
        if self.client_processes == 0 || self.client_processes > MAX_CLIENT_PROCESSES {
            return Err(BenchError::ClientProcesses(self.client_processes));
        }
        if self.pool_players > 0 && self.client_processes > 1 {
            return Err(BenchError::PoolClientProcesses);
        }
        Ok(store)
    }
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
    command.args(args.validate()?.server_args());
    let mut child = ServerChild(command.spawn().map_err(BenchError::Spawn)?);
    let stdout = child.0.stdout.take().ok_or(BenchError::NoAddress)?;
    let mut line = String::new();
    let mut stdout = BufReader::new(stdout);
    stdout.read_line(&mut line).map_err(BenchError::Spawn)?;
    // The server logs to its stdout: pass it on to stderr (a closed pipe would lose its logs).
    std::thread::spawn(move || {
        let mut log = String::new();
        while stdout.read_line(&mut log).is_ok_and(|n| n > 0) {
            eprint!("server: {log}");
            log.clear();
        }
    });
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

/// What `receive` says when nothing came for 30 s.
pub(super) const NO_ANSWER: &str = "no answer in 30 s";

pub(super) async fn receive(socket: &mut Socket) -> Result<Value, String> {
    loop {
        match tokio::time::timeout(Duration::from_secs(30), socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                return serde_json::from_str(text.as_str()).map_err(|e| e.to_string())
            }
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(e))) => return Err(e.to_string()),
            Ok(None) => return Err("closed".into()),
            Err(_) => return Err(NO_ANSWER.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        bench: BenchArgs,
    }

    fn parse(args: &[&str]) -> BenchArgs {
        Cli::try_parse_from(std::iter::once("bench").chain(args.iter().copied()))
            .expect("clap accepts these")
            .bench
    }

    #[test]
    fn the_store_follows_the_arguments() {
        assert_eq!(parse(&[]).validate().unwrap(), BenchStore::Memory);
        assert_eq!(
            parse(&["--redis", "redis://127.0.0.1:6399/", "--instances", "2"])
                .validate()
                .unwrap(),
            BenchStore::Redis("redis://127.0.0.1:6399/".into())
        );
        assert_eq!(
            parse(&[
                "--redis-cluster",
                "redis://127.0.0.1:7101, redis://127.0.0.1:7102"
            ])
            .validate()
            .unwrap(),
            BenchStore::Cluster(vec![
                "redis://127.0.0.1:7101".into(),
                "redis://127.0.0.1:7102".into()
            ])
        );
    }

    #[test]
    fn wrong_combinations_are_typed_errors() {
        let error = |args: &[&str]| parse(args).validate().unwrap_err();
        assert!(matches!(
            error(&["--instances", "3"]),
            BenchError::InstancesNeedRedis(3)
        ));
        assert!(matches!(
            error(&["--instances", "17", "--redis", "redis://h:1"]),
            BenchError::Instances(17)
        ));
        assert!(matches!(
            error(&["--redis-cluster", ","]),
            BenchError::NoClusterNode
        ));
        assert!(matches!(
            error(&["--redis-cluster", "redis://:7000"]),
            BenchError::RedisUrl(url) if url == "redis://:7000"
        ));
        assert!(matches!(
            error(&["--redis", "127.0.0.1:6379"]),
            BenchError::RedisUrl(_)
        ));
        assert!(matches!(
            error(&["--redis-cluster", "redis://h:1", "--addr", "127.0.0.1:8080"]),
            BenchError::InstancesWithAddr
        ));
        assert!(matches!(
            error(&[
                "--pool-players",
                "10",
                "--instances",
                "2",
                "--redis",
                "redis://h:1"
            ]),
            BenchError::PoolInstances
        ));
        assert!(matches!(
            error(&["--client-processes", "0"]),
            BenchError::ClientProcesses(0)
        ));
        assert!(matches!(
            error(&["--client-processes", "17"]),
            BenchError::ClientProcesses(17)
        ));
        assert!(matches!(
            error(&["--pool-players", "10", "--client-processes", "2"]),
            BenchError::PoolClientProcesses
        ));
    }
}
