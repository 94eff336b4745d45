//! The first-move rule of pairings: a game between two people that a side has not started in
//! time is aborted by itself (ended without a result, reason [`ABORTED`]).

use crate::store::{RoomKind, RoomRecord, RoomResult};

/// The `result.reason` of an aborted game (no winner, no result for ratings).
pub const ABORTED: &str = "aborted";

/// How long each side of a pairing's game has for its first move before the game is aborted.
pub const FIRST_MOVE_MS: u64 = 30_000;

/// When the game of `record` is aborted by itself if the side to move has not moved: a pairing
/// between two people (never the CPU), running, before both sides' first moves.
pub fn abort_deadline(record: &RoomRecord) -> Option<u64> {
    let RoomKind::Pool {
        cpu_level: None, ..
    } = &record.kind
    else {
        return None;
    };
    if !record.started
        || record.result.is_some()
        || record.seats.len() != 2
        || record.moves.len() >= record.seats.len()
    {
        return None;
    }
    record
        .turn_started_at
        .map(|at| at.saturating_add(FIRST_MOVE_MS))
}

/// Aborts the game if its first-move deadline has passed at `now`; true if it did.
pub fn abort_if_due(record: &mut RoomRecord, now: u64) -> bool {
    if abort_deadline(record).is_none_or(|deadline| now < deadline) {
        return false;
    }
    record.offers.pending = None;
    record.result = Some(RoomResult {
        winner: None,
        reason: ABORTED.into(),
        flagged: None,
        ratings: None,
    });
    record.turn_started_at = None;
    true
}
