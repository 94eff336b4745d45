//! The player store for many instances: PostgreSQL through a `deadpool-postgres` pool.
//! Rated games lock both rating rows (`SELECT … FOR UPDATE`, lower account id first, so two
//! games cannot deadlock) before reading them; migrations run under an advisory lock so that
//! instances starting together apply each step once.

mod schema;

pub use schema::MIGRATIONS;

use super::model::{
    clamp_limit, sql, tallies, GameSummary, HistoryPoint, MidUpdateHook, PendingSignIn,
    PlayerStore, PlayerStoreError, RankingEntry, RatedGame, Rating, RatingChange, RecordedGame,
    Session, StoreResult,
};
use crate::accounts::{Account, AccountId};
use crate::ratings::{self, GameResult, RatedKind, Standing};
use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
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

fn count(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn bad_row(what: &str) -> PlayerStoreError {
    PlayerStoreError::Backend(format!("unreadable row: {what}"))
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

fn account_row(row: &Row) -> Account {
    Account {
        id: AccountId(row.get(0)),
        issuer: row.get(1),
        subject: row.get(2),
        display_name: row.get(3),
    }
}

fn rating_row(kind: RatedKind, row: &Row, first: usize) -> Rating {
    let games = count(row.get(first + 1));
    Rating {
        kind,
        rating: row.get(first),
        games,
        wins: count(row.get(first + 2)),
        draws: count(row.get(first + 3)),
        losses: count(row.get(first + 4)),
        provisional: games < ratings::PROVISIONAL_GAMES,
    }
}

fn ranking_row(row: &Row) -> RankingEntry {
    let games = count(row.get(3));
    RankingEntry {
        account: AccountId(row.get(0)),
        display_name: row.get(1),
        rating: row.get(2),
        games,
        place: count(row.get(4)),
        provisional: games < ratings::PROVISIONAL_GAMES,
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
                "INSERT INTO accounts (issuer, subject, display_name, created_ms) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (issuer, subject) DO NOTHING",
                &[&issuer, &subject, &display_name, &now_ms],
            )
            .await
            .map_err(backend)?;
        let row = client
            .query_one(
                "SELECT id, issuer, subject, display_name FROM accounts \
                 WHERE issuer = $1 AND subject = $2",
                &[&issuer, &subject],
            )
            .await
            .map_err(backend)?;
        Ok(account_row(&row))
    }

    async fn account(&self, id: AccountId) -> StoreResult<Option<Account>> {
        let row = self
            .client()
            .await?
            .query_opt(sql::ACCOUNT, &[&id.0])
            .await
            .map_err(backend)?;
        Ok(row.as_ref().map(account_row))
    }

    async fn rename(&self, id: AccountId, display_name: &str) -> StoreResult<()> {
        let changed = self
            .client()
            .await?
            .execute(
                "UPDATE accounts SET display_name = $1 WHERE id = $2",
                &[&display_name, &id.0],
            )
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
        if transaction
            .query_opt("SELECT 1 FROM accounts WHERE id = $1", &[&account.0])
            .await
            .map_err(backend)?
            .is_none()
        {
            return Err(PlayerStoreError::NoSuchAccount(account));
        }
        transaction
            .execute("DELETE FROM sessions WHERE expires_ms <= $1", &[&now_ms])
            .await
            .map_err(backend)?;
        transaction
            .execute(
                "INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) \
                 VALUES ($1, $2, $3, $4)",
                &[&token_hash, &account.0, &now_ms, &expires_ms],
            )
            .await
            .map_err(backend)?;
        transaction.commit().await.map_err(backend)
    }

    async fn session(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<Session>> {
        let row = self
            .client()
            .await?
            .query_opt(sql::SESSION, &[&token_hash, &now_ms])
            .await
            .map_err(backend)?;
        Ok(row.map(|row| Session {
            account: account_row(&row),
            expires_ms: row.get(4),
        }))
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
            .execute("DELETE FROM used_nonces WHERE expires_ms <= $1", &[&now_ms])
            .await
            .map_err(backend)?;
        let fresh = transaction
            .execute(
                "INSERT INTO used_nonces (nonce_hash, expires_ms) VALUES ($1, $2) \
                 ON CONFLICT (nonce_hash) DO NOTHING",
                &[&nonce_hash, &expires_ms],
            )
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
        let row = self
            .client()
            .await?
            .query_opt(sql::TAKE_PENDING, &[&state_hash])
            .await
            .map_err(backend)?;
        Ok(row
            .map(|row| PendingSignIn {
                pkce_verifier: row.get(0),
                nonce: row.get(1),
                return_to: row.get(2),
                display_name: row.get(3),
                expires_ms: row.get(4),
            })
            .filter(|pending| pending.expires_ms > now_ms))
    }

    async fn record_rated_game(&self, game: &RatedGame) -> StoreResult<RecordedGame> {
        game.validate()?;
        let kind = game.kind.key();
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(backend)?;
        for account in [game.white, game.black] {
            if transaction
                .query_opt("SELECT 1 FROM accounts WHERE id = $1", &[&account.0])
                .await
                .map_err(backend)?
                .is_none()
            {
                return Err(PlayerStoreError::NoSuchAccount(account));
            }
        }
        // Both rows exist (a new player's at 1,200 with no games), then are locked, lower id
        // first: concurrent games of one player queue here instead of reading the same rating.
        let (first, second) = if game.white < game.black {
            (game.white, game.black)
        } else {
            (game.black, game.white)
        };
        for account in [first, second] {
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
        for account in [first, second] {
            let row = transaction
                .query_one(
                    "SELECT rating, games FROM ratings WHERE account_id = $1 AND kind = $2 \
                     FOR UPDATE",
                    &[&account.0, &kind],
                )
                .await
                .map_err(backend)?;
            standings.push((
                account,
                Standing {
                    rating: row.get(0),
                    games: count(row.get(1)),
                },
            ));
        }
        let standing_of = |account: AccountId| {
            standings
                .iter()
                .find(|(id, _)| *id == account)
                .map(|(_, standing)| *standing)
                .ok_or_else(|| bad_row("a locked rating"))
        };
        let white = standing_of(game.white)?;
        let black = standing_of(game.black)?;
        if transaction
            .query_opt(
                "SELECT 1 FROM rated_games WHERE game_key = $1",
                &[&game.game_key],
            )
            .await
            .map_err(backend)?
            .is_some()
        {
            return Err(PlayerStoreError::AlreadyRecorded(game.game_key.clone()));
        }
        let (white_after, black_after) = ratings::rate(white, black, game.result);
        let game_id: i64 = transaction
            .query_one(
                sql::INSERT_GAME,
                &[
                    &game.game_key,
                    &kind,
                    &game.white.0,
                    &game.black.0,
                    &game.result.key(),
                    &game.pdn,
                    &white.rating,
                    &white_after,
                    &black.rating,
                    &black_after,
                    &game.finished_ms,
                ],
            )
            .await
            .map_err(backend)?
            .get(0);
        let (white_tally, black_tally) = tallies(game.result);
        // The rows exist: the upsert's update branch adds the game.
        for (account, after, tally, side) in [
            (game.white, white_after, white_tally, 0),
            (game.black, black_after, black_tally, 1),
        ] {
            transaction
                .execute(
                    sql::UPSERT_RATING,
                    &[&account.0, &kind, &after, &tally[0], &tally[1], &tally[2]],
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
    }

    async fn rating(&self, account: AccountId, kind: RatedKind) -> StoreResult<Rating> {
        let row = self
            .client()
            .await?
            .query_opt(sql::RATING, &[&account.0, &kind.key()])
            .await
            .map_err(backend)?;
        Ok(match row {
            // A row locked in by a game that then failed never commits; a row with no games
            // is still a new player.
            Some(row) => rating_row(kind, &row, 0),
            None => Rating::new_player(kind),
        })
    }

    async fn ratings(&self, account: AccountId) -> StoreResult<Vec<Rating>> {
        let rows = self
            .client()
            .await?
            .query(sql::RATINGS, &[&account.0])
            .await
            .map_err(backend)?;
        rows.iter()
            .map(|row| {
                let kind: String = row.get(0);
                let kind = kind.parse::<RatedKind>().map_err(|_| bad_row("kind"))?;
                Ok(rating_row(kind, row, 1))
            })
            .collect()
    }

    async fn ranking(&self, kind: RatedKind, limit: u32) -> StoreResult<Vec<RankingEntry>> {
        let rows = self
            .client()
            .await?
            .query(sql::RANKING, &[&kind.key(), &clamp_limit(limit)])
            .await
            .map_err(backend)?;
        Ok(rows.iter().map(ranking_row).collect())
    }

    async fn place(
        &self,
        account: AccountId,
        kind: RatedKind,
    ) -> StoreResult<Option<RankingEntry>> {
        let row = self
            .client()
            .await?
            .query_opt(sql::PLACE, &[&account.0, &kind.key()])
            .await
            .map_err(backend)?;
        Ok(row.as_ref().map(ranking_row))
    }

    async fn rating_history(
        &self,
        account: AccountId,
        kind: RatedKind,
        limit: u32,
    ) -> StoreResult<Vec<HistoryPoint>> {
        let rows = self
            .client()
            .await?
            .query(
                sql::HISTORY,
                &[&account.0, &kind.key(), &clamp_limit(limit)],
            )
            .await
            .map_err(backend)?;
        let mut points: Vec<HistoryPoint> = rows
            .iter()
            .map(|row| HistoryPoint {
                game_id: row.get(0),
                finished_ms: row.get(1),
                rating: row.get(2),
            })
            .collect();
        points.reverse();
        Ok(points)
    }

    async fn last_games(&self, account: AccountId, limit: u32) -> StoreResult<Vec<GameSummary>> {
        let rows = self
            .client()
            .await?
            .query(sql::LAST_GAMES, &[&account.0, &clamp_limit(limit)])
            .await
            .map_err(backend)?;
        rows.iter()
            .map(|row| {
                let kind: String = row.get(1);
                let result: String = row.get(6);
                Ok(GameSummary {
                    game_id: row.get(0),
                    kind: kind.parse::<RatedKind>().map_err(|_| bad_row("kind"))?,
                    white: AccountId(row.get(2)),
                    white_name: row.get(3),
                    black: AccountId(row.get(4)),
                    black_name: row.get(5),
                    result: GameResult::from_key(&result).ok_or_else(|| bad_row("result"))?,
                    white_before: row.get(7),
                    white_after: row.get(8),
                    black_before: row.get(9),
                    black_after: row.get(10),
                    finished_ms: row.get(11),
                })
            })
            .collect()
    }

    async fn game_pdn(&self, game_id: i64) -> StoreResult<Option<String>> {
        let row = self
            .client()
            .await?
            .query_opt("SELECT pdn FROM rated_games WHERE id = $1", &[&game_id])
            .await
            .map_err(backend)?;
        Ok(row.map(|row| row.get(0)))
    }
}
