//! The PostgreSQL schema: its numbered migrations, applied in order under an advisory lock.

use crate::player_store::model::{PlayerStoreError, StoreResult};

/// The advisory lock key held while migrating ("damas" in ASCII).
const MIGRATION_LOCK: i64 = 0x64_61_6d_61_73;

pub const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE accounts (
    id BIGSERIAL PRIMARY KEY,
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    display_name TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    UNIQUE (issuer, subject)
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    revoked_ms BIGINT
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE INDEX sessions_expiry ON sessions(expires_ms);
CREATE TABLE used_nonces (
    nonce_hash TEXT PRIMARY KEY,
    expires_ms BIGINT NOT NULL
);
CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    PRIMARY KEY (account_id, kind)
);
CREATE INDEX ratings_rank ON ratings(kind, rating DESC);
CREATE TABLE rated_games (
    id BIGSERIAL PRIMARY KEY,
    game_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    white_id BIGINT NOT NULL REFERENCES accounts(id),
    black_id BIGINT NOT NULL REFERENCES accounts(id),
    result TEXT NOT NULL,
    pdn TEXT NOT NULL,
    white_before DOUBLE PRECISION NOT NULL,
    white_after DOUBLE PRECISION NOT NULL,
    black_before DOUBLE PRECISION NOT NULL,
    black_after DOUBLE PRECISION NOT NULL,
    finished_ms BIGINT NOT NULL
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
    expires_ms BIGINT NOT NULL
);
",
];

/// Applies the migrations `client`'s database lacks (instances starting together wait on the lock).
pub(super) async fn migrate(client: &mut deadpool_postgres::Object) -> StoreResult<()> {
    let failed = |error: tokio_postgres::Error| PlayerStoreError::Migration(error.to_string());
    let transaction = client.transaction().await.map_err(failed)?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(failed)?;
    transaction
        .batch_execute("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)")
        .await
        .map_err(failed)?;
    let done: i64 = transaction
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            &[],
        )
        .await
        .map_err(failed)?
        .get(0);
    if done > MIGRATIONS.len() as i64 {
        return Err(PlayerStoreError::Migration(format!(
            "the database is at schema version {done}, newer than this server's {}",
            MIGRATIONS.len()
        )));
    }
    for (index, step) in MIGRATIONS.iter().enumerate().skip(done as usize) {
        transaction.batch_execute(step).await.map_err(failed)?;
        transaction
            .execute(
                "INSERT INTO schema_migrations (version) VALUES ($1)",
                &[&(index as i64 + 1)],
            )
            .await
            .map_err(failed)?;
    }
    transaction.commit().await.map_err(failed)
}
