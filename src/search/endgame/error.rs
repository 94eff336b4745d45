//! Why a table could not be built, written or read.

use crate::position::SetupError;
use std::path::PathBuf;
use thiserror::Error;

/// Most pieces `damas endgame build` accepts.
pub const MAX_BUILD_PIECES: u32 = 6;

/// Why a table could not be built, written or read.
#[derive(Debug, Error)]
pub enum EndgameError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("not an endgame table file (bad magic)")]
    NotATable,
    #[error("endgame table format version {0} (this build reads another: rebuild the tables)")]
    Version(u16),
    #[error("endgame table of another game (code {found}, expected {expected})")]
    WrongGame { expected: &'static str, found: u8 },
    #[error("endgame table of {found} pieces where {expected} were expected")]
    WrongPieces { expected: u32, found: u32 },
    #[error("endgame table lists other slices than its game and piece count have")]
    Slices,
    #[error("endgame table file is truncated")]
    Truncated,
    #[error("endgame table file has bytes after its checksum")]
    TrailingBytes,
    #[error("endgame table checksum mismatch (corrupt file)")]
    Checksum,
    #[error("slice {0} is needed but not built")]
    MissingSlice(String),
    #[error("slice {0} is too large to index")]
    TooBig(String),
    #[error("a distance of {0} plies does not fit the table format")]
    TooLong(u32),
    #[error("a build thread panicked")]
    WorkerPanicked,
    #[error("the build was stopped")]
    Stopped,
    #[error("{0} has no endgame databases (only english, international and turkish)")]
    NotDraughts(&'static str),
    #[error("piece count {0} out of range (2–{max})", max = MAX_BUILD_PIECES)]
    Pieces(u32),
    #[error(transparent)]
    Setup(#[from] SetupError),
}
