//! The solved slices of one game, and probing them.

use super::games::EndgameGame;
use super::index::{Material, Placement, SliceIndex};
use super::value::{self, Value};
use crate::position::GameKind;
use std::collections::HashMap;

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

/// Every loaded (or built) slice of one game; `pieces` is the piece count up to which every
/// slice is present.
#[derive(Clone, Debug)]
pub struct GameTables {
    pub kind: GameKind,
    pub pieces: u32,
    slices: HashMap<Material, SliceTable>,
    /// The most pieces of any slice held (a builder may hold some slices of `pieces + 1`).
    most_pieces: u32,
    /// The longest win or loss in any slice.
    longest: u32,
}

impl GameTables {
    pub fn new(kind: GameKind) -> GameTables {
        GameTables {
            kind,
            pieces: 1,
            slices: HashMap::new(),
            most_pieces: 0,
            longest: 0,
        }
    }

    pub fn insert(&mut self, table: SliceTable) {
        self.longest = self.longest.max(table.counts().longest);
        self.most_pieces = self.most_pieces.max(table.index.material.pieces());
        self.slices.insert(table.index.material, table);
    }

    pub fn slice(&self, material: &Material) -> Option<&SliceTable> {
        self.slices.get(material)
    }

    /// The longest win or loss in any slice.
    pub fn longest(&self) -> u32 {
        self.longest
    }

    /// The slices, in no particular order.
    pub fn slices(&self) -> impl Iterator<Item = &SliceTable> {
        self.slices.values()
    }

    /// The byte of a placement: a loss in 0 when the side to move has no piece left, the slice's
    /// byte otherwise; `None` when its slice is not here.
    pub(crate) fn byte<G: EndgameGame>(&self, placement: &Placement) -> Option<u8> {
        let material = Material::of(placement.men, placement.kings);
        if material.seat_pieces(placement.to_move) == 0 {
            return Some(value::distance_byte(0));
        }
        let table = self.slices.get(&material)?;
        let index = table.index.index(G::squares(), placement)?;
        table.values.get(index as usize).copied()
    }

    /// The value of `position` for the side to move, when its material is in the tables. The
    /// value ignores the draw counters (docs/cpu.md, "Endgame databases").
    pub fn probe<G: EndgameGame>(&self, position: &G) -> Option<Value> {
        if G::KIND != self.kind {
            return None;
        }
        let placement = position.placement();
        let material = Material::of(placement.men, placement.kings);
        // The search asks at every node, and most have more pieces than any slice: answer them
        // before the slice lookup (a hash of the material). A side without pieces has lost,
        // whatever the other holds.
        if material.pieces() > self.most_pieces && material.seat_pieces(placement.to_move) > 0 {
            return None;
        }
        self.byte::<G>(&placement).and_then(value::decode)
    }
}
