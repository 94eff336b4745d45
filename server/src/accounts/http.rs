//! HTTP routes for signed-in players (JSON; docs/protocol.md, "Accounts, ratings and ranking"):
//!
//! | route | who | answer |
//! | --- | --- | --- |
//! | `GET /api/session` | bearer | the session's account and expiry |
//! | `DELETE /api/session` | bearer | signs out (the token stops working) |
//! | `PUT /api/me/name` | bearer | sets the display name (cleaned like nicknames) |
//! | `GET /api/me/ratings` | bearer | the five kinds' ratings and places |
//! | `GET /api/me/history?kind=K&limit=N` | bearer | rating after each of the last N games |
//! | `GET /api/me/games?limit=N` | bearer | the last N rated games |
//! | `GET /api/ranking/{kind}?limit=N` | anyone (bearer adds `you`) | top N of a kind |
//! | `GET /api/games/{id}/pdn` | anyone | a rated game's record |
//!
//! Errors are `{"code", "message"}` with a stable `code`. Every request is counted against a
//! per-account bucket (per peer address before sign-in), so no account can flood the store.

use super::oidc::{Oidc, ReturnTo, SignInError, Verified};
use super::Account;
use crate::lobby::hash_token;
use crate::player_store::{PlayerStore, PlayerStoreError, Rating};
use crate::rate_limit::KeyedLimiter;
use crate::ratings::RatedKind;
use crate::time::TimeSource;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::net::SocketAddr;
use std::sync::Arc;

/// Requests per second an account (or an address before sign-in) may make on average …
pub const RATE_PER_SECOND: f64 = 5.0;
/// … and in one burst.
pub const RATE_BURST: f64 = 20.0;
/// A new account's name when the sign-in names none (changed with `PUT /api/me/name`).
pub const DEFAULT_DISPLAY_NAME: &str = "Jugador";
/// Default and largest listing sizes.
const DEFAULT_LIMIT: u32 = 50;
const MAX_LIMIT: u32 = 200;

/// What the account routes share.
pub struct AccountsService {
    pub store: Arc<dyn PlayerStore>,
    pub time: TimeSource,
    /// Sign-in, when an issuer is configured.
    pub oidc: Option<Oidc>,
    limiter: KeyedLimiter,
}

impl AccountsService {
    pub fn new(
        store: Arc<dyn PlayerStore>,
        time: TimeSource,
        oidc: Option<Oidc>,
    ) -> AccountsService {
        AccountsService {
            store,
            time,
            oidc,
            limiter: KeyedLimiter::new(RATE_PER_SECOND, RATE_BURST),
        }
    }

    /// The account a session token acts for, if the session is live: for the parts of the
    /// server that admit only signed-in players (rated pools). A token acts only for its own
    /// account; guests have none.
    pub async fn session_account(&self, token: &str) -> Result<Option<Account>, PlayerStoreError> {
        if token.is_empty() || token.len() > 128 {
            return Ok(None);
        }
        Ok(self
            .store
            .session(&hash_token(token), self.now_ms())
            .await?
            .map(|session| session.account))
    }

    /// After a verified sign-in: the nonce is spent (refused if already spent), the account
    /// found or made, a session opened. Answers the session token.
    async fn open_session(
        &self,
        verified: Verified,
        display_name: Option<String>,
    ) -> ApiResult<(String, Account, i64)> {
        let now = self.now_ms();
        if !self
            .store
            .use_nonce(&verified.nonce_hash, now, verified.expires_ms.max(now))
            .await?
        {
            return Err(SignInError::NonceReplayed.into());
        }
        let name = match display_name {
            Some(raw) => super::clean_display_name(&raw).map_err(|error| {
                ApiError::new(StatusCode::BAD_REQUEST, "bad_nickname", error.to_string())
            })?,
            None => DEFAULT_DISPLAY_NAME.to_owned(),
        };
        let account = self
            .store
            .sign_in(&verified.issuer, &verified.subject, &name, now)
            .await?;
        let (token, hash) = super::new_session_token();
        let expires = now.saturating_add(super::SESSION_TTL_MS);
        self.store
            .create_session(account.id, &hash, now, expires)
            .await?;
        Ok((token, account, expires))
    }

    fn now_ms(&self) -> i64 {
        i64::try_from(self.time.now_ms()).unwrap_or(i64::MAX)
    }
}

/// A refused request: HTTP status, stable code, English detail.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    fn not_signed_in() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "not_signed_in",
            "no live session: sign in (the token is missing, expired or signed out)",
        )
    }

    fn rate_limited() -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many requests: slow down",
        )
    }
}

impl From<PlayerStoreError> for ApiError {
    fn from(error: PlayerStoreError) -> ApiError {
        let status = match error {
            PlayerStoreError::Backend(_) | PlayerStoreError::Migration(_) => {
                tracing::warn!(%error, "player store");
                StatusCode::SERVICE_UNAVAILABLE
            }
            PlayerStoreError::NoSuchAccount(_) => StatusCode::NOT_FOUND,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, error.code(), error.to_string())
    }
}

impl From<SignInError> for ApiError {
    fn from(error: SignInError) -> ApiError {
        let status = match error {
            SignInError::NotConfigured => StatusCode::NOT_FOUND,
            SignInError::Provider(_) => StatusCode::BAD_GATEWAY,
            _ => StatusCode::UNAUTHORIZED,
        };
        ApiError::new(status, error.code(), error.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({ "code": self.code, "message": self.message })),
        )
            .into_response()
    }
}

type Shared = Arc<AccountsService>;
type ApiResult<T> = Result<T, ApiError>;

/// The routes, with their state applied (merged into the room server's router).
pub fn router(service: Shared) -> Router {
    Router::new()
        .route(
            "/api/session",
            get(session).delete(sign_out).post(sign_in_with_id_token),
        )
        .route("/auth/start", get(start_sign_in))
        .route("/auth/callback", get(finish_sign_in))
        .route("/api/me/name", put(rename))
        .route("/api/me/ratings", get(my_ratings))
        .route("/api/me/history", get(my_history))
        .route("/api/me/games", get(my_games))
        .route("/api/ranking/{kind}", get(ranking))
        .route("/api/games/{id}/pdn", get(game_pdn))
        .with_state(service)
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ")?.trim();
    // A token is 43 base64url characters; anything much longer is not one.
    (!token.is_empty() && token.len() <= 128).then_some(token)
}

/// The bucket of a request made without a session: its peer address.
fn peer_key(peer: SocketAddr) -> String {
    format!("ip:{}", peer.ip())
}

/// The signed-in account of the request (its bucket charged), or `not_signed_in`.
async fn signed_in(service: &AccountsService, headers: &HeaderMap) -> ApiResult<(Account, String)> {
    let token = bearer(headers).ok_or_else(ApiError::not_signed_in)?;
    let hash = hash_token(token);
    // Unknown tokens are charged to their own hash: guessing costs the guesser.
    if !service.limiter.allow(&format!("token:{hash}")) {
        return Err(ApiError::rate_limited());
    }
    let session = service
        .store
        .session(&hash, service.now_ms())
        .await?
        .ok_or_else(ApiError::not_signed_in)?;
    if !service
        .limiter
        .allow(&format!("account:{}", session.account.id.0))
    {
        return Err(ApiError::rate_limited());
    }
    Ok((session.account, hash))
}

async fn session(State(service): State<Shared>, headers: HeaderMap) -> ApiResult<Response> {
    let token = bearer(&headers).ok_or_else(ApiError::not_signed_in)?;
    let hash = hash_token(token);
    if !service.limiter.allow(&format!("token:{hash}")) {
        return Err(ApiError::rate_limited());
    }
    let session = service
        .store
        .session(&hash, service.now_ms())
        .await?
        .ok_or_else(ApiError::not_signed_in)?;
    Ok(Json(json!({
        "account": session.account,
        "expires_ms": session.expires_ms,
    }))
    .into_response())
}

async fn sign_out(State(service): State<Shared>, headers: HeaderMap) -> ApiResult<StatusCode> {
    let (_, hash) = signed_in(&service, &headers).await?;
    service
        .store
        .revoke_session(&hash, service.now_ms())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
struct NameBody {
    display_name: String,
}

async fn rename(
    State(service): State<Shared>,
    headers: HeaderMap,
    body: Result<Json<NameBody>, axum::extract::rejection::JsonRejection>,
) -> ApiResult<Json<Account>> {
    let (account, _) = signed_in(&service, &headers).await?;
    let Json(body) = body.map_err(|rejection| {
        ApiError::new(StatusCode::BAD_REQUEST, "malformed", rejection.body_text())
    })?;
    let name = super::clean_display_name(&body.display_name).map_err(|error| {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_nickname", error.to_string())
    })?;
    service.store.rename(account.id, &name).await?;
    Ok(Json(Account {
        display_name: name,
        ..account
    }))
}

#[derive(Serialize)]
struct RatingWithPlace {
    #[serde(flatten)]
    rating: Rating,
    /// Place in the kind's ranking; `null` before the first rated game.
    place: Option<u32>,
}

async fn my_ratings(
    State(service): State<Shared>,
    headers: HeaderMap,
) -> ApiResult<Json<serde_json::Value>> {
    let (account, _) = signed_in(&service, &headers).await?;
    let played = service.store.ratings(account.id).await?;
    let mut ratings = Vec::with_capacity(RatedKind::ALL.len());
    for kind in RatedKind::ALL {
        let rating = played
            .iter()
            .find(|rating| rating.kind == kind)
            .copied()
            .unwrap_or_else(|| Rating::new_player(kind));
        let place = if rating.games > 0 {
            service
                .store
                .place(account.id, kind)
                .await?
                .map(|entry| entry.place)
        } else {
            None
        };
        ratings.push(RatingWithPlace { rating, place });
    }
    Ok(Json(json!({ "account": account, "ratings": ratings })))
}

#[derive(Deserialize)]
struct Listing {
    kind: Option<String>,
    limit: Option<u32>,
}

fn limit_of(listing: &Listing) -> ApiResult<u32> {
    match listing.limit {
        None => Ok(DEFAULT_LIMIT),
        Some(limit) if (1..=MAX_LIMIT).contains(&limit) => Ok(limit),
        Some(_) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("limit must be 1 to {MAX_LIMIT}"),
        )),
    }
}

fn kind_of(text: &str) -> ApiResult<RatedKind> {
    text.parse::<RatedKind>()
        .map_err(|error| ApiError::new(StatusCode::BAD_REQUEST, "bad_kind", error.to_string()))
}

fn listing(
    query: Result<Query<Listing>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Listing> {
    query.map(|Query(listing)| listing).map_err(|rejection| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            rejection.body_text(),
        )
    })
}

async fn my_history(
    State(service): State<Shared>,
    headers: HeaderMap,
    query: Result<Query<Listing>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let (account, _) = signed_in(&service, &headers).await?;
    let listing = listing(query)?;
    let kind = kind_of(listing.kind.as_deref().unwrap_or("english"))?;
    let points = service
        .store
        .rating_history(account.id, kind, limit_of(&listing)?)
        .await?;
    Ok(Json(json!({ "kind": kind, "history": points })))
}

async fn my_games(
    State(service): State<Shared>,
    headers: HeaderMap,
    query: Result<Query<Listing>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let (account, _) = signed_in(&service, &headers).await?;
    let listing = listing(query)?;
    let games = service
        .store
        .last_games(account.id, limit_of(&listing)?)
        .await?;
    Ok(Json(json!({ "games": games })))
}

async fn ranking(
    State(service): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(kind): Path<String>,
    query: Result<Query<Listing>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let kind = kind_of(&kind)?;
    let listing = listing(query)?;
    let limit = limit_of(&listing)?;
    let you = if bearer(&headers).is_some() {
        let (account, _) = signed_in(&service, &headers).await?;
        service.store.place(account.id, kind).await?
    } else {
        if !service.limiter.allow(&peer_key(peer)) {
            return Err(ApiError::rate_limited());
        }
        None
    };
    let top = service.store.ranking(kind, limit).await?;
    Ok(Json(json!({ "kind": kind, "top": top, "you": you })))
}

async fn game_pdn(
    State(service): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    if !service.limiter.allow(&peer_key(peer)) {
        return Err(ApiError::rate_limited());
    }
    let pdn = service.store.game_pdn(id).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no_such_game",
            "no rated game with this id",
        )
    })?;
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pdn; charset=utf-8",
        )],
        pdn,
    )
        .into_response())
}

fn oidc(service: &AccountsService) -> ApiResult<&Oidc> {
    service
        .oidc
        .as_ref()
        .ok_or_else(|| SignInError::NotConfigured.into())
}

#[derive(Deserialize)]
struct StartQuery {
    /// `web` (default) or `app`.
    to: Option<String>,
    display_name: Option<String>,
}

async fn start_sign_in(
    State(service): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    query: Result<Query<StartQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Response> {
    if !service.limiter.allow(&peer_key(peer)) {
        return Err(ApiError::rate_limited());
    }
    let oidc = oidc(&service)?;
    let Query(query) = query.map_err(|rejection| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            rejection.body_text(),
        )
    })?;
    let return_to = match query.to.as_deref() {
        None | Some("web") => ReturnTo::Web,
        Some("app") => ReturnTo::App,
        Some(_) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_request",
                "to is web or app",
            ))
        }
    };
    let display_name = match query.display_name {
        Some(raw) => Some(super::clean_display_name(&raw).map_err(|error| {
            ApiError::new(StatusCode::BAD_REQUEST, "bad_nickname", error.to_string())
        })?),
        None => None,
    };
    let url = oidc
        .start(service.store.as_ref(), return_to, display_name)
        .await?;
    Ok((StatusCode::SEE_OTHER, [(header::LOCATION, url)]).into_response())
}

#[derive(Deserialize)]
struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

async fn finish_sign_in(
    State(service): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    query: Result<Query<CallbackQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Response> {
    if !service.limiter.allow(&peer_key(peer)) {
        return Err(ApiError::rate_limited());
    }
    let oidc = oidc(&service)?;
    let Query(query) = query.map_err(|rejection| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            rejection.body_text(),
        )
    })?;
    if let Some(error) = query.error {
        let detail: String = error.chars().take(100).collect();
        return Err(SignInError::Refused(detail).into());
    }
    let (Some(code), Some(state)) = (query.code, query.state) else {
        return Err(SignInError::BadState.into());
    };
    let (verified, return_to, display_name) =
        oidc.finish(service.store.as_ref(), &code, &state).await?;
    let (token, _, _) = service.open_session(verified, display_name).await?;
    let location = match return_to {
        ReturnTo::Web => format!("/#session={token}"),
        ReturnTo::App => format!("damas://signed-in#session={token}"),
    };
    Ok((
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, location),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
    )
        .into_response())
}

#[derive(Deserialize)]
struct IdTokenBody {
    id_token: String,
    nonce: String,
    display_name: Option<String>,
}

async fn sign_in_with_id_token(
    State(service): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Json<IdTokenBody>, axum::extract::rejection::JsonRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    if !service.limiter.allow(&peer_key(peer)) {
        return Err(ApiError::rate_limited());
    }
    let oidc = oidc(&service)?;
    let Json(body) = body.map_err(|rejection| {
        ApiError::new(StatusCode::BAD_REQUEST, "malformed", rejection.body_text())
    })?;
    let verified = oidc.verify_raw(&body.id_token, &body.nonce).await?;
    let (token, account, expires_ms) = service.open_session(verified, body.display_name).await?;
    Ok(Json(json!({
        "token": token,
        "account": account,
        "expires_ms": expires_ms,
    })))
}
