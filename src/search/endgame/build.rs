//! Solving a slice by iterating over it with the game's own move generator.
//!
//! Every move out of a slice leads to a slice solved before it (a capture to fewer pieces, a
//! crowning to one man fewer, see [`Material::slices`]), so only the moves inside the slice —
//! king moves, which are reversible, and man steps that do not crown — need iterating:
//!
//! 1. Level 0: a position without a move is lost in 0; a position the rules draw at once (the
//!    material draws of International and Turkish) is a draw; a position whose every move leaves
//!    the slice (a compulsory capture, say) takes its value from those solved slices at once.
//! 2. Level n (n = 1, 2, …): n odd, a position with a move to a loss in n − 1 is won in n; n
//!    even, a position whose every move leads to a win in at most n − 1 is lost in n. Wins are
//!    only set on odd levels and losses on even ones, so a level never reads what it writes.
//! 3. Once a level sets nothing and no solved position outside it is n plies or more from the
//!    end, no later level can set anything: the positions left are draws (neither side can force
//!    a win, so best play goes on for ever, which the repetition rule draws).
//!
//! Each level is one pass over the positions still unknown, split between threads.

use super::games::EndgameGame;
use super::index::{Material, SliceIndex};
use super::tables::{Counts, GameTables, SliceTable};
use super::value::{self, Value, DRAW, INVALID, MAX_DISTANCE, UNKNOWN};
use super::EndgameError;
use crate::position::GameResult;
use std::time::Instant;

/// What building one slice did.
#[derive(Clone, Debug)]
pub struct SliceReport {
    pub material: Material,
    pub counts: Counts,
    /// Levels iterated.
    pub levels: u32,
    pub seconds: f64,
}

/// Where a move leads, seen from the slice being built.
enum Child {
    /// Inside the slice, at this index.
    Inside(u64),
    /// Outside it, with its known byte.
    Outside(u8),
}

struct Solver<'a, G: EndgameGame> {
    slice: &'a SliceIndex,
    solved: &'a GameTables,
    _game: std::marker::PhantomData<G>,
}

impl<G: EndgameGame> Solver<'_, G> {
    fn children(&self, position: &G, out: &mut Vec<Child>) -> Result<(), EndgameError> {
        out.clear();
        let squares = G::squares();
        for mv in position.moves() {
            let placement = position.after(&mv).placement();
            let material = Material::of(placement.men, placement.kings);
            if material == self.slice.material {
                let index = self
                    .slice
                    .index(squares, &placement)
                    .ok_or_else(|| EndgameError::MissingSlice(material.label()))?;
                out.push(Child::Inside(index));
            } else {
                let byte = self
                    .solved
                    .byte::<G>(&placement)
                    .ok_or_else(|| EndgameError::MissingSlice(material.label()))?;
                out.push(Child::Outside(byte));
            }
        }
        Ok(())
    }

    /// Level 0 for one index: its byte, or `UNKNOWN` when it needs iterating.
    fn first_look(&self, index: u64, children: &mut Vec<Child>) -> Result<u8, EndgameError> {
        let Some(placement) = self.slice.placement(G::squares(), index) else {
            return Ok(INVALID);
        };
        let position = G::from_placement(&placement);
        match position.outcome() {
            Some(outcome) => {
                return Ok(match outcome.result {
                    GameResult::Draw => DRAW,
                    // Only the side not to move can have won (it has no move).
                    GameResult::Win(_) => value::distance_byte(0),
                });
            }
            None => self.children(&position, children)?,
        }
        if children
            .iter()
            .any(|child| matches!(child, Child::Inside(_)))
        {
            return Ok(UNKNOWN);
        }
        // Every move leaves the slice: the best of their known values.
        let best = children
            .iter()
            .filter_map(|child| match child {
                Child::Outside(byte) => value::decode(*byte).map(Value::parent),
                Child::Inside(_) => None,
            })
            .max_by_key(|value| value.rank());
        Ok(match best {
            Some(Value::Win(d) | Value::Loss(d)) => distance_byte_checked(d)?,
            Some(Value::Draw) => DRAW,
            None => UNKNOWN,
        })
    }

    /// Level `level` for one unknown index: its byte if the level settles it.
    fn settle(
        &self,
        index: u64,
        level: u32,
        values: &[u8],
        children: &mut Vec<Child>,
    ) -> Result<Option<u8>, EndgameError> {
        let Some(placement) = self.slice.placement(G::squares(), index) else {
            return Ok(None);
        };
        self.children(&G::from_placement(&placement), children)?;
        let byte_of = |child: &Child| match child {
            Child::Inside(at) => values[*at as usize],
            Child::Outside(byte) => *byte,
        };
        let target = value::distance_byte(level - 1);
        let settled = if level % 2 == 1 {
            children.iter().any(|child| byte_of(child) == target)
        } else {
            children.iter().all(|child| {
                value::byte_distance(byte_of(child)).is_some_and(|d| d % 2 == 1 && d < level)
            })
        };
        Ok(settled.then(|| value::distance_byte(level)))
    }
}

fn distance_byte_checked(distance: u32) -> Result<u8, EndgameError> {
    if distance > MAX_DISTANCE {
        return Err(EndgameError::TooLong(distance));
    }
    Ok(value::distance_byte(distance))
}

/// Runs `work` over `items` split into `threads` chunks, collecting what each returns.
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&[T]) -> Result<Vec<R>, EndgameError> + Sync,
) -> Result<Vec<R>, EndgameError> {
    let threads = threads.max(1);
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(|| work(part)))
            .collect();
        let mut all = Vec::new();
        for handle in handles {
            match handle.join() {
                Ok(result) => all.extend(result?),
                Err(_) => return Err(EndgameError::WorkerPanicked),
            }
        }
        Ok(all)
    })
}

/// Solves one slice; every slice its moves can lead to must be in `solved`.
pub fn build_slice<G: EndgameGame>(
    material: Material,
    solved: &GameTables,
    threads: usize,
) -> Result<(SliceTable, SliceReport), EndgameError> {
    let started = Instant::now();
    let slice = SliceIndex::new(material, G::squares());
    let len = usize::try_from(slice.len()).map_err(|_| EndgameError::TooBig(material.label()))?;
    if u32::try_from(len).is_err() {
        return Err(EndgameError::TooBig(material.label()));
    }
    let solver = Solver::<G> {
        slice: &slice,
        solved,
        _game: std::marker::PhantomData,
    };
    let all: Vec<u32> = (0..len as u32).collect();
    let first = in_parallel(&all, threads, |part| {
        let mut children = Vec::new();
        part.iter()
            .map(|&index| Ok(solver.first_look(u64::from(index), &mut children)?))
            .collect()
    })?;
    drop(all);
    let mut values = first;
    let mut pending: Vec<u32> = (0..len as u32)
        .filter(|&index| values[index as usize] == UNKNOWN)
        .collect();
    // No solved position outside the iteration is further than this from the end.
    let horizon = solved.longest().max(
        values
            .iter()
            .filter_map(|&byte| value::byte_distance(byte))
            .max()
            .unwrap_or(0),
    );
    let mut level = 0;
    while !pending.is_empty() {
        level += 1;
        if level > MAX_DISTANCE {
            return Err(EndgameError::TooLong(level));
        }
        let settled = in_parallel(&pending, threads, |part| {
            let mut children = Vec::new();
            let mut found = Vec::new();
            for &index in part {
                if let Some(byte) =
                    solver.settle(u64::from(index), level, &values, &mut children)?
                {
                    found.push((index, byte));
                }
            }
            Ok(found)
        })?;
        if settled.is_empty() && level > horizon {
            break;
        }
        for &(index, byte) in &settled {
            values[index as usize] = byte;
        }
        pending.retain(|&index| values[index as usize] == UNKNOWN);
    }
    for index in pending {
        values[index as usize] = DRAW;
    }
    let table = SliceTable {
        index: slice,
        values,
    };
    let report = SliceReport {
        material,
        counts: table.counts(),
        levels: level,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok((table, report))
}

/// Builds every slice with exactly `pieces` pieces into `tables`, which must hold every smaller
/// piece count; reports each slice as it is done.
pub fn build_pieces<G: EndgameGame>(
    tables: &mut GameTables,
    pieces: u32,
    threads: usize,
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
        let (table, report) = build_slice::<G>(material, tables, threads)?;
        progress(&report);
        tables.insert(table);
        reports.push(report);
    }
    tables.pieces = tables.pieces.max(pieces);
    Ok(reports)
}
