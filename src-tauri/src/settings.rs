//! The user's settings (language, skin, sound, animations, turning the board to the player to
//! move), persisted beside the saved games.

use serde::{Deserialize, Serialize};

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
        }
    }
}
