//! The HTTP side: `GET /ws` (the room protocol, Origin checked, connections capped),
//! `GET /health`, and with `--ui` the static UI (`/`, and `/r/<code>` answering the UI's
//! `index.html` so a room link opens the app in a browser). [`run`] is the one entry point, used
//! by `main.rs` and the tests.

#[cfg(feature = "accounts")]
pub use crate::accounts::http::AccountsService;
/// Without the `accounts` feature there is no accounts service (this type has no value).
#[cfg(not(feature = "accounts"))]
pub enum AccountsService {}
use crate::config::Config;
use crate::connection;
use crate::hub::Hubs;
use crate::store::RoomStore;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::Router;
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tower_http::services::{ServeDir, ServeFile};

/// Frames above this are refused by the WebSocket layer itself (connection closed); messages
/// between `Config::max_message` and this get a `too_large` error.
const HARD_FRAME_LIMIT: usize = 64 * 1024;

/// A socket's read buffer (tungstenite's default is 128 KiB): client messages are at most 4 KiB
/// (`Config::max_message`); a larger frame is still read, in steps.
const READ_BUFFER: usize = 4 * 1024;
/// Bytes a socket gathers before writing (tungstenite's default is 128 KiB): about one state.
const WRITE_BUFFER: usize = 8 * 1024;

/// What every connection and hub of this instance shares.
pub struct Shared {
    pub store: Arc<dyn RoomStore>,
    pub config: Config,
    pub hubs: Hubs,
    /// Accounts, ratings and sign-in, when this instance keeps them (`--data`/`--database`):
    /// what a connection asks to learn who a session token belongs to.
    pub accounts: Option<Arc<AccountsService>>,
    /// One permit per open socket.
    connections: Arc<Semaphore>,
    /// Turns true when the server shuts down; connections close.
    pub shutdown: watch::Receiver<bool>,
}

/// Serves rooms on `listener` from `store` until `shutdown` completes.
pub async fn run(
    listener: TcpListener,
    store: Arc<dyn RoomStore>,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    run_with_accounts(listener, store, config, None, shutdown).await
}

/// [`run`], plus the accounts, ratings and ranking routes (`/api/…`) when `accounts` is given.
pub async fn run_with_accounts(
    listener: TcpListener,
    store: Arc<dyn RoomStore>,
    config: Config,
    accounts: Option<Arc<AccountsService>>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (stop, stopped) = watch::channel(false);
    let shared = Arc::new(Shared {
        store,
        connections: Arc::new(Semaphore::new(config.max_connections)),
        hubs: Hubs::default(),
        accounts: accounts.clone(),
        config,
        shutdown: stopped,
    });
    let mut app = router(shared);
    if let Some(accounts) = accounts {
        app = app.merge(accounts_router(accounts));
    }
    // Moves and states are small messages that must leave at once: no Nagle delay.
    let listener = listener.tap_io(|socket| {
        if let Err(error) = socket.set_nodelay(true) {
            tracing::debug!(%error, "TCP_NODELAY not set");
        }
    });
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        shutdown.await;
        let _ = stop.send(true);
    })
    .await
}

fn router(shared: Arc<Shared>) -> Router {
    let mut app = Router::new()
        .route("/health", get(health))
        .route("/ws", get(websocket));
    if let Some(dir) = &shared.config.ui_dir {
        let index = dir.join("index.html");
        app = app
            .route_service("/r/{code}", ServeFile::new(index))
            .fallback_service(ServeDir::new(dir));
    }
    app.with_state(shared)
}

#[cfg(feature = "accounts")]
fn accounts_router(accounts: Arc<AccountsService>) -> Router {
    crate::accounts::http::router(accounts)
}

#[cfg(not(feature = "accounts"))]
fn accounts_router(accounts: Arc<AccountsService>) -> Router {
    match *accounts {}
}

/// 200 when rooms can be served (the store answers), else 503.
async fn health(State(shared): State<Arc<Shared>>) -> Response {
    match shared.store.ping().await {
        Ok(()) => (StatusCode::OK, "ok\n").into_response(),
        Err(error) => (StatusCode::SERVICE_UNAVAILABLE, format!("{error}\n")).into_response(),
    }
}

async fn websocket(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&shared.config, &headers) {
        return (StatusCode::FORBIDDEN, "origin not allowed\n").into_response();
    }
    let Ok(permit) = Arc::clone(&shared.connections).try_acquire_owned() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many connections\n").into_response();
    };
    upgrade
        // Small buffers: client messages are tiny and thousands of sockets are held at once.
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_message_size(HARD_FRAME_LIMIT)
        .max_frame_size(HARD_FRAME_LIMIT)
        .on_upgrade(move |socket| connection::serve(socket, shared, permit))
}

/// Browsers send `Origin`: it must be this server's own host or on the allow-list. Clients
/// without `Origin` (the app's native side, tests) are admitted.
pub fn origin_allowed(config: &Config, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if config.origins.iter().any(|o| o == "*" || o == origin) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (host, origin.split_once("://")) {
        (Some(host), Some(("http" | "https", origin_host))) => origin_host == host,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    #[test]
    fn origins() {
        let mut config = Config {
            origins: vec!["https://damas.example".into()],
            ..Config::default()
        };
        assert!(origin_allowed(&config, &headers(None, "a:1")));
        assert!(origin_allowed(&config, &headers(Some("http://a:1"), "a:1")));
        assert!(origin_allowed(
            &config,
            &headers(Some("https://damas.example"), "a:1")
        ));
        assert!(!origin_allowed(
            &config,
            &headers(Some("https://evil.example"), "a:1")
        ));
        assert!(!origin_allowed(&config, &headers(Some("null"), "a:1")));
        config.origins = vec!["*".into()];
        assert!(origin_allowed(
            &config,
            &headers(Some("https://evil.example"), "a:1")
        ));
    }
}
