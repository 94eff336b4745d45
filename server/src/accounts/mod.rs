//! Accounts and sessions: who may play rated games.
//!
//! - An account is keyed by the OpenID Connect (issuer, subject) pair and holds nothing else but
//!   a display name the player chooses (cleaned like room nicknames). No e-mail, no real name.
//! - The server gives its own session token after a sign-in: 32 bytes of OS randomness
//!   (base64url), of which the store keeps only the SHA-256; it expires ([`SESSION_TTL_MS`]) and
//!   is revoked by signing out.
//! - [`http`]: the HTTP routes for sessions, ratings and the ranking (docs/protocol.md).

pub mod http;
pub mod oidc;

use crate::error::RoomError;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::rngs::OsRng;
use rand::RngCore;
use serde::{Deserialize, Serialize};

/// How long a session lasts from sign-in: 30 days.
pub const SESSION_TTL_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// An account's number in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AccountId(pub i64);

/// A signed-in person, as the store keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Account {
    pub id: AccountId,
    #[serde(skip)]
    pub issuer: String,
    #[serde(skip)]
    pub subject: String,
    pub display_name: String,
}

/// A display name as shown to others: cleaned exactly like a room nickname (1–24 characters).
pub fn clean_display_name(raw: &str) -> Result<String, RoomError> {
    crate::lobby::clean_nickname(raw)
}

/// A fresh session token and the hash the store keeps of it.
pub fn new_session_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    let token = URL_SAFE_NO_PAD.encode(bytes);
    let hash = crate::lobby::hash_token(&token);
    (token, hash)
}
