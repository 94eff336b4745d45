//! The endgame databases from the app: what this device holds for each draughts game,
//! and building a game's tables on the device, off the UI thread, with progress events and a way
//! to stop. The engine builds and reads them (`damas::search::endgame`); the expert level probes
//! whatever the directory holds, read again after each build. One build at a time: the larger
//! ones take minutes and a gigabyte or more of memory.

use crate::error::AppError;
use crate::lock::lock;
use damas::search::endgame::{self, EndgameError};
use damas::search::SearchContext;
use damas::GameKind;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tauri::{AppHandle, Emitter, Runtime};

/// The event a build sends after each slice: [`Progress`].
pub const ENDGAME_PROGRESS_EVENT: &str = "endgame-progress";

/// The games with databases, in the order the settings list them.
pub const ENDGAME_GAMES: [GameKind; 3] = [
    GameKind::English,
    GameKind::International,
    GameKind::Turkish,
];

/// The piece counts the app builds: all positions of up to 5 pieces in English, 4 in
/// International and Turkish. `None` for a game without databases.
pub fn offered_pieces(kind: GameKind) -> Option<u32> {
    match kind {
        GameKind::English => Some(5),
        GameKind::International | GameKind::Turkish => Some(4),
        _ => None,
    }
}

/// A build under way: its game, its stop flag and how far it got, in the engine's unit of work
/// (positions of the slices done, of `total`).
struct Running {
    kind: GameKind,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicU64>,
    total: u64,
}

/// Ends a build however it ends, a panic included: the slot is freed and whatever was written
/// (a stopped build keeps its finished piece counts) is read anew.
struct Finished<'a> {
    running: &'a Mutex<Option<Running>>,
    search: &'a SearchContext,
    kind: GameKind,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        *lock(self.running) = None;
        self.search.endgame().forget(self.kind);
    }
}

/// Where the app keeps its tables and the build under way, if any.
pub struct EndgameBuilds {
    pub dir: PathBuf,
    running: Mutex<Option<Running>>,
    /// The app's search context, whose expert reads the tables of `dir`: told to read them
    /// again after each build.
    search: Arc<SearchContext>,
}

/// One game's line in the settings.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EndgameStatus {
    pub game: &'static str,
    /// Every piece count from 2 to this one is on the device (0: none).
    pub pieces: u32,
    /// Their size on disk.
    pub bytes: u64,
    /// The piece count a build reaches.
    pub offered: u32,
    /// A build of this game is under way; `done` of `total` is how far it got.
    pub building: bool,
    pub done: u64,
    pub total: u64,
}

/// What [`ENDGAME_PROGRESS_EVENT`] carries: after each slice, then once when the build ends
/// (`finished`, whether it was complete, stopped or failed).
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    pub game: &'static str,
    pub done: u64,
    pub total: u64,
    pub finished: bool,
}

impl EndgameBuilds {
    /// Builds in `dir`, which `search`'s expert reads.
    pub fn new(dir: PathBuf, search: Arc<SearchContext>) -> EndgameBuilds {
        EndgameBuilds {
            dir,
            running: Mutex::new(None),
            search,
        }
    }

    /// Each game's status, in [`ENDGAME_GAMES`] order.
    pub fn status(&self) -> Vec<EndgameStatus> {
        ENDGAME_GAMES.map(|kind| self.status_of(kind)).to_vec()
    }

    fn status_of(&self, kind: GameKind) -> EndgameStatus {
        let installed = endgame::installed(kind, &self.dir);
        let running = lock(&self.running);
        let build = running.as_ref().filter(|running| running.kind == kind);
        EndgameStatus {
            game: kind.as_str(),
            pieces: installed.pieces,
            bytes: installed.bytes,
            offered: offered_pieces(kind).unwrap_or(0),
            building: build.is_some(),
            done: build.map_or(0, |running| {
                running.done.load(Ordering::Relaxed).min(running.total)
            }),
            total: build.map_or(0, |running| running.total),
        }
    }

    /// Builds `game`'s tables up to `pieces` (default: the offered count; at most that) on this
    /// thread, which should not be the UI's: the piece counts already there are read, the others
    /// built, and each slice done is sent as a [`Progress`] event. Answers the game's status once
    /// the engine reads the new tables.
    pub fn build<R: Runtime>(
        &self,
        app: &AppHandle<R>,
        game: &str,
        pieces: Option<u32>,
    ) -> Result<EndgameStatus, AppError> {
        let kind = GameKind::parse(game).map_err(AppError::bad_input)?;
        let offered = offered_pieces(kind)
            .ok_or_else(|| AppError::bad_input(EndgameError::NotDraughts(kind.as_str())))?;
        let pieces = pieces.unwrap_or(offered);
        if !(2..=offered).contains(&pieces) {
            return Err(AppError::bad_input(format!(
                "{game}: {pieces} pieces (the app builds 2 to {offered})"
            )));
        }
        let total = endgame::positions(kind, pieces).map_err(AppError::bad_input)?;
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicU64::new(0));
        {
            let mut running = lock(&self.running);
            if let Some(other) = running.as_ref() {
                return Err(AppError::EndgameBusy(other.kind.as_str()));
            }
            *running = Some(Running {
                kind,
                stop: stop.clone(),
                done: done.clone(),
                total,
            });
        }
        // One core is left to the UI and the game.
        let threads = std::thread::available_parallelism()
            .map_or(1, |cores| cores.get().saturating_sub(1))
            .max(1);
        // Slices read from files already there count as done, as the engine reports them too.
        let mut progress = |report: &endgame::build::SliceReport| {
            let done = done.fetch_add(report.positions, Ordering::Relaxed) + report.positions;
            let _ = app.emit(
                ENDGAME_PROGRESS_EVENT,
                Progress {
                    game: kind.as_str(),
                    done: done.min(total),
                    total,
                    finished: false,
                },
            );
        };
        let built = {
            let _finished = Finished {
                running: &self.running,
                search: &self.search,
                kind,
            };
            endgame::build_until(kind, pieces, &self.dir, threads, &stop, &mut progress)
        };
        // However it ended: a screen that did not start the build learns it is over.
        let _ = app.emit(
            ENDGAME_PROGRESS_EVENT,
            Progress {
                game: kind.as_str(),
                done: done.load(Ordering::Relaxed).min(total),
                total,
                finished: true,
            },
        );
        built.map_err(AppError::Endgame)?;
        Ok(self.status_of(kind))
    }

    /// Asks the build under way to stop after its current slice; false when none runs.
    pub fn stop(&self) -> bool {
        match lock(&self.running).as_ref() {
            Some(running) => {
                running.stop.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }
}
