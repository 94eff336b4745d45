//! The room store: where a room's record lives, how a change reaches every instance, who runs
//! a room's timers, and which seats have a live connection. One trait, two backends:
//! [`memory::MemoryStore`] (the embedded default, one process) and `redis::RedisStore` (behind the
//! `redis` feature: many instances sharing one Redis), as `ROOMSTORE.md` and `docs/protocol.md`
//! describe.
//!
//! The design every backend follows:
//! - A change is load → check with `damas::session` → compare-and-set [`RoomStore::save`]; a
//!   client is answered only after `Saved` (a crash loses no acknowledged move). `Conflict`:
//!   reload and retry.
//! - After a save the writer publishes a [`RoomEvent`]; every instance with sockets in the room
//!   reloads the record and pushes the new state.
//! - Liveness is per instance, not per room: each instance renews one heartbeat
//!   ([`RoomStore::heartbeat`], every second) and reads back the live set of instances with it.
//! - Timers (CPU moves, the 45 s takeover, clock flags) run only in the instance holding the
//!   room's lease, from absolute deadlines kept in the record, so another instance can take over.
//!   A lease names its instance and is never renewed: another instance takes it (compare-and-set)
//!   only once the holder has left the live set.
//! - Presence (which seat has a connection) names the instance holding the socket and is written
//!   when a connection comes or goes; entries of instances that left the live set do not count,
//!   so a crashed instance's players show as gone within seconds.
//! - Expiry: every save passes the time left until [`RoomRecord::expires_at`], capped at 30 min
//!   and renewed by the lease holder while someone is connected (so a room orphaned by a crash
//!   goes too); the backend drops the room then (memory: a sweeper; Redis: PEXPIRE).

pub mod draw_offers;
pub mod memory;
#[cfg(feature = "redis")]
pub mod redis;

pub use draw_offers::DrawOffers;
use futures_util::stream::BoxStream;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// The CPU's level in rooms (the seeds: "la CPU (nivel medio)").
pub const CPU_LEVEL: &str = "medium";

/// A room's code: 20 characters of Crockford's base32 carrying 100 bits of OS randomness (see
/// `lobby`), said and typed without ambiguity: one case, no I, L, O or U. People see it in groups
/// of five (`K7Q2M-9XRTD-…`); what they type back is normalised (case, spaces, dashes, and the
/// look-alikes O → 0, I and L → 1). Codes made before this alphabet (16 base64url characters,
/// case-sensitive) are still accepted as they are, so old links keep working.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RoomCode(String);

/// Crockford's base32 alphabet: digits and capitals without I, L, O and U.
pub const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

impl RoomCode {
    /// Length of a code in characters (100 bits in base32).
    pub const LEN: usize = 20;
    /// Characters per group when a code is shown.
    pub const GROUP: usize = 5;
    /// Length of a code of the former format (96 bits in base64url).
    pub const LEGACY_LEN: usize = 16;

    /// A code from its canonical text (the alphabet's characters, `LEN` of them).
    pub(crate) fn from_canonical(text: String) -> Option<RoomCode> {
        let ok = text.len() == Self::LEN && text.bytes().all(|b| CODE_ALPHABET.contains(&b));
        ok.then_some(RoomCode(text))
    }

    /// Accepts a code sent by a client, normalised: upper case, spaces and dashes dropped, O read
    /// as 0 and I, L as 1. A code of the former format (exactly 16 base64url characters) is taken
    /// as it is.
    pub fn parse(text: &str) -> Option<RoomCode> {
        let text = text.trim();
        let legacy = text.len() == Self::LEGACY_LEN
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if legacy {
            return Some(RoomCode(text.to_string()));
        }
        let mut code = String::with_capacity(Self::LEN);
        for c in text.chars() {
            if c.is_whitespace() || matches!(c, '-' | '\u{2010}'..='\u{2015}' | '\u{2212}') {
                continue;
            }
            let c = match c.to_ascii_uppercase() {
                'O' => '0',
                'I' | 'L' => '1',
                c => c,
            };
            if code.len() == Self::LEN || !c.is_ascii() || !CODE_ALPHABET.contains(&(c as u8)) {
                return None;
            }
            code.push(c);
        }
        Self::from_canonical(code)
    }

    /// The canonical text (what messages, links and keys carry).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The code as people see it: groups of five joined by dashes (a former code as it is).
    pub fn grouped(&self) -> String {
        if self.0.len() != Self::LEN {
            return self.0.clone();
        }
        let groups: Vec<&str> = (0..Self::LEN)
            .step_by(Self::GROUP)
            .map(|start| &self.0[start..start + Self::GROUP])
            .collect();
        groups.join("-")
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A record and the version the store holds it at (bumped by every save).
#[derive(Clone, Debug, PartialEq)]
pub struct Versioned<T> {
    pub version: u64,
    pub value: T,
}

/// The answer of a compare-and-set save.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Save {
    /// Stored; the record's new version.
    Saved(u64),
    /// Someone saved first (or the room is gone): reload and retry.
    Conflict,
}

/// What a subscriber hears: something in the room changed, reload it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomEvent {
    /// The record was saved at this version.
    Changed { version: u64 },
    /// A seat's connection came or went (the record may be unchanged).
    Presence,
    /// The room was deleted.
    Deleted,
    /// A connection took the seat of a token (`join`, `resume`): it plays the seat from now on;
    /// an older connection with the same token is replaced. `token_hash` names the seat's
    /// player (the hash the record keeps), `at` (unix ms) orders takers on different instances.
    Seated {
        token_hash: String,
        conn: String,
        at: u64,
    },
}

/// Events of one room, from every instance.
pub type EventStream = BoxStream<'static, RoomEvent>;

#[derive(Debug, Error)]
pub enum StoreError {
    /// The backend does not answer (connection refused, timeout …).
    #[error("room store unavailable: {0}")]
    Unavailable(String),
    /// A stored record that does not read back.
    #[error("room record unreadable: {0}")]
    Corrupt(String),
    /// The backend is not part of this build (e.g. Redis without the `redis` feature).
    #[error("{0}")]
    NotBuilt(String),
}

/// Where rooms live. Every method is one round trip (or one lock) and is safe to call from any
/// task; backends are shared as `Arc<dyn RoomStore>`.
#[async_trait::async_trait]
pub trait RoomStore: Send + Sync + 'static {
    /// Stores a new room at version 1; `Ok(false)` if the code is taken.
    async fn create(
        &self,
        code: &RoomCode,
        record: &RoomRecord,
        ttl: Duration,
    ) -> Result<bool, StoreError>;
    /// The record and its version, or `None` if absent or expired.
    async fn load(&self, code: &RoomCode) -> Result<Option<Versioned<RoomRecord>>, StoreError>;
    /// Compare-and-set: stores `record` if the stored version is still `expected`, and sets the
    /// room's time to live. Durable when it returns `Saved`.
    async fn save(
        &self,
        code: &RoomCode,
        expected: u64,
        record: &RoomRecord,
        ttl: Duration,
    ) -> Result<Save, StoreError>;
    /// Sets the room's time to live, record unchanged; false if the room is gone (it is not
    /// created again).
    async fn touch(&self, code: &RoomCode, ttl: Duration) -> Result<bool, StoreError>;
    /// Removes the room and everything kept for it.
    async fn delete(&self, code: &RoomCode) -> Result<(), StoreError>;
    /// Tells every subscriber of the room (on every instance, this one included).
    async fn publish(&self, code: &RoomCode, event: &RoomEvent) -> Result<(), StoreError>;
    /// The room's events from now on.
    async fn subscribe(&self, code: &RoomCode) -> Result<EventStream, StoreError>;
    /// Renews the heartbeat of `instance` for `ttl`, drops lapsed ones, and returns the live
    /// instances (this one included), sorted. One call per instance per period, whatever the
    /// number of rooms.
    async fn heartbeat(&self, instance: &str, ttl: Duration) -> Result<Vec<String>, StoreError>;
    /// Takes `instance` out of the live set at once (a clean shutdown: its rooms move now).
    async fn end_heartbeat(&self, instance: &str) -> Result<(), StoreError>;
    /// Takes the room's lease for `owner` if it is free, already `owner`'s, or held by an
    /// instance not in `live` (compare-and-set); true if `owner` holds it now. The lease is not
    /// renewed: it lasts until released, taken over or the room goes.
    async fn acquire_lease(
        &self,
        code: &RoomCode,
        owner: &str,
        live: &[String],
    ) -> Result<bool, StoreError>;
    /// Gives the lease up if `owner` holds it.
    async fn release_lease(&self, code: &RoomCode, owner: &str) -> Result<(), StoreError>;
    /// Marks `seat` as connected through connection `conn` of `instance` (an older connection's
    /// entry for the seat is replaced). Seats from [`PRESENCE_SEATS`] on are not recorded.
    async fn set_presence(
        &self,
        code: &RoomCode,
        seat: u8,
        conn: &str,
        instance: &str,
    ) -> Result<(), StoreError>;
    /// Clears the entry of `seat` if `conn` still owns it.
    async fn clear_presence(&self, code: &RoomCode, seat: u8, conn: &str)
        -> Result<(), StoreError>;
    /// Seats with a presence entry of an instance in `live`, ascending.
    async fn present_seats(&self, code: &RoomCode, live: &[String]) -> Result<Vec<u8>, StoreError>;
    /// Health: the backend answers.
    async fn ping(&self) -> Result<(), StoreError>;
}

/// Seats a presence entry can name (the largest game has 6 players).
pub const PRESENCE_SEATS: u8 = 8;

/// The current meaning of [`RoomRecord`]; bumped when it changes.
pub const RECORD_FORMAT: u32 = 1;

/// A room is deleted this long after it was created …
pub const ROOM_LIFETIME_MS: u64 = 24 * 60 * 60 * 1000;
/// … or this long after everyone left, whichever comes first.
pub const EMPTY_ROOM_MS: u64 = 30 * 60 * 1000;

/// Everything a room is, as stored (JSON). The game itself is not stored: it is rebuilt by
/// replaying `moves` through `damas::session`, so the record cannot hold an illegal position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomRecord {
    pub format: u32,
    pub code: RoomCode,
    /// The game and player count, as `damas::session::VariantSetup` reads them.
    pub game: GameChoice,
    /// The room's clock (`None`: untimed).
    pub clock: Option<ClockSettings>,
    /// One entry per seat of the game, in seat order (seat 0 moves first).
    pub seats: Vec<SeatRecord>,
    /// False while the room waits for players; moves are refused until then.
    pub started: bool,
    /// The accepted moves of the current game, in notation, in order.
    pub moves: Vec<String>,
    /// Each seat's clock (empty when untimed).
    pub clocks: Vec<SeatClock>,
    /// Unix ms when the seat to move began its turn (the running clock's start); `None` before
    /// the start and after the end.
    pub turn_started_at: Option<u64>,
    /// A seat that resigned (replayed into the session).
    pub resigned: Option<u8>,
    /// The end, once decided (by the rules, a resignation or a clock).
    pub result: Option<RoomResult>,
    /// Games played before this one in the room (0 for the first).
    pub rematch: u32,
    /// The CPU's seed for this game.
    pub seed: u64,
    /// Unix ms of the creation.
    pub created_at: u64,
    /// Unix ms since when no seat has been connected (`None` while someone is).
    pub emptied_at: Option<u64>,
    /// How the room came to be: friends by link, a game against the CPU, a pairing.
    #[serde(default)]
    pub kind: RoomKind,
    /// Draw offers of a 2-player game (see `offers`).
    #[serde(default)]
    pub offers: DrawOffers,
    /// Moves taken back by undo, the next one to redo last (rooms against the CPU only).
    #[serde(default)]
    pub redo: Vec<String>,
}

/// How a room came to be; it decides the CPU's level, undo, and whether a result is rated.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomKind {
    /// Opened by a player for friends (the CPU, medium, may take free seats).
    #[default]
    Friends,
    /// "Play the CPU": one person, the CPU at `level` in every other seat, no clock, undo/redo.
    Cpu { level: String },
    /// Made by a pairing pool (`pools`): two people, or one person and the CPU standing in at
    /// `cpu_level` (never rated).
    Pool {
        pool: String,
        rated: bool,
        #[serde(default)]
        cpu_level: Option<String>,
        /// Each seat's account (rated games only count between two accounts).
        #[serde(default)]
        accounts: Vec<Option<String>>,
    },
}

/// The game a room plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameChoice {
    /// `diamond`, `capture`, `english`, `turkish` or `international`.
    pub kind: String,
    pub players: u8,
    #[serde(default)]
    pub long_jump: bool,
}

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// Free: a friend may join here.
    Empty,
    Human,
    /// The CPU (medium) from the start ("start with the CPU in the free seats").
    Cpu,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub kind: SeatKind,
    /// The player's cleaned nickname (humans only).
    pub nickname: Option<String>,
    /// Hex SHA-256 of the seat's secret token; the token itself is never stored.
    pub token_hash: Option<String>,
    /// The player left (3+ players: the CPU plays the seat from then on).
    pub left: bool,
    /// Unix ms since when the player has had no connection (the CPU takes over 45 s later).
    pub away_since: Option<u64>,
}

impl SeatRecord {
    pub fn empty() -> SeatRecord {
        SeatRecord {
            kind: SeatKind::Empty,
            nickname: None,
            token_hash: None,
            left: false,
            away_since: None,
        }
    }
}

/// A room's clock: main time, then byo-yomi periods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSettings {
    pub main_ms: u64,
    pub periods: u32,
    pub period_ms: u64,
}

/// One seat's clock between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatClock {
    /// Main time left.
    pub main_ms: u64,
    /// Byo-yomi periods left (a period used up is gone).
    pub periods: u32,
}

/// How a room's game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomResult {
    /// `None`: a draw.
    pub winner: Option<u8>,
    /// The rules' end reason (`damas` `EndReason`, snake_case), or `time` for a clock.
    pub reason: String,
    /// The seat whose clock ran out, for a time loss.
    #[serde(default)]
    pub flagged: Option<u8>,
    /// A rated game's change for each seat, once the player store has written it (shortly
    /// after the end; `None` before that and for every game that is not rated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Vec<SeatRating>>,
}

/// One seat's rating before and after a rated game (unrounded), and whether it is still
/// provisional after it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRating {
    pub before: f64,
    pub after: f64,
    pub provisional: bool,
}

// Ratings come from the player store's arithmetic on finite numbers, never NaN: equality is total.
impl Eq for SeatRating {}

impl RoomRecord {
    /// The level of the room's CPU seats (medium unless the room says otherwise).
    pub fn cpu_level(&self) -> &str {
        match &self.kind {
            RoomKind::Cpu { level } => level,
            RoomKind::Pool {
                cpu_level: Some(level),
                ..
            } => level,
            _ => CPU_LEVEL,
        }
    }

    /// Unix ms at which the room is deleted: 24 h after creation, or 30 min after everyone left.
    pub fn expires_at(&self) -> u64 {
        let lifetime = self.created_at.saturating_add(ROOM_LIFETIME_MS);
        match self.emptied_at {
            Some(at) => lifetime.min(at.saturating_add(EMPTY_ROOM_MS)),
            None => lifetime,
        }
    }

    /// The time to live to pass to `create`/`save`/`touch` at `now_ms` (at least 1 ms): until
    /// [`RoomRecord::expires_at`], but never more than [`EMPTY_ROOM_MS`] ahead. The hub holding
    /// the room's lease renews it while someone is connected ([`RoomStore::touch`]), so a room
    /// whose instances all died with players in it expires like a room everyone left.
    pub fn ttl(&self, now_ms: u64) -> Duration {
        let left = self.expires_at().saturating_sub(now_ms);
        Duration::from_millis(left.clamp(1, EMPTY_ROOM_MS))
    }
}
