//! The embedded player store: one SQLite file, reached through one connection on tokio's
//! blocking threads. WAL journal with `synchronous = FULL`: a committed rated game survives a
//! crash of the process or the machine; an interrupted one leaves nothing.

#[cfg(test)]
mod migration_tests;
mod queries;
mod schema;

pub use schema::MIGRATIONS;

use super::model::{
    clamp_limit, GameSummary, HistoryPoint, MidUpdateHook, PendingSignIn, PlayerStore,
    PlayerStoreError, RankingEntry, RatedGame, Rating, RecordedGame, Session, StoreResult,
};
use super::rated::Rated;
use super::{rows, sql};
use crate::accounts::{Account, AccountId};
use crate::ratings::{RatedKind, Standing};
use async_trait::async_trait;
use queries::{all, backend, first, one};
use rusqlite::{params, Connection, TransactionBehavior};
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

fn standing(connection: &Connection, account: AccountId, kind: RatedKind) -> StoreResult<Standing> {
    Ok(first(
        connection,
        sql::RATING,
        params![account.0, kind.key()],
        |row| rows::standing(row),
    )?
    .unwrap_or(Standing::NEW))
}

fn account_exists(connection: &Connection, id: AccountId) -> StoreResult<()> {
    first(connection, sql::ACCOUNT_EXISTS, [id.0], |_| Ok(()))?
        .ok_or(PlayerStoreError::NoSuchAccount(id))
}

/// Starts a transaction that takes the write lock at once.
fn write(connection: &mut Connection) -> StoreResult<rusqlite::Transaction<'_>> {
    connection
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(backend)
}

#[async_trait]
impl PlayerStore for SqliteStore {
    async fn ping(&self) -> StoreResult<()> {
        self.with(|connection| one(connection, "SELECT 1", [], |_| Ok(())))
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
            let transaction = write(connection)?;
            transaction
                .execute(sql::INSERT_ACCOUNT, params![issuer, subject, name, now_ms])
                .map_err(backend)?;
            let account = one(
                &transaction,
                sql::ACCOUNT_OF_SUBJECT,
                params![issuer, subject],
                |row| rows::account(row),
            )?;
            transaction.commit().map_err(backend)?;
            Ok(account)
        })
        .await
    }

    async fn account(&self, id: AccountId) -> StoreResult<Option<Account>> {
        self.with(move |connection| {
            first(connection, sql::ACCOUNT, [id.0], |row| rows::account(row))
        })
        .await
    }

    async fn rename(&self, id: AccountId, display_name: &str) -> StoreResult<()> {
        let name = display_name.to_owned();
        self.with(move |connection| {
            let changed = connection
                .execute(sql::RENAME, params![name, id.0])
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
            let transaction = write(connection)?;
            account_exists(&transaction, account)?;
            // Expired sessions are swept as new ones are made.
            transaction
                .execute(sql::SWEEP_SESSIONS, [now_ms])
                .map_err(backend)?;
            transaction
                .execute(
                    sql::INSERT_SESSION,
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
            first(connection, sql::SESSION, params![hash, now_ms], |row| {
                rows::session(row)
            })
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
            let transaction = write(connection)?;
            transaction
                .execute(sql::SWEEP_NONCES, [now_ms])
                .map_err(backend)?;
            let fresh = transaction
                .execute(sql::INSERT_NONCE, params![hash, expires_ms])
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
            let transaction = write(connection)?;
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
            let taken = first(connection, sql::TAKE_PENDING, [hash], |row| {
                rows::pending_sign_in(row)
            })?;
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
            let transaction = write(connection)?;
            account_exists(&transaction, game.white)?;
            account_exists(&transaction, game.black)?;
            if first(&transaction, sql::GAME_RECORDED, [&game.game_key], |_| {
                Ok(())
            })?
            .is_some()
            {
                return Err(PlayerStoreError::AlreadyRecorded(game.game_key));
            }
            let rated = Rated::new(
                &game,
                standing(&transaction, game.white, game.kind)?,
                standing(&transaction, game.black, game.kind)?,
            );
            let [white_before, white_after, black_before, black_after] = rated.game_ratings();
            let game_id = one(
                &transaction,
                sql::INSERT_GAME,
                params![
                    game.game_key,
                    game.kind.key(),
                    game.white.0,
                    game.black.0,
                    game.result.key(),
                    game.pdn,
                    white_before,
                    white_after,
                    black_before,
                    black_after,
                    game.finished_ms
                ],
                |row| rows::Columns::int(row, 0),
            )?;
            let [white, black] = rated.updates(&game);
            for (side, update) in [white, black].into_iter().enumerate() {
                transaction
                    .execute(
                        sql::UPSERT_RATING,
                        params![
                            update.account.0,
                            game.kind.key(),
                            update.after,
                            update.tally[0],
                            update.tally[1],
                            update.tally[2]
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
            Ok(rated.recorded(&game, game_id))
        })
        .await
    }

    async fn rating(&self, account: AccountId, kind: RatedKind) -> StoreResult<Rating> {
        self.with(move |connection| {
            let found = first(
                connection,
                sql::RATING,
                params![account.0, kind.key()],
                |row| rows::rating(kind, row, 0),
            )?;
            Ok(found.unwrap_or_else(|| Rating::new_player(kind)))
        })
        .await
    }

    async fn ratings(&self, account: AccountId) -> StoreResult<Vec<Rating>> {
        self.with(move |connection| {
            all(connection, sql::RATINGS, [account.0], |row| {
                rows::kind_rating(row)
            })
        })
        .await
    }

    async fn ranking(&self, kind: RatedKind, limit: u32) -> StoreResult<Vec<RankingEntry>> {
        self.with(move |connection| {
            all(
                connection,
                sql::RANKING,
                params![kind.key(), clamp_limit(limit)],
                |row| rows::ranking_entry(row),
            )
        })
        .await
    }

    async fn place(
        &self,
        account: AccountId,
        kind: RatedKind,
    ) -> StoreResult<Option<RankingEntry>> {
        self.with(move |connection| {
            first(
                connection,
                sql::PLACE,
                params![account.0, kind.key()],
                |row| rows::ranking_entry(row),
            )
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
            let mut points = all(
                connection,
                sql::HISTORY,
                params![account.0, kind.key(), clamp_limit(limit)],
                |row| rows::history_point(row),
            )?;
            points.reverse();
            Ok(points)
        })
        .await
    }

    async fn last_games(&self, account: AccountId, limit: u32) -> StoreResult<Vec<GameSummary>> {
        self.with(move |connection| {
            all(
                connection,
                sql::LAST_GAMES,
                params![account.0, clamp_limit(limit)],
                |row| rows::game_summary(row),
            )
        })
        .await
    }

    async fn game_pdn(&self, game_id: i64) -> StoreResult<Option<String>> {
        self.with(move |connection| {
            first(connection, sql::GAME_PDN, [game_id], |row| rows::pdn(row))
        })
        .await
    }
}
