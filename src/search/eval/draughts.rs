//! The evaluation the three draughts games share: material with each game's king value,
//! advancement, back-rank guard, centre, runaway men, king mobility, men's mobility, balance
//! between the wings and men on the side files. Each game's module computes the raw counts from
//! its own bitboards ([`SideFeatures`]) and weighs them here with one of two weight sets: the
//! classic hand-set weights (easy, medium and the frozen baseline, [`EvalStyle::Classic`]) and
//! weights fitted by the Texel tuner (`lab/src/tuning.rs`, docs/cpu.md "Tuned evaluation") on
//! positions from the engine's own games (hard and expert, [`EvalStyle::Full`]).

use crate::position::Seat;
use crate::search::searchable::EvalStyle;

/// Raw counts for one side, from the game's bitboards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideFeatures {
    pub men: i32,
    pub kings: i32,
    /// Sum over men of the rows each has advanced from its own back row.
    pub advancement: i32,
    /// Men still on their own back row (they keep the other side's men from crowning).
    pub back_guard: i32,
    /// Pieces on the central squares.
    pub centre: i32,
    /// Men no enemy piece can stop from crowning, weighted by how close they are (rows left
    /// subtracted from the board size).
    pub runaways: i32,
    /// Squares the kings can move to.
    pub king_mobility: i32,
    /// Empty squares the men can step to (a side with no free moves must give men away).
    pub mobility: i32,
    /// Men on one wing minus men on the other, without sign (a lopsided formation leaves a
    /// wing open to breakthroughs).
    pub balance: i32,
    /// Men on the two side files (they have one move forward and guard less).
    pub edge: i32,
}

/// Per-game weights, in hundredths of a man.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weights {
    pub man: i32,
    pub king: i32,
    pub advancement: i32,
    pub back_guard: i32,
    pub centre: i32,
    pub runaway: i32,
    pub king_mobility: i32,
    /// Bonus for the side ahead, growing as material comes off (trade when ahead).
    pub trade: i32,
    pub mobility: i32,
    pub balance: i32,
    pub edge: i32,
}

impl Weights {
    /// The names of the weights the tuner may change, in [`Weights::get`] order (the man's
    /// value stays 100: it sets the scale).
    pub const TUNABLE: [&'static str; 10] = [
        "king",
        "advancement",
        "back_guard",
        "centre",
        "runaway",
        "king_mobility",
        "trade",
        "mobility",
        "balance",
        "edge",
    ];

    /// The tunable weight `index` ([`Weights::TUNABLE`]).
    pub fn get(&self, index: usize) -> i32 {
        let mut copy = *self;
        *copy.tunable_mut(index)
    }

    pub fn set(&mut self, index: usize, value: i32) {
        *self.tunable_mut(index) = value;
    }

    fn tunable_mut(&mut self, index: usize) -> &mut i32 {
        match index {
            0 => &mut self.king,
            1 => &mut self.advancement,
            2 => &mut self.back_guard,
            3 => &mut self.centre,
            4 => &mut self.runaway,
            5 => &mut self.king_mobility,
            6 => &mut self.trade,
            7 => &mut self.mobility,
            8 => &mut self.balance,
            _ => &mut self.edge,
        }
    }
}

fn material(side: &SideFeatures, weights: &Weights) -> i32 {
    side.men * weights.man + side.kings * weights.king
}

/// The position's value for `seat` (`sides[seat]` is its own side).
pub fn combine(sides: &[SideFeatures; 2], seat: Seat, style: EvalStyle, weights: &Weights) -> i32 {
    let me = usize::from(seat) & 1;
    let (own, other) = (&sides[me], &sides[1 - me]);
    let own_material = material(own, weights);
    let other_material = material(other, weights);
    let mut value = own_material - other_material;
    if style == EvalStyle::Material {
        return value;
    }
    let positional = |side: &SideFeatures, enemy: &SideFeatures| {
        // The back rank matters only while the enemy still has men to crown.
        let guard = if enemy.men > 0 {
            side.back_guard * weights.back_guard
        } else {
            0
        };
        side.advancement * weights.advancement
            + guard
            + side.centre * weights.centre
            + side.runaways * weights.runaway
            + side.king_mobility * weights.king_mobility
            + side.mobility * weights.mobility
            + side.balance * weights.balance
            + side.edge * weights.edge
    };
    value += positional(own, other) - positional(other, own);
    let total = own_material + other_material;
    if total > 0 {
        value += (own_material - other_material) * weights.trade / total;
    }
    value
}

/// Counts every feature that needs only rows and masks: men, kings, advancement, back guard
/// and centre. `row_from_own_side(seat, bit)` is 0 on `seat`'s back row.
pub fn basic_features(
    men: u64,
    kings: u64,
    back_row: u64,
    centre: u64,
    row_from_own_side: impl Fn(u32) -> u32,
) -> SideFeatures {
    let mut advancement = 0;
    let mut rest = men;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        rest &= rest - 1;
        advancement += row_from_own_side(bit) as i32;
    }
    SideFeatures {
        men: men.count_ones() as i32,
        kings: kings.count_ones() as i32,
        advancement,
        back_guard: (men & back_row).count_ones() as i32,
        centre: ((men | kings) & centre).count_ones() as i32,
        ..SideFeatures::default()
    }
}

/// Per-square tables of one board, seen from each seat: rows from the seat's own back row,
/// back rows, centre and the cone of squares ahead of each square (a man with no enemy piece in
/// its cone cannot be stopped from crowning by men).
#[derive(Clone, Debug)]
pub struct DraughtsGeometry {
    pub size: u32,
    pub row_from_own: [[u8; 64]; 2],
    pub back_row: [u64; 2],
    pub centre: u64,
    pub cone: [[u64; 64]; 2],
    /// Squares on the files of the left half (as seat 0 sees the board; balance is symmetric).
    pub left_wing: u64,
    /// Squares on the two outer files.
    pub side_files: u64,
}

impl DraughtsGeometry {
    /// Builds the tables from each used bit's (row, file), row 0 being seat 0's back row.
    pub fn build(size: u32, cell: impl Fn(u32) -> Option<(u32, u32)>) -> DraughtsGeometry {
        let cells: Vec<(u32, u32, u32)> = (0..64)
            .filter_map(|bit| cell(bit).map(|(row, file)| (bit, row, file)))
            .collect();
        let mut geometry = DraughtsGeometry {
            size,
            row_from_own: [[0; 64]; 2],
            back_row: [0; 2],
            centre: 0,
            cone: [[0; 64]; 2],
            left_wing: 0,
            side_files: 0,
        };
        let middle = |n: u32, width: u32| n + width >= size / 2 && n < size / 2 + width;
        for &(bit, row, file) in &cells {
            let own = [row, size - 1 - row];
            for seat in 0..2 {
                geometry.row_from_own[seat][bit as usize] = own[seat] as u8;
                if own[seat] == 0 {
                    geometry.back_row[seat] |= 1 << bit;
                }
                for &(other, other_row, other_file) in &cells {
                    let ahead =
                        [other_row as i32 - row as i32, row as i32 - other_row as i32][seat];
                    if ahead > 0 && (other_file as i32 - file as i32).abs() <= ahead {
                        geometry.cone[seat][bit as usize] |= 1 << other;
                    }
                }
            }
            if middle(row, 1) && middle(file, size / 4) {
                geometry.centre |= 1 << bit;
            }
            if file < size / 2 {
                geometry.left_wing |= 1 << bit;
            }
            if file == 0 || file == size - 1 {
                geometry.side_files |= 1 << bit;
            }
        }
        geometry
    }

    /// Every feature but the mobilities for `seat`, whose pieces are `own` (kings among them in
    /// `kings`), against `enemy`.
    pub fn features(&self, seat: usize, own: u64, enemy: u64, kings: u64) -> SideFeatures {
        let men = own & !kings;
        let rows = &self.row_from_own[seat];
        let mut features =
            basic_features(men, own & kings, self.back_row[seat], self.centre, |bit| {
                u32::from(rows[bit as usize])
            });
        let mut rest = men;
        while rest != 0 {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.cone[seat][bit] & enemy == 0 {
                features.runaways += i32::from(rows[bit]);
            }
        }
        let left = (men & self.left_wing).count_ones() as i32;
        features.balance = (2 * left - features.men).abs();
        features.edge = (men & self.side_files).count_ones() as i32;
        features
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEIGHTS: Weights = Weights {
        man: 100,
        king: 150,
        advancement: 2,
        back_guard: 5,
        centre: 3,
        runaway: 10,
        king_mobility: 1,
        trade: 100,
        mobility: 1,
        balance: -2,
        edge: -1,
    };

    #[test]
    fn the_evaluation_is_symmetric_between_the_sides() {
        let a = SideFeatures {
            men: 8,
            kings: 1,
            advancement: 20,
            back_guard: 2,
            centre: 3,
            runaways: 1,
            king_mobility: 4,
            mobility: 7,
            balance: 2,
            edge: 1,
        };
        let b = SideFeatures {
            men: 7,
            kings: 2,
            advancement: 15,
            back_guard: 4,
            centre: 1,
            runaways: 0,
            king_mobility: 6,
            mobility: 5,
            balance: 0,
            edge: 3,
        };
        for style in [EvalStyle::Full, EvalStyle::Classic, EvalStyle::Material] {
            let for_0 = combine(&[a, b], 0, style, &WEIGHTS);
            let for_1 = combine(&[a, b], 1, style, &WEIGHTS);
            assert_eq!(for_0, -for_1, "{style:?}");
        }
        assert_eq!(
            combine(&[a, b], 0, EvalStyle::Material, &WEIGHTS),
            800 + 150 - 700 - 300
        );
    }

    /// A plain 8×8 grid with every square used, bit = row * 8 + file.
    fn full_board() -> DraughtsGeometry {
        DraughtsGeometry::build(8, |bit| Some((bit / 8, bit % 8)))
    }

    #[test]
    fn rows_back_rows_and_cones_are_seen_from_each_side() {
        let geometry = full_board();
        assert_eq!(geometry.row_from_own[0][9], 1);
        assert_eq!(geometry.row_from_own[1][9], 6);
        assert_eq!(geometry.back_row, [0xFF, 0xFF << 56]);
        // From d7 (bit 51) seat 0 sees c8, d8, e8 ahead; seat 1 sees everything below.
        assert_eq!(geometry.cone[0][51], 0b0001_1100 << 56);
        assert_eq!(geometry.cone[1][51].count_ones(), 3 + 5 + 7 + 8 + 8 + 8);
        assert_eq!(geometry.centre.count_ones(), 8);
    }

    #[test]
    fn wings_and_side_files_are_counted_for_men_only() {
        let geometry = full_board();
        // Seat 0's men on a2 and b2 (left wing, a2 on a side file), h2 (right, side file) and
        // a king on d4 (left), which counts for neither.
        let men = (1u64 << 8) | (1 << 9) | (1 << 15);
        let king = 1u64 << 27;
        let features = geometry.features(0, men | king, 1 << 63, king);
        assert_eq!(features.men, 3);
        assert_eq!(features.balance, 1);
        assert_eq!(features.edge, 2);
        let even = geometry.features(0, (1 << 8) | (1 << 15), 1 << 63, 0);
        assert_eq!(even.balance, 0);
    }

    #[test]
    fn a_man_with_a_clear_cone_is_a_runaway() {
        let geometry = full_board();
        let man = 1u64 << 50; // c7 for seat 0, one row from crowning
        let free = geometry.features(0, man, 1 << 0, 0);
        let stopped = geometry.features(0, man, 1 << 58, 0);
        assert_eq!(free.runaways, 6);
        assert_eq!(stopped.runaways, 0);
        assert_eq!(free.advancement, 6);
    }

    #[test]
    fn being_ahead_is_worth_more_with_less_material_left() {
        let up = |men: i32| SideFeatures {
            men: men + 1,
            ..SideFeatures::default()
        };
        let even = |men: i32| SideFeatures {
            men,
            ..SideFeatures::default()
        };
        let crowded = combine(&[up(10), even(10)], 0, EvalStyle::Full, &WEIGHTS);
        let sparse = combine(&[up(2), even(2)], 0, EvalStyle::Full, &WEIGHTS);
        assert!(sparse > crowded, "{sparse} vs {crowded}");
    }
}
