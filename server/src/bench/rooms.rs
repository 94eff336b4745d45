//! The room load: N rooms of English checkers, 2 clients each, playing legal moves (the
//! clients: `room_clients`, in this process or spread over others by `clients`); this part
//! starts the servers, runs the phases and prints the report.

use super::call_counter::CallCounter;
use super::clients::Clients;
use super::harness::{cpu_ticks, rss_kib, spawn_server, BenchArgs, BenchError};
use super::tally::{quantile_ms, Phase};
use std::time::{Duration, Instant};

/// The servers of a run: their addresses and, where known, their pids.
struct Servers {
    addrs: Vec<String>,
    pids: Vec<u32>,
    _children: Vec<super::harness::ServerChild>,
}

impl Servers {
    fn start(args: &BenchArgs) -> Result<Servers, BenchError> {
        if let Some(addr) = &args.addr {
            return Ok(Servers {
                addrs: vec![addr.clone()],
                pids: args.server_pid.into_iter().collect(),
                _children: Vec::new(),
            });
        }
        let mut servers = Servers {
            addrs: Vec::new(),
            pids: Vec::new(),
            _children: Vec::new(),
        };
        for _ in 0..args.instances {
            let (child, addr) = spawn_server(args)?;
            servers.pids.push(child.0.id());
            servers.addrs.push(addr);
            servers._children.push(child);
        }
        Ok(servers)
    }

    /// The servers' RSS summed, KiB (none if a pid is unknown or unreadable).
    fn rss_kib(&self) -> Option<u64> {
        self.sum(rss_kib)
    }

    /// The servers' CPU ticks summed.
    fn cpu_ticks(&self) -> Option<u64> {
        self.sum(cpu_ticks)
    }

    fn sum(&self, read: fn(u32) -> Option<u64>) -> Option<u64> {
        if self.pids.len() != self.addrs.len() {
            return None;
        }
        self.pids.iter().map(|pid| read(*pid)).sum()
    }
}

pub(super) async fn run(args: BenchArgs) -> Result<(), BenchError> {
    let store = args.validate()?;
    // Every client socket is a file of the process holding it: 2 per room.
    let file_limit = crate::limits::raise_file_limit();
    let servers = Servers::start(&args)?;
    let urls: Vec<String> = servers
        .addrs
        .iter()
        .map(|addr| format!("ws://{addr}/ws"))
        .collect();
    println!(
        "bench: {} rooms × 2 clients, think {} ms, {} s, {} server{} {} ({} store{}); clients in \
         {} process{}; bench file limit {}",
        args.rooms,
        args.think_ms,
        args.seconds,
        servers.addrs.len(),
        if servers.addrs.len() == 1 { "" } else { "s" },
        servers.addrs.join(", "),
        store.name(),
        if servers.addrs.len() > 1 {
            ", the two seats of each room on different instances"
        } else {
            ""
        },
        args.client_processes,
        if args.client_processes == 1 { "" } else { "es" },
        file_limit.map_or_else(|| "unknown".to_string(), |n| n.to_string()),
    );
    let mut counter = CallCounter::connect(&store).await?;
    // The idle servers' memory, so that the per-room figure is what the rooms add.
    let rss_idle = servers.rss_kib();
    let ramp_cpu_before = servers.cpu_ticks();
    let open_started = Instant::now();
    let mut clients = Clients::open(&args, &urls).await?;
    let ramp = open_started.elapsed().as_secs_f64();
    let ramp_cpu_after = servers.cpu_ticks();
    {
        let mut tally = clients.set_phase(Phase::WarmUp).await?;
        tally.sort();
        let counts = &tally.counts[Phase::RampUp as usize];
        println!(
            "ramp-up: {} rooms open in {ramp:.1} s = {:.0} rooms/s; each room's opening (create + \
             join) p50 {:.1} ms, p99 {:.1} ms, {} openings tried again; meanwhile {} moves, {} \
             games finished, {} errors",
            tally.openings.len(),
            tally.openings.len() as f64 / ramp.max(1e-9),
            quantile_ms(&tally.openings, 0.5),
            quantile_ms(&tally.openings, 0.99),
            tally.open_retries,
            counts.moves,
            counts.games,
            counts.errors
        );
    }
    if let (Some(before), Some(after)) = (ramp_cpu_before, ramp_cpu_after) {
        let seconds = (after - before) as f64 / 100.0;
        println!(
            "ramp-up server CPU: {seconds:.1} s in {ramp:.1} s = {:.0} % of one core",
            100.0 * seconds / ramp.max(1e-9)
        );
    }
    println!("warming up {} s", args.warmup_secs);
    tokio::time::sleep(Duration::from_secs(args.warmup_secs)).await;
    counter.start().await?;
    let cpu_before = servers.cpu_ticks();
    let clients_cpu_before = clients.cpu_ticks();
    let started = Instant::now();
    clients.set_phase(Phase::Measured).await?;
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let wall = started.elapsed().as_secs_f64();
    let cpu_after = servers.cpu_ticks();
    let clients_cpu_after = clients.cpu_ticks();
    let mut tally = clients
        .set_phase(if args.idle_secs > 0 {
            Phase::Idle
        } else {
            Phase::Done
        })
        .await?;
    let calls = counter.finish(wall, args.rooms).await?;
    let rss = servers.rss_kib();
    tally.sort();
    let warm = &tally.counts[Phase::WarmUp as usize];
    println!(
        "warm-up: {} moves, {} games finished, {} errors (not counted below)",
        warm.moves, warm.games, warm.errors
    );
    let steady = &tally.counts[Phase::Measured as usize];
    println!(
        "steady state: moves: {} in {wall:.1} s = {:.0} moves/s ({} games finished in this \
         window, {} errors; {} of {} rooms moved)",
        steady.moves,
        steady.moves as f64 / wall.max(1e-9),
        steady.games,
        steady.errors,
        tally.rooms_moved.len(),
        args.rooms
    );
    println!(
        "round trip (send → both clients updated): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        quantile_ms(&tally.round_trips, 0.5),
        quantile_ms(&tally.round_trips, 0.99),
        quantile_ms(&tally.round_trips, 1.0)
    );
    if let (Some(rss), Some(idle)) = (rss, rss_idle) {
        let rooms = args.rooms.max(1) as f64;
        println!(
            "server RSS: {:.1} MiB, {:.1} MiB idle before the rooms: {:.1} KiB per room above idle \
             ({:.1} KiB per room all told){}",
            rss as f64 / 1024.0,
            idle as f64 / 1024.0,
            rss.saturating_sub(idle) as f64 / rooms,
            rss as f64 / rooms,
            if servers.addrs.len() > 1 {
                " (summed over the instances)"
            } else {
                ""
            }
        );
    }
    // Linux counts process CPU time in USER_HZ ticks (100 per second).
    if let (Some(before), Some(after)) = (cpu_before, cpu_after) {
        let seconds = (after - before) as f64 / 100.0;
        println!(
            "steady-state server CPU: {:.1} s in {wall:.1} s = {:.0} % of one core",
            seconds,
            100.0 * seconds / wall.max(1e-9)
        );
    }
    if let (Some(before), Some(after)) = (clients_cpu_before, clients_cpu_after) {
        let seconds = (after - before) as f64 / 100.0;
        println!(
            "steady-state bench clients CPU: {:.1} s in {wall:.1} s = {:.0} % of one core",
            seconds,
            100.0 * seconds / wall.max(1e-9)
        );
    }
    if let Some(calls) = calls {
        println!("steady-state redis calls (INFO commandstats): {calls}");
    }
    if args.idle_secs > 0 {
        counter.start().await?;
        let idle_started = Instant::now();
        tokio::time::sleep(Duration::from_secs(args.idle_secs)).await;
        let idle_wall = idle_started.elapsed().as_secs_f64();
        if let Some(calls) = counter.finish(idle_wall, args.rooms).await? {
            println!("idle redis calls (every room open, nobody moving): {calls}");
        }
        clients.set_phase(Phase::Done).await?;
    }
    drop(clients);
    drop(servers);
    Ok(())
}
