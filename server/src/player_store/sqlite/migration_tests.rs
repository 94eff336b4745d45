//! A database file of an older schema is migrated in place when the store opens it.

use super::schema::MIGRATIONS;
use super::{SqliteStore, FILE_NAME};
use crate::player_store::model::{PendingSignIn, PlayerStore};
use rusqlite::Connection;

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
