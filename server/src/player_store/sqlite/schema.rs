//! The SQLite schema (the shared one in SQLite's words), migrated in one IMMEDIATE transaction
//! at open.

use crate::player_store::schema::{self, Dialect};
use crate::player_store::{PlayerStoreError, StoreResult};
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::player_store::sqlite::{SqliteStore, FILE_NAME};
    use crate::player_store::{PendingSignIn, PlayerStore};
    #[tokio::test]
    async fn a_database_of_an_older_schema_is_migrated_in_place() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(FILE_NAME);
        {
            // The file as the first release left it: schema 1 and an account.
            let connection = Connection::open(&path).expect("open");
            connection.execute_batch(&MIGRATIONS[0]).expect("schema 1");
            connection
                .execute_batch(
                    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY); \
                     INSERT INTO schema_migrations VALUES (1); \
                     INSERT INTO accounts (issuer, subject, display_name, created_ms) \
                     VALUES ('https://issuer.test', 'ana', 'Ana', 0);",
                )
                .expect("data");
        }
        let store = SqliteStore::open_file(&path).await.expect("migrates");
        let ana = store
            .sign_in("https://issuer.test", "ana", "other", 1)
            .await
            .expect("sign in");
        assert_eq!(
            ana.display_name, "Ana",
            "the account survived the migration"
        );
        let pending = PendingSignIn {
            pkce_verifier: "v".into(),
            nonce: "n".into(),
            return_to: "web".into(),
            display_name: None,
            expires_ms: 10,
        };
        store
            .put_pending_sign_in("s", &pending, 0)
            .await
            .expect("the new table is there");
        let versions: Vec<i64> = {
            let connection = Connection::open(&path).expect("open");
            let mut statement = connection
                .prepare("SELECT version FROM schema_migrations ORDER BY version")
                .expect("prepare");
            let rows = statement.query_map([], |row| row.get(0)).expect("query");
            rows.collect::<Result<_, _>>().expect("rows")
        };
        assert_eq!(versions, [1, 2]);
    }
}
