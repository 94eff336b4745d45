//! What every connection of this instance shares: the room store, the settings, the room hubs,
//! the pairing pools, the accounts, the per-account limits, and the shutdown signal.

use crate::config::Config;
use crate::hub::Hubs;
use crate::pools::Pools;
use crate::store::RoomStore;
use std::sync::Arc;
use tokio::sync::watch;
use tokio_util::task::TaskTracker;

#[cfg(feature = "accounts")]
pub use crate::accounts::http::AccountsService;
/// Without the `accounts` feature there is no accounts service (this type has no value).
#[cfg(not(feature = "accounts"))]
pub enum AccountsService {}

pub struct Shared {
    pub store: Arc<dyn RoomStore>,
    pub config: Config,
    pub hubs: Hubs,
    /// This instance's pairing pools.
    pub pools: Pools,
    /// Accounts, ratings and sign-in, when this instance keeps them (`--data`/`--database`):
    /// what a connection asks to learn who a session token belongs to.
    pub accounts: Option<Arc<AccountsService>>,
    /// Turns true when the server shuts down; connections close.
    pub shutdown: watch::Receiver<bool>,
    /// The sockets' tasks: a shutdown waits for them to close.
    pub sockets: TaskTracker,
    /// Per-account limits of pool joins and draw offers (this instance's share).
    pub account_limits: crate::rate_limit::AccountLimits,
}
