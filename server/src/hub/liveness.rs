//! The instance's heartbeat: one store call a second for the whole instance, whatever the number
//! of rooms. Each beat renews this instance's entry in the store's live set and reads the set
//! back; the hubs read the latest set from a watch channel (for lease takeovers and presence) and
//! are woken only when it changes: an instance left (its rooms and connections are gone) or came
//! (its connections count from now on), or this instance's own heartbeat lapsed (others may have
//! taken its rooms) and it is back. A steady set wakes nobody.

use super::schedule::{HEARTBEAT, HEARTBEAT_TTL};
use crate::store::RoomStore;
use std::sync::Arc;
use tokio::sync::watch;
use tokio::time::Instant;

/// The live instances as last read.
#[derive(Clone, Debug, Default)]
pub(super) struct LiveSet {
    /// `None` until the first heartbeat answers: until then no hub takes a lease (it might be
    /// another live instance's).
    pub(super) instances: Option<Arc<[String]>>,
}

/// Starts the instance's heartbeat task; the receiver follows the live set. The task stops when
/// every receiver is gone.
pub(super) fn start(
    store: Arc<dyn RoomStore>,
    instance: String,
) -> (watch::Receiver<LiveSet>, tokio::task::JoinHandle<()>) {
    let (sender, receiver) = watch::channel(LiveSet::default());
    let task = tokio::spawn(async move {
        let mut tick = tokio::time::interval(HEARTBEAT);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last_beat: Option<Instant> = None;
        loop {
            tick.tick().await;
            if sender.is_closed() {
                return;
            }
            let asked = Instant::now();
            let live = match store.heartbeat(&instance, HEARTBEAT_TTL).await {
                Ok(live) => live,
                Err(error) => {
                    tracing::warn!(%error, "heartbeat failed");
                    continue;
                }
            };
            // Lapsed: the last beat that landed is older than the heartbeat's TTL.
            let lapsed = last_beat.is_none_or(|at| asked.duration_since(at) >= HEARTBEAT_TTL);
            if lapsed && last_beat.is_some() {
                tracing::warn!("this instance's heartbeat lapsed; checking its rooms' leases");
            }
            last_beat = Some(asked);
            sender.send_if_modified(|current| {
                if current.instances.as_deref() == Some(live.as_slice()) {
                    return lapsed;
                }
                tracing::info!(instances = live.len(), "live set changed");
                current.instances = Some(live.into());
                true
            });
        }
    });
    (receiver, task)
}
