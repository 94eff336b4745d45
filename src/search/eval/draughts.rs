//! The evaluation the three draughts games share: material with each game's king value,
//! advancement, back-rank guard, centre, runaway men and king mobility. Each game's module
//! computes the raw counts from its own bitboards ([`SideFeatures`]) and weighs them here.

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
}

/// Per-game weights, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
        runaways: 0,
        king_mobility: 0,
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
        };
        let b = SideFeatures {
            men: 7,
            kings: 2,
            advancement: 15,
            back_guard: 4,
            centre: 1,
            runaways: 0,
            king_mobility: 6,
        };
        for style in [EvalStyle::Full, EvalStyle::Material] {
            let for_0 = combine(&[a, b], 0, style, &WEIGHTS);
            let for_1 = combine(&[a, b], 1, style, &WEIGHTS);
            assert_eq!(for_0, -for_1, "{style:?}");
        }
        assert_eq!(
            combine(&[a, b], 0, EvalStyle::Material, &WEIGHTS),
            800 + 150 - 700 - 300
        );
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
