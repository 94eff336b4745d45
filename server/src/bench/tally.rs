//! What a room load counts, by phase: moves, games, errors, the measured round trips and each
//! room's opening. A tally is plain data so that client processes can send theirs to the one that
//! reports, which merges them (`Tally::merge`): the samples are kept whole, not summarised, so the
//! merged quantiles are exactly those of one process holding every client.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

/// The phases of a run; moves, games and errors are counted in the phase they happen in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Phase {
    /// Opening the rooms (rooms already open play meanwhile).
    RampUp = 0,
    WarmUp = 1,
    /// The measured window: the steady state.
    Measured = 2,
    /// Every room open, nobody moving (`--idle-secs`).
    Idle = 3,
    Done = 4,
}

impl Phase {
    pub(super) fn from_u8(value: u8) -> Phase {
        match value {
            0 => Phase::RampUp,
            1 => Phase::WarmUp,
            2 => Phase::Measured,
            3 => Phase::Idle,
            _ => Phase::Done,
        }
    }
}

/// The run's current phase, shared by every room.
#[derive(Default)]
pub(super) struct PhaseClock(AtomicU8);

impl PhaseClock {
    pub(super) fn set(&self, phase: Phase) {
        self.0.store(phase as u8, Ordering::SeqCst);
    }

    pub(super) fn get(&self) -> Phase {
        Phase::from_u8(self.0.load(Ordering::SeqCst))
    }
}

/// What happened in one phase.
#[derive(Default, Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub(super) struct Counts {
    pub(super) moves: u64,
    pub(super) games: u64,
    pub(super) errors: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.moves += other.moves;
        self.games += other.games;
        self.errors += other.errors;
    }
}

/// Tallies of a run (or of one client process's share of it).
#[derive(Default, Debug, Clone, Serialize, Deserialize)]
pub(super) struct Tally {
    /// Round trips in microseconds, measured moves only.
    pub(super) round_trips: Vec<u32>,
    /// Each room's opening (create + join) in microseconds.
    pub(super) openings: Vec<u32>,
    /// Openings tried again after a failure.
    pub(super) open_retries: u64,
    /// By phase (ramp-up, warm-up, measured, idle).
    pub(super) counts: [Counts; 4],
    /// The rooms (by index) that completed a move in the measured window.
    pub(super) rooms_moved: BTreeSet<usize>,
}

impl Tally {
    fn counts(&mut self, phase: Phase) -> Option<&mut Counts> {
        self.counts.get_mut(phase as usize)
    }

    /// Room `room`'s move was acknowledged to both clients, `round_trip` after it was sent.
    pub(super) fn moved(&mut self, room: usize, phase: Phase, round_trip: Duration) {
        if let Some(counts) = self.counts(phase) {
            counts.moves += 1;
        }
        if phase == Phase::Measured {
            self.round_trips
                .push(round_trip.as_micros().min(u128::from(u32::MAX)) as u32);
            self.rooms_moved.insert(room);
        }
    }

    pub(super) fn game_finished(&mut self, phase: Phase) {
        if let Some(counts) = self.counts(phase) {
            counts.games += 1;
        }
    }

    pub(super) fn error(&mut self, phase: Phase) {
        if let Some(counts) = self.counts(phase) {
            counts.errors += 1;
        }
    }

    /// Adds another share of the run's clients.
    pub(super) fn merge(&mut self, other: Tally) {
        self.round_trips.extend(other.round_trips);
        self.openings.extend(other.openings);
        self.open_retries += other.open_retries;
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            mine.add(theirs);
        }
        self.rooms_moved.extend(other.rooms_moved);
    }

    /// The samples sorted, for quantiles.
    pub(super) fn sort(&mut self) {
        self.round_trips.sort_unstable();
        self.openings.sort_unstable();
    }
}

/// The `q` quantile of sorted microseconds, in ms.
pub(super) fn quantile_ms(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() - 1) as f64 * q).round() as usize;
    f64::from(sorted[index]) / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_phase_counts_only_what_happened_in_it() {
        let mut tally = Tally::default();
        // The ramp-up and warm-up finish games and play moves: none of it is measured.
        tally.game_finished(Phase::RampUp);
        tally.moved(0, Phase::RampUp, Duration::from_millis(9));
        tally.game_finished(Phase::WarmUp);
        tally.game_finished(Phase::WarmUp);
        tally.moved(3, Phase::Measured, Duration::from_millis(2));
        tally.game_finished(Phase::Measured);
        tally.error(Phase::Measured);
        // After the window: nothing counted.
        tally.game_finished(Phase::Done);
        tally.moved(4, Phase::Done, Duration::from_millis(50));
        let measured = &tally.counts[Phase::Measured as usize];
        assert_eq!((measured.moves, measured.games, measured.errors), (1, 1, 1));
        assert_eq!(tally.counts[Phase::RampUp as usize].games, 1);
        assert_eq!(tally.counts[Phase::WarmUp as usize].games, 2);
        assert_eq!(tally.round_trips, vec![2_000]);
        assert_eq!(tally.rooms_moved, BTreeSet::from([3]));
        assert_eq!(quantile_ms(&tally.round_trips, 0.99), 2.0);
    }

    #[test]
    fn merged_shares_are_the_tally_of_one_process_holding_every_client() {
        // The same events counted by one process, and split between two that are merged.
        type Event = (usize, Phase, u64);
        let events: [Event; 6] = [
            (0, Phase::RampUp, 7),
            (1, Phase::Measured, 4),
            (2, Phase::Measured, 1),
            (3, Phase::Measured, 9),
            (2, Phase::WarmUp, 3),
            (3, Phase::Measured, 2),
        ];
        let record = |tally: &mut Tally, (room, phase, ms): Event| {
            tally.moved(room, phase, Duration::from_millis(ms));
            tally.openings.push(ms as u32 * 100);
        };
        let mut whole = Tally::default();
        let mut first = Tally::default();
        let mut second = Tally::default();
        for event in events {
            record(&mut whole, event);
            // Rooms 0–1 in the first process, 2–3 in the second.
            record(if event.0 < 2 { &mut first } else { &mut second }, event);
        }
        second.open_retries = 2;
        second.game_finished(Phase::Measured);
        whole.open_retries = 2;
        whole.game_finished(Phase::Measured);

        let mut merged = Tally::default();
        merged.merge(first);
        merged.merge(second);
        merged.sort();
        whole.sort();
        assert_eq!(merged.counts, whole.counts);
        assert_eq!(merged.round_trips, whole.round_trips);
        assert_eq!(merged.round_trips, vec![1_000, 2_000, 4_000, 9_000]);
        assert_eq!(merged.openings, whole.openings);
        assert_eq!(merged.open_retries, 2);
        assert_eq!(merged.rooms_moved, BTreeSet::from([1, 2, 3]));
        assert_eq!(
            quantile_ms(&merged.round_trips, 0.5),
            quantile_ms(&whole.round_trips, 0.5)
        );
    }
}
