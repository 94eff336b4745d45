//! What the app holds while it runs: the games (with the count of games finished against the CPU),
//! the settings, the stores and the start-up notices. One lock per concern; a game's CPU move is
//! computed outside the lock.

use crate::error::{AppError, Notice};
use crate::persist::Persist;
use crate::settings::Settings;
use damas::session::Sessions;
use damas::GameKind;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};
use tauri::{AppHandle, Manager, Runtime};

pub struct AppState {
    pub sessions: Mutex<Sessions>,
    pub settings: Mutex<Settings>,
    pub notices: Mutex<Vec<Notice>>,
    pub persist: Persist,
}

/// A lock whose holder panicked still guards consistent data here (every change is applied whole
/// or not at all), so it is taken over rather than turned into a second panic.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl AppState {
    /// Opens the stores in `data_dir` (default: the app's data directory) and loads the games, the
    /// settings and the counts of games finished against the CPU.
    pub fn open<R: Runtime>(
        app: &AppHandle<R>,
        data_dir: Option<PathBuf>,
    ) -> Result<AppState, AppError> {
        let dir = match data_dir {
            Some(dir) => dir,
            None => app.path().app_data_dir().map_err(AppError::storage)?,
        };
        let mut notices = Vec::new();
        let persist = Persist::open(app, dir, &mut notices)?;
        let mut sessions = Sessions::new();
        for session in persist.load_games(&mut notices)? {
            sessions.insert(session);
        }
        let settings = persist.load_settings(app, &mut notices)?;
        for (kind, games) in persist.load_games_played(app, &mut notices)? {
            sessions.set_games_played(kind, games);
        }
        Ok(AppState {
            sessions: Mutex::new(sessions),
            settings: Mutex::new(settings),
            notices: Mutex::new(notices),
            persist,
        })
    }

    /// One more game of `kind` finished against the CPU: the sessions' count, then the store's.
    /// The finished game itself is already saved, so a failure to write the count does not undo
    /// it: the count stays right in memory and reaches the disk with the next count written.
    pub fn count_finished_game<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        sessions: &mut Sessions,
        kind: GameKind,
    ) {
        sessions.count_finished_game(kind);
        let counts = GameKind::ALL.map(|kind| (kind, sessions.games_played(kind)));
        let _ = self.persist.save_games_played(app, &counts);
    }

    /// The app is quitting: stop the CPU and keep the plugin from rewriting the stores.
    pub fn shutdown<R: Runtime>(&self, app: &AppHandle<R>) {
        lock(&self.sessions).cancel_all();
        self.persist.close(app);
    }
}
