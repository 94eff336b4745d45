//! The rooms' clients played by tasks of this process: one process's share of the rooms, each
//! room two WebSocket clients playing legal moves, counting into one tally.

use super::harness::{receive, send, BenchError, Socket, NO_ANSWER};
use super::tally::{Phase, PhaseClock, Tally};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Tries to open one room before the run fails.
const OPEN_ATTEMPTS: u32 = 4;

/// One process's share of the rooms: rooms `first..first + count` of the run (a room's index
/// sets its seats' instances and its moves' seed, so a room plays the same in any process).
pub(super) struct Share {
    pub(super) first: usize,
    pub(super) count: usize,
    /// The servers' WebSocket URLs.
    pub(super) urls: Vec<String>,
    pub(super) think_ms: u64,
    /// Time between two openings (`--open-rate` over the processes), if paced.
    pub(super) open_interval: Option<Duration>,
    /// Openings at a time.
    pub(super) concurrency: usize,
}

/// The rooms of a share, played by tasks of this process.
pub(super) struct LocalClients {
    tally: Arc<Mutex<Tally>>,
    phase: Arc<PhaseClock>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for LocalClients {
    fn drop(&mut self) {
        self.phase.set(Phase::Done);
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl LocalClients {
    /// Opens every room of the share (each then plays on); returns once all are open.
    pub(super) async fn open(share: &Share) -> Result<LocalClients, BenchError> {
        let mut clients = LocalClients {
            tally: Arc::new(Mutex::new(Tally::default())),
            phase: Arc::new(PhaseClock::default()),
            tasks: Vec::new(),
        };
        let opening = Arc::new(tokio::sync::Semaphore::new(share.concurrency.max(1)));
        let mut pace = share.open_interval.map(|every| {
            let mut pace = tokio::time::interval(every);
            pace.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            pace
        });
        let (ready_tx, mut ready_rx) =
            tokio::sync::mpsc::channel::<Result<(), BenchError>>(share.count.max(1));
        for index in share.first..share.first + share.count {
            if let Some(pace) = pace.as_mut() {
                pace.tick().await;
            }
            let urls = &share.urls;
            let room = RoomLoad {
                index,
                urls: [
                    urls[index % urls.len()].clone(),
                    urls[(index + 1) % urls.len()].clone(),
                ],
                think_ms: share.think_ms,
                tally: Arc::clone(&clients.tally),
                phase: Arc::clone(&clients.phase),
            };
            let opening = Arc::clone(&opening);
            let ready = ready_tx.clone();
            clients.tasks.push(tokio::spawn(async move {
                let opened = {
                    let _permit = opening.acquire().await;
                    let started = Instant::now();
                    // A room that could not open (the store answered `unavailable`) is opened
                    // again, as a person would; the retries are counted.
                    let mut opened = room.open().await;
                    for attempt in 1..OPEN_ATTEMPTS {
                        if opened.is_ok() {
                            break;
                        }
                        lock(&room.tally).open_retries += 1;
                        tokio::time::sleep(Duration::from_millis(500 * u64::from(attempt))).await;
                        opened = room.open().await;
                    }
                    let took = started.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                    lock(&room.tally).openings.push(took);
                    opened
                };
                match opened {
                    Ok(sockets) => {
                        let _ = ready.send(Ok(())).await;
                        room.play(sockets).await;
                    }
                    Err(error) => {
                        let _ = ready.send(Err(error)).await;
                    }
                }
            }));
        }
        drop(ready_tx);
        for _ in 0..share.count {
            match ready_rx.recv().await {
                Some(Ok(())) => {}
                Some(Err(error)) => return Err(error),
                None => break,
            }
        }
        Ok(clients)
    }

    /// Moves the rooms to `phase`; what they counted so far.
    pub(super) fn set_phase(&self, phase: Phase) -> Tally {
        self.phase.set(phase);
        lock(&self.tally).clone()
    }
}

struct RoomLoad {
    index: usize,
    /// Where the room's first and second client connect.
    urls: [String; 2],
    think_ms: u64,
    tally: Arc<Mutex<Tally>>,
    phase: Arc<PhaseClock>,
}

fn lock(tally: &Mutex<Tally>) -> std::sync::MutexGuard<'_, Tally> {
    tally.lock().unwrap_or_else(|p| p.into_inner())
}

/// What a client last saw of its room.
#[derive(Default, Clone)]
struct Seen {
    you: Option<u64>,
    ply: u64,
    rematch: u64,
    over: bool,
    to_move: u64,
    moves: Vec<String>,
}

fn read_state(value: &Value) -> Option<Seen> {
    if value["type"] != "state" {
        return None;
    }
    let room = &value["room"];
    Some(Seen {
        you: value["you"].as_u64(),
        ply: room["view"]["ply"].as_u64()?,
        rematch: room["rematch"].as_u64()?,
        over: !room["result"].is_null(),
        to_move: room["view"]["to_move"].as_u64()?,
        moves: room["view"]["legal_moves"]
            .as_array()?
            .iter()
            .filter_map(|m| m["move"].as_str().map(str::to_string))
            .collect(),
    })
}

async fn expect_joined(socket: &mut Socket) -> Result<String, String> {
    loop {
        let message = receive(socket).await?;
        match message["type"].as_str() {
            Some("joined") => return Ok(message["code"].as_str().unwrap_or_default().to_string()),
            Some("error") => return Err(message.to_string()),
            _ => {}
        }
    }
}

impl RoomLoad {
    async fn connect(&self, seat: usize) -> Result<Socket, BenchError> {
        tokio_tungstenite::connect_async(self.urls[seat].as_str())
            .await
            .map(|(socket, _)| socket)
            .map_err(|e| BenchError::Room(self.index, e.to_string()))
    }

    async fn open(&self) -> Result<[Socket; 2], BenchError> {
        let fail = |e: String| BenchError::Room(self.index, e);
        let mut a = self.connect(0).await?;
        send(
            &mut a,
            json!({"v":1,"type":"create","game":{"kind":"english","players":2},"nickname":"bench","clock":"none"}),
        )
        .await
        .map_err(fail)?;
        let code = expect_joined(&mut a).await.map_err(fail)?;
        let mut b = self.connect(1).await?;
        send(
            &mut b,
            json!({"v":1,"type":"join","code":code,"nickname":"bench"}),
        )
        .await
        .map_err(fail)?;
        expect_joined(&mut b).await.map_err(fail)?;
        Ok([a, b])
    }

    /// Plays until stopped: the client to move thinks, sends, and the round trip ends when both
    /// clients hold the new state.
    async fn play(&self, sockets: [Socket; 2]) {
        let mut rng = SmallRng::seed_from_u64(self.index as u64);
        let [mut a, mut b] = sockets;
        let mut seen = [Seen::default(), Seen::default()];
        // (ply the move makes, when it was sent, which clients have it)
        let mut pending: Option<(u64, u64, Instant, [bool; 2])> = None;
        let mut next_move_at: Option<tokio::time::Instant> = None;
        loop {
            if self.phase.get() == Phase::Done {
                return;
            }
            let wake = next_move_at
                .unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
            let (who, message) = tokio::select! {
                m = receive(&mut a) => (0, m),
                m = receive(&mut b) => (1, m),
                _ = tokio::time::sleep_until(wake) => {
                    next_move_at = None;
                    if self.phase.get() == Phase::Idle {
                        // Nobody moves in the idle window: the rooms only keep their sockets.
                        next_move_at = Some(tokio::time::Instant::now() + Duration::from_secs(3600));
                        continue;
                    }
                    let mover = if seen[0].you == Some(seen[0].to_move) { 0 } else { 1 };
                    let state = seen[mover].clone();
                    if state.over || state.moves.is_empty() {
                        continue;
                    }
                    let text = state.moves[rng.gen_range(0..state.moves.len())].clone();
                    let socket = if mover == 0 { &mut a } else { &mut b };
                    if send(socket, json!({"v":1,"type":"move","move":text,"ply":state.ply})).await.is_err() {
                        return;
                    }
                    pending = Some((state.rematch, state.ply + 1, Instant::now(), [false, false]));
                    continue;
                }
            };
            let message = match message {
                Ok(message) => message,
                // Idle rooms hear nothing for as long as the idle window lasts (a minute, to see
                // the once-a-minute housekeeping): silence is not a failure then.
                Err(error) if error == NO_ANSWER && self.phase.get() == Phase::Idle => continue,
                Err(_) => return,
            };
            if message["type"] == "error" {
                lock(&self.tally).error(self.phase.get());
                continue;
            }
            let Some(state) = read_state(&message) else {
                continue;
            };
            seen[who] = state.clone();
            if let Some((rematch, ply, sent, mut got)) = pending {
                if state.rematch == rematch && state.ply >= ply {
                    got[who] = true;
                    pending = Some((rematch, ply, sent, got));
                    if got == [true, true] {
                        pending = None;
                        lock(&self.tally).moved(self.index, self.phase.get(), sent.elapsed());
                    }
                }
            }
            // Both clients up to date: the next move (or a rematch) after a think time.
            let agreed = seen[0].ply == seen[1].ply && seen[0].rematch == seen[1].rematch;
            if pending.is_none() && agreed && next_move_at.is_none() {
                if seen[0].over {
                    if who == 0 {
                        lock(&self.tally).game_finished(self.phase.get());
                        let _ = send(&mut a, json!({"v":1,"type":"rematch"})).await;
                    }
                    continue;
                }
                let think = self.think_ms / 2 + rng.gen_range(0..=self.think_ms);
                next_move_at = Some(tokio::time::Instant::now() + Duration::from_millis(think));
            }
        }
    }
}
