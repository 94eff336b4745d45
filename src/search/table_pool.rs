//! Expert's transposition tables, kept from one move to the next. A search two plies after the
//! last one of the same seat finds that search's entries for the positions it expected, so its
//! first iterations cost little and its move ordering starts from the previous best lines: the
//! usual way a timed engine turns the time it spent last move into depth on this one.
//!
//! A table's scores are from its root seat's side and follow from the search's parameters (the
//! evaluation, the reductions, the endgame databases), so a table is kept for an [`Owner`] (the
//! game variant, the seat, the parameters) and only handed to searches by the same owner. Entries
//! of its earlier searches answer probes (a depth and bound stay true of a position whatever
//! search stored them) but give way to the new search's ([`Table::next_search`]). Only
//! time-managed searches without noise use the pool (`alphabeta::search`, from the caller's
//! [`super::SearchContext`]): the node-budgeted
//! levels start from an empty table so that they replay.

use super::params::Params;
use super::table::Table;
use crate::position::{Seat, Variant};
use std::sync::Mutex;

/// Whose searches a kept table serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    pub variant: Variant,
    /// The root seat: the side the table's scores are from.
    pub seat: Seat,
    /// The search's parameters, its seed set to 0 (searches without noise do not use it).
    pub params: Params,
}

/// At most `capacity` tables, the most recently given back first.
pub struct TablePool {
    kept: Mutex<Vec<(Owner, Table)>>,
    capacity: usize,
}

impl std::fmt::Debug for TablePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.kept.lock().map_or(0, |kept| kept.len());
        f.debug_struct("TablePool")
            .field("kept", &kept)
            .field("capacity", &self.capacity)
            .finish()
    }
}

impl TablePool {
    pub const fn new(capacity: usize) -> TablePool {
        TablePool {
            kept: Mutex::new(Vec::new()),
            capacity,
        }
    }

    /// A table of `2^bits` entries for `owner`'s search of the position whose search key is
    /// `root`: among the owner's kept tables, the one that holds `root` (the previous search of
    /// this game), else the most recent one, else a new table.
    pub fn take(&self, owner: Owner, bits: u32, root: u64) -> Table {
        let kept = self.kept.lock().ok().and_then(|mut kept| {
            let fits =
                |(kept_for, table): &(Owner, Table)| *kept_for == owner && table.bits() == bits;
            let at = kept
                .iter()
                .position(|entry| fits(entry) && entry.1.probe(root, 0).is_some())
                .or_else(|| kept.iter().position(fits))?;
            Some(kept.remove(at).1)
        });
        match kept {
            Some(mut table) => {
                table.next_search();
                table
            }
            None => Table::new(bits),
        }
    }

    /// Keeps `table` for `owner`'s next search, dropping the least recently used beyond the
    /// capacity.
    pub fn give_back(&self, owner: Owner, table: Table) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.insert(0, (owner, table));
            kept.truncate(self.capacity);
        }
    }
}
