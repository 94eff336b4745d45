//! The schema, written once: numbered migrations in which each backend's dialect fills in its
//! column types, applied in order at start, each once, recorded in `schema_migrations`.

use super::model::{PlayerStoreError, StoreResult};

/// What differs between the dialects' schemas.
pub(crate) struct Dialect {
    /// An auto-numbered primary key.
    pub serial_key: &'static str,
    pub integer: &'static str,
    pub real: &'static str,
    /// Indexes only this backend keeps.
    pub session_indexes: &'static str,
}

/// The migrations, one step each, `{SERIAL_KEY}`, `{INTEGER}`, `{REAL}` and `{SESSION_INDEXES}`
/// standing for the dialect's words.
const STEPS: &[&str] = &[
    "
CREATE TABLE accounts (
    id {SERIAL_KEY},
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    display_name TEXT NOT NULL,
    created_ms {INTEGER} NOT NULL,
    UNIQUE (issuer, subject)
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id {INTEGER} NOT NULL REFERENCES accounts(id),
    created_ms {INTEGER} NOT NULL,
    expires_ms {INTEGER} NOT NULL,
    revoked_ms {INTEGER}
);
CREATE INDEX sessions_account ON sessions(account_id);{SESSION_INDEXES}
CREATE TABLE used_nonces (
    nonce_hash TEXT PRIMARY KEY,
    expires_ms {INTEGER} NOT NULL
);
CREATE TABLE ratings (
    account_id {INTEGER} NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL,
    rating {REAL} NOT NULL,
    games {INTEGER} NOT NULL,
    wins {INTEGER} NOT NULL,
    draws {INTEGER} NOT NULL,
    losses {INTEGER} NOT NULL,
    PRIMARY KEY (account_id, kind)
);
CREATE INDEX ratings_rank ON ratings(kind, rating DESC);
CREATE TABLE rated_games (
    id {SERIAL_KEY},
    game_key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    white_id {INTEGER} NOT NULL REFERENCES accounts(id),
    black_id {INTEGER} NOT NULL REFERENCES accounts(id),
    result TEXT NOT NULL,
    pdn TEXT NOT NULL,
    white_before {REAL} NOT NULL,
    white_after {REAL} NOT NULL,
    black_before {REAL} NOT NULL,
    black_after {REAL} NOT NULL,
    finished_ms {INTEGER} NOT NULL
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
    expires_ms {INTEGER} NOT NULL
);
",
];

impl Dialect {
    /// The migrations in this dialect.
    pub fn migrations(&self) -> Vec<String> {
        STEPS.iter().map(|step| self.fill(step)).collect()
    }

    /// The table that records the applied migrations.
    pub fn migrations_table(&self) -> String {
        self.fill("CREATE TABLE IF NOT EXISTS schema_migrations (version {INTEGER} PRIMARY KEY)")
    }

    fn fill(&self, text: &str) -> String {
        text.replace("{SERIAL_KEY}", self.serial_key)
            .replace("{INTEGER}", self.integer)
            .replace("{REAL}", self.real)
            .replace("{SESSION_INDEXES}", self.session_indexes)
    }
}

pub(crate) const APPLIED: &str = "SELECT COALESCE(MAX(version), 0) FROM schema_migrations";
pub(crate) const RECORD_APPLIED: &str = "INSERT INTO schema_migrations (version) VALUES ($1)";

/// The migrations a database at schema version `done` lacks, each with its version; an error
/// when the database is newer than this server.
pub(crate) fn to_apply(
    migrations: &[String],
    done: i64,
) -> StoreResult<impl Iterator<Item = (i64, &str)>> {
    if done > migrations.len() as i64 {
        return Err(PlayerStoreError::Migration(format!(
            "the database is at schema version {done}, newer than this server's {}",
            migrations.len()
        )));
    }
    Ok(migrations
        .iter()
        .enumerate()
        .skip(done.max(0) as usize)
        .map(|(index, step)| (index as i64 + 1, step.as_str())))
}
