//! `damas-server bench`: a load generator on loopback. It starts a `damas-server` child (this same
//! binary; in-memory store, or `--redis URL`), opens N rooms of English checkers with 2 clients
//! each, and has every client play legal moves (picked from the server's own list) after a think
//! time, rematching at each game's end. It reports the ramp-up (opening the rooms, which may
//! saturate the machine by itself) and the steady state apart: for the ramp-up the time to open,
//! each room's opening time at p50/p99 and the server's CPU; for the measured window (after the
//! ramp-up and a warm-up) moves/s, games finished within it, the move round trip (send → every
//! client of the room has the new state) at p50/p99, and the server's RSS and CPU.
//!
//! A benchmark, not a test: figures go to docs/performance.md with the command that made them.
//!
//! `--redis URL` or `--redis-cluster URL,URL,…` puts the rooms in Redis; `--instances N` starts N
//! servers on that store and puts the two seats of each room on different instances (every move
//! then crosses instances through the store's events). With Redis, the calls every master ran in
//! the measured window (`INFO commandstats` before and after, summed over a Cluster's masters) are
//! printed in total, per room and by command; `--idle-secs S` adds a window with every room open
//! and nobody moving, for what idle rooms cost.
//!
//! `--client-processes N` spreads the clients over N processes of this program (see `clients`),
//! for more rooms than one process's open-file limit holds sockets.
//!
//! `--pool-players N` runs the pairing pools' benchmark instead (see `pools`).

mod call_counter;
mod clients;
mod harness;
mod pools;
#[cfg(feature = "redis")]
pub mod redis_calls;
mod room_clients;
mod rooms;
mod tally;

pub use harness::MAX_CLIENT_PROCESSES;
pub use harness::{BenchArgs, BenchError, BenchStore, MAX_INSTANCES};

/// Runs the benchmark `args` ask for.
pub async fn run(args: BenchArgs) -> Result<(), BenchError> {
    args.validate()?;
    if !args.worker_urls.is_empty() {
        return clients::run_worker(&args).await;
    }
    if args.pool_players > 0 {
        return pools::run(&args).await;
    }
    rooms::run(args).await
}
