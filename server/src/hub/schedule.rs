//! When a hub acts on its own: how often its housekeeping runs, how long leases and presence
//! live, the CPU's decision coming back from its thinking task, and sleeping until a deadline.

use crate::error::RoomError;
use std::time::Duration;

/// How often the lease is renewed and presence reconciled.
pub(super) const HOUSEKEEPING: Duration = Duration::from_secs(2);
/// A lease outlives a missed renewal or two, and lapses within seconds of a crash.
pub(super) const LEASE_TTL: Duration = Duration::from_secs(6);
/// A presence entry outlives two missed renewals (connections renew every 5 s).
pub const PRESENCE_TTL: Duration = Duration::from_secs(15);
/// How often the lease holder renews the time to live of a room with someone connected (the
/// store's TTL is at most 30 min ahead: see `RoomRecord::ttl`).
pub(super) const KEEP_ALIVE_MS: u64 = 60_000;

/// What the CPU's thinking task sends back to its hub.
pub(super) struct CpuDecision {
    /// The moves the CPU thought about (an undo may bring the same ply back with other moves).
    pub(super) moves: Vec<String>,
    pub(super) ply: usize,
    pub(super) seat: u8,
    pub(super) choice: Result<Option<String>, RoomError>,
}

/// Sleeps until `deadline` on the room's clock; forever without one.
pub(super) async fn sleep_until(time: &crate::time::TimeSource, deadline: Option<u64>) {
    match deadline {
        Some(deadline) => time.sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
