//! The Hub protocol, version 2: the text protocol over standard input and output that
//! International draughts engines and the Hub GUI speak (see docs/hub.md). Damas answers as an
//! engine: `damas hub`.
//!
//! [`message`] reads and writes the lines, [`notation`] translates Hub's positions and moves,
//! [`engine`] holds the conversation's state and its loop ([`serve`]).

pub mod engine;
pub mod message;
pub mod notation;
pub mod reply;

pub use engine::{serve, HubEngine, HubError};
