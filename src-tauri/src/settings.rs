//! The user's settings (language, skin, sound, animations, turning the board to the player to
//! move, the star games' board in 3D or 2D, the room server, the expert CPU's thinking time),
//! persisted beside the saved games.

use damas::search::levels::MoveTime;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Es,
    En,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Skin {
    /// Classic wood.
    #[default]
    Wood,
    Candy,
}

/// The star games' board: the 3D one (where WebGL works; the UI falls back to 2D otherwise) or
/// the flat SVG one. Draughts always use the flat board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Board {
    #[default]
    #[serde(rename = "3d")]
    ThreeD,
    #[serde(rename = "2d")]
    TwoD,
}

impl Board {
    fn is_default(&self) -> bool {
        *self == Board::default()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// `None`: follow the system language.
    pub language: Option<Language>,
    pub skin: Skin,
    pub sound: bool,
    pub animations: bool,
    /// Draughts on one device: the board turns to the player to move. Optional in the JSON
    /// (absent = off, and written only when on), so older settings files still read.
    #[serde(default, skip_serializing_if = "is_false")]
    pub turn_board: bool,
    /// Optional in the JSON (absent = 3D, written only when 2D), so older settings files still read.
    #[serde(default, skip_serializing_if = "Board::is_default")]
    pub board: Board,
    /// The room server for friends' rooms (an http(s) address); none: the app hosts the rooms
    /// itself. Optional in the JSON, written only when set. Kept here rather than in the web
    /// view's storage, which WebKit writes to disk only when the app quits normally.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room_server: Option<String>,
    /// The expert CPU's thinking time per move, 0.5–5 s. Optional in the JSON (absent = 1 s,
    /// written only when another), so older settings files still read; on disk a value out of
    /// range or not a number reads as the default (`set_settings` refuses it instead, see
    /// [`check_movetime`]).
    #[serde(
        default,
        skip_serializing_if = "is_default_movetime",
        deserialize_with = "movetime_or_default"
    )]
    pub movetime: MoveTime,
}

fn is_default_movetime(movetime: &MoveTime) -> bool {
    *movetime == MoveTime::DEFAULT
}

/// Any JSON value: a valid thinking time, or the default.
fn movetime_or_default<'de, D: Deserializer<'de>>(deserializer: D) -> Result<MoveTime, D::Error> {
    let value = Value::deserialize(deserializer)?;
    Ok(value
        .as_u64()
        .and_then(|ms| MoveTime::from_millis(ms).ok())
        .unwrap_or_default())
}

/// The settings the UI sends must name a thinking time in range, if any (the lenient reading
/// is for files on disk only).
pub fn check_movetime(settings: &Value) -> Result<(), String> {
    match settings.get("movetime") {
        None => Ok(()),
        Some(value) => value
            .as_u64()
            .ok_or_else(|| format!("movetime must be a number of milliseconds, not {value}"))
            .and_then(|ms| MoveTime::from_millis(ms).map_err(|error| error.to_string()))
            .map(|_| ()),
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            language: None,
            skin: Skin::Wood,
            sound: true,
            animations: true,
            turn_board: false,
            board: Board::ThreeD,
            room_server: None,
            movetime: MoveTime::DEFAULT,
        }
    }
}
