//! Damas, the app: a Tauri shell over the engine's session layer. `run` starts the desktop or
//! mobile app; [`build_app`] builds it on any runtime's builder, so tests drive the same commands
//! through `tauri::test::mock_builder()`.

mod commands;
mod error;
mod host;
mod persist;
mod rooms;
mod saves;
mod settings;
mod state;
mod stats;

pub use error::{AppError, Notice};
pub use host::{Host, HostInfo};
pub use persist::{GAMES_PLAYED_KEY, PROGRESS_FILE, RESULTS_KEY, SETTINGS_FILE};
pub use rooms::{SavedRoom, ROOMS_FILE};
pub use saves::{OLD_SAVES_FILE, SAVES_DIR};
pub use settings::{Language, Settings, Skin};
pub use state::AppState;

use std::path::PathBuf;
use tauri::{App, AppHandle, Builder, Context, Manager, RunEvent, Runtime};

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    match build_app(tauri::Builder::default(), tauri::generate_context!(), None) {
        Ok(app) => app.run(on_event),
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
            commands::take_startup_notices,
            commands::host_rooms,
            commands::list_rooms,
            commands::save_room,
            commands::forget_room,
        ])
        .build(context)?;
    let state = AppState::open(app.handle(), data_dir)?;
    app.manage(state);
    app.manage(Host::default());
    Ok(app)
}

/// Quitting stops any CPU move and closes the stores.
pub fn on_event<R: Runtime>(app: &AppHandle<R>, event: RunEvent) {
    if let RunEvent::ExitRequested { .. } | RunEvent::Exit = event {
        if let Some(state) = app.try_state::<AppState>() {
            state.shutdown(app);
        }
    }
}
