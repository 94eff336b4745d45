//! The set of games: the one place that turns a [`GameKind`] into a game. Everything above it
//! (the session layer, the CLI, the app) holds games as `Box<dyn Playable>` and asks the trait,
//! so adding a game means one module under `games/`, its evaluation under `search/eval/` and
//! one line here.

use crate::describe::Describe;
use crate::games::{capture, diamond, english, international, turkish};
use crate::position::{GameKind, SetupError, Variant};
use crate::record::Record;
use crate::search::searchable::Searchable;
use crate::search::Playable;

/// Work done on a game through its concrete type, whichever game it is: generic code over the
/// rules ([`Searchable`], a [`crate::position::Position`]) and their presentation ([`Describe`])
/// runs on any game through [`for_game`], the one `match` on the kind. The CLI's perft is one.
pub trait GameTask {
    type Output;
    fn run<P: Searchable + Describe>(self) -> Self::Output;
}

/// Runs `task` on the game `kind` names.
pub fn for_game<T: GameTask>(kind: GameKind, task: T) -> T::Output {
    match kind {
        GameKind::English => task.run::<english::English>(),
        GameKind::International => task.run::<international::International>(),
        GameKind::Turkish => task.run::<turkish::Turkish>(),
        GameKind::Diamond => task.run::<diamond::Diamond>(),
        GameKind::Capture => task.run::<capture::Capture>(),
    }
}

/// A new game of `variant`, from its start or from a position text.
pub fn new_game(variant: Variant, position: Option<&str>) -> Result<Box<dyn Playable>, SetupError> {
    for_game(variant.kind, NewGame { variant, position })
}

struct NewGame<'a> {
    variant: Variant,
    position: Option<&'a str>,
}

impl GameTask for NewGame<'_> {
    type Output = Result<Box<dyn Playable>, SetupError>;

    fn run<P: Searchable + Describe>(self) -> Self::Output {
        let start = match self.position {
            Some(text) => P::from_text(self.variant, text)?,
            None => P::start(self.variant)?,
        };
        Ok(Box::new(Record::new(start)))
    }
}
