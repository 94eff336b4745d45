//! A position's value in the databases, and its one-byte form.
//!
//! Distances are plies to the end of the game with best play: the winner wins as fast as it can,
//! the loser holds out as long as it can. A win is always an odd distance (the winner makes the
//! last move), a loss an even one (0: the side to move has no move).

use super::error::EndgameError;
use crate::position::{GameResult, Outcome};

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
    Draw,
}

/// Not yet known (during a build only; never written).
pub(crate) const UNKNOWN: u8 = 0;
pub(crate) const DRAW: u8 = 1;
/// An index that names no position (two pieces on one square).
pub(crate) const INVALID: u8 = u8::MAX;
/// Longest distance one byte holds.
pub const MAX_DISTANCE: u32 = 252;

/// The byte of a win or loss at `distance` plies (odd: a win, even: a loss).
pub(crate) fn distance_byte(distance: u32) -> u8 {
    (distance + 2) as u8
}

/// The byte of a win or loss at `distance` plies, or an error past what a byte holds.
pub(crate) fn distance_byte_checked(distance: u32) -> Result<u8, EndgameError> {
    if distance > MAX_DISTANCE {
        return Err(EndgameError::TooLong(distance));
    }
    Ok(distance_byte(distance))
}

/// The byte of a position the rules end at once (`outcome()`): a draw, or lost in 0 (only the
/// side not to move can have won: the side to move has no move).
pub(crate) fn terminal_byte(outcome: &Outcome) -> u8 {
    match outcome.result {
        GameResult::Draw => DRAW,
        GameResult::Win(_) => distance_byte(0),
    }
}

/// The byte of a position whose every move leaves its slice, from its children's bytes: the
/// best of their values for the mover (no move at all, or none known, is a draw here; a
/// position without a move is told apart before).
pub(crate) fn best_of_children(children: impl IntoIterator<Item = u8>) -> Result<u8, EndgameError> {
    let best = children
        .into_iter()
        .filter_map(|byte| decode(byte).map(Value::parent))
        .max_by_key(|value| value.rank());
    match best {
        Some(Value::Win(d) | Value::Loss(d)) => distance_byte_checked(d),
        Some(Value::Draw) | None => Ok(DRAW),
    }
}

/// The distance a win or loss byte holds; `None` for the other bytes.
pub(crate) fn byte_distance(byte: u8) -> Option<u32> {
    (byte >= 2 && byte != INVALID).then(|| u32::from(byte) - 2)
}

/// The value a byte holds; `None` for an unknown or invalid one.
pub(crate) fn decode(byte: u8) -> Option<Value> {
    match byte {
        UNKNOWN | INVALID => None,
        DRAW => Some(Value::Draw),
        _ => {
            let distance = u32::from(byte) - 2;
            Some(if distance % 2 == 1 {
                Value::Win(distance)
            } else {
                Value::Loss(distance)
            })
        }
    }
}

impl Value {
    /// What a move to a position of this value is worth to the mover: the child's loss is the
    /// mover's win one ply later, and so on.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// An order on values for the side to move: faster wins first, then draws, then slower
    /// losses. Larger is better.
    pub fn rank(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - i64::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + i64::from(d),
        }
    }
}
