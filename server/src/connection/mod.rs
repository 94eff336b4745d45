//! One task per WebSocket: reads the client's messages (size cap, rate limit, typed errors),
//! acts through the room's hub, and pushes every new snapshot of its room. A client that keeps
//! sending garbage or floods is closed; nothing it sends reaches the room unless valid.
//!
//! The connection keeps its seat token's hash (never the token, never logged) and finds its seat
//! in every snapshot by it, so it follows its player through rematch rotations.
//!
//! Here the socket loop and the dispatch of client messages; `room` sits the connection in a
//! room, `pooling` signs in and waits in a pool, `rate` limits how often it may act.

mod pooling;
mod rate;
mod room;
mod state;

pub use room::REPLACED;

use crate::clocks;
use crate::error::RoomError;
use crate::hub::{Action, Snapshot};
use crate::pools::choice::PlayerIdentity;
use crate::protocol::{self, ClientMessage, ServerMessage};
use crate::shared::Shared;
use crate::store::{RoomCode, SeatKind};
use crate::{cpu_rooms, lobby};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use pooling::next_notice;
use rate::{
    Limited, RateLimit, DRAW_OFFERS_PER_SECOND, DRAW_OFFER_BURST, POOL_JOINS_PER_SECOND,
    POOL_JOIN_BURST,
};
use room::{create_cpu_room, create_room};
use state::{Connection, Membership, PoolWait};
use std::sync::Arc;
use std::time::Duration;

/// How long `pool_leave` waits for the room of a pairing a wave has just made.
const PAIRING_PATIENCE: Duration = Duration::from_secs(2);
/// A client that does not take a message within this time is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Close code "policy violation" (RFC 6455).
const POLICY_VIOLATION: u16 = 1008;
/// Close code of the sockets a shutting-down server closes ("going away", RFC 6455): the room is
/// stored, and the client may resume its seat on this or another instance.
pub const SHUTTING_DOWN: u16 = 1001;
/// The reason sent with `SHUTTING_DOWN`.
pub const SHUTTING_DOWN_REASON: &str = "server shutting down";
/// How long a closing connection keeps reading for the peer's Close frame.
const CLOSE_LINGER: Duration = Duration::from_secs(1);

/// Serves one socket until it closes or the server shuts down.
/// `_permit` keeps the socket counted under `max_connections` while it is open.
pub async fn serve(
    socket: WebSocket,
    shared: Arc<Shared>,
    _permit: Option<crate::limits::ConnectionPermit>,
) {
    let config = &shared.config;
    let id = lobby::new_code().to_string();
    let mut connection = Connection {
        rate: RateLimit::new(config.rate_per_second, config.rate_burst),
        shared: Arc::clone(&shared),
        socket,
        identity: PlayerIdentity::guest(&id),
        session: None,
        id,
        room: None,
        strikes: 0,
        closing: false,
        pool: None,
        pool_joins: RateLimit::new(POOL_JOINS_PER_SECOND, POOL_JOIN_BURST),
        draw_offers: RateLimit::new(DRAW_OFFERS_PER_SECOND, DRAW_OFFER_BURST),
    };
    let mut shutdown = shared.shutdown.clone();
    // Sent when the server shuts down; else a plain Close.
    let mut farewell = None;
    while !connection.closing {
        tokio::select! {
            message = connection.socket.recv() => match message {
                Some(Ok(Message::Text(text))) => connection.on_text(text.as_str()).await,
                Some(Ok(Message::Binary(_))) => connection.refuse(RoomError::Binary).await,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            changed = next_snapshot(&mut connection.room) => match changed {
                Some(snapshot) => connection.push_state(snapshot).await,
                None => connection.room_closed().await,
            },
            notice = next_notice(&mut connection.pool) => connection.on_pool_notice(notice).await,
            // An action in flight is answered first: each runs to its end inside `on_text`.
            () = stopping(&mut shutdown) => {
                // The answer to an action just served leaves before the socket closes.
                if let Some(snapshot) = unsent_snapshot(&mut connection.room) {
                    connection.push_state(snapshot).await;
                }
                farewell = Some(CloseFrame {
                    code: SHUTTING_DOWN,
                    reason: SHUTTING_DOWN_REASON.into(),
                });
                break;
            }
        }
    }
    connection.detach().await;
    if let Some(wait) = connection.pool.take() {
        shared.pools.leave(&wait.ticket).await;
        shared.pools.forget(&wait.ticket.id);
    }
    let _ = connection.socket.send(Message::Close(farewell)).await;
    linger(&mut connection.socket).await;
}

/// Resolves once the server shuts down (at once if it already does).
async fn stopping(shutdown: &mut tokio::sync::watch::Receiver<bool>) {
    if shutdown.wait_for(|stopping| *stopping).await.is_err() {
        // The server is gone without a word: the same as a shutdown.
    }
}

/// Reads and drops what the peer still sends until its Close frame (or `CLOSE_LINGER`): closing a
/// TCP socket with unread input resets it, and the reset can destroy the replies still on their way
/// to the peer — a flooder would then never see the errors that explain why it was cut off.
async fn linger(socket: &mut WebSocket) {
    let drained = async {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(CLOSE_LINGER, drained).await;
}

/// The next snapshot of the connection's room (`None`: its hub is gone); pends without a room.
async fn next_snapshot(room: &mut Option<Membership>) -> Option<Arc<Snapshot>> {
    let Some(member) = room else {
        return std::future::pending().await;
    };
    match member.hub.snapshots.changed().await {
        Ok(()) => Some(Arc::clone(&member.hub.snapshots.borrow_and_update())),
        Err(_) => None,
    }
}

/// The snapshot of the connection's room that it has not sent yet, if any.
fn unsent_snapshot(room: &mut Option<Membership>) -> Option<Arc<Snapshot>> {
    let snapshots = &mut room.as_mut()?.hub.snapshots;
    if !snapshots.has_changed().ok()? {
        return None;
    }
    Some(Arc::clone(&snapshots.borrow_and_update()))
}

impl Connection {
    async fn send(&mut self, text: String) {
        let sent = tokio::time::timeout(SEND_TIMEOUT, self.socket.send(Message::Text(text.into())));
        if !matches!(sent.await, Ok(Ok(()))) {
            self.closing = true;
        }
    }

    async fn on_text(&mut self, text: &str) {
        if !self.rate.take() {
            return self.refuse(RoomError::RateLimited).await;
        }
        let message = match protocol::parse(text, self.shared.config.max_message) {
            Ok(message) => message,
            Err(error) => return self.refuse(error).await,
        };
        if let Err(error) = self.dispatch(message).await {
            self.refuse(error).await;
        }
    }

    /// Answers an error; protocol abuse counts towards being cut off.
    async fn refuse(&mut self, error: RoomError) {
        if error.is_strike() {
            self.strikes += 1;
        }
        self.send(protocol::error_message(&error)).await;
        if self.strikes >= self.shared.config.max_strikes {
            let room = self.room.as_ref().map(|m| m.code.to_string());
            tracing::info!(
                room = room.as_deref().unwrap_or("-"),
                "connection cut off after repeated protocol errors"
            );
            let frame = CloseFrame {
                code: POLICY_VIOLATION,
                reason: "too many bad messages".into(),
            };
            let _ = self.socket.send(Message::Close(Some(frame))).await;
            self.closing = true;
        }
    }

    async fn dispatch(&mut self, message: ClientMessage) -> Result<(), RoomError> {
        match message {
            ClientMessage::Create {
                game,
                nickname,
                clock,
            } => {
                self.ensure_free()?;
                let nickname = lobby::clean_nickname(&nickname)?;
                let clock = clocks::choose(&game.kind, clock.as_ref())?;
                let (token, hash) = lobby::new_token();
                let code = create_room(&self.shared, game, clock, nickname, &hash).await?;
                self.enter(code, Some((token, hash)), Action::Resume).await
            }
            ClientMessage::Join { code, nickname } => {
                self.ensure_free()?;
                let code = RoomCode::parse(&code).ok_or(RoomError::NoSuchRoom)?;
                let nickname = lobby::clean_nickname(&nickname)?;
                let token = lobby::new_token();
                self.enter(code, Some(token), Action::Join { nickname })
                    .await
            }
            ClientMessage::Resume { code, token } => {
                self.ensure_free()?;
                let code = RoomCode::parse(&code).ok_or(RoomError::NoSuchRoom)?;
                let hash = lobby::hash_token(&token);
                self.enter(code, Some((token, hash)), Action::Resume).await
            }
            ClientMessage::Watch { code } => {
                self.ensure_free()?;
                let code = RoomCode::parse(&code).ok_or(RoomError::NoSuchRoom)?;
                if self.shared.store.load(&code).await?.is_none() {
                    return Err(RoomError::NoSuchRoom);
                }
                let hub = self.shared.hubs.open(&code);
                self.send(protocol::encode(&ServerMessage::Watching {
                    code: code.as_str(),
                }))
                .await;
                self.attach(code, hub, None, None).await;
                Ok(())
            }
            ClientMessage::Lookup { code } => {
                let code = RoomCode::parse(&code).ok_or(RoomError::NoSuchRoom)?;
                let room = self
                    .shared
                    .store
                    .load(&code)
                    .await?
                    .ok_or(RoomError::NoSuchRoom)?;
                let record = &room.value;
                let free_seats = record
                    .seats
                    .iter()
                    .filter(|seat| seat.kind == SeatKind::Empty)
                    .count();
                self.send(protocol::encode(&ServerMessage::RoomInfo {
                    code: code.as_str(),
                    game: &record.game,
                    started: record.started,
                    free_seats,
                }))
                .await;
                Ok(())
            }
            ClientMessage::StartCpu {} => self.act(Action::StartCpu).await,
            ClientMessage::Move { text, ply } => self.act(Action::Move { text, ply }).await,
            ClientMessage::Resign {} => self.act(Action::Resign).await,
            ClientMessage::Rematch {} => self.act(Action::Rematch).await,
            ClientMessage::Leave {} => {
                let member = self.room.as_ref().ok_or(RoomError::NotInRoom)?;
                if member.token_hash.is_some() {
                    self.act(Action::Leave).await?;
                }
                self.detach().await;
                self.send(protocol::encode(&ServerMessage::Left)).await;
                Ok(())
            }
            ClientMessage::Sync {} => {
                let member = self.room.as_mut().ok_or(RoomError::NotInRoom)?;
                // The client asks for everything again.
                member.holds = None;
                let snapshot = Arc::clone(&member.hub.snapshots.borrow_and_update());
                self.push_state(snapshot).await;
                Ok(())
            }
            ClientMessage::Ping {} => {
                self.send(protocol::encode(&ServerMessage::Pong)).await;
                Ok(())
            }
            ClientMessage::OfferDraw {} => {
                self.limit(Limited::DrawOffer)?;
                self.act(Action::OfferDraw).await
            }
            ClientMessage::AnswerDraw { accept } => self.act(Action::AnswerDraw { accept }).await,
            ClientMessage::Abort {} => self.act(Action::Abort).await,
            ClientMessage::Undo {} => self.act(Action::Undo).await,
            ClientMessage::Redo {} => self.act(Action::Redo).await,
            ClientMessage::PlayCpu {
                game,
                nickname,
                level,
                seat,
            } => {
                self.ensure_free()?;
                let nickname = lobby::clean_nickname(&nickname)?;
                let level = cpu_rooms::check_level(&level)?;
                let (token, hash) = lobby::new_token();
                let code =
                    create_cpu_room(&self.shared, game, level, seat, nickname, &hash).await?;
                self.enter(code, Some((token, hash)), Action::Resume).await
            }
            ClientMessage::PoolJoin { pool, nickname } => {
                self.ensure_free()?;
                let nickname = lobby::clean_nickname(&nickname)?;
                self.limit(Limited::PoolJoin)?;
                self.refresh_identity(&pool.kind).await?;
                let now = self.shared.config.time.now_ms();
                let (token, hash) = lobby::new_token();
                let (ticket, notices) = self
                    .shared
                    .pools
                    .join(
                        pool,
                        self.identity.clone(),
                        nickname,
                        hash,
                        &self.shared.config.instance,
                        now,
                    )
                    .await?;
                let cpu_at = now + self.shared.config.pool_cpu_after.as_millis() as u64;
                self.send(protocol::encode(&ServerMessage::PoolWaiting {
                    pool: &ticket.pool,
                    rating: self.identity.rating,
                    cpu_at,
                }))
                .await;
                self.pool = Some(PoolWait {
                    ticket,
                    notices,
                    token,
                });
                Ok(())
            }
            ClientMessage::PoolLeave {} => {
                let wait = self.pool.as_mut().ok_or(RoomError::NotInPool)?;
                if !self.shared.pools.leave(&wait.ticket).await {
                    // A wave took the player already: its room is being made, and is theirs.
                    let next = tokio::time::timeout(PAIRING_PATIENCE, wait.notices.recv()).await;
                    if let Ok(notice) = next {
                        self.on_pool_notice(notice).await;
                        return Ok(());
                    }
                }
                self.pool = None;
                self.send(protocol::encode(&ServerMessage::PoolLeft)).await;
                Ok(())
            }
            ClientMessage::SignIn { session } => self.sign_in(session).await,
        }
    }

    /// Takes a token for `action` from the connection's bucket and, signed in, the account's
    /// (shared by all its sockets on this instance); `rate_limited` when either is empty.
    fn limit(&mut self, action: Limited) -> Result<(), RoomError> {
        let limits = &self.shared.account_limits;
        let (connection, account) = match action {
            Limited::PoolJoin => (&mut self.pool_joins, &limits.pool_joins),
            Limited::DrawOffer => (&mut self.draw_offers, &limits.draw_offers),
        };
        if !connection.take() {
            return Err(RoomError::RateLimited);
        }
        match &self.identity.account {
            Some(id) if !account.allow(id) => Err(RoomError::RateLimited),
            _ => Ok(()),
        }
    }

    fn ensure_free(&self) -> Result<(), RoomError> {
        if self.pool.is_some() {
            return Err(RoomError::AlreadyInPool);
        }
        match self.room {
            Some(_) => Err(RoomError::AlreadyInRoom),
            None => Ok(()),
        }
    }
}
