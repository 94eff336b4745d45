//! The Diamond Game's position text (docs/notation.md): reading it with every check a position
//! must pass, and hole names.

use super::areas::areas;
use super::{Diamond, COLOURS, PIECES_PER_COLOUR, SYMBOLS};
use crate::geometry::holeset::{Hole, HoleSet};
use crate::geometry::star::{star, NO_HOLE};
use crate::notation::star_text::{self, StarTextError};
use crate::position::{Seat, Variant};

impl Diamond {
    pub(super) fn check(&self) -> Result<(), StarTextError> {
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

    pub(super) fn parse_text(variant: Variant, text: &str) -> Result<Diamond, StarTextError> {
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

    pub(super) fn hole_name(hole: Hole) -> String {
        star().name(hole)
    }
}
