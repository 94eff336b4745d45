//! The PostgreSQL schema (the shared one in PostgreSQL's words), migrated under an advisory lock.

use crate::player_store::model::{PlayerStoreError, StoreResult};
use crate::player_store::schema::{self, Dialect};
use std::sync::LazyLock;

/// The advisory lock key held while migrating ("damas" in ASCII).
const MIGRATION_LOCK: i64 = 0x64_61_6d_61_73;

/// The PostgreSQL words of the shared schema.
const POSTGRES: Dialect = Dialect {
    serial_key: "BIGSERIAL PRIMARY KEY",
    integer: "BIGINT",
    real: "DOUBLE PRECISION",
    session_indexes: "\nCREATE INDEX sessions_expiry ON sessions(expires_ms);",
};

/// The schema, one step per migration (applied in order, each once).
pub static MIGRATIONS: LazyLock<Vec<String>> = LazyLock::new(|| POSTGRES.migrations());

/// Applies the migrations `client`'s database lacks (instances starting together wait on the lock).
pub(super) async fn migrate(client: &mut deadpool_postgres::Object) -> StoreResult<()> {
    let failed = |error: tokio_postgres::Error| PlayerStoreError::Migration(error.to_string());
    let transaction = client.transaction().await.map_err(failed)?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(failed)?;
    transaction
        .batch_execute(&POSTGRES.migrations_table())
        .await
        .map_err(failed)?;
    let done: i64 = transaction
        .query_one(schema::APPLIED, &[])
        .await
        .map_err(failed)?
        .get(0);
    for (version, step) in schema::to_apply(&MIGRATIONS, done)? {
        transaction.batch_execute(step).await.map_err(failed)?;
        transaction
            .execute(schema::RECORD_APPLIED, &[&version])
            .await
            .map_err(failed)?;
    }
    transaction.commit().await.map_err(failed)
}
