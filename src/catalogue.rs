//! The set of games: the one place that turns a [`GameKind`] into a game. Everything above it
//! (the session layer, the CLI, the app) holds games as `Box<dyn Playable>` and asks the trait,
//! so adding a game means one module under `games/`, its evaluation under `search/eval/` and
//! one line here.

use crate::games::{capture, diamond, english, international, turkish};
use crate::position::{GameKind, SetupError, Variant};
use crate::record::Record;
use crate::search::searchable::Searchable;
use crate::search::Playable;

/// A new game of `variant`, from its start or from a position text.
pub fn new_game(variant: Variant, position: Option<&str>) -> Result<Box<dyn Playable>, SetupError> {
    fn make<P: Searchable>(
        variant: Variant,
        text: Option<&str>,
    ) -> Result<Box<dyn Playable>, SetupError> {
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
