//! Damas: rules, CPU players and the session layer for five jumping games.
//!
//! Layers, each depending only on those before it:
//! `geometry` → `position` + `games` (rules, one module per game behind one trait) → `record`
//! (history, repetition) → `search` (CPU) → `catalogue` (the one factory of games) → `session`
//! (undo/redo, seats, save format).

pub mod catalogue;
pub mod games;
pub mod geometry;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocols;
pub mod record;
pub mod search;
pub mod session;

pub use games::capture::Capture;
pub use games::diamond::Diamond;
pub use games::turkish::Turkish;
pub use position::{
    BoardLayout, BoardShape, Cell, DrawCounter, EndReason, GameKind, GameResult, Leg, MoveError,
    MoveInfo, Outcome, PieceView, Position, Seat, SeatStats, SetupError, Variant,
};
pub use record::{AnyGame, Record};
pub use search::Playable;
