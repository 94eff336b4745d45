//! Capture Chinese checkers, 2–6 players (seed 001).
//!
//! Rules enforced by the move generator (docs/rules.md, "Capture Chinese checkers"):
//! - Pieces belong to nobody; the seat to move may move any piece.
//! - Every move is a chain of jumps by one piece; each jumped piece leaves the board at once and
//!   counts for the mover; the chain may stop after any jump and may end on its starting hole.
//!   No simple steps.
//! - A jump goes over an adjacent piece onto the empty hole behind it. With "Salto largo" a piece
//!   may also jump a single piece at a distance: `k` empty holes, the piece, `k` empty holes, and
//!   it lands on the next hole, which must be empty.
//! - Moves are identified by (from, to, captured set); different chains with the same three are
//!   one move.
//! - The game ends when no jump exists; most captures wins, a tie at the top is a draw.
//!
//! Strategy: a depth-first walk of every chain from every piece over a 128-bit board, each prefix
//! emitted as a move; duplicates (same from, to and captured set by another route) are removed per
//! starting piece by sorting.

use crate::describe::{
    BoardLayout, BoardShape, Cell, Describe, Leg, MoveInfo, PieceView, SeatStats,
};
use crate::games::star_zobrist;
use crate::geometry::holeset::{Hole, HoleSet};
use crate::geometry::star::{star, Star, ALL, HOLES, NO_HOLE};
use crate::notation::star_text::{self, StarTextError};
use crate::position::{
    EndReason, GameKind, MoveError, Outcome, Position, Seat, SetupError, Variant,
};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The shared pieces: a full hexagon but its centre.
pub const PIECES: u32 = 60;
/// Seat names, in turn order.
pub const SEATS: [&str; 6] = ["1", "2", "3", "4", "5", "6"];
const SYMBOLS: &[u8; 1] = b"o";

/// A capture move: the jumping piece's start and end and the pieces it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CaptureMove {
    pub from: Hole,
    pub to: Hole,
    pub captured: HoleSet,
}

/// A capture game position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    variant: Variant,
    board: HoleSet,
    to_move: Seat,
    captures: [u8; 6],
}

/// Where a piece on `hole` lands jumping in direction `d` over `board`, and the piece it jumps;
/// `long` allows the symmetric long jump.
#[inline]
fn landing(star: &Star, board: HoleSet, hole: Hole, d: usize, long: bool) -> Option<(Hole, Hole)> {
    if !long {
        // The common case from the table; `OFF_BOARD` is in no set of real holes.
        let (over, land) = star.jumps(hole)[d];
        let empty = ALL.0 & !board.0;
        return (board.contains(over) && HoleSet(empty).contains(land)).then_some((over, land));
    }
    let mut over = star.neighbour(hole, d);
    let mut gap = 0;
    while over != NO_HOLE && !board.contains(over) {
        gap += 1;
        over = star.neighbour(over, d);
    }
    if over == NO_HOLE {
        return None;
    }
    // `gap` empty holes must follow the jumped piece, then the empty landing hole.
    let mut land = over;
    for _ in 0..=gap {
        land = star.neighbour(land, d);
        if land == NO_HOLE || board.contains(land) {
            return None;
        }
    }
    Some((over, land))
}

/// A fast hash for (hole, captured set) keys: a multiply-rotate mix, enough for a per-call table
/// that no outside input can aim at beyond what a position text already allows.
#[derive(Default)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.write_u64(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(26) ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }
}

type StateSet = HashSet<(Hole, HoleSet), BuildHasherDefault<StateHasher>>;

/// The state of the chains of one piece being walked.
struct Chain<'a> {
    star: &'a Star,
    from: Hole,
    out: &'a mut Vec<CaptureMove>,
    /// (hole, captured set) pairs reached after three or more jumps.
    seen: &'a mut StateSet,
}

impl Capture {
    /// Pieces still on the board.
    pub fn board(&self) -> HoleSet {
        self.board
    }

    /// Pieces captured by a seat.
    pub fn captures_of(&self, seat: Seat) -> u32 {
        self.captures
            .get(usize::from(seat))
            .map_or(0, |&c| u32::from(c))
    }

    /// The same position with `seat` to move (Best-Reply Search lets a seat move out of turn);
    /// `None` for a seat not in the game.
    pub fn with_seat_to_move(&self, seat: Seat) -> Option<Capture> {
        (seat < self.variant.players).then(|| Capture {
            to_move: seat,
            ..self.clone()
        })
    }

    fn seat_range(&self) -> std::ops::Range<usize> {
        0..usize::from(self.variant.players)
    }

    /// The jumps a piece on `hole` can make over `board` (the jumping piece not on it): each
    /// as the piece it takes and where it lands. Lets a caller walk one chain of its choosing
    /// (the CPU's playouts) without generating every chain.
    pub fn jumps_from(&self, board: HoleSet, hole: Hole) -> impl Iterator<Item = (Hole, Hole)> {
        let (star, long) = (star(), self.variant.long_jump);
        (0..6).filter_map(move |d| landing(star, board, hole, d, long))
    }

    /// Whether any piece can jump.
    pub fn any_jump(&self) -> bool {
        let star = star();
        self.board.iter().any(|from| {
            let board = HoleSet(self.board.0 & !(1u128 << from));
            (0..6).any(|d| landing(star, board, from, d, self.variant.long_jump).is_some())
        })
    }

    /// The most pieces one chain takes (0: no jump anywhere), without listing the chains: the
    /// same walk as the move generator's (and the same cut of repeated states), keeping only the
    /// deepest. The CPU's leaf estimate needs this at every new leaf.
    pub fn longest_chain(&self) -> u32 {
        let star = star();
        let mut seen = StateSet::default();
        let mut longest = 0;
        for from in self.board {
            seen.clear();
            let board = HoleSet(self.board.0 & !(1u128 << from));
            longest = longest.max(self.deepest(star, &mut seen, from, board, HoleSet::EMPTY));
        }
        longest
    }

    /// The most pieces a chain on from `hole` has taken once it ends (`walk` without the moves).
    fn deepest(
        &self,
        star: &Star,
        seen: &mut StateSet,
        hole: Hole,
        board: HoleSet,
        captured: HoleSet,
    ) -> u32 {
        let mut most = captured.len();
        for d in 0..6 {
            if let Some((over, land)) = landing(star, board, hole, d, self.variant.long_jump) {
                let mut taken = captured;
                taken.insert(over);
                if taken.len() >= 3 && !seen.insert((land, taken)) {
                    continue;
                }
                let rest = HoleSet(board.0 & !(1u128 << over));
                most = most.max(self.deepest(star, seen, land, rest, taken));
            }
        }
        most
    }

    /// Every chain from `hole` with `board` (the jumping piece not on it), each prefix emitted.
    ///
    /// Different orders of the same jumps reach the same (hole, captured set) and continue alike;
    /// from the third jump on such repeats are cut with `seen`, which open boards make
    /// exponentially many (a lattice of pieces has countless routes). Shorter repeats are cheaper
    /// to let through: `legal_moves` removes duplicate moves anyway.
    fn walk(&self, chain: &mut Chain, hole: Hole, board: HoleSet, captured: HoleSet) {
        for d in 0..6 {
            if let Some((over, land)) = landing(chain.star, board, hole, d, self.variant.long_jump)
            {
                let mut taken = captured;
                taken.insert(over);
                if taken.len() >= 3 && !chain.seen.insert((land, taken)) {
                    continue;
                }
                chain.out.push(CaptureMove {
                    from: chain.from,
                    to: land,
                    captured: taken,
                });
                self.walk(chain, land, HoleSet(board.0 & !(1u128 << over)), taken);
            }
        }
    }

    /// A chain of jumps from `mv.from` to `mv.to` taking exactly `mv.captured`, in order: each
    /// jump's landing and the piece it takes.
    fn jumps(&self, mv: &CaptureMove) -> Vec<(Hole, Hole)> {
        fn search(
            star: &Star,
            long: bool,
            hole: Hole,
            board: HoleSet,
            left: HoleSet,
            to: Hole,
            jumps: &mut Vec<(Hole, Hole)>,
        ) -> bool {
            if left.is_empty() {
                return hole == to;
            }
            for d in 0..6 {
                if let Some((over, land)) = landing(star, board, hole, d, long) {
                    if !left.contains(over) {
                        continue;
                    }
                    jumps.push((land, over));
                    let board = HoleSet(board.0 & !(1u128 << over));
                    let left = HoleSet(left.0 & !(1u128 << over));
                    if search(star, long, land, board, left, to, jumps) {
                        return true;
                    }
                    jumps.pop();
                }
            }
            false
        }
        let mut jumps = Vec::new();
        let board = HoleSet(self.board.0 & !(1u128 << mv.from));
        search(
            star(),
            self.variant.long_jump,
            mv.from,
            board,
            mv.captured,
            mv.to,
            &mut jumps,
        );
        jumps
    }

    /// Reads the landings of a written chain and the pieces it takes, checking each jump.
    fn read_chain(&self, text: &str) -> Result<CaptureMove, MoveError> {
        let star = star();
        let syntax = || MoveError::Syntax(text.to_string());
        let illegal = || MoveError::Illegal(text.to_string());
        let holes: Vec<Hole> = text
            .split(['x', 'X'])
            .map(|name| star.parse(name).ok_or_else(syntax))
            .collect::<Result<_, _>>()?;
        let (&from, rest) = holes.split_first().ok_or_else(syntax)?;
        if rest.is_empty() || !self.board.contains(from) {
            return Err(if rest.is_empty() { syntax() } else { illegal() });
        }
        let mut board = HoleSet(self.board.0 & !(1u128 << from));
        let mut captured = HoleSet::EMPTY;
        let mut hole = from;
        for &next in rest {
            let jump = (0..6)
                .filter_map(|d| landing(star, board, hole, d, self.variant.long_jump))
                .find(|&(_, land)| land == next)
                .ok_or_else(illegal)?;
            board.remove(jump.0);
            captured.insert(jump.0);
            hole = next;
        }
        Ok(CaptureMove {
            from,
            to: hole,
            captured,
        })
    }

    fn parse_text(variant: Variant, text: &str) -> Result<Capture, StarTextError> {
        let mut fields = star_text::split_fields(variant, text)?;
        let board_field = fields.next().ok_or(StarTextError::Missing("board"))?;
        let cells = star_text::parse_board(board_field, SYMBOLS)?;
        let board: HoleSet = (0..HOLES as Hole)
            .filter(|&h| cells[h as usize] != 0)
            .collect();
        let turn = fields
            .next()
            .ok_or(StarTextError::Missing("seat to move"))?;
        let to_move = (0..variant.players)
            .find(|&seat| turn == SEATS[usize::from(seat)])
            .ok_or_else(|| StarTextError::Field {
                field: "seat to move",
                value: turn.to_string(),
            })?;
        let list = fields.next().ok_or(StarTextError::Missing("captures"))?;
        let counts: Vec<&str> = list.split(',').collect();
        let bad_list = || StarTextError::Field {
            field: "captures",
            value: list.to_string(),
        };
        if counts.len() != usize::from(variant.players) {
            return Err(bad_list());
        }
        let mut captures = [0u8; 6];
        for (slot, count) in captures.iter_mut().zip(counts) {
            let count: u32 = star_text::parse_number("captures", Some(count))?;
            *slot = u8::try_from(count)
                .ok()
                .filter(|&c| u32::from(c) <= PIECES)
                .ok_or_else(bad_list)?;
        }
        star_text::expect_end(fields)?;
        let taken: u32 = captures.iter().map(|&c| u32::from(c)).sum();
        if board.len() + taken > PIECES {
            return Err(StarTextError::Field {
                field: "board",
                value: format!(
                    "{} pieces on the board and {taken} captured exceed the {PIECES} pieces",
                    board.len()
                ),
            });
        }
        Ok(Capture {
            variant,
            board,
            to_move,
            captures,
        })
    }

    fn hole_names(holes: impl IntoIterator<Item = Hole>) -> Vec<String> {
        holes.into_iter().map(|h| star().name(h)).collect()
    }
}

impl Position for Capture {
    type Move = CaptureMove;

    fn start(variant: Variant) -> Result<Capture, SetupError> {
        if variant.kind != GameKind::Capture {
            return Err(SetupError::UnknownGame(variant.kind.as_str().to_string()));
        }
        Variant::new(variant.kind, Some(variant.players), variant.long_jump)?;
        let star = star();
        let mut board = star.hexagon();
        board.remove(star.centre());
        Ok(Capture {
            variant,
            board,
            to_move: 0,
            captures: [0; 6],
        })
    }

    fn from_text(variant: Variant, text: &str) -> Result<Capture, SetupError> {
        if variant.kind != GameKind::Capture {
            return Err(SetupError::UnknownGame(variant.kind.as_str().to_string()));
        }
        Ok(Capture::parse_text(variant, text)?)
    }

    fn to_text(&self) -> String {
        let board = star_text::write_board(SYMBOLS, |hole| u8::from(self.board.contains(hole)));
        let captures: Vec<String> = self
            .seat_range()
            .map(|s| self.captures[s].to_string())
            .collect();
        format!(
            "{} {board} {} {}",
            star_text::write_header(self.variant),
            SEATS[usize::from(self.to_move)],
            captures.join(",")
        )
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<CaptureMove>) {
        out.clear();
        let star = star();
        // Allocates only once some chain reaches a third jump.
        let mut seen = StateSet::default();
        for from in self.board {
            // States are per starting piece.
            seen.clear();
            let first = out.len();
            let board = HoleSet(self.board.0 & !(1u128 << from));
            let mut chain = Chain {
                star,
                from,
                out,
                seen: &mut seen,
            };
            self.walk(&mut chain, from, board, HoleSet::EMPTY);
            let chains = &mut out[first..];
            if chains.len() > 1 {
                chains.sort_unstable();
                let mut kept = first + 1;
                for i in first + 1..out.len() {
                    if out[i] != out[kept - 1] {
                        out[kept] = out[i];
                        kept += 1;
                    }
                }
                out.truncate(kept);
            }
        }
    }

    fn play(&mut self, mv: &CaptureMove) {
        self.board.remove(mv.from);
        self.board = HoleSet(self.board.0 & !mv.captured.0);
        self.board.insert(mv.to);
        let seat = usize::from(self.to_move);
        self.captures[seat] = self.captures[seat].saturating_add(mv.captured.len() as u8);
        self.to_move = (self.to_move + 1) % self.variant.players;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.any_jump() {
            return None;
        }
        let best = self
            .seat_range()
            .map(|s| self.captures[s])
            .max()
            .unwrap_or(0);
        let mut leaders = self.seat_range().filter(|&s| self.captures[s] == best);
        match (leaders.next(), leaders.next()) {
            (Some(winner), None) => Some(Outcome::win(winner as Seat, EndReason::NoJumpsLeft)),
            _ => Some(Outcome::draw(EndReason::NoJumpsLeft)),
        }
    }

    fn zobrist(&self) -> u64 {
        let mut hash = star_zobrist::TO_MOVE[usize::from(self.to_move)];
        for hole in self.board {
            hash ^= star_zobrist::PIECES[hole as usize];
        }
        for seat in self.seat_range() {
            hash ^= star_zobrist::CAPTURES[seat * 61 + usize::from(self.captures[seat].min(60))];
        }
        hash
    }

    fn is_irreversible(&self, _mv: &CaptureMove) -> bool {
        true
    }

    /// Two players: the other wins. More: of the others, the one with most captures; on a tie,
    /// the first of them to play after the resigner.
    fn resignation_outcome(&self, resigning: Seat) -> Outcome {
        let players = self.variant.players;
        let mut winner = (resigning + 1) % players;
        for offset in 2..players {
            let seat = (resigning + offset) % players;
            if self.captures[usize::from(seat)] > self.captures[usize::from(winner)] {
                winner = seat;
            }
        }
        Outcome::win(winner, EndReason::Resignation)
    }
}

impl Describe for Capture {
    fn move_info(&self, mv: &CaptureMove) -> MoveInfo {
        let star = star();
        let jumps = self.jumps(mv);
        let path = Capture::hole_names(
            std::iter::once(mv.from).chain(jumps.iter().map(|&(land, _)| land)),
        );
        MoveInfo {
            text: path.join("x"),
            from: star.name(mv.from),
            to: star.name(mv.to),
            jumps: jumps.len() as u32,
            path,
            captures: Capture::hole_names(mv.captured),
            legs: jumps
                .iter()
                .map(|&(land, over)| Leg {
                    to: star.name(land),
                    captured: Some(star.name(over)),
                })
                .collect(),
            pass: false,
        }
    }

    /// Accepts any chain of landings `a x b x …` that is legal here: chains taking the same
    /// pieces to the same end are the same move.
    fn parse_move(&self, text: &str) -> Result<CaptureMove, MoveError> {
        let text = text.trim();
        let wanted = self.read_chain(text)?;
        if self.moves().contains(&wanted) {
            Ok(wanted)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        }
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        SEATS.get(usize::from(seat)).copied().unwrap_or("?")
    }

    fn seat_stats(&self) -> Vec<SeatStats> {
        self.seat_range()
            .map(|seat| SeatStats {
                seat: seat as Seat,
                name: SEATS[seat].to_string(),
                pieces: 0,
                kings: 0,
                home: None,
                captures: Some(u32::from(self.captures[seat])),
                king_must_go_home: false,
            })
            .collect()
    }

    fn layout(&self) -> BoardLayout {
        let star = star();
        BoardLayout {
            shape: BoardShape::Star,
            cells: ALL
                .iter()
                .map(|hole| {
                    let (x, y) = star.xy(hole);
                    let name = star.name(hole);
                    Cell {
                        // Nobody owns a point here: every seat reads the board the same way.
                        view_names: vec![name.clone(); usize::from(self.variant.players)],
                        name,
                        x,
                        y,
                        zone: None,
                    }
                })
                .collect(),
        }
    }

    fn pieces(&self) -> Vec<PieceView> {
        self.board
            .iter()
            .map(|hole| PieceView {
                cell: star().name(hole),
                seat: None,
                king: false,
            })
            .collect()
    }
}
