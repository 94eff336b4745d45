//! Where the bench's clients run: in this process, or spread over client processes
//! (`--client-processes N`) when one process cannot hold them all (every client socket is a file,
//! and a machine's open-file limit caps a process: 10,000 rooms are 20,000 client sockets).
//!
//! A client process is this program again (`damas-server bench` with hidden `--worker-…`
//! arguments) playing a contiguous share of the rooms against the servers this process started.
//! They talk over the worker's stdin and stdout, one line each way per step:
//! - the worker says `bench-worker: opened` once its rooms are open (or `bench-worker: failed …`);
//! - this process sends a phase (its number) to every worker at once, and each answers
//!   `bench-worker: tally {JSON}`, all it has counted so far; the tallies are merged whole (every
//!   sample, not quantiles), so the report is the one a single process would print.
//!
//! The servers, their memory and CPU and the Redis calls stay with this process, which prints the
//! one report. Lines a worker writes without the prefix (its logs) are passed on to stderr.

use super::harness::{cpu_ticks, BenchArgs, BenchError};
use super::room_clients::{LocalClients, Share};
use super::tally::{Phase, Tally};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// What a worker's protocol lines start with.
const PREFIX: &str = "bench-worker: ";

/// Openings at a time over the whole run (shared out between the processes).
const OPENINGS_AT_A_TIME: usize = 32;

/// The share of `rooms` rooms that process `k` of `processes` plays: contiguous, sizes differing
/// by one at most.
pub(super) fn share_bounds(rooms: usize, processes: usize, k: usize) -> (usize, usize) {
    let processes = processes.max(1);
    let first = k * rooms / processes;
    let end = (k + 1) * rooms / processes;
    (first, end - first)
}

/// The share a process plays, from the run's arguments.
fn share(args: &BenchArgs, processes: usize, first: usize, urls: Vec<String>) -> Share {
    let processes = processes.max(1);
    Share {
        first,
        count: args.rooms,
        urls,
        think_ms: args.think_ms,
        open_interval: (args.open_rate > 0)
            .then(|| Duration::from_secs_f64(processes as f64 / f64::from(args.open_rate))),
        concurrency: (OPENINGS_AT_A_TIME / processes).max(1),
    }
}

/// The clients of a run.
pub(super) enum Clients {
    Local(LocalClients),
    Processes(Vec<Worker>),
}

impl Clients {
    /// Opens every room (in this process, or in `--client-processes` workers); returns once all
    /// are open.
    pub(super) async fn open(args: &BenchArgs, urls: &[String]) -> Result<Clients, BenchError> {
        if args.client_processes <= 1 {
            let share = share(args, 1, 0, urls.to_vec());
            return Ok(Clients::Local(LocalClients::open(&share).await?));
        }
        let mut workers = Vec::new();
        for k in 0..args.client_processes {
            let (first, count) = share_bounds(args.rooms, args.client_processes, k);
            workers.push(Worker::spawn(args, urls, first, count)?);
        }
        for worker in &mut workers {
            worker.opened().await?;
        }
        Ok(Clients::Processes(workers))
    }

    /// Moves every room to `phase`; what all of them counted so far, merged.
    pub(super) async fn set_phase(&mut self, phase: Phase) -> Result<Tally, BenchError> {
        match self {
            Clients::Local(local) => Ok(local.set_phase(phase)),
            Clients::Processes(workers) => {
                // Every worker told first, so that they change phase together.
                for worker in workers.iter_mut() {
                    worker.send_phase(phase).await?;
                }
                let mut merged = Tally::default();
                for worker in workers.iter_mut() {
                    merged.merge(worker.tally().await?);
                }
                Ok(merged)
            }
        }
    }

    /// The CPU ticks of the processes holding the clients.
    pub(super) fn cpu_ticks(&self) -> Option<u64> {
        match self {
            Clients::Local(_) => cpu_ticks(std::process::id()),
            Clients::Processes(workers) => workers
                .iter()
                .map(|worker| worker.child.id().and_then(cpu_ticks))
                .sum(),
        }
    }
}

/// A client process.
pub(super) struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    first: usize,
}

impl Worker {
    fn spawn(
        args: &BenchArgs,
        urls: &[String],
        first: usize,
        count: usize,
    ) -> Result<Worker, BenchError> {
        let exe = std::env::current_exe().map_err(BenchError::Spawn)?;
        let mut child = Command::new(exe)
            .arg("bench")
            .args(["--rooms", &count.to_string()])
            .args(["--think-ms", &args.think_ms.to_string()])
            .args(["--open-rate", &args.open_rate.to_string()])
            .args(["--worker-first", &first.to_string()])
            .args(["--worker-share", &args.client_processes.to_string()])
            .args(["--worker-urls", &urls.join(",")])
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(BenchError::Spawn)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(BenchError::ClientProcess(first, "no pipes".into()));
        };
        Ok(Worker {
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
            first,
        })
    }

    fn failed(&self, what: impl std::fmt::Display) -> BenchError {
        BenchError::ClientProcess(self.first, what.to_string())
    }

    /// The worker's next protocol line, without the prefix.
    async fn next(&mut self) -> Result<String, BenchError> {
        loop {
            match self.stdout.next_line().await {
                Ok(Some(line)) => match line.strip_prefix(PREFIX) {
                    Some(said) => return Ok(said.to_string()),
                    None => eprintln!("client process {}: {line}", self.first),
                },
                Ok(None) => return Err(self.failed("exited")),
                Err(error) => return Err(self.failed(error)),
            }
        }
    }

    async fn opened(&mut self) -> Result<(), BenchError> {
        let said = self.next().await?;
        if said == "opened" {
            return Ok(());
        }
        Err(self.failed(said))
    }

    async fn send_phase(&mut self, phase: Phase) -> Result<(), BenchError> {
        let line = format!("{}\n", phase as u8);
        let sent = self.stdin.write_all(line.as_bytes()).await;
        match sent.and(self.stdin.flush().await) {
            Ok(()) => Ok(()),
            Err(error) => Err(self.failed(error)),
        }
    }

    async fn tally(&mut self) -> Result<Tally, BenchError> {
        let said = self.next().await?;
        let Some(json) = said.strip_prefix("tally ") else {
            return Err(self.failed(said));
        };
        serde_json::from_str(json).map_err(|error| self.failed(error))
    }
}

/// A client process's life (`damas-server bench --worker-urls …`): open its share of the rooms,
/// then follow the phases it is sent, answering each with its tally, until `Done` or its stdin
/// closes (the process that started it is gone).
pub(super) async fn run_worker(args: &BenchArgs) -> Result<(), BenchError> {
    crate::limits::raise_file_limit();
    let share = share(
        args,
        args.worker_share,
        args.worker_first,
        args.worker_urls.clone(),
    );
    let clients = match LocalClients::open(&share).await {
        Ok(clients) => clients,
        Err(error) => {
            println!("{PREFIX}failed {error}");
            return Err(error);
        }
    };
    println!("{PREFIX}opened");
    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = stdin.next_line().await {
        let phase = Phase::from_u8(line.trim().parse().unwrap_or(u8::MAX));
        let tally = clients.set_phase(phase);
        match serde_json::to_string(&tally) {
            Ok(json) => println!("{PREFIX}tally {json}"),
            Err(error) => println!("{PREFIX}failed {error}"),
        }
        if phase == Phase::Done {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_every_room_once() {
        for (rooms, processes) in [(10_000, 2), (7, 3), (2, 4), (0, 2), (9_000, 16)] {
            let mut next = 0;
            for k in 0..processes {
                let (first, count) = share_bounds(rooms, processes, k);
                assert_eq!(first, next, "{rooms} rooms over {processes}");
                assert!(count <= rooms / processes + 1);
                next = first + count;
            }
            assert_eq!(next, rooms, "{rooms} rooms over {processes}");
        }
    }
}
