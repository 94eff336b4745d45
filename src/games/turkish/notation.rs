//! Turkish text formats: the PDN FEN with algebraic squares (`W:Wa2,b2,Kd4:Ba7,b7`) and the
//! move text (`a3-a4` for a step, `d4xd6xf6` for a capture with every landing).

use super::board::Turkish;
use super::movegen::TurkishMove;
use super::squares::{self, bit, Bitboard};
use crate::notation::fen::{self, FenColor, FenPiece};
use crate::position::{MoveError, PositionError, SetupError};

/// A side may hold at most this many pieces (the start count; it also bounds a capture's length).
pub const MAX_PIECES: u32 = 16;

/// Reads a FEN. Squares are `a1`–`h8`; the draw counters start at zero (FEN does not carry them).
pub fn read_fen(text: &str) -> Result<Turkish, SetupError> {
    let fields = fen::parse(text)?;
    let mut white: Bitboard = 0;
    let mut black: Bitboard = 0;
    let mut kings: Bitboard = 0;
    for piece in &fields.pieces {
        let sq = squares::parse(&piece.square)
            .ok_or_else(|| PositionError::NotAlgebraic(piece.square.clone()))?;
        if (white | black) & bit(sq) != 0 {
            return Err(PositionError::GivenTwice(piece.square.clone()).into());
        }
        // A man on its last row would already have been crowned.
        let last_row = match piece.color {
            FenColor::White => squares::RANK_8,
            FenColor::Black => squares::RANK_1,
        };
        if !piece.king && last_row & bit(sq) != 0 {
            return Err(PositionError::ManOnLastRow(piece.square.clone()).into());
        }
        match piece.color {
            FenColor::White => white |= bit(sq),
            FenColor::Black => black |= bit(sq),
        }
        if piece.king {
            kings |= bit(sq);
        }
    }
    for (set, colour) in [(white, "white"), (black, "black")] {
        if set.count_ones() > MAX_PIECES {
            return Err(PositionError::TooManyPieces {
                colour,
                pieces: set.count_ones(),
                max: MAX_PIECES,
            }
            .into());
        }
    }
    let to_move = match fields.to_move {
        FenColor::White => 0,
        FenColor::Black => 1,
    };
    Ok(Turkish {
        white,
        black,
        kings,
        to_move,
        quiet_plies: 0,
    })
}

/// Writes the FEN that [`read_fen`] reads back; pieces in square order a1, b1, …, h8.
pub fn write_fen(position: &Turkish) -> String {
    let mut pieces = Vec::new();
    for (set, color) in [
        (position.white, FenColor::White),
        (position.black, FenColor::Black),
    ] {
        pieces.extend(squares::squares(set).map(|sq| FenPiece {
            square: squares::name(sq),
            king: position.kings & bit(sq) != 0,
            color,
        }));
    }
    let side = if position.to_move == 0 {
        FenColor::White
    } else {
        FenColor::Black
    };
    fen::write(side, &pieces)
}

/// The move text: `from-to` for a step, `from x landing x …` for a capture.
pub fn move_text(mv: &TurkishMove) -> String {
    if mv.is_capture() {
        let mut text = squares::name(mv.from());
        for &landing in mv.landings() {
            text.push('x');
            text.push_str(&squares::name(landing));
        }
        text
    } else {
        format!("{}-{}", squares::name(mv.from()), squares::name(mv.to()))
    }
}

/// What a move text says, before it is matched against the legal moves.
#[derive(Debug, PartialEq, Eq)]
pub struct ParsedMove {
    pub from: u8,
    /// Landings for a capture, or the single destination of a step.
    pub landings: Vec<u8>,
    pub capture: bool,
}

/// Reads the syntax of a move text: `a3-a4` or `d4xd6xf6` (at most 16 jumps).
pub fn parse_move_text(text: &str) -> Result<ParsedMove, MoveError> {
    let syntax = || MoveError::Syntax(text.to_string());
    let capture = text.contains('x');
    let parts: Vec<&str> = if capture {
        text.split('x').collect()
    } else {
        text.split('-').collect()
    };
    let limit = if capture {
        1 + super::movegen::MAX_JUMPS
    } else {
        2
    };
    if parts.len() < 2 || parts.len() > limit {
        return Err(syntax());
    }
    let squares = parts
        .iter()
        .map(|part| squares::parse(part))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(syntax)?;
    Ok(ParsedMove {
        from: squares[0],
        landings: squares[1..].to_vec(),
        capture,
    })
}
