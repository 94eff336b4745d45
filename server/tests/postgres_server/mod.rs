//! A throwaway PostgreSQL server for tests: `initdb` in a temporary directory (trust auth for
//! one user, `damas`), `postgres` on a free loopback port, stopped (`pg_ctl stop -m immediate`)
//! when dropped. PostgreSQL refuses to run as root: under root (as in CI) both run as the
//! `postgres` system user that Debian's package creates.
//!
//! The binaries are looked up in `$DAMAS_POSTGRES_BIN`, else the newest
//! `/usr/lib/postgresql/*/bin`. Without them the test fails, saying so (scripts/setup installs
//! the Debian package `postgresql`).

use std::net::TcpListener;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::wait;

pub struct PostgresServer {
    child: Child,
    port: u16,
    bin: PathBuf,
    data: PathBuf,
    user: Option<(u32, u32)>,
    _dir: tempfile::TempDir,
}

fn bin_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("DAMAS_POSTGRES_BIN") {
        return PathBuf::from(dir);
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    found.sort();
    match found.pop() {
        Some((_, bin)) => bin,
        None => panic!(
            "PostgreSQL is not installed: these tests need `initdb` and `postgres` \
             (Debian package `postgresql`, installed by scripts/setup; or set DAMAS_POSTGRES_BIN)"
        ),
    }
}

/// The `postgres` system user's uid and gid when this process is root (PostgreSQL refuses root).
fn run_as() -> Option<(u32, u32)> {
    let me = std::fs::metadata("/proc/self")
        .map(|m| m.uid())
        .unwrap_or(1);
    if me != 0 {
        return None;
    }
    let id = |flag: &str| -> u32 {
        let out = Command::new("id")
            .args([flag, "postgres"])
            .output()
            .expect("`id` runs");
        assert!(
            out.status.success(),
            "running as root, PostgreSQL needs the `postgres` system user (Debian package postgresql)"
        );
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("a numeric id")
    };
    Some((id("-u"), id("-g")))
}

fn command(program: &Path, user: Option<(u32, u32)>) -> Command {
    let mut command = Command::new(program);
    if let Some((uid, gid)) = user {
        command.uid(uid).gid(gid);
    }
    command
}

impl PostgresServer {
    pub fn start() -> PostgresServer {
        let bin = bin_dir();
        let user = run_as();
        let dir = tempfile::tempdir().expect("a temporary directory");
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).expect("chown the data dir");
        }
        let data = dir.path().join("data");
        let status = command(&bin.join("initdb"), user)
            .arg("-D")
            .arg(&data)
            .args(["-U", "damas", "--auth=trust", "-E", "UTF8", "--no-sync"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("initdb runs");
        assert!(
            status.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&status.stderr)
        );
        for _ in 0..5 {
            let port = free_port();
            let log = std::fs::File::create(dir.path().join(format!("postgres-{port}.log")))
                .expect("a log file");
            if let Some((uid, gid)) = user {
                let _ = std::os::unix::fs::chown(
                    dir.path().join(format!("postgres-{port}.log")),
                    Some(uid),
                    Some(gid),
                );
            }
            let mut child = command(&bin.join("postgres"), user)
                .arg("-D")
                .arg(&data)
                .args(["-p", &port.to_string(), "-h", "127.0.0.1", "-k"])
                .arg(dir.path())
                // No fsync: the tests kill clients, never this server.
                .args(["-F", "-c", "max_connections=60"])
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .expect("postgres starts");
            if ready(&bin, port, &mut child) {
                return PostgresServer {
                    child,
                    port,
                    bin,
                    data,
                    user,
                    _dir: dir,
                };
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("postgres did not start on a free loopback port");
    }

    /// The URL of the `postgres` database as user `damas`.
    pub fn url(&self) -> String {
        format!("postgres://damas@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for PostgresServer {
    fn drop(&mut self) {
        let _ = command(&self.bin.join("pg_ctl"), self.user)
            .arg("-D")
            .arg(&self.data)
            .args(["stop", "-m", "immediate", "-w"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free loopback port")
}

/// Waits (30 s at most) until `pg_isready` says the server accepts connections.
fn ready(bin: &Path, port: u16, child: &mut Child) -> bool {
    wait::answer_within(Duration::from_secs(30), || {
        if let Ok(Some(_)) = child.try_wait() {
            return Some(false);
        }
        Command::new(bin.join("pg_isready"))
            .args([
                "-q",
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-U",
                "damas",
            ])
            .status()
            .is_ok_and(|status| status.success())
            .then_some(true)
    })
    .unwrap_or(false)
}
