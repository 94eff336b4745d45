//! The error every command rejects with, serialised as `{code, message}`: `code` is a stable
//! key the UI translates (the session layer's codes plus the app's own), `message` English detail.
//! A text that does not import (`bad_record`) also carries `line`, `reason` (the problem's code)
//! and `args` (its arguments by name), so the UI words it in the player's language.

use damas::session::{ImportError, ImportProblem, SessionError};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum AppError {
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The saved games or settings could not be written or read.
    #[error("storage: {0}")]
    Storage(String),
    /// The room server could not be started on this device (friends' rooms).
    #[error("hosting rooms: {0}")]
    Host(String),
    /// An imported PDN or record text that does not replay; the message starts `line N:`.
    #[error("line {line}: {problem}")]
    BadRecord { line: usize, problem: ImportProblem },
    /// Building endgame tables failed or was stopped.
    #[error("endgame tables: {0}")]
    Endgame(damas::search::endgame::EndgameError),
    /// The system browser could not be opened (sign-in).
    #[error("opening the browser: {0}")]
    Browser(String),
    /// Another game's endgame tables are being built.
    #[error("the {0} endgame tables are being built")]
    EndgameBusy(&'static str),
}

impl From<ImportError> for AppError {
    fn from(error: ImportError) -> Self {
        match error {
            ImportError::BadText { line, problem } => AppError::BadRecord { line, problem },
            ImportError::Session(error) => AppError::Session(error),
        }
    }
}

impl AppError {
    pub fn code(&self) -> &'static str {
        match self {
            AppError::Session(error) => error.code(),
            AppError::Storage(_) => "storage",
            AppError::BadRecord { .. } => "bad_record",
            AppError::Host(_) => "host_failed",
            AppError::Endgame(damas::search::endgame::EndgameError::Stopped) => "endgame_stopped",
            AppError::Endgame(_) => "endgame_failed",
            AppError::EndgameBusy(_) => "endgame_busy",
            AppError::Browser(_) => "browser_failed",
        }
    }

    pub fn storage(error: impl std::fmt::Display) -> AppError {
        AppError::Storage(error.to_string())
    }

    pub fn host(error: impl std::fmt::Display) -> AppError {
        AppError::Host(error.to_string())
    }

    pub fn bad_input(error: impl std::fmt::Display) -> AppError {
        AppError::Session(SessionError::BadInput(error.to_string()))
    }
}

impl Serialize for AppError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = serializer.serialize_map(None)?;
        fields.serialize_entry("code", self.code())?;
        fields.serialize_entry("message", &self.to_string())?;
        if let AppError::BadRecord { line, problem } = self {
            fields.serialize_entry("line", line)?;
            fields.serialize_entry("reason", problem.code())?;
            let args: serde_json::Map<String, serde_json::Value> = problem
                .args()
                .into_iter()
                .map(|(name, value)| (name.to_string(), serde_json::Value::String(value)))
                .collect();
            fields.serialize_entry("args", &args)?;
        }
        fields.end()
    }
}

/// A message for the user that is not the reply to a command (shown once at start-up).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    pub code: &'static str,
    pub message: String,
}
