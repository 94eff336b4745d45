//! What a connection holds: its socket, its room, its pool wait and its limits.

use super::rate::RateLimit;
use crate::hub::{HistoryMark, HubHandle};
use crate::pools::choice::{PlayerIdentity, PoolNotice, Ticket};
use crate::shared::Shared;
use crate::store::RoomCode;
use axum::extract::ws::WebSocket;
use std::sync::Arc;
use tokio::sync::mpsc;

/// The pool a connection waits in.
pub(super) struct PoolWait {
    pub(super) ticket: Ticket,
    pub(super) notices: mpsc::UnboundedReceiver<PoolNotice>,
    /// The seat token of the room a pairing will make (the pool keeps only its hash).
    pub(super) token: String,
}

/// The room a connection is in.
pub(super) struct Membership {
    pub(super) code: RoomCode,
    pub(super) hub: HubHandle,
    /// Hash of the seat token (`None`: a spectator).
    pub(super) token_hash: Option<String>,
    /// The seat whose presence this connection keeps.
    pub(super) present_seat: Option<u8>,
    /// The game and history this client holds in full (a `Delta` that it completes is enough).
    pub(super) holds: Option<HistoryMark>,
}

/// What a connection holds while it serves one socket.
pub(super) struct Connection {
    pub(super) shared: Arc<Shared>,
    pub(super) socket: WebSocket,
    /// Random id, names this connection's presence entries.
    pub(super) id: String,
    pub(super) room: Option<Membership>,
    pub(super) rate: RateLimit,
    /// Protocol errors so far; at `max_strikes` the connection is closed.
    pub(super) strikes: u32,
    /// Set when the connection must end (cut off, or the client is gone).
    pub(super) closing: bool,
    /// Who the player is to the pools (a guest until `sign_in`).
    pub(super) identity: PlayerIdentity,
    /// The session token a `sign_in` proved (checked again at every pool join). Never logged.
    #[cfg_attr(not(feature = "accounts"), allow(dead_code))]
    pub(super) session: Option<String>,
    /// The pool the connection waits in, and where its pairing is told.
    pub(super) pool: Option<PoolWait>,
    /// Pool joins are rate-limited on their own (each one costs a wave's work) …
    pub(super) pool_joins: RateLimit,
    /// … and so are draw offers (each one is shown to the opponent).
    pub(super) draw_offers: RateLimit,
}
