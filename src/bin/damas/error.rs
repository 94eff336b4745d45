//! What can go wrong in a `damas` command: each is one line on stderr and exit code 2.

use damas::search::endgame::EndgameError;

#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    #[error(transparent)]
    Setup(#[from] damas::SetupError),
    #[error("move {index} ('{text}'): {source}")]
    Move {
        index: usize,
        text: String,
        source: damas::MoveError,
    },
    #[error("unknown level '{0}' (expected easy, medium, hard or expert)")]
    Level(String),
    #[error("the game is over: there is no move to choose")]
    NoMove,
    #[error("--paths is only available for turkish")]
    PathsUnavailable,
    #[error(transparent)]
    Endgame(#[from] EndgameError),
    #[error("no cache directory: set --dir, XDG_DATA_HOME or HOME")]
    NoDirectory,
    #[error("no endgame table for {0} in {1}")]
    NoTables(String, String),
    #[error("could not write output: {0}")]
    Output(#[from] std::io::Error),
}
