//! The laboratory beside the Damas engine: what measures and tunes the CPU players, never what
//! a player meets.
//!
//! - [`players`]: who a match seats — the engine's levels and the frozen yardsticks (baseline,
//!   the seed's reference CPU, expert on one thread);
//! - [`selfplay`]: the match harness (seats rotated, seeded openings, level openings, records);
//! - [`tuning`]: the Texel tuner of the draughts weights;
//! - [`share_tuning`]: the fit of the capture game's learned win shares;
//! - [`eval_training`]: the trainer of English checkers' learned pattern evaluation;
//! - [`probcut_fit`]: the fit behind ProbCut's margin.
//! - [`book`]: the builder of expert's opening books.
//!
//! The `damas-lab` binary runs them (`damas-lab selfplay …`, `damas-lab tune …`); what was
//! measured with it is in `lab/JOURNAL.md`.

pub mod book;
pub mod eval_training;
pub mod players;
pub mod probcut_fit;
mod replay;
mod report;
pub mod selfplay;
pub mod share_tuning;
pub mod tuning;

pub use players::Player;
