//! A connection in a room: entering it, acting through its hub, following its snapshots,
//! recording its seat's presence, and leaving.

use super::state::{Connection, Membership};
use crate::error::RoomError;
use crate::hub::{Action, HubHandle, Snapshot};
use crate::protocol::{self, ServerMessage};
use crate::shared::Shared;
use crate::store::{RoomCode, RoomEvent};
use crate::{cpu_rooms, lobby};
use axum::extract::ws::{CloseFrame, Message};
use std::sync::Arc;

/// Close code of a connection whose seat a newer connection took (`replaced`): private use range.
pub const REPLACED: u16 = 4000;

impl Connection {
    /// Sits in a room: `action` (join or resume) through the room's hub, then `joined`.
    pub(super) async fn enter(
        &mut self,
        code: RoomCode,
        token: Option<(String, String)>,
        action: Action,
    ) -> Result<(), RoomError> {
        let hub = self.shared.hubs.open(&code);
        let hash = token.as_ref().map(|(_, hash)| hash.clone());
        let seat = hub
            .act(action, hash.clone(), &self.id)
            .await?
            .ok_or(RoomError::Busy)?;
        if let Some((token, _)) = &token {
            self.send(protocol::encode(&ServerMessage::Joined {
                code: code.as_str(),
                seat,
                token,
            }))
            .await;
        }
        self.attach(code, hub, hash, Some(seat)).await;
        Ok(())
    }

    pub(super) async fn attach(
        &mut self,
        code: RoomCode,
        hub: HubHandle,
        token_hash: Option<String>,
        present_seat: Option<u8>,
    ) {
        let mut member = Membership {
            code,
            hub,
            token_hash,
            present_seat,
            holds: None,
        };
        let snapshot = Arc::clone(&member.hub.snapshots.borrow_and_update());
        self.room = Some(member);
        if snapshot.version > 0 || snapshot.gone {
            self.push_state(snapshot).await;
        }
    }

    pub(super) async fn act(&mut self, action: Action) -> Result<(), RoomError> {
        let member = self.room.as_ref().ok_or(RoomError::NotInRoom)?;
        let hash = member.token_hash.clone().ok_or(RoomError::NotSeated)?;
        member.hub.act(action, Some(hash), &self.id).await?;
        Ok(())
    }

    pub(super) async fn push_state(&mut self, snapshot: Arc<Snapshot>) {
        if snapshot.gone {
            return self.room_closed().await;
        }
        if self.replaced_in(&snapshot) {
            return self.replaced().await;
        }
        let Some(room) = snapshot.room.as_deref() else {
            return;
        };
        let Some(member) = self.room.as_mut() else {
            return;
        };
        let you = member.token_hash.as_deref().and_then(|hash| {
            snapshot
                .seat_hashes
                .iter()
                .position(|h| h.as_deref() == Some(hash))
                .map(|i| i as u8)
        });
        let moved = member.token_hash.is_some() && you != member.present_seat;
        let room = snapshot.delta_for(member.holds.as_ref()).unwrap_or(room);
        member.holds = snapshot.mark.clone();
        let text = protocol::encode(&ServerMessage::State { you, room });
        if moved {
            // A rematch moved the player: the presence entry follows.
            let old = member.present_seat;
            member.present_seat = you;
            let code = member.code.clone();
            let store = &self.shared.store;
            if let Some(old) = old {
                let _ = store.clear_presence(&code, old, &self.id).await;
            }
            if let Some(seat) = you {
                let instance = &self.shared.config.instance;
                let _ = store.set_presence(&code, seat, &self.id, instance).await;
            }
            let _ = store.publish(&code, &RoomEvent::Presence).await;
        }
        self.send(text).await;
    }

    /// Whether a newer connection took this connection's seat (same token).
    pub(super) fn replaced_in(&self, snapshot: &Snapshot) -> bool {
        let Some(hash) = self.room.as_ref().and_then(|m| m.token_hash.as_deref()) else {
            return false;
        };
        snapshot
            .holders
            .iter()
            .any(|(held, conn)| held == hash && *conn != self.id)
    }

    /// Says `replaced` and closes: the seat is played from the newer connection.
    pub(super) async fn replaced(&mut self) {
        let Some(member) = self.room.take() else {
            return;
        };
        self.send(protocol::encode(&ServerMessage::Replaced {
            code: member.code.as_str(),
        }))
        .await;
        let frame = CloseFrame {
            code: REPLACED,
            reason: "seat taken by a newer connection".into(),
        };
        let _ = self.socket.send(Message::Close(Some(frame))).await;
        // Its presence entry, if any is left, goes; the newer connection's stays.
        if let Some(seat) = member.present_seat {
            let _ = self
                .shared
                .store
                .clear_presence(&member.code, seat, &self.id)
                .await;
        }
        self.closing = true;
    }

    pub(super) async fn room_closed(&mut self) {
        if let Some(member) = self.room.take() {
            self.send(protocol::encode(&ServerMessage::Closed {
                code: member.code.as_str(),
            }))
            .await;
        }
    }

    /// Leaves the room's hub; the seat shows as disconnected at once.
    pub(super) async fn detach(&mut self) {
        let Some(member) = self.room.take() else {
            return;
        };
        if let Some(seat) = member.present_seat {
            let store = &self.shared.store;
            let _ = store.clear_presence(&member.code, seat, &self.id).await;
            let _ = store.publish(&member.code, &RoomEvent::Presence).await;
        }
    }
}

/// Stores a started room against the CPU with its player seated; returns its code.
pub(super) async fn create_cpu_room(
    shared: &Shared,
    game: crate::store::GameChoice,
    level: String,
    seat: Option<u8>,
    nickname: String,
    hash: &str,
) -> Result<RoomCode, RoomError> {
    let now = shared.config.time.now_ms();
    for _ in 0..3 {
        let code = lobby::new_code();
        let (record, _) = cpu_rooms::new_room(
            code.clone(),
            game.clone(),
            level.clone(),
            seat,
            nickname.clone(),
            hash.to_string(),
            now,
        )?;
        if shared.store.create(&code, &record, record.ttl(now)).await? {
            tracing::info!(room = %code, game = %record.game.kind, level = %level, "room against the CPU created");
            return Ok(code);
        }
    }
    Err(RoomError::Busy)
}

/// Stores a new room with its creator seated; returns its code.
pub(super) async fn create_room(
    shared: &Shared,
    game: crate::store::GameChoice,
    clock: Option<crate::store::ClockSettings>,
    nickname: String,
    hash: &str,
) -> Result<RoomCode, RoomError> {
    let now = shared.config.time.now_ms();
    // 96 random bits do not meet twice in practice; a few tries cover a broken generator.
    for _ in 0..3 {
        let code = lobby::new_code();
        let (record, _) = lobby::new_room(
            code.clone(),
            game.clone(),
            clock,
            nickname.clone(),
            hash.to_string(),
            now,
        )?;
        if shared.store.create(&code, &record, record.ttl(now)).await? {
            tracing::info!(room = %code, game = %record.game.kind, players = record.game.players, "room created");
            return Ok(code);
        }
    }
    Err(RoomError::Busy)
}
