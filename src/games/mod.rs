//! The five games, one module each, all behind [`crate::position::Position`].

use crate::position::{GameKind, Position, SetupError, Variant};
use crate::record::{AnyGame, Record};

/// A new game of `variant`, from its start or from a position text.
#[allow(unused_variables, clippy::match_single_binding)]
pub fn new_game(variant: Variant, position: Option<&str>) -> Result<Box<dyn AnyGame>, SetupError> {
    #[allow(dead_code)]
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
        // Each game module adds its arm: GameKind::English => make::<english::English>(variant, position),
        kind => Err(SetupError::UnknownGame(kind.as_str().to_string())),
    }
}

/// Perft counting capture paths rather than unique moves, where a game offers it (Turkish, to
/// compare with engines that count duplicate paths).
pub fn perft_paths(game: &dyn AnyGame, depth: u32) -> Option<u64> {
    let _ = (game, depth);
    None
}
