//! The Diamond Game: Chinese checkers with a king, for 2 or 3 players (seed 000).
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
//!
//! Layout: `areas` (each colour's points, open holes and distances), `movegen` (the fill, the
//! "no gift win" rule and display paths), `text` (the position text and its checks); the
//! position and its `Position` implementation are here.

mod areas;
mod movegen;
mod text;

use areas::areas;
pub use areas::START_POINTS;

use crate::describe::{
    BoardLayout, BoardShape, Cell, Describe, Leg, MoveInfo, PieceView, SeatStats,
};
use crate::games::star_zobrist;
use crate::geometry::holeset::{Hole, HoleSet};
use crate::geometry::star::{star, View, ALL, HOLES, NO_HOLE};
use crate::notation::star_text;
use crate::position::{
    DrawCounter, EndReason, GameKind, MoveError, Outcome, Position, Seat, SetupError, Variant,
};

/// Red, Yellow, Green: seats 0, 1, 2 in turn order.
pub const COLOURS: [&str; 3] = ["red", "yellow", "green"];
/// Letters of men (lower case) and kings (upper case) in the position text.
const SYMBOLS: &[u8; 6] = b"rygRYG";

/// Pieces per colour: 14 men and a king.
pub const PIECES_PER_COLOUR: u32 = 15;

/// A Diamond move: one piece from a hole to another (a step or a chain of jumps), or the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiamondMove {
    Go { from: Hole, to: Hole },
    Pass,
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

    /// Whether `mv`, legal here, wins the game for the side to move: its king ends on its apex
    /// and its destination is full (a move cannot make another colour win: see the module's
    /// rules). What [`Position::outcome`] would say after the move, without playing it.
    pub fn wins_with(&self, mv: &DiamondMove) -> bool {
        let DiamondMove::Go { from, to } = *mv else {
            return false;
        };
        let areas = areas();
        let colour = usize::from(self.to_move);
        let king = if self.kings[colour] == from {
            to
        } else {
            self.kings[colour]
        };
        let mut occupied = self.occupied();
        occupied.remove(from);
        occupied.insert(to);
        king == areas.apex[colour] && areas.destination[colour].is_subset(occupied)
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

impl Describe for Diamond {
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
