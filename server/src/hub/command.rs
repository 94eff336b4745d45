//! What a hub is asked (a connection's [`Action`] with its reply) and what every hub works with.

use crate::config::Config;
use crate::error::RoomError;
use crate::store::RoomStore;
use std::sync::Arc;
use tokio::sync::oneshot;

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
    pub(super) fn now(&self) -> u64 {
        self.config.time.now_ms()
    }

    pub(super) fn takeover_ms(&self) -> u64 {
        self.config.takeover.as_millis() as u64
    }
}
