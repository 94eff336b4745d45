//! A throwaway `redis-server` for tests: started on a free loopback port in a temporary directory
//! with persistence off (`--save "" --appendonly no`), killed when dropped.
//!
//! Without `redis-server` on PATH the Redis tests cannot run, and they fail saying so
//! (scripts/setup installs the Debian package): a green run means they ran. A developer without
//! Redis opts out explicitly with `DAMAS_SKIP_REDIS=1`; then they skip, saying why.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::wait;

pub struct RedisServer {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

fn on_path(program: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// The developer asked to skip the Redis tests on a machine without Redis (`DAMAS_SKIP_REDIS=1`).
pub fn skip_asked() -> bool {
    std::env::var("DAMAS_SKIP_REDIS").is_ok_and(|value| value == "1")
}

impl RedisServer {
    /// A running server, or `None` (the reason printed) when `redis-server` is absent and the
    /// developer asked to skip (`DAMAS_SKIP_REDIS=1`). Panics when it is absent otherwise, and when
    /// it is present but does not start.
    pub fn start() -> Option<RedisServer> {
        let Some(binary) = on_path("redis-server") else {
            assert!(
                skip_asked(),
                "redis-server is not on PATH: the Redis tests need it (scripts/setup installs the \
                 Debian package redis-server; DAMAS_SKIP_REDIS=1 skips them)"
            );
            eprintln!("SKIPPED (DAMAS_SKIP_REDIS=1): redis-server is not on PATH");
            return None;
        };
        let dir = tempfile::tempdir().expect("a temporary directory for redis-server");
        // Another process may take the probed port before redis-server binds it: try again.
        for _ in 0..5 {
            let port = free_port();
            let mut child = Command::new(&binary)
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no"])
                .arg("--dir")
                .arg(dir.path())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("redis-server starts");
            if answers_ping(port, &mut child) {
                return Some(RedisServer {
                    child,
                    port,
                    _dir: dir,
                });
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("redis-server did not start on a free loopback port");
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// A plain (blocking) connection for a test to look inside Redis.
    #[allow(dead_code)]
    pub fn connection(&self) -> redis::Connection {
        redis::Client::open(self.url())
            .and_then(|client| client.get_connection())
            .expect("a connection to the test redis-server")
    }
}

// Each test module uses some of these.
#[allow(dead_code)]
impl RedisServer {
    /// SIGKILL: Redis is gone (connections refused) until [`RedisServer::restart`].
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// A new `redis-server` on the same port (empty: persistence is off).
    pub fn restart(&mut self) {
        let child = Command::new(on_path("redis-server").expect("redis-server on PATH"))
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(self._dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts again");
        self.child = child;
        assert!(
            answers_ping(self.port, &mut self.child),
            "redis-server did not start again on port {}",
            self.port
        );
    }

    /// SIGSTOP (`true`) or SIGCONT (`false`): a Redis that accepts connections but answers
    /// nothing, as one stalled by the machine.
    pub fn pause(&self, paused: bool) {
        let signal = if paused { "-STOP" } else { "-CONT" };
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} failed");
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        // A paused server would not die of SIGKILL until continued on some systems.
        let _ = Command::new("kill")
            .args(["-CONT", &self.child.id().to_string()])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free loopback port")
}

/// Waits (10 s at most) until the server on `port` answers PING; false if it exited or never did.
fn answers_ping(port: u16, child: &mut Child) -> bool {
    let Ok(client) = redis::Client::open(format!("redis://127.0.0.1:{port}/")) else {
        return false;
    };
    wait::answer_within(Duration::from_secs(10), || {
        if let Ok(Some(_)) = child.try_wait() {
            return Some(false);
        }
        let mut connection = client
            .get_connection_with_timeout(Duration::from_millis(500))
            .ok()?;
        redis::cmd("PING")
            .query::<String>(&mut connection)
            .is_ok()
            .then_some(true)
    })
    .unwrap_or(false)
}

/// A `redis-server` that keeps its data on disk and can be killed and started again on the same
/// port from the same directory (a Redis crash and restart).
#[allow(dead_code)]
pub struct PersistentRedis {
    binary: PathBuf,
    child: Option<Child>,
    port: u16,
    args: Vec<String>,
    dir: tempfile::TempDir,
}

#[allow(dead_code)]
impl PersistentRedis {
    /// Started with `args` (e.g. `--appendonly yes`), or `None` as [`RedisServer::start`].
    pub fn start(args: &[&str]) -> Option<PersistentRedis> {
        let Some(binary) = on_path("redis-server") else {
            assert!(
                skip_asked(),
                "redis-server is not on PATH: the Redis tests need it (scripts/setup installs the \
                 Debian package redis-server; DAMAS_SKIP_REDIS=1 skips them)"
            );
            eprintln!("SKIPPED (DAMAS_SKIP_REDIS=1): redis-server is not on PATH");
            return None;
        };
        let mut redis = PersistentRedis {
            binary,
            child: None,
            port: 0,
            args: args.iter().map(|a| a.to_string()).collect(),
            dir: tempfile::tempdir().expect("a temporary directory for redis-server"),
        };
        for _ in 0..5 {
            redis.port = free_port();
            if redis.spawn() {
                return Some(redis);
            }
        }
        panic!("redis-server did not start on a free loopback port");
    }

    fn spawn(&mut self) -> bool {
        let mut child = Command::new(&self.binary)
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", ""])
            .args(&self.args)
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        if answers_ping(self.port, &mut child) {
            self.child = Some(child);
            true
        } else {
            let _ = child.kill();
            let _ = child.wait();
            false
        }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// A plain (blocking) connection for a test to look inside Redis.
    pub fn connection(&self) -> redis::Connection {
        redis::Client::open(self.url())
            .and_then(|client| client.get_connection())
            .expect("a connection to the test redis-server")
    }

    /// SIGKILL: nothing flushed that `appendfsync` did not already write.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("kill -9 redis-server");
            child.wait().expect("reaped");
        }
    }

    /// Starts the killed server again, on the same port, from the same directory.
    pub fn restart(&mut self) {
        assert!(self.child.is_none(), "restart after kill");
        assert!(
            self.spawn(),
            "redis-server starts again on port {}",
            self.port
        );
    }
}

impl Drop for PersistentRedis {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
