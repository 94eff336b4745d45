//! Damas: rules, CPU players and the session layer for five jumping games.
//!
//! Layers, each depending only on those before it:
//! `geometry` → `position` (the rules trait) → `describe` (notation, seats, board and pieces,
//! built on the rules) → `games` (one module per game, implementing both) → `record` (history,
//! repetition) → `search` (CPU) → `catalogue` (the one factory of games) → `session` (undo/redo,
//! seats, save format).
//!
//! The five games are [`English`], [`International`], [`Turkish`] (draughts), [`Diamond`] and
//! [`Capture`] (the star games), each a [`Position`] and a [`Describe`]; [`catalogue::new_game`]
//! makes any of them
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
//!
//! Each game is also its own type: [`Position`] holds the rules alone (what the search and
//! [`perft`] need) and [`Describe`] how a position is written and shown:
//!
//! ```
//! use damas::{perft, Describe, English, GameKind, Position, Variant};
//!
//! let start = English::start(Variant::standard(GameKind::English))?;
//! // The published English checkers figures: 7, 49, 302 leaves at depths 1 to 3.
//! assert_eq!(perft::perft(&start, 3), 302);
//! let first = start.parse_move("11-15")?;
//! let next = start.after(&first);
//! assert_eq!(start.move_info(&first).captures, Vec::<String>::new());
//! assert_eq!(next.seat_name(next.to_move()), "white");
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
