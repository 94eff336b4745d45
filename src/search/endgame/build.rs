//! Solving a slice by retrograde analysis over the game's own move generator.
//!
//! Every move out of a slice leads to a slice solved before it (a capture to fewer pieces, a
//! crowning to one man fewer, see [`Material::slices`]), so those moves have known values; only
//! the moves inside the slice — king moves, which are reversible, and man steps that do not
//! crown — link unknown positions. One pass with the move generator over the slice:
//!
//! - a position without a move is lost in 0; one the rules draw at once (International's and
//!   Turkish's material draws) is a draw; one whose every move leaves the slice takes the best of
//!   those known values at once;
//! - otherwise it counts its moves inside the slice at their destinations and records its
//!   outside ones as events: a move to a loss in d makes it a win in d + 1 unless it wins faster,
//!   a move to a win in d counts as one refuted move at level d + 1, a move to a draw means it can
//!   never be lost.
//!
//! A second pass generates the inside moves of the positions left unknown again and files each
//! under its destination, into lists of predecessors sized by the first pass's counts. Keeping
//! the moves from the first pass instead would need the moves and the lists in memory at once,
//! three times the lists alone: the second pass costs some time and saves most of the memory.
//!
//! Then the levels n = 1, 2, … in order: n odd, every unknown predecessor of a position lost in
//! n − 1 (and every position with an outside loss in n − 1) is won in n; n even, each position
//! won in n − 1 counts one refuted move for each of its predecessors, and a position whose every
//! move is refuted is lost in n (its slowest refutation took n − 1). Wins come only on odd levels
//! and losses on even ones, so the first value a position gets is exact. When a level sets
//! nothing and no event lies beyond it, the positions left are draws: neither side can force a
//! win, so best play goes on for ever, which the repetition rule draws.

use super::error::EndgameError;
use super::games::EndgameGame;
use super::index::{Material, SliceIndex};
use super::slice::{Counts, SliceTable};
use super::tables::GameTables;
use super::value::{self, Value, DRAW, INVALID, UNKNOWN};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

/// What building one slice did.
#[derive(Clone, Debug)]
pub struct SliceReport {
    pub material: Material,
    /// Indices of the slice (its share of a build's work; [`super::positions`] sums them).
    pub positions: u64,
    pub counts: Counts,
    /// Levels iterated.
    pub levels: u32,
    pub seconds: f64,
    /// Read from an existing file, not built (levels and seconds 0).
    pub read: bool,
}

/// Where a move leads, seen from the slice being built.
enum Child {
    /// Inside the slice, at this index.
    Inside(u32),
    /// Outside it, with its known byte.
    Outside(u8),
}

/// A remaining-moves count that never reaches 0: the position has a move to a draw. Counts are
/// 16 bits: a position of the few pieces a table holds has far fewer moves.
const CANNOT_LOSE: u16 = u16::MAX;

/// What the first pass learns of one chunk of the slice.
#[derive(Default)]
struct FirstPass {
    /// The byte of each index of the chunk (`UNKNOWN` where the levels must decide).
    values: Vec<u8>,
    /// For each index of the chunk: its moves not yet refuted.
    remaining: Vec<u16>,
    /// Outside moves to a loss: (level at which the position wins, position).
    wins_at: Vec<(u32, u32)>,
    /// Outside moves to a win: (level at which the move counts as refuted, position).
    refuted_at: Vec<(u32, u32)>,
}

struct Solver<'a, G: EndgameGame> {
    slice: &'a SliceIndex,
    solved: &'a GameTables,
    _game: std::marker::PhantomData<G>,
}

impl<G: EndgameGame> Solver<'_, G> {
    /// The children of `position`; those outside the slice only with `outside` (their lookup
    /// is most of their cost, and the second pass needs only the inside ones).
    fn children(
        &self,
        position: &G,
        outside: bool,
        out: &mut Vec<Child>,
    ) -> Result<(), EndgameError> {
        out.clear();
        let squares = G::squares();
        for mv in position.moves() {
            let placement = position.placement_after(&mv);
            let material = Material::of(placement.men, placement.kings);
            if material == self.slice.material {
                let index = self
                    .slice
                    .index(squares, &placement)
                    .ok_or_else(|| EndgameError::MissingSlice(material.label()))?;
                out.push(Child::Inside(index as u32));
            } else if outside {
                let byte = self
                    .solved
                    .lookup::<G>(&placement)?
                    .ok_or_else(|| EndgameError::MissingSlice(material.label()))?;
                out.push(Child::Outside(byte));
            }
        }
        Ok(())
    }

    /// The first pass over the indices `from..to`; counts each inside move in `moves_to` at
    /// its destination.
    fn first_pass(
        &self,
        from: u32,
        to: u32,
        moves_to: &[AtomicU32],
    ) -> Result<FirstPass, EndgameError> {
        let mut pass = FirstPass::default();
        let mut children = Vec::new();
        for index in from..to {
            let (byte, remaining) = self.first_look(index, &mut children, moves_to, &mut pass)?;
            pass.values.push(byte);
            pass.remaining.push(remaining);
        }
        Ok(pass)
    }

    /// One index: its byte when known now, and its moves still to refute.
    fn first_look(
        &self,
        index: u32,
        children: &mut Vec<Child>,
        moves_to: &[AtomicU32],
        pass: &mut FirstPass,
    ) -> Result<(u8, u16), EndgameError> {
        let Some(placement) = self.slice.placement(G::squares(), u64::from(index)) else {
            return Ok((INVALID, 0));
        };
        let position = G::from_placement(&placement);
        if let Some(outcome) = position.outcome() {
            return Ok((value::terminal_byte(&outcome), 0));
        }
        self.children(&position, true, children)?;
        if children
            .iter()
            .all(|child| matches!(child, Child::Outside(_)))
        {
            // Every move leaves the slice: the best of their known values.
            let outside = children.iter().filter_map(|child| match child {
                Child::Outside(byte) => Some(*byte),
                Child::Inside(_) => None,
            });
            return Ok((value::best_of_children(outside)?, 0));
        }
        let mut remaining = u16::try_from(children.len())
            .ok()
            .filter(|&count| count < CANNOT_LOSE)
            .ok_or_else(|| EndgameError::TooBig(self.slice.material.label()))?;
        for child in children.iter() {
            match *child {
                Child::Inside(to) => {
                    moves_to[to as usize].fetch_add(1, Ordering::Relaxed);
                }
                Child::Outside(byte) => match value::decode(byte) {
                    Some(Value::Loss(d)) => pass.wins_at.push((d + 1, index)),
                    Some(Value::Win(d)) => pass.refuted_at.push((d + 1, index)),
                    Some(Value::Draw) | None => remaining = CANNOT_LOSE,
                },
            }
        }
        Ok((UNKNOWN, remaining))
    }

    /// The second pass over the indices `from..to`: files each inside move of a position still
    /// unknown at the end of its destination's list (`parents[ends[to] - 1]`), then lowers that
    /// end by one.
    fn second_pass(
        &self,
        from: u32,
        to: u32,
        values: &[u8],
        ends: &[AtomicU32],
        parents: &[AtomicU32],
    ) -> Result<(), EndgameError> {
        let mut children = Vec::new();
        for index in from..to {
            if values[index as usize] != UNKNOWN {
                continue;
            }
            let Some(placement) = self.slice.placement(G::squares(), u64::from(index)) else {
                continue;
            };
            self.children(&G::from_placement(&placement), false, &mut children)?;
            for child in &children {
                if let Child::Inside(child) = *child {
                    // The first pass counted this very move, so the end is above the list's start.
                    let at = ends[child as usize].fetch_sub(1, Ordering::Relaxed) - 1;
                    parents[at as usize].store(index, Ordering::Relaxed);
                }
            }
        }
        Ok(())
    }
}

/// Runs `work(from, to)` on `threads` consecutive chunks of `0..len` at once, in order.
fn in_chunks<T: Send>(
    len: u32,
    threads: u32,
    work: impl Fn(u32, u32) -> Result<T, EndgameError> + Sync,
) -> Result<Vec<T>, EndgameError> {
    let chunk = len.div_ceil(threads).max(1);
    let results: Vec<Result<T, EndgameError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let from = (t * chunk).min(len);
                let to = (from + chunk).min(len);
                let work = &work;
                scope.spawn(move || work(from, to))
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().unwrap_or(Err(EndgameError::WorkerPanicked)))
            .collect()
    });
    results.into_iter().collect()
}

/// `lists[level]` gets `position` for each (level, position), growing as needed.
fn bucket(lists: &mut Vec<Vec<u32>>, events: &[(u32, u32)]) {
    for &(level, position) in events {
        let level = level as usize;
        if lists.len() <= level {
            lists.resize_with(level + 1, Vec::new);
        }
        lists[level].push(position);
    }
}

/// Solves one slice; every slice its moves can lead to must be in `solved`. The two passes are
/// split between `threads` threads; the levels run on one.
pub fn build_slice<G: EndgameGame>(
    material: Material,
    solved: &GameTables,
    threads: usize,
) -> Result<(SliceTable, SliceReport), EndgameError> {
    let started = Instant::now();
    let slice = SliceIndex::new(material, G::squares());
    let len = u32::try_from(slice.len()).map_err(|_| EndgameError::TooBig(material.label()))?;
    let solver = Solver::<G> {
        slice: &slice,
        solved,
        _game: std::marker::PhantomData,
    };
    let threads = threads.max(1) as u32;
    // Inside moves by destination: counted by the first pass, then turned into each list's end.
    let mut ends: Vec<AtomicU32> = (0..=len).map(|_| AtomicU32::new(0)).collect();
    let passes = in_chunks(len, threads, |from, to| solver.first_pass(from, to, &ends))?;
    let mut values = Vec::with_capacity(len as usize);
    let mut remaining = Vec::with_capacity(len as usize);
    let mut wins_at: Vec<Vec<u32>> = Vec::new();
    let mut refuted_at: Vec<Vec<u32>> = Vec::new();
    for mut pass in passes {
        values.append(&mut pass.values);
        remaining.append(&mut pass.remaining);
        bucket(&mut wins_at, &pass.wins_at);
        bucket(&mut refuted_at, &pass.refuted_at);
    }
    let mut edges = 0u64;
    for end in &mut ends {
        edges += u64::from(*end.get_mut());
        *end.get_mut() =
            u32::try_from(edges).map_err(|_| EndgameError::TooBig(material.label()))?;
    }
    // Predecessor lists (compressed rows): the second pass fills each list from its end down,
    // leaving `starts[i]` at its start, so `parents[starts[i]..starts[i + 1]]` move to `i`.
    let parents: Vec<AtomicU32> = (0..edges).map(|_| AtomicU32::new(0)).collect();
    in_chunks(len, threads, |from, to| {
        solver.second_pass(from, to, &values, &ends, &parents)
    })?;
    let starts = ends;
    let parents_of = |child: u32| {
        let from = starts[child as usize].load(Ordering::Relaxed) as usize;
        let to = starts[child as usize + 1].load(Ordering::Relaxed) as usize;
        parents[from..to]
            .iter()
            .map(|parent| parent.load(Ordering::Relaxed))
    };
    // Positions known by level: `known_at[d]` holds those won or lost in d.
    let mut known_at: Vec<Vec<u32>> = Vec::new();
    for (index, &byte) in values.iter().enumerate() {
        if let Some(d) = value::byte_distance(byte) {
            let d = d as usize;
            if known_at.len() <= d {
                known_at.resize_with(d + 1, Vec::new);
            }
            known_at[d].push(index as u32);
        }
    }
    let horizon = known_at.len().max(wins_at.len()).max(refuted_at.len());
    let mut level = 0usize;
    loop {
        level += 1;
        if known_at.len() <= level {
            known_at.resize_with(level + 1, Vec::new);
        }
        let byte = value::distance_byte_checked(level as u32)?;
        let mut found = std::mem::take(&mut known_at[level]);
        let before = std::mem::take(&mut known_at[level - 1]);
        let outside = if level % 2 == 1 {
            &wins_at
        } else {
            &refuted_at
        };
        let outside = outside.get(level).map(Vec::as_slice).unwrap_or(&[]);
        let inside = before.iter().flat_map(|&child| parents_of(child));
        for position in inside.chain(outside.iter().copied()) {
            let at = position as usize;
            if values[at] != UNKNOWN {
                continue;
            }
            if level % 2 == 1 {
                values[at] = byte;
                found.push(position);
            } else if remaining[at] != CANNOT_LOSE {
                remaining[at] -= 1;
                if remaining[at] == 0 {
                    values[at] = byte;
                    found.push(position);
                }
            }
        }
        known_at[level - 1] = before;
        let empty = found.is_empty();
        known_at[level] = found;
        if empty && level >= horizon {
            break;
        }
    }
    for byte in values.iter_mut() {
        if *byte == UNKNOWN {
            *byte = DRAW;
        }
    }
    let table = SliceTable {
        index: slice,
        values,
    };
    let report = SliceReport {
        material,
        positions: table.index.len(),
        counts: table.counts(),
        levels: level as u32,
        seconds: started.elapsed().as_secs_f64(),
        read: false,
    };
    Ok((table, report))
}

/// Builds every slice with exactly `pieces` pieces into `tables`, which must hold every smaller
/// piece count; reports each slice as it is done. `stop`, once set, ends the build before the
/// next slice with [`EndgameError::Stopped`] (a slice is never left half built).
pub fn build_pieces<G: EndgameGame>(
    tables: &mut GameTables,
    pieces: u32,
    threads: usize,
    stop: &AtomicBool,
    mut progress: impl FnMut(&SliceReport),
) -> Result<Vec<SliceReport>, EndgameError> {
    if tables.pieces + 1 < pieces {
        return Err(EndgameError::MissingSlice(format!(
            "{} pieces",
            tables.pieces + 1
        )));
    }
    let mut reports = Vec::new();
    for material in Material::slices(pieces) {
        if stop.load(Ordering::Relaxed) {
            return Err(EndgameError::Stopped);
        }
        let (table, report) = build_slice::<G>(material, tables, threads)?;
        progress(&report);
        tables.insert::<G>(table);
        reports.push(report);
    }
    tables.pieces = tables.pieces.max(pieces);
    Ok(reports)
}
