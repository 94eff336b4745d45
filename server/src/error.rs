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
    #[error("unsupported protocol version {0} (this server speaks versions 1 and 2)")]
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
    #[error("draw offers and aborts are for 2-player games")]
    TwoPlayersOnly,
    #[error("the CPU plays the other side: it takes no draw offers")]
    OpponentIsCpu,
    #[error("your draw offer is waiting for an answer")]
    OfferPending,
    #[error("no draw offer is waiting for your answer")]
    NoDrawOffer,
    #[error("your last draw offer was declined: you may offer again from ply {0}")]
    OfferTooSoon(usize),
    #[error("a game can only be aborted while a side has not moved yet")]
    CannotAbort,
    #[error("undo and redo are only for games against the CPU")]
    UndoNotAllowed,
    #[error("unknown CPU level '{0}' (expected easy, medium, hard or expert)")]
    BadLevel(String),
    #[error("{0}")]
    BadPool(String),
    #[error("rated pools need a signed-in account")]
    SignInRequired,
    #[error("this connection is already waiting in a pool")]
    AlreadyInPool,
    #[error("this connection is not waiting in a pool")]
    NotInPool,
    #[error("unknown, expired or signed-out session")]
    BadSession,
    #[error("this server keeps no accounts: sign-in is not offered")]
    NoAccounts,
    #[error("accounts are unavailable; try again")]
    AccountsUnavailable,
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
            RoomError::TwoPlayersOnly => "two_players_only",
            RoomError::OpponentIsCpu => "opponent_is_cpu",
            RoomError::OfferPending => "offer_pending",
            RoomError::NoDrawOffer => "no_draw_offer",
            RoomError::OfferTooSoon(_) => "offer_too_soon",
            RoomError::CannotAbort => "cannot_abort",
            RoomError::UndoNotAllowed => "undo_not_allowed",
            RoomError::BadLevel(_) => "bad_level",
            RoomError::BadPool(_) => "bad_pool",
            RoomError::SignInRequired => "sign_in_required",
            RoomError::AlreadyInPool => "already_in_pool",
            RoomError::NotInPool => "not_in_pool",
            RoomError::BadSession => "bad_session",
            RoomError::NoAccounts => "sign_in_unavailable",
            RoomError::AccountsUnavailable => "unavailable",
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
