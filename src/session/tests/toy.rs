//! A tiny game for testing the session layer without the real rules: a pile of stones, each
//! player in turn takes one or two, whoever takes the last stone wins. Up to six seats (it
//! borrows the capture game's variant for its player range, and so its CPU levels).

use crate::describe::{BoardLayout, BoardShape, Cell, Describe, MoveInfo, PieceView, SeatStats};
use crate::position::{
    EndReason, GameKind, Outcome, Position, PositionError, Seat, SetupError, Variant,
};
use crate::record::Record;
use crate::search::searchable::{EvalStyle, Searchable};
use crate::search::Playable;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeAway {
    players: u8,
    stones: u32,
    to_move: Seat,
    /// Stones taken by each seat.
    taken: Vec<u32>,
}

pub const START_STONES: u32 = 10;

pub fn variant(players: u8) -> Variant {
    Variant {
        kind: GameKind::Capture,
        players,
        long_jump: false,
    }
}

/// The factory the session layer's loader takes.
pub fn factory(variant: Variant, text: Option<&str>) -> Result<Box<dyn Playable>, SetupError> {
    let start = match text {
        Some(text) => TakeAway::from_text(variant, text)?,
        None => TakeAway::start(variant)?,
    };
    Ok(Box::new(Record::new(start)))
}

pub fn new_game(players: u8) -> Box<dyn Playable> {
    factory(variant(players), None).expect("valid toy variant")
}

impl Position for TakeAway {
    /// Stones to take.
    type Move = u32;

    fn start(variant: Variant) -> Result<Self, SetupError> {
        Ok(TakeAway {
            players: variant.players,
            stones: START_STONES,
            to_move: 0,
            taken: vec![0; usize::from(variant.players)],
        })
    }

    /// "stones/to_move/taken,taken,…"
    fn from_text(variant: Variant, text: &str) -> Result<Self, SetupError> {
        let bad = || SetupError::from(PositionError::Unreadable(text.to_string()));
        let mut parts = text.split('/');
        let stones = parts.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        let to_move: Seat = parts.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        let taken: Vec<u32> = parts
            .next()
            .ok_or_else(bad)?
            .split(',')
            .map(|s| s.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        if parts.next().is_some()
            || to_move >= variant.players
            || taken.len() != usize::from(variant.players)
        {
            return Err(bad());
        }
        Ok(TakeAway {
            players: variant.players,
            stones,
            to_move,
            taken,
        })
    }

    fn to_text(&self) -> String {
        let taken: Vec<String> = self.taken.iter().map(u32::to_string).collect();
        format!("{}/{}/{}", self.stones, self.to_move, taken.join(","))
    }

    fn variant(&self) -> Variant {
        variant(self.players)
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.extend((1..=2).filter(|&n| n <= self.stones));
    }

    fn play(&mut self, mv: &u32) {
        self.stones -= mv;
        self.taken[usize::from(self.to_move)] += mv;
        self.to_move = (self.to_move + 1) % self.players;
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then(|| {
            let last = (self.to_move + self.players - 1) % self.players;
            Outcome::win(last, EndReason::NoJumpsLeft)
        })
    }

    fn zobrist(&self) -> u64 {
        u64::from(self.stones) << 8 | u64::from(self.to_move)
    }

    /// Unlike the trait's default (the next seat), the other seat that took most stones wins,
    /// the lowest seat on a tie: lets the tests see that the session asks the game.
    fn resignation_outcome(&self, resigning: Seat) -> Outcome {
        let winner = (0..self.players)
            .filter(|&s| s != resigning)
            .max_by_key(|&s| (self.taken[usize::from(s)], std::cmp::Reverse(s)))
            .unwrap_or(resigning);
        Outcome::win(winner, EndReason::Resignation)
    }
}

impl Describe for TakeAway {
    fn move_info(&self, mv: &u32) -> MoveInfo {
        MoveInfo {
            text: format!("take{mv}"),
            from: "pile".into(),
            to: "pile".into(),
            path: Vec::new(),
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
        (0..self.players)
            .map(|seat| SeatStats {
                seat,
                name: self.seat_name(seat).into(),
                captures: Some(self.taken[usize::from(seat)]),
                ..SeatStats::default()
            })
            .collect()
    }

    fn layout(&self) -> BoardLayout {
        BoardLayout {
            shape: BoardShape::Grid {
                files: 1,
                ranks: 1,
                dark_only: false,
            },
            cells: vec![Cell {
                name: "pile".into(),
                x: 0.0,
                y: 0.0,
                view_names: Vec::new(),
                zone: None,
            }],
        }
    }

    fn pieces(&self) -> Vec<PieceView> {
        (0..self.stones)
            .map(|_| PieceView {
                cell: "pile".into(),
                seat: None,
                king: false,
            })
            .collect()
    }
}

impl Searchable for TakeAway {
    /// No knowledge: the search must see the end to tell wins from losses.
    fn evaluate(&self, _seat: Seat, _style: EvalStyle) -> i32 {
        0
    }
}
