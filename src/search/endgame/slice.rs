//! One solved slice as built: its numbering and one value byte per index.

use super::index::SliceIndex;
use super::value::{self, Value};

/// One solved slice: its numbering and one value byte per index.
#[derive(Clone, Debug)]
pub struct SliceTable {
    pub index: SliceIndex,
    pub values: Vec<u8>,
}

/// Positions and values counted over a slice (or several).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Valid positions (both sides to move).
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Longest win or loss, in plies.
    pub longest: u32,
}

impl Counts {
    pub fn add(&mut self, other: &Counts) {
        self.positions += other.positions;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.longest = self.longest.max(other.longest);
    }
}

impl SliceTable {
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for &byte in &self.values {
            match value::decode(byte) {
                None => {}
                Some(Value::Draw) => {
                    counts.positions += 1;
                    counts.draws += 1;
                }
                Some(Value::Win(d)) => {
                    counts.positions += 1;
                    counts.wins += 1;
                    counts.longest = counts.longest.max(d);
                }
                Some(Value::Loss(d)) => {
                    counts.positions += 1;
                    counts.losses += 1;
                    counts.longest = counts.longest.max(d);
                }
            }
        }
        counts
    }
}
