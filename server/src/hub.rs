//! One task per room per instance: the room's hub. Connections in the room send it their
//! actions and watch its latest snapshot; it loads/saves the record through the store, keeps the
//! room's session in step (`play::Game`), and, while it holds the room's lease, runs the room's
//! timers from the record's absolute deadlines: the CPU's moves, the 45 s takeover, clock flags.
//!
//! A hub lives while a connection of this instance is in the room; another instance's hub may
//! serve the same room (the store's compare-and-set and events keep them in step, the lease lets
//! one of them run the timers).

use crate::error::RoomError;
use crate::lobby;
use crate::play::{self, Game};
use crate::protocol::VERSION;
use crate::server::Shared;
use crate::store::{
    ClockSettings, GameChoice, RoomCode, RoomEvent, RoomKind, RoomRecord, RoomResult, Save,
    SeatClock, SeatKind, SeatRating, Versioned,
};
use crate::{cpu_rooms, offers};
use futures_util::StreamExt;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};

/// How often the lease is renewed and presence reconciled.
const HOUSEKEEPING: Duration = Duration::from_secs(2);
/// A lease outlives a missed renewal or two, and lapses within seconds of a crash.
const LEASE_TTL: Duration = Duration::from_secs(6);
/// A presence entry outlives two missed renewals (connections renew every 5 s).
pub const PRESENCE_TTL: Duration = Duration::from_secs(15);
/// How often the lease holder renews the time to live of a room with someone connected (the
/// store's TTL is at most 30 min ahead: see `RoomRecord::ttl`).
const KEEP_ALIVE_MS: u64 = 60_000;
/// Compare-and-set attempts before an action gives up with `busy`.
const SAVE_ATTEMPTS: usize = 8;
/// Pause before a reload that failed (the store was unreachable) is tried again.
const RELOAD_RETRY: Duration = Duration::from_millis(250);

/// What a connection asks of the room.
#[derive(Debug)]
pub enum Action {
    Join { nickname: String },
    Resume,
    StartCpu,
    Move { text: String, ply: Option<usize> },
    Resign,
    Leave,
    Rematch,
    OfferDraw,
    AnswerDraw { accept: bool },
    Abort,
    Undo,
    Redo,
}

pub struct Command {
    pub action: Action,
    /// The hash of the sender's seat token (`None`: a spectator).
    pub token_hash: Option<String>,
    /// The sender's connection id (its presence entries).
    pub conn: String,
    pub reply: oneshot::Sender<Result<Option<u8>, RoomError>>,
}

/// The room as this instance last saw it, ready to send.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// The store's version of the record (0: not loaded yet).
    pub version: u64,
    /// The `room` of the `state` message.
    pub room: Option<Box<RawValue>>,
    /// The same `room` for a client that holds enough of this game's history (docs/protocol.md,
    /// "Deltas").
    pub delta: Option<Delta>,
    /// Which game and how much of its history `room` shows.
    pub mark: Option<HistoryMark>,
    /// Token hash of each seat, to tell a connection its seat (never sent).
    pub seat_hashes: Vec<Option<String>>,
    /// The connection that took each token's seat last, by token hash (never sent): an older
    /// connection with the same token sees it was replaced.
    pub holders: Vec<(String, String)>,
    /// The room no longer exists.
    pub gone: bool,
}

/// A `room` that only carries the history entries from `history_from` on, and no layout. States
/// grow with the game's history, and every socket's write buffer keeps the capacity of the largest
/// frame it sent: deltas keep both small.
#[derive(Debug)]
pub struct Delta {
    pub history_from: usize,
    pub room: Box<RawValue>,
}

/// Which game of the room a state shows, and how many history entries it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryMark {
    pub rematch: u32,
    pub game_id: String,
    pub history_len: usize,
}

impl Snapshot {
    /// The delta `room` for a client that holds `held`, if it can complete it (same game, at
    /// least `history_from` entries; within a game the history only grows).
    pub fn delta_for(&self, held: Option<&HistoryMark>) -> Option<&RawValue> {
        let delta = self.delta.as_ref().filter(|delta| {
            matches!((held, &self.mark), (Some(held), Some(mark))
                if held.rematch == mark.rematch
                    && held.game_id == mark.game_id
                    && held.history_len >= delta.history_from)
        });
        delta.map(|d| &*d.room)
    }
}

/// What the next delta is taken against: the last snapshot this hub published.
struct DeltaBase {
    mark: HistoryMark,
    /// Where that snapshot's delta began.
    history_from: usize,
}

/// A connection's link to its room's hub.
pub struct HubHandle {
    /// Boxed: the channel's slots are allocated 32 at a time per room, so they stay pointer-sized.
    commands: mpsc::Sender<Box<Command>>,
    pub snapshots: watch::Receiver<Arc<Snapshot>>,
}

impl HubHandle {
    /// Sends an action and waits for its answer.
    pub async fn act(
        &self,
        action: Action,
        token_hash: Option<String>,
        conn: &str,
    ) -> Result<Option<u8>, RoomError> {
        let (reply, answer) = oneshot::channel();
        let command = Box::new(Command {
            action,
            token_hash,
            conn: conn.to_string(),
            reply,
        });
        self.commands
            .send(command)
            .await
            .map_err(|_| RoomError::Busy)?;
        answer.await.map_err(|_| RoomError::Busy)?
    }
}

/// The hubs of this instance, by room.
#[derive(Default)]
pub struct Hubs {
    hubs: Mutex<HashMap<RoomCode, Entry>>,
    next_id: std::sync::atomic::AtomicU64,
}

struct Entry {
    id: u64,
    /// Weak: the hub stops when its last connection drops its handle.
    commands: mpsc::WeakSender<Box<Command>>,
    snapshots: watch::Receiver<Arc<Snapshot>>,
}

impl Hubs {
    /// A handle on the hub of `code`, started if this instance has none.
    pub fn open(&self, shared: &Arc<Shared>, code: &RoomCode) -> HubHandle {
        let mut hubs = self.hubs.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = hubs.get(code) {
            if let Some(commands) = entry.commands.upgrade() {
                return HubHandle {
                    commands,
                    snapshots: entry.snapshots.clone(),
                };
            }
        }
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (commands, receiver) = mpsc::channel(64);
        let (snapshot_tx, snapshots) = watch::channel(Arc::new(Snapshot::default()));
        hubs.insert(
            code.clone(),
            Entry {
                id,
                commands: commands.downgrade(),
                snapshots: snapshots.clone(),
            },
        );
        let hub = Hub::new(Arc::clone(shared), code.clone(), snapshot_tx);
        tokio::spawn(hub.run(receiver, id));
        HubHandle {
            commands,
            snapshots,
        }
    }

    fn remove(&self, code: &RoomCode, id: u64) {
        let mut hubs = self.hubs.lock().unwrap_or_else(|p| p.into_inner());
        if hubs.get(code).is_some_and(|entry| entry.id == id) {
            hubs.remove(code);
        }
    }

    /// Rooms with a hub on this instance.
    pub fn len(&self) -> usize {
        self.hubs.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

struct CpuDecision {
    /// The moves the CPU thought about (an undo may bring the same ply back with other moves).
    moves: Vec<String>,
    ply: usize,
    seat: u8,
    choice: Result<Option<String>, RoomError>,
}

struct Hub {
    shared: Arc<Shared>,
    code: RoomCode,
    /// The record as last loaded or saved, and its version.
    record: Option<Versioned<RoomRecord>>,
    /// The record's game, in step with `record`.
    game: Option<Game>,
    /// Seats with a live connection (on any instance), as last read.
    present: Vec<u8>,
    /// Whether this instance runs the room's timers.
    lease: bool,
    gone: bool,
    snapshots: watch::Sender<Arc<Snapshot>>,
    /// The ply the CPU is thinking about, if it is.
    cpu_thinking: Option<usize>,
    cpu_tx: mpsc::UnboundedSender<CpuDecision>,
    cpu_rx: mpsc::UnboundedReceiver<CpuDecision>,
    /// Rated games' rating changes, once the player store wrote them: `(game number, seats)`.
    ratings_tx: mpsc::UnboundedSender<(u32, [SeatRating; 2])>,
    ratings_rx: mpsc::UnboundedReceiver<(u32, [SeatRating; 2])>,
    /// When the hub last woke for a deadline (a deadline that could not be acted on is retried
    /// a little later, not in a busy loop).
    last_wake: u64,
    /// When this hub last set the room's time to live (a save or a keep-alive).
    kept_alive_at: u64,
    /// The last snapshot published with a room in it.
    delta_base: Option<DeltaBase>,
    /// Who took each token's seat last (any instance): token hash → (when, connection).
    holders: HashMap<String, (u64, String)>,
    /// The last reload failed: the record held may be behind the store's, and an event that
    /// said so is spent. Events are hints, the store is the truth: reload until it answers.
    stale: bool,
    /// A save of this hub failed without an answer: it may be in the store, unannounced.
    unannounced: bool,
}

impl Hub {
    fn new(shared: Arc<Shared>, code: RoomCode, snapshots: watch::Sender<Arc<Snapshot>>) -> Hub {
        let (cpu_tx, cpu_rx) = mpsc::unbounded_channel();
        let (ratings_tx, ratings_rx) = mpsc::unbounded_channel();
        Hub {
            shared,
            code,
            record: None,
            game: None,
            present: Vec::new(),
            lease: false,
            gone: false,
            snapshots,
            cpu_thinking: None,
            cpu_tx,
            cpu_rx,
            ratings_tx,
            ratings_rx,
            last_wake: 0,
            kept_alive_at: 0,
            delta_base: None,
            holders: HashMap::new(),
            stale: false,
            unannounced: false,
        }
    }

    fn now(&self) -> u64 {
        self.shared.config.time.now_ms()
    }

    fn takeover_ms(&self) -> u64 {
        self.shared.config.takeover.as_millis() as u64
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Box<Command>>, id: u64) {
        let events = self.shared.store.subscribe(&self.code).await;
        let mut events = match events {
            Ok(events) => Some(events),
            Err(error) => {
                tracing::warn!(room = %self.code, %error, "cannot subscribe to room events");
                None
            }
        };
        self.reload().await;
        self.housekeeping().await;
        let mut tick = tokio::time::interval(HOUSEKEEPING);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let time = self.shared.config.time.clone();
        loop {
            self.start_cpu_if_due();
            let wake = self.next_deadline().map(|d| d.max(self.last_wake + 50));
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.handle(*command).await,
                    None => break,
                },
                event = next_event(&mut events) => match event {
                    Some(RoomEvent::Changed { version }) => {
                        if self.record.as_ref().is_none_or(|r| r.version != version) {
                            self.reload().await;
                        }
                    }
                    Some(RoomEvent::Presence) => self.housekeeping().await,
                    Some(RoomEvent::Seated { token_hash, conn, at }) => {
                        self.seat_taken(token_hash, conn, at);
                    }
                    Some(RoomEvent::Deleted) | None => {
                        events = None;
                        self.reload().await;
                    }
                },
                decision = self.cpu_rx.recv() => {
                    if let Some(decision) = decision {
                        self.apply_cpu(decision).await;
                    }
                }
                recorded = self.ratings_rx.recv() => {
                    if let Some((game_number, seats)) = recorded {
                        self.apply_ratings(game_number, seats).await;
                    }
                }
                _ = tick.tick() => self.housekeeping().await,
                _ = tokio::time::sleep(RELOAD_RETRY), if self.stale => self.reload().await,
                _ = sleep_until(&time, wake) => {
                    self.last_wake = self.now();
                    self.on_deadline().await;
                }
            }
        }
        // The last connection of this instance left: record who is still here, give the lease up.
        if !self.gone {
            self.reconcile_presence().await;
        }
        if self.lease {
            let _ = self
                .shared
                .store
                .release_lease(&self.code, &self.shared.config.instance)
                .await;
        }
        self.shared.hubs.remove(&self.code, id);
    }

    /// Loads the record again and publishes a fresh snapshot. If the store does not answer, the
    /// hub stays `stale` and tries again shortly (the event that asked for it will not come back).
    async fn reload(&mut self) {
        match self.shared.store.load(&self.code).await {
            Ok(Some(loaded)) => {
                self.stale = false;
                self.announce_if_unannounced(loaded.version).await;
                self.adopt(loaded);
            }
            Ok(None) => {
                self.stale = false;
                self.gone = true;
                self.record = None;
                self.game = None;
                self.publish_snapshot();
            }
            Err(error) => {
                if !self.stale {
                    tracing::warn!(room = %self.code, %error, "room load failed; retrying");
                }
                self.stale = true;
            }
        }
    }

    /// After a save whose answer was lost: tells every instance the version the store holds now
    /// (the other hubs reload if it is news to them), so a write that landed unannounced is not
    /// missed by anyone.
    async fn announce_if_unannounced(&mut self, version: u64) {
        if !self.unannounced {
            return;
        }
        let event = RoomEvent::Changed { version };
        match self.shared.store.publish(&self.code, &event).await {
            Ok(()) => self.unannounced = false,
            Err(error) => tracing::warn!(room = %self.code, %error, "publish failed"),
        }
    }

    fn adopt(&mut self, loaded: Versioned<RoomRecord>) {
        if let Err(error) = Game::sync(&mut self.game, &loaded.value) {
            tracing::error!(room = %self.code, %error, "stored game does not replay");
        }
        self.record = Some(loaded);
        self.publish_snapshot();
    }

    /// Renews the lease, re-reads presence, and (holding the lease) writes it into the record.
    async fn housekeeping(&mut self) {
        if self.gone {
            return;
        }
        let expired = self
            .record
            .as_ref()
            .is_some_and(|r| self.now() >= r.value.expires_at());
        if expired {
            self.reload().await;
            if self.gone {
                return;
            }
        }
        let store = &self.shared.store;
        match store
            .acquire_lease(&self.code, &self.shared.config.instance, LEASE_TTL)
            .await
        {
            Ok(held) => {
                if held && !self.lease {
                    tracing::debug!(room = %self.code, "lease taken");
                }
                self.lease = held;
            }
            Err(error) => {
                tracing::warn!(room = %self.code, %error, "lease renewal failed");
                self.lease = false;
                // The store is down: the rest would wait for it in vain, and actions queue behind.
                return;
            }
        }
        if self.lease {
            self.reconcile_presence().await;
            if !self.present.is_empty() {
                self.keep_alive().await;
            }
        } else if let Ok(present) = store.present_seats(&self.code).await {
            if present != self.present {
                self.present = present;
                self.publish_snapshot();
            }
        }
    }

    /// Renews the room's time to live while someone is connected.
    async fn keep_alive(&mut self) {
        let now = self.now();
        if now.saturating_sub(self.kept_alive_at) < KEEP_ALIVE_MS {
            return;
        }
        let Some(record) = &self.record else {
            return;
        };
        let ttl = record.value.ttl(now);
        match self.shared.store.touch(&self.code, ttl).await {
            Ok(true) => self.kept_alive_at = now,
            Ok(false) => self.reload().await,
            Err(error) => tracing::warn!(room = %self.code, %error, "keep-alive failed"),
        }
    }

    /// Marks seats that lost their connection (`away_since`, the takeover's start) and seats
    /// that are back, and whether the room is empty (its 30 min expiry).
    async fn reconcile_presence(&mut self) {
        let Ok(present) = self.shared.store.present_seats(&self.code).await else {
            return;
        };
        let changed_presence = present != self.present;
        self.present = present.clone();
        let result = self
            .update(move |record, _, now| {
                for (index, seat) in record.seats.iter_mut().enumerate() {
                    let here = present.contains(&(index as u8));
                    if seat.kind != SeatKind::Human || seat.left {
                        continue;
                    }
                    if here {
                        seat.away_since = None;
                    } else if seat.away_since.is_none() {
                        seat.away_since = Some(now);
                    }
                }
                if present.is_empty() {
                    record.emptied_at = record.emptied_at.or(Some(now));
                } else {
                    record.emptied_at = None;
                }
                Ok(())
            })
            .await;
        if let Err(error) = result {
            tracing::debug!(room = %self.code, %error, "presence not recorded");
        }
        if changed_presence {
            self.publish_snapshot();
        }
    }

    /// Load → change → compare-and-set save, retried on conflicts. A due clock flag is applied
    /// first (and saved even if `change` then refuses); a refused change saves nothing else.
    async fn update<T>(
        &mut self,
        mut change: impl FnMut(&mut RoomRecord, &mut Option<Game>, u64) -> Result<T, RoomError>,
    ) -> Result<T, RoomError> {
        for _ in 0..SAVE_ATTEMPTS {
            let Some(loaded) = self.shared.store.load(&self.code).await? else {
                self.gone = true;
                self.publish_snapshot();
                return Err(RoomError::NoSuchRoom);
            };
            // Read just now: whatever this hub held is brought up to date below.
            self.stale = false;
            self.announce_if_unannounced(loaded.version).await;
            let now = self.now();
            Game::sync(&mut self.game, &loaded.value)?;
            let mut record = loaded.value.clone();
            play::settle(&mut record, &mut self.game, now)?;
            let settled = record.clone();
            let outcome = change(&mut record, &mut self.game, now);
            if outcome.is_err() {
                record = settled;
            }
            if record == loaded.value {
                if self
                    .record
                    .as_ref()
                    .is_none_or(|r| r.version != loaded.version)
                {
                    self.adopt(loaded);
                }
                return outcome;
            }
            let ttl = record.ttl(now);
            let saved = self
                .shared
                .store
                .save(&self.code, loaded.version, &record, ttl)
                .await;
            let saved = match saved {
                Ok(saved) => saved,
                Err(error) => {
                    // The write may have landed all the same (e.g. Redis stored it but no replica
                    // confirmed it in time, or the answer was lost): nobody was told. Reload until
                    // the store answers, and announce whatever it then holds.
                    self.stale = true;
                    self.unannounced = true;
                    return Err(error.into());
                }
            };
            match saved {
                Save::Saved(version) => {
                    self.kept_alive_at = now;
                    // Only the save that ended a rated game reports it: once, on one instance.
                    if let Some(rated) = crate::pools::rated_end(&loaded.value, &record, now) {
                        // The changes come back to this hub, which puts them in the result.
                        let tx = self.ratings_tx.clone();
                        let game_number = rated.game_number;
                        self.shared.config.ratings.record(
                            rated,
                            Box::new(move |seats| {
                                let _ = tx.send((game_number, seats));
                            }),
                        );
                    }
                    let event = RoomEvent::Changed { version };
                    if let Err(error) = self.shared.store.publish(&self.code, &event).await {
                        // Saved but not told: announce it once the store answers again.
                        tracing::warn!(room = %self.code, %error, "publish failed; retrying");
                        self.stale = true;
                        self.unannounced = true;
                    }
                    self.adopt(Versioned {
                        version,
                        value: record,
                    });
                    return outcome;
                }
                Save::Conflict => {
                    self.game = None;
                }
            }
        }
        Err(RoomError::Busy)
    }

    async fn handle(&mut self, command: Command) {
        let Command {
            action,
            token_hash,
            conn,
            reply,
        } = command;
        let takeover = self.takeover_ms();
        if !matches!(action, Action::Join { .. } | Action::Resume) {
            let holder = token_hash.as_ref().and_then(|hash| self.holders.get(hash));
            if holder.is_some_and(|(_, holder)| *holder != conn) {
                let _ = reply.send(Err(RoomError::Replaced));
                return;
            }
        }
        let seated = |record: &RoomRecord| -> Result<u8, RoomError> {
            token_hash
                .as_deref()
                .and_then(|hash| lobby::seat_of(record, hash))
                .ok_or(RoomError::NotSeated)
        };
        // `Some(seat)`: the sender sits there now (join, resume).
        let answer: Result<Option<u8>, RoomError> = match action {
            Action::Join { nickname } => match token_hash.clone() {
                Some(hash) => self
                    .update(|record, _, now| {
                        lobby::join(record, nickname.clone(), hash.clone(), now)
                    })
                    .await
                    .map(Some),
                None => Err(RoomError::BadToken),
            },
            Action::Resume => {
                let hash = token_hash.clone().unwrap_or_default();
                self.update(|record, _, _| lobby::resume(record, &hash))
                    .await
                    .map(Some)
            }
            Action::StartCpu => self
                .update(|record, _, now| {
                    seated(record)?;
                    lobby::start_with_cpu(record, now)
                })
                .await
                .map(|_| None),
            Action::Move { text, ply } => self
                .update(|record, game, now| {
                    let seat = seated(record)?;
                    if play::cpu_controls(record, seat, now, takeover) {
                        return Err(RoomError::NotYourTurn);
                    }
                    play::play_move(record, game, seat, &text, ply, now)
                })
                .await
                .map(|_| None),
            Action::Resign => self
                .update(|record, game, _| play::resign(record, game, seated(record)?))
                .await
                .map(|_| None),
            Action::Leave => self
                .update(|record, game, _| lobby::leave(record, game, seated(record)?))
                .await
                .map(|_| None),
            Action::Rematch => self
                .update(|record, game, now| {
                    seated(record)?;
                    lobby::rematch(record, game, now)
                })
                .await
                .map(|_| None),
            Action::OfferDraw => self
                .update(|record, game, now| {
                    let seat = seated(record)?;
                    offers::offer(record, game, seat, now, takeover)
                })
                .await
                .map(|_| None),
            Action::AnswerDraw { accept } => self
                .update(|record, game, _| offers::answer(record, game, seated(record)?, accept))
                .await
                .map(|_| None),
            Action::Abort => self
                .update(|record, game, _| offers::abort(record, game, seated(record)?))
                .await
                .map(|_| None),
            Action::Undo => self
                .update(|record, game, _| {
                    seated(record)?;
                    cpu_rooms::undo(record, game)
                })
                .await
                .map(|_| None),
            Action::Redo => self
                .update(|record, game, now| {
                    seated(record)?;
                    cpu_rooms::redo(record, game, now)
                })
                .await
                .map(|_| None),
        };
        if let Ok(Some(seat)) = &answer {
            if let Some(hash) = token_hash {
                // Later than any taker of this seat seen here, even within one millisecond.
                let at = self
                    .holders
                    .get(&hash)
                    .map_or(0, |(at, _)| at + 1)
                    .max(self.now());
                self.seat_taken(hash.clone(), conn.clone(), at);
                let event = RoomEvent::Seated {
                    token_hash: hash,
                    conn: conn.clone(),
                    at,
                };
                if let Err(error) = self.shared.store.publish(&self.code, &event).await {
                    tracing::warn!(room = %self.code, %error, "publish failed");
                }
            }
            self.presence_changed(*seat, &conn).await;
        }
        let _ = reply.send(answer);
    }

    /// `conn` took the seat of `token_hash` at `at`: the latest taker plays the seat, and an
    /// older connection of the token, told by the snapshot, is closed (`replaced`).
    fn seat_taken(&mut self, token_hash: String, conn: String, at: u64) {
        let newer = self
            .holders
            .get(&token_hash)
            .is_none_or(|(held_at, held)| (at, &conn) > (*held_at, held));
        if newer {
            self.holders.insert(token_hash, (at, conn));
            self.publish_snapshot();
        }
    }

    /// A seat's connection arrived on this instance: presence set at once, and everyone told.
    async fn presence_changed(&mut self, seat: u8, conn: &str) {
        let store = &self.shared.store;
        if store
            .set_presence(&self.code, seat, conn, PRESENCE_TTL)
            .await
            .is_ok()
        {
            let _ = store.publish(&self.code, &RoomEvent::Presence).await;
        }
        self.housekeeping().await;
    }

    fn next_deadline(&self) -> Option<u64> {
        let record = &self.record.as_ref()?.value;
        let game = self.game.as_ref()?;
        let now = self.now();
        let takeover = self.takeover_ms();
        let mut deadlines: Vec<u64> = record
            .seats
            .iter()
            .filter_map(|s| s.away_since.map(|at| at.saturating_add(takeover)))
            .filter(|&at| at > now)
            .collect();
        if self.lease && record.started && record.result.is_none() && !game.is_over() {
            deadlines.extend(crate::clocks::flag_deadline(record, game.to_move()));
            deadlines.extend(offers::abort_deadline(record));
        }
        deadlines.into_iter().min()
    }

    async fn on_deadline(&mut self) {
        if self.lease {
            // `update` applies a due flag; nothing else changes.
            let _ = self.update(|_, _, _| Ok(())).await;
        }
        self.publish_snapshot();
    }

    /// Starts the CPU's search when, holding the lease, a CPU-played seat is to move.
    fn start_cpu_if_due(&mut self) {
        if !self.lease || self.cpu_thinking.is_some() || self.gone {
            return;
        }
        let (Some(record), Some(game)) = (&self.record, &self.game) else {
            return;
        };
        let record = &record.value;
        if !record.started || record.result.is_some() || game.is_over() {
            return;
        }
        let seat = game.to_move();
        if !play::cpu_controls(record, seat, self.now(), self.takeover_ms()) {
            return;
        }
        let ply = game.ply();
        self.cpu_thinking = Some(ply);
        let record = record.clone();
        let tx = self.cpu_tx.clone();
        let movetime = self.shared.config.cpu_movetime;
        tokio::task::spawn_blocking(move || {
            let choice = play::cpu_choice(&record, seat, movetime);
            let _ = tx.send(CpuDecision {
                moves: record.moves,
                ply,
                seat,
                choice,
            });
        });
    }

    async fn apply_cpu(&mut self, decision: CpuDecision) {
        self.cpu_thinking = None;
        let takeover = self.takeover_ms();
        let CpuDecision {
            moves,
            ply,
            seat,
            choice,
        } = decision;
        let text = match choice {
            Ok(Some(text)) => text,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(room = %self.code, %error, "CPU found no move");
                return;
            }
        };
        let result = self
            .update(|record, game, now| {
                let current = game.as_ref().ok_or(RoomError::Busy)?;
                // The game moved on, or the player came back, while the CPU thought.
                if current.ply() != ply
                    || record.moves != moves
                    || current.to_move() != seat
                    || !play::cpu_controls(record, seat, now, takeover)
                {
                    return Err(damas::session::SessionError::Cancelled.into());
                }
                play::play_move(record, game, seat, &text, Some(ply), now)
            })
            .await;
        if let Err(error) = result {
            tracing::debug!(room = %self.code, %error, "CPU move not applied");
        }
    }

    /// A rated game's written rating changes, into its result (the game must still be the
    /// room's current one: a rematch started meanwhile keeps its own result).
    async fn apply_ratings(&mut self, game_number: u32, seats: [SeatRating; 2]) {
        let result = self
            .update(|record, _, _| match record.result.as_mut() {
                Some(result) if record.rematch == game_number && result.ratings.is_none() => {
                    result.ratings = Some(seats.to_vec());
                    Ok(())
                }
                _ => Err(damas::session::SessionError::Cancelled.into()),
            })
            .await;
        if let Err(error) = result {
            tracing::debug!(room = %self.code, %error, "rating changes not shown in the room");
        }
    }

    fn publish_snapshot(&mut self) {
        let snapshot = match (&self.record, &self.game) {
            (Some(record), Some(game)) if !self.gone => {
                let snapshot = self.snapshot(record, game);
                self.delta_base = snapshot.mark.clone().map(|mark| DeltaBase {
                    history_from: snapshot
                        .delta
                        .as_ref()
                        .map_or(mark.history_len, |d| d.history_from),
                    mark,
                });
                snapshot
            }
            _ => Snapshot {
                gone: self.gone,
                ..Snapshot::default()
            },
        };
        self.snapshots.send_replace(Arc::new(snapshot));
    }

    fn snapshot(&self, record: &Versioned<RoomRecord>, game: &Game) -> Snapshot {
        let now = self.now();
        let takeover = self.takeover_ms();
        let value = &record.value;
        let game_view = game.view();
        let seats = value
            .seats
            .iter()
            .enumerate()
            .map(|(index, seat)| {
                let number = index as u8;
                SeatState {
                    seat: number,
                    color: game_view
                        .seats
                        .get(index)
                        .map(|s| s.name.clone())
                        .unwrap_or_default(),
                    kind: seat.kind,
                    nickname: seat.nickname.as_deref(),
                    connected: self.present.contains(&number),
                    left: seat.left,
                    away_since: seat.away_since,
                    takeover_at: seat
                        .away_since
                        .filter(|_| value.started && !seat.left && seat.kind == SeatKind::Human)
                        .map(|since| since.saturating_add(takeover)),
                    cpu_playing: play::cpu_controls(value, number, now, takeover),
                }
            })
            .collect();
        let running =
            (value.started && value.result.is_none() && !game.is_over()).then(|| game.to_move());
        let Ok(mut view) = serde_json::to_value(&game_view) else {
            tracing::error!(room = %self.code, "the game view could not be serialized");
            return Snapshot::default();
        };
        let cpu_to_move =
            running.is_some_and(|seat| play::cpu_controls(value, seat, now, takeover));
        room_view_fields(&mut view, value, cpu_to_move, |seat| {
            play::cpu_controls(value, seat, now, takeover)
        });
        let state = RoomState {
            v: VERSION,
            code: value.code.as_str(),
            version: record.version,
            game: &value.game,
            started: value.started,
            rematch: value.rematch,
            seats,
            clock: value.clock.map(|settings| ClockState {
                settings,
                seats: &value.clocks,
                running: running.filter(|_| value.turn_started_at.is_some()),
                turn_started_at: value.turn_started_at,
                flag_at: running.and_then(|seat| crate::clocks::flag_deadline(value, seat)),
            }),
            result: value.result.as_ref(),
            kind: &value.kind,
            draw_offer: value.offers.pending.filter(|_| value.result.is_none()),
            next_draw_offer_ply: (0..value.seats.len() as u8)
                .map(|seat| value.offers.next_offer_ply(seat))
                .collect(),
            can_undo: matches!(value.kind, RoomKind::Cpu { .. })
                && value.resigned.is_none()
                && game.movers().iter().any(|&s| {
                    value
                        .seats
                        .get(usize::from(s))
                        .is_some_and(|s| s.kind == SeatKind::Human)
                }),
            can_redo: !value.redo.is_empty(),
            must_capture: game.must_capture(),
            view,
            history_from: None,
            now,
            expires_at: value.expires_at(),
        };
        let room = to_raw(&state);
        let mark = HistoryMark {
            rematch: value.rematch,
            game_id: game.id().to_string(),
            history_len: game.history_len(),
        };
        // Within one game of the room the history only grows. The delta starts where the last
        // new entries began, not at the last snapshot: a state that only changes presence or
        // clocks must not cost a whole room to a client that missed the move just before it
        // (the watch channel keeps only the latest snapshot).
        let history_from = self
            .delta_base
            .as_ref()
            .filter(|base| {
                base.mark.rematch == mark.rematch
                    && base.mark.game_id == mark.game_id
                    && base.mark.history_len <= mark.history_len
            })
            .map(|base| {
                if base.mark.history_len < mark.history_len {
                    base.mark.history_len
                } else {
                    base.history_from
                }
            });
        let delta = history_from.and_then(|history_from| {
            let mut state = state;
            if let Some(view) = state.view.as_object_mut() {
                view.remove("layout");
                if let Some(Value::Array(history)) = view.get_mut("history") {
                    history.drain(..history_from.min(history.len()));
                }
            }
            state.history_from = Some(history_from);
            to_raw(&state).map(|room| Delta { history_from, room })
        });
        Snapshot {
            version: record.version,
            room,
            delta,
            mark: Some(mark),
            seat_hashes: value.seats.iter().map(|s| s.token_hash.clone()).collect(),
            holders: self
                .holders
                .iter()
                .map(|(hash, (_, conn))| (hash.clone(), conn.clone()))
                .collect(),
            gone: false,
        }
    }
}

/// The session plays every seat of a room as the app's "local" game (anyone may move, undo is
/// there); a room's `view` says what is true in a room instead: `mode` `"room"`, no undo or redo,
/// `human_seats` the seats people play now, `cpu_to_move` when the server's CPU plays the turn.
fn room_view_fields(
    view: &mut Value,
    record: &RoomRecord,
    cpu_to_move: bool,
    cpu_controls: impl Fn(u8) -> bool,
) {
    let Some(view) = view.as_object_mut() else {
        return;
    };
    let human_seats: Vec<Value> = record
        .seats
        .iter()
        .enumerate()
        .filter(|(index, seat)| {
            seat.kind == SeatKind::Human && !seat.left && !cpu_controls(*index as u8)
        })
        .map(|(index, _)| Value::from(index))
        .collect();
    view.insert("mode".into(), Value::from("room"));
    view.insert("can_undo".into(), Value::from(false));
    view.insert("can_redo".into(), Value::from(false));
    view.insert("cpu_to_move".into(), Value::from(cpu_to_move));
    view.insert("human_seats".into(), Value::Array(human_seats));
}

fn to_raw(state: &RoomState) -> Option<Box<RawValue>> {
    serde_json::to_string(state)
        .ok()
        .and_then(|text| RawValue::from_string(text).ok())
}

async fn next_event(events: &mut Option<crate::store::EventStream>) -> Option<RoomEvent> {
    match events {
        Some(stream) => stream.next().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(time: &crate::time::TimeSource, deadline: Option<u64>) {
    match deadline {
        Some(deadline) => time.sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// The `room` of a `state` message (docs/protocol.md).
#[derive(Serialize)]
struct RoomState<'a> {
    v: u64,
    code: &'a str,
    /// The record's version: grows with every change.
    version: u64,
    game: &'a GameChoice,
    started: bool,
    rematch: u32,
    seats: Vec<SeatState<'a>>,
    clock: Option<ClockState<'a>>,
    result: Option<&'a RoomResult>,
    /// How the room came to be (`friends`, `cpu` with its level, `pool`).
    kind: &'a RoomKind,
    /// The draw offer waiting for an answer (2-player games), seen by everyone.
    draw_offer: Option<offers::PendingOffer>,
    /// Per seat: the ply from which it may offer a draw again.
    next_draw_offer_ply: Vec<usize>,
    /// Rooms against the CPU: whether `undo` / `redo` would do something.
    can_undo: bool,
    can_redo: bool,
    /// Pieces that must capture (each has a ring in the UI).
    must_capture: Vec<String>,
    /// The game as the session shows it (`GameView`): board, legal moves, history, outcome.
    view: Value,
    /// A delta (`Delta`): `view.history` holds the entries from this index on, `view.layout` is
    /// left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    history_from: Option<usize>,
    /// The server's unix ms when this state was made (clients correct their clocks by it).
    now: u64,
    expires_at: u64,
}

#[derive(Serialize)]
struct SeatState<'a> {
    seat: u8,
    /// The seat's colour in the game's words (Red, Black …).
    color: String,
    kind: SeatKind,
    nickname: Option<&'a str>,
    connected: bool,
    left: bool,
    away_since: Option<u64>,
    /// When the CPU takes this dropped seat (`away_since` + the takeover time), unix ms.
    takeover_at: Option<u64>,
    /// The CPU plays this seat now (from the start, after a leave, or 45 s after a drop).
    cpu_playing: bool,
}

#[derive(Serialize)]
struct ClockState<'a> {
    settings: ClockSettings,
    seats: &'a [SeatClock],
    /// The seat whose clock runs.
    running: Option<u8>,
    turn_started_at: Option<u64>,
    /// When the running clock runs out, unix ms.
    flag_at: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_string()).expect("JSON")
    }

    fn mark(rematch: u32, game_id: &str, history_len: usize) -> HistoryMark {
        HistoryMark {
            rematch,
            game_id: game_id.to_string(),
            history_len,
        }
    }

    /// A snapshot at 6 entries whose delta starts at entry 5 (the last move).
    fn after_a_move() -> Snapshot {
        Snapshot {
            version: 9,
            room: Some(raw(r#""whole""#)),
            delta: Some(Delta {
                history_from: 5,
                room: raw(r#""delta""#),
            }),
            mark: Some(mark(0, "g", 6)),
            ..Snapshot::default()
        }
    }

    /// What the connection sends (`Connection::push_state`): the delta, else the whole room.
    fn sent(snapshot: &Snapshot, held: Option<HistoryMark>) -> &str {
        let whole = snapshot.room.as_deref().expect("a room");
        snapshot.delta_for(held.as_ref()).unwrap_or(whole).get()
    }

    #[test]
    fn a_client_holding_enough_of_the_same_game_gets_the_delta() {
        let snapshot = after_a_move();
        // Held the state before the move, or this very state (a presence-only change).
        assert_eq!(sent(&snapshot, Some(mark(0, "g", 5))), r#""delta""#);
        assert_eq!(sent(&snapshot, Some(mark(0, "g", 6))), r#""delta""#);
    }

    #[test]
    fn a_client_that_cannot_complete_the_delta_gets_the_whole_room() {
        let snapshot = after_a_move();
        assert_eq!(sent(&snapshot, None), r#""whole""#);
        // Missed two moves.
        assert_eq!(sent(&snapshot, Some(mark(0, "g", 4))), r#""whole""#);
        // Another rematch, another game.
        assert_eq!(sent(&snapshot, Some(mark(1, "g", 6))), r#""whole""#);
        assert_eq!(sent(&snapshot, Some(mark(0, "h", 6))), r#""whole""#);
    }
}
