//! How an instance hears its rooms' events from Redis.
//!
//! Events, one node: one pub/sub connection per instance, owned by a task that fans messages out to
//! local per-room broadcast channels. A room's channel is subscribed when its first local
//! subscriber comes and unsubscribed when the last one goes. If the connection drops, the task
//! reconnects, subscribes again to every room still watched here and sends each of them "reload"
//! (an event published while disconnected is lost; the record is not).
//!
//! Events, Cluster: the cluster connection (RESP3) carries the shard subscriptions and pushes
//! their messages to the same fan-out; it follows slot moves and failovers and subscribes again
//! by itself, and each confirmation of a room already confirmed tells that room to reload. That
//! alone can leave a room deaf (the library resubscribes only when it refreshes its slot map, and
//! forgets a subscription a node drops when its slot leaves it), so when a node's connection drops
//! or a node drops a subscription, the instance asks for every watched room's subscription again
//! and tells those rooms to reload; the confirmation that comes once a subscription lands on the
//! slot's new master makes them reload once more.

use super::layout::{code_of_channel, events_channel, unavailable, RESPONSE_TIMEOUT};
use crate::store::{EventStream, RoomCode, RoomEvent, StoreError};
use futures_util::StreamExt;
use redis::aio::{PubSubSink, PubSubStream};
use redis::cluster_async::ClusterConnection;
use redis::{Client, PushInfo, PushKind};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, Mutex};

/// Events a slow local subscriber may lag behind before it skips to "reload".
const EVENT_BUFFER: usize = 64;
/// Pause between attempts to reopen the pub/sub connection.
const PUBSUB_RETRY: Duration = Duration::from_millis(250);

/// What a lagging or resynchronised subscriber hears: any event means "reload the record".
const RELOAD: RoomEvent = RoomEvent::Changed { version: 0 };

/// How this instance listens to room channels.
pub(super) enum Subscriber {
    /// One node: the pub/sub connection's command half, while it is up.
    Node(Option<PubSubSink>),
    /// A Cluster: shard subscriptions through the cluster connection, which subscribes again by
    /// itself after a failover or a slot move.
    Cluster(ClusterConnection),
}

/// The local subscribers of each room, and how the instance subscribes.
pub(super) struct Fanout {
    pub(super) subscriber: Subscriber,
    pub(super) rooms: HashMap<String, broadcast::Sender<RoomEvent>>,
    /// Cluster: rooms whose shard subscription was confirmed once (a later confirmation is a
    /// resubscription: events may have been missed).
    pub(super) confirmed: HashSet<String>,
    /// Cluster: a resubscription of every watched room is under way (see [`resubscribe_shards`]).
    pub(super) resyncing: bool,
    /// Cluster: a node's connection dropped again while resubscribing: one more round.
    pub(super) resync_again: bool,
}

/// Owns the instance's pub/sub connection (its command half is in `fanout`, its message half is
/// `stream`): hands each message to the room's local subscribers; when the connection drops,
/// reopens it, subscribes again and tells every watched room to reload.
pub(super) async fn run_pubsub(
    client: Client,
    mut stream: PubSubStream,
    fanout: Weak<Mutex<Fanout>>,
) {
    loop {
        while let Some(message) = stream.next().await {
            let Some(code) = code_of_channel(message.get_channel_name()) else {
                continue;
            };
            let Ok(event) = serde_json::from_slice::<RoomEvent>(message.get_payload_bytes()) else {
                tracing::warn!(room = code, "redis pub/sub: unreadable event ignored");
                continue;
            };
            let Some(fanout) = fanout.upgrade() else {
                return;
            };
            let fanout = fanout.lock().await;
            if let Some(sender) = fanout.rooms.get(code) {
                let _ = sender.send(event);
            }
        }
        tracing::warn!("redis pub/sub: connection lost, reconnecting");
        match fanout.upgrade() {
            Some(fanout) => fanout.lock().await.subscriber = Subscriber::Node(None),
            None => return,
        }
        stream = loop {
            tokio::time::sleep(PUBSUB_RETRY).await;
            let Some(fanout) = fanout.upgrade() else {
                return;
            };
            match resubscribe(&client, &fanout).await {
                Ok(stream) => break stream,
                Err(error) => tracing::warn!(%error, "redis pub/sub: reconnecting failed"),
            }
        };
    }
}

/// Opens a new pub/sub connection, subscribes it to every room watched here, installs it and
/// tells those rooms' subscribers to reload (they may have missed events meanwhile).
pub(super) async fn resubscribe(
    client: &Client,
    fanout: &Mutex<Fanout>,
) -> Result<PubSubStream, redis::RedisError> {
    let (mut sink, stream) = client.get_async_pubsub().await?.split();
    let mut fanout = fanout.lock().await;
    let channels: Vec<String> = fanout
        .rooms
        .keys()
        .map(|code| events_channel(code))
        .collect();
    if !channels.is_empty() {
        sink.subscribe(&channels).await?;
    }
    fanout.subscriber = Subscriber::Node(Some(sink));
    for sender in fanout.rooms.values() {
        let _ = sender.send(RELOAD);
    }
    Ok(stream)
}

/// Reads the cluster connection's pushes: shard messages go to the room's local subscribers; a
/// subscription confirmed again (after a failover, a slot move or a reconnection, when the
/// cluster connection subscribes again by itself) tells the room to reload.
pub(super) async fn run_shard_pushes(
    mut pushes: tokio::sync::mpsc::UnboundedReceiver<PushInfo>,
    fanout_weak: Weak<Mutex<Fanout>>,
) {
    while let Some(push) = pushes.recv().await {
        if push.kind == PushKind::Disconnection {
            // A node's connection dropped: the subscriptions it carried are gone, and events sent
            // until they are back are lost.
            let Some(fanout) = fanout_weak.upgrade() else {
                return;
            };
            tracing::info!("redis cluster: a node's connection dropped; resubscribing rooms");
            start_resubscribing(&mut *fanout.lock().await, &fanout_weak);
            continue;
        }
        let channel = match push.data.first() {
            Some(redis::Value::BulkString(bytes)) => String::from_utf8_lossy(bytes).into_owned(),
            _ => continue,
        };
        let Some(code) = code_of_channel(&channel) else {
            continue;
        };
        let Some(fanout) = fanout_weak.upgrade() else {
            return;
        };
        let mut fanout = fanout.lock().await;
        match push.kind {
            PushKind::SMessage => {
                let event = match push.data.get(1) {
                    Some(redis::Value::BulkString(bytes)) => {
                        serde_json::from_slice::<RoomEvent>(bytes).ok()
                    }
                    _ => None,
                };
                let Some(event) = event else {
                    tracing::warn!(room = code, "redis pub/sub: unreadable event ignored");
                    continue;
                };
                if let Some(sender) = fanout.rooms.get(code) {
                    let _ = sender.send(event);
                }
            }
            PushKind::SSubscribe => {
                if !fanout.rooms.contains_key(code) {
                    continue;
                }
                if !fanout.confirmed.insert(code.to_string()) {
                    if let Some(sender) = fanout.rooms.get(code) {
                        let _ = sender.send(RELOAD);
                    }
                }
            }
            // Unasked (the room is still watched here): the node dropped the subscription because
            // the room's slot left it (it became a replica, the slot moved), and the cluster
            // connection forgets it too. Subscribe again where the slot is now.
            PushKind::SUnsubscribe if fanout.rooms.contains_key(code) => {
                tracing::info!(
                    room = code,
                    "redis cluster: shard subscription dropped by a node"
                );
                start_resubscribing(&mut fanout, &fanout_weak);
            }
            _ => {}
        }
    }
}

/// Starts [`resubscribe_shards`] unless it runs already (then it does one more round).
pub(super) fn start_resubscribing(fanout: &mut Fanout, weak: &Weak<Mutex<Fanout>>) {
    if fanout.rooms.is_empty() {
        return;
    }
    if fanout.resyncing {
        fanout.resync_again = true;
        return;
    }
    fanout.resyncing = true;
    fanout.resync_again = false;
    tokio::spawn(resubscribe_shards(weak.clone()));
}

/// After a node's connection dropped or a node dropped a subscription: asks the cluster
/// connection to subscribe every room watched here again (it keeps the subscription and places it
/// on the master serving the room's slot once its slot map says which), retrying while it refuses,
/// then tells each room to reload; the confirmation from the new master (a repeated confirmation,
/// see [`run_shard_pushes`]) makes the room reload again. An event published while a room was not
/// listening is lost, but the save it announced is in the record the reload reads: events are
/// hints, the store is the truth.
pub(super) async fn resubscribe_shards(fanout: Weak<Mutex<Fanout>>) {
    loop {
        tokio::time::sleep(PUBSUB_RETRY).await;
        let Some(shared) = fanout.upgrade() else {
            return;
        };
        let (mut cluster, codes) = {
            let mut guard = shared.lock().await;
            guard.resync_again = false;
            let Subscriber::Cluster(cluster) = &guard.subscriber else {
                guard.resyncing = false;
                return;
            };
            let codes: Vec<String> = guard.rooms.keys().cloned().collect();
            (cluster.clone(), codes)
        };
        drop(shared);
        let mut failed = false;
        for code in &codes {
            let subscribed =
                tokio::time::timeout(RESPONSE_TIMEOUT, cluster.ssubscribe(events_channel(code)))
                    .await;
            if !matches!(subscribed, Ok(Ok(()))) {
                failed = true;
                break;
            }
        }
        let Some(shared) = fanout.upgrade() else {
            return;
        };
        let mut guard = shared.lock().await;
        if failed {
            continue;
        }
        for code in &codes {
            match guard.rooms.get(code) {
                Some(sender) => {
                    let _ = sender.send(RELOAD);
                }
                // Its last local stream went meanwhile: do not keep listening for it.
                None => {
                    let unsubscribe = cluster.sunsubscribe(events_channel(code));
                    let _ = tokio::time::timeout(RESPONSE_TIMEOUT, unsubscribe).await;
                }
            }
        }
        if !guard.resync_again {
            guard.resyncing = false;
            tracing::info!(
                rooms = codes.len(),
                "redis cluster: shard subscriptions renewed"
            );
            return;
        }
    }
}

/// Held by each local event stream: when a room's last local stream goes, the instance stops
/// listening to the room's channel.
pub(super) struct Unsubscribe {
    code: String,
    fanout: Weak<Mutex<Fanout>>,
}

impl Drop for Unsubscribe {
    fn drop(&mut self) {
        let (Some(fanout), Ok(runtime)) =
            (self.fanout.upgrade(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let code = std::mem::take(&mut self.code);
        runtime.spawn(async move {
            let mut fanout = fanout.lock().await;
            let unused = fanout
                .rooms
                .get(&code)
                .is_some_and(|sender| sender.receiver_count() == 0);
            if unused {
                fanout.rooms.remove(&code);
                fanout.confirmed.remove(&code);
                match &mut fanout.subscriber {
                    Subscriber::Node(Some(sink)) => {
                        let _ = sink.unsubscribe(events_channel(&code)).await;
                    }
                    Subscriber::Node(None) => {}
                    Subscriber::Cluster(cluster) => {
                        let _ = cluster.sunsubscribe(events_channel(&code)).await;
                    }
                }
            }
        });
    }
}

/// A room's local events as a stream; a subscriber that fell behind hears "reload" instead of
/// the events it missed.
pub(super) fn local_stream(
    receiver: broadcast::Receiver<RoomEvent>,
    guard: Unsubscribe,
) -> EventStream {
    futures_util::stream::unfold((receiver, guard), |(mut receiver, guard)| async move {
        match receiver.recv().await {
            Ok(event) => Some((event, (receiver, guard))),
            Err(broadcast::error::RecvError::Lagged(_)) => Some((RELOAD, (receiver, guard))),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    })
    .boxed()
}

/// Listens to a room's events here: the first local subscriber subscribes the room's channel.
pub(super) async fn subscribe(
    shared: &Arc<Mutex<Fanout>>,
    code: &RoomCode,
) -> Result<EventStream, StoreError> {
    let mut fanout = shared.lock().await;
    let receiver = match fanout.rooms.get(code.as_str()) {
        Some(sender) => sender.subscribe(),
        None => {
            // The first local subscriber: listen to the room's channel before returning, so
            // that no event published after this call is missed. While the connection is
            // down the room is only registered: the reconnection subscribes it and says
            // "reload".
            let channel = events_channel(code.as_str());
            match &mut fanout.subscriber {
                Subscriber::Node(Some(sink)) => {
                    tokio::time::timeout(RESPONSE_TIMEOUT, sink.subscribe(channel))
                        .await
                        .map_err(|_| StoreError::Unavailable("redis SUBSCRIBE timed out".into()))?
                        .map_err(unavailable)?;
                }
                Subscriber::Node(None) => {}
                Subscriber::Cluster(cluster) => {
                    tokio::time::timeout(RESPONSE_TIMEOUT, cluster.ssubscribe(channel))
                        .await
                        .map_err(|_| StoreError::Unavailable("redis SSUBSCRIBE timed out".into()))?
                        .map_err(unavailable)?;
                }
            }
            let (sender, receiver) = broadcast::channel(EVENT_BUFFER);
            fanout.rooms.insert(code.as_str().to_string(), sender);
            receiver
        }
    };
    let guard = Unsubscribe {
        code: code.as_str().to_string(),
        fanout: Arc::downgrade(shared),
    };
    Ok(local_stream(receiver, guard))
}
