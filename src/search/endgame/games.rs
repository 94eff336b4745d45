//! What the endgame databases need from a game: its squares, and a position from its pieces and
//! back. Implemented by the three draughts games.

use super::index::{Placement, SquareList, Squares};
use crate::games::diagonal::{Board, DraughtsMove, Rules};
use crate::games::english::{English, EnglishRules};
use crate::games::international::{International, InternationalRules};
use crate::games::turkish::squares::{RANK_1, RANK_8};
use crate::games::turkish::Turkish;
use crate::position::{GameKind, Position};
use std::sync::OnceLock;

/// A draughts game the databases cover.
pub trait EndgameGame: Position + Sized {
    const KIND: GameKind;

    /// Where men and kings may stand.
    fn squares() -> &'static Squares;

    /// The position with these pieces, the counters at zero.
    fn from_placement(placement: &Placement) -> Self;

    /// The pieces of this position.
    fn placement(&self) -> Placement;

    /// Whether the side to move has a capture, which it must take: such a position's value is
    /// the best of its captures' (all leave its slice), so the files do not store it.
    fn must_capture(&self) -> bool;

    /// The pieces after `mv`; the builder's inner loop, so the games skip their counters.
    fn placement_after(&self, mv: &Self::Move) -> Placement {
        self.after(mv).placement()
    }
}

fn diagonal_squares<R: Rules>() -> Squares {
    let valid = R::GRID.valid;
    Squares {
        men: [
            SquareList::new(valid & !Board::<R>::crown_row(0)),
            SquareList::new(valid & !Board::<R>::crown_row(1)),
        ],
        kings: SquareList::new(valid),
    }
}

fn diagonal_board<R: Rules>(placement: &Placement) -> Board<R> {
    let pieces = [
        placement.men[0] | placement.kings[0],
        placement.men[1] | placement.kings[1],
    ];
    Board::new(
        pieces,
        placement.kings[0] | placement.kings[1],
        placement.to_move,
    )
}

fn diagonal_placement<R: Rules>(board: &Board<R>) -> Placement {
    Placement {
        men: [board.men(0), board.men(1)],
        kings: [board.kings_of(0), board.kings_of(1)],
        to_move: board.to_move,
    }
}

/// The board's pieces after `mv`, without the game's counters.
fn diagonal_placement_after<R: Rules>(board: &Board<R>, mv: &DraughtsMove) -> Placement {
    let mut board = *board;
    board.play(mv);
    diagonal_placement(&board)
}

impl EndgameGame for English {
    const KIND: GameKind = GameKind::English;

    fn squares() -> &'static Squares {
        static SQUARES: OnceLock<Squares> = OnceLock::new();
        SQUARES.get_or_init(diagonal_squares::<EnglishRules>)
    }

    fn from_placement(placement: &Placement) -> Self {
        English::from_board(diagonal_board(placement))
    }

    fn must_capture(&self) -> bool {
        self.board().has_capture()
    }

    fn placement(&self) -> Placement {
        diagonal_placement(self.board())
    }

    fn placement_after(&self, mv: &DraughtsMove) -> Placement {
        diagonal_placement_after(self.board(), mv)
    }
}

impl EndgameGame for International {
    const KIND: GameKind = GameKind::International;

    fn squares() -> &'static Squares {
        static SQUARES: OnceLock<Squares> = OnceLock::new();
        SQUARES.get_or_init(diagonal_squares::<InternationalRules>)
    }

    fn from_placement(placement: &Placement) -> Self {
        International::from_board(diagonal_board(placement))
    }

    fn must_capture(&self) -> bool {
        self.board().has_capture()
    }

    fn placement(&self) -> Placement {
        diagonal_placement(self.board())
    }

    fn placement_after(&self, mv: &DraughtsMove) -> Placement {
        diagonal_placement_after(self.board(), mv)
    }
}

impl EndgameGame for Turkish {
    const KIND: GameKind = GameKind::Turkish;

    fn squares() -> &'static Squares {
        static SQUARES: OnceLock<Squares> = OnceLock::new();
        SQUARES.get_or_init(|| Squares {
            // Men never stand on their own last row: they are crowned there (§T8).
            men: [SquareList::new(!RANK_8), SquareList::new(!RANK_1)],
            kings: SquareList::new(u64::MAX),
        })
    }

    fn from_placement(placement: &Placement) -> Self {
        Turkish {
            white: placement.men[0] | placement.kings[0],
            black: placement.men[1] | placement.kings[1],
            kings: placement.kings[0] | placement.kings[1],
            to_move: placement.to_move,
            quiet_plies: 0,
        }
    }

    fn must_capture(&self) -> bool {
        self.has_capture()
    }

    fn placement(&self) -> Placement {
        Placement {
            men: [self.white & !self.kings, self.black & !self.kings],
            kings: [self.white & self.kings, self.black & self.kings],
            to_move: self.to_move,
        }
    }
}
