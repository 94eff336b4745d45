//! The SQLite schema: its numbered migrations, applied in order at open, each once.

use crate::player_store::model::{PlayerStoreError, StoreResult};
use rusqlite::{Connection, TransactionBehavior};

/// The schema, one step per migration (applied in order, each once).
pub const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    display_name TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    UNIQUE (issuer, subject)
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL,
    revoked_ms INTEGER
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE used_nonces (
    nonce_hash TEXT PRIMARY KEY,
    expires_ms INTEGER NOT NULL
);
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL,
    rating REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    PRIMARY KEY (account_id, kind)
);
CREATE INDEX ratings_rank ON ratings(kind, rating DESC);
CREATE TABLE rated_games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    white_id INTEGER NOT NULL REFERENCES accounts(id),
    black_id INTEGER NOT NULL REFERENCES accounts(id),
    result TEXT NOT NULL,
    pdn TEXT NOT NULL,
    white_before REAL NOT NULL,
    white_after REAL NOT NULL,
    black_before REAL NOT NULL,
    black_after REAL NOT NULL,
    finished_ms INTEGER NOT NULL
);
CREATE INDEX rated_games_white ON rated_games(white_id, id);
CREATE INDEX rated_games_black ON rated_games(black_id, id);
",
    "
-- Sign-ins under way (server redirect): shared by every instance, so the provider's callback
-- may reach any of them. Keyed by the SHA-256 of the OAuth state.
CREATE TABLE pending_sign_ins (
    state_hash TEXT PRIMARY KEY,
    pkce_verifier TEXT NOT NULL,
    nonce TEXT NOT NULL,
    return_to TEXT NOT NULL,
    display_name TEXT,
    expires_ms INTEGER NOT NULL
);
",
];

pub(super) fn migrate(connection: &mut Connection) -> StoreResult<()> {
    let failed = |error: rusqlite::Error| PlayerStoreError::Migration(error.to_string());
    let transaction = connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(failed)?;
    transaction
        .execute_batch("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
        .map_err(failed)?;
    let done: i64 = transaction
        .query_row(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            [],
            |row| row.get(0),
        )
        .map_err(failed)?;
    if done > MIGRATIONS.len() as i64 {
        return Err(PlayerStoreError::Migration(format!(
            "the database is at schema version {done}, newer than this server's {}",
            MIGRATIONS.len()
        )));
    }
    for (index, step) in MIGRATIONS.iter().enumerate().skip(done as usize) {
        transaction.execute_batch(step).map_err(failed)?;
        transaction
            .execute(
                "INSERT INTO schema_migrations (version) VALUES (?1)",
                [index as i64 + 1],
            )
            .map_err(failed)?;
    }
    transaction.commit().map_err(failed)
}
