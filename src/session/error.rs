//! The session layer's typed errors. Each has a stable snake_case [`SessionError::code`], the key
//! the app's UI translates (see `docs/commands.md`); the `Display` text is English detail.

use crate::position::{MoveError, SetupError};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SessionError {
    #[error("unknown game '{0}'")]
    UnknownGame(String),
    #[error("{0}")]
    BadPlayers(String),
    #[error("{0}")]
    IllegalMove(MoveError),
    #[error("it is not a human player's turn: {0} is to move")]
    NotYourTurn(String),
    #[error("the game is over")]
    GameOver,
    #[error("no game with id '{0}'")]
    NoSuchGame(String),
    #[error("{0}")]
    BadLevel(String),
    #[error("the CPU move was cancelled (the game changed meanwhile)")]
    Cancelled,
    #[error("there is no move to undo")]
    NothingToUndo,
    #[error("there is no move to redo")]
    NothingToRedo,
    #[error("{0}")]
    BadInput(String),
    /// A saved game that does not replay: unknown version, bad setup, an illegal move …
    #[error("saved game rejected: {0}")]
    BadSave(String),
}

impl SessionError {
    /// The stable key the UI translates.
    pub fn code(&self) -> &'static str {
        match self {
            SessionError::UnknownGame(_) => "unknown_game",
            SessionError::BadPlayers(_) => "bad_players",
            SessionError::IllegalMove(_) => "illegal_move",
            SessionError::NotYourTurn(_) => "not_your_turn",
            SessionError::GameOver => "game_over",
            SessionError::NoSuchGame(_) => "no_such_game",
            SessionError::BadLevel(_) => "bad_level",
            SessionError::Cancelled => "cancelled",
            SessionError::NothingToUndo => "nothing_to_undo",
            SessionError::NothingToRedo => "nothing_to_redo",
            SessionError::BadInput(_) => "bad_input",
            SessionError::BadSave(_) => "bad_save",
        }
    }
}

impl From<SetupError> for SessionError {
    fn from(error: SetupError) -> Self {
        match error {
            SetupError::UnknownGame(name) => SessionError::UnknownGame(name),
            SetupError::PlayerCount { .. } => SessionError::BadPlayers(error.to_string()),
            SetupError::LongJumpNotAvailable(_) | SetupError::Position(_) => {
                SessionError::BadInput(error.to_string())
            }
        }
    }
}

impl From<MoveError> for SessionError {
    fn from(error: MoveError) -> Self {
        match error {
            MoveError::GameOver => SessionError::GameOver,
            other => SessionError::IllegalMove(other),
        }
    }
}
