//! The player store for many instances: PostgreSQL through a `deadpool-postgres` pool.
//! Rated games lock both rating rows (`SELECT … FOR UPDATE`, lower account id first, so two
//! games cannot deadlock) before reading them; migrations run under an advisory lock so that
//! instances starting together apply each step once.

mod schema;

pub use schema::MIGRATIONS;

use super::model::{
    clamp_limit, GameSummary, HistoryPoint, MidUpdateHook, PendingSignIn, PlayerStore,
    PlayerStoreError, RankingEntry, RatedGame, Rating, RecordedGame, Session, StoreResult,
};
use super::rated::Rated;
use super::rows::{self, bad_row, Columns};
use super::sql;
use crate::accounts::{Account, AccountId};
use crate::ratings::{self, RatedKind};
use async_trait::async_trait;
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::types::ToSql;
use tokio_postgres::{NoTls, Row};

/// Connections per instance.
const POOL_SIZE: usize = 16;

pub struct PostgresStore {
    pool: Pool,
    mid_update: Option<MidUpdateHook>,
}

fn backend(error: impl std::fmt::Display) -> PlayerStoreError {
    PlayerStoreError::Backend(error.to_string())
}

impl Columns for Row {
    fn int(&self, index: usize) -> StoreResult<i64> {
        self.try_get(index).map_err(backend)
    }

    fn real(&self, index: usize) -> StoreResult<f64> {
        self.try_get(index).map_err(backend)
    }

    fn text(&self, index: usize) -> StoreResult<String> {
        self.try_get(index).map_err(backend)
    }

    fn maybe_text(&self, index: usize) -> StoreResult<Option<String>> {
        self.try_get(index).map_err(backend)
    }
}

type Values<'a> = &'a [&'a (dyn ToSql + Sync)];

/// Every row of `query`, each read by `read`.
async fn all<T>(
    client: &impl GenericClient,
    query: &str,
    values: Values<'_>,
    read: impl Fn(&Row) -> StoreResult<T>,
) -> StoreResult<Vec<T>> {
    let rows = client.query(query, values).await.map_err(backend)?;
    rows.iter().map(read).collect()
}

/// The row of `query` read by `read`, if there is one.
async fn first<T>(
    client: &impl GenericClient,
    query: &str,
    values: Values<'_>,
    read: impl Fn(&Row) -> StoreResult<T>,
) -> StoreResult<Option<T>> {
    let row = client.query_opt(query, values).await.map_err(backend)?;
    row.as_ref().map(read).transpose()
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user@host:port/db`) and applies the migrations it lacks.
    pub async fn connect(url: &str) -> StoreResult<PostgresStore> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|error| PlayerStoreError::BadInput(format!("--database: {error}")))?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .build()
            .map_err(backend)?;
        let store = PostgresStore {
            pool,
            mid_update: None,
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Sets the hook called in the middle of a rating update (crash tests only).
    pub fn with_mid_update_hook(mut self, hook: MidUpdateHook) -> PostgresStore {
        self.mid_update = Some(hook);
        self
    }

    async fn client(&self) -> StoreResult<deadpool_postgres::Object> {
        self.pool.get().await.map_err(backend)
    }

    async fn migrate(&self) -> StoreResult<()> {
        schema::migrate(&mut self.client().await?).await
    }
}

#[async_trait]
impl PlayerStore for PostgresStore {
    async fn ping(&self) -> StoreResult<()> {
        self.client()
            .await?
            .execute("SELECT 1", &[])
            .await
            .map(|_| ())
            .map_err(backend)
    }

    async fn sign_in(
        &self,
        issuer: &str,
        subject: &str,
        display_name: &str,
        now_ms: i64,
    ) -> StoreResult<Account> {
        let client = self.client().await?;
        client
            .execute(
                sql::INSERT_ACCOUNT,
                &[&issuer, &subject, &display_name, &now_ms],
            )
            .await
            .map_err(backend)?;
        first(
            &client,
            sql::ACCOUNT_OF_SUBJECT,
            &[&issuer, &subject],
            rows::account,
        )
        .await?
        .ok_or_else(|| bad_row("the account signed in"))
    }

    async fn account(&self, id: AccountId) -> StoreResult<Option<Account>> {
        let client = self.client().await?;
        first(&client, sql::ACCOUNT, &[&id.0], rows::account).await
    }

    async fn rename(&self, id: AccountId, display_name: &str) -> StoreResult<()> {
        let changed = self
            .client()
            .await?
            .execute(sql::RENAME, &[&display_name, &id.0])
            .await
            .map_err(backend)?;
        if changed == 0 {
            return Err(PlayerStoreError::NoSuchAccount(id));
        }
        Ok(())
    }

    async fn create_session(
        &self,
        account: AccountId,
        token_hash: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()> {
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(backend)?;
        account_exists(&transaction, account).await?;
        transaction
            .execute(sql::SWEEP_SESSIONS, &[&now_ms])
            .await
            .map_err(backend)?;
        transaction
            .execute(
                sql::INSERT_SESSION,
                &[&token_hash, &account.0, &now_ms, &expires_ms],
            )
            .await
            .map_err(backend)?;
        transaction.commit().await.map_err(backend)
    }

    async fn session(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<Session>> {
        let client = self.client().await?;
        first(
            &client,
            sql::SESSION,
            &[&token_hash, &now_ms],
            rows::session,
        )
        .await
    }

    async fn revoke_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<bool> {
        let changed = self
            .client()
            .await?
            .execute(sql::REVOKE, &[&now_ms, &token_hash])
            .await
            .map_err(backend)?;
        Ok(changed > 0)
    }

    async fn use_nonce(&self, nonce_hash: &str, now_ms: i64, expires_ms: i64) -> StoreResult<bool> {
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(backend)?;
        transaction
            .execute(sql::SWEEP_NONCES, &[&now_ms])
            .await
            .map_err(backend)?;
        let fresh = transaction
            .execute(sql::INSERT_NONCE, &[&nonce_hash, &expires_ms])
            .await
            .map_err(backend)?
            > 0;
        transaction.commit().await.map_err(backend)?;
        Ok(fresh)
    }

    async fn put_pending_sign_in(
        &self,
        state_hash: &str,
        pending: &PendingSignIn,
        now_ms: i64,
    ) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(sql::SWEEP_PENDING, &[&now_ms])
            .await
            .map_err(backend)?;
        client
            .execute(
                sql::PUT_PENDING,
                &[
                    &state_hash,
                    &pending.pkce_verifier,
                    &pending.nonce,
                    &pending.return_to,
                    &pending.display_name,
                    &pending.expires_ms,
                ],
            )
            .await
            .map_err(backend)?;
        Ok(())
    }

    async fn take_pending_sign_in(
        &self,
        state_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<PendingSignIn>> {
        let client = self.client().await?;
        let taken = first(
            &client,
            sql::TAKE_PENDING,
            &[&state_hash],
            rows::pending_sign_in,
        )
        .await?;
        Ok(taken.filter(|pending| pending.expires_ms > now_ms))
    }

    async fn record_rated_game(&self, game: &RatedGame) -> StoreResult<RecordedGame> {
        game.validate()?;
        let kind = game.kind.key();
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(backend)?;
        for account in [game.white, game.black] {
            account_exists(&transaction, account).await?;
        }
        // Both rows exist (a new player's at 1,200 with no games), then are locked, lower id
        // first: concurrent games of one player queue here instead of reading the same rating.
        let (lower, higher) = if game.white < game.black {
            (game.white, game.black)
        } else {
            (game.black, game.white)
        };
        for account in [lower, higher] {
            transaction
                .execute(
                    "INSERT INTO ratings (account_id, kind, rating, games, wins, draws, losses) \
                     VALUES ($1, $2, $3, 0, 0, 0, 0) ON CONFLICT (account_id, kind) DO NOTHING",
                    &[&account.0, &kind, &ratings::START_RATING],
                )
                .await
                .map_err(backend)?;
        }
        let mut standings = Vec::with_capacity(2);
        for account in [lower, higher] {
            let standing = first(
                &transaction,
                "SELECT rating, games FROM ratings WHERE account_id = $1 AND kind = $2 \
                 FOR UPDATE",
                &[&account.0, &kind],
                rows::standing,
            )
            .await?
            .ok_or_else(|| bad_row("a locked rating"))?;
            standings.push((account, standing));
        }
        let standing_of = |account: AccountId| {
            standings
                .iter()
                .find(|(id, _)| *id == account)
                .map(|(_, standing)| *standing)
                .ok_or_else(|| bad_row("a locked rating"))
        };
        let rated = Rated::new(game, standing_of(game.white)?, standing_of(game.black)?);
        if first(&transaction, sql::GAME_RECORDED, &[&game.game_key], |_| {
            Ok(())
        })
        .await?
        .is_some()
        {
            return Err(PlayerStoreError::AlreadyRecorded(game.game_key.clone()));
        }
        let [white_before, white_after, black_before, black_after] = rated.game_ratings();
        let game_id = first(
            &transaction,
            sql::INSERT_GAME,
            &[
                &game.game_key,
                &kind,
                &game.white.0,
                &game.black.0,
                &game.result.key(),
                &game.pdn,
                &white_before,
                &white_after,
                &black_before,
                &black_after,
                &game.finished_ms,
            ],
            |row| row.int(0),
        )
        .await?
        .ok_or_else(|| bad_row("the new game's id"))?;
        // The rows exist: the upsert's update branch adds the game.
        for (side, update) in rated.updates(game).into_iter().enumerate() {
            transaction
                .execute(
                    sql::UPSERT_RATING,
                    &[
                        &update.account.0,
                        &kind,
                        &update.after,
                        &update.tally[0],
                        &update.tally[1],
                        &update.tally[2],
                    ],
                )
                .await
                .map_err(backend)?;
            if side == 0 {
                if let Some(hook) = &self.mid_update {
                    hook();
                }
            }
        }
        transaction.commit().await.map_err(backend)?;
        Ok(rated.recorded(game, game_id))
    }

    async fn rating(&self, account: AccountId, kind: RatedKind) -> StoreResult<Rating> {
        let client = self.client().await?;
        let found = first(&client, sql::RATING, &[&account.0, &kind.key()], |row| {
            rows::rating(kind, row, 0)
        })
        .await?;
        // A row locked in by a game that then failed never commits; a row with no games is
        // still a new player.
        Ok(found.unwrap_or_else(|| Rating::new_player(kind)))
    }

    async fn ratings(&self, account: AccountId) -> StoreResult<Vec<Rating>> {
        let client = self.client().await?;
        all(&client, sql::RATINGS, &[&account.0], rows::kind_rating).await
    }

    async fn ranking(&self, kind: RatedKind, limit: u32) -> StoreResult<Vec<RankingEntry>> {
        let client = self.client().await?;
        all(
            &client,
            sql::RANKING,
            &[&kind.key(), &clamp_limit(limit)],
            rows::ranking_entry,
        )
        .await
    }

    async fn place(
        &self,
        account: AccountId,
        kind: RatedKind,
    ) -> StoreResult<Option<RankingEntry>> {
        let client = self.client().await?;
        first(
            &client,
            sql::PLACE,
            &[&account.0, &kind.key()],
            rows::ranking_entry,
        )
        .await
    }

    async fn rating_history(
        &self,
        account: AccountId,
        kind: RatedKind,
        limit: u32,
    ) -> StoreResult<Vec<HistoryPoint>> {
        let client = self.client().await?;
        let mut points = all(
            &client,
            sql::HISTORY,
            &[&account.0, &kind.key(), &clamp_limit(limit)],
            rows::history_point,
        )
        .await?;
        points.reverse();
        Ok(points)
    }

    async fn last_games(&self, account: AccountId, limit: u32) -> StoreResult<Vec<GameSummary>> {
        let client = self.client().await?;
        all(
            &client,
            sql::LAST_GAMES,
            &[&account.0, &clamp_limit(limit)],
            rows::game_summary,
        )
        .await
    }

    async fn game_pdn(&self, game_id: i64) -> StoreResult<Option<String>> {
        let client = self.client().await?;
        first(&client, sql::GAME_PDN, &[&game_id], rows::pdn).await
    }
}

async fn account_exists(client: &impl GenericClient, id: AccountId) -> StoreResult<()> {
    first(client, sql::ACCOUNT_EXISTS, &[&id.0], |_| Ok(()))
        .await?
        .ok_or(PlayerStoreError::NoSuchAccount(id))
}
