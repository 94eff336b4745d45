//! The SQLite schema (the shared one in SQLite's words), migrated in one IMMEDIATE transaction
//! at open.

use crate::player_store::model::{PlayerStoreError, StoreResult};
use crate::player_store::schema::{self, Dialect};
use rusqlite::{Connection, TransactionBehavior};
use std::sync::LazyLock;

/// The SQLite words of the shared schema.
const SQLITE: Dialect = Dialect {
    serial_key: "INTEGER PRIMARY KEY AUTOINCREMENT",
    integer: "INTEGER",
    real: "REAL",
    session_indexes: "",
};

/// The schema, one step per migration (applied in order, each once).
pub static MIGRATIONS: LazyLock<Vec<String>> = LazyLock::new(|| SQLITE.migrations());

pub(super) fn migrate(connection: &mut Connection) -> StoreResult<()> {
    let failed = |error: rusqlite::Error| PlayerStoreError::Migration(error.to_string());
    let transaction = connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(failed)?;
    transaction
        .execute_batch(&SQLITE.migrations_table())
        .map_err(failed)?;
    let done: i64 = transaction
        .query_row(schema::APPLIED, [], |row| row.get(0))
        .map_err(failed)?;
    for (version, step) in schema::to_apply(&MIGRATIONS, done)? {
        transaction.execute_batch(step).map_err(failed)?;
        transaction
            .execute(schema::RECORD_APPLIED, [version])
            .map_err(failed)?;
    }
    transaction.commit().map_err(failed)
}
