//! What a hub publishes to its room's connections: the room as this instance last saw it, whole
//! and as a delta (docs/protocol.md, "Deltas"), and which of them a client can use.

use serde_json::value::RawValue;

/// The room as this instance last saw it, ready to send.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// The store's version of the record (0: not loaded yet).
    pub version: u64,
    /// The `room` of the `state` message.
    pub room: Option<Box<RawValue>>,
    /// The same `room` for a client that holds enough of this game's history (docs/protocol.md,
    /// "Deltas").
    pub delta: Option<Delta>,
    /// Which game and how much of its history `room` shows.
    pub mark: Option<HistoryMark>,
    /// Token hash of each seat, to tell a connection its seat (never sent).
    pub seat_hashes: Vec<Option<String>>,
    /// The connection that took each token's seat last, by token hash (never sent): an older
    /// connection with the same token sees it was replaced.
    pub holders: Vec<(String, String)>,
    /// The room no longer exists.
    pub gone: bool,
}

/// A `room` that only carries the history entries from `history_from` on, and no layout. States
/// grow with the game's history, and every socket's write buffer keeps the capacity of the largest
/// frame it sent: deltas keep both small.
#[derive(Debug)]
pub struct Delta {
    pub history_from: usize,
    pub room: Box<RawValue>,
}

/// Which game of the room a state shows, and how many history entries it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryMark {
    pub rematch: u32,
    pub game_id: String,
    pub history_len: usize,
}

impl HistoryMark {
    fn same_game(&self, other: &HistoryMark) -> bool {
        self.rematch == other.rematch && self.game_id == other.game_id
    }
}

impl Snapshot {
    /// The delta `room` for a client that holds `held`, if it can complete it (same game, at
    /// least `history_from` entries; within a game the history only grows).
    pub fn delta_for(&self, held: Option<&HistoryMark>) -> Option<&RawValue> {
        let delta = self.delta.as_ref().filter(|delta| {
            matches!((held, &self.mark), (Some(held), Some(mark))
                if held.same_game(mark) && held.history_len >= delta.history_from)
        });
        delta.map(|d| &*d.room)
    }
}

/// What the next delta is taken against: the last snapshot a hub published with a room in it.
pub(super) struct DeltaBase {
    mark: HistoryMark,
    /// Where that snapshot's delta began.
    history_from: usize,
}

impl DeltaBase {
    /// The base a published snapshot leaves for the next one.
    pub(super) fn of(snapshot: &Snapshot) -> Option<DeltaBase> {
        let mark = snapshot.mark.clone()?;
        Some(DeltaBase {
            history_from: snapshot
                .delta
                .as_ref()
                .map_or(mark.history_len, |d| d.history_from),
            mark,
        })
    }

    /// Where the delta of a snapshot at `mark` starts, if there can be one (the same game).
    ///
    /// Within one game of the room the history only grows. The delta starts where the last new
    /// entries began, not at the last snapshot: a state that only changes presence or clocks must
    /// not cost a whole room to a client that missed the move just before it (the watch channel
    /// keeps only the latest snapshot).
    pub(super) fn history_from(&self, mark: &HistoryMark) -> Option<usize> {
        if !self.mark.same_game(mark) || self.mark.history_len > mark.history_len {
            return None;
        }
        Some(if self.mark.history_len < mark.history_len {
            self.mark.history_len
        } else {
            self.history_from
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_string()).expect("JSON")
    }

    fn mark(rematch: u32, game_id: &str, history_len: usize) -> HistoryMark {
        HistoryMark {
            rematch,
            game_id: game_id.to_string(),
            history_len,
        }
    }

    /// A snapshot at 6 entries whose delta starts at entry 5 (the last move).
    fn after_a_move() -> Snapshot {
        Snapshot {
            version: 9,
            room: Some(raw(r#""whole""#)),
            delta: Some(Delta {
                history_from: 5,
                room: raw(r#""delta""#),
            }),
            mark: Some(mark(0, "g", 6)),
            ..Snapshot::default()
        }
    }

    /// What the connection sends (`Connection::push_state`): the delta, else the whole room.
    fn sent(snapshot: &Snapshot, held: Option<HistoryMark>) -> &str {
        let whole = snapshot.room.as_deref().expect("a room");
        snapshot.delta_for(held.as_ref()).unwrap_or(whole).get()
    }

    #[test]
    fn a_client_holding_enough_of_the_same_game_gets_the_delta() {
        let snapshot = after_a_move();
        // Held the state before the move, or this very state (a presence-only change).
        assert_eq!(sent(&snapshot, Some(mark(0, "g", 5))), r#""delta""#);
        assert_eq!(sent(&snapshot, Some(mark(0, "g", 6))), r#""delta""#);
    }

    #[test]
    fn a_client_that_cannot_complete_the_delta_gets_the_whole_room() {
        let snapshot = after_a_move();
        assert_eq!(sent(&snapshot, None), r#""whole""#);
        // Missed two moves.
        assert_eq!(sent(&snapshot, Some(mark(0, "g", 4))), r#""whole""#);
        // Another rematch, another game.
        assert_eq!(sent(&snapshot, Some(mark(1, "g", 6))), r#""whole""#);
        assert_eq!(sent(&snapshot, Some(mark(0, "h", 6))), r#""whole""#);
    }

    #[test]
    fn a_delta_starts_where_the_last_new_entries_began() {
        let base = DeltaBase::of(&after_a_move()).expect("a base");
        // A presence-only change keeps the last move in the delta.
        assert_eq!(base.history_from(&mark(0, "g", 6)), Some(5));
        // Two more moves: the delta holds both.
        assert_eq!(base.history_from(&mark(0, "g", 8)), Some(6));
        // Another game, or a history that shrank (an undo): no delta.
        assert_eq!(base.history_from(&mark(1, "g", 6)), None);
        assert_eq!(base.history_from(&mark(0, "g", 4)), None);
    }
}
