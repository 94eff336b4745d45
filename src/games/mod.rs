//! The five games, one module each, all behind [`crate::position::Position`].

pub mod capture;
pub mod diamond;
pub mod draughts;
pub mod english;
pub mod international;
mod star_zobrist;
pub mod turkish;

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
        GameKind::English => make::<english::English>(variant, position),
        GameKind::International => make::<international::International>(variant, position),
        GameKind::Turkish => make::<turkish::Turkish>(variant, position),
        GameKind::Diamond => make::<diamond::Diamond>(variant, position),
        GameKind::Capture => make::<capture::Capture>(variant, position),
    }
}

/// Perft counting every capture path separately (the CLI's `--paths`): `Some` for Turkish
/// draughts, whose published figures (kish) count paths, `None` for the other games.
pub fn perft_paths(game: &dyn AnyGame, depth: u32) -> Option<u64> {
    game.as_any()
        .downcast_ref::<Record<turkish::Turkish>>()
        .map(|record| turkish::perft_paths(record.position(), depth))
}
