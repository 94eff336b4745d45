//! Tests of the endgame databases against the games' own rules, one file per concept:
//!
//! - [`consistency`]: retrograde consistency of whole tables, position by position;
//! - [`play`]: perfect play in won endings checked move by move with the rules;
//! - [`search`]: the plain search agreeing on short wins, and expert playing table moves;
//! - [`files`]: the file format, damaged files refused, builds stopped and resumed;
//! - [`compact`]: the compressed slices answering exactly as the bytes they were made from
//!   (the stored ones) and as the tables they were made from (every position).

mod compact;
mod consistency;
mod files;
mod play;
mod search;

use super::build::build_pieces;
use super::*;
use crate::search::searchable::Searchable;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

/// `read` (a compressed slice's bytes) equals `built` (as the slice was built) at every index
/// the file stores; returns how many that is. The others (invalid indices, positions that must
/// capture) are checked through probes where they matter.
pub(super) fn assert_stored_bytes_equal<G: EndgameGame>(
    slice: &super::index::SliceIndex,
    read: &[u8],
    built: &[u8],
) -> u64 {
    assert_eq!(read.len(), built.len());
    let mut stored = 0;
    for (index, (&read, &built)) in read.iter().zip(built).enumerate() {
        if super::compact::is_stored::<G>(slice, index as u64, built) {
            assert_eq!(read, built, "{} #{index}", slice.material.label());
            stored += 1;
        }
    }
    stored
}

/// The tables of up to 3 pieces, built once per game for all the tests of this file.
pub(super) fn three_pieces<G: EndgameGame + Searchable>() -> &'static GameTables {
    static ENGLISH: OnceLock<GameTables> = OnceLock::new();
    static INTERNATIONAL: OnceLock<GameTables> = OnceLock::new();
    static TURKISH: OnceLock<GameTables> = OnceLock::new();
    let cell = match G::KIND {
        GameKind::English => &ENGLISH,
        GameKind::International => &INTERNATIONAL,
        _ => &TURKISH,
    };
    cell.get_or_init(|| built::<G>(3))
}

pub(super) fn built<G: EndgameGame + Searchable>(pieces: u32) -> GameTables {
    let mut tables = GameTables::new(G::KIND);
    for n in 2..=pieces {
        build_pieces::<G>(&mut tables, n, 2, &AtomicBool::new(false), |_| {})
            .expect("slices build in order");
    }
    tables
}

/// The value of every move of `position`, from the mover's side, read from the tables.
pub(super) fn move_values<G: EndgameGame + Searchable>(
    tables: &GameTables,
    position: &G,
) -> Vec<(G::Move, Value)> {
    position
        .moves()
        .into_iter()
        .map(|mv| {
            let value = tables
                .probe(&position.after(&mv))
                .expect("every successor is in the tables");
            (mv, value.parent())
        })
        .collect()
}
