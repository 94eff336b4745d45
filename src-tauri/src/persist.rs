//! Settings and the player's progress on disk, through tauri-plugin-store (the saved games have a
//! file each: see [`crate::saves`]).
//!
//! Two store files in the app's data directory (`$XDG_DATA_HOME/<identifier>` on Linux):
//! `settings.json` and `progress.json` (the games finished against the CPU, per game kind: the easy
//! CPU is gentler in the first ones).
//! The plugin keeps each store in memory and loads it; writing is ours, because the plugin's
//! `save` overwrites the file in place, which a kill mid-write would leave half written: we write
//! the store's entries to a temporary file, sync it and rename it over the old one. Auto-save is
//! off, and the stores are closed before the plugin's own save at exit.
//!
//! A file that is not a JSON object is moved aside to `<name>.corrupt-<unix ms>.json` before the
//! plugin opens it (the plugin would silently start empty and later overwrite it), and a game
//! each case leaves a [`Notice`].

use crate::error::{AppError, Notice};
use crate::json_files::{set_aside_if_corrupt, write_atomically};
use crate::saves::SavedGames;
use crate::settings::Settings;
use crate::stats::{FinishedGame, RoomResult, RESULTS_KEPT};
use damas::session::Session;
use damas::GameKind;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tauri::{AppHandle, Runtime};
use tauri_plugin_store::{Store, StoreBuilder, StoreExt};

pub const SETTINGS_FILE: &str = "settings.json";
pub const PROGRESS_FILE: &str = "progress.json";
const SETTINGS_KEY: &str = "settings";
/// In `progress.json`: `{"english": 3, "turkish": 0, …}`, games finished against the CPU.
pub const GAMES_PLAYED_KEY: &str = "games_finished_vs_cpu";
/// In `progress.json`: the games finished against the CPU, oldest first (the statistics).
pub const RESULTS_KEY: &str = "results";
/// In `progress.json`: the friends' room games finished with this device seated (candies).
pub const ROOM_RESULTS_KEY: &str = "room_results";
const STORE_FILES: [&str; 2] = [SETTINGS_FILE, PROGRESS_FILE];

/// Where the stores and the saved games live.
#[derive(Clone, Debug)]
pub struct Persist {
    dir: PathBuf,
    games: SavedGames,
}

impl Persist {
    /// Opens the stores in `dir`, setting corrupt files aside.
    pub fn open<R: Runtime>(
        app: &AppHandle<R>,
        dir: PathBuf,
        notices: &mut Vec<Notice>,
    ) -> Result<Persist, AppError> {
        fs::create_dir_all(&dir).map_err(AppError::storage)?;
        let games = SavedGames::open(&dir, notices)?;
        let persist = Persist { dir, games };
        for (file, code, what) in [
            (SETTINGS_FILE, "corrupt_settings", "settings"),
            (PROGRESS_FILE, "corrupt_progress", "progress"),
        ] {
            let path = persist.path(file);
            if let Some(notice) = set_aside_if_corrupt(&path, code, what) {
                notices.push(notice);
            }
            StoreBuilder::new(app, &path)
                .disable_auto_save()
                .build()
                .map_err(AppError::storage)?;
        }
        Ok(persist)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every saved game that replays; the others are set aside.
    pub fn load_games(&self, notices: &mut Vec<Notice>) -> Result<Vec<Session>, AppError> {
        self.games.load(notices)
    }

    /// Writes a game's record; returns once it is on disk.
    pub fn save_game(&self, session: &Session) -> Result<(), AppError> {
        self.games.save(session)
    }

    pub fn delete_game(&self, id: &str) -> Result<(), AppError> {
        self.games.delete(id)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    fn store<R: Runtime>(&self, app: &AppHandle<R>, file: &str) -> Result<Arc<Store<R>>, AppError> {
        app.get_store(self.path(file))
            .ok_or_else(|| AppError::storage(format!("the store {file} is not open")))
    }

    /// The saved settings, or the defaults (an unreadable entry is reported and replaced).
    pub fn load_settings<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        notices: &mut Vec<Notice>,
    ) -> Result<Settings, AppError> {
        let store = self.store(app, SETTINGS_FILE)?;
        Ok(match store.get(SETTINGS_KEY) {
            None => Settings::default(),
            Some(value) => serde_json::from_value(value).unwrap_or_else(|error| {
                notices.push(Notice {
                    code: "corrupt_settings",
                    message: format!("the settings could not be read ({error}); using defaults"),
                });
                Settings::default()
            }),
        })
    }

    pub fn save_settings<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        settings: &Settings,
    ) -> Result<(), AppError> {
        let value = serde_json::to_value(settings).map_err(AppError::storage)?;
        self.put(app, SETTINGS_FILE, SETTINGS_KEY, value)
    }

    /// Games finished against the CPU, for each game kind. A missing count is 0; an unreadable
    /// one is 0 too, and reported (it is replaced at the next write).
    pub fn load_games_played<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        notices: &mut Vec<Notice>,
    ) -> Result<Vec<(GameKind, u32)>, AppError> {
        let store = self.store(app, PROGRESS_FILE)?;
        let stored = store.get(GAMES_PLAYED_KEY);
        let entries = match &stored {
            None => None,
            Some(Value::Object(entries)) => Some(entries),
            Some(_) => {
                notices.push(Notice {
                    code: "corrupt_progress",
                    message: "the count of games finished against the CPU is not an object; \
                              counting from 0"
                        .into(),
                });
                None
            }
        };
        let mut unreadable = Vec::new();
        let counts = GameKind::ALL
            .into_iter()
            .map(|kind| {
                let value = entries.and_then(|entries| entries.get(kind.as_str()));
                let games = match value {
                    None => 0,
                    Some(value) => value
                        .as_u64()
                        .and_then(|games| u32::try_from(games).ok())
                        .unwrap_or_else(|| {
                            unreadable.push(format!("{}: {value}", kind.as_str()));
                            0
                        }),
                };
                (kind, games)
            })
            .collect();
        if !unreadable.is_empty() {
            notices.push(Notice {
                code: "corrupt_progress",
                message: format!(
                    "unreadable counts of games finished against the CPU ({}); counting from 0",
                    unreadable.join(", ")
                ),
            });
        }
        Ok(counts)
    }

    /// Writes the counts of games finished against the CPU (all kinds, replacing what was there).
    pub fn save_games_played<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        counts: &[(GameKind, u32)],
    ) -> Result<(), AppError> {
        let entries: Map<String, Value> = counts
            .iter()
            .map(|&(kind, games)| (kind.as_str().to_string(), Value::from(games)))
            .collect();
        self.put(app, PROGRESS_FILE, GAMES_PLAYED_KEY, Value::Object(entries))
    }

    /// Sets `key` in store `file` and writes the file; if writing fails, the store gets its old
    /// entry back, so that memory and disk stay alike.
    fn put<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        file: &str,
        key: &str,
        value: Value,
    ) -> Result<(), AppError> {
        let store = self.store(app, file)?;
        let previous = store.get(key);
        store.set(key, value);
        self.flush(&store, file).inspect_err(|_| match previous {
            Some(previous) => store.set(key, previous),
            None => {
                store.delete(key);
            }
        })
    }

    /// The games finished against the CPU (statistics). Unreadable entries are left out and
    /// reported; they are replaced at the next write.
    pub fn load_results<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        notices: &mut Vec<Notice>,
    ) -> Result<Vec<FinishedGame>, AppError> {
        self.load_list(app, RESULTS_KEY, "results in the statistics", notices)
    }

    /// The friends' room games finished with this device seated (rewards). Unreadable entries
    /// are left out and reported like the statistics'.
    pub fn load_room_results<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        notices: &mut Vec<Notice>,
    ) -> Result<Vec<RoomResult>, AppError> {
        self.load_list(
            app,
            ROOM_RESULTS_KEY,
            "friends' games of the rewards",
            notices,
        )
    }

    /// Writes the games finished against the CPU (the latest [`RESULTS_KEPT`]).
    pub fn save_results<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        results: &[FinishedGame],
    ) -> Result<(), AppError> {
        self.save_list(app, RESULTS_KEY, results)
    }

    /// Writes the friends' room games (the latest [`RESULTS_KEPT`]).
    pub fn save_room_results<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        results: &[RoomResult],
    ) -> Result<(), AppError> {
        self.save_list(app, ROOM_RESULTS_KEY, results)
    }

    /// A list kept under `key` in the progress file: entries that do not read are left out and
    /// reported as `corrupt_progress` (`what` names them), a value that is not a list reads as
    /// empty; both are replaced at the next write.
    fn load_list<R: Runtime, T: DeserializeOwned>(
        &self,
        app: &AppHandle<R>,
        key: &str,
        what: &str,
        notices: &mut Vec<Notice>,
    ) -> Result<Vec<T>, AppError> {
        let store = self.store(app, PROGRESS_FILE)?;
        let entries = match store.get(key) {
            None => return Ok(Vec::new()),
            Some(Value::Array(entries)) => entries,
            Some(_) => {
                notices.push(Notice {
                    code: "corrupt_progress",
                    message: format!("the {what} are not a list; starting them again"),
                });
                return Ok(Vec::new());
            }
        };
        let total = entries.len();
        let list: Vec<T> = entries
            .into_iter()
            .filter_map(|entry| serde_json::from_value(entry).ok())
            .collect();
        if list.len() < total {
            notices.push(Notice {
                code: "corrupt_progress",
                message: format!(
                    "{} of {total} {what} could not be read and are left out",
                    total - list.len()
                ),
            });
        }
        Ok(list)
    }

    /// Writes the latest [`RESULTS_KEPT`] entries of a list of the progress file.
    fn save_list<R: Runtime, T: Serialize>(
        &self,
        app: &AppHandle<R>,
        key: &str,
        list: &[T],
    ) -> Result<(), AppError> {
        let kept = &list[list.len().saturating_sub(RESULTS_KEPT)..];
        let value = serde_json::to_value(kept).map_err(AppError::storage)?;
        self.put(app, PROGRESS_FILE, key, value)
    }

    /// Closes the stores, so that the plugin does not rewrite them (in place) at exit; every
    /// change is already on disk.
    pub fn close<R: Runtime>(&self, app: &AppHandle<R>) {
        for file in STORE_FILES {
            if let Ok(store) = self.store(app, file) {
                store.close_resource();
            }
        }
    }

    fn flush<R: Runtime>(&self, store: &Store<R>, file: &str) -> Result<(), AppError> {
        // Sorted keys: the same content always gives the same file.
        let entries: Map<String, Value> = store
            .entries()
            .into_iter()
            .collect::<std::collections::BTreeMap<_, _>>()
            .into_iter()
            .collect();
        write_atomically(&self.path(file), &Value::Object(entries))
    }
}
