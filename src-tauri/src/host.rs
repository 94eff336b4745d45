//! Hosting friends' rooms from the app itself: the room server library (`damas_server`, the
//! in-memory store) on this device's network, so friends on the same Wi-Fi join from a phone or
//! any browser with no internet. Started by the first `host_rooms` call, it runs until the app
//! quits (rooms live in memory: they end with the app). Friends' browsers get the UI from the
//! app's own embedded files, written out once to the app's cache folder.

use crate::error::AppError;
use damas_server::store::memory::MemoryStore;
use damas_server::Config;
use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr, UdpSocket};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use tauri::{AppHandle, Manager, Runtime};

/// Where the hosted server answers.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct HostInfo {
    /// This device's own address of the server (loopback): the app's socket connects there.
    pub local: String,
    /// The address friends open: this device on the local network (loopback when it has none).
    pub link: String,
}

/// The hosted server, once started.
#[derive(Default)]
pub struct Host {
    running: tokio::sync::Mutex<Option<HostInfo>>,
}

/// The origins of the app's own web view (Linux/macOS custom scheme, Windows/Android http(s)).
const APP_ORIGINS: [&str; 3] = [
    "tauri://localhost",
    "http://tauri.localhost",
    "https://tauri.localhost",
];

impl Host {
    /// Starts the server on the first call (every interface, a free port); later calls answer
    /// where it runs.
    pub async fn start<R: Runtime>(&self, app: &AppHandle<R>) -> Result<HostInfo, AppError> {
        let mut running = self.running.lock().await;
        if let Some(info) = running.as_ref() {
            return Ok(info.clone());
        }
        let dir = app
            .path()
            .app_cache_dir()
            .map_err(AppError::storage)?
            .join("room-ui");
        write_ui(app, &dir)?;
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::UNSPECIFIED, 0))
            .await
            .map_err(AppError::host)?;
        let port = listener.local_addr().map_err(AppError::host)?.port();
        let config = Config {
            ui_dir: Some(dir),
            origins: APP_ORIGINS.iter().map(|o| o.to_string()).collect(),
            ..Config::default()
        };
        let store = Arc::new(MemoryStore::new(config.time.clone()));
        tauri::async_runtime::spawn(async move {
            if let Err(error) =
                damas_server::run(listener, store, config, std::future::pending()).await
            {
                eprintln!("Damas: the hosted room server stopped: {error}");
            }
        });
        let info = HostInfo {
            local: format!("http://127.0.0.1:{port}"),
            link: format!("http://{}:{port}", lan_address()),
        };
        *running = Some(info.clone());
        Ok(info)
    }
}

/// This device's address on the local network: the one the OS would send from towards a
/// public address (a UDP "connect" sends nothing). Loopback when there is no network.
fn lan_address() -> IpAddr {
    let probe = || -> std::io::Result<IpAddr> {
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
        socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
        Ok(socket.local_addr()?.ip())
    };
    match probe() {
        Ok(ip) if !ip.is_unspecified() => ip,
        _ => IpAddr::V4(Ipv4Addr::LOCALHOST),
    }
}

/// Writes the app's embedded UI files into `dir` (what `damas-server --ui` serves).
fn write_ui<R: Runtime>(app: &AppHandle<R>, dir: &Path) -> Result<(), AppError> {
    let resolver = app.asset_resolver();
    let keys: Vec<String> = resolver.iter().map(|(key, _)| key.into_owned()).collect();
    if keys.is_empty() {
        return Err(AppError::host("the app has no embedded UI to serve"));
    }
    for key in keys {
        let Some(relative) = safe_relative(&key) else {
            continue;
        };
        // `get` gives the file as served (decompressed).
        let Some(asset) = resolver.get(key.clone()) else {
            continue;
        };
        let target = dir.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(AppError::storage)?;
        }
        std::fs::write(&target, asset.bytes).map_err(AppError::storage)?;
    }
    Ok(())
}

/// An asset key (`/js/main.js`) as a path inside the UI folder; None for anything that could
/// leave it.
fn safe_relative(key: &str) -> Option<PathBuf> {
    let path = PathBuf::from(key.trim_start_matches('/'));
    path.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then_some(path)
        .filter(|p| !p.as_os_str().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asset_keys_stay_inside_the_folder() {
        assert_eq!(
            safe_relative("/js/main.js"),
            Some(PathBuf::from("js/main.js"))
        );
        assert_eq!(
            safe_relative("index.html"),
            Some(PathBuf::from("index.html"))
        );
        assert_eq!(safe_relative("/../etc/passwd"), None);
        assert_eq!(safe_relative("/js/../../x"), None);
        assert_eq!(safe_relative("/"), None);
    }
}
