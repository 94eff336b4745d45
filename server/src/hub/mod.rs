//! One task per room per instance: the room's hub. Connections in the room send it their
//! actions and watch its latest snapshot; it loads/saves the record through the store, keeps the
//! room's session in step (`play::Game`), and, while it holds the room's lease, runs the room's
//! timers from the record's absolute deadlines: the CPU's moves, the 45 s takeover, clock flags.
//!
//! A hub lives while a connection of this instance is in the room; another instance's hub may
//! serve the same room (the store's compare-and-set and events keep them in step, the lease lets
//! one of them run the timers).
//!
//! - [`registry`]: the hubs of this instance, by room ([`Hubs`]), and a connection's
//!   [`HubHandle`].
//! - `actor`: the hub's task — actions through compare-and-set saves, store events.
//! - `timers`: what the lease holder runs — housekeeping, presence, takeover, flags, CPU moves.
//! - [`snapshot`]: what a hub publishes to its connections (a whole room and its delta).
//! - `view`: the `room` of a `state` message as typed structs (docs/protocol.md).

mod actor;
mod live;
pub mod registry;
mod schedule;
pub mod snapshot;
mod timers;
mod view;

use crate::config::Config;
use crate::error::RoomError;
use crate::store::RoomStore;
use std::sync::Arc;
use tokio::sync::oneshot;

pub use registry::{HubHandle, Hubs};
pub use schedule::PRESENCE_TTL;
pub use snapshot::{Delta, HistoryMark, Snapshot};

/// What a connection asks of the room.
#[derive(Debug)]
pub enum Action {
    Join { nickname: String },
    Resume,
    StartCpu,
    Move { text: String, ply: Option<usize> },
    Resign,
    Leave,
    Rematch,
    OfferDraw,
    AnswerDraw { accept: bool },
    Abort,
    Undo,
    Redo,
}

pub struct Command {
    pub action: Action,
    /// The hash of the sender's seat token (`None`: a spectator).
    pub token_hash: Option<String>,
    /// The sender's connection id (its presence entries).
    pub conn: String,
    pub reply: oneshot::Sender<Result<Option<u8>, RoomError>>,
}

/// What every hub of an instance works with: the store of the rooms and the instance's settings.
pub struct HubContext {
    pub store: Arc<dyn RoomStore>,
    pub config: Config,
}

impl HubContext {
    fn now(&self) -> u64 {
        self.config.time.now_ms()
    }

    fn takeover_ms(&self) -> u64 {
        self.config.takeover.as_millis() as u64
    }
}
