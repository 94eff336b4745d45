//! The commands the UI invokes (`docs/commands.md`): each translates JSON to a session-layer call
//! and back, persisting a changed game before it replies.

use crate::error::{AppError, Notice};
use crate::settings::Settings;
use crate::state::{lock, AppState};
use damas::session::{GameSetup, GameView, SavedGame, Session, SessionError};
use serde_json::Value;
use tauri::{AppHandle, Runtime, State};

type Reply<T> = Result<T, AppError>;

/// Applies `change` to game `id` and saves it. If saving fails the game is put back as it was, so
/// memory never runs ahead of the disk. A game that ends against the CPU for the first time adds
/// one to the count of games finished in its kind.
fn change_game<R: Runtime, T>(
    app: &AppHandle<R>,
    state: &AppState,
    id: &str,
    change: impl FnOnce(&mut Session) -> Result<T, SessionError>,
) -> Reply<GameView> {
    let mut sessions = lock(&state.sessions);
    let session = sessions.get_mut(id)?;
    let before = session.to_save();
    change(session)?;
    let finished = session
        .take_first_finish()
        .then(|| session.game().variant().kind);
    if let Err(error) = state.persist.save_game(app, session) {
        if let Ok(mut restored) = before.restore() {
            restored.set_games_played(session.games_played());
            *session = restored;
        }
        return Err(error);
    }
    let view = session.view();
    if let Some(kind) = finished {
        state.count_finished_game(app, &mut sessions, kind);
    }
    Ok(view)
}

/// Saves a new game; forgets it if it cannot be saved.
fn keep_new_game<R: Runtime>(app: &AppHandle<R>, state: &AppState, id: String) -> Reply<GameView> {
    let mut sessions = lock(&state.sessions);
    let saved = state.persist.save_game(app, sessions.get(&id)?);
    if let Err(error) = saved {
        let _ = sessions.remove(&id);
        return Err(error);
    }
    Ok(sessions.get(&id)?.view())
}

#[tauri::command]
pub fn new_game<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    setup: Value,
) -> Reply<GameView> {
    let setup: GameSetup = serde_json::from_value(setup).map_err(AppError::bad_input)?;
    let id = {
        let mut sessions = lock(&state.sessions);
        sessions.cancel_all();
        sessions.create(&setup)?.id().to_string()
    };
    keep_new_game(&app, &state, id)
}

#[tauri::command]
pub fn get_game(state: State<'_, AppState>, id: String) -> Reply<GameView> {
    Ok(lock(&state.sessions).get(&id)?.view())
}

#[tauri::command]
pub fn play_move<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
    move_text: String,
) -> Reply<GameView> {
    change_game(&app, &state, &id, |s| s.play_move(&move_text))
}

/// The CPU seat to move thinks on a copy of the game, off the UI thread and outside the lock;
/// its move is played only if the game did not change meanwhile.
#[tauri::command]
pub async fn cpu_move<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
) -> Reply<GameView> {
    let turn = lock(&state.sessions).get_mut(&id)?.begin_cpu_turn()?;
    let (turn, chosen) = tokio::task::spawn_blocking(move || {
        let chosen = turn.think();
        (turn, chosen)
    })
    .await
    .map_err(|error| SessionError::BadInput(format!("the CPU stopped: {error}")))?;
    let known = lock(&state.sessions).get(&id).is_ok();
    if !known {
        return Err(SessionError::Cancelled.into());
    }
    change_game(&app, &state, &id, |s| s.finish_cpu_turn(&turn, chosen))
}

#[tauri::command]
pub fn undo<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
) -> Reply<GameView> {
    change_game(&app, &state, &id, Session::undo)
}

#[tauri::command]
pub fn redo<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
) -> Reply<GameView> {
    change_game(&app, &state, &id, Session::redo)
}

#[tauri::command]
pub fn resign<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
) -> Reply<GameView> {
    change_game(&app, &state, &id, Session::resign)
}

#[tauri::command]
pub fn rematch<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
) -> Reply<GameView> {
    let new_id = {
        let mut sessions = lock(&state.sessions);
        sessions.cancel_all();
        sessions.rematch(&id)?.id().to_string()
    };
    keep_new_game(&app, &state, new_id)
}

#[tauri::command]
pub fn list_saved(state: State<'_, AppState>) -> Vec<SavedGame> {
    lock(&state.sessions).list()
}

#[tauri::command]
pub fn delete_saved<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
) -> Reply<()> {
    let mut sessions = lock(&state.sessions);
    sessions.get(&id)?;
    state.persist.delete_game(&app, &id)?;
    sessions.remove(&id)?;
    Ok(())
}

#[tauri::command]
pub fn get_settings(state: State<'_, AppState>) -> Settings {
    *lock(&state.settings)
}

#[tauri::command]
pub fn set_settings<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    settings: Value,
) -> Reply<Settings> {
    let settings: Settings = serde_json::from_value(settings).map_err(AppError::bad_input)?;
    let mut current = lock(&state.settings);
    state.persist.save_settings(&app, &settings)?;
    *current = settings;
    Ok(settings)
}

#[tauri::command]
pub fn take_startup_notices(state: State<'_, AppState>) -> Vec<Notice> {
    std::mem::take(&mut *lock(&state.notices))
}

/// Friends' rooms hosted by this device (host.rs): starts the room server on the first call and
/// answers where it runs (`local` for this app's socket, `link` for friends on the network).
#[tauri::command]
pub async fn host_rooms<R: Runtime>(
    app: AppHandle<R>,
    host: State<'_, crate::host::Host>,
) -> Reply<crate::host::HostInfo> {
    host.start(&app).await
}
