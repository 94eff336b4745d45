//! Why a client's message was refused. Each error has a stable snake_case [`RoomError::code`]
//! (the `code` of the `error` message, docs/protocol.md); the `Display` text is English detail.
//! A refused message never changes a room.

use crate::store::StoreError;
use damas::session::SessionError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum RoomError {
    /// Not JSON, not an object, a missing or mistyped field, an unknown `type`.
    #[error("malformed message: {0}")]
    Malformed(String),
    #[error("unsupported protocol version {0} (this server speaks 1)")]
    Version(u64),
    #[error("message larger than {0} bytes")]
    TooLarge(usize),
    #[error("binary messages are not part of the protocol")]
    Binary,
    #[error("too many messages: slow down")]
    RateLimited,
    #[error("{0}")]
    BadNickname(String),
    #[error("{0}")]
    BadClock(String),
    #[error("no room with this code (it may have expired)")]
    NoSuchRoom,
    #[error("every seat of this room is taken; you can watch")]
    RoomFull,
    #[error("this connection is already in a room")]
    AlreadyInRoom,
    #[error("this connection is not in a room")]
    NotInRoom,
    #[error("spectators watch: they cannot act")]
    NotSeated,
    #[error("unknown seat token")]
    BadToken,
    #[error("the game has not started: waiting for players")]
    NotStarted,
    #[error("the game has already started")]
    AlreadyStarted,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("the move is for ply {expected}, the game is at ply {actual}")]
    StalePly { expected: usize, actual: usize },
    #[error("the game is not over")]
    GameNotOver,
    /// A rule of the game refused the action (illegal move, game over …).
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the room is busy; try again")]
    Busy,
    /// The seat's token was resumed on a newer connection, which plays the seat now.
    #[error("this seat is played from another connection now")]
    Replaced,
}

impl RoomError {
    /// The stable key a client matches on.
    pub fn code(&self) -> &'static str {
        match self {
            RoomError::Malformed(_) => "malformed",
            RoomError::Version(_) => "unsupported_version",
            RoomError::TooLarge(_) => "too_large",
            RoomError::Binary => "binary",
            RoomError::RateLimited => "rate_limited",
            RoomError::BadNickname(_) => "bad_nickname",
            RoomError::BadClock(_) => "bad_clock",
            RoomError::NoSuchRoom => "no_such_room",
            RoomError::RoomFull => "room_full",
            RoomError::AlreadyInRoom => "already_in_room",
            RoomError::NotInRoom => "not_in_room",
            RoomError::NotSeated => "not_seated",
            RoomError::BadToken => "bad_token",
            RoomError::NotStarted => "not_started",
            RoomError::AlreadyStarted => "already_started",
            RoomError::NotYourTurn => "not_your_turn",
            RoomError::StalePly { .. } => "stale_ply",
            RoomError::GameNotOver => "game_not_over",
            RoomError::Session(error) => error.code(),
            RoomError::Store(_) => "unavailable",
            RoomError::Busy => "busy",
            RoomError::Replaced => "replaced",
        }
    }

    /// Protocol abuse (as opposed to a refused but well-formed request): counted against the
    /// connection, which is cut off after too many.
    pub fn is_strike(&self) -> bool {
        matches!(
            self,
            RoomError::Malformed(_)
                | RoomError::Version(_)
                | RoomError::TooLarge(_)
                | RoomError::Binary
                | RoomError::RateLimited
        )
    }
}
