//! PDN notation of the draughts boards: numeric squares, FEN, move text (`9-13`, `32x23x14`),
//! and the drawing data (layout, pieces, per-seat figures).

use super::{Board, DraughtsMove, Rules};
use crate::describe::{BoardLayout, BoardShape, Cell, Leg, MoveInfo, PieceView, SeatStats};
use crate::geometry::diagonal::Direction;
use crate::notation::fen::{self, FenColor, FenPiece};
use crate::position::{MoveError, PositionError, Seat, SetupError};

impl<R: Rules> Board<R> {
    fn seat_of(color: FenColor) -> Seat {
        if color == R::SEAT0_COLOR {
            0
        } else {
            1
        }
    }

    fn color_of(seat: Seat) -> FenColor {
        match (seat == 0, R::SEAT0_COLOR) {
            (true, color) => color,
            (false, FenColor::White) => FenColor::Black,
            (false, FenColor::Black) => FenColor::White,
        }
    }

    /// The square number of a bit, as text.
    pub fn square_name(bit: u32) -> String {
        R::GRID.square(bit).to_string()
    }

    /// The bit of a square written as a number, if it is on this board.
    pub fn parse_square(text: &str) -> Option<u32> {
        if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        R::GRID.bit(text.parse().ok()?)
    }

    /// Reads a PDN FEN (`W:W31-50:B1-20`, `K` for kings). Counters start at zero. Rejected: unknown
    /// or repeated squares and men standing on the row where they would have been crowned.
    pub fn from_fen(text: &str) -> Result<Board<R>, SetupError> {
        let fields = fen::parse(text)?;
        let mut pieces = [0u64; 2];
        let mut kings = 0u64;
        for piece in &fields.pieces {
            let bit =
                Self::parse_square(&piece.square).ok_or_else(|| PositionError::NotOnBoard {
                    square: piece.square.clone(),
                    squares: R::GRID.squares,
                })?;
            let mask = 1u64 << bit;
            if (pieces[0] | pieces[1]) & mask != 0 {
                return Err(PositionError::ListedTwice(piece.square.clone()).into());
            }
            let seat = Self::seat_of(piece.color);
            if !piece.king && Self::crown_row(seat) & mask != 0 {
                return Err(PositionError::ManOnCrowningRow(piece.square.clone()).into());
            }
            pieces[usize::from(seat)] |= mask;
            if piece.king {
                kings |= mask;
            }
        }
        Ok(Board::new(pieces, kings, Self::seat_of(fields.to_move)))
    }

    /// The FEN of the board, squares ascending, kings marked `K`.
    pub fn to_fen(&self) -> String {
        let mut pieces = Vec::new();
        for bit in Self::bits(self.occupied()) {
            let seat = if self.pieces[0] & (1 << bit) != 0 {
                0
            } else {
                1
            };
            pieces.push(FenPiece {
                square: Self::square_name(bit),
                king: self.kings & (1 << bit) != 0,
                color: Self::color_of(seat),
            });
        }
        pieces.sort_by_key(|p| p.square.parse::<u32>().unwrap_or(0));
        fen::write(Self::color_of(self.to_move), &pieces)
    }

    /// The bits of a set, ascending.
    pub fn bits(mut set: u64) -> impl Iterator<Item = u32> {
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let bit = set.trailing_zeros();
                set &= set - 1;
                bit
            })
        })
    }

    /// One landing path of a legal move: the first one the capture walk finds.
    pub fn representative_path(&self, mv: &DraughtsMove) -> Vec<u8> {
        if mv.captures == 0 {
            return vec![mv.from, mv.to];
        }
        self.capture_paths(u32::from(mv.from))
            .into_iter()
            .find(|(found, _)| found == mv)
            .map(|(_, path)| path)
            .unwrap_or_else(|| vec![mv.from, mv.to])
    }

    /// The move in PDN with its path, sorted captures and legs.
    pub fn move_info(&self, mv: &DraughtsMove) -> MoveInfo {
        let bits = self.representative_path(mv);
        let path: Vec<String> = bits
            .iter()
            .map(|&bit| Self::square_name(u32::from(bit)))
            .collect();
        let separator = if mv.captures == 0 { "-" } else { "x" };
        let mut captures: Vec<u32> = Self::bits(mv.captures)
            .map(|bit| R::GRID.square(bit))
            .collect();
        captures.sort_unstable();
        MoveInfo {
            text: path.join(separator),
            from: Self::square_name(u32::from(mv.from)),
            to: Self::square_name(u32::from(mv.to)),
            jumps: mv.capture_count(),
            captures: captures.iter().map(u32::to_string).collect(),
            legs: Self::legs(&bits, mv.captures, &path),
            path,
            pass: false,
        }
    }

    /// The legs of a path whose landings are the bits `path_bits` (named `path`): each jump runs
    /// along one diagonal and takes the one piece of `captures` strictly between its landings.
    fn legs(path_bits: &[u8], captures: u64, path: &[String]) -> Vec<Leg> {
        let grid = R::GRID;
        let mut left = captures;
        path_bits
            .windows(2)
            .zip(path.iter().skip(1))
            .map(|(pair, to_name)| {
                let (at, to) = (u32::from(pair[0]), u32::from(pair[1]));
                let between = Direction::ALL
                    .iter()
                    .find(|&&dir| grid.ray(at, dir) & (1 << to) != 0)
                    .map_or(0, |&dir| {
                        grid.ray(at, dir) & !grid.ray(to, dir) & !(1 << to)
                    });
                let taken = Self::bits(between & left).next();
                if let Some(bit) = taken {
                    left &= !(1u64 << bit);
                }
                Leg {
                    to: to_name.clone(),
                    captured: taken.map(|bit| R::GRID.square(bit).to_string()),
                }
            })
            .collect()
    }

    /// Reads a move: `a-b` (a step), `axb` (a capture, if only one goes from a to b), or a full
    /// capture path `axbx…` (any path of the move, not only the displayed one).
    pub fn parse_move(&self, text: &str) -> Result<DraughtsMove, MoveError> {
        let text = text.trim();
        let syntax = || MoveError::Syntax(text.to_string());
        let capture = text.contains('x') || text.contains('X');
        if capture && text.contains('-') {
            return Err(syntax());
        }
        let squares = text
            .split(['x', 'X', '-'])
            .map(Self::parse_square)
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(syntax)?;
        if squares.len() < 2 || (!capture && squares.len() != 2) {
            return Err(syntax());
        }
        let from = squares[0];
        let to = squares[squares.len() - 1];
        let mut legal = Vec::new();
        self.generate(&mut legal);
        let candidates: Vec<DraughtsMove> = legal
            .into_iter()
            .filter(|mv| {
                u32::from(mv.from) == from
                    && u32::from(mv.to) == to
                    && (mv.captures != 0) == capture
            })
            .collect();
        if squares.len() == 2 {
            let first = *candidates
                .first()
                .ok_or_else(|| MoveError::Illegal(text.into()))?;
            if candidates.len() == 1 {
                return Ok(first);
            }
            // `axb` also names a single jump exactly, while a longer capture ends on b too
            // (a king's loop): the text `move_info` gives the jump must read back as it.
            if !capture {
                return Err(MoveError::Ambiguous(text.to_string()));
            }
        }
        let wanted: Vec<u8> = squares.iter().map(|&bit| bit as u8).collect();
        let exact = self
            .capture_paths(from)
            .into_iter()
            .find(|(mv, path)| *path == wanted && candidates.contains(mv))
            .map(|(mv, _)| mv);
        match exact {
            Some(mv) => Ok(mv),
            None if squares.len() == 2 => Err(MoveError::Ambiguous(text.to_string())),
            None => Err(MoveError::Illegal(text.to_string())),
        }
    }

    /// The dark squares, drawn as seat 0 sees the board (its men at the bottom).
    pub fn layout() -> BoardLayout {
        let grid = R::GRID;
        let top = grid.size - 1;
        let cells = (1..=grid.squares)
            .map(|square| {
                let (row, file) = grid.row_file(square);
                let (x, y) = if R::SEAT0_MOVES_UP {
                    (top - file, row)
                } else {
                    (file, top - row)
                };
                Cell {
                    name: square.to_string(),
                    x: x as f32,
                    y: y as f32,
                    view_names: Vec::new(),
                    zone: None,
                }
            })
            .collect();
        BoardLayout {
            shape: BoardShape::Grid {
                files: grid.size as u8,
                ranks: grid.size as u8,
                dark_only: true,
            },
            cells,
        }
    }

    pub fn piece_views(&self) -> Vec<PieceView> {
        Self::bits(self.occupied())
            .map(|bit| PieceView {
                cell: Self::square_name(bit),
                seat: Some(if self.pieces[0] & (1 << bit) != 0 {
                    0
                } else {
                    1
                }),
                king: self.kings & (1 << bit) != 0,
            })
            .collect()
    }

    pub fn seat_stats(&self) -> Vec<SeatStats> {
        (0..2u8)
            .map(|seat| SeatStats {
                seat,
                name: R::SEAT_NAMES[usize::from(seat)].to_string(),
                pieces: self.pieces[usize::from(seat)].count_ones(),
                kings: self.kings_of(seat).count_ones(),
                home: None,
                captures: None,
                king_must_go_home: false,
            })
            .collect()
    }
}
