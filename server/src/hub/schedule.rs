//! When a hub acts on its own: how often the instance's heartbeat beats and how long it lives,
//! how often a hub checks its lease and presence unasked, the CPU's decision coming back from
//! its thinking task, and sleeping until a deadline.

use crate::error::RoomError;
use std::time::Duration;

/// How often the instance renews its heartbeat and reads the live set back (one store call).
pub(super) const HEARTBEAT: Duration = Duration::from_secs(1);
/// A heartbeat outlives a few missed beats, and lapses within seconds of a crash: a lost
/// instance's rooms move to another within this plus a beat.
pub(super) const HEARTBEAT_TTL: Duration = Duration::from_secs(5);
/// The safety net: a hub checks its lease and presence this often even when no event came
/// (events are hints; one lost to a dropped subscription is caught up here).
pub(super) const SAFETY_CHECK: Duration = Duration::from_secs(60);
/// How often the lease holder renews the time to live of a room with someone connected (the
/// store's TTL is at most 30 min ahead: see `RoomRecord::ttl`).
pub(super) const KEEP_ALIVE_MS: u64 = 60_000;
/// A keep-alive the store did not answer is tried again this much later.
pub(super) const KEEP_ALIVE_RETRY_MS: u64 = 5_000;

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
