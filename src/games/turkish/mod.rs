//! Turkish draughts (dama): 8×8, every square used, men step forward or sideways, flying
//! rook-like kings, the longest capture mandatory and jumped pieces removed at once.
//!
//! Rules and the decisions the seed leaves open are in docs/rules.md, "Turkish draughts"; the
//! section numbers (§T1 …) cited in code and tests refer to it.
//!
//! Squares are algebraic, a1 (White's bottom left) to h8; where squares are ordered (the
//! `captures` of a move, FEN piece lists) the order is the square index a1 = 0, b1 = 1, …,
//! h1 = 7, a2 = 8, …, h8 = 63.

mod board;
mod movegen;
mod notation;
pub mod squares;
mod zobrist;

pub use board::Turkish;
pub use movegen::{TurkishMove, MAX_JUMPS};

use crate::describe::{
    BoardLayout, BoardShape, Cell, Describe, Leg, MoveInfo, PieceView, SeatStats,
};
use crate::position::{
    DrawCounter, EndReason, GameKind, MoveError, Outcome, Position, PositionError, Seat,
    SetupError, Variant,
};
use squares::{bit, Bitboard, RANK_1, RANK_8};

/// Plies without a capture or a man move after which the game is drawn: 25 moves of each side
/// (§T10).
pub const NO_PROGRESS_PLIES: u32 = 50;

const WHITE_START: Bitboard = 0x0000_0000_00FF_FF00;
const BLACK_START: Bitboard = 0x00FF_FF00_0000_0000;

/// Perft counting every capture path separately, as kish does: two paths that take the same
/// pieces from the same start to the same end count twice here and once in
/// [`crate::perft::perft`].
pub fn perft_paths(position: &Turkish, depth: u32) -> u64 {
    let sides = position.sides();
    match depth {
        0 => 1,
        1 if !movegen::has_capture(&sides) => movegen::count_quiet(&sides),
        _ => {
            let mut moves = Vec::new();
            movegen::generate_paths(&sides, &mut moves);
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .iter()
                .map(|mv| perft_paths(&position.after(mv), depth - 1))
                .sum()
        }
    }
}

/// The legs of a move along its landings. Each jump runs along one rank or file and takes the one
/// captured piece strictly between its two landings that an earlier jump has not taken (jumped
/// pieces are removed at once, so a later jump may cross the square of an earlier one, §T6).
fn legs(mv: &TurkishMove) -> Vec<Leg> {
    use squares::{bit, Dir, RAY};
    if !mv.is_capture() {
        return vec![Leg {
            to: squares::name(mv.to),
            captured: None,
        }];
    }
    let mut at = mv.from;
    let mut left = mv.captured;
    mv.landings()
        .iter()
        .map(|&to| {
            let between = Dir::ALL
                .iter()
                .find(|&&dir| RAY[dir as usize][at as usize] & bit(to) != 0)
                .map_or(0, |&dir| {
                    RAY[dir as usize][at as usize] & !RAY[dir as usize][to as usize] & !bit(to)
                });
            let taken = squares::squares(between & left).next();
            if let Some(sq) = taken {
                left &= !bit(sq);
            }
            at = to;
            Leg {
                to: squares::name(to),
                captured: taken.map(squares::name),
            }
        })
        .collect()
}

impl Position for Turkish {
    type Move = TurkishMove;

    fn start(variant: Variant) -> Result<Self, SetupError> {
        check_variant(variant)?;
        Ok(Turkish {
            white: WHITE_START,
            black: BLACK_START,
            kings: 0,
            to_move: 0,
            quiet_plies: 0,
        })
    }

    fn from_text(variant: Variant, text: &str) -> Result<Self, SetupError> {
        check_variant(variant)?;
        notation::read_fen(text)
    }

    fn to_text(&self) -> String {
        notation::write_fen(self)
    }

    fn variant(&self) -> Variant {
        Variant::standard(GameKind::Turkish)
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<TurkishMove>) {
        movegen::legal_moves(&self.sides(), out);
    }

    fn play(&mut self, mv: &TurkishMove) {
        let from = bit(mv.from);
        let to = bit(mv.to);
        let was_man = self.is_man(mv.from);
        let (own, opp) = if self.to_move == 0 {
            (&mut self.white, &mut self.black)
        } else {
            (&mut self.black, &mut self.white)
        };
        *own = (*own & !from) | to;
        *opp &= !mv.captured;
        self.kings &= !mv.captured;
        // Crowning depends only on where the move ends (§T8).
        let last_row = if self.to_move == 0 { RANK_8 } else { RANK_1 };
        if !was_man || last_row & to != 0 {
            self.kings = (self.kings & !from) | to;
        }
        self.quiet_plies = if was_man || mv.captured != 0 {
            0
        } else {
            self.quiet_plies + 1
        };
        self.to_move ^= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        let sides = self.sides();
        let can_capture = movegen::has_capture(&sides);
        if !can_capture && movegen::count_quiet(&sides) == 0 {
            return Some(Outcome::win(self.to_move ^ 1, EndReason::NoLegalMoves));
        }
        let lone_kings = self.white.count_ones() == 1
            && self.black.count_ones() == 1
            && self.kings == self.white | self.black;
        if lone_kings && !can_capture {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        if self.quiet_plies >= NO_PROGRESS_PLIES {
            return Some(Outcome::draw(EndReason::NoProgress));
        }
        None
    }

    fn zobrist(&self) -> u64 {
        zobrist::hash(self.white, self.black, self.kings, self.to_move)
    }

    fn repetition_limit(&self) -> Option<u32> {
        Some(3)
    }

    /// Captures and forward man steps can never be undone. A sideways man step can (the man may
    /// step back), so it does not bound repetition even though it resets the no-progress count.
    fn is_irreversible(&self, mv: &TurkishMove) -> bool {
        mv.is_capture()
            || (self.is_man(mv.from) && squares::rank_of(mv.from) != squares::rank_of(mv.to))
    }

    fn draw_counters(&self) -> Vec<DrawCounter> {
        vec![DrawCounter {
            reason: EndReason::NoProgress,
            plies_left: NO_PROGRESS_PLIES.saturating_sub(self.quiet_plies),
        }]
    }

    fn count_moves(&self) -> u64 {
        movegen::count_moves(&self.sides())
    }

    fn perft_paths(&self, depth: u32) -> Option<u64> {
        Some(perft_paths(self, depth))
    }
}

impl Describe for Turkish {
    fn move_info(&self, mv: &TurkishMove) -> MoveInfo {
        let mut path = vec![squares::name(mv.from)];
        if mv.is_capture() {
            path.extend(mv.landings().iter().map(|&sq| squares::name(sq)));
        } else {
            path.push(squares::name(mv.to));
        }
        MoveInfo {
            text: notation::move_text(mv),
            from: squares::name(mv.from),
            to: squares::name(mv.to),
            path,
            jumps: u32::from(mv.jumps),
            // `squares` yields ascending indices: a1 = 0 … h8 = 63.
            captures: squares::squares(mv.captured).map(squares::name).collect(),
            legs: legs(mv),
            pass: false,
        }
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        if seat == 0 {
            "white"
        } else {
            "black"
        }
    }

    fn seat_stats(&self) -> Vec<SeatStats> {
        [self.white, self.black]
            .into_iter()
            .enumerate()
            .map(|(seat, set)| SeatStats {
                seat: seat as Seat,
                name: self.seat_name(seat as Seat).to_string(),
                pieces: set.count_ones(),
                kings: (set & self.kings).count_ones(),
                home: None,
                captures: None,
                king_must_go_home: false,
            })
            .collect()
    }

    fn layout(&self) -> BoardLayout {
        BoardLayout {
            shape: BoardShape::Grid {
                files: 8,
                ranks: 8,
                dark_only: false,
            },
            cells: (0..64)
                .map(|sq| Cell {
                    name: squares::name(sq),
                    x: f32::from(squares::file_of(sq)),
                    y: f32::from(squares::rank_of(sq)),
                    view_names: Vec::new(),
                    zone: None,
                })
                .collect(),
        }
    }

    fn pieces(&self) -> Vec<PieceView> {
        squares::squares(self.white | self.black)
            .map(|sq| PieceView {
                cell: squares::name(sq),
                seat: Some(if self.white & bit(sq) != 0 { 0 } else { 1 }),
                king: self.kings & bit(sq) != 0,
            })
            .collect()
    }

    /// Accepts the text `move_info` gives, and also any other legal path to the same move.
    fn parse_move(&self, text: &str) -> Result<TurkishMove, MoveError> {
        let text = text.trim();
        let parsed = notation::parse_move_text(text)?;
        let mut paths = Vec::new();
        self.move_paths(&mut paths);
        let found = paths.into_iter().find(|mv| {
            mv.from == parsed.from
                && if parsed.capture {
                    mv.landings() == parsed.landings.as_slice()
                } else {
                    !mv.is_capture() && parsed.landings == [mv.to]
                }
        });
        let path = found.ok_or_else(|| MoveError::Illegal(text.to_string()))?;
        // Return the representative that `legal_moves` lists (equal by identity).
        self.moves()
            .into_iter()
            .find(|mv| *mv == path)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}

fn check_variant(variant: Variant) -> Result<(), SetupError> {
    if variant.kind != GameKind::Turkish || variant.players != 2 || variant.long_jump {
        return Err(PositionError::NotVariant {
            game: "Turkish draughts",
            variant,
        }
        .into());
    }
    Ok(())
}
