//! A game in progress: the start position, the moves played and the positions they led to.
//!
//! [`Record`] adds what a single position cannot know — repetition — to the rules of a
//! [`Position`]. [`AnyGame`] is its object-safe face, speaking the public notation (the game's
//! [`Describe`]), so the CLI,
//! the session layer and the app handle all five games through one type (the search layer adds
//! the CPU's move on top of it: `Playable`).

use crate::describe::{BoardLayout, Describe, MoveInfo, PieceView, SeatStats};
use crate::position::{DrawCounter, EndReason, MoveError, Outcome, Position, Seat, Variant};

/// A start position and the legal moves played from it.
#[derive(Clone, Debug)]
pub struct Record<P: Position> {
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<P>,
    moves: Vec<P::Move>,
    hashes: Vec<u64>,
    /// Index into `positions` after the last irreversible move: no earlier position can repeat.
    reversible_since: Vec<usize>,
}

impl<P: Position> Record<P> {
    pub fn new(start: P) -> Record<P> {
        let hash = start.zobrist();
        Record {
            positions: vec![start],
            moves: Vec::new(),
            hashes: vec![hash],
            reversible_since: vec![0],
        }
    }

    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    pub fn position(&self) -> &P {
        // `positions` always holds at least the start.
        &self.positions[self.positions.len() - 1]
    }

    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// The position before move `index` was played.
    pub fn position_before(&self, index: usize) -> Option<&P> {
        (index < self.moves.len()).then(|| &self.positions[index])
    }

    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// How often the current position (same board, same player to move) has occurred.
    pub fn repetitions(&self) -> u32 {
        let current = self.hashes[self.hashes.len() - 1];
        let since = self.reversible_since[self.reversible_since.len() - 1];
        self.hashes[since..]
            .iter()
            .filter(|&&h| h == current)
            .count() as u32
    }

    /// The end of the game, if it has ended: the position's own verdict, then repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        let position = self.position();
        if let Some(outcome) = position.outcome() {
            return Some(outcome);
        }
        match position.repetition_limit() {
            Some(limit) if self.repetitions() >= limit => {
                Some(Outcome::draw(EndReason::Repetition))
            }
            _ => None,
        }
    }

    /// Plays a move that must be legal in the current position (checked).
    pub fn play(&mut self, mv: P::Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let position = self.position();
        if !position.moves().contains(&mv) {
            return Err(MoveError::Illegal(format!("{mv:?}")));
        }
        self.push_unchecked(mv);
        Ok(())
    }

    /// Plays a move known to be legal (from `legal_moves` of the current position).
    fn push_unchecked(&mut self, mv: P::Move) {
        let position = self.position();
        let irreversible = position.is_irreversible(&mv);
        let next = position.after(&mv);
        self.hashes.push(next.zobrist());
        let since = if irreversible {
            self.positions.len()
        } else {
            self.reversible_since[self.reversible_since.len() - 1]
        };
        self.reversible_since.push(since);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Takes back the last move; false at the start.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.positions.pop();
        self.hashes.pop();
        self.reversible_since.pop();
        true
    }
}

impl<P: Describe> Record<P> {
    /// Reads and plays a move in the game's notation.
    pub fn play_text(&mut self, text: &str) -> Result<MoveInfo, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let position = self.position();
        let mv = position.parse_move(text)?;
        let info = position.move_info(&mv);
        self.push_unchecked(mv);
        Ok(info)
    }
}

/// A game of any kind, in the public notation. Implemented by every `Record<P>`.
pub trait AnyGame: Send + Sync + std::fmt::Debug {
    fn variant(&self) -> Variant;
    fn seats(&self) -> usize;
    fn to_move(&self) -> Seat;
    fn seat_name(&self, seat: Seat) -> &'static str;
    /// Legal moves of the current position (none once the game is over).
    fn legal_moves(&self) -> Vec<MoveInfo>;
    /// Plays a move given in notation; on error the game is unchanged.
    fn play(&mut self, text: &str) -> Result<MoveInfo, MoveError>;
    fn undo(&mut self) -> bool;
    fn outcome(&self) -> Option<Outcome>;
    /// The end if `seat` resigned now (the game itself is not changed).
    fn resignation_outcome(&self, seat: Seat) -> Outcome;
    fn ply(&self) -> usize;
    /// The moves played so far, each described in the position it was played from.
    fn history(&self) -> Vec<MoveInfo>;
    fn start_text(&self) -> String;
    fn position_text(&self) -> String;
    fn seat_stats(&self) -> Vec<SeatStats>;
    fn draw_counters(&self) -> Vec<DrawCounter>;
    fn layout(&self) -> BoardLayout;
    fn pieces(&self) -> Vec<PieceView>;
    /// Whether the game began at its variant's standard start position.
    fn started_from_standard(&self) -> bool;
}

impl<P: Describe> AnyGame for Record<P> {
    fn variant(&self) -> Variant {
        self.position().variant()
    }

    fn seats(&self) -> usize {
        self.position().seats()
    }

    fn to_move(&self) -> Seat {
        self.position().to_move()
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        self.position().seat_name(seat)
    }

    fn legal_moves(&self) -> Vec<MoveInfo> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let position = self.position();
        position
            .moves()
            .iter()
            .map(|mv| position.move_info(mv))
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<MoveInfo, MoveError> {
        self.play_text(text)
    }

    fn undo(&mut self) -> bool {
        Record::undo(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        Record::outcome(self)
    }

    fn resignation_outcome(&self, seat: Seat) -> Outcome {
        self.position().resignation_outcome(seat)
    }

    fn ply(&self) -> usize {
        Record::ply(self)
    }

    fn history(&self) -> Vec<MoveInfo> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(mv, before)| before.move_info(mv))
            .collect()
    }

    fn start_text(&self) -> String {
        self.start().to_text()
    }

    fn position_text(&self) -> String {
        self.position().to_text()
    }

    fn seat_stats(&self) -> Vec<SeatStats> {
        self.position().seat_stats()
    }

    fn draw_counters(&self) -> Vec<DrawCounter> {
        self.position().draw_counters()
    }

    fn layout(&self) -> BoardLayout {
        self.position().layout()
    }

    fn pieces(&self) -> Vec<PieceView> {
        self.position().pieces()
    }

    fn started_from_standard(&self) -> bool {
        P::start(self.variant()).is_ok_and(|standard| standard.to_text() == self.start_text())
    }
}
