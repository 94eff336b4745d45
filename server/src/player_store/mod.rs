//! The store of what outlives rooms: accounts, sessions, ratings and rated games.
//!
//! One seam, [`PlayerStore`], two backends:
//! - [`sqlite`]: the embedded default, one file `DIR/players.sqlite3` under `--data DIR`,
//!   created on first start (WAL journal, full sync).
//! - [`postgres`]: for many instances (`--database postgres://…`), through a connection pool.
//!
//! What does not depend on the SQL dialect is written once, beside the seam: the schema's
//! numbered migrations (`schema`, each backend filling in its column types; applied at start,
//! recorded in `schema_migrations`), the queries (`sql`), reading rows into the store's types
//! (`rows`) and what recording a rated game computes (`rated`). Each backend keeps only its
//! connection, its transactions and locking, and how it reads a column. Both pass one
//! conformance suite (`server/tests/player_store.rs`).
//!
//! ## Recording a rated game (the API for whoever ends rated games)
//!
//! [`PlayerStore::record_rated_game`] takes a [`RatedGame`] — a unique `game_key` (e.g. the room
//! code and game number, so a retried call cannot count a game twice), the [`RatedKind`], the
//! two accounts, the [`GameResult`] and the game's record as PDN text — and in **one
//! transaction** writes the game, both new ratings (Elo, [`crate::ratings`]) and both players'
//! win/draw/loss counts. A crash at any point leaves all of it written or none of it. Call it
//! only for games between two signed-in accounts in rated play that were not aborted.
//! Rating history and the last games are read back from the game rows (each holds both sides'
//! rating before and after), so nothing can disagree with them.

mod model;
pub mod postgres;
mod rated;
mod rows;
mod schema;
mod sql;
pub mod sqlite;

#[cfg(doc)]
use crate::ratings::{GameResult, RatedKind};
pub use model::{
    GameSummary, HistoryPoint, MidUpdateHook, PendingSignIn, PlayerStore, PlayerStoreError,
    RankingEntry, RatedGame, Rating, RatingChange, RecordedGame, Session, StoreResult,
    MAX_GAME_KEY, MAX_PDN_BYTES,
};
use std::path::PathBuf;
use std::sync::Arc;

/// Where the player store lives.
#[derive(Clone, Debug)]
pub enum PlayerStoreConfig {
    /// SQLite in this directory (created if missing).
    Sqlite(PathBuf),
    /// PostgreSQL at this URL.
    Postgres(String),
}

/// Opens (and migrates) the configured store.
pub async fn open(config: &PlayerStoreConfig) -> StoreResult<Arc<dyn PlayerStore>> {
    Ok(match config {
        PlayerStoreConfig::Sqlite(dir) => Arc::new(sqlite::SqliteStore::open_dir(dir).await?),
        PlayerStoreConfig::Postgres(url) => Arc::new(postgres::PostgresStore::connect(url).await?),
    })
}
