//! The save format: a versioned JSON record of the setup (variant, start position text), the moves
//! in notation, the undone moves, the mode and a resignation. Nothing derived is stored: loading
//! replays every move through the rules, so a record edited by hand into an illegal game is
//! rejected with [`SessionError::BadSave`] instead of being trusted.

use super::error::SessionError;
use super::game::{Played, Session};
use super::setup::Mode;
use crate::catalogue;
use crate::position::{Seat, Variant};
use crate::search::GameFactory;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The current version of the record; bumped when its meaning changes.
pub const SAVE_FORMAT: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedSession {
    pub format: u32,
    pub id: String,
    pub variant: Variant,
    /// The start position in the game's text format.
    pub start: String,
    /// The moves played, in notation.
    pub moves: Vec<String>,
    /// Moves taken back and not replayed, in the order they would be redone.
    #[serde(default)]
    pub redo: Vec<String>,
    pub mode: Mode,
    /// The seat that resigned, if one did.
    #[serde(default)]
    pub resigned: Option<Seat>,
    pub seed: u64,
    pub created: u64,
    pub last_played: u64,
    /// Whether the game's end against the CPU was counted (see `Session::take_first_finish`).
    #[serde(default)]
    pub finish_counted: bool,
    /// Hints given (missing: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hints: u32,
    /// The tags an imported game was read with, in their order (missing: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<(String, String)>,
}

fn is_zero(count: &u32) -> bool {
    *count == 0
}

fn bad(detail: impl std::fmt::Display) -> SessionError {
    SessionError::BadSave(detail.to_string())
}

impl SavedSession {
    /// Reads a record from JSON, checking the version before the fields.
    pub fn from_json(value: &Value) -> Result<SavedSession, SessionError> {
        match value.get("format").and_then(Value::as_u64) {
            Some(format) if format == u64::from(SAVE_FORMAT) => {}
            Some(format) => return Err(bad(format!("unsupported format version {format}"))),
            None => return Err(bad("no format version")),
        }
        serde_json::from_value(value.clone()).map_err(bad)
    }

    pub fn to_json(&self) -> Value {
        // A struct of strings, numbers and vectors always serialises.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The session this record describes, every move replayed through the rules.
    pub fn restore(&self) -> Result<Session, SessionError> {
        self.restore_with(&catalogue::new_game)
    }

    /// [`SavedSession::restore`] with games from `factory` (tests pass their own games).
    pub fn restore_with(&self, factory: &GameFactory) -> Result<Session, SessionError> {
        if self.id.is_empty() {
            return Err(bad("empty id"));
        }
        let variant = Variant::new(
            self.variant.kind,
            Some(self.variant.players),
            self.variant.long_jump,
        )
        .map_err(bad)?;
        let game = factory(variant, Some(&self.start)).map_err(bad)?;
        let mut session = Session::from_game(self.id.clone(), game, self.mode.clone())
            .map_err(|e| bad(e.to_string()))?;
        for (index, text) in self.moves.iter().enumerate() {
            let seat = session.game.to_move();
            let info = session
                .game
                .play(text)
                .map_err(|e| bad(format!("move {} '{text}': {e}", index + 1)))?;
            session.played.push(Played {
                seat,
                text: info.text,
            });
        }
        // The undone moves must continue the game legally, like the moves before them.
        let mut ahead = session.game.clone_box();
        for (index, text) in self.redo.iter().enumerate() {
            let seat = ahead.to_move();
            let info = ahead
                .play(text)
                .map_err(|e| bad(format!("undone move {} '{text}': {e}", index + 1)))?;
            session.redo.insert(
                0,
                Played {
                    seat,
                    text: info.text,
                },
            );
        }
        if let Some(seat) = self.resigned {
            if usize::from(seat) >= session.game.seats() {
                return Err(bad(format!("seat {seat} resigned but does not exist")));
            }
            if session.game.outcome().is_some() {
                return Err(bad("a resignation after the end of the game"));
            }
            if !self.redo.is_empty() {
                return Err(bad("undone moves after a resignation"));
            }
            session.resigned = Some(seat);
        }
        session.seed = self.seed;
        session.finish_counted = self.finish_counted;
        session.hints = self.hints;
        session.tags = self.tags.clone();
        session.created = self.created;
        session.last_played = self.last_played;
        Ok(session)
    }
}

impl Session {
    pub fn to_save(&self) -> SavedSession {
        let game = self.game();
        SavedSession {
            format: SAVE_FORMAT,
            id: self.id.clone(),
            variant: game.variant(),
            start: game.start_text(),
            moves: self.played.iter().map(|p| p.text.clone()).collect(),
            redo: self.redo.iter().rev().map(|p| p.text.clone()).collect(),
            mode: self.mode.clone(),
            resigned: self.resigned,
            seed: self.seed,
            created: self.created,
            last_played: self.last_played,
            finish_counted: self.finish_counted,
            hints: self.hints,
            tags: self.tags.clone(),
        }
    }
}
