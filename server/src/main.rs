//! `damas-server`: the room server's command line. Alone it serves rooms from memory on
//! 127.0.0.1:8080; `--redis URL` shares rooms with other instances through Redis, and
//! `--redis-cluster URL,URL,…` through a Redis Cluster.

use clap::Parser;
use damas::search::levels::MoveTime;
use damas_server::accounts::http::AccountsService;
use damas_server::accounts::oidc::{Oidc, OidcConfig};
use damas_server::player_store::{PlayerStoreConfig, PlayerStoreError};
use damas_server::store::memory::MemoryStore;
use damas_server::store::{RoomStore, StoreError};
use damas_server::Config;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "damas-server",
    version,
    about = "Damas room server (WebSocket)"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Keep rooms in Redis (e.g. redis://127.0.0.1:6379) instead of memory.
    #[arg(long, value_name = "URL", conflicts_with = "redis_cluster")]
    redis: Option<String>,
    /// Keep rooms in a Redis Cluster, reached through any of these nodes (comma-separated, e.g.
    /// redis://10.0.0.1:6379,redis://10.0.0.2:6379).
    #[arg(long, value_name = "URL,URL,…", value_delimiter = ',')]
    redis_cluster: Vec<String>,
    /// Serve the static UI from this directory (`/`, and `/r/<code>` for room links).
    #[arg(long, value_name = "DIR")]
    ui: Option<PathBuf>,
    /// Origin admitted for browser sockets besides this server's own (repeatable; `*`: any).
    #[arg(long = "origin", value_name = "ORIGIN")]
    origins: Vec<String>,
    /// Keep accounts, sessions and ratings in SQLite under this directory (`DIR/players.sqlite3`,
    /// created on first start). Sign-in, ratings and the ranking are on with this or --database.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Keep accounts, sessions and ratings in PostgreSQL (postgres://user@host:port/db) instead
    /// of SQLite: for many instances sharing one ranking.
    #[arg(long, value_name = "URL", conflicts_with = "data")]
    database: Option<String>,
    /// OpenID Connect issuer for sign-in (e.g. https://accounts.google.com); needs --data or
    /// --database, and --oidc-client-id. The client secret comes from DAMAS_OIDC_CLIENT_SECRET
    /// or --oidc-client-secret-file.
    #[arg(long, value_name = "URL", requires = "oidc_client_id")]
    oidc_issuer: Option<String>,
    /// This server's client id at the issuer (the audience of its ID tokens).
    #[arg(long, value_name = "ID")]
    oidc_client_id: Option<String>,
    /// A file holding the client secret (instead of DAMAS_OIDC_CLIENT_SECRET).
    #[arg(long, value_name = "FILE")]
    oidc_client_secret_file: Option<PathBuf>,
    /// Another accepted audience for ID tokens the app posts (its native client id; repeatable).
    #[arg(long = "oidc-app-client-id", value_name = "ID")]
    oidc_app_client_ids: Vec<String>,
    /// This server's address as browsers reach it (for the sign-in callback,
    /// URL/auth/callback); default http://ADDRESS:PORT as bound.
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// Seconds a disconnected player keeps the seat before the CPU plays it (tests shorten it).
    #[arg(long, default_value_t = 45, value_parser = clap::value_parser!(u64).range(1..=3600))]
    takeover_secs: u64,
    /// The expert CPU's thinking time per move in ms (the server's CPU budget per move, 500–5000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(500..=5000))]
    cpu_movetime_ms: u64,
    /// Seconds a player waits in a pairing pool before the CPU stands in (tests shorten it).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=600))]
    pool_cpu_after_secs: u64,
    /// Milliseconds between two pairing waves.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(100..=60000))]
    pool_wave_ms: u64,
    /// Messages each connection may send per second on average; more are refused with
    /// `rate_limited` (tests of many instances raise it to play as fast as the machine goes).
    #[arg(long, default_value_t = damas_server::config::MESSAGE_RATE,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    message_rate: u32,
    /// Messages each connection may send in one burst.
    #[arg(long, default_value_t = damas_server::config::MESSAGE_BURST,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    message_burst: u32,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Load generator: N rooms × 2 clients playing on a server this command starts.
    Bench(damas_server::bench::BenchArgs),
}

#[derive(Debug, thiserror::Error)]
enum StartError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Players(#[from] PlayerStoreError),
    #[error("cannot listen on {0}: {1}")]
    Listen(String, std::io::Error),
    #[error("--ui {0}: no index.html there")]
    NoUi(String),
    #[error("sign-in: {0}")]
    SignIn(#[from] damas_server::accounts::oidc::SignInError),
    #[error("{0}")]
    Config(String),
    #[error("server stopped: {0}")]
    Serve(std::io::Error),
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("damas-server: cannot start the runtime: {error}");
            std::process::exit(1);
        }
    };
    if let Some(Command::Bench(args)) = cli.command {
        if let Err(error) = runtime.block_on(damas_server::bench::run(args)) {
            eprintln!("damas-server bench: {error}");
            std::process::exit(1);
        }
        return;
    }
    if let Err(error) = runtime.block_on(serve(cli)) {
        eprintln!("damas-server: {error}");
        std::process::exit(1);
    }
}

async fn open_store(cli: &Cli, config: &Config) -> Result<Arc<dyn RoomStore>, StoreError> {
    match (&cli.redis, cli.redis_cluster.as_slice()) {
        (None, []) => {
            let store = MemoryStore::new(config.time.clone());
            store.spawn_sweeper(Duration::from_secs(30));
            Ok(Arc::new(store))
        }
        (Some(url), _) => redis_store(std::slice::from_ref(url), false).await,
        (None, nodes) => redis_store(nodes, true).await,
    }
}

#[cfg(feature = "redis")]
async fn redis_store(urls: &[String], cluster: bool) -> Result<Arc<dyn RoomStore>, StoreError> {
    use damas_server::store::redis::RedisStore;
    let store = match urls {
        [url] if !cluster => RedisStore::connect(url).await?,
        nodes => RedisStore::connect_cluster(nodes).await?,
    };
    Ok(Arc::new(store))
}

#[cfg(not(feature = "redis"))]
async fn redis_store(_urls: &[String], _cluster: bool) -> Result<Arc<dyn RoomStore>, StoreError> {
    Err(StoreError::NotBuilt(
        "this damas-server was built without Redis support (cargo feature `redis`)".into(),
    ))
}

async fn serve(cli: Cli) -> Result<(), StartError> {
    if let Some(dir) = &cli.ui {
        if !dir.join("index.html").is_file() {
            return Err(StartError::NoUi(dir.display().to_string()));
        }
    }
    // Every socket is a file: the soft limit goes up to the hard one, the cap stays below it.
    let file_limit = damas_server::limits::raise_file_limit();
    let max_connections = file_limit.map_or(
        damas_server::limits::MAX_CONNECTIONS,
        damas_server::limits::connection_cap,
    );
    tracing::info!(?file_limit, max_connections, "open-file limit");
    let config = Config {
        max_connections,
        takeover: Duration::from_secs(cli.takeover_secs),
        origins: cli.origins.clone(),
        ui_dir: cli.ui.clone(),
        cpu_movetime: MoveTime::from_millis(cli.cpu_movetime_ms).unwrap_or_default(),
        pool_cpu_after: Duration::from_secs(cli.pool_cpu_after_secs),
        pool_wave: Duration::from_millis(cli.pool_wave_ms),
        rate_per_second: f64::from(cli.message_rate),
        rate_burst: f64::from(cli.message_burst),
        pool_redis: cli.redis.clone(),
        ..Config::default()
    };
    let store = open_store(&cli, &config).await?;
    store.ping().await?;
    let address = std::net::SocketAddr::new(cli.bind, cli.port);
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| StartError::Listen(address.to_string(), e))?;
    let local = listener
        .local_addr()
        .map_err(|e| StartError::Listen(address.to_string(), e))?;
    let players = match (&cli.database, &cli.data) {
        (Some(url), _) => Some(PlayerStoreConfig::Postgres(url.clone())),
        (None, Some(dir)) => Some(PlayerStoreConfig::Sqlite(dir.clone())),
        (None, None) if cli.oidc_issuer.is_some() => {
            return Err(StartError::Config(
                "--oidc-issuer needs --data DIR or --database URL (where accounts are kept)".into(),
            ))
        }
        (None, None) => None,
    };
    let accounts = match &players {
        Some(players) => {
            let store = damas_server::player_store::open(players).await?;
            let oidc = match &cli.oidc_issuer {
                Some(issuer) => {
                    let public_url = cli
                        .public_url
                        .clone()
                        .unwrap_or_else(|| format!("http://{local}"));
                    let oidc_config = OidcConfig {
                        issuer: issuer.clone(),
                        client_id: cli.oidc_client_id.clone().unwrap_or_default(),
                        client_secret: client_secret(&cli)?,
                        app_client_ids: cli.oidc_app_client_ids.clone(),
                        public_url,
                    };
                    Some(Oidc::discover(oidc_config, config.time.clone()).await?)
                }
                None => None,
            };
            Some(Arc::new(AccountsService::new(
                store,
                config.time.clone(),
                oidc,
            )))
        }
        None => None,
    };
    let players_backend = match &players {
        Some(PlayerStoreConfig::Postgres(_)) => "postgres",
        Some(PlayerStoreConfig::Sqlite(_)) => "sqlite",
        None => "off",
    };
    let backend = if cli.redis.is_some() {
        "redis"
    } else if !cli.redis_cluster.is_empty() {
        "redis cluster"
    } else {
        "memory"
    };
    tracing::info!(%local, backend, players = players_backend, instance = %config.instance, "damas-server listening (ws://{local}/ws)");
    // The instance name is the owner written in the room leases it holds (Redis: `damas:{CODE}:lease`).
    println!(
        "damas-server listening on http://{local} ({backend} store, instance {})",
        config.instance
    );
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    damas_server::run_with_accounts(listener, store, config, accounts, shutdown)
        .await
        .map_err(StartError::Serve)
}

/// The client secret: DAMAS_OIDC_CLIENT_SECRET, else the file given, else none (a public client).
fn client_secret(cli: &Cli) -> Result<Option<String>, StartError> {
    if let Ok(secret) = std::env::var("DAMAS_OIDC_CLIENT_SECRET") {
        if !secret.is_empty() {
            return Ok(Some(secret));
        }
    }
    match &cli.oidc_client_secret_file {
        Some(path) => std::fs::read_to_string(path)
            .map(|text| Some(text.trim().to_owned()))
            .map_err(|error| {
                StartError::Config(format!(
                    "--oidc-client-secret-file {}: {error}",
                    path.display()
                ))
            }),
        None => Ok(None),
    }
}
