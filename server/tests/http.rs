//! The plain HTTP routes: `/health`, and with `--ui` the static UI and `/r/<code>` room links.

use crate::common;

use common::TestServer;
use damas_server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One HTTP/1.1 GET; the status code and the body.
async fn get(server: &TestServer, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default();
    (status, body)
}

#[tokio::test]
async fn health_and_ui_routes() {
    let dir = std::env::temp_dir().join(format!("damas-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<title>Damas</title>").unwrap();
    std::fs::write(dir.join("app.js"), "export {};").unwrap();
    let server = TestServer::start_with(Config {
        ui_dir: Some(dir.clone()),
        ..Config::default()
    })
    .await;
    assert_eq!(get(&server, "/health").await, (200, "ok\n".into()));
    let (status, body) = get(&server, "/r/x8Jd0-qL2mZ_a9Qe").await;
    assert_eq!(status, 200);
    assert!(body.contains("<title>Damas</title>"));
    assert_eq!(get(&server, "/app.js").await.0, 200);
    assert_eq!(get(&server, "/../Cargo.toml").await.0, 404);
    assert_eq!(get(&server, "/nothing.js").await.0, 404);
    // Not a WebSocket handshake.
    assert_ne!(get(&server, "/ws").await.0, 200);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn no_ui_without_the_flag() {
    let server = TestServer::start().await;
    assert_eq!(get(&server, "/health").await.0, 200);
    assert_eq!(get(&server, "/r/x8Jd0-qL2mZ_a9Qe").await.0, 404);
}
