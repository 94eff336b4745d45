//! Evaluation of Turkish draughts: men step forward or sideways on every square, kings fly
//! along ranks and files (worth about two and a half men), there is no back-rank guard to keep
//! (men start on the second and third ranks).

use super::draughts::{combine, DraughtsGeometry, SideFeatures, Weights};
use crate::games::turkish::squares::{slide, Dir, FILE_A, FILE_H};
use crate::games::turkish::{Turkish, TurkishMove};
use crate::position::Seat;
use crate::search::searchable::{EvalStyle, Searchable};
use std::sync::OnceLock;

/// Hand-set ([`EvalStyle::Classic`]).
const TURKISH_CLASSIC: Weights = Weights {
    man: 100,
    king: 250,
    advancement: 4,
    back_guard: 0,
    centre: 2,
    runaway: 8,
    king_mobility: 2,
    trade: 150,
    mobility: 0,
    balance: 0,
    edge: 0,
};

/// Fitted by `damas-lab tune turkish` (docs/cpu.md "Tuned evaluation").
const TURKISH_TUNED: Weights = TURKISH_CLASSIC;

pub fn weights(style: EvalStyle) -> &'static Weights {
    match style {
        EvalStyle::Full | EvalStyle::Learned => &TURKISH_TUNED,
        _ => &TURKISH_CLASSIC,
    }
}

fn geometry() -> &'static DraughtsGeometry {
    static GEOMETRY: OnceLock<DraughtsGeometry> = OnceLock::new();
    // a1 = 0, rank by rank; White (seat 0) starts at the bottom.
    GEOMETRY.get_or_init(|| DraughtsGeometry::build(8, |bit| Some((bit / 8, bit % 8))))
}

/// Both sides' raw feature counts (the tuner's input).
pub fn features(position: &Turkish) -> [SideFeatures; 2] {
    let pieces = [position.white(), position.black()];
    let occupied = position.white() | position.black();
    let mut sides = [SideFeatures::default(); 2];
    for (seat, side) in sides.iter_mut().enumerate() {
        *side = geometry().features(seat, pieces[seat], pieces[1 - seat], position.kings());
        // Men step forward (White up the board) or sideways onto an empty square.
        let men = pieces[seat] & !position.kings();
        let empty = !occupied;
        let forward = if seat == 0 { men << 8 } else { men >> 8 };
        let sideways = ((men & !FILE_H) << 1) | ((men & !FILE_A) >> 1);
        side.mobility =
            (forward & empty).count_ones() as i32 + (sideways & empty).count_ones() as i32;
        let mut kings = pieces[seat] & position.kings();
        while kings != 0 {
            let square = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            for dir in Dir::ALL {
                side.king_mobility += slide(dir, square, occupied).count_ones() as i32;
            }
        }
    }
    sides
}

impl Searchable for Turkish {
    const QUIESCENCE: bool = true;

    fn endgame_value(
        &self,
        tables: &crate::search::endgame::GameTables,
    ) -> Option<crate::search::endgame::Value> {
        tables.probe(self)
    }

    fn evaluate(&self, seat: Seat, style: EvalStyle) -> i32 {
        combine(&features(self), seat, style, weights(style))
    }

    fn may_capture(&self) -> bool {
        self.has_capture()
    }

    fn is_capture(&self, mv: &TurkishMove) -> bool {
        mv.is_capture()
    }

    fn order_hint(&self, mv: &TurkishMove) -> i32 {
        mv.captured().count_ones() as i32
    }

    fn history_key(&self, mv: &TurkishMove) -> usize {
        usize::from(mv.from()) * 64 + usize::from(mv.to())
    }
}
