//! The Redis calls a run costs: `INFO commandstats` read from every master before and after a
//! window, and the difference. On a Cluster the masters are found with `CLUSTER SLOTS` through any
//! node given, and each is asked directly (commands count where they run).

use super::harness::{BenchError, BenchStore};
use std::collections::BTreeMap;
use std::time::Duration;

/// One command's counters in `INFO commandstats`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CommandStat {
    pub calls: u64,
    /// Microseconds spent in the command, in total.
    pub usec: u64,
}

/// Commands by name (`evalsha`, `client|setname`, …), summed over the nodes read.
pub type CommandStats = BTreeMap<String, CommandStat>;

/// Reads an `INFO commandstats` reply: lines `cmdstat_NAME:calls=N,usec=N,…`; anything else
/// (the section header, blank lines, fields it does not know) is skipped.
pub fn parse_commandstats(reply: &str) -> CommandStats {
    let mut stats = CommandStats::new();
    for line in reply.lines() {
        let Some((name, fields)) = line
            .trim()
            .strip_prefix("cmdstat_")
            .and_then(|rest| rest.split_once(':'))
        else {
            continue;
        };
        let mut stat = CommandStat::default();
        for field in fields.split(',') {
            match field.split_once('=') {
                Some(("calls", n)) => stat.calls = n.parse().unwrap_or(0),
                Some(("usec", n)) => stat.usec = n.parse().unwrap_or(0),
                _ => {}
            }
        }
        let entry = stats.entry(name.to_string()).or_default();
        entry.calls += stat.calls;
        entry.usec += stat.usec;
    }
    stats
}

/// What was called between `before` and `after` (commands whose counters went back, as on a
/// restarted node, count from zero).
pub fn delta(before: &CommandStats, after: &CommandStats) -> CommandStats {
    after
        .iter()
        .filter_map(|(name, now)| {
            let was = before.get(name).copied().unwrap_or_default();
            let (calls, usec) = if now.calls >= was.calls {
                (now.calls - was.calls, now.usec.saturating_sub(was.usec))
            } else {
                (now.calls, now.usec)
            };
            (calls > 0).then(|| (name.clone(), CommandStat { calls, usec }))
        })
        .collect()
}

/// Calls in total.
pub fn total_calls(stats: &CommandStats) -> u64 {
    stats.values().map(|stat| stat.calls).sum()
}

/// The `n` most called commands, most first (ties by name).
pub fn top(stats: &CommandStats, n: usize) -> Vec<(&str, CommandStat)> {
    let mut all: Vec<(&str, CommandStat)> = stats
        .iter()
        .map(|(name, stat)| (name.as_str(), *stat))
        .collect();
    all.sort_by(|a, b| b.1.calls.cmp(&a.1.calls).then(a.0.cmp(b.0)));
    all.truncate(n);
    all
}

/// One line: calls/s in total and per room, and every command, most called first.
pub fn summary(stats: &CommandStats, seconds: f64, rooms: usize, masters: usize) -> String {
    let total = total_calls(stats);
    let per_second = total as f64 / seconds.max(1e-9);
    let by_command = top(stats, stats.len())
        .into_iter()
        .map(|(name, stat)| {
            format!(
                "{name} {:.0}/s ({:.0} µs/call)",
                stat.calls as f64 / seconds.max(1e-9),
                stat.usec as f64 / stat.calls.max(1) as f64
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{total} calls in {seconds:.1} s on {masters} master{} = {per_second:.0} calls/s, {:.3} \
         per room per second; by command: {by_command}",
        if masters == 1 { "" } else { "s" },
        per_second / rooms.max(1) as f64
    )
}

/// Reads the commandstats of every master of the store (nothing for the memory store).
pub struct RedisCalls {
    masters: Vec<redis::Client>,
}

const TIMEOUT: Duration = Duration::from_secs(5);

fn failed(error: redis::RedisError) -> BenchError {
    BenchError::RedisCalls(error.to_string())
}

impl RedisCalls {
    /// The masters of `store`: the one node, or the Cluster's masters as `CLUSTER SLOTS` lists them.
    pub async fn connect(store: &BenchStore) -> Result<Option<RedisCalls>, BenchError> {
        let masters = match store {
            BenchStore::Memory => return Ok(None),
            BenchStore::Redis(url) => vec![redis::Client::open(url.as_str()).map_err(failed)?],
            BenchStore::Cluster(nodes) => cluster_masters(nodes).await?,
        };
        Ok(Some(RedisCalls { masters }))
    }

    /// How many masters are read.
    pub fn masters(&self) -> usize {
        self.masters.len()
    }

    /// The commandstats summed over every master.
    pub async fn sample(&self) -> Result<CommandStats, BenchError> {
        let mut sum = CommandStats::new();
        for client in &self.masters {
            let mut conn = connection(client).await?;
            let reply: String = redis::cmd("INFO")
                .arg("commandstats")
                .query_async(&mut conn)
                .await
                .map_err(failed)?;
            for (name, stat) in parse_commandstats(&reply) {
                let entry = sum.entry(name).or_default();
                entry.calls += stat.calls;
                entry.usec += stat.usec;
            }
        }
        Ok(sum)
    }
}

async fn connection(
    client: &redis::Client,
) -> Result<redis::aio::MultiplexedConnection, BenchError> {
    let config = redis::AsyncConnectionConfig::new()
        .set_connection_timeout(Some(TIMEOUT))
        .set_response_timeout(Some(TIMEOUT));
    client
        .get_multiplexed_async_connection_with_config(&config)
        .await
        .map_err(failed)
}

/// The masters of a Cluster: `CLUSTER SLOTS` from the first node that answers.
async fn cluster_masters(nodes: &[String]) -> Result<Vec<redis::Client>, BenchError> {
    let mut last = BenchError::NoClusterNode;
    for node in nodes {
        let slots = async {
            let client = redis::Client::open(node.as_str()).map_err(failed)?;
            let mut conn = connection(&client).await?;
            redis::cmd("CLUSTER")
                .arg("SLOTS")
                .query_async::<redis::Value>(&mut conn)
                .await
                .map_err(failed)
        };
        match slots.await {
            Ok(value) => {
                let mut addresses = slot_masters(&value);
                addresses.sort();
                addresses.dedup();
                if addresses.is_empty() {
                    last = BenchError::RedisCalls(format!("{node}: CLUSTER SLOTS lists no master"));
                    continue;
                }
                return addresses
                    .into_iter()
                    .map(|(host, port)| {
                        redis::Client::open(format!("redis://{host}:{port}/")).map_err(failed)
                    })
                    .collect();
            }
            Err(error) => last = error,
        }
    }
    Err(last)
}

/// Each slot range's master `(host, port)` in a `CLUSTER SLOTS` reply:
/// `[[first, last, [host, port, id, …], replicas…], …]`.
fn slot_masters(value: &redis::Value) -> Vec<(String, u16)> {
    let redis::Value::Array(ranges) = value else {
        return Vec::new();
    };
    ranges
        .iter()
        .filter_map(|range| {
            let redis::Value::Array(parts) = range else {
                return None;
            };
            let redis::Value::Array(master) = parts.get(2)? else {
                return None;
            };
            let host = match master.first()? {
                redis::Value::BulkString(bytes) => String::from_utf8_lossy(bytes).into_owned(),
                redis::Value::SimpleString(text) => text.clone(),
                _ => return None,
            };
            let port = match master.get(1)? {
                redis::Value::Int(port) => u16::try_from(*port).ok()?,
                _ => return None,
            };
            Some((host, port))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(calls: u64, usec: u64) -> CommandStat {
        CommandStat { calls, usec }
    }

    #[test]
    fn a_delta_counts_what_was_called_in_between() {
        let before = parse_commandstats(
            "# Commandstats\r\ncmdstat_evalsha:calls=10,usec=500,usec_per_call=50.00\r\n\
             cmdstat_get:calls=3,usec=6,usec_per_call=2.00\r\n",
        );
        let after = parse_commandstats(
            "# Commandstats\r\ncmdstat_evalsha:calls=25,usec=1400,usec_per_call=56.00\r\n\
             cmdstat_get:calls=3,usec=6,usec_per_call=2.00\r\n\
             cmdstat_spublish:calls=4,usec=20,usec_per_call=5.00\r\n",
        );
        let moved = delta(&before, &after);
        assert_eq!(moved.get("evalsha"), Some(&stat(15, 900)));
        assert_eq!(moved.get("spublish"), Some(&stat(4, 20)));
        assert_eq!(moved.get("get"), None, "not called in between");
        assert_eq!(total_calls(&moved), 19);
        assert_eq!(top(&moved, 1), vec![("evalsha", stat(15, 900))]);
    }

    #[test]
    fn a_restarted_node_counts_from_zero() {
        let before = parse_commandstats("cmdstat_set:calls=100,usec=100");
        let after = parse_commandstats("cmdstat_set:calls=7,usec=9");
        assert_eq!(delta(&before, &after).get("set"), Some(&stat(7, 9)));
    }

    #[test]
    fn the_summary_gives_calls_per_second_and_per_room() {
        let stats = parse_commandstats("cmdstat_evalsha:calls=600,usec=6000");
        let line = summary(&stats, 10.0, 20, 3);
        assert!(line.starts_with("600 calls in 10.0 s on 3 masters = 60 calls/s, 3.000 per room"));
        assert!(line.contains("evalsha 60/s (10 µs/call)"), "{line}");
    }
}
