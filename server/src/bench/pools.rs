//! `damas-server bench --pool-players N`: the pairing pools under load. N players enter the pools
//! (spread evenly over `--pool-seconds`, the five games in turn, casual), each timing its
//! `pool_join` → `paired` and leaving once paired. It prints the time to pair at p50/p99/max and
//! the server's CPU; then, on a second server whose waves never come, N players (at most 5,000)
//! wait at once, for the server's memory per waiting player (its socket included).

use super::harness::{
    cpu_ticks, receive, rss_kib, send, spawn_server, spawn_server_with, BenchArgs, BenchError,
    Socket,
};
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const KINDS: [&str; 5] = ["english", "turkish", "international", "diamond", "capture"];
/// Players waiting at once in the memory phase, at most.
const MEMORY_PLAYERS: usize = 5_000;

async fn connect(url: &str) -> Result<Socket, String> {
    tokio_tungstenite::connect_async(url)
        .await
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

async fn join(socket: &mut Socket, index: usize) -> Result<(), String> {
    let kind = KINDS[index % KINDS.len()];
    send(
        socket,
        json!({"v":1,"type":"pool_join","pool":{"kind":kind},"nickname":"bench"}),
    )
    .await
}

/// Until a message of `kind` (an `error` fails).
async fn until(socket: &mut Socket, kind: &str) -> Result<(), String> {
    loop {
        let message = receive(socket).await?;
        match message["type"].as_str() {
            Some(k) if k == kind => return Ok(()),
            Some("error") => return Err(message.to_string()),
            _ => {}
        }
    }
}

pub(super) async fn run(args: &BenchArgs) -> Result<(), BenchError> {
    let players = args.pool_players;
    let (server, addr) = spawn_server(args)?;
    let pid = server.0.id();
    let url = format!("ws://{addr}/ws");
    println!(
        "bench pools: {players} players over {} s, 5 casual pools, server {addr}",
        args.pool_seconds
    );
    let times: Arc<Mutex<Vec<u32>>> = Arc::default();
    let errors: Arc<Mutex<u64>> = Arc::default();
    let cpu_before = cpu_ticks(pid);
    let started = Instant::now();
    let spacing = Duration::from_secs(args.pool_seconds).as_secs_f64() / players.max(1) as f64;
    let mut tasks = Vec::new();
    for index in 0..players {
        let url = url.clone();
        let times = Arc::clone(&times);
        let errors = Arc::clone(&errors);
        let arrival = started + Duration::from_secs_f64(spacing * index as f64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(arrival.into()).await;
            let outcome = async {
                let mut socket = connect(&url).await?;
                let sent = Instant::now();
                join(&mut socket, index).await?;
                until(&mut socket, "paired").await?;
                let waited = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                // Take the seat, then go.
                until(&mut socket, "joined").await?;
                let _ = socket.close(None).await;
                Ok::<u32, String>(waited)
            };
            match outcome.await {
                Ok(waited) => times.lock().unwrap_or_else(|p| p.into_inner()).push(waited),
                Err(_) => *errors.lock().unwrap_or_else(|p| p.into_inner()) += 1,
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu_after = cpu_ticks(pid);
    let mut times = std::mem::take(&mut *times.lock().unwrap_or_else(|p| p.into_inner()));
    times.sort_unstable();
    let quantile = |q: f64| -> f64 {
        if times.is_empty() {
            return f64::NAN;
        }
        let index = ((times.len() - 1) as f64 * q).round() as usize;
        f64::from(times[index]) / 1_000_000.0
    };
    println!(
        "paired: {} of {players} in {wall:.1} s ({} errors); time to pair p50 {:.2} s, p99 {:.2} s, max {:.2} s",
        times.len(),
        *errors.lock().unwrap_or_else(|p| p.into_inner()),
        quantile(0.5),
        quantile(0.99),
        quantile(1.0)
    );
    if let (Some(before), Some(after)) = (cpu_before, cpu_after) {
        let seconds = (after - before) as f64 / 100.0;
        println!(
            "server CPU: {seconds:.1} s in {wall:.1} s = {:.0} % of one core",
            100.0 * seconds / wall
        );
    }
    drop(server);
    memory_phase(args, players.min(MEMORY_PLAYERS)).await
}

/// N players waiting at once on a server whose first wave is a minute away.
async fn memory_phase(args: &BenchArgs, players: usize) -> Result<(), BenchError> {
    let (server, addr) = spawn_server_with(
        args,
        &["--pool-wave-ms", "60000", "--pool-cpu-after-secs", "600"],
    )?;
    let pid = server.0.id();
    let url = format!("ws://{addr}/ws");
    let idle = rss_kib(pid);
    let mut sockets = Vec::with_capacity(players);
    for index in 0..players {
        let mut socket = connect(&url)
            .await
            .map_err(|e| BenchError::Room(index, e))?;
        join(&mut socket, index)
            .await
            .map_err(|e| BenchError::Room(index, e))?;
        until(&mut socket, "pool_waiting")
            .await
            .map_err(|e| BenchError::Room(index, e))?;
        sockets.push(socket);
    }
    if let (Some(idle), Some(rss)) = (idle, rss_kib(pid)) {
        println!(
            "waiting: {players} players at once: server RSS {:.1} MiB ({:.1} MiB idle) = {:.1} KiB per waiting player, socket included",
            rss as f64 / 1024.0,
            idle as f64 / 1024.0,
            rss.saturating_sub(idle) as f64 / players.max(1) as f64
        );
    }
    drop(sockets);
    drop(server);
    Ok(())
}
