//! The five games, one module each, all behind [`crate::position::Position`].

pub mod capture;
pub mod diamond;
mod star_zobrist;

use crate::position::{GameKind, Position, SetupError, Variant};
use crate::record::{AnyGame, Record};

/// A new game of `variant`, from its start or from a position text.
pub fn new_game(variant: Variant, position: Option<&str>) -> Result<Box<dyn AnyGame>, SetupError> {
    fn make<P: Position>(
        variant: Variant,
        text: Option<&str>,
    ) -> Result<Box<dyn AnyGame>, SetupError> {
        let start = match text {
            Some(text) => P::from_text(variant, text)?,
            None => P::start(variant)?,
        };
        Ok(Box::new(Record::new(start)))
    }
    match variant.kind {
        GameKind::Diamond => make::<diamond::Diamond>(variant, position),
        GameKind::Capture => make::<capture::Capture>(variant, position),
        kind => Err(SetupError::UnknownGame(kind.as_str().to_string())),
    }
}
