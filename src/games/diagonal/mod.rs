//! What English checkers and International draughts share: a bitboard position on the dark
//! squares, one move generator driven by a few rule switches, and the PDN square notation.
//!
//! Each game module wraps [`Board`] with its own draw rules and implements
//! [`crate::position::Position`], taking the methods that only read the board from
//! `board_position_methods!`, and its [`crate::describe::Describe`] from `board_describe!`; everything here is rule-neutral apart from the [`Rules`] switches.

mod movegen;
mod text;
mod zobrist;

use crate::geometry::diagonal::DiagonalGrid;
use crate::notation::fen::FenColor;
use crate::position::{GameKind, PositionError, Seat, SetupError, Variant};
use std::fmt::Debug;
use std::marker::PhantomData;

/// The rule switches that tell the two games apart.
pub trait Rules: Copy + Debug + Default + Send + Sync + 'static {
    const KIND: GameKind;
    /// The game's name in messages ("English checkers").
    const NAME: &'static str;
    const GRID: &'static DiagonalGrid;
    /// Men capture backward as well as forward (International).
    const MEN_CAPTURE_BACKWARD: bool;
    /// Kings move and capture at any distance (International) instead of one square.
    const FLYING_KINGS: bool;
    /// Only the captures taking the most pieces are legal (International).
    const MAJORITY: bool;
    /// Whether seat 0's men start on the low numbers and move toward higher ones (English Black).
    const SEAT0_MOVES_UP: bool;
    /// The FEN letter of seat 0 (English `B`, International `W`).
    const SEAT0_COLOR: FenColor;
    const SEAT_NAMES: [&'static str; 2];
    /// Rows of men each side starts with.
    const START_ROWS: u32;
}

/// The `Position` methods a diagonal game answers straight from its board (a field `board` of
/// type `Board<$rules>`), for use inside its `impl Position`: each game then writes only its
/// start, its moves' effect on its own counters, its ends and its draw counters.
macro_rules! board_position_methods {
    ($rules:ty) => {
        fn variant(&self) -> $crate::position::Variant {
            $crate::position::Variant::standard(<$rules as $crate::games::diagonal::Rules>::KIND)
        }

        fn to_text(&self) -> String {
            self.board.to_fen()
        }

        fn to_move(&self) -> $crate::position::Seat {
            self.board.to_move
        }

        fn legal_moves(&self, out: &mut Vec<$crate::games::diagonal::DraughtsMove>) {
            self.board.generate(out);
        }

        fn zobrist(&self) -> u64 {
            self.board.hash
        }

        fn repetition_limit(&self) -> Option<u32> {
            Some(3)
        }

        fn is_irreversible(&self, mv: &$crate::games::diagonal::DraughtsMove) -> bool {
            mv.captures != 0 || self.board.is_man_move(mv)
        }

        fn count_moves(&self) -> u64 {
            self.board.count()
        }
    };
}
pub(crate) use board_position_methods;

/// The whole [`Describe`](crate::describe::Describe) of a diagonal game, read from its board (a
/// field `board` of type `Board<$rules>`): notation, seats, layout and pieces are the same
/// machinery in both games.
macro_rules! board_describe {
    ($game:ty, $rules:ty) => {
        impl $crate::describe::Describe for $game {
            fn move_info(
                &self,
                mv: &$crate::games::diagonal::DraughtsMove,
            ) -> $crate::describe::MoveInfo {
                self.board.move_info(mv)
            }

            fn seat_name(&self, seat: $crate::position::Seat) -> &'static str {
                <$rules as $crate::games::diagonal::Rules>::SEAT_NAMES[usize::from(seat & 1)]
            }

            fn seat_stats(&self) -> Vec<$crate::describe::SeatStats> {
                self.board.seat_stats()
            }

            fn layout(&self) -> $crate::describe::BoardLayout {
                $crate::games::diagonal::Board::<$rules>::layout()
            }

            fn pieces(&self) -> Vec<$crate::describe::PieceView> {
                self.board.piece_views()
            }

            fn parse_move(
                &self,
                text: &str,
            ) -> Result<$crate::games::diagonal::DraughtsMove, $crate::position::MoveError> {
                self.board.parse_move(text)
            }
        }
    };
}
pub(crate) use board_describe;

/// Refuses a variant of another game: a position of one game cannot start another.
pub fn check_kind<R: Rules>(variant: Variant) -> Result<(), SetupError> {
    if variant.kind == R::KIND {
        Ok(())
    } else {
        Err(PositionError::OtherGame {
            game: R::NAME,
            asked: variant.kind.as_str(),
        }
        .into())
    }
}

/// A move: the moving piece's start and end bits and the bits it captures. Two capture paths with
/// the same three values are the same move; the display path is rebuilt by [`Board::move_paths`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DraughtsMove {
    pub from: u8,
    pub to: u8,
    pub captures: u64,
}

impl DraughtsMove {
    pub fn capture_count(&self) -> u32 {
        self.captures.count_ones()
    }
}

/// Pieces, side to move and the two counters every draughts game keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board<R: Rules> {
    /// Pieces (men and kings) of each seat.
    pub pieces: [u64; 2],
    pub kings: u64,
    pub to_move: Seat,
    /// Plies since the last capture or man move.
    pub quiet_plies: u32,
    /// Plies played since the start position (or the FEN it was read from).
    pub plies: u32,
    /// Zobrist hash of pieces and side to move, kept up to date by `play`.
    pub hash: u64,
    rules: PhantomData<R>,
}

impl<R: Rules> Board<R> {
    /// A board from piece sets; counters start at zero.
    pub fn new(pieces: [u64; 2], kings: u64, to_move: Seat) -> Board<R> {
        let mut board = Board {
            pieces,
            kings,
            to_move,
            quiet_plies: 0,
            plies: 0,
            hash: 0,
            rules: PhantomData,
        };
        board.hash = zobrist::full_hash(&board.pieces, board.kings, to_move);
        board
    }

    /// The start position: `START_ROWS` rows of men each.
    pub fn start() -> Board<R> {
        let grid = R::GRID;
        let per_side = R::START_ROWS * grid.half();
        let mut low = 0u64;
        let mut high = 0u64;
        for square in 1..=per_side {
            low |= 1 << grid.bit(square).unwrap_or(0);
            high |= 1 << grid.bit(grid.squares + 1 - square).unwrap_or(0);
        }
        let pieces = if R::SEAT0_MOVES_UP {
            [low, high]
        } else {
            [high, low]
        };
        Board::new(pieces, 0, 0)
    }

    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    pub fn empty(&self) -> u64 {
        R::GRID.valid & !self.occupied()
    }

    /// Whether `seat`'s men move toward higher square numbers.
    pub fn moves_up(seat: Seat) -> bool {
        (seat == 0) == R::SEAT0_MOVES_UP
    }

    /// The row where `seat`'s men are crowned.
    pub fn crown_row(seat: Seat) -> u64 {
        if Self::moves_up(seat) {
            R::GRID.high_row
        } else {
            R::GRID.low_row
        }
    }

    pub fn men(&self, seat: Seat) -> u64 {
        self.pieces[usize::from(seat)] & !self.kings
    }

    pub fn kings_of(&self, seat: Seat) -> u64 {
        self.pieces[usize::from(seat)] & self.kings
    }

    /// Whether the move is made by a man (and so is irreversible).
    pub fn is_man_move(&self, mv: &DraughtsMove) -> bool {
        self.kings & (1 << mv.from) == 0
    }

    /// Plays a legal move: captured pieces leave, a man ending on its crown row is crowned, the
    /// counters and the hash follow.
    pub fn play(&mut self, mv: &DraughtsMove) {
        let me = usize::from(self.to_move);
        let them = 1 - me;
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let was_king = self.kings & from != 0;
        let crowned = !was_king && to & Self::crown_row(self.to_move) != 0;
        let mut hash = self.hash ^ zobrist::side_key();
        hash ^= zobrist::key(self.to_move, was_king, u32::from(mv.from));
        hash ^= zobrist::key(self.to_move, was_king || crowned, u32::from(mv.to));
        let mut captured = mv.captures;
        while captured != 0 {
            let bit = captured.trailing_zeros();
            captured &= captured - 1;
            hash ^= zobrist::key(them as Seat, self.kings & (1 << bit) != 0, bit);
        }
        self.pieces[me] = (self.pieces[me] & !from) | to;
        self.pieces[them] &= !mv.captures;
        self.kings &= !mv.captures;
        if was_king {
            self.kings = (self.kings & !from) | to;
        } else if crowned {
            self.kings |= to;
        }
        self.quiet_plies = if was_king && mv.captures == 0 {
            self.quiet_plies + 1
        } else {
            0
        };
        self.plies += 1;
        self.to_move = 1 - self.to_move;
        self.hash = hash;
    }
}
