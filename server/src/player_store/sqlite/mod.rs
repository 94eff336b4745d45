//! The embedded player store: one SQLite file, reached through one connection on tokio's
//! blocking threads. WAL journal with `synchronous = FULL`: a committed rated game survives a
//! crash of the process or the machine; an interrupted one leaves nothing.

#[cfg(test)]
mod migration_tests;
mod rows;
mod schema;

pub use schema::MIGRATIONS;

use super::model::{
    clamp_limit, sql, tallies, GameSummary, HistoryPoint, MidUpdateHook, PendingSignIn,
    PlayerStore, PlayerStoreError, RankingEntry, RatedGame, Rating, RatingChange, RecordedGame,
    Session, StoreResult,
};
use crate::accounts::{Account, AccountId};
use crate::ratings::{self, RatedKind, Standing};
use async_trait::async_trait;
use rows::{kind_of, ranking_row, rating_row, result_of};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use schema::migrate;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The file under `--data DIR`.
pub const FILE_NAME: &str = "players.sqlite3";

pub struct SqliteStore {
    connection: Arc<Mutex<Connection>>,
    path: PathBuf,
    mid_update: Option<MidUpdateHook>,
}

fn backend(error: rusqlite::Error) -> PlayerStoreError {
    PlayerStoreError::Backend(error.to_string())
}

impl SqliteStore {
    /// Opens `DIR/players.sqlite3`, creating the directory and the file on first start, and
    /// applies the migrations it lacks.
    pub async fn open_dir(dir: &Path) -> StoreResult<SqliteStore> {
        std::fs::create_dir_all(dir).map_err(|error| {
            PlayerStoreError::Backend(format!("cannot create {}: {error}", dir.display()))
        })?;
        SqliteStore::open_file(&dir.join(FILE_NAME)).await
    }

    pub async fn open_file(path: &Path) -> StoreResult<SqliteStore> {
        let owned = path.to_path_buf();
        let connection = tokio::task::spawn_blocking(move || -> StoreResult<Connection> {
            let mut connection = Connection::open(&owned).map_err(backend)?;
            connection
                .execute_batch(
                    "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                     PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
                )
                .map_err(backend)?;
            migrate(&mut connection)?;
            Ok(connection)
        })
        .await
        .map_err(|error| PlayerStoreError::Backend(error.to_string()))??;
        Ok(SqliteStore {
            connection: Arc::new(Mutex::new(connection)),
            path: path.to_path_buf(),
            mid_update: None,
        })
    }

    /// Sets the hook called in the middle of a rating update (crash tests only).
    pub fn with_mid_update_hook(mut self, hook: MidUpdateHook) -> SqliteStore {
        self.mid_update = Some(hook);
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `work` on the connection on a blocking thread.
    async fn with<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Connection) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        let connection = Arc::clone(&self.connection);
        tokio::task::spawn_blocking(move || {
            // A panic while holding the lock cannot leave a half transaction (rusqlite rolls
            // back on drop), so a poisoned lock is still a usable connection.
            let mut guard = connection
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            work(&mut guard)
        })
        .await
        .map_err(|error| PlayerStoreError::Backend(error.to_string()))?
    }
}

fn standing(
    transaction: &rusqlite::Transaction<'_>,
    account: AccountId,
    kind: RatedKind,
) -> StoreResult<Standing> {
    transaction
        .query_row(sql::RATING, params![account.0, kind.key()], |row| {
            Ok(Standing {
                rating: row.get(0)?,
                games: row.get(1)?,
            })
        })
        .optional()
        .map_err(backend)
        .map(|found| found.unwrap_or(Standing::NEW))
}

fn account_exists(transaction: &rusqlite::Transaction<'_>, id: AccountId) -> StoreResult<()> {
    transaction
        .query_row("SELECT 1 FROM accounts WHERE id = $1", [id.0], |_| Ok(()))
        .optional()
        .map_err(backend)?
        .ok_or(PlayerStoreError::NoSuchAccount(id))
}

#[async_trait]
impl PlayerStore for SqliteStore {
    async fn ping(&self) -> StoreResult<()> {
        self.with(|connection| {
            connection
                .query_row("SELECT 1", [], |_| Ok(()))
                .map_err(backend)
        })
        .await
    }

    async fn sign_in(
        &self,
        issuer: &str,
        subject: &str,
        display_name: &str,
        now_ms: i64,
    ) -> StoreResult<Account> {
        let (issuer, subject, name) = (
            issuer.to_owned(),
            subject.to_owned(),
            display_name.to_owned(),
        );
        self.with(move |connection| {
            let transaction = connection
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            transaction
                .execute(
                    "INSERT INTO accounts (issuer, subject, display_name, created_ms) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT (issuer, subject) DO NOTHING",
                    params![issuer, subject, name, now_ms],
                )
                .map_err(backend)?;
            let account = transaction
                .query_row(
                    "SELECT id, issuer, subject, display_name FROM accounts \
                     WHERE issuer = $1 AND subject = $2",
                    params![issuer, subject],
                    |row| {
                        Ok(Account {
                            id: AccountId(row.get(0)?),
                            issuer: row.get(1)?,
                            subject: row.get(2)?,
                            display_name: row.get(3)?,
                        })
                    },
                )
                .map_err(backend)?;
            transaction.commit().map_err(backend)?;
            Ok(account)
        })
        .await
    }

    async fn account(&self, id: AccountId) -> StoreResult<Option<Account>> {
        self.with(move |connection| {
            connection
                .query_row(sql::ACCOUNT, [id.0], |row| {
                    Ok(Account {
                        id: AccountId(row.get(0)?),
                        issuer: row.get(1)?,
                        subject: row.get(2)?,
                        display_name: row.get(3)?,
                    })
                })
                .optional()
                .map_err(backend)
        })
        .await
    }

    async fn rename(&self, id: AccountId, display_name: &str) -> StoreResult<()> {
        let name = display_name.to_owned();
        self.with(move |connection| {
            let changed = connection
                .execute(
                    "UPDATE accounts SET display_name = $1 WHERE id = $2",
                    params![name, id.0],
                )
                .map_err(backend)?;
            if changed == 0 {
                return Err(PlayerStoreError::NoSuchAccount(id));
            }
            Ok(())
        })
        .await
    }

    async fn create_session(
        &self,
        account: AccountId,
        token_hash: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()> {
        let hash = token_hash.to_owned();
        self.with(move |connection| {
            let transaction = connection
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            account_exists(&transaction, account)?;
            // Expired sessions are swept as new ones are made.
            transaction
                .execute("DELETE FROM sessions WHERE expires_ms <= $1", [now_ms])
                .map_err(backend)?;
            transaction
                .execute(
                    "INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) \
                     VALUES ($1, $2, $3, $4)",
                    params![hash, account.0, now_ms, expires_ms],
                )
                .map_err(backend)?;
            transaction.commit().map_err(backend)
        })
        .await
    }

    async fn session(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<Session>> {
        let hash = token_hash.to_owned();
        self.with(move |connection| {
            connection
                .query_row(sql::SESSION, params![hash, now_ms], |row| {
                    Ok(Session {
                        account: Account {
                            id: AccountId(row.get(0)?),
                            issuer: row.get(1)?,
                            subject: row.get(2)?,
                            display_name: row.get(3)?,
                        },
                        expires_ms: row.get(4)?,
                    })
                })
                .optional()
                .map_err(backend)
        })
        .await
    }

    async fn revoke_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<bool> {
        let hash = token_hash.to_owned();
        self.with(move |connection| {
            connection
                .execute(sql::REVOKE, params![now_ms, hash])
                .map(|changed| changed > 0)
                .map_err(backend)
        })
        .await
    }

    async fn use_nonce(&self, nonce_hash: &str, now_ms: i64, expires_ms: i64) -> StoreResult<bool> {
        let hash = nonce_hash.to_owned();
        self.with(move |connection| {
            let transaction = connection
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            transaction
                .execute("DELETE FROM used_nonces WHERE expires_ms <= $1", [now_ms])
                .map_err(backend)?;
            let fresh = transaction
                .execute(
                    "INSERT INTO used_nonces (nonce_hash, expires_ms) VALUES ($1, $2) \
                     ON CONFLICT (nonce_hash) DO NOTHING",
                    params![hash, expires_ms],
                )
                .map_err(backend)?
                > 0;
            transaction.commit().map_err(backend)?;
            Ok(fresh)
        })
        .await
    }

    async fn put_pending_sign_in(
        &self,
        state_hash: &str,
        pending: &PendingSignIn,
        now_ms: i64,
    ) -> StoreResult<()> {
        let (hash, pending) = (state_hash.to_owned(), pending.clone());
        self.with(move |connection| {
            let transaction = connection
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            transaction
                .execute(sql::SWEEP_PENDING, [now_ms])
                .map_err(backend)?;
            transaction
                .execute(
                    sql::PUT_PENDING,
                    params![
                        hash,
                        pending.pkce_verifier,
                        pending.nonce,
                        pending.return_to,
                        pending.display_name,
                        pending.expires_ms
                    ],
                )
                .map_err(backend)?;
            transaction.commit().map_err(backend)
        })
        .await
    }

    async fn take_pending_sign_in(
        &self,
        state_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<PendingSignIn>> {
        let hash = state_hash.to_owned();
        self.with(move |connection| {
            let taken = connection
                .query_row(sql::TAKE_PENDING, [hash], |row| {
                    Ok(PendingSignIn {
                        pkce_verifier: row.get(0)?,
                        nonce: row.get(1)?,
                        return_to: row.get(2)?,
                        display_name: row.get(3)?,
                        expires_ms: row.get(4)?,
                    })
                })
                .optional()
                .map_err(backend)?;
            Ok(taken.filter(|pending| pending.expires_ms > now_ms))
        })
        .await
    }

    async fn record_rated_game(&self, game: &RatedGame) -> StoreResult<RecordedGame> {
        game.validate()?;
        let game = game.clone();
        let hook = self.mid_update.clone();
        self.with(move |connection| {
            // IMMEDIATE: the write lock is taken before the ratings are read, so two games of
            // the same player cannot both start from the same rating.
            let transaction = connection
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            account_exists(&transaction, game.white)?;
            account_exists(&transaction, game.black)?;
            let seen = transaction
                .query_row(
                    "SELECT 1 FROM rated_games WHERE game_key = $1",
                    [&game.game_key],
                    |_| Ok(()),
                )
                .optional()
                .map_err(backend)?;
            if seen.is_some() {
                return Err(PlayerStoreError::AlreadyRecorded(game.game_key));
            }
            let white = standing(&transaction, game.white, game.kind)?;
            let black = standing(&transaction, game.black, game.kind)?;
            let (white_after, black_after) = ratings::rate(white, black, game.result);
            let game_id: i64 = transaction
                .query_row(
                    sql::INSERT_GAME,
                    params![
                        game.game_key,
                        game.kind.key(),
                        game.white.0,
                        game.black.0,
                        game.result.key(),
                        game.pdn,
                        white.rating,
                        white_after,
                        black.rating,
                        black_after,
                        game.finished_ms
                    ],
                    |row| row.get(0),
                )
                .map_err(backend)?;
            let (white_tally, black_tally) = tallies(game.result);
            for (account, after, tally, side) in [
                (game.white, white_after, white_tally, 0),
                (game.black, black_after, black_tally, 1),
            ] {
                transaction
                    .execute(
                        sql::UPSERT_RATING,
                        params![
                            account.0,
                            game.kind.key(),
                            after,
                            tally[0],
                            tally[1],
                            tally[2]
                        ],
                    )
                    .map_err(backend)?;
                if side == 0 {
                    if let Some(hook) = &hook {
                        hook();
                    }
                }
            }
            transaction.commit().map_err(backend)?;
            Ok(RecordedGame {
                game_id,
                white: RatingChange {
                    account: game.white,
                    before: white.rating,
                    after: white_after,
                    games: white.games + 1,
                },
                black: RatingChange {
                    account: game.black,
                    before: black.rating,
                    after: black_after,
                    games: black.games + 1,
                },
            })
        })
        .await
    }

    async fn rating(&self, account: AccountId, kind: RatedKind) -> StoreResult<Rating> {
        self.with(move |connection| {
            connection
                .query_row(sql::RATING, params![account.0, kind.key()], |row| {
                    rating_row(kind, row, 0)
                })
                .optional()
                .map_err(backend)
                .map(|found| found.unwrap_or_else(|| Rating::new_player(kind)))
        })
        .await
    }

    async fn ratings(&self, account: AccountId) -> StoreResult<Vec<Rating>> {
        self.with(move |connection| {
            let mut statement = connection.prepare(sql::RATINGS).map_err(backend)?;
            let rows = statement
                .query_map([account.0], |row| rating_row(kind_of(row.get(0)?)?, row, 1))
                .map_err(backend)?;
            rows.collect::<rusqlite::Result<Vec<_>>>().map_err(backend)
        })
        .await
    }

    async fn ranking(&self, kind: RatedKind, limit: u32) -> StoreResult<Vec<RankingEntry>> {
        self.with(move |connection| {
            let mut statement = connection.prepare(sql::RANKING).map_err(backend)?;
            let rows = statement
                .query_map(params![kind.key(), clamp_limit(limit)], ranking_row)
                .map_err(backend)?;
            rows.collect::<rusqlite::Result<Vec<_>>>().map_err(backend)
        })
        .await
    }

    async fn place(
        &self,
        account: AccountId,
        kind: RatedKind,
    ) -> StoreResult<Option<RankingEntry>> {
        self.with(move |connection| {
            connection
                .query_row(sql::PLACE, params![account.0, kind.key()], ranking_row)
                .optional()
                .map_err(backend)
        })
        .await
    }

    async fn rating_history(
        &self,
        account: AccountId,
        kind: RatedKind,
        limit: u32,
    ) -> StoreResult<Vec<HistoryPoint>> {
        self.with(move |connection| {
            let mut statement = connection.prepare(sql::HISTORY).map_err(backend)?;
            let rows = statement
                .query_map(params![account.0, kind.key(), clamp_limit(limit)], |row| {
                    Ok(HistoryPoint {
                        game_id: row.get(0)?,
                        finished_ms: row.get(1)?,
                        rating: row.get(2)?,
                    })
                })
                .map_err(backend)?;
            let mut points = rows
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(backend)?;
            points.reverse();
            Ok(points)
        })
        .await
    }

    async fn last_games(&self, account: AccountId, limit: u32) -> StoreResult<Vec<GameSummary>> {
        self.with(move |connection| {
            let mut statement = connection.prepare(sql::LAST_GAMES).map_err(backend)?;
            let rows = statement
                .query_map(params![account.0, clamp_limit(limit)], |row| {
                    Ok(GameSummary {
                        game_id: row.get(0)?,
                        kind: kind_of(row.get(1)?)?,
                        white: AccountId(row.get(2)?),
                        white_name: row.get(3)?,
                        black: AccountId(row.get(4)?),
                        black_name: row.get(5)?,
                        result: result_of(row.get(6)?)?,
                        white_before: row.get(7)?,
                        white_after: row.get(8)?,
                        black_before: row.get(9)?,
                        black_after: row.get(10)?,
                        finished_ms: row.get(11)?,
                    })
                })
                .map_err(backend)?;
            rows.collect::<rusqlite::Result<Vec<_>>>().map_err(backend)
        })
        .await
    }

    async fn game_pdn(&self, game_id: i64) -> StoreResult<Option<String>> {
        self.with(move |connection| {
            connection
                .query_row(
                    "SELECT pdn FROM rated_games WHERE id = $1",
                    [game_id],
                    |row| row.get(0),
                )
                .optional()
                .map_err(backend)
        })
        .await
    }
}
