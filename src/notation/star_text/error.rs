//! What can be wrong with a star position text's syntax (its own file, so that the setup error
//! that wraps it needs nothing else of the reader).

use thiserror::Error;

/// A star position text that does not read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StarTextError {
    #[error("empty position text")]
    Empty,
    #[error("the first field must be <game>:<players>[:long], found '{0}'")]
    Header(String),
    #[error("the board must have 17 rows separated by '/', found {0}")]
    RowCount(usize),
    #[error("row F{row} must hold {expected} holes, found {found}")]
    RowLength {
        row: usize,
        expected: usize,
        found: usize,
    },
    #[error("unexpected '{symbol}' in row F{row}")]
    Symbol { row: usize, symbol: char },
    #[error("missing field: {0}")]
    Missing(&'static str),
    #[error("unexpected extra field '{0}'")]
    Extra(String),
    #[error("bad {field} '{value}'")]
    Field { field: &'static str, value: String },
    #[error("the text is for {text} but the game asked for is {asked}")]
    VariantMismatch { text: String, asked: String },
}
