//! What a server instance is told at start: its limits, the browsers it admits, its time.

use crate::rated_results::{LogRatedResults, RatedResults};
use crate::time::TimeSource;
use damas::search::levels::MoveTime;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The seeds: "a los 45 segundos la CPU empieza a jugar sus turnos".
pub const TAKEOVER: Duration = Duration::from_secs(45);

/// How long a client may take to send an HTTP request head (half-open connections go then).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// How often a pairing pool pairs its waiting players.
pub const POOL_WAVE: Duration = Duration::from_secs(2);

/// How long a player waits in a pool for a person before the CPU stands in.
pub const POOL_CPU_AFTER: Duration = Duration::from_secs(20);

/// Messages a connection may send per second, on average (`rate_limited` beyond) …
pub const MESSAGE_RATE: u32 = 10;

/// … and in one burst.
pub const MESSAGE_BURST: u32 = 20;

#[derive(Clone, Debug)]
pub struct Config {
    /// The time every deadline is measured on (tests move it forward).
    pub time: TimeSource,
    /// How long a seat may stay disconnected before the CPU plays its turns.
    pub takeover: Duration,
    /// Origins (`scheme://host[:port]`) whose pages may open a socket; `*` admits any. A page
    /// served by this server (same host) is always admitted; clients that send no Origin
    /// (native apps, tests) too.
    pub origins: Vec<String>,
    /// The static UI to serve (`/` and `/r/<code>`), if any.
    pub ui_dir: Option<PathBuf>,
    /// Longest message a client may send, in bytes; longer ones are refused with `too_large`.
    pub max_message: usize,
    /// Messages a connection may send per second, on average …
    pub rate_per_second: f64,
    /// … and in one burst.
    pub rate_burst: f64,
    /// Protocol errors (malformed, too large, rate-limited …) after which a connection is closed.
    pub max_strikes: u32,
    /// Open TCP connections at most (WebSockets, HTTP requests, and connections still sending
    /// their request); more are closed at once. `damas-server` keeps it below the process's file
    /// limit (`limits::connection_cap`).
    pub max_connections: usize,
    /// A connection that has not sent a whole HTTP request head within this time is closed.
    pub header_timeout: Duration,
    /// This instance's name as a lease owner.
    pub instance: String,
    /// The expert CPU's thinking time per move (the server's CPU budget; 0.5–5 s).
    pub cpu_movetime: MoveTime,
    /// Pairing pools: how often a wave pairs the waiting players …
    pub pool_wave: Duration,
    /// … and how long a player waits before the CPU stands in.
    pub pool_cpu_after: Duration,
    /// Where rated games' results go: only logged by default; `run_with_accounts` with accounts
    /// writes them to its player store (`rated_play::StoreRatedResults`).
    pub ratings: Arc<dyn RatedResults>,
    /// Share the pairing pools through this Redis (with the Redis room store); else in memory.
    pub pool_redis: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            time: TimeSource::new(),
            takeover: TAKEOVER,
            origins: Vec::new(),
            ui_dir: None,
            max_message: 4096,
            rate_per_second: f64::from(MESSAGE_RATE),
            rate_burst: f64::from(MESSAGE_BURST),
            max_strikes: 10,
            max_connections: crate::limits::MAX_CONNECTIONS,
            header_timeout: HEADER_TIMEOUT,
            instance: crate::lobby::new_code().to_string(),
            cpu_movetime: MoveTime::DEFAULT,
            pool_wave: POOL_WAVE,
            pool_cpu_after: POOL_CPU_AFTER,
            ratings: Arc::new(LogRatedResults),
            pool_redis: None,
        }
    }
}
