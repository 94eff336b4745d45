//! SQLite's rows read column by column for the shared row mapping, and the two ways a query's
//! answer is read: all its rows, or its first one.

use crate::player_store::model::{PlayerStoreError, StoreResult};
use crate::player_store::rows::{bad_row, Columns};
use rusqlite::{Connection, Params, Row};

/// A SQLite failure, as the store reports it.
pub(super) fn backend(error: rusqlite::Error) -> PlayerStoreError {
    PlayerStoreError::Backend(error.to_string())
}

impl Columns for Row<'_> {
    fn int(&self, index: usize) -> StoreResult<i64> {
        self.get(index).map_err(backend)
    }

    fn real(&self, index: usize) -> StoreResult<f64> {
        self.get(index).map_err(backend)
    }

    fn text(&self, index: usize) -> StoreResult<String> {
        self.get(index).map_err(backend)
    }

    fn maybe_text(&self, index: usize) -> StoreResult<Option<String>> {
        self.get(index).map_err(backend)
    }
}

/// Every row of `query`, each read by `read`.
pub(super) fn all<T>(
    connection: &Connection,
    query: &str,
    params: impl Params,
    read: impl Fn(&Row<'_>) -> StoreResult<T>,
) -> StoreResult<Vec<T>> {
    let mut statement = connection.prepare(query).map_err(backend)?;
    let mut rows = statement.query(params).map_err(backend)?;
    let mut read_rows = Vec::new();
    while let Some(row) = rows.next().map_err(backend)? {
        read_rows.push(read(row)?);
    }
    Ok(read_rows)
}

/// The first row of `query` read by `read`, if there is one.
pub(super) fn first<T>(
    connection: &Connection,
    query: &str,
    params: impl Params,
    read: impl Fn(&Row<'_>) -> StoreResult<T>,
) -> StoreResult<Option<T>> {
    let mut statement = connection.prepare(query).map_err(backend)?;
    let mut rows = statement.query(params).map_err(backend)?;
    rows.next().map_err(backend)?.map(read).transpose()
}

/// The one row `query` must answer.
pub(super) fn one<T>(
    connection: &Connection,
    query: &str,
    params: impl Params,
    read: impl Fn(&Row<'_>) -> StoreResult<T>,
) -> StoreResult<T> {
    first(connection, query, params, read)?.ok_or_else(|| bad_row("no row"))
}
