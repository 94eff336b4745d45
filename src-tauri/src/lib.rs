//! Damas, the app: a Tauri shell over the engine's session layer. `run` starts the desktop or
//! mobile app; [`build_app`] builds it on any runtime's builder, so tests drive the same commands
//! through `tauri::test::mock_builder()`.

mod commands;
mod endgame;
mod error;
mod host;
mod links;
mod persist;
mod rooms;
mod saves;
mod settings;
mod state;
mod stats;
mod web_process_env;

pub use endgame::{EndgameStatus, ENDGAME_PROGRESS_EVENT};
pub use error::{AppError, Notice};
pub use host::{Host, HostInfo};
pub use links::{
    join_code, signed_in_session, PendingLink, PendingSession, LINK_EVENT, SIGNED_IN_EVENT,
};
pub use persist::{GAMES_PLAYED_KEY, PROGRESS_FILE, RESULTS_KEY, ROOM_RESULTS_KEY, SETTINGS_FILE};
pub use rooms::{SavedRoom, ROOMS_FILE};
pub use saves::{OLD_SAVES_FILE, SAVES_DIR};
pub use settings::{Language, Settings, Skin};
pub use state::AppState;

use std::path::PathBuf;
use tauri::{App, AppHandle, Builder, Context, Emitter, Manager, RunEvent, Runtime};
use tauri_plugin_deep_link::DeepLinkExt;

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    web_process_env::set_for_web_processes();
    let builder = tauri::Builder::default();
    // A second launch (the system opening a damas:// link while the app runs) hands its
    // arguments to this instance and quits; the deep-link feature passes a lone link on to the
    // deep-link plugin. First of the plugins, as the plugin asks. Not in `build_app`: the tests'
    // apps would find each other.
    #[cfg(any(target_os = "linux", target_os = "windows"))]
    let builder = builder.plugin(tauri_plugin_single_instance::init(|app, args, _cwd| {
        if let Some(code) = links::join_code_in_args(&args) {
            receive_join_link(app, code);
        }
        if let Some(token) = links::signed_in_session_in_args(&args) {
            receive_session(app, token);
        }
        if let Some(window) = app.get_webview_window("main") {
            let _ = window.unminimize();
            let _ = window.set_focus();
        }
    }));
    match build_app(builder, tauri::generate_context!(), None) {
        Ok(app) => {
            take_launch_link(app.handle());
            app.run(on_event)
        }
        Err(error) => {
            eprintln!("Damas could not start: {error}");
            std::process::exit(1);
        }
    }
}

/// Why the app could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Tauri(#[from] tauri::Error),
    #[error(transparent)]
    State(#[from] AppError),
}

/// The app on `builder`'s runtime: the store plugin, the commands, and the state (games and
/// settings loaded from `data_dir`, by default the app's data directory). The state is managed
/// before the event loop starts, so it is there before any window can invoke a command.
pub fn build_app<R: Runtime>(
    builder: Builder<R>,
    context: Context<R>,
    data_dir: Option<PathBuf>,
) -> Result<App<R>, StartError> {
    let app = builder
        .plugin(tauri_plugin_store::Builder::default().build())
        .plugin(tauri_plugin_deep_link::init())
        .invoke_handler(tauri::generate_handler![
            commands::new_game,
            commands::get_game,
            commands::view_at,
            commands::diagram,
            commands::export_game,
            commands::save_export,
            commands::import_game,
            commands::play_move,
            commands::cpu_move,
            commands::hint,
            commands::undo,
            commands::redo,
            commands::resign,
            commands::rematch,
            commands::list_saved,
            commands::delete_saved,
            commands::get_settings,
            commands::set_settings,
            commands::get_stats,
            commands::get_candies,
            commands::record_room_result,
            commands::take_startup_notices,
            commands::host_rooms,
            commands::list_rooms,
            commands::save_room,
            commands::forget_room,
            commands::take_deep_link,
            commands::take_signed_in,
            commands::open_sign_in,
            commands::endgame_status,
            commands::build_endgame,
            commands::stop_endgame_build,
        ])
        .build(context)?;
    let state = AppState::open(app.handle(), data_dir)?;
    app.manage(state);
    app.manage(Host::default());
    app.manage(PendingLink::default());
    app.manage(PendingSession::default());
    // Links the system opens while the app runs (macOS: always; Linux, Windows: through the
    // single-instance plugin).
    let handle = app.handle().clone();
    app.deep_link().on_open_url(move |event| {
        let urls = event.urls();
        let code = urls
            .iter()
            .find_map(|url| links::join_code(url.as_str()).ok());
        if let Some(code) = code {
            receive_join_link(&handle, code);
        }
        let session = urls
            .iter()
            .find_map(|url| links::signed_in_session(url.as_str()));
        if let Some(token) = session {
            receive_session(&handle, token);
        }
    });
    Ok(app)
}

/// A join link for the UI: kept until it takes it (`take_deep_link`), and announced to a UI
/// that already runs.
pub fn receive_join_link<R: Runtime>(app: &AppHandle<R>, code: String) {
    if let Some(pending) = app.try_state::<PendingLink>() {
        pending.set(code.clone());
    }
    let _ = app.emit(LINK_EVENT, code);
}

/// A sign-in come back by the `damas://signed-in` link: kept until the UI takes it
/// (`take_signed_in`), and announced to a UI that already runs.
pub fn receive_session<R: Runtime>(app: &AppHandle<R>, token: String) {
    if let Some(pending) = app.try_state::<PendingSession>() {
        pending.set(token);
    }
    let _ = app.emit(SIGNED_IN_EVENT, ());
}

/// The link the app was started with: the deep-link plugin's (every platform), or on Linux and
/// Windows a `damas://` argument among others (the plugin takes a lone argument only). In
/// development builds on Linux and Windows the scheme is registered for this binary, as an
/// installed bundle registers it.
fn take_launch_link<R: Runtime>(app: &AppHandle<R>) {
    #[cfg(all(debug_assertions, any(target_os = "linux", target_os = "windows")))]
    if let Err(error) = app.deep_link().register_all() {
        eprintln!("Damas: damas:// links not registered for this build: {error}");
    }
    let current = app.deep_link().get_current().ok().flatten();
    let session = current
        .iter()
        .flatten()
        .find_map(|url| links::signed_in_session(url.as_str()));
    if let Some(token) = session.or_else(|| links::signed_in_session_in_args(std::env::args())) {
        receive_session(app, token);
    }
    let from_plugin = current.and_then(|urls| {
        urls.iter()
            .find_map(|url| links::join_code(url.as_str()).ok())
    });
    if let Some(code) = from_plugin.or_else(|| links::join_code_in_args(std::env::args())) {
        receive_join_link(app, code);
    }
}

/// Quitting stops any CPU move and closes the stores.
pub fn on_event<R: Runtime>(app: &AppHandle<R>, event: RunEvent) {
    if let RunEvent::ExitRequested { .. } | RunEvent::Exit = event {
        if let Some(state) = app.try_state::<AppState>() {
            state.shutdown(app);
        }
    }
}
