//! Saved games on disk: one file per game, `saves/<id>.json` in the app's data directory, holding
//! the session layer's save record. A command that changes a game rewrites that game's file only
//! (whole, through [`write_atomically`]: a kill leaves the old file or the new one), so the cost of
//! a move does not grow with the number of saved games.
//!
//! A file that does not replay through the rules is moved aside to `<id>.corrupt-<unix ms>.json`
//! in the same folder (kept byte for byte) with a `corrupt_game` notice. Earlier versions kept
//! every game in one `saves.json`; at start its games are copied into their own files and it is
//! renamed `saves.migrated-<unix ms>.json` (kept, not deleted). A `saves.json` that is not a JSON
//! object is set aside as `saves.corrupt-<unix ms>.json` with a `corrupt_saves` notice.

use crate::error::{AppError, Notice};
use crate::json_files::{aside_path, file_name, set_aside_if_corrupt, write_atomically};
use damas::session::{unix_ms, SavedSession, Session, SessionError};
use serde_json::{Map, Value};
use std::fs;
use std::path::{Path, PathBuf};

/// The folder of saved games, in the data directory.
pub const SAVES_DIR: &str = "saves";
/// The one file that held every game before `saves/`.
pub const OLD_SAVES_FILE: &str = "saves.json";

/// The folder of saved games.
#[derive(Clone, Debug)]
pub struct SavedGames {
    dir: PathBuf,
}

impl SavedGames {
    /// Opens (creates) `saves/` in `data_dir` and moves the games of an old `saves.json` into it.
    pub fn open(data_dir: &Path, notices: &mut Vec<Notice>) -> Result<SavedGames, AppError> {
        let saved = SavedGames {
            dir: data_dir.join(SAVES_DIR),
        };
        fs::create_dir_all(&saved.dir).map_err(AppError::storage)?;
        saved.migrate(&data_dir.join(OLD_SAVES_FILE), notices)?;
        Ok(saved)
    }

    /// The file of game `id`; `None` for an id that is not a plain file name.
    fn path(&self, id: &str) -> Option<PathBuf> {
        is_file_id(id).then(|| self.dir.join(format!("{id}.json")))
    }

    /// Every saved game that replays, in the order of their ids; the others are moved aside.
    pub fn load(&self, notices: &mut Vec<Notice>) -> Result<Vec<Session>, AppError> {
        let mut names: Vec<String> = fs::read_dir(&self.dir)
            .map_err(AppError::storage)?
            .filter_map(Result::ok)
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut sessions = Vec::new();
        let mut problems = Vec::new();
        for name in names {
            let path = self.dir.join(&name);
            if name.ends_with(".tmp") {
                // Half of a write that a kill interrupted; the game's file is the one before it.
                let _ = fs::remove_file(&path);
                continue;
            }
            let Some(id) = name.strip_suffix(".json").filter(|id| is_file_id(id)) else {
                continue; // a file set aside, or not ours
            };
            match read_game(&path, id) {
                Ok(session) => sessions.push(session),
                Err(problem) => {
                    let aside = aside_path(&path);
                    let kept = match fs::rename(&path, &aside) {
                        Ok(()) => format!("moved to {}", file_name(&aside)),
                        Err(error) => format!("could not be moved aside: {error}"),
                    };
                    problems.push(format!("{id}: {problem} ({kept})"));
                }
            }
        }
        if !problems.is_empty() {
            notices.push(Notice {
                code: "corrupt_game",
                message: format!(
                    "{} saved game(s) could not be replayed and were set aside in {SAVES_DIR}/: {}",
                    problems.len(),
                    problems.join("; ")
                ),
            });
        }
        Ok(sessions)
    }

    /// Writes a game's record; returns once it is on disk.
    pub fn save(&self, session: &Session) -> Result<(), AppError> {
        let path = self
            .path(session.id())
            .ok_or_else(|| AppError::storage(format!("'{}' is not a game id", session.id())))?;
        write_atomically(&path, &session.to_save().to_json())
    }

    /// Removes a game's file (none is fine: the game was never written).
    pub fn delete(&self, id: &str) -> Result<(), AppError> {
        let Some(path) = self.path(id) else {
            return Ok(());
        };
        match fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(AppError::storage(
                format!("removing {}: {error}", path.display()),
            )),
            _ => Ok(()),
        }
    }

    /// Copies each game of the old single file into its own file (one already there wins: it
    /// was written later), then renames the old file so that it is read once.
    fn migrate(&self, old: &Path, notices: &mut Vec<Notice>) -> Result<(), AppError> {
        if let Some(notice) = set_aside_if_corrupt(old, "corrupt_saves", "saved games") {
            notices.push(notice);
            return Ok(());
        }
        let Ok(bytes) = fs::read(old) else {
            return Ok(()); // nothing to migrate
        };
        let entries: Map<String, Value> =
            serde_json::from_slice(&bytes).map_err(AppError::storage)?;
        let mut unnamed = Map::new();
        for (id, record) in entries {
            match self.path(&id) {
                Some(path) if path.exists() => {}
                Some(path) => write_atomically(&path, &record)?,
                None => {
                    unnamed.insert(id, record);
                }
            }
        }
        if !unnamed.is_empty() {
            let aside = aside_path(old);
            write_atomically(&aside, &Value::Object(unnamed.clone()))?;
            notices.push(Notice {
                code: "corrupt_game",
                message: format!(
                    "{} saved game(s) had ids that are not game ids and were moved to {}",
                    unnamed.len(),
                    file_name(&aside)
                ),
            });
        }
        let migrated = old.with_file_name(format!("saves.migrated-{}.json", unix_ms()));
        fs::rename(old, &migrated)
            .map_err(|error| AppError::storage(format!("renaming {}: {error}", old.display())))
    }
}

/// A game file's record, replayed; its id must be the file's name.
fn read_game(path: &Path, id: &str) -> Result<Session, String> {
    let bytes = fs::read(path).map_err(|error| error.to_string())?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|error| error.to_string())?;
    let record = SavedSession::from_json(&value).map_err(|error| error.to_string())?;
    if record.id != id {
        return Err(
            SessionError::BadSave(format!("stored as '{id}' but named '{}'", record.id))
                .to_string(),
        );
    }
    record.restore().map_err(|error| error.to_string())
}

/// Ids the app makes (`g<hex>-<hex>`) and any other plain name: ASCII letters, digits, `-`, `_`.
fn is_file_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::is_file_id;

    #[test]
    fn only_plain_names_are_file_ids() {
        assert!(is_file_id("g19a2b3c4d5e-0f3a"));
        for bad in ["", "../x", "a/b", "a.json", "x.corrupt-1", &"a".repeat(65)] {
            assert!(!is_file_id(bad), "{bad:?}");
        }
    }
}
