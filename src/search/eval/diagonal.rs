//! Evaluation of the two diagonal draughts games, English checkers and International draughts,
//! over their shared bitboard [`Board`].

use super::draughts::{combine, DraughtsGeometry, SideFeatures, Weights};
use super::patterns::{PatternError, PatternLayout, PatternWeights, GAME_ENGLISH};
use crate::games::diagonal::{Board, DraughtsMove, Rules};
use crate::games::english::{English, EnglishRules};
use crate::games::international::{International, InternationalRules};
use crate::geometry::diagonal::Direction;
use crate::position::Seat;
use crate::search::searchable::{EvalStyle, Searchable};
use std::sync::OnceLock;

/// English kings move one square: worth about a man and a half. Back-rank men matter a lot
/// (the opponent cannot crown through them). Hand-set ([`EvalStyle::Classic`]).
const ENGLISH_CLASSIC: Weights = Weights {
    man: 100,
    king: 145,
    advancement: 3,
    back_guard: 12,
    centre: 6,
    runaway: 5,
    king_mobility: 3,
    trade: 120,
    mobility: 0,
    balance: 0,
    edge: 0,
};

/// International flying kings dominate open boards: about three men. Hand-set
/// ([`EvalStyle::Classic`]).
const INTERNATIONAL_CLASSIC: Weights = Weights {
    man: 100,
    king: 300,
    advancement: 2,
    back_guard: 8,
    centre: 5,
    runaway: 6,
    king_mobility: 2,
    trade: 150,
    mobility: 0,
    balance: 0,
    edge: 0,
};

/// Fitted by `damas-lab tune english --games 200 --seed 1 --opening-plies 8` on medium's games
/// (docs/cpu.md "Tuned evaluation"): kings worth less, the back rank more, trading when ahead
/// much more, and men on the side files a little less.
const ENGLISH_TUNED: Weights = Weights {
    man: 100,
    king: 122,
    advancement: 2,
    back_guard: 20,
    centre: 0,
    runaway: 2,
    king_mobility: 2,
    trade: 300,
    mobility: 0,
    balance: -1,
    edge: -4,
};

/// Fitted by `damas-lab tune international` (docs/cpu.md "Tuned evaluation").
const INTERNATIONAL_TUNED: Weights = INTERNATIONAL_CLASSIC;

/// The weights of English (`false`) or International (`true`) for `style`.
pub fn weights(international: bool, style: EvalStyle) -> &'static Weights {
    match (international, style) {
        (false, EvalStyle::Full | EvalStyle::Learned) => &ENGLISH_TUNED,
        (false, _) => &ENGLISH_CLASSIC,
        (true, EvalStyle::Full | EvalStyle::Learned) => &INTERNATIONAL_TUNED,
        (true, _) => &INTERNATIONAL_CLASSIC,
    }
}

/// The committed pattern weights of English checkers (`damas-lab train-eval english`, docs/cpu.md
/// "Learned pattern evaluation").
const ENGLISH_PATTERN_FILE: &[u8] = include_bytes!("english.pattern");

/// The English pattern weights, read once from the committed file.
pub fn english_patterns() -> Result<&'static PatternWeights, &'static PatternError> {
    static WEIGHTS: OnceLock<Result<PatternWeights, PatternError>> = OnceLock::new();
    WEIGHTS
        .get_or_init(|| PatternWeights::from_bytes(ENGLISH_PATTERN_FILE, GAME_ENGLISH))
        .as_ref()
}

/// The windows of the English board (rows from seat 0's back row).
pub fn english_pattern_layout() -> &'static PatternLayout {
    static LAYOUT: OnceLock<PatternLayout> = OnceLock::new();
    LAYOUT.get_or_init(|| PatternLayout::build(cells::<EnglishRules>()))
}

/// Each used bit's (row, file), row 0 being seat 0's back row.
fn cells<R: Rules>() -> impl Fn(u32) -> Option<(u32, u32)> {
    let grid = R::GRID;
    let size = grid.size;
    move |bit| {
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
    }
}

/// The tables of a grid, with rows counted from seat 0's back row.
fn geometry<R: Rules>() -> DraughtsGeometry {
    DraughtsGeometry::build(R::GRID.size, cells::<R>())
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
        let men = board.pieces[seat] & !board.kings;
        let moves_up = R::SEAT0_MOVES_UP == (seat == 0);
        for dir in Direction::toward(moves_up) {
            side.mobility += (grid.step(men, dir) & empty).count_ones() as i32;
        }
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

/// Both sides' raw feature counts (the tuner's input).
pub fn english_features(position: &English) -> [SideFeatures; 2] {
    features(position.board(), english_geometry())
}

pub fn international_features(position: &International) -> [SideFeatures; 2] {
    features(position.board(), international_geometry())
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

    fn endgame_value(
        &self,
        tables: &crate::search::endgame::GameTables,
    ) -> Option<crate::search::endgame::Value> {
        tables.probe(self)
    }

    fn evaluate(&self, seat: Seat, style: EvalStyle) -> i32 {
        let value = combine(&english_features(self), seat, style, weights(false, style));
        if style != EvalStyle::Learned {
            return value;
        }
        // A refused weights file (never the committed one: a test reads it) plays as `Full`.
        match english_patterns() {
            Ok(patterns) => {
                value
                    + patterns.value(
                        english_pattern_layout(),
                        self.board().pieces,
                        usize::from(seat),
                    )
            }
            Err(_) => value,
        }
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

    fn endgame_value(
        &self,
        tables: &crate::search::endgame::GameTables,
    ) -> Option<crate::search::endgame::Value> {
        tables.probe(self)
    }

    fn evaluate(&self, seat: Seat, style: EvalStyle) -> i32 {
        combine(
            &international_features(self),
            seat,
            style,
            weights(true, style),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Position, Variant};
    use crate::GameKind;

    fn english(fen: &str) -> English {
        English::from_text(Variant::standard(GameKind::English), fen).expect("a valid FEN")
    }

    #[test]
    fn the_committed_pattern_weights_load() {
        let weights = english_patterns().expect("the committed file is valid");
        assert_eq!(weights.game, GAME_ENGLISH);
        assert_eq!(weights.weights.len(), super::super::patterns::WEIGHT_COUNT);
    }

    /// A position and its colour-flipped mirror (square n ↔ 33 − n, colours and turn swapped)
    /// score opposite for the same seat, and each position scores opposite for its two seats.
    #[test]
    fn the_learned_evaluation_is_antisymmetric_between_the_colours() {
        let pairs = [
            (
                "B:W18,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12",
                "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,12,15",
            ),
            ("W:WK14,22,30:B5,K19,11", "B:W22,K14,28:B3,11,K19"),
        ];
        for (fen, mirror) in pairs {
            let (position, flipped) = (english(fen), english(mirror));
            for style in [EvalStyle::Learned, EvalStyle::Full] {
                let value = position.evaluate(0, style);
                assert_eq!(value, -position.evaluate(1, style), "{fen} {style:?}");
                assert_eq!(value, -flipped.evaluate(0, style), "{fen} {style:?}");
                assert_eq!(value, flipped.evaluate(1, style), "{fen} {style:?}");
            }
        }
    }

    /// The quick reading of English's windows gives what reading them square by square gives.
    #[test]
    fn the_quick_pattern_reading_matches_the_square_by_square_one() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let layout = english_pattern_layout();
        let valid = EnglishRules::GRID.valid;
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..2_000 {
            let own = rng.gen::<u64>() & rng.gen::<u64>() & valid;
            let enemy = rng.gen::<u64>() & !own & valid;
            for view in 0..2 {
                assert_eq!(
                    layout.indices(view, own, enemy),
                    layout.indices_by_square(view, own, enemy),
                    "{own:x} {enemy:x} {view}"
                );
            }
        }
        assert!(
            format!("{layout:?}").contains("Some("),
            "English reads quickly"
        );
    }

    /// International has no patterns yet: `Learned` is `Full` there.
    #[test]
    fn international_learns_nothing_yet() {
        let variant = Variant::standard(GameKind::International);
        let mut position = International::start(variant).expect("international");
        for _ in 0..12 {
            let moves = position.moves();
            let Some(mv) = moves.get(moves.len() / 2) else {
                break;
            };
            position.play(mv);
            for seat in 0..2 {
                assert_eq!(
                    position.evaluate(seat, EvalStyle::Learned),
                    position.evaluate(seat, EvalStyle::Full)
                );
            }
        }
    }
}
