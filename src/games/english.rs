//! English checkers (American checkers, "damas inglesas"): 8×8, 12 men each, Black first, men
//! move and capture forward only, one-square kings, free choice among captures, crowning ends the
//! move. Draws: threefold repetition (judged by the record), 80 plies without a capture or a man
//! move, 400 plies in all. See `docs/rules.md`, "English checkers".

use crate::games::diagonal::{
    board_describe, board_position_methods, check_kind, Board, DraughtsMove, Rules,
};
use crate::geometry::diagonal::{DiagonalGrid, GRID_8};
use crate::notation::fen::FenColor;
use crate::position::{DrawCounter, EndReason, GameKind, Outcome, Position, SetupError, Variant};

/// Plies without a capture or a man move that draw the game (40 moves of each side).
pub const NO_PROGRESS_PLIES: u32 = 80;
/// Plies in all that draw the game.
pub const MOVE_LIMIT_PLIES: u32 = 400;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnglishRules;

impl Rules for EnglishRules {
    const KIND: GameKind = GameKind::English;
    const NAME: &'static str = "English checkers";
    const GRID: &'static DiagonalGrid = &GRID_8;
    const MEN_CAPTURE_BACKWARD: bool = false;
    const FLYING_KINGS: bool = false;
    const MAJORITY: bool = false;
    const SEAT0_MOVES_UP: bool = true;
    const SEAT0_COLOR: FenColor = FenColor::Black;
    const SEAT_NAMES: [&'static str; 2] = ["black", "white"];
    const START_ROWS: u32 = 3;
}

/// A position of English checkers with its draw counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct English {
    board: Board<EnglishRules>,
}

impl English {
    pub fn board(&self) -> &Board<EnglishRules> {
        &self.board
    }

    /// The position of a board (its counters as the board carries them).
    pub fn from_board(board: Board<EnglishRules>) -> English {
        English { board }
    }

    /// The same position with the counters set (plies without progress, plies played), for
    /// continuing a game whose history is not replayed.
    pub fn with_counters(mut self, quiet_plies: u32, plies: u32) -> English {
        self.board.quiet_plies = quiet_plies;
        self.board.plies = plies;
        self
    }
}

board_describe!(English, EnglishRules);

impl Position for English {
    type Move = DraughtsMove;

    board_position_methods!(EnglishRules);

    fn start(variant: Variant) -> Result<Self, SetupError> {
        check_kind::<EnglishRules>(variant)?;
        Ok(English {
            board: Board::start(),
        })
    }

    fn from_text(variant: Variant, text: &str) -> Result<Self, SetupError> {
        check_kind::<EnglishRules>(variant)?;
        Ok(English {
            board: Board::from_fen(text)?,
        })
    }

    fn play(&mut self, mv: &DraughtsMove) {
        self.board.play(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.board.count() == 0 {
            return Some(Outcome::win(
                1 - self.board.to_move,
                EndReason::NoLegalMoves,
            ));
        }
        if self.board.quiet_plies >= NO_PROGRESS_PLIES {
            return Some(Outcome::draw(EndReason::NoProgress));
        }
        if self.board.plies >= MOVE_LIMIT_PLIES {
            return Some(Outcome::draw(EndReason::MoveLimit));
        }
        None
    }

    fn draw_counters(&self) -> Vec<DrawCounter> {
        vec![
            DrawCounter {
                reason: EndReason::NoProgress,
                plies_left: NO_PROGRESS_PLIES.saturating_sub(self.board.quiet_plies),
            },
            DrawCounter {
                reason: EndReason::MoveLimit,
                plies_left: MOVE_LIMIT_PLIES.saturating_sub(self.board.plies),
            },
        ]
    }
}
