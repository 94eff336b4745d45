//! Damas: rules, CPU players and the session layer for five jumping games.
//!
//! Layers, each depending only on those before it:
//! `geometry` → `position` + `games` (rules, one module per game behind one trait) → `record`
//! (history, repetition) → `search` (CPU) → `catalogue` (the one factory of games) → `session`
//! (undo/redo, seats, save format).
//!
//! The five games are [`English`], [`International`], [`Turkish`] (draughts), [`Diamond`] and
//! [`Capture`] (the star games), each a [`Position`]; [`catalogue::new_game`] makes any of them
//! from a [`Variant`] as a [`Playable`], which plays moves in text and asks the CPU for one:
//!
//! ```
//! use damas::{catalogue, GameKind, Level, Player, SearchContext, Variant};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut game = catalogue::new_game(Variant::standard(GameKind::English), None)?;
//! game.play("11-15")?;
//! game.play("23-19")?;
//! assert_eq!(game.ply(), 2);
//!
//! // The caller owns what the CPU's searches keep between moves.
//! let context = SearchContext::new();
//! let stop = AtomicBool::new(false);
//! let decision = game
//!     .decide(Player::Cpu(Level::Medium), 1, None, &stop, &context)
//!     .expect("the game is not over");
//! assert!(game.legal_moves().contains(&decision.info));
//! game.play(&decision.info.text)?;
//! assert_eq!(game.ply(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod catalogue;
pub mod describe;
pub mod games;
pub mod geometry;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocols;
pub mod record;
pub mod search;
pub mod session;

pub use describe::{BoardLayout, BoardShape, Cell, Describe, Leg, MoveInfo, PieceView, SeatStats};
pub use games::capture::Capture;
pub use games::diamond::Diamond;
pub use games::english::English;
pub use games::international::International;
pub use games::turkish::Turkish;
pub use position::{
    DrawCounter, EndReason, GameKind, GameResult, MoveError, Outcome, Position, Seat, SetupError,
    Variant,
};
pub use record::{AnyGame, Record};
pub use search::levels::MoveTime;
pub use search::{Decision, Level, Playable, Player, SearchContext};
