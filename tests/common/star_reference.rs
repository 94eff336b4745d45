//! A second, deliberately plain implementation of the two star games, for cross-checks: its own
//! board geometry, position state, move generators, move application and perft.
//!
//! The board is derived here from the seed's description alone, not from `geometry/star.rs`: 17
//! rows of 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1 holes, each row centred, so
//! that in doubled-width coordinates `(row, x)` (x steps by 2 along a row, by 1 between rows)
//! the six neighbours of a hole are `x ± 2` on its row and `x ± 1` on the rows above and below.
//! Holes are numbered in reading order (row 1 first, left to right), the order the engine's
//! notation documents, so hole numbers can be shared with the engine's positions.
//!
//! Areas (docs/rules.md, "Board and areas"): the central hexagon has rows 5–13 of 5, 6, 7, 8, 9,
//! 8, 7, 6, 5 holes, centred; what lies outside it forms the six 10-hole points; a point's base is
//! the hexagon holes adjacent to it; its apex is its only hole with two neighbours.
//!
//! The generators walk chains hole by hole with an explicit stack (Diamond) or by plain recursion
//! over every route (Capture, duplicates merged by an ordered set), with none of the engine's
//! tables, masks or pruning.
#![allow(dead_code)]

use damas::games::capture::{Capture, CaptureMove};
use damas::games::diamond::{Diamond, DiamondMove};
use damas::geometry::holeset::HoleSet;
use damas::Position;
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

pub const HOLES: usize = 121;
const ROW_LENGTHS: [i32; 17] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
/// The six neighbour steps in `(row, x)`.
const STEPS: [(i32, i32); 6] = [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A set of holes as a bit mask (bit = hole number).
pub type Mask = u128;

/// The six points, named as seen from Red (whose start is at the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    Bottom,
    LowerLeft,
    UpperLeft,
    Top,
    UpperRight,
    LowerRight,
}

impl Corner {
    pub const ALL: [Corner; 6] = [
        Corner::Bottom,
        Corner::LowerLeft,
        Corner::UpperLeft,
        Corner::Top,
        Corner::UpperRight,
        Corner::LowerRight,
    ];

    pub fn opposite(self) -> Corner {
        match self {
            Corner::Bottom => Corner::Top,
            Corner::Top => Corner::Bottom,
            Corner::LowerLeft => Corner::UpperRight,
            Corner::UpperRight => Corner::LowerLeft,
            Corner::UpperLeft => Corner::LowerRight,
            Corner::LowerRight => Corner::UpperLeft,
        }
    }
}

/// The Diamond colours' starts (rules.md: Red at the bottom, Yellow upper-left, Green
/// upper-right); each goes to the opposite point.
pub const DIAMOND_STARTS: [Corner; 3] = [Corner::Bottom, Corner::UpperLeft, Corner::UpperRight];

pub struct RefStar {
    /// `(row, x)` of each hole, row from 1.
    pub cells: Vec<(i32, i32)>,
    /// `[hole][step]`: the neighbour along `STEPS[step]`.
    neighbours: Vec<[Option<u8>; 6]>,
    pub hexagon: Mask,
    pub centre: u8,
    points: [Mask; 6],
    bases: [Mask; 6],
    apexes: [u8; 6],
}

/// Holes of the hexagon on a row (rows 5–13), 0 elsewhere.
fn hexagon_length(row: i32) -> i32 {
    if (5..=13).contains(&row) {
        9 - (row - 9).abs()
    } else {
        0
    }
}

impl RefStar {
    fn build() -> RefStar {
        let mut cells = Vec::new();
        for (i, &length) in ROW_LENGTHS.iter().enumerate() {
            let row = i as i32 + 1;
            for k in 0..length {
                cells.push((row, 2 * k - (length - 1)));
            }
        }
        assert_eq!(cells.len(), HOLES);
        let index: HashMap<(i32, i32), u8> = cells
            .iter()
            .enumerate()
            .map(|(h, &c)| (c, h as u8))
            .collect();
        let neighbours: Vec<[Option<u8>; 6]> = cells
            .iter()
            .map(|&(row, x)| STEPS.map(|(dr, dx)| index.get(&(row + dr, x + dx)).copied()))
            .collect();
        let mut hexagon = 0;
        let mut points = [0; 6];
        let mut centre = None;
        for (h, &(row, x)) in cells.iter().enumerate() {
            let half = hexagon_length(row) - 1;
            let bit = 1u128 << h;
            let corner = if row <= 4 {
                Some(Corner::Bottom)
            } else if row >= 14 {
                Some(Corner::Top)
            } else if x.abs() <= half {
                None
            } else {
                Some(match (row < 9, x < 0) {
                    (true, true) => Corner::LowerLeft,
                    (true, false) => Corner::LowerRight,
                    (false, true) => Corner::UpperLeft,
                    (false, false) => Corner::UpperRight,
                })
            };
            match corner {
                Some(c) => points[c as usize] |= bit,
                None => hexagon |= bit,
            }
            if (row, x) == (9, 0) {
                centre = Some(h as u8);
            }
        }
        let mut bases = [0; 6];
        let mut apexes = [0; 6];
        for c in 0..6 {
            for (h, around) in neighbours.iter().enumerate() {
                let adjacent_to_point = around.iter().flatten().any(|&n| points[c] >> n & 1 == 1);
                if hexagon >> h & 1 == 1 && adjacent_to_point {
                    bases[c] |= 1 << h;
                }
            }
            let tips: Vec<u8> = (0..HOLES as u8)
                .filter(|&h| points[c] >> h & 1 == 1)
                .filter(|&h| neighbours[h as usize].iter().flatten().count() == 2)
                .collect();
            assert_eq!(tips.len(), 1, "one apex per point");
            apexes[c] = tips[0];
        }
        RefStar {
            cells,
            neighbours,
            hexagon,
            centre: centre.expect("centre"),
            points,
            bases,
            apexes,
        }
    }

    pub fn neighbour(&self, hole: u8, step: usize) -> Option<u8> {
        self.neighbours[hole as usize][step]
    }

    /// Every neighbour of a hole.
    pub fn neighbours(&self, hole: u8) -> impl Iterator<Item = u8> + '_ {
        self.neighbours[hole as usize].iter().flatten().copied()
    }

    /// The holes beyond `hole` along a step, nearest first.
    pub fn line(&self, hole: u8, step: usize) -> Vec<u8> {
        let mut line = Vec::new();
        let mut cell = self.neighbour(hole, step);
        while let Some(h) = cell {
            line.push(h);
            cell = self.neighbour(h, step);
        }
        line
    }

    pub fn point(&self, corner: Corner) -> Mask {
        self.points[corner as usize]
    }

    pub fn base(&self, corner: Corner) -> Mask {
        self.bases[corner as usize]
    }

    /// The Diamond punta: a point and its base.
    pub fn punta(&self, corner: Corner) -> Mask {
        self.point(corner) | self.base(corner)
    }

    pub fn apex(&self, corner: Corner) -> u8 {
        self.apexes[corner as usize]
    }

    /// The engine's name for a hole in the canonical view: `F<row>P<pos>`.
    pub fn name(&self, hole: u8) -> String {
        let (row, x) = self.cells[hole as usize];
        let length = ROW_LENGTHS[(row - 1) as usize];
        format!("F{row}P{}", (x + length - 1) / 2 + 1)
    }
}

pub fn ref_star() -> &'static RefStar {
    static STAR: OnceLock<RefStar> = OnceLock::new();
    STAR.get_or_init(RefStar::build)
}

fn has(mask: Mask, hole: u8) -> bool {
    mask >> hole & 1 == 1
}

fn holes(mask: Mask) -> impl Iterator<Item = u8> {
    (0..HOLES as u8).filter(move |&h| has(mask, h))
}

/// A reference game position, with the operations perft needs.
pub trait RefGame: Clone {
    type Move;
    fn moves(&self) -> Vec<Self::Move>;
    fn play(&mut self, mv: &Self::Move);
}

/// Leaves of the legal-move tree `depth` plies below `game`, by plain recursion (the same
/// definition as the engine's perft: the tree of legal moves, not stopped at a decided game).
pub fn ref_perft<G: RefGame>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| {
            let mut next = game.clone();
            next.play(mv);
            ref_perft(&next, depth - 1)
        })
        .sum()
}

// ---------------------------------------------------------------------------------------------
// Diamond Game

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RefDiamondMove {
    Go(u8, u8),
    Pass,
}

/// A Diamond position: who stands where, whose king is where, who moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefDiamond {
    pub players: u8,
    /// Per colour, its pieces (king included).
    pub pieces: [Mask; 3],
    pub kings: [Option<u8>; 3],
    pub to_move: u8,
}

impl RefDiamond {
    /// The seed's start: each colour fills its start punta, its king on the apex.
    pub fn start(players: u8) -> RefDiamond {
        let star = ref_star();
        let mut pieces = [0; 3];
        let mut kings = [None; 3];
        for colour in 0..usize::from(players) {
            pieces[colour] = star.punta(DIAMOND_STARTS[colour]);
            kings[colour] = Some(star.apex(DIAMOND_STARTS[colour]));
        }
        RefDiamond {
            players,
            pieces,
            kings,
            to_move: 0,
        }
    }

    /// The same position read from the engine's accessors.
    pub fn of(position: &Diamond) -> RefDiamond {
        let players = position.variant().players;
        let mut pieces = [0; 3];
        let mut kings = [None; 3];
        for colour in 0..players {
            pieces[usize::from(colour)] = position.pieces_of(colour).0;
            kings[usize::from(colour)] = position.king_of(colour);
        }
        RefDiamond {
            players,
            pieces,
            kings,
            to_move: position.to_move(),
        }
    }

    /// Holes a colour may stop or land on: the hexagon and its own two points.
    fn open_for(colour: u8) -> Mask {
        let star = ref_star();
        let start = DIAMOND_STARTS[usize::from(colour)];
        star.hexagon | star.point(start) | star.point(start.opposite())
    }

    /// Whether a colour has won: its whole destination punta occupied, its king on the apex.
    pub fn has_won(&self, colour: u8) -> bool {
        let star = ref_star();
        let goal = DIAMOND_STARTS[usize::from(colour)].opposite();
        let occupied = self.pieces.iter().fold(0, |a, &p| a | p);
        self.kings[usize::from(colour)] == Some(star.apex(goal))
            && star.punta(goal) & !occupied == 0
    }
}

impl RefGame for RefDiamond {
    type Move = RefDiamondMove;

    fn moves(&self) -> Vec<RefDiamondMove> {
        let star = ref_star();
        let mover = self.to_move;
        let occupied = self.pieces.iter().fold(0, |a, &p| a | p);
        let kings: Vec<u8> = self.kings.iter().flatten().copied().collect();
        let open = RefDiamond::open_for(mover);
        let mut moves = Vec::new();
        for from in holes(self.pieces[usize::from(mover)]) {
            let king = self.kings[usize::from(mover)] == Some(from);
            // The moving piece has left its hole for the whole move.
            let others = occupied & !(1 << from);
            let mut targets: Vec<u8> = star
                .neighbours(from)
                .filter(|&n| !has(others, n) && has(open, n))
                .collect();
            let mut stack = vec![from];
            let mut visited = vec![from];
            while let Some(hole) = stack.pop() {
                for step in 0..6 {
                    let line = star.line(hole, step);
                    let run = line.iter().take_while(|&&h| has(others, h)).count();
                    let jumpable = match run {
                        0 => false,
                        1 => !kings.contains(&line[0]),
                        _ => king && line[..run].iter().all(|h| !kings.contains(h)),
                    };
                    let Some(&landing) = line.get(run) else {
                        continue;
                    };
                    if jumpable && has(open, landing) && !visited.contains(&landing) {
                        visited.push(landing);
                        stack.push(landing);
                    }
                }
            }
            targets.extend(visited.into_iter().filter(|&h| h != from));
            targets.sort_unstable();
            targets.dedup();
            for to in targets {
                // "No gift": the move may not complete another colour's winning position.
                let mut after = self.clone();
                after.play(&RefDiamondMove::Go(from, to));
                let gift = (0..self.players)
                    .filter(|&c| c != mover)
                    .any(|c| after.has_won(c));
                if !gift {
                    moves.push(RefDiamondMove::Go(from, to));
                }
            }
        }
        if moves.is_empty() {
            moves.push(RefDiamondMove::Pass);
        }
        moves
    }

    fn play(&mut self, mv: &RefDiamondMove) {
        if let RefDiamondMove::Go(from, to) = *mv {
            let colour = usize::from(self.to_move);
            self.pieces[colour] = self.pieces[colour] & !(1 << from) | 1 << to;
            if self.kings[colour] == Some(from) {
                self.kings[colour] = Some(to);
            }
        }
        self.to_move = (self.to_move + 1) % self.players;
    }
}

impl RefDiamondMove {
    pub fn to_engine(self) -> DiamondMove {
        match self {
            RefDiamondMove::Go(from, to) => DiamondMove::Go { from, to },
            RefDiamondMove::Pass => DiamondMove::Pass,
        }
    }
}

/// The reference's Diamond moves for an engine position, as engine moves.
pub fn diamond_moves(position: &Diamond) -> Vec<DiamondMove> {
    RefDiamond::of(position)
        .moves()
        .into_iter()
        .map(RefDiamondMove::to_engine)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Capture Chinese checkers

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefCaptureMove {
    pub from: u8,
    pub to: u8,
    pub captured: Mask,
}

/// A Capture position: the shared pieces, who moves, each seat's captures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefCapture {
    pub players: u8,
    pub long_jump: bool,
    pub board: Mask,
    pub to_move: u8,
    pub captures: [u32; 6],
}

impl RefCapture {
    /// The seed's start: the hexagon full but its centre.
    pub fn start(players: u8, long_jump: bool) -> RefCapture {
        let star = ref_star();
        RefCapture {
            players,
            long_jump,
            board: star.hexagon & !(1 << star.centre),
            to_move: 0,
            captures: [0; 6],
        }
    }

    pub fn of(position: &Capture) -> RefCapture {
        let variant = position.variant();
        let mut captures = [0; 6];
        for seat in 0..variant.players {
            captures[usize::from(seat)] = position.captures_of(seat);
        }
        RefCapture {
            players: variant.players,
            long_jump: variant.long_jump,
            board: position.board().0,
            to_move: position.to_move(),
            captures,
        }
    }

    /// Every chain from `hole` on, each jump removing its piece at once (rules.md: ordinary jump
    /// = the adjacent piece and the hole behind it; long jump = `k` empty holes, the piece, `k`
    /// empty holes, the landing hole).
    fn walk(
        &self,
        from: u8,
        hole: u8,
        board: Mask,
        captured: Mask,
        found: &mut BTreeSet<RefCaptureMove>,
    ) {
        let star = ref_star();
        for step in 0..6 {
            let line = star.line(hole, step);
            let Some(at) = line.iter().position(|&h| has(board, h)) else {
                continue;
            };
            if at > 0 && !self.long_jump {
                continue;
            }
            let landing_at = 2 * at + 1;
            let clear = (at + 1..=landing_at).all(|i| line.get(i).is_some_and(|&h| !has(board, h)));
            if !clear {
                continue;
            }
            let (over, land) = (line[at], line[landing_at]);
            let taken = captured | 1 << over;
            found.insert(RefCaptureMove {
                from,
                to: land,
                captured: taken,
            });
            self.walk(from, land, board & !(1 << over), taken, found);
        }
    }
}

impl RefGame for RefCapture {
    type Move = RefCaptureMove;

    fn moves(&self) -> Vec<RefCaptureMove> {
        let mut found = BTreeSet::new();
        for from in holes(self.board) {
            self.walk(from, from, self.board & !(1 << from), 0, &mut found);
        }
        found.into_iter().collect()
    }

    fn play(&mut self, mv: &RefCaptureMove) {
        self.board = (self.board & !(1 << mv.from) & !mv.captured) | 1 << mv.to;
        self.captures[usize::from(self.to_move)] += mv.captured.count_ones();
        self.to_move = (self.to_move + 1) % self.players;
    }
}

/// The reference's Capture moves for an engine position, as engine moves, sorted.
pub fn capture_moves(position: &Capture) -> Vec<CaptureMove> {
    let mut moves: Vec<CaptureMove> = RefCapture::of(position)
        .moves()
        .into_iter()
        .map(|mv| CaptureMove {
            from: mv.from,
            to: mv.to,
            captured: HoleSet(mv.captured),
        })
        .collect();
    moves.sort_unstable();
    moves
}
