//! The hub's task: it serves the room's actions one at a time, each a load → change →
//! compare-and-set save of the record, follows the store's events about the room (another
//! instance's saves, presence, seats taken), and publishes a snapshot after every change.

use super::command::{Action, Command, HubContext};
use super::live::Registry;
use super::liveness::LiveSet;
use super::schedule::{sleep_until, CpuDecision, SAFETY_CHECK};
use super::snapshot::{DeltaBase, Snapshot};
use super::view::RoomFacts;
use crate::error::RoomError;
use crate::lobby;
use crate::play::{self, Game};
use crate::store::{RoomCode, RoomEvent, RoomRecord, Save, SeatRating, Versioned};
use crate::{cpu_rooms, offers};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

/// Compare-and-set attempts before an action gives up with `busy`.
const SAVE_ATTEMPTS: usize = 8;
/// Pause before a reload that failed (the store was unreachable) is tried again.
const RELOAD_RETRY: std::time::Duration = std::time::Duration::from_millis(250);

pub(super) struct Hub {
    pub(super) context: Arc<HubContext>,
    registry: Arc<Registry>,
    pub(super) code: RoomCode,
    /// The record as last loaded or saved, and its version.
    pub(super) record: Option<Versioned<RoomRecord>>,
    /// The record's game, in step with `record`.
    pub(super) game: Option<Game>,
    /// Seats with a live connection (on any instance), as last read.
    pub(super) present: Vec<u8>,
    /// Whether this instance runs the room's timers.
    pub(super) lease: bool,
    /// The live instances, from the instance's heartbeat (wakes the hub when one left).
    pub(super) live: watch::Receiver<LiveSet>,
    pub(super) gone: bool,
    snapshots: watch::Sender<Arc<Snapshot>>,
    /// The ply the CPU is thinking about, if it is.
    pub(super) cpu_thinking: Option<usize>,
    pub(super) cpu_tx: mpsc::UnboundedSender<CpuDecision>,
    cpu_rx: mpsc::UnboundedReceiver<CpuDecision>,
    /// Rated games' rating changes, once the player store wrote them: `(game number, seats)`.
    ratings_tx: mpsc::UnboundedSender<(u32, [SeatRating; 2])>,
    ratings_rx: mpsc::UnboundedReceiver<(u32, [SeatRating; 2])>,
    /// When the hub last woke for a deadline (a deadline that could not be acted on is retried
    /// a little later, not in a busy loop).
    last_wake: u64,
    /// When this hub last set the room's time to live (a save or a keep-alive).
    pub(super) kept_alive_at: u64,
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
    pub(super) fn new(
        context: Arc<HubContext>,
        registry: Arc<Registry>,
        code: RoomCode,
        snapshots: watch::Sender<Arc<Snapshot>>,
        live: watch::Receiver<LiveSet>,
    ) -> Hub {
        let (cpu_tx, cpu_rx) = mpsc::unbounded_channel();
        let (ratings_tx, ratings_rx) = mpsc::unbounded_channel();
        Hub {
            context,
            registry,
            code,
            record: None,
            game: None,
            present: Vec::new(),
            lease: false,
            live,
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

    pub(super) fn now(&self) -> u64 {
        self.context.now()
    }

    pub(super) fn takeover_ms(&self) -> u64 {
        self.context.takeover_ms()
    }

    pub(super) async fn run(mut self, mut commands: mpsc::Receiver<Box<Command>>, id: u64) {
        let events = self.context.store.subscribe(&self.code).await;
        let mut events = match events {
            Ok(events) => Some(events),
            Err(error) => {
                tracing::warn!(room = %self.code, %error, "cannot subscribe to room events");
                None
            }
        };
        self.reload().await;
        self.live.mark_unchanged();
        self.housekeeping().await;
        // The safety net only: presence events and live-set changes wake the hub otherwise.
        let start = tokio::time::Instant::now() + SAFETY_CHECK;
        let mut tick = tokio::time::interval_at(start, SAFETY_CHECK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut live_open = true;
        let time = self.context.config.time.clone();
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
                changed = self.live.changed(), if live_open => match changed {
                    Ok(()) => self.housekeeping().await,
                    Err(_) => live_open = false,
                },
                _ = tick.tick() => self.housekeeping().await,
                _ = tokio::time::sleep(RELOAD_RETRY), if self.stale => self.reload().await,
                _ = sleep_until(&time, wake) => {
                    self.last_wake = self.now();
                    self.on_deadline().await;
                }
            }
        }
        // The last connection of this instance left: record who is still here, give the lease up.
        let live = self.live.borrow().instances.clone();
        if let (false, Some(live)) = (self.gone, live) {
            self.reconcile_presence(&live).await;
        }
        if self.lease {
            let store = &self.context.store;
            let released = store
                .release_lease(&self.code, &self.context.config.instance)
                .await;
            // The other instances' hubs of the room (if any) hear it and take the lease.
            if released.is_ok() {
                let _ = store.publish(&self.code, &RoomEvent::Presence).await;
            }
        }
        self.registry.remove(&self.code, id);
    }

    /// Loads the record again and publishes a fresh snapshot. If the store does not answer, the
    /// hub stays `stale` and tries again shortly (the event that asked for it will not come back).
    pub(super) async fn reload(&mut self) {
        match self.context.store.load(&self.code).await {
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
        match self.context.store.publish(&self.code, &event).await {
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

    /// Load → change → compare-and-set save, retried on conflicts. A due clock flag is applied
    /// first (and saved even if `change` then refuses); a refused change saves nothing else.
    pub(super) async fn update<T>(
        &mut self,
        mut change: impl FnMut(&mut RoomRecord, &mut Option<Game>, u64) -> Result<T, RoomError>,
    ) -> Result<T, RoomError> {
        for _ in 0..SAVE_ATTEMPTS {
            let Some(loaded) = self.context.store.load(&self.code).await? else {
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
                .context
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
                    if let Some(rated) =
                        crate::rated_results::rated_end(&loaded.value, &record, now)
                    {
                        // The changes come back to this hub, which puts them in the result.
                        let tx = self.ratings_tx.clone();
                        let game_number = rated.game_number;
                        self.context.config.ratings.record(
                            rated,
                            Box::new(move |seats| {
                                let _ = tx.send((game_number, seats));
                            }),
                        );
                    }
                    let event = RoomEvent::Changed { version };
                    if let Err(error) = self.context.store.publish(&self.code, &event).await {
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
                if let Err(error) = self.context.store.publish(&self.code, &event).await {
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
        let store = &self.context.store;
        let instance = &self.context.config.instance;
        if store
            .set_presence(&self.code, seat, conn, instance)
            .await
            .is_ok()
        {
            let _ = store.publish(&self.code, &RoomEvent::Presence).await;
        }
        self.housekeeping().await;
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

    pub(super) fn publish_snapshot(&mut self) {
        let snapshot = match (&self.record, &self.game) {
            (Some(record), Some(game)) if !self.gone => {
                let snapshot = self.snapshot(record, game);
                self.delta_base = DeltaBase::of(&snapshot);
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
        let facts = RoomFacts {
            record,
            game,
            present: &self.present,
            now: self.now(),
            takeover_ms: self.takeover_ms(),
        };
        let Some(rendered) = facts.render(self.delta_base.as_ref()) else {
            return Snapshot::default();
        };
        let value = &record.value;
        Snapshot {
            version: record.version,
            room: Some(rendered.room),
            delta: rendered.delta,
            mark: Some(rendered.mark),
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

async fn next_event(events: &mut Option<crate::store::EventStream>) -> Option<RoomEvent> {
    match events {
        Some(stream) => stream.next().await,
        None => std::future::pending().await,
    }
}
