//! Nim, a tiny game with known answers for testing the search and the lab's match harness: up
//! to four piles, taking one
//! to three stones from one pile, for 2–6 seats; whoever takes the last stone wins. With two
//! seats a position is lost for the side to move exactly when the XOR of `pile % 4` is zero
//! (Sprague–Grundy: a pile of n has Grundy value n mod 4).

use super::searchable::{EvalStyle, Searchable};
use crate::describe::{BoardLayout, BoardShape, Describe, MoveInfo, PieceView, SeatStats};
use crate::position::{
    EndReason, GameKind, Outcome, Position, PositionError, Seat, SetupError, Variant,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    pub piles: [u8; 4],
    pub to_move: Seat,
    pub seats: u8,
    pub last: Option<Seat>,
    /// Whether max^n may prune shallowly ([`Searchable::seat_score_bounds`]): Nim's evaluation
    /// is 0 for every seat, so every entry is at least 0 and they add up to at most 0.
    pub seat_bounds: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    pub pile: usize,
    pub count: u8,
}

impl Nim {
    pub fn new(piles: [u8; 4], seats: u8) -> Nim {
        Nim {
            piles,
            to_move: 0,
            seats,
            last: None,
            seat_bounds: true,
        }
    }

    /// Two seats: whether the side to move wins with best play.
    pub fn is_won_for_mover(&self) -> bool {
        self.piles.iter().fold(0, |x, &p| x ^ (p % 4)) != 0
    }
}

impl Position for Nim {
    type Move = Take;

    fn start(variant: Variant) -> Result<Self, SetupError> {
        Ok(Nim::new([5, 6, 7, 0], variant.players))
    }

    fn from_text(variant: Variant, text: &str) -> Result<Self, SetupError> {
        let mut piles = [0; 4];
        for (slot, part) in piles.iter_mut().zip(text.split(',')) {
            *slot = part
                .trim()
                .parse()
                .map_err(|_| SetupError::from(PositionError::Unreadable(text.to_string())))?;
        }
        Ok(Nim::new(piles, variant.players))
    }

    fn to_text(&self) -> String {
        let parts: Vec<String> = self.piles.iter().map(u8::to_string).collect();
        parts.join(",")
    }

    fn variant(&self) -> Variant {
        Variant {
            kind: GameKind::Capture,
            players: self.seats,
            long_jump: false,
        }
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Take>) {
        out.clear();
        for (pile, &stones) in self.piles.iter().enumerate() {
            for count in 1..=stones.min(3) {
                out.push(Take { pile, count });
            }
        }
    }

    fn play(&mut self, mv: &Take) {
        self.piles[mv.pile] -= mv.count;
        self.last = Some(self.to_move);
        self.to_move = (self.to_move + 1) % self.seats;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.piles.iter().all(|&p| p == 0) {
            return self
                .last
                .map(|seat| Outcome::win(seat, EndReason::NoLegalMoves));
        }
        None
    }

    fn zobrist(&self) -> u64 {
        let mut key = u64::from(self.to_move) + 1;
        for &pile in &self.piles {
            key = key.wrapping_mul(0x100_0000_01B3) ^ u64::from(pile);
        }
        key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Describe for Nim {
    fn move_info(&self, mv: &Take) -> MoveInfo {
        let text = format!("{}-{}", mv.pile, mv.count);
        MoveInfo {
            text: text.clone(),
            from: mv.pile.to_string(),
            to: mv.pile.to_string(),
            path: vec![text],
            jumps: 0,
            captures: Vec::new(),
            legs: Vec::new(),
            pass: false,
        }
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        ["1", "2", "3", "4", "5", "6"][usize::from(seat) % 6]
    }

    fn seat_stats(&self) -> Vec<SeatStats> {
        Vec::new()
    }

    fn layout(&self) -> BoardLayout {
        BoardLayout {
            shape: BoardShape::Star,
            cells: Vec::new(),
        }
    }

    fn pieces(&self) -> Vec<PieceView> {
        Vec::new()
    }
}

impl Searchable for Nim {
    /// No knowledge: the search must see the end to tell wins from losses.
    fn evaluate(&self, _seat: Seat, _style: EvalStyle) -> i32 {
        0
    }

    fn history_key(&self, mv: &Take) -> usize {
        mv.pile * 4 + usize::from(mv.count)
    }

    /// Taking every stone left.
    fn wins_at_once(&self, mv: &Take) -> bool {
        self.piles.iter().map(|&p| u32::from(p)).sum::<u32>() == u32::from(mv.count)
    }

    fn seat_score_bounds(&self) -> Option<(i32, i32)> {
        self.seat_bounds.then_some((0, 0))
    }

    /// The piles are shared: any seat may take from them.
    fn with_turn(&self, seat: Seat) -> Option<Nim> {
        (seat < self.seats).then(|| Nim {
            to_move: seat,
            ..self.clone()
        })
    }
}
