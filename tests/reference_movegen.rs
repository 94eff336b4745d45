//! The bitboard generator against a slow, literal reading of the rules on (row, file)
//! coordinates, on random positions and along random games. The reference follows docs/rules.md
//! E2–E5 and I2–I7 sentence by sentence and shares no code with the engine.

use damas::games::english::English;
use damas::games::international::International;
use damas::{Describe, GameKind, Position, Variant};
use proptest::prelude::*;

use crate::common;
use common::DEEP_CASES;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

#[derive(Clone, Copy)]
struct Game {
    size: i32,
    /// Whether seat 0's men move toward higher rows (rows counted from square 1).
    seat0_up: bool,
    men_capture_backward: bool,
    flying_kings: bool,
    majority: bool,
}

const ENGLISH: Game = Game {
    size: 8,
    seat0_up: true,
    men_capture_backward: false,
    flying_kings: false,
    majority: false,
};
const INTERNATIONAL: Game = Game {
    size: 10,
    seat0_up: false,
    men_capture_backward: true,
    flying_kings: true,
    majority: true,
};

/// (seat, king) per (row, file).
type Grid = Vec<Vec<Option<(u8, bool)>>>;
/// (from, to, captured squares) with PDN numbers.
type Triple = (u32, u32, BTreeSet<u32>);

fn coordinates(game: Game, square: u32) -> (i32, i32) {
    let half = game.size as u32 / 2;
    let row = (square - 1) / half;
    let file = 2 * ((square - 1) % half) + u32::from(row.is_multiple_of(2));
    (row as i32, file as i32)
}

fn number(game: Game, row: i32, file: i32) -> u32 {
    let half = game.size / 2;
    (row * half + (file - i32::from(row % 2 == 0)) / 2 + 1) as u32
}

fn grid_of<P: Describe>(game: Game, position: &P) -> Grid {
    let mut grid = vec![vec![None; game.size as usize]; game.size as usize];
    for piece in position.pieces() {
        let (row, file) = coordinates(game, piece.cell.parse().unwrap());
        grid[row as usize][file as usize] = Some((piece.seat.unwrap(), piece.king));
    }
    grid
}

const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

struct Search<'a> {
    game: Game,
    grid: &'a Grid,
    seat: u8,
    king: bool,
    from: (i32, i32),
    found: Vec<Triple>,
}

impl Search<'_> {
    fn inside(&self, (row, file): (i32, i32)) -> bool {
        (0..self.game.size).contains(&row) && (0..self.game.size).contains(&file)
    }

    /// Empty for the capture: the moving piece's start square is empty, captured pieces are not.
    fn empty(&self, square: (i32, i32)) -> bool {
        square == self.from || self.grid[square.0 as usize][square.1 as usize].is_none()
    }

    fn takeable(&self, square: (i32, i32), captured: &[(i32, i32)]) -> bool {
        square != self.from
            && !captured.contains(&square)
            && matches!(self.grid[square.0 as usize][square.1 as usize], Some((s, _)) if s != self.seat)
    }

    fn forward(&self) -> i32 {
        if (self.seat == 0) == self.game.seat0_up {
            1
        } else {
            -1
        }
    }

    fn walk(&mut self, at: (i32, i32), captured: &mut Vec<(i32, i32)>) {
        let mut ended = true;
        for (dr, df) in DIAGONALS {
            if !self.king && !self.game.men_capture_backward && dr != self.forward() {
                continue;
            }
            if self.king && self.game.flying_kings {
                let mut square = (at.0 + dr, at.1 + df);
                while self.inside(square) && self.empty(square) {
                    square = (square.0 + dr, square.1 + df);
                }
                if !self.inside(square) || !self.takeable(square, captured) {
                    continue;
                }
                let victim = square;
                let mut landing = (victim.0 + dr, victim.1 + df);
                while self.inside(landing) && self.empty(landing) {
                    ended = false;
                    captured.push(victim);
                    self.walk(landing, captured);
                    captured.pop();
                    landing = (landing.0 + dr, landing.1 + df);
                }
            } else {
                let victim = (at.0 + dr, at.1 + df);
                let landing = (at.0 + 2 * dr, at.1 + 2 * df);
                if self.inside(landing) && self.takeable(victim, captured) && self.empty(landing) {
                    ended = false;
                    captured.push(victim);
                    self.walk(landing, captured);
                    captured.pop();
                }
            }
        }
        if ended && !captured.is_empty() {
            let game = self.game;
            self.found.push((
                number(game, self.from.0, self.from.1),
                number(game, at.0, at.1),
                captured.iter().map(|&(r, f)| number(game, r, f)).collect(),
            ));
        }
    }
}

fn reference_moves<P: Describe>(game: Game, position: &P) -> BTreeSet<Triple> {
    let grid = grid_of(game, position);
    let seat = position.to_move();
    let mut captures = Vec::new();
    let mut quiet = BTreeSet::new();
    for row in 0..game.size {
        for file in 0..game.size {
            let Some((owner, king)) = grid[row as usize][file as usize] else {
                continue;
            };
            if owner != seat {
                continue;
            }
            let mut search = Search {
                game,
                grid: &grid,
                seat,
                king,
                from: (row, file),
                found: Vec::new(),
            };
            search.walk((row, file), &mut Vec::new());
            captures.append(&mut search.found);
            let forward = search.forward();
            for (dr, df) in DIAGONALS {
                if !king && dr != forward {
                    continue;
                }
                let mut square = (row + dr, file + df);
                while search.inside(square) && grid[square.0 as usize][square.1 as usize].is_none()
                {
                    quiet.insert((
                        number(game, row, file),
                        number(game, square.0, square.1),
                        BTreeSet::new(),
                    ));
                    if !(king && game.flying_kings) {
                        break;
                    }
                    square = (square.0 + dr, square.1 + df);
                }
            }
        }
    }
    if captures.is_empty() {
        return quiet;
    }
    let most = captures.iter().map(|(_, _, c)| c.len()).max().unwrap_or(0);
    captures
        .into_iter()
        .filter(|(_, _, c)| !game.majority || c.len() == most)
        .collect()
}

fn engine_moves<P: Describe>(position: &P) -> BTreeSet<Triple> {
    position
        .moves()
        .iter()
        .map(|mv| {
            let info = position.move_info(mv);
            (
                info.from.parse().unwrap(),
                info.to.parse().unwrap(),
                info.captures.iter().map(|c| c.parse().unwrap()).collect(),
            )
        })
        .collect()
}

/// Compares both generators along a random game.
fn agree_along_game<P: Describe>(game: Game, start: P, seed: u64, plies: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = start;
    for _ in 0..plies {
        let engine = engine_moves(&position);
        assert_eq!(
            engine,
            reference_moves(game, &position),
            "{}",
            position.to_text()
        );
        assert_eq!(
            engine.len(),
            position.moves().len(),
            "duplicate moves in {}",
            position.to_text()
        );
        let moves = position.moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())].clone();
        position.play(&mv);
    }
}

/// A FEN with pieces from `codes` (0–5 empty, 6/7 white man/king, 8/9 black man/king); men on
/// their crowning row become kings.
fn fen(game: Game, codes: &[u8], white_to_move: bool) -> String {
    let squares = (game.size * game.size / 2) as u32;
    // Rows where White's and Black's men are crowned.
    let white_seat = if game.seat0_up { 1 } else { 0 };
    let crown_row = |seat: u8| {
        if (seat == 0) == game.seat0_up {
            game.size - 1
        } else {
            0
        }
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for square in 1..=squares {
        let code = codes[(square - 1) as usize];
        let row = coordinates(game, square).0;
        let (list, seat) = match code {
            6 | 7 => (&mut white, white_seat),
            8 | 9 => (&mut black, 1 - white_seat),
            _ => continue,
        };
        let king = code % 2 == 1 || row == crown_row(seat);
        list.push(format!("{}{square}", if king { "K" } else { "" }));
    }
    format!(
        "{}:W{}:B{}",
        if white_to_move { "W" } else { "B" },
        white.join(","),
        black.join(",")
    )
}

fn english_case(codes: &[u8], white: bool, seed: u64) {
    let start = English::from_text(
        Variant::standard(GameKind::English),
        &fen(ENGLISH, codes, white),
    )
    .expect("generated FEN is valid");
    agree_along_game(ENGLISH, start, seed, 30);
}

fn international_case(codes: &[u8], white: bool, seed: u64) {
    let start = International::from_text(
        Variant::standard(GameKind::International),
        &fen(INTERNATIONAL, codes, white),
    )
    .expect("generated FEN is valid");
    agree_along_game(INTERNATIONAL, start, seed, 30);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn english_matches_reference(codes in proptest::collection::vec(0u8..10, 32), white in any::<bool>(), seed in any::<u64>()) {
        english_case(&codes, white, seed);
    }

    #[test]
    fn international_matches_reference(codes in proptest::collection::vec(0u8..10, 50), white in any::<bool>(), seed in any::<u64>()) {
        international_case(&codes, white, seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(DEEP_CASES))]

    #[test]
    #[ignore = "deep: 1000 random English positions against the reference (release)"]
    fn deep_english_matches_reference(codes in proptest::collection::vec(0u8..10, 32), white in any::<bool>(), seed in any::<u64>()) {
        english_case(&codes, white, seed);
    }

    #[test]
    #[ignore = "deep: 1000 random International positions against the reference (release)"]
    fn deep_international_matches_reference(codes in proptest::collection::vec(0u8..10, 50), white in any::<bool>(), seed in any::<u64>()) {
        international_case(&codes, white, seed);
    }
}

#[test]
fn start_positions_match_reference_along_games() {
    for seed in 0..20 {
        agree_along_game(
            ENGLISH,
            English::start(Variant::standard(GameKind::English)).unwrap(),
            seed,
            200,
        );
        agree_along_game(
            INTERNATIONAL,
            International::start(Variant::standard(GameKind::International)).unwrap(),
            seed,
            200,
        );
    }
}
