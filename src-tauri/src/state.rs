//! What the app holds while it runs: the games (with the count of games finished against the CPU),
//! the settings, the stores and the start-up notices. One lock per concern; a game's CPU move is
//! computed outside the lock.

use crate::endgame::EndgameBuilds;
use crate::error::{AppError, Notice};
use crate::lock::lock;
use crate::persist::Persist;
use crate::rooms::SavedRooms;
use crate::settings::Settings;
use crate::stats::{FinishedGame, Result3, RoomResult, RESULTS_KEPT};
use damas::search::SearchContext;
use damas::session::{unix_ms, Session, Sessions};
use damas::GameKind;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tauri::{AppHandle, Manager, Runtime};

pub struct AppState {
    pub sessions: Mutex<Sessions>,
    pub settings: Mutex<Settings>,
    pub notices: Mutex<Vec<Notice>>,
    /// The games finished against the CPU, oldest first (statistics).
    pub results: Mutex<Vec<FinishedGame>>,
    /// The friends' room games finished with this device seated, oldest first (candies).
    pub room_results: Mutex<Vec<RoomResult>>,
    /// The friends' room games this device is seated in (`rooms.json`).
    pub rooms: Mutex<SavedRooms>,
    pub persist: Persist,
    /// Where exported games are written: the downloads folder when the app picks its own data
    /// directory and one exists, else `exports/` in the data directory (tests, odd systems).
    pub export_dir: PathBuf,
    /// The endgame tables: `endgame/` in the data directory, except in the desktop app, which
    /// shares the CLI's cache (`damas endgame build`) when there is one.
    pub endgame: EndgameBuilds,
    /// What the CPU's searches keep: expert's tables between moves, and the endgame tables of
    /// `endgame`'s directory. Shared with the threads that think.
    pub search: Arc<SearchContext>,
}

impl AppState {
    /// Opens the stores in `data_dir` (default: the app's data directory) and loads the games, the
    /// settings and the counts of games finished against the CPU.
    pub fn open<R: Runtime>(
        app: &AppHandle<R>,
        data_dir: Option<PathBuf>,
    ) -> Result<AppState, AppError> {
        let downloads = match data_dir {
            Some(_) => None,
            None => app.path().download_dir().ok().filter(|dir| dir.is_dir()),
        };
        let shared_tables = match data_dir {
            Some(_) => None,
            None if cfg!(desktop) => damas::search::endgame::default_directory(),
            None => None,
        };
        let dir = match data_dir {
            Some(dir) => dir,
            None => app.path().app_data_dir().map_err(AppError::storage)?,
        };
        let tables = shared_tables.unwrap_or_else(|| dir.join("endgame"));
        // Expert reads its endgame tables from where the app builds them.
        let search = Arc::new(SearchContext::with_endgame(Some(tables.clone())));
        let endgame = EndgameBuilds::new(tables, Arc::clone(&search));
        let export_dir = downloads.unwrap_or_else(|| dir.join("exports"));
        let mut notices = Vec::new();
        let rooms = SavedRooms::open(&dir, &mut notices);
        let persist = Persist::open(app, dir, &mut notices)?;
        let mut sessions = Sessions::new();
        for session in persist.load_games(&mut notices)? {
            sessions.insert(session);
        }
        let settings = persist.load_settings(app, &mut notices)?;
        let results = persist.load_results(app, &mut notices)?;
        let room_results = persist.load_room_results(app, &mut notices)?;
        for (kind, games) in persist.load_games_played(app, &mut notices)? {
            sessions.set_games_played(kind, games);
        }
        Ok(AppState {
            sessions: Mutex::new(sessions),
            settings: Mutex::new(settings),
            notices: Mutex::new(notices),
            results: Mutex::new(results),
            room_results: Mutex::new(room_results),
            rooms: Mutex::new(rooms),
            persist,
            export_dir,
            endgame,
            search,
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

    /// Adds a game just finished against the CPU to the statistics (written like the count: a
    /// failure keeps it in memory until the next write).
    pub fn record_result<R: Runtime>(&self, app: &AppHandle<R>, session: &Session) {
        let (Some(outcome), Some(level)) = (session.outcome(), session.mode().level()) else {
            return;
        };
        let game = session.game();
        let human_seats = session.mode().human_seats(game.seats());
        let mut results = lock(&self.results);
        results.push(FinishedGame {
            kind: game.variant().kind,
            level,
            result: Result3::of(outcome, &human_seats),
            plies: game.ply(),
            finished: unix_ms(),
        });
        let excess = results.len().saturating_sub(RESULTS_KEPT);
        results.drain(..excess);
        let _ = self.persist.save_results(app, &results);
    }

    /// Records a friends' room game once: false when that room's game (code and rematch number)
    /// is already there. Written like the statistics: a failed write keeps it in memory until
    /// the next write.
    pub fn record_room_result<R: Runtime>(&self, app: &AppHandle<R>, game: RoomResult) -> bool {
        let mut results = lock(&self.room_results);
        if results.iter().any(|kept| kept.same_game(&game)) {
            return false;
        }
        results.push(game);
        let excess = results.len().saturating_sub(RESULTS_KEPT);
        results.drain(..excess);
        let _ = self.persist.save_room_results(app, &results);
        true
    }

    /// The app is quitting: stop the CPU and keep the plugin from rewriting the stores.
    pub fn shutdown<R: Runtime>(&self, app: &AppHandle<R>) {
        lock(&self.sessions).cancel_all();
        self.persist.close(app);
    }
}
