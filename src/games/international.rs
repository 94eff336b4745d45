//! International draughts (10×10): 20 men each, White first, men capture backward too, flying
//! kings, the majority rule, captured pieces removed at the end, no crowning when a capture only
//! passes the last row. Draws: threefold repetition (judged by the record), 25 moves of each side
//! with only king moves and no capture, the 16-move count of 3 kings (2 kings + man, king + 2 men)
//! against a lone king, and 2 kings or 1 king against a lone king at once unless the side to move
//! has a capture. See `docs/rules.md`,
//! "International draughts".

use crate::games::diagonal::{
    board_describe, board_position_methods, check_kind, Board, DraughtsMove, Rules,
};
use crate::geometry::diagonal::{DiagonalGrid, GRID_10};
use crate::notation::fen::FenColor;
use crate::position::{
    DrawCounter, EndReason, GameKind, Outcome, Position, Seat, SetupError, Variant,
};

/// Plies of king moves without a capture that draw the game (25 moves of each side).
pub const NO_PROGRESS_PLIES: u32 = 50;
/// Moves of the strong side in a counted endgame after which it is a draw.
pub const ENDGAME_MOVES: u32 = 16;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InternationalRules;

impl Rules for InternationalRules {
    const KIND: GameKind = GameKind::International;
    const NAME: &'static str = "International draughts";
    const GRID: &'static DiagonalGrid = &GRID_10;
    const MEN_CAPTURE_BACKWARD: bool = true;
    const FLYING_KINGS: bool = true;
    const MAJORITY: bool = true;
    const SEAT0_MOVES_UP: bool = false;
    const SEAT0_COLOR: FenColor = FenColor::White;
    const SEAT_NAMES: [&'static str; 2] = ["white", "black"];
    const START_ROWS: u32 = 4;
}

/// A position of International draughts with its draw counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct International {
    board: Board<InternationalRules>,
    /// Moves the strong side has made since the counted endgame began.
    endgame_moves: u32,
}

/// The material balances that end play or start the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Material {
    /// One king against one king, or two kings against one king: a draw once no capture is pending.
    Drawn,
    /// Three kings, two kings and a man, or a king and two men against a lone king: the strong
    /// seat has 16 moves to win.
    Counted {
        strong: Seat,
    },
    Other,
}

fn material(board: &Board<InternationalRules>) -> Material {
    let lone_king = |seat: Seat| {
        let pieces = board.pieces[usize::from(seat)];
        pieces.count_ones() == 1 && board.kings & pieces != 0
    };
    for strong in 0..2u8 {
        if !lone_king(1 - strong) {
            continue;
        }
        let kings = board.kings_of(strong).count_ones();
        let men = board.men(strong).count_ones();
        match (kings, men) {
            (1 | 2, 0) => return Material::Drawn,
            (3, 0) | (2, 1) | (1, 2) => return Material::Counted { strong },
            _ => {}
        }
    }
    Material::Other
}

impl International {
    pub fn board(&self) -> &Board<InternationalRules> {
        &self.board
    }

    /// The position of a board, with no counted endgame under way.
    pub fn from_board(board: Board<InternationalRules>) -> Self {
        International::new(board)
    }

    /// The same position with the counters set (plies of king moves without capture, plies
    /// played, strong-side moves in a counted endgame), for continuing a game whose history is not
    /// replayed.
    pub fn with_counters(mut self, quiet_plies: u32, plies: u32, endgame_moves: u32) -> Self {
        self.board.quiet_plies = quiet_plies;
        self.board.plies = plies;
        self.endgame_moves = if matches!(material(&self.board), Material::Counted { .. }) {
            endgame_moves
        } else {
            0
        };
        self
    }

    fn new(board: Board<InternationalRules>) -> Self {
        International {
            board,
            endgame_moves: 0,
        }
    }
}

board_describe!(International, InternationalRules);

impl Position for International {
    type Move = DraughtsMove;

    board_position_methods!(InternationalRules);

    fn start(variant: Variant) -> Result<Self, SetupError> {
        check_kind::<InternationalRules>(variant)?;
        Ok(International::new(Board::start()))
    }

    fn from_text(variant: Variant, text: &str) -> Result<Self, SetupError> {
        check_kind::<InternationalRules>(variant)?;
        Ok(International::new(Board::from_fen(text)?))
    }

    fn play(&mut self, mv: &DraughtsMove) {
        let mover = self.board.to_move;
        let before = material(&self.board);
        self.board.play(mv);
        self.endgame_moves = match (before, material(&self.board)) {
            (Material::Counted { strong }, Material::Counted { strong: now }) if strong == now => {
                self.endgame_moves + u32::from(mover == strong)
            }
            _ => 0,
        };
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.board.count() == 0 {
            return Some(Outcome::win(
                1 - self.board.to_move,
                EndReason::NoLegalMoves,
            ));
        }
        // The drawn balances stand only once no capture is pending: a capture of the last piece
        // (compulsory) wins instead (docs/rules.md, I9).
        if material(&self.board) == Material::Drawn && !self.board.has_capture() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        if self.board.quiet_plies >= NO_PROGRESS_PLIES {
            return Some(Outcome::draw(EndReason::NoProgress));
        }
        if self.endgame_moves >= ENDGAME_MOVES {
            return Some(Outcome::draw(EndReason::EndgameCount));
        }
        None
    }

    fn draw_counters(&self) -> Vec<DrawCounter> {
        let mut counters = vec![DrawCounter {
            reason: EndReason::NoProgress,
            plies_left: NO_PROGRESS_PLIES.saturating_sub(self.board.quiet_plies),
        }];
        if let Material::Counted { strong } = material(&self.board) {
            let moves_left = ENDGAME_MOVES.saturating_sub(self.endgame_moves);
            // The strong side's last counted move ends the game: one ply sooner when it is to move.
            let plies_left = if self.board.to_move == strong {
                (2 * moves_left).saturating_sub(1)
            } else {
                2 * moves_left
            };
            counters.push(DrawCounter {
                reason: EndReason::EndgameCount,
                plies_left,
            });
        }
        counters
    }
}
