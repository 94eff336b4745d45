//! The hubs of this instance, by room: a connection opens its room's hub (started on first use)
//! and holds a [`HubHandle`]; the hub stops when the last handle is dropped. Every hub runs on a
//! tracked task, so that a shutdown can wait for the hubs to record presence and give their
//! leases up.

use super::actor::Hub;
use super::command::{Action, Command, HubContext};
use super::live::{Entry, Registry};
use super::liveness::{self, LiveSet};
use super::snapshot::Snapshot;
use crate::error::RoomError;
use crate::store::RoomCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::task::TaskTracker;

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
pub struct Hubs {
    context: Arc<HubContext>,
    registry: Arc<Registry>,
    tasks: TaskTracker,
    /// The live set, from the instance's heartbeat.
    live: watch::Receiver<LiveSet>,
    heartbeat: tokio::task::JoinHandle<()>,
}

impl Drop for Hubs {
    fn drop(&mut self) {
        self.heartbeat.abort();
    }
}

impl Hubs {
    /// The hubs of an instance, and its heartbeat (started here: call within a tokio runtime).
    pub fn new(context: HubContext) -> Hubs {
        let (live, heartbeat) =
            liveness::start(Arc::clone(&context.store), context.config.instance.clone());
        Hubs {
            context: Arc::new(context),
            registry: Arc::default(),
            tasks: TaskTracker::new(),
            live,
            heartbeat,
        }
    }

    /// A handle on the hub of `code`, started if this instance has none.
    pub fn open(&self, code: &RoomCode) -> HubHandle {
        let mut hubs = self.registry.lock();
        if let Some(entry) = hubs.get(code) {
            if let Some(commands) = entry.commands.upgrade() {
                return HubHandle {
                    commands,
                    snapshots: entry.snapshots.clone(),
                };
            }
        }
        let id = self.registry.next_id.fetch_add(1, Ordering::Relaxed);
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
        let hub = Hub::new(
            Arc::clone(&self.context),
            Arc::clone(&self.registry),
            code.clone(),
            snapshot_tx,
            self.live.clone(),
        );
        self.tasks.spawn(hub.run(receiver, id));
        HubHandle {
            commands,
            snapshots,
        }
    }

    /// Rooms with a hub on this instance.
    pub fn len(&self) -> usize {
        self.registry.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Waits up to `within` for every hub to stop (each stops once its connections are gone);
    /// false if some were still running then. Then the instance's heartbeat ends: it leaves the
    /// live set, and what it still held moves to the other instances at once.
    pub async fn stopped(&self, within: Duration) -> bool {
        self.tasks.close();
        let stopped = tokio::time::timeout(within, self.tasks.wait())
            .await
            .is_ok();
        self.heartbeat.abort();
        let instance = &self.context.config.instance;
        if let Err(error) = self.context.store.end_heartbeat(instance).await {
            tracing::warn!(%error, "heartbeat not ended");
        }
        stopped
    }
}
