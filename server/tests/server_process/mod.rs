//! A `damas-server` process for tests of many instances: started with the given arguments on a
//! free loopback port (read from its start line), killed when dropped. Its log (level `warn`, or
//! `DAMAS_TEST_LOG`) is shown with the test's output, each line prefixed with its instance name.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

pub struct Instance {
    child: Child,
    pub addr: SocketAddr,
    /// Its lease owner name, as printed at start.
    pub name: String,
}

impl Instance {
    pub fn start<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Instance {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damas-server"))
            .args(["--port", "0"])
            .args(args)
            .env(
                "RUST_LOG",
                std::env::var("DAMAS_TEST_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("damas-server starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the start line");
        // "damas-server listening on http://ADDR (… store, instance NAME)"
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|addr| addr.parse().ok())
            .unwrap_or_else(|| panic!("unexpected start line: {line:?}"));
        let name = line
            .trim_end()
            .strip_suffix(')')
            .and_then(|rest| rest.rsplit_once("instance "))
            .map(|(_, name)| name.to_string())
            .unwrap_or_else(|| panic!("no instance name in {line:?}"));
        // Keep draining its output so that it never blocks on a full pipe.
        let log_name = name.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while stdout.read_line(&mut line).is_ok_and(|n| n > 0) {
                eprint!("[{log_name}] {line}");
                line.clear();
            }
        });
        Instance { child, addr, name }
    }

    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// SIGKILL: no shutdown, no lease release, no presence cleared.
    pub fn kill(&mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }

    /// Sends `signal` (`-STOP`, `-KILL` …) with kill(1).
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal}");
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
