//! A connection's pooling: signing in, and waiting in a pool until a pairing seats it.

use super::state::{Connection, PoolWait};
use crate::error::RoomError;
use crate::hub::Action;
use crate::lobby;
#[cfg(feature = "accounts")]
use crate::pools::choice::PlayerIdentity;
use crate::pools::choice::PoolNotice;
use crate::protocol::{self, ServerMessage};

impl Connection {
    /// `sign_in`: the session token's account becomes the connection's identity.
    #[cfg(feature = "accounts")]
    pub(super) async fn sign_in(&mut self, session: String) -> Result<(), RoomError> {
        if self.pool.is_some() {
            return Err(RoomError::AlreadyInPool);
        }
        let accounts = self.shared.accounts.clone().ok_or(RoomError::NoAccounts)?;
        let signed_in = match crate::rated_play::sign_in(&accounts, &session).await {
            Ok(signed_in) => signed_in,
            Err(error) => {
                // A refused token leaves the connection a guest (not the previous account).
                if matches!(error, RoomError::BadSession) {
                    self.session = None;
                    self.identity = PlayerIdentity::guest(&self.id);
                }
                return Err(error);
            }
        };
        let account = signed_in.account.id;
        self.identity = PlayerIdentity {
            player: crate::rated_play::player_key(account),
            account: Some(account.0.to_string()),
            rating: crate::pools::choice::DEFAULT_RATING,
        };
        self.session = Some(session);
        let ratings = serde_json::to_value(&signed_in.ratings).unwrap_or_default();
        self.send(protocol::encode(&ServerMessage::SignedIn {
            account: account.0,
            name: &signed_in.account.display_name,
            ratings,
        }))
        .await;
        Ok(())
    }

    #[cfg(not(feature = "accounts"))]
    pub(super) async fn sign_in(&mut self, _session: String) -> Result<(), RoomError> {
        Err(RoomError::NoAccounts)
    }

    /// Before a pool join: a signed-in connection's session is checked again and its rating in
    /// the pool's game kind read (a session signed out since makes the connection a guest).
    #[cfg(feature = "accounts")]
    pub(super) async fn refresh_identity(&mut self, pool_kind: &str) -> Result<(), RoomError> {
        let (Some(session), Some(accounts)) = (&self.session, &self.shared.accounts) else {
            return Ok(());
        };
        match crate::rated_play::identity(accounts, session, pool_kind).await {
            Ok(identity) => {
                self.identity = identity;
                Ok(())
            }
            Err(RoomError::BadSession) => {
                self.session = None;
                self.identity = PlayerIdentity::guest(&self.id);
                Err(RoomError::BadSession)
            }
            Err(error) => Err(error),
        }
    }

    #[cfg(not(feature = "accounts"))]
    pub(super) async fn refresh_identity(&mut self, _pool_kind: &str) -> Result<(), RoomError> {
        Ok(())
    }

    /// A pairing (or the CPU standing in): `paired`, then the connection sits in the room.
    pub(super) async fn on_pool_notice(&mut self, notice: Option<PoolNotice>) {
        let Some(wait) = self.pool.take() else {
            return;
        };
        let Some(PoolNotice::Paired {
            code,
            opponent,
            rated,
        }) = notice
        else {
            return;
        };
        let token = wait.token;
        self.send(protocol::encode(&ServerMessage::Paired {
            code: code.as_str(),
            opponent: &opponent,
            rated,
        }))
        .await;
        let hash = lobby::hash_token(&token);
        if let Err(error) = self.enter(code, Some((token, hash)), Action::Resume).await {
            self.refuse(error).await;
        }
    }
}

/// The pool's notices, or never when the connection waits in no pool.
pub(super) async fn next_notice(pool: &mut Option<PoolWait>) -> Option<PoolNotice> {
    match pool {
        Some(wait) => wait.notices.recv().await,
        None => std::future::pending().await,
    }
}
