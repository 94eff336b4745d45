//! The running hubs of this instance, by room: the hubs' spawner finds and adds them here, and a
//! hub takes itself out when it stops.

use super::command::Command;
use super::snapshot::Snapshot;
use crate::store::RoomCode;
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, watch};

/// The running hubs; a hub takes itself out when it stops.
#[derive(Default)]
pub(super) struct Registry {
    pub(super) hubs: Mutex<HashMap<RoomCode, Entry>>,
    pub(super) next_id: AtomicU64,
}

pub(super) struct Entry {
    pub(super) id: u64,
    /// Weak: the hub stops when its last connection drops its handle.
    pub(super) commands: mpsc::WeakSender<Box<Command>>,
    pub(super) snapshots: watch::Receiver<Arc<Snapshot>>,
}

impl Registry {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RoomCode, Entry>> {
        self.hubs.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes the hub `id` of `code` out (a newer hub of the same room stays).
    pub(super) fn remove(&self, code: &RoomCode, id: u64) {
        let mut hubs = self.lock();
        if hubs.get(code).is_some_and(|entry| entry.id == id) {
            hubs.remove(code);
        }
    }
}
