//! Damas room server: friends play the five games in rooms opened by link, over WebSocket; the
//! server alone judges every move through `damas::session` (docs/protocol.md).
//!
//! Map of the crate:
//! - [`server`]: [`run`] (the one entry point: HTTP routes, `/ws`, `/health`, the static UI),
//!   the Origin allow-list, the connection cap, and the graceful shutdown (sockets, then hubs).
//! - [`shared`]: what every connection of an instance shares (store, settings, hubs, pools).
//! - [`connection`]: one task per socket — size cap, rate limit, typed errors, cut-off; its
//!   room membership, pool wait and sign-in, and rate limits in submodules.
//! - [`protocol`]: the messages (versioned JSON) and their parsing.
//! - [`hub`]: one task per room per instance — its registry and running hubs, the commands it
//!   takes, the actor (actions through compare-and-set saves), the timers it runs with the room's
//!   lease (CPU moves, takeover, flags), and the `state` it publishes (typed, whole and as a
//!   delta). A hub gets the store and the settings only.
//! - Message families, as pure functions on the room record:
//!   [`lobby`] (create, join, resume, CPU seats, leave, rematch, codes and tokens),
//!   [`play`] (moves through the session, resignation, who controls a seat),
//!   [`clocks`] (main time and byo-yomi), [`offers`] (draw offers, abort), [`first_move`] (a
//!   pairing's game aborted when a side does not start in time), [`cpu_rooms`] ("play the CPU":
//!   no clock, undo/redo).
//! - [`pools`]: quick pairing — `choice` (what a player asks and hears), `pairing` (a wave's
//!   pairs by rating, a pure function), `waves` (the rooms a wave makes, the CPU standing in);
//!   `pool_redis`: the pools shared through Redis. [`rated_results`]: the end of a rated game
//!   and the seam it is handed through to whoever keeps the ratings.
//! - [`store`]: the `RoomStore` seam and its backends ([`store::memory`], `store::redis` with its
//!   events fan-out, key layout and Lua scripts), and the record's draw offers.
//! - [`config`], [`error`], [`limits`] (the open-file limit and the connection cap), [`time`] (unix-ms time that tests move forward).
//! - [`bench`]: the load generator behind `damas-server bench` (rooms, pools, their harness).
//! - With the `accounts` feature (default): `accounts` (sessions, sign-in with OpenID Connect,
//!   the `/api` and `/auth` routes), `ratings` (Elo per game kind) and `player_store` (the
//!   `PlayerStore` seam on SQLite or PostgreSQL, each with its `schema` migrations, and
//!   `record_rated_game` for rated games) and `rated_play` (a socket's `sign_in`, rated results
//!   written to the player store).
#[cfg(feature = "accounts")]
pub mod accounts;
pub mod bench;
pub mod clocks;
pub mod config;
pub mod connection;
pub mod cpu_rooms;
pub mod error;
pub mod first_move;
pub mod hub;
pub mod limits;
pub mod lobby;
pub mod offers;
pub mod play;
#[cfg(feature = "accounts")]
pub mod player_store;
#[cfg(feature = "redis")]
pub mod pool_redis;
pub mod pools;
pub mod protocol;
pub mod rate_limit;
#[cfg(feature = "accounts")]
pub mod rated_play;
pub mod rated_record;
pub mod rated_results;
#[cfg(feature = "accounts")]
pub mod ratings;
pub mod server;
pub mod shared;
pub mod store;
pub mod time;

pub use config::Config;
pub use error::RoomError;
pub use server::{run, run_with_accounts};
