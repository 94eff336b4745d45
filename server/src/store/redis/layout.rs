//! How a room lives in Redis: its keys and events channel, and how long a command may wait.

use crate::store::{RoomCode, StoreError};
use std::time::Duration;

/// How long a command may wait for Redis (then the caller gets `Unavailable`), and how long a
/// connection attempt may take. A Redis that is down or paused must make the server unavailable
/// at once, not slow: `/health` answers 503 and actions `unavailable` within 1 s (a room action
/// may wait for one command of the room's housekeeping, then make its own). A healthy Redis
/// answers in well under a millisecond.
pub(super) const RESPONSE_TIMEOUT: Duration = Duration::from_millis(300);

pub(super) fn room_key(code: &RoomCode, part: &str) -> String {
    format!("damas:{{{}}}:{part}", code.as_str())
}

pub(super) fn events_channel(code: &str) -> String {
    format!("damas:{{{code}}}:events")
}

/// The room code in an events channel's name.
pub(super) fn code_of_channel(channel: &str) -> Option<&str> {
    channel.strip_prefix("damas:{")?.strip_suffix("}:events")
}

/// A duration as Redis milliseconds (at least 1: `PX 0` is an error).
pub(super) fn millis(ttl: Duration) -> u64 {
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1)
}

pub(super) fn unavailable(error: redis::RedisError) -> StoreError {
    StoreError::Unavailable(error.to_string())
}

/// The sorted set of live instances, scored by when their heartbeat lapses (Redis clock, ms).
pub(super) const LIVE_KEY: &str = "damas:instances";

/// The record hash's field of a seat's presence entry (`CONNECTION INSTANCE`).
pub(super) fn presence_field(seat: u8) -> String {
    format!("seat:{seat}")
}

/// The instance named by a presence entry.
pub(super) fn instance_of_entry(entry: &str) -> Option<&str> {
    entry.split_once(' ').map(|(_, instance)| instance)
}
