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

/// A presence entry: the seat and the connection holding it.
pub(super) fn presence_member(seat: u8, conn: &str) -> String {
    format!("{seat}:{conn}")
}

pub(super) fn seat_of_member(member: &str) -> Option<u8> {
    member.split_once(':')?.0.parse().ok()
}
