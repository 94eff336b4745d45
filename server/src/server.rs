//! The HTTP side: `GET /ws` (the room protocol, Origin checked, connections capped),
//! `GET /health`, and with `--ui` the static UI (`/`, and `/r/<code>` answering the UI's
//! `index.html` so a room link opens the app in a browser). [`run`] is the one entry point, used
//! by `main.rs` and the tests.

use crate::config::Config;
use crate::connection;
use crate::hub::{HubContext, Hubs};
use crate::limits::ConnectionPermit;
use crate::pools::Pools;
pub use crate::shared::AccountsService;
use crate::shared::Shared;
use crate::store::RoomStore;
use axum::extract::{ConnectInfo, Extension, State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio_util::task::TaskTracker;
use tower_http::services::{ServeDir, ServeFile};
use tower_service::Service;

/// Frames above this are refused by the WebSocket layer itself (connection closed); messages
/// between `Config::max_message` and this get a `too_large` error.
const HARD_FRAME_LIMIT: usize = 64 * 1024;

/// A socket's read buffer (tungstenite's default is 128 KiB): client messages are at most 4 KiB
/// (`Config::max_message`); a larger frame is still read, in steps.
const READ_BUFFER: usize = 4 * 1024;
/// Bytes a socket gathers before writing (tungstenite's default is 128 KiB): about one state.
const WRITE_BUFFER: usize = 8 * 1024;

/// `/health` answers 503 when the store has not answered within this time.
const HEALTH_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(900);

/// How long a failed `accept` (e.g. out of file descriptors) waits before the next one.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
/// How long a shutdown waits for HTTP requests in flight (sockets close at once).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves rooms on `listener` from `store` until `shutdown` completes.
///
/// Every accepted connection takes a [`ConnectionPermit`]; beyond `max_connections` a new one is
/// closed at once. A connection that has not sent a whole request head within
/// `Config::header_timeout` is closed (half-open and slow clients hold no file descriptor long).
pub async fn run(
    listener: TcpListener,
    store: Arc<dyn RoomStore>,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    run_with_accounts(listener, store, config, None, shutdown).await
}

/// [`run`], plus the accounts, ratings and ranking routes (`/api/…`) when `accounts` is given;
/// then sockets may `sign_in` and rated games are written to its player store.
pub async fn run_with_accounts(
    listener: TcpListener,
    store: Arc<dyn RoomStore>,
    #[allow(unused_mut)] mut config: Config,
    accounts: Option<Arc<AccountsService>>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    #[cfg(feature = "accounts")]
    if let Some(accounts) = &accounts {
        config.ratings = Arc::new(crate::rated_play::StoreRatedResults::new(
            Arc::clone(&accounts.store),
            accounts.time.clone(),
        ));
    }
    let (stop, stopped) = watch::channel(false);
    let connections = Arc::new(Semaphore::new(config.max_connections));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout);
    let (pools, notices) = open_pools(&config).await?;
    let hubs = Hubs::new(HubContext {
        store: Arc::clone(&store),
        config: config.clone(),
    });
    let shared = Arc::new(Shared {
        store,
        hubs,
        pools,
        accounts: accounts.clone(),
        config,
        shutdown: stopped,
        account_limits: Default::default(),
        sockets: TaskTracker::new(),
    });
    tokio::spawn(crate::pools::waves::run_waves(Arc::clone(&shared)));
    #[cfg(feature = "redis")]
    tokio::spawn(crate::pools::waves::run_heartbeat(Arc::clone(&shared)));
    if let Some(mut notices) = notices {
        // Pairings made by another instance for players connected here.
        let weak = Arc::downgrade(&shared);
        tokio::spawn(async move {
            while let Some((id, notice)) = notices.recv().await {
                let Some(shared) = weak.upgrade() else {
                    return;
                };
                shared.pools.deliver(&id, notice);
            }
        });
    }
    let origins = shared.config.origins.clone();
    let mut app = router(Arc::clone(&shared));
    if let Some(accounts) = accounts {
        app = app.merge(accounts_router(accounts).layer(accounts_cors(&origins)));
    }
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (socket, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
            tracing::debug!("connection closed: max_connections reached");
            continue;
        };
        // Moves and states are small messages that must leave at once: no Nagle delay.
        if let Err(error) = socket.set_nodelay(true) {
            tracing::debug!(%error, "TCP_NODELAY not set");
        }
        let permit = ConnectionPermit(Arc::new(permit));
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(permit.clone());
            // What `axum::serve` with `into_make_service_with_connect_info` would give.
            request.extensions_mut().insert(ConnectInfo(peer));
            app.clone().call(request)
        });
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(socket), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "HTTP connection ended");
            }
        });
    }
    drop(listener);
    let _ = stop.send(true);
    shut_down(&shared, graceful).await;
    Ok(())
}

/// Stops serving within `SHUTDOWN_GRACE`: HTTP requests in flight finish, every socket closes
/// (`connection::SHUTTING_DOWN`) after its room action in flight is answered, and then every hub
/// records who is gone and gives its lease up, so another instance takes the rooms on at once.
async fn shut_down(shared: &Shared, graceful: GracefulShutdown) {
    let deadline = tokio::time::Instant::now() + SHUTDOWN_GRACE;
    if tokio::time::timeout_at(deadline, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("HTTP requests still in flight at shutdown");
    }
    shared.sockets.close();
    if tokio::time::timeout_at(deadline, shared.sockets.wait())
        .await
        .is_err()
    {
        tracing::warn!(
            sockets = shared.sockets.len(),
            "sockets still open at shutdown"
        );
    }
    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
    if !shared.hubs.stopped(left).await {
        tracing::warn!(
            rooms = shared.hubs.len(),
            "room hubs still running at shutdown"
        );
    }
}

type Notices = tokio::sync::mpsc::UnboundedReceiver<(String, crate::pools::choice::PoolNotice)>;

#[cfg(feature = "redis")]
async fn open_pools(config: &Config) -> std::io::Result<(Pools, Option<Notices>)> {
    let Some(url) = &config.pool_redis else {
        return Ok((Pools::default(), None));
    };
    let (redis, notices) = crate::pool_redis::RedisPools::connect(url, &config.instance)
        .await
        .map_err(std::io::Error::other)?;
    Ok((Pools::redis(redis), Some(notices)))
}

#[cfg(not(feature = "redis"))]
async fn open_pools(_config: &Config) -> std::io::Result<(Pools, Option<Notices>)> {
    Ok((Pools::default(), None))
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

/// 200 when rooms can be served (the store answers within `HEALTH_TIMEOUT`), else 503.
async fn health(State(shared): State<Arc<Shared>>) -> Response {
    match tokio::time::timeout(HEALTH_TIMEOUT, shared.store.ping()).await {
        Ok(Ok(())) => (StatusCode::OK, "ok\n").into_response(),
        Ok(Err(error)) => (StatusCode::SERVICE_UNAVAILABLE, format!("{error}\n")).into_response(),
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            "room store unavailable: no answer in time\n",
        )
            .into_response(),
    }
}

async fn websocket(
    State(shared): State<Arc<Shared>>,
    permit: Option<Extension<ConnectionPermit>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&shared.config, &headers) {
        return (StatusCode::FORBIDDEN, "origin not allowed\n").into_response();
    }
    let permit = permit.map(|Extension(permit)| permit);
    upgrade
        // Small buffers: client messages are tiny and thousands of sockets are held at once.
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_message_size(HARD_FRAME_LIMIT)
        .max_frame_size(HARD_FRAME_LIMIT)
        .on_upgrade(move |socket| {
            let sockets = shared.sockets.clone();
            sockets.track_future(connection::serve(socket, shared, permit))
        })
}

/// The account routes answer pages of other origins on the `--origin` allow-list (the app's web
/// view, `tauri://localhost`, calls them with its session token): CORS for those origins only,
/// with the methods and headers the routes take. The server's own pages need none.
fn accounts_cors(origins: &[String]) -> tower_http::cors::CorsLayer {
    use tower_http::cors::{AllowOrigin, CorsLayer};
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            origins
                .iter()
                .filter_map(|o| header::HeaderValue::from_str(o).ok()),
        )
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([
            axum::http::Method::GET,
            axum::http::Method::POST,
            axum::http::Method::PUT,
            axum::http::Method::DELETE,
        ])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
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
