//! A game as the app plays it: the record, who sits where (humans, the CPU), undo/redo,
//! resignation, the CPU's turn with cancellation, the view the UI draws and the save format.
//!
//! No Tauri types here: the app's commands translate JSON to these calls and back. Every state
//! change bumps a version number, so a CPU move computed on a copy of the game is only applied
//! if nothing happened meanwhile.
//!
//! The CPU also hears how many games the human(s) finished against it in this game kind (the easy
//! level is gentler in the first ones): the app keeps that count and hands it over through
//! [`Sessions`]; each session reports, once, when it ends against the CPU
//! ([`Session::take_first_finish`]).

mod error;
mod game;
mod save;
mod sessions;
mod setup;
mod share;
mod view;

#[cfg(test)]
mod tests;

pub use error::SessionError;
pub use game::{unix_ms, CpuTurn, Session};
pub use save::{SavedSession, SAVE_FORMAT};
pub use sessions::Sessions;
pub use setup::{GameSetup, Mode, ModeSetup, VariantSetup};
pub use share::{pdn_date, ImportError, ImportProblem};
pub use view::{GameView, HistoryEntry, OutcomeView, SavedGame, SeatView};
