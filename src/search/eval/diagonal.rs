//! Evaluation of the two diagonal draughts games, English checkers and International draughts,
//! over their shared bitboard [`Board`].

use super::draughts::{combine, DraughtsGeometry, SideFeatures, Weights};
use crate::games::diagonal::{Board, DraughtsMove, Rules};
use crate::games::english::{English, EnglishRules};
use crate::games::international::{International, InternationalRules};
use crate::geometry::diagonal::Direction;
use crate::position::Seat;
use crate::search::searchable::{EvalStyle, Searchable};
use std::sync::OnceLock;

/// English kings move one square: worth about a man and a half. Back-rank men matter a lot
/// (the opponent cannot crown through them).
const ENGLISH: Weights = Weights {
    man: 100,
    king: 145,
    advancement: 3,
    back_guard: 12,
    centre: 6,
    runaway: 5,
    king_mobility: 3,
    trade: 120,
};

/// International flying kings dominate open boards: about three men.
const INTERNATIONAL: Weights = Weights {
    man: 100,
    king: 300,
    advancement: 2,
    back_guard: 8,
    centre: 5,
    runaway: 6,
    king_mobility: 2,
    trade: 150,
};

/// The tables of a grid, with rows counted from seat 0's back row.
fn geometry<R: Rules>() -> DraughtsGeometry {
    let grid = R::GRID;
    let size = grid.size;
    DraughtsGeometry::build(size, |bit| {
        if grid.valid & (1 << bit) == 0 {
            return None;
        }
        // Row 0 of `row_file` is the row of square 1.
        let (row, file) = grid.row_file(grid.square(bit));
        let row = if R::SEAT0_MOVES_UP {
            row
        } else {
            size - 1 - row
        };
        Some((row, file))
    })
}

fn features<R: Rules>(board: &Board<R>, geometry: &DraughtsGeometry) -> [SideFeatures; 2] {
    let grid = R::GRID;
    let occupied = board.occupied();
    let empty = grid.valid & !occupied;
    let mut sides = [SideFeatures::default(); 2];
    for (seat, side) in sides.iter_mut().enumerate() {
        *side = geometry.features(
            seat,
            board.pieces[seat],
            board.pieces[1 - seat],
            board.kings,
        );
        let mut kings = board.pieces[seat] & board.kings;
        while kings != 0 {
            let bit = kings.trailing_zeros();
            kings &= kings - 1;
            for dir in Direction::ALL {
                side.king_mobility += if R::FLYING_KINGS {
                    grid.slide(bit, dir, occupied).0.count_ones() as i32
                } else {
                    (grid.step(1 << bit, dir) & empty).count_ones() as i32
                };
            }
        }
    }
    sides
}

fn evaluate<R: Rules>(
    board: &Board<R>,
    geometry: &DraughtsGeometry,
    weights: &Weights,
    seat: Seat,
    style: EvalStyle,
) -> i32 {
    combine(&features(board, geometry), seat, style, weights)
}

fn history_key(mv: &DraughtsMove) -> usize {
    usize::from(mv.from) * 64 + usize::from(mv.to)
}

fn english_geometry() -> &'static DraughtsGeometry {
    static GEOMETRY: OnceLock<DraughtsGeometry> = OnceLock::new();
    GEOMETRY.get_or_init(geometry::<EnglishRules>)
}

fn international_geometry() -> &'static DraughtsGeometry {
    static GEOMETRY: OnceLock<DraughtsGeometry> = OnceLock::new();
    GEOMETRY.get_or_init(geometry::<InternationalRules>)
}

impl Searchable for English {
    const QUIESCENCE: bool = true;

    fn endgame_tables() -> Option<std::sync::Arc<crate::search::endgame::GameTables>> {
        crate::search::endgame::tables(crate::position::GameKind::English)
    }

    fn endgame_value(
        &self,
        tables: &crate::search::endgame::GameTables,
    ) -> Option<crate::search::endgame::Value> {
        tables.probe(self)
    }

    fn evaluate(&self, seat: Seat, style: EvalStyle) -> i32 {
        evaluate(self.board(), english_geometry(), &ENGLISH, seat, style)
    }

    fn may_capture(&self) -> bool {
        self.board().has_capture()
    }

    fn is_capture(&self, mv: &DraughtsMove) -> bool {
        mv.captures != 0
    }

    fn order_hint(&self, mv: &DraughtsMove) -> i32 {
        mv.capture_count() as i32
    }

    fn history_key(&self, mv: &DraughtsMove) -> usize {
        history_key(mv)
    }
}

impl Searchable for International {
    const QUIESCENCE: bool = true;

    fn endgame_tables() -> Option<std::sync::Arc<crate::search::endgame::GameTables>> {
        crate::search::endgame::tables(crate::position::GameKind::International)
    }

    fn endgame_value(
        &self,
        tables: &crate::search::endgame::GameTables,
    ) -> Option<crate::search::endgame::Value> {
        tables.probe(self)
    }

    fn evaluate(&self, seat: Seat, style: EvalStyle) -> i32 {
        evaluate(
            self.board(),
            international_geometry(),
            &INTERNATIONAL,
            seat,
            style,
        )
    }

    fn may_capture(&self) -> bool {
        self.board().has_capture()
    }

    fn is_capture(&self, mv: &DraughtsMove) -> bool {
        mv.captures != 0
    }

    fn order_hint(&self, mv: &DraughtsMove) -> i32 {
        mv.capture_count() as i32
    }

    fn history_key(&self, mv: &DraughtsMove) -> usize {
        history_key(mv)
    }
}
