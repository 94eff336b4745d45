//! What a player store holds and answers, whatever the backend: the records, the
//! [`PlayerStore`] trait and its errors.

use crate::accounts::{Account, AccountId};
use crate::ratings::{GameResult, RatedKind, Standing};
use async_trait::async_trait;
use serde::Serialize;
use std::sync::Arc;
use thiserror::Error;

/// Longest PDN text a rated game may store (a long international game is a few KiB).
pub const MAX_PDN_BYTES: usize = 64 * 1024;
/// Longest `game_key`.
pub const MAX_GAME_KEY: usize = 128;

#[derive(Debug, Error)]
pub enum PlayerStoreError {
    #[error("a rated game needs two different accounts")]
    SamePlayer,
    #[error("no account {0:?}")]
    NoSuchAccount(AccountId),
    #[error("the game {0:?} was already recorded")]
    AlreadyRecorded(String),
    #[error("{0}")]
    BadInput(String),
    #[error("the player store failed to migrate: {0}")]
    Migration(String),
    #[error("the player store failed: {0}")]
    Backend(String),
}

impl PlayerStoreError {
    /// The stable key a client matches on.
    pub fn code(&self) -> &'static str {
        match self {
            PlayerStoreError::SamePlayer => "same_player",
            PlayerStoreError::NoSuchAccount(_) => "no_such_account",
            PlayerStoreError::AlreadyRecorded(_) => "already_recorded",
            PlayerStoreError::BadInput(_) => "bad_request",
            PlayerStoreError::Migration(_) | PlayerStoreError::Backend(_) => "unavailable",
        }
    }
}

pub type StoreResult<T> = Result<T, PlayerStoreError>;

/// A finished rated game, as handed to [`PlayerStore::record_rated_game`].
#[derive(Clone, Debug)]
pub struct RatedGame {
    /// Unique per game (e.g. `"<room code>/<game number>"`): recording it twice is refused.
    pub game_key: String,
    pub kind: RatedKind,
    /// The account on the side that moved first.
    pub white: AccountId,
    pub black: AccountId,
    pub result: GameResult,
    /// The game's record (PDN text).
    pub pdn: String,
    pub finished_ms: i64,
}

impl RatedGame {
    pub(super) fn validate(&self) -> StoreResult<()> {
        if self.white == self.black {
            return Err(PlayerStoreError::SamePlayer);
        }
        if self.game_key.is_empty() || self.game_key.len() > MAX_GAME_KEY {
            return Err(PlayerStoreError::BadInput(format!(
                "game_key must have 1 to {MAX_GAME_KEY} bytes"
            )));
        }
        if self.pdn.len() > MAX_PDN_BYTES {
            return Err(PlayerStoreError::BadInput(format!(
                "the PDN is longer than {MAX_PDN_BYTES} bytes"
            )));
        }
        Ok(())
    }
}

/// One side's rating change in a recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatingChange {
    pub account: AccountId,
    pub before: f64,
    pub after: f64,
    /// Rated games in this kind, this one included.
    pub games: u32,
}

/// What [`PlayerStore::record_rated_game`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RecordedGame {
    pub game_id: i64,
    pub white: RatingChange,
    pub black: RatingChange,
}

/// An account's rating in one game kind (1,200 and no games when it never played it rated).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub kind: RatedKind,
    pub rating: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub provisional: bool,
}

impl Rating {
    pub fn new_player(kind: RatedKind) -> Rating {
        Rating {
            kind,
            rating: crate::ratings::START_RATING,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            provisional: true,
        }
    }

    pub fn standing(&self) -> Standing {
        Standing {
            rating: self.rating,
            games: self.games,
        }
    }
}

/// A line of the ranking: the place (players with the same rating share it), who, the rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankingEntry {
    pub place: u32,
    pub account: AccountId,
    pub display_name: String,
    pub rating: f64,
    pub games: u32,
    pub provisional: bool,
}

/// A recorded game as listed in a player's last games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSummary {
    pub game_id: i64,
    pub kind: RatedKind,
    pub white: AccountId,
    pub white_name: String,
    pub black: AccountId,
    pub black_name: String,
    pub result: GameResult,
    pub white_before: f64,
    pub white_after: f64,
    pub black_before: f64,
    pub black_after: f64,
    pub finished_ms: i64,
}

/// One point of a player's rating history: their rating after a game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HistoryPoint {
    pub game_id: i64,
    pub finished_ms: i64,
    pub rating: f64,
}

/// A live session: the account it acts for and when it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub account: Account,
    pub expires_ms: i64,
}

/// A sign-in under way (server redirect), from `GET /auth/start` to the provider's callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingSignIn {
    pub pkce_verifier: String,
    pub nonce: String,
    /// `web` or `app`.
    pub return_to: String,
    pub display_name: Option<String>,
    pub expires_ms: i64,
}

/// Called by a backend between writing the first and the second rating of a rated game, inside
/// the transaction. Only crash tests set it (to stop a process right there).
pub type MidUpdateHook = Arc<dyn Fn() + Send + Sync>;

/// Accounts, sessions and ratings. Every method is one transaction.
#[async_trait]
pub trait PlayerStore: Send + Sync {
    /// Answers when the store is reachable.
    async fn ping(&self) -> StoreResult<()>;

    /// The account of (issuer, subject), created with `display_name` (already cleaned) when new;
    /// an existing account keeps its name.
    async fn sign_in(
        &self,
        issuer: &str,
        subject: &str,
        display_name: &str,
        now_ms: i64,
    ) -> StoreResult<Account>;
    async fn account(&self, id: AccountId) -> StoreResult<Option<Account>>;
    /// Sets an account's display name (already cleaned).
    async fn rename(&self, id: AccountId, display_name: &str) -> StoreResult<()>;

    /// Keeps a session: only the token's hash.
    async fn create_session(
        &self,
        account: AccountId,
        token_hash: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> StoreResult<()>;
    /// The session of a token hash, if it exists, is not revoked and has not expired at `now_ms`.
    async fn session(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<Session>>;
    /// Ends a session (sign out); false if there was no live one.
    async fn revoke_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<bool>;
    /// Remembers a sign-in nonce until `expires_ms`; false when it was already used (a replay).
    async fn use_nonce(&self, nonce_hash: &str, now_ms: i64, expires_ms: i64) -> StoreResult<bool>;

    /// Keeps a sign-in under way under the hash of its OAuth state (expired ones are swept).
    async fn put_pending_sign_in(
        &self,
        state_hash: &str,
        pending: &PendingSignIn,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// Takes (reads and deletes) a sign-in under way; `None` if unknown, taken or expired.
    async fn take_pending_sign_in(
        &self,
        state_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<PendingSignIn>>;

    /// Writes a rated game, both ratings and counts in one transaction (see the module doc).
    async fn record_rated_game(&self, game: &RatedGame) -> StoreResult<RecordedGame>;
    async fn rating(&self, account: AccountId, kind: RatedKind) -> StoreResult<Rating>;
    /// Every kind this account has played rated.
    async fn ratings(&self, account: AccountId) -> StoreResult<Vec<Rating>>;
    /// The best `limit` players of a kind, best first.
    async fn ranking(&self, kind: RatedKind, limit: u32) -> StoreResult<Vec<RankingEntry>>;
    /// An account's own line of the ranking (`None` before its first rated game of the kind).
    async fn place(&self, account: AccountId, kind: RatedKind)
        -> StoreResult<Option<RankingEntry>>;
    /// The account's rating after each of its last `limit` games of a kind, oldest first.
    async fn rating_history(
        &self,
        account: AccountId,
        kind: RatedKind,
        limit: u32,
    ) -> StoreResult<Vec<HistoryPoint>>;
    /// The account's last `limit` rated games of any kind, newest first.
    async fn last_games(&self, account: AccountId, limit: u32) -> StoreResult<Vec<GameSummary>>;
    /// A recorded game's PDN.
    async fn game_pdn(&self, game_id: i64) -> StoreResult<Option<String>>;
}

/// Clamps a listing size to something sane.
pub(crate) fn clamp_limit(limit: u32) -> i64 {
    i64::from(limit.clamp(1, 200))
}
