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

#[cfg(test)]
mod tests {
    use super::new_game;
    use crate::notation::fen::FenError;
    use crate::notation::star_text::StarTextError;
    use crate::position::{GameKind, PositionError, SetupError, Variant};

    /// A refused position text: the typed error wraps the reader's or names the refused square,
    /// and its text (what the CLI prints and the app's `bad_input` carries) reads as before the
    /// errors were typed.
    #[test]
    fn refused_positions_give_typed_errors_with_their_old_text() {
        let cases = [
            (
                GameKind::English,
                "B:W33:B1",
                PositionError::NotOnBoard {
                    square: "33".into(),
                    squares: 32,
                },
                "square '33' is not on this board (1-32)",
            ),
            (
                GameKind::International,
                "W:W31,31:B1",
                PositionError::ListedTwice("31".into()),
                "square 31 is listed twice",
            ),
            // White's men crown on 1-5 in International.
            (
                GameKind::International,
                "W:W3:B40",
                PositionError::ManOnCrowningRow("3".into()),
                "a man on square 3 stands on its crowning row",
            ),
            (
                GameKind::English,
                "X:W1:B2",
                PositionError::Fen(FenError::SideToMove("X".into())),
                "side to move must be W or B, found 'X'",
            ),
            (
                GameKind::Turkish,
                "W:Wa2,a2:Ba7",
                PositionError::GivenTwice("a2".into()),
                "square a2 is given twice",
            ),
            (
                GameKind::Turkish,
                "W:Wa8:Ba7",
                PositionError::ManOnLastRow("a8".into()),
                "a man cannot stand on its last row (a8)",
            ),
            (
                GameKind::Diamond,
                "",
                PositionError::StarText(StarTextError::Empty),
                "empty position text",
            ),
        ];
        for (kind, text, expected, shown) in cases {
            let error = new_game(Variant::standard(kind), Some(text)).expect_err(text);
            assert_eq!(error, SetupError::Position(expected), "{text}");
            assert_eq!(error.to_string(), format!("invalid position: {shown}"));
        }
    }
}
