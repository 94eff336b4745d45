//! One task per WebSocket: reads the client's messages (size cap, rate limit, typed errors),
//! acts through the room's hub, and pushes every new snapshot of its room. A client that keeps
//! sending garbage or floods is closed; nothing it sends reaches the room unless valid.
//!
//! The connection keeps its seat token's hash (never the token, never logged) and finds its seat
//! in every snapshot by it, so it follows its player through rematch rotations.

use crate::clocks;
use crate::error::RoomError;
use crate::hub::{Action, HistoryMark, HubHandle, Snapshot, PRESENCE_TTL};
use crate::pools::choice::{PlayerIdentity, PoolNotice, Ticket};
use crate::protocol::{self, ClientMessage, ServerMessage};
use crate::shared::Shared;
use crate::store::{RoomCode, RoomEvent, SeatKind};
use crate::{cpu_rooms, lobby};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Pool joins a connection may make: one every 2 s on average, bursts of 5.
const POOL_JOINS_PER_SECOND: f64 = 0.5;
const POOL_JOIN_BURST: f64 = 5.0;
/// Draw offers a connection may make: one every 5 s on average, bursts of 3.
const DRAW_OFFERS_PER_SECOND: f64 = 0.2;
const DRAW_OFFER_BURST: f64 = 3.0;
/// The actions limited per connection and per account.
#[derive(Clone, Copy)]
enum Limited {
    PoolJoin,
    DrawOffer,
}
/// How long `pool_leave` waits for the room of a pairing a wave has just made.
const PAIRING_PATIENCE: Duration = Duration::from_secs(2);
/// A seat's presence is renewed this often (its entry lives `PRESENCE_TTL`).
const PRESENCE_RENEWAL: Duration = Duration::from_secs(5);
/// A client that does not take a message within this time is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Close code "policy violation" (RFC 6455).
const POLICY_VIOLATION: u16 = 1008;
/// Close code of a connection whose seat a newer connection took (`replaced`): private use range.
pub const REPLACED: u16 = 4000;
/// Close code of the sockets a shutting-down server closes ("going away", RFC 6455): the room is
/// stored, and the client may resume its seat on this or another instance.
pub const SHUTTING_DOWN: u16 = 1001;
/// The reason sent with `SHUTTING_DOWN`.
pub const SHUTTING_DOWN_REASON: &str = "server shutting down";
/// How long a closing connection keeps reading for the peer's Close frame.
const CLOSE_LINGER: Duration = Duration::from_secs(1);

/// Per-connection token bucket.
struct RateLimit {
    tokens: f64,
    last: Instant,
    per_second: f64,
    burst: f64,
}

impl RateLimit {
    fn new(per_second: f64, burst: f64) -> RateLimit {
        RateLimit {
            tokens: burst,
            last: Instant::now(),
            per_second,
            burst,
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The pool a connection waits in.
struct PoolWait {
    ticket: Ticket,
    notices: mpsc::UnboundedReceiver<PoolNotice>,
    /// The seat token of the room a pairing will make (the pool keeps only its hash).
    token: String,
}

/// The room a connection is in.
struct Membership {
    code: RoomCode,
    hub: HubHandle,
    /// Hash of the seat token (`None`: a spectator).
    token_hash: Option<String>,
    /// The seat whose presence this connection keeps.
    present_seat: Option<u8>,
    /// The game and history this client holds in full (a `Delta` that it completes is enough).
    holds: Option<HistoryMark>,
}

struct Connection {
    shared: Arc<Shared>,
    socket: WebSocket,
    /// Random id, names this connection's presence entries.
    id: String,
    room: Option<Membership>,
    rate: RateLimit,
    /// Protocol errors so far; at `max_strikes` the connection is closed.
    strikes: u32,
    /// Set when the connection must end (cut off, or the client is gone).
    closing: bool,
    /// Who the player is to the pools (a guest until `sign_in`).
    identity: PlayerIdentity,
    /// The session token a `sign_in` proved (checked again at every pool join). Never logged.
    #[cfg_attr(not(feature = "accounts"), allow(dead_code))]
    session: Option<String>,
    /// The pool the connection waits in, and where its pairing is told.
    pool: Option<PoolWait>,
    /// Pool joins are rate-limited on their own (each one costs a wave's work) …
    pool_joins: RateLimit,
    /// … and so are draw offers (each one is shown to the opponent).
    draw_offers: RateLimit,
}

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
    let mut presence = tokio::time::interval(PRESENCE_RENEWAL);
    presence.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
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
            _ = presence.tick() => connection.renew_presence().await,
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

    /// `sign_in`: the session token's account becomes the connection's identity.
    #[cfg(feature = "accounts")]
    async fn sign_in(&mut self, session: String) -> Result<(), RoomError> {
        if self.pool.is_some() {
            return Err(RoomError::AlreadyInPool);
        }
        let accounts = self.shared.accounts.clone().ok_or(RoomError::NoAccounts)?;
        let signed_in = match crate::rated_play::sign_in(&accounts, &session).await {
            Ok(signed_in) => signed_in,
            Err(error) => {
                // A refused token leaves the connection a guest (not the previous account).
                if matches!(error, RoomError::BadSession) {
                    self.session = None;
                    self.identity = PlayerIdentity::guest(&self.id);
                }
                return Err(error);
            }
        };
        let account = signed_in.account.id;
        self.identity = PlayerIdentity {
            player: crate::rated_play::player_key(account),
            account: Some(account.0.to_string()),
            rating: crate::pools::choice::DEFAULT_RATING,
        };
        self.session = Some(session);
        let ratings = serde_json::to_value(&signed_in.ratings).unwrap_or_default();
        self.send(protocol::encode(&ServerMessage::SignedIn {
            account: account.0,
            name: &signed_in.account.display_name,
            ratings,
        }))
        .await;
        Ok(())
    }

    #[cfg(not(feature = "accounts"))]
    async fn sign_in(&mut self, _session: String) -> Result<(), RoomError> {
        Err(RoomError::NoAccounts)
    }

    /// Before a pool join: a signed-in connection's session is checked again and its rating in
    /// the pool's game kind read (a session signed out since makes the connection a guest).
    #[cfg(feature = "accounts")]
    async fn refresh_identity(&mut self, pool_kind: &str) -> Result<(), RoomError> {
        let (Some(session), Some(accounts)) = (&self.session, &self.shared.accounts) else {
            return Ok(());
        };
        match crate::rated_play::identity(accounts, session, pool_kind).await {
            Ok(identity) => {
                self.identity = identity;
                Ok(())
            }
            Err(RoomError::BadSession) => {
                self.session = None;
                self.identity = PlayerIdentity::guest(&self.id);
                Err(RoomError::BadSession)
            }
            Err(error) => Err(error),
        }
    }

    #[cfg(not(feature = "accounts"))]
    async fn refresh_identity(&mut self, _pool_kind: &str) -> Result<(), RoomError> {
        Ok(())
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

    /// A pairing (or the CPU standing in): `paired`, then the connection sits in the room.
    async fn on_pool_notice(&mut self, notice: Option<PoolNotice>) {
        let Some(wait) = self.pool.take() else {
            return;
        };
        let Some(PoolNotice::Paired {
            code,
            opponent,
            rated,
        }) = notice
        else {
            return;
        };
        let token = wait.token;
        self.send(protocol::encode(&ServerMessage::Paired {
            code: code.as_str(),
            opponent: &opponent,
            rated,
        }))
        .await;
        let hash = lobby::hash_token(&token);
        if let Err(error) = self.enter(code, Some((token, hash)), Action::Resume).await {
            self.refuse(error).await;
        }
    }

    /// Sits in a room: `action` (join or resume) through the room's hub, then `joined`.
    async fn enter(
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

    async fn attach(
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

    async fn act(&mut self, action: Action) -> Result<(), RoomError> {
        let member = self.room.as_ref().ok_or(RoomError::NotInRoom)?;
        let hash = member.token_hash.clone().ok_or(RoomError::NotSeated)?;
        member.hub.act(action, Some(hash), &self.id).await?;
        Ok(())
    }

    async fn push_state(&mut self, snapshot: Arc<Snapshot>) {
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
                let _ = store
                    .set_presence(&code, seat, &self.id, PRESENCE_TTL)
                    .await;
            }
            let _ = store.publish(&code, &RoomEvent::Presence).await;
        }
        self.send(text).await;
    }

    /// Whether a newer connection took this connection's seat (same token).
    fn replaced_in(&self, snapshot: &Snapshot) -> bool {
        let Some(hash) = self.room.as_ref().and_then(|m| m.token_hash.as_deref()) else {
            return false;
        };
        snapshot
            .holders
            .iter()
            .any(|(held, conn)| held == hash && *conn != self.id)
    }

    /// Says `replaced` and closes: the seat is played from the newer connection.
    async fn replaced(&mut self) {
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

    async fn renew_presence(&mut self) {
        if let Some(Membership {
            code,
            present_seat: Some(seat),
            ..
        }) = &self.room
        {
            let _ = self
                .shared
                .store
                .set_presence(code, *seat, &self.id, PRESENCE_TTL)
                .await;
        }
    }

    async fn room_closed(&mut self) {
        if let Some(member) = self.room.take() {
            self.send(protocol::encode(&ServerMessage::Closed {
                code: member.code.as_str(),
            }))
            .await;
        }
    }

    /// Leaves the room's hub; the seat shows as disconnected at once.
    async fn detach(&mut self) {
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

/// The pool's notices, or never when the connection waits in no pool.
async fn next_notice(pool: &mut Option<PoolWait>) -> Option<PoolNotice> {
    match pool {
        Some(wait) => wait.notices.recv().await,
        None => std::future::pending().await,
    }
}

/// Stores a started room against the CPU with its player seated; returns its code.
async fn create_cpu_room(
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
async fn create_room(
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
