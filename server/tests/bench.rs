//! `damas-server bench`: the ramp-up and the steady state reported apart, its arguments checked
//! with a clear error, the Redis call counter read from a real `redis-server` and a real Cluster,
//! and a two-instance run over a real Cluster.

use crate::redis_cluster;
use crate::redis_server;

use damas_server::bench::redis_calls::{delta, parse_commandstats, total_calls, RedisCalls};
use damas_server::bench::BenchStore;
use redis_cluster::RedisCluster;
use redis_server::RedisServer;
use std::process::{Command, Output};

/// The number after `label` in `line` (`"… 12 games finished …"` → 12 for `"games finished"`,
/// taking the word before the label).
fn count_before(line: &str, label: &str) -> u64 {
    let (before, _) = line
        .split_once(label)
        .unwrap_or_else(|| panic!("no {label:?} in {line:?}"));
    before
        .split_whitespace()
        .last()
        .and_then(|n| n.trim_start_matches('(').parse().ok())
        .unwrap_or_else(|| panic!("no count before {label:?} in {line:?}"))
}

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas-server"))
        .arg("bench")
        .args(args)
        .output()
        .expect("damas-server bench runs")
}

/// The output's line starting with `prefix`.
fn line(text: &str, prefix: &str) -> String {
    text.lines()
        .find(|line| line.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in:\n{text}"))
        .to_string()
}

#[test]
fn a_measured_window_counts_only_what_happens_in_it() {
    // Quick moves, a warm-up in which games are played, and a window of no time at all.
    let output = bench(&[
        "--rooms",
        "2",
        "--think-ms",
        "1",
        "--warmup-secs",
        "2",
        "--seconds",
        "0",
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "bench failed: {text}");
    let ramp = line(&text, "ramp-up: ");
    assert!(ramp.contains("2 rooms open"), "{ramp}");
    let warm = line(&text, "warm-up: ");
    assert!(count_before(&warm, "moves") > 0, "the rooms played: {warm}");
    let steady = line(&text, "steady state: ");
    assert_eq!(count_before(&steady, "games finished"), 0, "{steady}");
    assert_eq!(count_before(&steady, "in 0."), 0, "{steady}");
    assert!(
        !text.contains("redis calls"),
        "no Redis, no call count: {text}"
    );
}

/// A report with every number replaced by `#`: what it says, not what it measured.
fn shape(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| {
            let mut shaped = String::new();
            let mut in_number = false;
            for c in line.chars() {
                if c.is_ascii_digit() || (in_number && c == '.') {
                    if !in_number {
                        shaped.push('#');
                    }
                    in_number = true;
                } else {
                    in_number = false;
                    shaped.push(c);
                }
            }
            shaped
        })
        .collect()
}

#[test]
fn clients_in_two_processes_give_the_report_of_one() {
    let run = |processes: &str| {
        let output = bench(&[
            "--rooms",
            "9",
            "--think-ms",
            "200",
            "--warmup-secs",
            "1",
            "--seconds",
            "3",
            "--client-processes",
            processes,
        ]);
        let text = String::from_utf8_lossy(&output.stdout).to_string();
        let errors = String::from_utf8_lossy(&output.stderr).to_string();
        assert!(output.status.success(), "bench failed: {text}\n{errors}");
        text
    };
    let one = run("1");
    let two = run("2");
    assert!(one.contains("clients in 1 process;"), "{one}");
    assert!(two.contains("clients in 2 processes;"), "{two}");
    // The same lines, saying the same things, after the first (which says how many processes).
    assert_eq!(shape(&one)[1..], shape(&two)[1..], "{one}\n---\n{two}");
    for text in [&one, &two] {
        // Every room of both shares (4 and 5 rooms) opened, and every one played in the window:
        // the report merges both processes' counts, not one's.
        assert!(line(text, "ramp-up: ").contains("9 rooms open"), "{text}");
        let steady = line(text, "steady state: ");
        assert!(steady.contains("9 of 9 rooms moved"), "{steady}");
        assert!(count_before(&steady, "in ") > 0, "{steady}");
        assert_eq!(count_before(&steady, "errors"), 0, "{steady}");
        let round_trip = line(text, "round trip ");
        assert!(!round_trip.contains("NaN"), "{round_trip}");
        line(text, "server RSS: ");
        line(text, "steady-state bench clients CPU: ");
    }
}

#[test]
fn bad_arguments_are_refused_with_what_is_wrong() {
    let cases: [(&[&str], &str); 5] = [
        (&["--instances", "2"], "--instances 2 needs a shared store"),
        (
            &["--instances", "0"],
            "--instances must be between 1 and 16, not 0",
        ),
        (
            &["--redis-cluster", "http://127.0.0.1:7000"],
            "\"http://127.0.0.1:7000\" is not a Redis URL",
        ),
        (
            &[
                "--redis",
                "redis://127.0.0.1:1",
                "--instances",
                "2",
                "--addr",
                "127.0.0.1:1",
            ],
            "not with --addr",
        ),
        (
            &[
                "--redis",
                "redis://127.0.0.1:1",
                "--redis-cluster",
                "redis://127.0.0.1:2",
            ],
            "cannot be used with",
        ),
    ];
    for (args, said) in cases {
        let output = bench(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} was accepted");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[tokio::test]
async fn the_call_counter_reads_a_real_redis_commandstats() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let mut conn = redis.connection();
    for n in 0..3 {
        let _: () = redis::cmd("SET").arg("k").arg(n).query(&mut conn).unwrap();
    }
    let _: Option<String> = redis::cmd("GET").arg("k").query(&mut conn).unwrap();
    let _: Option<String> = redis::cmd("GET").arg("k").query(&mut conn).unwrap();
    let reply: String = redis::cmd("INFO")
        .arg("commandstats")
        .query(&mut conn)
        .unwrap();
    let stats = parse_commandstats(&reply);
    assert_eq!(stats["set"].calls, 3, "{reply}");
    assert_eq!(stats["get"].calls, 2, "{reply}");
    assert!(
        stats["set"].usec > 0 || reply.contains("cmdstat_set:calls=3,usec=0"),
        "{reply}"
    );

    // The bench's own sampler: what was called between two samples.
    let calls = RedisCalls::connect(&BenchStore::Redis(redis.url()))
        .await
        .expect("the counter connects")
        .expect("a Redis store is counted");
    assert_eq!(calls.masters(), 1);
    let before = calls.sample().await.expect("a first sample");
    for _ in 0..5 {
        let _: i64 = redis::cmd("INCR").arg("n").query(&mut conn).unwrap();
    }
    let after = calls.sample().await.expect("a second sample");
    let window = delta(&before, &after);
    assert_eq!(window["incr"].calls, 5, "{window:?}");
    assert!(!window.contains_key("set"), "{window:?}");
}

#[tokio::test]
async fn the_call_counter_sums_every_master_of_a_cluster() {
    let Some(cluster) = RedisCluster::start() else {
        return;
    };
    let calls = RedisCalls::connect(&BenchStore::Cluster(cluster.urls()))
        .await
        .expect("the counter connects")
        .expect("a Cluster store is counted");
    assert_eq!(calls.masters(), 3, "3 masters (replicas not counted)");
    let mut conn = cluster.connection();
    let before = calls.sample().await.expect("a first sample");
    let keys: Vec<String> = (0..30).map(|n| format!("bench-key-{n}")).collect();
    let mut masters: Vec<u16> = keys.iter().map(|key| cluster.master_of(key)).collect();
    for key in &keys {
        let _: () = redis::cmd("SET").arg(key).arg(1).query(&mut conn).unwrap();
    }
    masters.sort_unstable();
    masters.dedup();
    assert_eq!(masters.len(), 3, "the keys fall on every master");
    let after = calls.sample().await.expect("a second sample");
    let window = delta(&before, &after);
    assert_eq!(window["set"].calls, 30, "{window:?}");
    assert!(total_calls(&window) >= 30);
}

#[test]
fn two_instances_share_rooms_on_a_real_cluster_and_count_its_calls() {
    let Some(cluster) = RedisCluster::start() else {
        return;
    };
    let nodes = cluster.urls_arg();
    let output = bench(&[
        "--rooms",
        "4",
        "--think-ms",
        "100",
        "--warmup-secs",
        "1",
        "--seconds",
        "3",
        "--idle-secs",
        "2",
        "--instances",
        "2",
        "--redis-cluster",
        &nodes,
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "bench failed: {text}\n{stderr}");
    let start = line(&text, "bench: ");
    assert!(start.contains("2 servers"), "{start}");
    assert!(start.contains("redis cluster store"), "{start}");
    assert!(start.contains("different instances"), "{start}");
    assert!(line(&text, "ramp-up: ").contains("4 rooms open"));
    // Every move crosses instances: the other seat's instance hears of it through the Cluster.
    let steady = line(&text, "steady state: ");
    assert!(
        count_before(&steady, "in 3.") > 0,
        "moves were played: {steady}"
    );
    assert_eq!(count_before(&steady, "errors"), 0, "{steady}");
    let calls = line(&text, "steady-state redis calls");
    assert!(calls.contains("on 3 masters"), "{calls}");
    assert!(count_before(&calls, "calls in") > 0, "{calls}");
    // Saves and the housekeeping are Lua scripts (EVAL in a save's pipeline with WAIT, EVALSHA).
    assert!(calls.contains("eval"), "{calls}");
    let idle = line(&text, "idle redis calls");
    assert!(idle.contains("on 3 masters"), "{idle}");
}
