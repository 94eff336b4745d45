//! Legal moves of a draughts board.
//!
//! Rules enforced (switches from [`Rules`]):
//! - capturing is mandatory; a capture goes on while the capturing piece can capture again;
//! - men step one square forward; they capture forward only, or in all four directions when
//!   `MEN_CAPTURE_BACKWARD`;
//! - kings step and capture one square in any direction, or, with `FLYING_KINGS`, slide any
//!   distance and capture the first piece on a line when the square beyond is empty, landing on any
//!   empty square beyond it;
//! - captured pieces stay on the board until the move ends: they block, and none is jumped twice;
//!   the moving piece's start square is free during its own capture;
//! - a man stays a man for the whole capture (crowning happens in `Board::play`, only where the
//!   move ends), which gives both "crowning ends the move" (English men cannot capture backward from
//!   the last row) and "passing the last row does not crown" (International);
//! - with `MAJORITY`, only the captures taking the most pieces are kept;
//! - one move per (from, to, captured set): duplicate paths are dropped.
//!
//! Strategy: bitboard shifts find every quiet move and every piece that can start a capture at
//! once; a depth-first walk per capturing piece follows each sequence, reporting complete ones to a
//! [`CaptureSink`] (the move list, or a path collector for display).

use super::{Board, DraughtsMove, Rules};
use crate::geometry::diagonal::{DiagonalGrid, Direction};
use std::cell::RefCell;

/// Receives each complete capture sequence found by the walk.
pub(super) trait CaptureSink {
    /// A new capturing piece is about to be walked.
    fn begin_piece(&mut self) {}
    /// `path` holds every landing from the start square to `to`, both included.
    fn capture(&mut self, from: u32, to: u32, captures: u64, path: &[u8]);
}

/// Collects legal capture moves: majority filter and duplicate removal.
struct MoveCollector<'a> {
    out: &'a mut Vec<DraughtsMove>,
    /// Where this generation's moves start in `out`.
    start: usize,
    /// Where the current piece's moves start: duplicates can only come from the same piece.
    piece_start: usize,
    best: u32,
    majority: bool,
}

impl CaptureSink for MoveCollector<'_> {
    fn begin_piece(&mut self) {
        self.piece_start = self.out.len();
    }

    #[inline]
    fn capture(&mut self, from: u32, to: u32, captures: u64, _path: &[u8]) {
        let count = captures.count_ones();
        if self.majority {
            if count < self.best {
                return;
            }
            if count > self.best {
                self.best = count;
                self.out.truncate(self.start);
                self.piece_start = self.start;
            }
        }
        let mv = DraughtsMove {
            from: from as u8,
            to: to as u8,
            captures,
        };
        // Two paths with one (from, to, captured set) need two captures at least: a flying king
        // landing on different squares between two pieces of one line, or a loop of jumps.
        if count >= 2 && self.out[self.piece_start..].contains(&mv) {
            return;
        }
        self.out.push(mv);
    }
}

/// Collects every capture path of one piece, for display and for reading a typed path.
pub(super) struct PathCollector {
    pub paths: Vec<(DraughtsMove, Vec<u8>)>,
}

impl CaptureSink for PathCollector {
    fn capture(&mut self, from: u32, to: u32, captures: u64, path: &[u8]) {
        let mv = DraughtsMove {
            from: from as u8,
            to: to as u8,
            captures,
        };
        self.paths.push((mv, path.to_vec()));
    }
}

/// Longer than any path: each jump takes a different opposing piece, and a FEN can put at most 49
/// of them on the largest board, so a path holds at most 50 squares.
const MAX_PATH: usize = 64;

/// The depth-first walk of one capturing piece.
struct Walk<'a, S: CaptureSink> {
    grid: &'static DiagonalGrid,
    /// Opponent pieces (captured ones included: the walk masks them out).
    opponents: u64,
    /// Empty squares, with the moving piece's start square counted as empty.
    empty: u64,
    from: u32,
    path: [u8; MAX_PATH],
    len: usize,
    sink: &'a mut S,
}

impl<S: CaptureSink> Walk<'_, S> {
    /// One-square jumps (men, and English kings) in the given directions.
    fn short(&mut self, at: u32, captured: u64, dirs: &[Direction]) {
        let mut ended = true;
        let here = 1u64 << at;
        for &dir in dirs {
            let over = self.grid.step(here, dir) & self.opponents & !captured;
            if over == 0 {
                continue;
            }
            let land = self.grid.step(over, dir) & self.empty;
            if land == 0 {
                continue;
            }
            ended = false;
            let to = land.trailing_zeros();
            self.enter(to);
            self.short(to, captured | over, dirs);
            self.len -= 1;
        }
        if ended && captured != 0 {
            self.sink
                .capture(self.from, at, captured, &self.path[..self.len]);
        }
    }

    /// Flying-king captures: the first piece along a line, any empty landing beyond it.
    fn long(&mut self, at: u32, captured: u64) {
        let mut ended = true;
        let occupied = self.grid.valid & !self.empty;
        for dir in Direction::ALL {
            let (_, first) = self.grid.slide(at, dir, occupied);
            let Some(victim) = first else { continue };
            let victim_bit = 1u64 << victim;
            if self.opponents & !captured & victim_bit == 0 {
                continue;
            }
            let (mut landings, _) = self.grid.slide(victim, dir, occupied);
            while landings != 0 {
                ended = false;
                let to = landings.trailing_zeros();
                landings &= landings - 1;
                self.enter(to);
                self.long(to, captured | victim_bit);
                self.len -= 1;
            }
        }
        if ended && captured != 0 {
            self.sink
                .capture(self.from, at, captured, &self.path[..self.len]);
        }
    }

    #[inline(always)]
    fn enter(&mut self, to: u32) {
        self.path[self.len] = to as u8;
        self.len += 1;
    }
}

impl<R: Rules> Board<R> {
    fn forward(seat: u8) -> [Direction; 2] {
        Direction::toward(Self::moves_up(seat))
    }

    fn man_capture_dirs(seat: u8) -> ([Direction; 4], usize) {
        if R::MEN_CAPTURE_BACKWARD {
            (Direction::ALL, 4)
        } else {
            let [a, b] = Self::forward(seat);
            ([a, b, a, b], 2)
        }
    }

    /// Pieces among `candidates` with an immediate one-square jump along one of `dirs`.
    fn short_jumpers(&self, candidates: u64, dirs: &[Direction]) -> u64 {
        let grid = R::GRID;
        let opponents = self.pieces[usize::from(1 - self.to_move)];
        let empty = self.empty();
        let mut jumpers = 0;
        for &dir in dirs {
            let back = dir.reverse();
            jumpers |= candidates & grid.step(grid.step(empty, back) & opponents, back);
        }
        jumpers
    }

    /// Walks every capture of the side to move into `sink`.
    pub(super) fn walk_captures<S: CaptureSink>(&self, sink: &mut S, only_from: Option<u32>) {
        let grid = R::GRID;
        let me = self.to_move;
        let opponents = self.pieces[usize::from(1 - me)];
        let filter = only_from.map_or(u64::MAX, |bit| 1u64 << bit);
        let (man_dirs, n) = Self::man_capture_dirs(me);
        let man_dirs = &man_dirs[..n];
        let mut walk = Walk {
            grid,
            opponents,
            empty: 0,
            from: 0,
            path: [0; MAX_PATH],
            len: 0,
            sink,
        };
        let start = |walk: &mut Walk<S>, bit: u32| {
            walk.sink.begin_piece();
            walk.empty = self.empty() | (1 << bit);
            walk.from = bit;
            walk.path[0] = bit as u8;
            walk.len = 1;
        };
        let mut men = self.short_jumpers(self.men(me), man_dirs) & filter;
        while men != 0 {
            let bit = men.trailing_zeros();
            men &= men - 1;
            start(&mut walk, bit);
            walk.short(bit, 0, man_dirs);
        }
        if R::FLYING_KINGS {
            let mut kings = self.kings_of(me) & filter;
            while kings != 0 {
                let bit = kings.trailing_zeros();
                kings &= kings - 1;
                start(&mut walk, bit);
                walk.long(bit, 0);
            }
        } else {
            let mut kings = self.short_jumpers(self.kings_of(me), &Direction::ALL) & filter;
            while kings != 0 {
                let bit = kings.trailing_zeros();
                kings &= kings - 1;
                start(&mut walk, bit);
                walk.short(bit, 0, &Direction::ALL);
            }
        }
    }

    /// Whether the side to move has a capture (so it must capture).
    pub fn has_capture(&self) -> bool {
        let me = self.to_move;
        let (man_dirs, n) = Self::man_capture_dirs(me);
        if self.short_jumpers(self.men(me), &man_dirs[..n]) != 0 {
            return true;
        }
        if !R::FLYING_KINGS {
            return self.short_jumpers(self.kings_of(me), &Direction::ALL) != 0;
        }
        let grid = R::GRID;
        let opponents = self.pieces[usize::from(1 - me)];
        let occupied = self.occupied();
        let mut kings = self.kings_of(me);
        while kings != 0 {
            let bit = kings.trailing_zeros();
            kings &= kings - 1;
            for dir in Direction::ALL {
                if let (_, Some(victim)) = grid.slide(bit, dir, occupied) {
                    if opponents & (1 << victim) != 0
                        && grid.step(1 << victim, dir) & !occupied != 0
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Appends the legal moves to `out`.
    pub fn generate(&self, out: &mut Vec<DraughtsMove>) {
        let start = out.len();
        let mut collector = MoveCollector {
            out,
            start,
            piece_start: start,
            best: 0,
            majority: R::MAJORITY,
        };
        self.walk_captures(&mut collector, None);
        if out.len() == start {
            self.quiet_moves(out);
        }
    }

    /// Number of legal moves: bit counts when there is no capture.
    pub fn count(&self) -> u64 {
        if self.has_capture() {
            // One reusable list per thread: counting is perft's hot path and should not allocate.
            thread_local! {
                static MOVES: RefCell<Vec<DraughtsMove>> = const { RefCell::new(Vec::new()) };
            }
            return MOVES.with(|moves| match moves.try_borrow_mut() {
                Ok(mut moves) => {
                    moves.clear();
                    self.generate(&mut moves);
                    moves.len() as u64
                }
                Err(_) => {
                    let mut moves = Vec::new();
                    self.generate(&mut moves);
                    moves.len() as u64
                }
            });
        }
        let mut total = 0u64;
        self.each_quiet_target(|_, targets| total += u64::from(targets.count_ones()));
        total
    }

    fn quiet_moves(&self, out: &mut Vec<DraughtsMove>) {
        self.each_quiet_target(|source, mut targets| {
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let from = match source {
                    QuietSource::Piece(bit) => bit,
                    QuietSource::Shifted(dir) => {
                        R::GRID.step(1 << to, dir.reverse()).trailing_zeros()
                    }
                };
                out.push(DraughtsMove {
                    from: from as u8,
                    to: to as u8,
                    captures: 0,
                });
            }
        });
    }

    /// Calls `visit` with sets of quiet-move destinations and where they come from.
    #[inline(always)]
    fn each_quiet_target(&self, mut visit: impl FnMut(QuietSource, u64)) {
        let grid = R::GRID;
        let me = self.to_move;
        let empty = self.empty();
        let men = self.men(me);
        for dir in Self::forward(me) {
            visit(QuietSource::Shifted(dir), grid.step(men, dir) & empty);
        }
        let kings = self.kings_of(me);
        if kings == 0 {
            return;
        }
        if R::FLYING_KINGS {
            let occupied = self.occupied();
            let mut each = kings;
            while each != 0 {
                let bit = each.trailing_zeros();
                each &= each - 1;
                let mut targets = 0;
                for dir in Direction::ALL {
                    targets |= grid.slide(bit, dir, occupied).0;
                }
                visit(QuietSource::Piece(bit), targets);
            }
        } else {
            for dir in Direction::ALL {
                visit(QuietSource::Shifted(dir), grid.step(kings, dir) & empty);
            }
        }
    }

    /// Every capture path of the piece on `from` (before the majority filter), for display.
    pub(super) fn capture_paths(&self, from: u32) -> Vec<(DraughtsMove, Vec<u8>)> {
        let mut collector = PathCollector { paths: Vec::new() };
        self.walk_captures(&mut collector, Some(from));
        collector.paths
    }
}

#[derive(Clone, Copy)]
enum QuietSource {
    /// Destinations of one piece.
    Piece(u32),
    /// Destinations of every piece shifted one step along a direction.
    Shifted(Direction),
}
