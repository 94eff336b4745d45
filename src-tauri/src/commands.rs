//! The commands the UI invokes (`docs/commands.md`): each translates JSON to a session-layer call
//! and back, persisting a changed game before it replies.

use crate::endgame::EndgameStatus;
use crate::error::{AppError, Notice};
use crate::lock::lock;
use crate::rooms::SavedRoom;
use crate::settings::{check_movetime, Settings};
use crate::state::AppState;
use crate::stats::{candies, summarise, Candies, LevelStats, RoomResult};
use damas::search::endgame::EndgameError;
use damas::session::{GameSetup, GameView, Mode, ModeSetup, SavedGame, Session, SessionError};
use damas::MoveInfo;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use tauri::{AppHandle, Manager, Runtime, State};

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
    if let Err(error) = state.persist.save_game(session) {
        if let Ok(mut restored) = before.restore() {
            restored.set_games_played(session.games_played());
            *session = restored;
        }
        return Err(error);
    }
    let view = session.view();
    if let Some(kind) = finished {
        state.record_result(app, session);
        state.count_finished_game(app, &mut sessions, kind);
    }
    Ok(view)
}

/// Saves a new game; forgets it if it cannot be saved.
fn keep_new_game(state: &AppState, id: String) -> Reply<GameView> {
    let mut sessions = lock(&state.sessions);
    let saved = state.persist.save_game(sessions.get(&id)?);
    if let Err(error) = saved {
        let _ = sessions.remove(&id);
        return Err(error);
    }
    Ok(sessions.get(&id)?.view())
}

#[tauri::command]
pub fn new_game(state: State<'_, AppState>, setup: Value) -> Reply<GameView> {
    let setup: GameSetup = serde_json::from_value(setup).map_err(AppError::bad_input)?;
    let id = {
        let mut sessions = lock(&state.sessions);
        sessions.cancel_all();
        sessions.create(&setup)?.id().to_string()
    };
    keep_new_game(&state, id)
}

#[tauri::command]
pub fn get_game(state: State<'_, AppState>, id: String) -> Reply<GameView> {
    Ok(lock(&state.sessions).get(&id)?.view())
}

/// A rules diagram: the view of `setup`'s position (a new-game request) after `moves`, held
/// nowhere (no game is created or saved).
#[tauri::command]
pub fn diagram(setup: Value, moves: Vec<String>) -> Reply<GameView> {
    let setup: GameSetup = serde_json::from_value(setup).map_err(AppError::bad_input)?;
    let mut session = Session::new("diagram".into(), &setup)?;
    for text in &moves {
        session.play_move(text)?;
    }
    Ok(session.view())
}

/// The game's position after its first `ply` moves, read-only (review).
#[tauri::command]
pub fn view_at(state: State<'_, AppState>, id: String, ply: usize) -> Reply<GameView> {
    Ok(lock(&state.sessions).get(&id)?.view_at(ply)?)
}

/// A game as text to share: PDN for draughts, the record text for the star games.
#[derive(Debug, Serialize)]
pub struct Export {
    pub text: String,
    pub file_name: String,
}

/// `player`: the human's name against the CPU (the player's nickname), written for the human seat.
#[tauri::command]
pub fn export_game(
    state: State<'_, AppState>,
    id: String,
    player: Option<String>,
) -> Reply<Export> {
    let sessions = lock(&state.sessions);
    let session = sessions.get(&id)?;
    Ok(Export {
        text: session.export_text_for(player.as_deref()),
        file_name: session.export_file_name(),
    })
}

/// Writes the export of game `id` to the export folder; replies with the file's path.
#[tauri::command]
pub fn save_export(
    state: State<'_, AppState>,
    id: String,
    player: Option<String>,
) -> Reply<String> {
    let (text, file_name) = {
        let sessions = lock(&state.sessions);
        let session = sessions.get(&id)?;
        (
            session.export_text_for(player.as_deref()),
            session.export_file_name(),
        )
    };
    let path = state.export_dir.join(file_name);
    std::fs::create_dir_all(&state.export_dir)
        .and_then(|()| std::fs::write(&path, text))
        .map_err(AppError::storage)?;
    Ok(path.display().to_string())
}

/// Reads a PDN or record text into a new game played as `setup` (`{mode, level, human_seats}`)
/// asks, saved like a new game. Against the CPU without `human_seats`, the human takes the seat
/// to move at the end of the text. A text that does not replay is rejected and nothing is kept.
#[tauri::command]
pub fn import_game(state: State<'_, AppState>, text: String, setup: Value) -> Reply<GameView> {
    let setup: ModeSetup = serde_json::from_value(setup).map_err(AppError::bad_input)?;
    let mut mode = setup.validate()?;
    if let (Mode::Cpu { human_seats, .. }, None) = (&mut mode, &setup.human_seats) {
        let replayed = Session::import(String::new(), &text, Mode::Local)?;
        *human_seats = vec![replayed.game().to_move()];
    }
    let id = {
        let mut sessions = lock(&state.sessions);
        sessions.cancel_all();
        let session = Session::import(sessions.fresh_id(), &text, mode)?;
        sessions.insert(session).id().to_string()
    };
    keep_new_game(&state, id)
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
/// its move is played only if the game did not change meanwhile. `ply`, when given, is the ply
/// the caller saw: an undo sent after this call may still reach the game first (this command
/// runs on the async runtime, undo on the main thread), and then the call is `cancelled`.
#[tauri::command]
pub async fn cpu_move<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
    ply: Option<usize>,
) -> Reply<GameView> {
    let movetime = lock(&state.settings).movetime;
    let turn = {
        let mut sessions = lock(&state.sessions);
        let session = sessions.get_mut(&id)?;
        match ply {
            Some(seen) => session.begin_cpu_turn_seen(seen)?,
            None => session.begin_cpu_turn()?,
        }
    }
    .with_movetime(movetime);
    let search = Arc::clone(&state.search);
    let (turn, chosen) = tokio::task::spawn_blocking(move || {
        let chosen = turn.think(&search);
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

/// A hint: the hard CPU's move for the human to move, and the view with the hint counted.
#[derive(Debug, Serialize)]
pub struct Hint {
    #[serde(rename = "move")]
    pub suggested: MoveInfo,
    pub view: GameView,
}

/// The hard CPU thinks for the human seat to move (vs the CPU only), like `cpu_move` off the UI
/// thread; the move is not played, the game counts one more hint.
#[tauri::command]
pub async fn hint<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: String,
) -> Reply<Hint> {
    let turn = lock(&state.sessions).get_mut(&id)?.begin_hint()?;
    let search = Arc::clone(&state.search);
    let (turn, chosen) = tokio::task::spawn_blocking(move || {
        let chosen = turn.think(&search);
        (turn, chosen)
    })
    .await
    .map_err(|error| SessionError::BadInput(format!("the CPU stopped: {error}")))?;
    let mut suggested = None;
    let view = change_game(&app, &state, &id, |s| {
        suggested = Some(s.finish_hint(&turn, chosen)?);
        Ok(())
    })?;
    let suggested = suggested.ok_or(SessionError::Cancelled)?;
    Ok(Hint { suggested, view })
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
pub fn rematch(state: State<'_, AppState>, id: String) -> Reply<GameView> {
    let new_id = {
        let mut sessions = lock(&state.sessions);
        sessions.cancel_all();
        sessions.rematch(&id)?.id().to_string()
    };
    keep_new_game(&state, new_id)
}

#[tauri::command]
pub fn list_saved(state: State<'_, AppState>) -> Vec<SavedGame> {
    lock(&state.sessions).list()
}

#[tauri::command]
pub fn delete_saved(state: State<'_, AppState>, id: String) -> Reply<()> {
    let mut sessions = lock(&state.sessions);
    sessions.get(&id)?;
    state.persist.delete_game(&id)?;
    sessions.remove(&id)?;
    Ok(())
}

#[tauri::command]
pub fn get_settings(state: State<'_, AppState>) -> Settings {
    lock(&state.settings).clone()
}

#[tauri::command]
pub fn set_settings<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    settings: Value,
) -> Reply<Settings> {
    check_movetime(&settings).map_err(AppError::bad_input)?;
    let mut settings: Settings = serde_json::from_value(settings).map_err(AppError::bad_input)?;
    if let Some(server) = settings.room_server.take() {
        let server = server.trim().trim_end_matches('/').to_string();
        if !server.is_empty() {
            if !crate::rooms::is_server_address(&server) {
                return Err(AppError::bad_input(
                    "the room server is not an http(s) address",
                ));
            }
            settings.room_server = Some(server);
        }
    }
    let mut current = lock(&state.settings);
    state.persist.save_settings(&app, &settings)?;
    *current = settings.clone();
    Ok(settings)
}

/// The statistics against the CPU, per game and level.
#[tauri::command]
pub fn get_stats(state: State<'_, AppState>) -> Vec<LevelStats> {
    summarise(&lock(&state.results))
}

/// The candies earned against the CPU and in friends' rooms: today's (the device's local day,
/// `utc_offset_minutes` east of UTC) and in all.
#[tauri::command]
pub fn get_candies(state: State<'_, AppState>, utc_offset_minutes: i32) -> Candies {
    let results = lock(&state.results).clone();
    candies(
        &results,
        &lock(&state.room_results),
        utc_offset_minutes,
        damas::session::unix_ms(),
    )
}

/// The longest game a room result may claim (more plies than any rules allow).
const MOST_PLIES: usize = 100_000;

/// A friends' room game finished with this device seated: `{code, rematch, kind, result (from
/// this seat), plies}`. Recorded once per room code and rematch number (true the first time);
/// it gives candies (15/8/5) when it lasted 16 plies or more.
#[tauri::command]
pub fn record_room_result<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    game: Value,
) -> Reply<bool> {
    let game: RoomResult = serde_json::from_value(game).map_err(AppError::bad_input)?;
    if damas_server::store::RoomCode::parse(&game.code).is_none() {
        return Err(AppError::bad_input("not a room code"));
    }
    if game.plies > MOST_PLIES {
        return Err(AppError::bad_input("more plies than a game can have"));
    }
    let game = RoomResult {
        finished: damas::session::unix_ms(),
        ..game
    };
    Ok(state.record_room_result(&app, game))
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

/// The friends' room games this device is seated in, newest first (rooms.rs).
#[tauri::command]
pub fn list_rooms(state: State<'_, AppState>) -> Vec<SavedRoom> {
    lock(&state.rooms).list().to_vec()
}

/// Keeps a room game's seat (server, code, token, game, nickname) across restarts; replies with
/// the room as kept (nickname cleaned, `at` now). Saving the same room again replaces it.
#[tauri::command]
pub fn save_room(state: State<'_, AppState>, room: Value) -> Reply<SavedRoom> {
    let token = room.get("token").and_then(Value::as_str).map(str::to_owned);
    let room: SavedRoom = serde_json::from_value(room).map_err(|error| {
        // serde's message may quote a value: never the token.
        let mut detail = error.to_string();
        if let Some(token) = token.filter(|t| !t.is_empty()) {
            detail = detail.replace(&token, "<hidden>");
        }
        AppError::bad_input(format!(
            "a room is {{server, code, token, kind, nickname, hosted?}}: {detail}"
        ))
    })?;
    let room = SavedRoom {
        at: damas::session::unix_ms(),
        ..room.validated()?
    };
    lock(&state.rooms).save(room.clone())?;
    Ok(room)
}

/// Forgets a room game (it ended, or the player left it); true when it was kept.
#[tauri::command]
pub fn forget_room(state: State<'_, AppState>, code: String) -> Reply<bool> {
    lock(&state.rooms).forget(&code)
}

/// The room code of the `damas://join/<code>` link the app was opened with (or received since)
/// that the UI has not taken yet; taken once.
#[tauri::command]
pub fn take_deep_link(pending: State<'_, crate::links::PendingLink>) -> Option<String> {
    pending.take()
}

/// The session token of a sign-in that came back by the `damas://signed-in` link and that the
/// UI has not taken yet; taken once.
#[tauri::command]
pub fn take_signed_in(pending: State<'_, crate::links::PendingSession>) -> Option<String> {
    pending.take()
}

/// Opens a room server's sign-in (`http(s)://…/auth/start?to=app…`) in the system browser (OAuth
/// 2.0 for native apps: never in the app's own web view). Any other address is refused.
#[tauri::command]
pub fn open_sign_in(url: String) -> Reply<()> {
    let lower = url.to_ascii_lowercase();
    let (scheme, rest) = lower
        .split_once("://")
        .ok_or_else(|| AppError::bad_input("not a sign-in address"))?;
    let path = rest.split_once('/').map(|(_, path)| path).unwrap_or("");
    if !(scheme == "http" || scheme == "https")
        || !path.starts_with("auth/start?")
        || url.len() > 2048
        || url.chars().any(char::is_whitespace)
    {
        return Err(AppError::bad_input("not a sign-in address"));
    }
    open::that_detached(&url).map_err(|error| AppError::Browser(error.to_string()))
}

/// What the device holds of each draughts game's endgame tables, and the build under way.
#[tauri::command]
pub fn endgame_status(state: State<'_, AppState>) -> Vec<EndgameStatus> {
    state.endgame.status()
}

/// Builds `game`'s endgame tables (up to `pieces`, default and most: the offered count) off the
/// UI thread, sending `endgame-progress` events; answers the game's status when they are read.
#[tauri::command]
pub async fn build_endgame<R: Runtime>(
    app: AppHandle<R>,
    game: String,
    pieces: Option<u32>,
) -> Reply<EndgameStatus> {
    let worker = app.clone();
    tokio::task::spawn_blocking(move || {
        let state = worker.state::<AppState>();
        state.endgame.build(&worker, &game, pieces)
    })
    .await
    .map_err(|_| AppError::Endgame(EndgameError::WorkerPanicked))?
}

/// Stops the endgame build under way after its current slice (it then fails with
/// `endgame_stopped`); false when none runs.
#[tauri::command]
pub fn stop_endgame_build(state: State<'_, AppState>) -> bool {
    state.endgame.stop()
}
