//! The draw offers a room record keeps for its current game (the rules of offering are in
//! `offers`).

use serde::{Deserialize, Serialize};

/// Plies after a declined or lapsed offer before its offerer may offer again (5 moves each).
pub const OFFER_COOLDOWN_PLIES: usize = 10;

/// The draw offers of a room's current game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawOffers {
    /// The offer waiting for its answer.
    #[serde(default)]
    pub pending: Option<PendingOffer>,
    /// Per seat: the ply from which the seat may offer again (empty: any time).
    #[serde(default)]
    pub next_offer_ply: Vec<usize>,
}

/// An offer waiting for the answer of seat `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingOffer {
    pub from: u8,
    pub to: u8,
    /// The ply at which it was made.
    pub ply: usize,
}

impl DrawOffers {
    /// The ply from which `seat` may offer (0: any time).
    pub fn next_offer_ply(&self, seat: u8) -> usize {
        self.next_offer_ply
            .get(usize::from(seat))
            .copied()
            .unwrap_or(0)
    }

    pub(crate) fn hold_back(&mut self, seat: u8, until: usize) {
        let index = usize::from(seat);
        if self.next_offer_ply.len() <= index {
            self.next_offer_ply.resize(index + 1, 0);
        }
        self.next_offer_ply[index] = until;
    }

    /// `seat` has just moved, `plies` plies into the game: an offer waiting for its answer
    /// lapses, and counts as declined.
    pub fn after_move(&mut self, seat: u8, plies: usize) {
        if let Some(pending) = self.pending.filter(|p| p.to == seat) {
            self.pending = None;
            self.hold_back(pending.from, plies + OFFER_COOLDOWN_PLIES);
        }
    }
}
