//! Friends' room games this device holds a seat in, kept across restarts in `rooms.json` in the
//! app data directory: the room server's address, the room code, the seat token (what `resume`
//! needs to take the seat back, docs/protocol.md), the game, the nickname and when it was saved.
//! The UI saves a room when it sits down and forgets it when the game ends or the player leaves,
//! so the file lists the online games in progress that the home screen offers to resume.
//!
//! The file is `{"format": 1, "rooms": [SavedRoom, …]}`, written whole and atomically like the
//! other app files. A file that is not a JSON object is set aside (`rooms.corrupt-<ms>.json`),
//! entries that do not validate are left out; either leaves a `corrupt_rooms` start-up notice.
//! A seat token is a password to the seat: it is never logged nor put in an error message
//! (`SavedRoom`'s `Debug` hides it).

use crate::error::{AppError, Notice};
use crate::json_files::{set_aside_if_corrupt, write_atomically};
use damas::GameKind;
use damas_server::lobby::clean_nickname;
use damas_server::store::RoomCode;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;
use std::path::{Path, PathBuf};

/// The file, in the app data directory.
pub const ROOMS_FILE: &str = "rooms.json";
const FORMAT: u64 = 1;
/// More rooms than anyone plays at once; the oldest go first.
pub const ROOMS_KEPT: usize = 50;
/// Longest server address kept.
const MAX_SERVER_LEN: usize = 2048;

/// One room game this device is seated in.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedRoom {
    /// The room server's http(s) address (what the UI connects its socket to).
    pub server: String,
    pub code: String,
    pub token: String,
    pub kind: GameKind,
    pub nickname: String,
    /// The room was hosted by the app itself: it lived in memory and ended with that run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hosted: bool,
    /// Unix ms when it was saved (the home list's "when").
    #[serde(default)]
    pub at: u64,
}

impl fmt::Debug for SavedRoom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SavedRoom")
            .field("server", &self.server)
            .field("code", &self.code)
            .field("token", &"<hidden>")
            .field("kind", &self.kind)
            .field("nickname", &self.nickname)
            .field("hosted", &self.hosted)
            .field("at", &self.at)
            .finish()
    }
}

/// Why a room cannot be kept. The messages never hold the token.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RoomEntryError {
    #[error("the room server address is not an http(s) address")]
    Server,
    #[error("'{0}' is not a room code")]
    Code(String),
    #[error("the seat token is not a token")]
    Token,
    #[error("the nickname is not a nickname (1 to 24 characters)")]
    Nickname,
}

impl From<RoomEntryError> for AppError {
    fn from(error: RoomEntryError) -> Self {
        AppError::bad_input(error)
    }
}

impl SavedRoom {
    /// Checks every field; the nickname is kept as the server keeps it (cleaned).
    pub fn validated(mut self) -> Result<SavedRoom, RoomEntryError> {
        if !is_server_address(&self.server) {
            return Err(RoomEntryError::Server);
        }
        if RoomCode::parse(&self.code).is_none() {
            // A code is made of base64url characters only, so it is safe to show.
            let shown: String = self.code.chars().take(RoomCode::LEN * 2).collect();
            return Err(RoomEntryError::Code(shown.escape_default().to_string()));
        }
        if !is_token(&self.token) {
            return Err(RoomEntryError::Token);
        }
        self.nickname = clean_nickname(&self.nickname).map_err(|_| RoomEntryError::Nickname)?;
        self.server = self.server.trim_end_matches('/').to_string();
        Ok(self)
    }

    fn same_room(&self, other: &SavedRoom) -> bool {
        self.code == other.code && self.server == other.server
    }
}

/// An http(s) address with a host and nothing else odd in it.
pub(crate) fn is_server_address(text: &str) -> bool {
    if text.len() > MAX_SERVER_LEN || text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    match tauri::Url::parse(text) {
        Ok(url) => {
            matches!(url.scheme(), "http" | "https")
                && url.host_str().is_some_and(|h| !h.is_empty())
                && url.username().is_empty()
                && url.password().is_none()
        }
        Err(_) => false,
    }
}

/// A seat token as the server makes them: base64url, 16 to 128 characters (32 bytes today).
fn is_token(text: &str) -> bool {
    (16..=128).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The rooms on disk and in memory (the newest first).
#[derive(Debug)]
pub struct SavedRooms {
    path: PathBuf,
    rooms: Vec<SavedRoom>,
}

impl SavedRooms {
    /// Reads `rooms.json` in `dir`. Rooms the app hosted itself are dropped: they lived in the
    /// memory of the run that hosted them. A corrupt file is set aside, bad entries left out,
    /// each with a notice.
    pub fn open(dir: &Path, notices: &mut Vec<Notice>) -> SavedRooms {
        let path = dir.join(ROOMS_FILE);
        let mut saved = SavedRooms {
            path,
            rooms: Vec::new(),
        };
        if let Some(notice) = set_aside_if_corrupt(&saved.path, "corrupt_rooms", "online games") {
            notices.push(notice);
            return saved;
        }
        let Ok(bytes) = std::fs::read(&saved.path) else {
            return saved; // none yet
        };
        let problem = |message: String| Notice {
            code: "corrupt_rooms",
            message,
        };
        let Ok(file) = serde_json::from_slice::<serde_json::Map<String, Value>>(&bytes) else {
            return saved; // set_aside_if_corrupt read it as an object a moment ago
        };
        if file.get("format").and_then(Value::as_u64) != Some(FORMAT) {
            notices.push(problem(format!(
                "{ROOMS_FILE} has an unknown format; its online games are not listed"
            )));
            return saved;
        }
        let Some(entries) = file.get("rooms").and_then(Value::as_array) else {
            notices.push(problem(format!(
                "{ROOMS_FILE} has no list of rooms; its online games are not listed"
            )));
            return saved;
        };
        let mut unreadable = 0;
        for entry in entries {
            let room = serde_json::from_value::<SavedRoom>(entry.clone())
                .ok()
                .and_then(|room| room.validated().ok());
            match room {
                Some(room) if room.hosted => {}
                Some(room) if !saved.rooms.iter().any(|r| r.same_room(&room)) => {
                    saved.rooms.push(room)
                }
                Some(_) => {}
                None => unreadable += 1,
            }
        }
        if unreadable > 0 {
            notices.push(problem(format!(
                "{unreadable} of {} online games in {ROOMS_FILE} could not be read and are left out",
                entries.len()
            )));
        }
        saved.sort();
        saved
    }

    /// The rooms, newest first.
    pub fn list(&self) -> &[SavedRoom] {
        &self.rooms
    }

    /// Keeps `room` (replacing the same room of the same server) and writes the file. If writing
    /// fails, nothing changes in memory either.
    pub fn save(&mut self, room: SavedRoom) -> Result<(), AppError> {
        let mut next = self.rooms.clone();
        next.retain(|r| !r.same_room(&room));
        next.push(room);
        self.replace(next)
    }

    /// Forgets room `code` (of every server: codes are random, a clash is not worth keeping).
    /// Returns whether it was there; an unknown code is not an error.
    pub fn forget(&mut self, code: &str) -> Result<bool, AppError> {
        let mut next = self.rooms.clone();
        next.retain(|r| r.code != code);
        if next.len() == self.rooms.len() {
            return Ok(false);
        }
        self.replace(next)?;
        Ok(true)
    }

    fn replace(&mut self, rooms: Vec<SavedRoom>) -> Result<(), AppError> {
        let previous = std::mem::replace(&mut self.rooms, rooms);
        self.sort();
        self.rooms.truncate(ROOMS_KEPT);
        let file = json!({"format": FORMAT, "rooms": self.rooms});
        write_atomically(&self.path, &file).inspect_err(|_| self.rooms = previous)
    }

    fn sort(&mut self) {
        self.rooms.sort_by_key(|room| std::cmp::Reverse(room.at));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";

    fn room(code: &str, at: u64) -> SavedRoom {
        SavedRoom {
            server: "http://192.168.1.20:8080".into(),
            code: code.into(),
            token: TOKEN.into(),
            kind: GameKind::English,
            nickname: "  Ana \u{200b} ".into(),
            hosted: false,
            at,
        }
    }

    #[test]
    fn a_room_validates_and_its_nickname_is_cleaned() {
        let ok = room("x8Jd0-qL2mZ_a9Qe", 1).validated().unwrap();
        assert_eq!(ok.nickname, "Ana");
        let slash = SavedRoom {
            server: "https://rooms.example.org/".into(),
            ..room("x8Jd0-qL2mZ_a9Qe", 1)
        };
        assert_eq!(
            slash.validated().unwrap().server,
            "https://rooms.example.org"
        );
        for server in [
            "",
            "ftp://x.org",
            "javascript:alert(1)",
            "http://",
            "http://a b",
            "http://user:pw@host",
        ] {
            let bad = SavedRoom {
                server: server.into(),
                ..room("x8Jd0-qL2mZ_a9Qe", 1)
            };
            assert_eq!(bad.validated(), Err(RoomEntryError::Server), "{server}");
        }
        for code in ["", "short", "x8Jd0-qL2mZ_a9Q/", "x8Jd0-qL2mZ_a9Qe0"] {
            assert!(matches!(
                room(code, 1).validated(),
                Err(RoomEntryError::Code(_))
            ));
        }
        for token in ["", "short", &"a".repeat(129), "abcdefghijklmnop qrs"] {
            let bad = SavedRoom {
                token: token.to_string(),
                ..room("x8Jd0-qL2mZ_a9Qe", 1)
            };
            assert_eq!(bad.validated(), Err(RoomEntryError::Token));
        }
        let nameless = SavedRoom {
            nickname: " \u{7} ".into(),
            ..room("x8Jd0-qL2mZ_a9Qe", 1)
        };
        assert_eq!(nameless.validated(), Err(RoomEntryError::Nickname));
    }

    #[test]
    fn the_token_is_never_shown() {
        let r = room("x8Jd0-qL2mZ_a9Qe", 1);
        assert!(!format!("{r:?}").contains(TOKEN));
        let bad = SavedRoom {
            token: "not a token at all".into(),
            ..r
        };
        let error = AppError::from(bad.validated().unwrap_err());
        assert!(!error.to_string().contains("not a token at all"));
    }

    #[test]
    fn saved_rooms_survive_a_reopen_newest_first_and_hosted_ones_end() {
        let dir = tempfile::tempdir().unwrap();
        let mut notices = Vec::new();
        let mut rooms = SavedRooms::open(dir.path(), &mut notices);
        assert!(rooms.list().is_empty());
        rooms.save(room("aaaaaaaaaaaaaaaa", 10)).unwrap();
        rooms.save(room("bbbbbbbbbbbbbbbb", 30)).unwrap();
        rooms
            .save(SavedRoom {
                hosted: true,
                ..room("cccccccccccccccc", 40)
            })
            .unwrap();
        // The same room again replaces it.
        rooms.save(room("aaaaaaaaaaaaaaaa", 50)).unwrap();
        let codes = |rooms: &SavedRooms| -> Vec<String> {
            rooms.list().iter().map(|r| r.code.clone()).collect()
        };
        assert_eq!(
            codes(&rooms),
            ["aaaaaaaaaaaaaaaa", "cccccccccccccccc", "bbbbbbbbbbbbbbbb"]
        );
        let reopened = SavedRooms::open(dir.path(), &mut notices);
        assert_eq!(codes(&reopened), ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"]);
        assert!(notices.is_empty(), "{notices:?}");
        let mut reopened = reopened;
        assert!(reopened.forget("aaaaaaaaaaaaaaaa").unwrap());
        assert!(!reopened.forget("aaaaaaaaaaaaaaaa").unwrap());
        let again = SavedRooms::open(dir.path(), &mut notices);
        assert_eq!(codes(&again), ["bbbbbbbbbbbbbbbb"]);
    }
}
