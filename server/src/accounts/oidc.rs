//! Sign-in with OpenID Connect (`--oidc-issuer`, `--oidc-client-id`, the client secret from
//! `DAMAS_OIDC_CLIENT_SECRET` or `--oidc-client-secret-file`), through the `openidconnect` crate:
//! discovery, the JWKS, the authorization-code flow with PKCE and the ID token's checks
//! (signature, issuer, audience, expiry, nonce).
//!
//! Two ways in, both ending in the server's own session token (`super::new_session_token`):
//! - **Server redirect** (browsers, or the app through the system browser): `GET /auth/start`
//!   sends the browser to the provider with a fresh state, nonce and PKCE challenge (kept in
//!   the player store for [`PENDING_TTL`], so any instance takes the callback);
//!   `GET /auth/callback` exchanges the code (with the
//!   client secret and the PKCE verifier), checks the ID token and redirects to `/#session=T`
//!   (browser) or `damas://signed-in#session=T` (app).
//! - **ID token** (the app after its own system-browser flow, RFC 8252): `POST /api/session`
//!   with the ID token and the nonce the app put in its request; the audience may be the
//!   server's client or one of `--oidc-app-client-id`.
//!
//! Every nonce is accepted once (kept hashed in the player store until the token's expiry), so a
//! captured ID token cannot be replayed. Only the issuer and subject are kept from the token.

use crate::lobby::hash_token;
use crate::player_store::{PendingSignIn, PlayerStore};
use crate::time::TimeSource;
use chrono::{DateTime, Utc};
use openidconnect::core::{
    CoreAuthenticationFlow, CoreClient, CoreIdToken, CoreIdTokenVerifier, CoreProviderMetadata,
};
use openidconnect::{
    AuthorizationCode, ClaimsVerificationError, ClientId, ClientSecret, CsrfToken, IssuerUrl,
    Nonce, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, TokenResponse,
};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

/// How long a started sign-in waits for the provider's callback.
pub const PENDING_TTL: Duration = Duration::from_secs(600);
/// Least time between two fetches of the provider's metadata and keys.
pub const REFRESH_EVERY: Duration = Duration::from_secs(60);
/// Shortest nonce the ID-token endpoint accepts (a guessable nonce protects nothing).
pub const MIN_NONCE: usize = 16;
/// Longest ID token accepted.
pub const MAX_ID_TOKEN: usize = 8 * 1024;

/// What the server is told about its provider.
#[derive(Clone, Debug)]
pub struct OidcConfig {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Further audiences accepted by the ID-token endpoint (the app's own client ids).
    pub app_client_ids: Vec<String>,
    /// This server's address as the provider's redirect sees it (`https://damas.example`).
    pub public_url: String,
}

/// Why a sign-in was refused; each has a stable code.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("sign-in is not configured on this server")]
    NotConfigured,
    #[error("the identity provider could not be reached: {0}")]
    Provider(String),
    #[error("unknown or expired sign-in state")]
    BadState,
    #[error("the identity provider refused: {0}")]
    Refused(String),
    #[error("not an ID token: {0}")]
    BadToken(String),
    #[error("the ID token was issued by another issuer: {0}")]
    UnknownIssuer(String),
    #[error("the ID token is for another client: {0}")]
    WrongAudience(String),
    #[error("the ID token has expired: {0}")]
    Expired(String),
    #[error("the ID token's signature does not verify: {0}")]
    BadSignature(String),
    #[error("the ID token's nonce is not the one given: {0}")]
    BadNonce(String),
    #[error("this nonce was already used: a replayed ID token")]
    NonceReplayed,
}

impl SignInError {
    pub fn code(&self) -> &'static str {
        match self {
            SignInError::NotConfigured => "sign_in_off",
            SignInError::Provider(_) => "provider_unavailable",
            SignInError::BadState => "bad_state",
            SignInError::Refused(_) => "provider_refused",
            SignInError::BadToken(_) => "bad_token",
            SignInError::UnknownIssuer(_) => "unknown_issuer",
            SignInError::WrongAudience(_) => "wrong_audience",
            SignInError::Expired(_) => "token_expired",
            SignInError::BadSignature(_) => "bad_signature",
            SignInError::BadNonce(_) => "bad_nonce",
            SignInError::NonceReplayed => "nonce_replayed",
        }
    }
}

impl From<ClaimsVerificationError> for SignInError {
    fn from(error: ClaimsVerificationError) -> SignInError {
        let text = error.to_string();
        match error {
            ClaimsVerificationError::Expired(_) => SignInError::Expired(text),
            ClaimsVerificationError::InvalidAudience(_) => SignInError::WrongAudience(text),
            ClaimsVerificationError::InvalidIssuer(_) => SignInError::UnknownIssuer(text),
            ClaimsVerificationError::InvalidNonce(_) => SignInError::BadNonce(text),
            ClaimsVerificationError::SignatureVerification(_) => SignInError::BadSignature(text),
            _ => SignInError::BadToken(text),
        }
    }
}

/// Where a finished server-redirect sign-in sends the session token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnTo {
    /// `/#session=T` on this server (the browser UI).
    Web,
    /// `damas://signed-in#session=T` (the app's deep link).
    App,
}

/// A verified sign-in: who, and what the sign-in asked for.
#[derive(Debug)]
pub struct Verified {
    pub issuer: String,
    pub subject: String,
    /// The nonce's hash and the token's expiry (unix ms), for the replay check.
    pub nonce_hash: String,
    pub expires_ms: i64,
}

/// The provider's metadata (with its keys) and the sign-ins under way.
pub struct Oidc {
    config: OidcConfig,
    /// Replaced when the provider rotates its keys (see [`Oidc::verify_fresh`]).
    metadata: RwLock<Arc<CoreProviderMetadata>>,
    /// When the metadata was last fetched: at most one fetch per [`REFRESH_EVERY`].
    fetched: Mutex<Instant>,
    http: openidconnect::reqwest::Client,
    time: TimeSource,
}

impl Oidc {
    /// Discovers the issuer (its endpoints and signing keys).
    pub async fn discover(config: OidcConfig, time: TimeSource) -> Result<Oidc, SignInError> {
        let http = openidconnect::reqwest::Client::builder()
            // No redirects (the openidconnect crate's advice: they could leak the code).
            .redirect(openidconnect::reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|error| SignInError::Provider(error.to_string()))?;
        let issuer = IssuerUrl::new(config.issuer.clone())
            .map_err(|error| SignInError::Provider(format!("--oidc-issuer: {error}")))?;
        let metadata = CoreProviderMetadata::discover_async(issuer, &http)
            .await
            .map_err(|error| SignInError::Provider(error.to_string()))?;
        Ok(Oidc {
            config,
            metadata: RwLock::new(Arc::new(metadata)),
            fetched: Mutex::new(Instant::now()),
            http,
            time,
        })
    }

    fn metadata(&self) -> Arc<CoreProviderMetadata> {
        Arc::clone(
            &self
                .metadata
                .read()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        )
    }

    /// Fetches the metadata and keys again, unless that was done less than [`REFRESH_EVERY`]
    /// ago; true when new metadata is in place.
    async fn refresh(&self) -> bool {
        {
            let mut fetched = self
                .fetched
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if fetched.elapsed() < REFRESH_EVERY {
                return false;
            }
            *fetched = Instant::now();
        }
        let issuer = self.metadata().issuer().clone();
        match CoreProviderMetadata::discover_async(issuer, &self.http).await {
            Ok(metadata) => {
                *self
                    .metadata
                    .write()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(metadata);
                true
            }
            Err(error) => {
                tracing::warn!(%error, "OpenID provider metadata not refreshed");
                false
            }
        }
    }

    /// [`Oidc::verify`], once more with fresh keys when the signature did not verify (the
    /// provider may have rotated its keys since they were fetched).
    async fn verify_fresh(
        &self,
        token: &CoreIdToken,
        audience: &str,
        nonce: &str,
    ) -> Result<Verified, SignInError> {
        match self.verify(token, audience, nonce) {
            Err(SignInError::BadSignature(text)) => {
                if self.refresh().await {
                    self.verify(token, audience, nonce)
                } else {
                    Err(SignInError::BadSignature(text))
                }
            }
            other => other,
        }
    }

    fn now_ms(&self) -> i64 {
        i64::try_from(self.time.now_ms()).unwrap_or(i64::MAX)
    }

    fn now(&self) -> DateTime<Utc> {
        DateTime::from_timestamp_millis(self.now_ms()).unwrap_or_else(Utc::now)
    }

    fn redirect_url(&self) -> Result<RedirectUrl, SignInError> {
        RedirectUrl::new(format!(
            "{}/auth/callback",
            self.config.public_url.trim_end_matches('/')
        ))
        .map_err(|error| SignInError::Provider(format!("--public-url: {error}")))
    }

    /// The provider URL to send a browser to, for a new sign-in (kept in the player store, so
    /// the callback may reach any instance).
    pub async fn start(
        &self,
        store: &dyn PlayerStore,
        return_to: ReturnTo,
        display_name: Option<String>,
    ) -> Result<String, SignInError> {
        let client = CoreClient::from_provider_metadata(
            self.metadata().as_ref().clone(),
            ClientId::new(self.config.client_id.clone()),
            self.config.client_secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(self.redirect_url()?);
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .set_pkce_challenge(challenge)
            .url();
        let now = self.now_ms();
        let pending = PendingSignIn {
            pkce_verifier: verifier.secret().clone(),
            nonce: nonce.secret().clone(),
            return_to: match return_to {
                ReturnTo::Web => "web".into(),
                ReturnTo::App => "app".into(),
            },
            display_name,
            expires_ms: now.saturating_add(PENDING_TTL.as_millis() as i64),
        };
        store
            .put_pending_sign_in(&hash_token(state.secret()), &pending, now)
            .await
            .map_err(|error| SignInError::Provider(error.to_string()))?;
        Ok(url.to_string())
    }

    /// The provider's callback: exchanges the code and verifies the ID token.
    pub async fn finish(
        &self,
        store: &dyn PlayerStore,
        code: &str,
        state: &str,
    ) -> Result<(Verified, ReturnTo, Option<String>), SignInError> {
        if state.is_empty() || state.len() > 256 {
            return Err(SignInError::BadState);
        }
        let pending = store
            .take_pending_sign_in(&hash_token(state), self.now_ms())
            .await
            .map_err(|error| SignInError::Provider(error.to_string()))?
            .ok_or(SignInError::BadState)?;
        let return_to = if pending.return_to == "app" {
            ReturnTo::App
        } else {
            ReturnTo::Web
        };
        let client = CoreClient::from_provider_metadata(
            self.metadata().as_ref().clone(),
            ClientId::new(self.config.client_id.clone()),
            self.config.client_secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(self.redirect_url()?);
        let response = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|error| SignInError::Provider(error.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(pending.pkce_verifier))
            .request_async(&self.http)
            .await
            .map_err(|error| SignInError::Refused(error.to_string()))?;
        let token = response
            .id_token()
            .ok_or_else(|| SignInError::Refused("no ID token in the answer".into()))?;
        let verified = self
            .verify_fresh(token, &self.config.client_id, &pending.nonce)
            .await?;
        Ok((verified, return_to, pending.display_name))
    }

    /// Verifies an ID token the app obtained itself, against the nonce it says it sent.
    pub async fn verify_raw(&self, raw: &str, nonce: &str) -> Result<Verified, SignInError> {
        if raw.len() > MAX_ID_TOKEN {
            return Err(SignInError::BadToken("too long".into()));
        }
        if nonce.len() < MIN_NONCE || nonce.len() > 256 {
            return Err(SignInError::BadNonce(format!(
                "a nonce has {MIN_NONCE} to 256 characters"
            )));
        }
        let token: CoreIdToken = raw
            .parse()
            .map_err(|error: serde_json::Error| SignInError::BadToken(error.to_string()))?;
        let mut last = None;
        let audiences =
            std::iter::once(&self.config.client_id).chain(self.config.app_client_ids.iter());
        for audience in audiences {
            match self.verify_fresh(&token, audience, nonce).await {
                Err(SignInError::WrongAudience(text)) => last = Some(text),
                other => return other,
            }
        }
        Err(SignInError::WrongAudience(last.unwrap_or_default()))
    }

    fn verify(
        &self,
        token: &CoreIdToken,
        audience: &str,
        nonce: &str,
    ) -> Result<Verified, SignInError> {
        let metadata = self.metadata();
        let verifier = CoreIdTokenVerifier::new_public_client(
            ClientId::new(audience.to_owned()),
            metadata.issuer().clone(),
            metadata.jwks().clone(),
        )
        .set_time_fn(|| self.now());
        let claims = token.claims(&verifier, &Nonce::new(nonce.to_owned()))?;
        Ok(Verified {
            issuer: claims.issuer().as_str().to_owned(),
            subject: claims.subject().as_str().to_owned(),
            nonce_hash: hash_token(nonce),
            expires_ms: claims.expiration().timestamp_millis(),
        })
    }
}
