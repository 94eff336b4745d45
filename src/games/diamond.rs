//! The Diamond Game: Chinese checkers with a king, for 2 or 3 players (seed 000, issue 3).
//!
//! Rules enforced by the move generator (docs/rules.md, "Diamond Game"):
//! - A turn is one step to an adjacent empty hole, or a chain of jumps by one piece, never both;
//!   the piece ends on another hole than it started. Moves are identified by (from, to).
//! - A man jumps one adjacent man (any colour, never a king) onto the empty hole behind it. A king
//!   may also jump a contiguous line of ≥ 1 men starting next to it, landing on the first hole
//!   after the line, which must be empty; no king may be in the line.
//! - No piece stops on, or lands mid-chain on, the interior of a point that is not its colour's
//!   (start or destination); hexagon border holes are open to all.
//! - A move that leaves another colour's destination full with that colour's king on its apex
//!   is illegal.
//! - With no legal move the single move is the pass.
//!
//! Strategy: pieces and kings as 128-bit hole sets; for each piece, a flood fill over the jump
//! graph (which a chain cannot change, since nothing is captured) gives every jump destination at
//! once, so a move is (from, to) by construction; steps come from the neighbour sets. The fill is
//! branch-free: men look up a precomputed (over, landing) table and a byte table of jumpable men,
//! kings take the nearest empty hole of precomputed rays. No allocation besides the caller's move
//! vector. Paths for display are found separately by a breadth-first search with parents
//! ([`Diamond::move_info`]), which only runs when a move is shown.

use crate::games::star_zobrist;
use crate::geometry::holeset::{Hole, HoleSet};
use crate::geometry::star::{star, Point, Star, View, ALL, HOLES, NO_HOLE};
use crate::notation::star_text::{self, StarTextError};
use crate::position::{
    BoardLayout, BoardShape, Cell, DrawCounter, EndReason, GameKind, Leg, MoveError, MoveInfo,
    Outcome, PieceView, Position, Seat, SeatStats, SetupError, Variant,
};
use std::sync::OnceLock;

/// Red, Yellow, Green: seats 0, 1, 2 in turn order.
pub const COLOURS: [&str; 3] = ["red", "yellow", "green"];
/// Letters of men (lower case) and kings (upper case) in the position text.
const SYMBOLS: &[u8; 6] = b"rygRYG";

/// Pieces per colour: 14 men and a king.
pub const PIECES_PER_COLOUR: u32 = 15;

/// Where each colour starts, seen from Red (whose start is at the bottom). The destination is the
/// opposite point.
pub const START_POINTS: [Point; 3] = [Point::South, Point::NorthWest, Point::NorthEast];

/// A Diamond move: one piece from a hole to another (a step or a chain of jumps), or the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiamondMove {
    Go { from: Hole, to: Hole },
    Pass,
}

/// The per-colour areas, the same for 2 and 3 players (Green's points are closed to Red and
/// Yellow either way, as every other colour's are).
struct Areas {
    /// Holes a colour may stop or land on: the hexagon and its own two points.
    open: [HoleSet; 3],
    start: [HoleSet; 3],
    destination: [HoleSet; 3],
    apex: [Hole; 3],
    start_apex: [Hole; 3],
    /// Steps from each hole to the colour's destination apex through its open holes (empty board).
    distance: [[u8; HOLES]; 3],
    /// Which colour's point each hole lies in (`None` on the hexagon).
    zone: [Option<Seat>; HOLES],
}

fn areas() -> &'static Areas {
    static AREAS: OnceLock<Areas> = OnceLock::new();
    AREAS.get_or_init(|| {
        let star = star();
        let mut open = [HoleSet::EMPTY; 3];
        let mut start = [HoleSet::EMPTY; 3];
        let mut destination = [HoleSet::EMPTY; 3];
        let mut apex = [NO_HOLE; 3];
        let mut start_apex = [NO_HOLE; 3];
        let mut zone = [None; HOLES];
        for (colour, &point) in START_POINTS.iter().enumerate() {
            let target = point.opposite();
            open[colour] = star.hexagon() | star.point(point) | star.point(target);
            start[colour] = star.punta(point);
            destination[colour] = star.punta(target);
            apex[colour] = star.apex(target);
            start_apex[colour] = star.apex(point);
            for hole in star.point(point) | star.point(target) {
                zone[hole as usize] = Some(colour as Seat);
            }
        }
        let mut distance = [[u8::MAX; HOLES]; 3];
        for colour in 0..3 {
            breadth_first(star, open[colour], apex[colour], &mut distance[colour]);
        }
        Areas {
            open,
            start,
            destination,
            apex,
            start_apex,
            distance,
            zone,
        }
    })
}

/// Step distances from `from` to every hole of `within`.
fn breadth_first(star: &Star, within: HoleSet, from: Hole, distance: &mut [u8; HOLES]) {
    let mut frontier = HoleSet::single(from);
    let mut seen = frontier;
    let mut steps = 0u8;
    while !frontier.is_empty() {
        let mut next = HoleSet::EMPTY;
        for hole in frontier {
            distance[hole as usize] = steps;
            for &n in star.neighbours(hole) {
                if n != NO_HOLE && within.contains(n) && !seen.contains(n) {
                    seen.insert(n);
                    next.insert(n);
                }
            }
        }
        frontier = next;
        steps += 1;
    }
}

/// A Diamond Game position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diamond {
    variant: Variant,
    /// Every piece of each colour, king included.
    pieces: [HoleSet; 3],
    /// Each colour's king ([`NO_HOLE`] for Green in a 2-player game).
    kings: [Hole; 3],
    to_move: Seat,
    /// Plies played (passes included), for the 800/1200-ply draw.
    ply: u32,
    /// Passes in a row ending here; the game is drawn when every player has passed.
    passes: u8,
}

impl Diamond {
    /// Plies after which the game is drawn: 400 per player.
    pub fn move_limit(&self) -> u32 {
        400 * u32::from(self.variant.players)
    }

    fn colours(&self) -> std::ops::Range<usize> {
        0..usize::from(self.variant.players)
    }

    fn occupied(&self) -> HoleSet {
        self.pieces[0] | self.pieces[1] | self.pieces[2]
    }

    fn king_set(&self) -> HoleSet {
        let mut kings = HoleSet::EMPTY;
        for &king in &self.kings {
            if king != NO_HOLE {
                kings.insert(king);
            }
        }
        kings
    }

    /// The pieces of a colour.
    pub fn pieces_of(&self, colour: Seat) -> HoleSet {
        self.pieces
            .get(usize::from(colour))
            .copied()
            .unwrap_or_default()
    }

    /// The hole of a colour's king.
    pub fn king_of(&self, colour: Seat) -> Option<Hole> {
        self.kings
            .get(usize::from(colour))
            .copied()
            .filter(|&k| k != NO_HOLE)
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Whether a colour has reached its goal: destination full, own king on its apex.
    pub fn has_won(&self, colour: Seat) -> bool {
        let areas = areas();
        let colour = usize::from(colour);
        colour < usize::from(self.variant.players)
            && self.kings[colour] == areas.apex[colour]
            && areas.destination[colour].is_subset(self.occupied())
    }

    /// The hole that would complete another colour's goal, with that colour's destination: a
    /// move into it from outside that destination is a "gift" and illegal.
    fn gift_holes(&self, occupied: HoleSet) -> [(Hole, HoleSet); 2] {
        let areas = areas();
        let mut gifts = [(NO_HOLE, HoleSet::EMPTY); 2];
        let mover = usize::from(self.to_move);
        for (slot, other) in self.colours().filter(|&c| c != mover).enumerate() {
            let missing = HoleSet(areas.destination[other].0 & !occupied.0);
            if self.kings[other] == areas.apex[other] && missing.len() == 1 {
                gifts[slot] = (missing.first().unwrap_or(NO_HOLE), areas.destination[other]);
            }
        }
        gifts
    }

    /// Calls `emit(from, destinations)` for every piece of the side to move, gift moves removed.
    #[inline]
    fn for_each_piece(&self, mut emit: impl FnMut(Hole, HoleSet)) {
        let star = star();
        let areas = areas();
        let mover = usize::from(self.to_move);
        let occupied = self.occupied();
        let kings = self.king_set();
        let gifts = self.gift_holes(occupied);
        let mut board = MoveBoard::new(star, areas.open[mover], occupied, kings);
        for from in self.pieces[mover] {
            let mut targets = board.destinations(from, from == self.kings[mover]);
            for (gift, destination) in gifts {
                if gift != NO_HOLE && !destination.contains(from) {
                    targets.remove(gift);
                }
            }
            if !targets.is_empty() {
                emit(from, targets);
            }
        }
    }

    /// A shortest chain of jumps (fewest jumps) from `from` to `to`, or the step, as holes.
    fn path(&self, from: Hole, to: Hole) -> Vec<Hole> {
        let star = star();
        let areas = areas();
        let colour = self
            .colours()
            .find(|&c| self.pieces[c].contains(from))
            .unwrap_or(usize::from(self.to_move));
        if star.neighbours(from).contains(&to) {
            return vec![from, to];
        }
        let occupied = self.occupied();
        let others = HoleSet(occupied.0 & !(1u128 << from));
        let kings = self.king_set();
        let is_king = self.kings[colour] == from;
        let mut parent = [NO_HOLE; HOLES];
        let mut seen = HoleSet::single(from);
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(hole) = queue.pop_front() {
            if hole == to {
                break;
            }
            for d in 0..6 {
                let landing = if is_king {
                    king_landing(star, others, kings, hole, d)
                } else {
                    man_landing(star, others, kings, hole, d)
                };
                if landing != NO_HOLE
                    && areas.open[colour].contains(landing)
                    && !seen.contains(landing)
                {
                    seen.insert(landing);
                    parent[landing as usize] = hole;
                    queue.push_back(landing);
                }
            }
        }
        let mut path = vec![to];
        let mut hole = to;
        while hole != from && parent[hole as usize] != NO_HOLE {
            hole = parent[hole as usize];
            path.push(hole);
        }
        path.reverse();
        path
    }

    /// Sum over a colour's pieces of their step distances to its destination apex.
    pub fn distance_to_goal(&self, colour: Seat) -> u32 {
        let areas = areas();
        let colour = usize::from(colour);
        self.pieces
            .get(colour)
            .map(|pieces| {
                pieces
                    .iter()
                    .map(|h| u32::from(areas.distance[colour][h as usize]))
                    .sum()
            })
            .unwrap_or(0)
    }

    fn check(&self) -> Result<(), StarTextError> {
        let areas = areas();
        let invalid = |what: String| StarTextError::Field {
            field: "board",
            value: what,
        };
        for (colour, name) in COLOURS.into_iter().enumerate() {
            if colour >= usize::from(self.variant.players) {
                if !self.pieces[colour].is_empty() {
                    return Err(invalid(format!("{name} does not play in a 2-player game")));
                }
                continue;
            }
            if self.pieces[colour].len() != PIECES_PER_COLOUR {
                return Err(invalid(format!(
                    "{name} has {} pieces, not {PIECES_PER_COLOUR}",
                    self.pieces[colour].len()
                )));
            }
            let kings = self.kings[colour];
            if kings == NO_HOLE {
                return Err(invalid(format!("{name} must have exactly one king")));
            }
            if !self.pieces[colour].is_subset(areas.open[colour]) {
                return Err(invalid(format!(
                    "{name} has a piece inside another colour's point"
                )));
            }
        }
        let winners: Vec<usize> = self
            .colours()
            .filter(|&c| self.has_won(c as Seat))
            .collect();
        let players = self.variant.players;
        let last_mover = (self.to_move + players - 1) % players;
        if winners.len() > 1
            || winners
                .first()
                .is_some_and(|&w| w != usize::from(last_mover))
        {
            return Err(invalid(
                "only the player who just moved can have reached its goal".to_string(),
            ));
        }
        if self.ply > self.move_limit() {
            return Err(StarTextError::Field {
                field: "ply",
                value: self.ply.to_string(),
            });
        }
        if self.passes > players {
            return Err(StarTextError::Field {
                field: "passes",
                value: self.passes.to_string(),
            });
        }
        Ok(())
    }

    fn parse_text(variant: Variant, text: &str) -> Result<Diamond, StarTextError> {
        let mut fields = star_text::split_fields(variant, text)?;
        let board = fields.next().ok_or(StarTextError::Missing("board"))?;
        let cells = star_text::parse_board(board, SYMBOLS)?;
        let mut pieces = [HoleSet::EMPTY; 3];
        let mut kings = [NO_HOLE; 3];
        for (hole, &cell) in cells.iter().enumerate() {
            if cell == 0 {
                continue;
            }
            let symbol = usize::from(cell - 1);
            let (colour, king) = (symbol % 3, symbol >= 3);
            pieces[colour].insert(hole as Hole);
            if king {
                if kings[colour] != NO_HOLE {
                    return Err(StarTextError::Field {
                        field: "board",
                        value: format!("{} has two kings", COLOURS[colour]),
                    });
                }
                kings[colour] = hole as Hole;
            }
        }
        let turn = fields
            .next()
            .ok_or(StarTextError::Missing("seat to move"))?;
        let to_move = (0..variant.players)
            .find(|&seat| turn == &COLOURS[usize::from(seat)][..1])
            .ok_or_else(|| StarTextError::Field {
                field: "seat to move",
                value: turn.to_string(),
            })?;
        let ply = star_text::parse_number("ply", fields.next())?;
        let passes = star_text::parse_number("passes", fields.next())?;
        star_text::expect_end(fields)?;
        let position = Diamond {
            variant,
            pieces,
            kings,
            to_move,
            ply,
            passes,
        };
        position.check()?;
        Ok(position)
    }

    fn hole_name(hole: Hole) -> String {
        star().name(hole)
    }
}

/// What the moves of one position are generated against.
struct MoveBoard<'a> {
    star: &'a Star,
    /// Holes the mover may stop or land on.
    open: HoleSet,
    occupied: HoleSet,
    kings: HoleSet,
    /// The men (pieces a man may jump), one byte per hole: in the hot loop a byte load is cheaper
    /// than testing a variable bit of a 128-bit word.
    men: [u8; 128],
}

impl<'a> MoveBoard<'a> {
    fn new(star: &'a Star, open: HoleSet, occupied: HoleSet, kings: HoleSet) -> MoveBoard<'a> {
        let mut men = [0u8; 128];
        for hole in HoleSet(occupied.0 & !kings.0) {
            men[hole as usize] = 1;
        }
        MoveBoard {
            star,
            open,
            occupied,
            kings,
            men,
        }
    }

    /// Every hole the piece on `from` can reach this turn, before the "no gift win" rule.
    /// Each loop is branch-free: whether a jump is possible is unpredictable.
    #[inline]
    fn destinations(&mut self, from: Hole, is_king: bool) -> HoleSet {
        let star = self.star;
        // The moving piece has left its hole: a chain may pass over it or come back to it.
        let others = self.occupied.0 & !(1u128 << from);
        let empty_open = HoleSet(self.open.0 & !others);
        let steps = star.neighbour_set(from) & empty_open;
        // Holes a chain may still land on, and holes reached but not yet jumped from.
        let mut free = empty_open.0 & !(1u128 << from);
        let mut frontier = HoleSet::single(from);
        if is_king {
            // The nearest empty hole of each ray is a landing when the holes before it (the
            // line) are not empty and hold no king.
            let kings = self.kings.0;
            while let Some(hole) = frontier.pop() {
                for d in 0..3 {
                    let ray = star.ray(hole, d).0;
                    let empty = ray & !others;
                    let nearest = empty & empty.wrapping_neg();
                    let line = ray & nearest.wrapping_sub(1);
                    let ok = (line != 0) & (line & kings == 0);
                    let hit = nearest & free & 0u128.wrapping_sub(u128::from(ok));
                    free &= !hit;
                    frontier.0 |= hit;
                }
                for d in 3..6 {
                    let ray = star.ray(hole, d).0;
                    let empty = ray & !others;
                    let nearest = match empty {
                        0 => 0,
                        _ => 1u128 << (127 - empty.leading_zeros()),
                    };
                    let line = ray & !(nearest | nearest.wrapping_sub(1));
                    let ok = (nearest != 0) & (line != 0) & (line & kings == 0);
                    let hit = nearest & free & 0u128.wrapping_sub(u128::from(ok));
                    free &= !hit;
                    frontier.0 |= hit;
                }
            }
        } else {
            // The moving man no longer stands on its hole.
            let restore = self.men[from as usize];
            self.men[from as usize] = 0;
            while let Some(hole) = frontier.pop() {
                let landings = star.jump_landings(hole);
                for (d, &(over, _)) in star.jumps(hole).iter().enumerate() {
                    let can = 0u128.wrapping_sub(u128::from(self.men[over as usize]));
                    let hit = landings[d].0 & free & can;
                    free &= !hit;
                    frontier.0 |= hit;
                }
            }
            self.men[from as usize] = restore;
        }
        // Landed holes are those that left `free`; the start is not a destination.
        let jumped = empty_open.0 & !free & !(1u128 << from);
        steps | HoleSet(jumped)
    }
}

/// Where a man on `hole` lands jumping in direction `d`, or [`NO_HOLE`].
#[inline]
fn man_landing(star: &Star, occupied: HoleSet, kings: HoleSet, hole: Hole, d: usize) -> Hole {
    let over = star.neighbour(hole, d);
    if over == NO_HOLE || !occupied.contains(over) || kings.contains(over) {
        return NO_HOLE;
    }
    let landing = star.neighbour(over, d);
    if landing == NO_HOLE || occupied.contains(landing) {
        return NO_HOLE;
    }
    landing
}

/// Where a king on `hole` lands jumping the line of men starting next to it in direction `d`:
/// the first empty hole of the ray, if the ray's first hole is taken and no king stands before it.
#[inline]
fn king_landing(star: &Star, occupied: HoleSet, kings: HoleSet, hole: Hole, d: usize) -> Hole {
    let ray = star.ray(hole, d);
    let Some(landing) = Star::nearest(HoleSet(ray.0 & !occupied.0), d) else {
        return NO_HOLE;
    };
    let line = if d < 3 {
        ray.0 & ((1u128 << landing) - 1)
    } else {
        ray.0 & !((2u128 << landing) - 1)
    };
    if line == 0 || line & kings.0 != 0 {
        NO_HOLE
    } else {
        landing
    }
}

impl Position for Diamond {
    type Move = DiamondMove;

    fn start(variant: Variant) -> Result<Diamond, SetupError> {
        if variant.kind != GameKind::Diamond {
            return Err(SetupError::UnknownGame(variant.kind.as_str().to_string()));
        }
        Variant::new(variant.kind, Some(variant.players), variant.long_jump)?;
        let areas = areas();
        let mut pieces = [HoleSet::EMPTY; 3];
        let mut kings = [NO_HOLE; 3];
        let players = usize::from(variant.players);
        pieces[..players].copy_from_slice(&areas.start[..players]);
        kings[..players].copy_from_slice(&areas.start_apex[..players]);
        Ok(Diamond {
            variant,
            pieces,
            kings,
            to_move: 0,
            ply: 0,
            passes: 0,
        })
    }

    fn from_text(variant: Variant, text: &str) -> Result<Diamond, SetupError> {
        if variant.kind != GameKind::Diamond {
            return Err(SetupError::UnknownGame(variant.kind.as_str().to_string()));
        }
        Ok(Diamond::parse_text(variant, text)?)
    }

    fn to_text(&self) -> String {
        let board = star_text::write_board(SYMBOLS, |hole| {
            for colour in 0..3 {
                if self.pieces[colour].contains(hole) {
                    let king = self.kings[colour] == hole;
                    return colour as u8 + 1 + if king { 3 } else { 0 };
                }
            }
            0
        });
        format!(
            "{} {board} {} {} {}",
            star_text::write_header(self.variant),
            &COLOURS[usize::from(self.to_move)][..1],
            self.ply,
            self.passes
        )
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<DiamondMove>) {
        out.clear();
        self.for_each_piece(|from, targets| {
            out.extend(targets.iter().map(|to| DiamondMove::Go { from, to }));
        });
        if out.is_empty() {
            out.push(DiamondMove::Pass);
        }
    }

    fn count_moves(&self) -> u64 {
        let mut count = 0u64;
        self.for_each_piece(|_, targets| count += u64::from(targets.len()));
        count.max(1)
    }

    fn play(&mut self, mv: &DiamondMove) {
        match *mv {
            DiamondMove::Go { from, to } => {
                let colour = usize::from(self.to_move);
                self.pieces[colour].remove(from);
                self.pieces[colour].insert(to);
                if self.kings[colour] == from {
                    self.kings[colour] = to;
                }
                self.passes = 0;
            }
            DiamondMove::Pass => self.passes = self.passes.saturating_add(1),
        }
        self.ply += 1;
        self.to_move = (self.to_move + 1) % self.variant.players;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.colours().find(|&c| self.has_won(c as Seat)) {
            return Some(Outcome::win(winner as Seat, EndReason::DestinationReached));
        }
        if self.passes >= self.variant.players {
            return Some(Outcome::draw(EndReason::AllPassed));
        }
        if self.ply >= self.move_limit() {
            return Some(Outcome::draw(EndReason::MoveLimit));
        }
        None
    }

    fn zobrist(&self) -> u64 {
        let mut hash = star_zobrist::TO_MOVE[usize::from(self.to_move)];
        for colour in self.colours() {
            for hole in self.pieces[colour] {
                let kind = colour * 2 + usize::from(self.kings[colour] == hole);
                hash ^= star_zobrist::PIECES[kind * HOLES + hole as usize];
            }
        }
        hash
    }

    fn move_info(&self, mv: &DiamondMove) -> MoveInfo {
        match *mv {
            DiamondMove::Pass => MoveInfo {
                text: "pass".to_string(),
                from: String::new(),
                to: String::new(),
                path: Vec::new(),
                jumps: 0,
                captures: Vec::new(),
                legs: Vec::new(),
                pass: true,
            },
            DiamondMove::Go { from, to } => {
                let path: Vec<String> = self
                    .path(from, to)
                    .into_iter()
                    .map(Diamond::hole_name)
                    .collect();
                let step = star().neighbours(from).contains(&to);
                MoveInfo {
                    text: format!("{}-{}", Diamond::hole_name(from), Diamond::hole_name(to)),
                    from: Diamond::hole_name(from),
                    to: Diamond::hole_name(to),
                    jumps: if step { 0 } else { path.len() as u32 - 1 },
                    // Nothing is captured in the Diamond Game.
                    legs: Leg::uncapturing(&path),
                    path,
                    captures: Vec::new(),
                    pass: false,
                }
            }
        }
    }

    /// Accepts `pass` and `<from>-<to>` (canonical names); a full path `a-b-c` is accepted when it
    /// names a legal move's start and end.
    fn parse_move(&self, text: &str) -> Result<DiamondMove, MoveError> {
        let text = text.trim();
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let wanted = if text.eq_ignore_ascii_case("pass") {
            DiamondMove::Pass
        } else {
            let star = star();
            let holes: Option<Vec<Hole>> = text.split('-').map(|name| star.parse(name)).collect();
            match holes.as_deref() {
                Some([from, .., to]) => DiamondMove::Go {
                    from: *from,
                    to: *to,
                },
                _ => return Err(MoveError::Syntax(text.to_string())),
            }
        };
        if moves.contains(&wanted) {
            Ok(wanted)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        }
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        COLOURS.get(usize::from(seat)).copied().unwrap_or("?")
    }

    fn seat_stats(&self) -> Vec<SeatStats> {
        let areas = areas();
        self.colours()
            .map(|colour| SeatStats {
                seat: colour as Seat,
                name: COLOURS[colour].to_string(),
                pieces: self.pieces[colour].len(),
                kings: u32::from(self.kings[colour] != NO_HOLE),
                home: Some((self.pieces[colour] & areas.destination[colour]).len()),
                captures: None,
                king_must_go_home: areas.destination[colour].is_subset(self.occupied())
                    && self.kings[colour] != areas.apex[colour],
            })
            .collect()
    }

    fn layout(&self) -> BoardLayout {
        let star = star();
        let areas = areas();
        BoardLayout {
            shape: BoardShape::Star,
            cells: ALL
                .iter()
                .map(|hole| {
                    let (x, y) = star.xy(hole);
                    Cell {
                        name: star.name(hole),
                        x,
                        y,
                        view_names: (0..self.variant.players)
                            .map(|seat| star.name_in(View(seat), hole))
                            .collect(),
                        zone: areas.zone[hole as usize],
                    }
                })
                .collect(),
        }
    }

    fn pieces(&self) -> Vec<PieceView> {
        let mut pieces = Vec::with_capacity(45);
        for colour in self.colours() {
            for hole in self.pieces[colour] {
                pieces.push(PieceView {
                    cell: star().name(hole),
                    seat: Some(colour as Seat),
                    king: self.kings[colour] == hole,
                });
            }
        }
        pieces
    }

    /// Two players: the other wins. Three: of the other two, the one whose pieces are fewer steps
    /// from its destination apex in all; on a tie, the one who plays right after the resigner.
    fn resignation_outcome(&self, resigning: Seat) -> Outcome {
        let players = self.variant.players;
        let next = (resigning + 1) % players;
        if players == 2 {
            return Outcome::win(next, EndReason::Resignation);
        }
        let after = (resigning + 2) % players;
        let winner = if self.distance_to_goal(after) < self.distance_to_goal(next) {
            after
        } else {
            next
        };
        Outcome::win(winner, EndReason::Resignation)
    }

    fn draw_counters(&self) -> Vec<DrawCounter> {
        vec![DrawCounter {
            reason: EndReason::MoveLimit,
            plies_left: self.move_limit().saturating_sub(self.ply),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_match_the_seed() {
        let areas = areas();
        let star = star();
        for colour in 0..3 {
            assert_eq!(areas.start[colour].len(), 15);
            assert_eq!(areas.destination[colour].len(), 15);
            assert_eq!(areas.open[colour].len(), 61 + 20);
            // Every hole a colour may use is reachable by steps.
            assert!(areas.open[colour]
                .iter()
                .all(|h| areas.distance[colour][h as usize] != u8::MAX));
            assert_eq!(
                areas.distance[colour][areas.start_apex[colour] as usize],
                16
            );
        }
        // Each colour's destination apex is row 17 of its own view.
        for colour in 0..3u8 {
            assert_eq!(
                star.name_in(View(colour), areas.apex[usize::from(colour)]),
                "F17P1"
            );
            assert_eq!(
                star.name_in(View(colour), areas.start_apex[usize::from(colour)]),
                "F1P1"
            );
        }
    }
}
