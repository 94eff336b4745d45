//! A throwaway Redis Cluster for tests: six `redis-server --cluster-enabled yes` nodes on free
//! loopback ports, joined by `redis-cli --cluster create … --cluster-replicas 1` into 3 masters
//! and 3 replicas, each node in its own directory of one temporary directory; every node is
//! killed when the cluster is dropped. A node can be killed with SIGKILL and started again (it
//! keeps its `nodes.conf`, so it rejoins, as a replica of whoever took its slots).
//!
//! Failure detection is shortened (`cluster-node-timeout` 1 s) so that a failover takes seconds,
//! and replicas sync without the default 5 s diskless delay. Without `redis-server` and
//! `redis-cli` the Cluster tests cannot run and fail saying so, unless the developer opts out
//! with `DAMAS_SKIP_REDIS=1` (as `redis_server` does).
#![allow(dead_code)]

use std::collections::HashMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::wait;

/// Nodes of the test cluster: 3 masters, each with one replica.
const NODES: usize = 6;
/// How long the cluster may take to form, sync its replicas or fail over.
const PATIENCE: Duration = Duration::from_secs(30);

pub struct RedisCluster {
    binary: PathBuf,
    nodes: Vec<Node>,
    /// Extra `redis-server` arguments every node was started with.
    extra: Vec<String>,
    dir: tempfile::TempDir,
}

struct Node {
    port: u16,
    child: Option<Child>,
}

fn on_path(program: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// The developer asked to skip the Redis tests on a machine without Redis (`DAMAS_SKIP_REDIS=1`).
fn skip_asked() -> bool {
    std::env::var("DAMAS_SKIP_REDIS").is_ok_and(|value| value == "1")
}

/// A port whose cluster bus port (port + 10000) is free too.
fn free_cluster_port(taken: &[u16]) -> u16 {
    for _ in 0..1000 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map(|addr| addr.port())
            .expect("a free loopback port");
        let Some(bus) = port.checked_add(10_000) else {
            continue;
        };
        if taken.contains(&port) || taken.contains(&bus) {
            continue;
        }
        if TcpListener::bind(("127.0.0.1", bus)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port with a free cluster bus port");
}

fn connection(port: u16) -> Option<redis::Connection> {
    let client = redis::Client::open(format!("redis://127.0.0.1:{port}/")).ok()?;
    client
        .get_connection_with_timeout(Duration::from_millis(500))
        .ok()
}

fn info(port: u16, section: &str) -> Option<String> {
    let mut conn = connection(port)?;
    redis::cmd("INFO").arg(section).query(&mut conn).ok()
}

fn cluster_info(port: u16) -> Option<String> {
    let mut conn = connection(port)?;
    redis::cmd("CLUSTER").arg("INFO").query(&mut conn).ok()
}

/// Waits (`PATIENCE` at most) until `ready` holds; panics with `what`.
pub fn wait_until(what: &str, ready: impl FnMut() -> bool) {
    wait::wait_until_blocking(what, PATIENCE, ready);
}

impl RedisCluster {
    /// A running cluster with every replica in sync, or `None` (the reason printed) when
    /// `redis-server`/`redis-cli` are absent and `DAMAS_SKIP_REDIS=1` asks to skip.
    pub fn start() -> Option<RedisCluster> {
        RedisCluster::start_with(&[])
    }

    /// The same, each node started with `extra` arguments too (e.g. persistence settings).
    pub fn start_with(extra: &[&str]) -> Option<RedisCluster> {
        let (Some(binary), Some(cli)) = (on_path("redis-server"), on_path("redis-cli")) else {
            assert!(
                skip_asked(),
                "redis-server or redis-cli is not on PATH: the Redis Cluster tests need them \
                 (scripts/setup installs the Debian package redis-server; DAMAS_SKIP_REDIS=1 skips them)"
            );
            eprintln!("SKIPPED (DAMAS_SKIP_REDIS=1): redis-server or redis-cli is not on PATH");
            return None;
        };
        let dir = tempfile::tempdir().expect("a temporary directory for the cluster");
        let mut cluster = RedisCluster {
            binary,
            nodes: Vec::new(),
            extra: extra.iter().map(|s| s.to_string()).collect(),
            dir,
        };
        let mut taken = Vec::new();
        for _ in 0..NODES {
            // Another process may take a probed port before redis-server binds it: try again.
            let node = (0..5)
                .find_map(|_| {
                    let port = free_cluster_port(&taken);
                    let mut node = Node { port, child: None };
                    cluster.spawn(&mut node);
                    cluster.answers_ping(&mut node).then_some(node)
                })
                .expect("redis-server --cluster-enabled starts on a free loopback port");
            taken.extend([node.port, node.port + 10_000]);
            cluster.nodes.push(node);
        }
        let addresses: Vec<String> = cluster
            .ports()
            .iter()
            .map(|port| format!("127.0.0.1:{port}"))
            .collect();
        let created = Command::new(cli)
            .args(["--cluster", "create"])
            .args(&addresses)
            .args(["--cluster-replicas", "1", "--cluster-yes"])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .status()
            .expect("redis-cli runs");
        assert!(created.success(), "redis-cli --cluster create failed");
        cluster.wait_until_healthy();
        Some(cluster)
    }

    fn node_dir(&self, port: u16) -> PathBuf {
        self.dir.path().join(port.to_string())
    }

    fn spawn(&self, node: &mut Node) {
        let dir = self.node_dir(node.port);
        std::fs::create_dir_all(&dir).expect("a node directory");
        let child = Command::new(&self.binary)
            .args(["--port", &node.port.to_string(), "--bind", "127.0.0.1"])
            .args([
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
            ])
            .args(["--cluster-node-timeout", "1000"])
            // A replica of any age may take over (the test's failovers are seconds apart).
            .args(["--cluster-replica-validity-factor", "0"])
            .args(["--repl-diskless-sync-delay", "0"])
            .args(["--save", ""])
            .args(&self.extra)
            .arg("--dir")
            .arg(&dir)
            .arg("--logfile")
            .arg(dir.join("redis.log"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        node.child = Some(child);
    }

    fn answers_ping(&self, node: &mut Node) -> bool {
        wait::answer_within(Duration::from_secs(10), || {
            if let Some(child) = node.child.as_mut() {
                if let Ok(Some(_)) = child.try_wait() {
                    node.child = None;
                    return Some(false);
                }
            }
            let mut conn = connection(node.port)?;
            redis::cmd("PING")
                .query::<String>(&mut conn)
                .is_ok()
                .then_some(true)
        })
        .unwrap_or(false)
    }

    /// Ports of every node, in start order.
    pub fn ports(&self) -> Vec<u16> {
        self.nodes.iter().map(|node| node.port).collect()
    }

    fn live_ports(&self) -> Vec<u16> {
        self.nodes
            .iter()
            .filter(|node| node.child.is_some())
            .map(|node| node.port)
            .collect()
    }

    /// Every node's URL.
    pub fn urls(&self) -> Vec<String> {
        self.ports()
            .iter()
            .map(|port| format!("redis://127.0.0.1:{port}"))
            .collect()
    }

    /// The `--redis-cluster` argument: every node's URL, comma-separated.
    pub fn urls_arg(&self) -> String {
        self.urls().join(",")
    }

    /// A blocking cluster connection for a test to look inside (follows redirections).
    pub fn connection(&self) -> redis::cluster::ClusterConnection {
        let urls: Vec<String> = self
            .live_ports()
            .iter()
            .map(|port| format!("redis://127.0.0.1:{port}"))
            .collect();
        redis::cluster::ClusterClient::builder(urls)
            .connection_timeout(Duration::from_secs(1))
            .response_timeout(Duration::from_secs(2))
            .build()
            .and_then(|client| client.get_connection())
            .expect("a connection to the test cluster")
    }

    /// The master serving each slot range, as a live node sees it: `(first, last, port)`.
    fn slot_masters(&self) -> Option<Vec<(u16, u16, u16)>> {
        self.live_ports().into_iter().find_map(|port| {
            let mut conn = connection(port)?;
            let value: redis::Value = redis::cmd("CLUSTER").arg("SLOTS").query(&mut conn).ok()?;
            let ranges = parse_slots(&value);
            (!ranges.is_empty()).then_some(ranges)
        })
    }

    /// The slot of `key`, as Redis computes it (`CLUSTER KEYSLOT`).
    pub fn key_slot(&self, key: &str) -> u16 {
        self.live_ports()
            .into_iter()
            .find_map(|port| {
                let mut conn = connection(port)?;
                redis::cmd("CLUSTER")
                    .arg("KEYSLOT")
                    .arg(key)
                    .query(&mut conn)
                    .ok()
            })
            .expect("a live node answers CLUSTER KEYSLOT")
    }

    /// The port of the master holding `key`'s slot.
    pub fn master_of(&self, key: &str) -> u16 {
        let slot = self.key_slot(key);
        self.slot_masters()
            .and_then(|ranges| {
                ranges
                    .into_iter()
                    .find(|(first, last, _)| (*first..=*last).contains(&slot))
            })
            .map(|(_, _, port)| port)
            .unwrap_or_else(|| panic!("no master for slot {slot}"))
    }

    /// Roles as the live nodes report them: port → "master" or "slave".
    pub fn roles(&self) -> HashMap<u16, String> {
        self.live_ports()
            .into_iter()
            .filter_map(|port| {
                let mut conn = connection(port)?;
                let role: redis::Value = redis::cmd("ROLE").query(&mut conn).ok()?;
                match role {
                    redis::Value::Array(parts) => match parts.first() {
                        Some(redis::Value::BulkString(role)) => {
                            Some((port, String::from_utf8_lossy(role).into_owned()))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            })
            .collect()
    }

    /// Until every live node says `cluster_state:ok`, the slots have 3 masters among the live
    /// nodes, each of them has a replica in sync, and every live node's own view agrees (its
    /// `CLUSTER NODES` lists 3 masters and 3 replicas, none failing): gossip spreads a replica's
    /// role after its master already reports it in sync, and a client asking a node that has
    /// not heard yet would see a cluster without replicas.
    pub fn wait_until_healthy(&self) {
        wait_until(
            "the cluster is up with 3 masters, each with a replica online",
            || {
                let live = self.live_ports();
                let all_ok = live.iter().all(|port| {
                    cluster_info(*port).is_some_and(|text| text.contains("cluster_state:ok"))
                });
                if !all_ok {
                    return false;
                }
                let Some(ranges) = self.slot_masters() else {
                    return false;
                };
                let mut masters: Vec<u16> = ranges.iter().map(|(_, _, port)| *port).collect();
                masters.sort_unstable();
                masters.dedup();
                masters.len() == 3
                    && live.iter().all(|port| self.view_is_whole(*port))
                    && masters.iter().all(|port| {
                        live.contains(port)
                            && info(*port, "replication").is_some_and(|text| {
                                text.lines().any(|line| {
                                    line.starts_with("slave0:") && line.contains("state=online")
                                })
                            })
                    })
            },
        );
    }

    /// Whether the node on `port` sees every node of the cluster, half of them masters and half
    /// replicas, none flagged failing or still in handshake.
    fn view_is_whole(&self, port: u16) -> bool {
        let Some(mut conn) = connection(port) else {
            return false;
        };
        let Ok(nodes) = redis::cmd("CLUSTER")
            .arg("NODES")
            .query::<String>(&mut conn)
        else {
            return false;
        };
        let flags: Vec<Vec<&str>> = nodes
            .lines()
            .filter_map(|line| line.split_whitespace().nth(2))
            .map(|flags| flags.split(',').collect())
            .collect();
        let count = |role: &str| flags.iter().filter(|f| f.contains(&role)).count();
        let troubled = flags.iter().any(|f| {
            f.iter()
                .any(|flag| matches!(*flag, "fail" | "fail?" | "handshake" | "noaddr"))
        });
        flags.len() == NODES
            && count("master") == NODES / 2
            && count("slave") == NODES / 2
            && !troubled
    }

    /// SIGKILL to the node on `port`: no shutdown, nothing flushed.
    pub fn kill(&mut self, port: u16) {
        let node = self
            .nodes
            .iter_mut()
            .find(|node| node.port == port)
            .expect("a node of this cluster");
        if let Some(mut child) = node.child.take() {
            child.kill().expect("kill -9");
            child.wait().expect("reaped");
        }
    }

    /// Starts the killed node on `port` again, from its directory (its `nodes.conf` and data).
    pub fn restart(&mut self, port: u16) {
        let index = self
            .nodes
            .iter()
            .position(|node| node.port == port)
            .expect("a node of this cluster");
        let mut node = Node { port, child: None };
        self.spawn(&mut node);
        assert!(
            self.answers_ping(&mut node),
            "the node on {port} starts again"
        );
        self.nodes[index] = node;
    }

    /// Until a live node other than `old` serves `key`'s slot as its master.
    pub fn wait_for_new_master(&self, key: &str, old: u16) -> u16 {
        let mut promoted = old;
        wait_until("a replica takes over the killed master's slots", || {
            let slot = self.key_slot(key);
            let live = self.live_ports();
            let found = self.slot_masters().and_then(|ranges| {
                ranges
                    .into_iter()
                    .find(|(first, last, port)| (*first..=*last).contains(&slot) && *port != old)
            });
            match found {
                Some((_, _, port)) if live.contains(&port) => {
                    promoted = port;
                    self.roles().get(&port).is_some_and(|role| role == "master")
                }
                _ => false,
            }
        });
        promoted
    }

    /// Where a node keeps its files.
    pub fn dir_of(&self, port: u16) -> PathBuf {
        self.node_dir(port)
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for RedisCluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            if let Some(mut child) = node.child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// `CLUSTER SLOTS` read loosely: each entry is [first, last, [ip, port, id], replicas…].
fn parse_slots(value: &redis::Value) -> Vec<(u16, u16, u16)> {
    let int = |v: &redis::Value| match v {
        redis::Value::Int(n) => u16::try_from(*n).ok(),
        _ => None,
    };
    let redis::Value::Array(entries) = value else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|entry| {
            let redis::Value::Array(parts) = entry else {
                return None;
            };
            let first = int(parts.first()?)?;
            let last = int(parts.get(1)?)?;
            let redis::Value::Array(master) = parts.get(2)? else {
                return None;
            };
            let port = int(master.get(1)?)?;
            Some((first, last, port))
        })
        .collect()
}
