//! How a game is shown and written, built on its rules: the presentation layer.
//!
//! [`Position`] holds only the rules; [`Describe`] adds what the CLI prints, the app draws and a
//! record stores: a move in the game's notation (and reading one back), the seats' names and
//! figures, the board's cells and the pieces on them. Every game implements both; the search
//! needs only the rules.

use crate::position::{MoveError, Position, Seat};
use serde::{Deserialize, Serialize};

/// A move described in the game's public notation: what the CLI prints, the app draws and a
/// record stores. Squares/holes are strings in the game's notation (numeric, algebraic or F/P).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveInfo {
    /// The move's text, unambiguous among the legal moves and accepted back by `parse_move`.
    #[serde(rename = "move")]
    pub text: String,
    pub from: String,
    pub to: String,
    /// Every landing from start to end (a representative path when several give the same move).
    pub path: Vec<String>,
    /// Number of jumps (0 for a step or a pass).
    pub jumps: u32,
    /// Captured squares, sorted ascending in the game's order.
    pub captures: Vec<String>,
    /// The move leg by leg along `path`: `legs[i].to == path[i + 1]`, with the piece that leg
    /// takes (empty for a pass).
    #[serde(default)]
    pub legs: Vec<Leg>,
    /// True for the pass move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pass: bool,
}

/// One step or jump of a move: where the piece lands and the piece it takes on the way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leg {
    pub to: String,
    /// The square/hole of the piece this leg takes; `None` for a step or a jump that takes nothing.
    pub captured: Option<String>,
}

impl Leg {
    /// Legs that take nothing, one per landing after the first point of `path`.
    pub fn uncapturing(path: &[String]) -> Vec<Leg> {
        path.iter()
            .skip(1)
            .map(|to| Leg {
                to: to.clone(),
                captured: None,
            })
            .collect()
    }
}

/// Per-seat figures a status line shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatStats {
    pub seat: Seat,
    /// Colour or player name ("white", "black", "red", "yellow", "green", "1" … "6").
    pub name: String,
    /// Pieces of this seat on the board (men and kings); 0 in the capture game.
    pub pieces: u32,
    /// Kings among them.
    pub kings: u32,
    /// Diamond: holes of the destination occupied by this seat's pieces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub home: Option<u32>,
    /// Capture game: pieces captured by this seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<u32>,
    /// Diamond: the destination is full but the king is not on its apex, so the king must go
    /// home to win (docs/rules.md, "Diamond Game").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub king_must_go_home: bool,
}

/// The shape of a board, for drawing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum BoardShape {
    /// A square grid; `dark_only` when only the dark squares are played (English, International).
    Grid {
        files: u8,
        ranks: u8,
        dark_only: bool,
    },
    /// The 121-hole star.
    Star,
}

/// One playable square or hole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// Canonical name in the game's notation (what moves use).
    pub name: String,
    /// Drawing coordinates: grids use file (0 = left) and rank (0 = bottom) as seen by the first
    /// seat; the star uses unit-spaced cartesian coordinates, y up, with seat 0's start point at
    /// the bottom.
    pub x: f32,
    pub y: f32,
    /// Star only: the name of this hole as each seat sees the board (F/P from that seat's view).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub view_names: Vec<String>,
    /// Star only: the colour seat whose punta (start or destination) this hole belongs to, if the
    /// hole is inside a punta's interior; `None` on the central hexagon and its border.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Seat>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardLayout {
    pub shape: BoardShape,
    pub cells: Vec<Cell>,
}

/// A piece on the board. In the capture game pieces belong to nobody: `seat` is `None`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceView {
    pub cell: String,
    pub seat: Option<Seat>,
    pub king: bool,
}

/// A game's presentation: its notation, seats, board and pieces, for one position.
pub trait Describe: Position {
    /// The move in the game's notation with its path and captures.
    fn move_info(&self, mv: &Self::Move) -> MoveInfo;

    /// Name of a seat ("white", "red", "1" …).
    fn seat_name(&self, seat: Seat) -> &'static str;

    /// Per-seat figures for a status line.
    fn seat_stats(&self) -> Vec<SeatStats>;

    /// The board's cells for drawing (the same for every position of a variant).
    fn layout(&self) -> BoardLayout;

    /// The pieces on the board.
    fn pieces(&self) -> Vec<PieceView>;

    /// Reads a move in the game's notation against this position's legal moves. The default
    /// accepts the exact text of `move_info`; games may also accept shorter unambiguous forms.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let text = text.trim();
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|mv| self.move_info(mv).text == text)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}
