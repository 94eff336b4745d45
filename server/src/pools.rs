//! Quick pairing: "play someone at random". A player enters the pool of a game kind (the five
//! games' 2-player forms), casual or rated; the pools pair their players in waves, and a pairing
//! makes an ordinary room (clock, takeover, reconnect, rematch as every room).
//!
//! - Waves every [`WAVE`] (2 s): a pool's players are sorted by rating, and neighbours are paired
//!   by a matching that first pairs as many players as it can, then minimises the rating gaps
//!   ([`pair_wave`]). A pair is accepted only within both players' rating limits, which widen with
//!   the waves each has missed ([`rating_limit`]), the way lichess's pools work.
//! - A player is never paired with themself (two devices, one account: same player key) and, when
//!   others wait too, not with the opponent of their previous pairing.
//! - Nobody free after [`CPU_AFTER`] (20 s; `Config::pool_cpu_after`): the CPU stands in, at a
//!   level chosen from the player's rating ([`cpu_level_for`]), shown as the CPU (a `cpu` seat);
//!   such a game is casual, never rated.
//! - Rated pools need a signed-in account ([`PlayerIdentity::account`]); a guest is refused. A
//!   rated game's end is handed to a [`RatedResults`] (the seam where the ratings are updated).
//!
//! This module keeps the pools of one server instance in memory. The pairing itself
//! ([`pair_wave`]) is a pure function, so a shared backend (a sorted set per pool in Redis, waves
//! run by the holder of a pool lease) only has to gather the waiting players and hand them over.

use crate::clocks::ENGLISH_DEFAULT;
use crate::error::RoomError;
use crate::lobby;
use crate::shared::Shared;
use crate::store::{
    ClockSettings, GameChoice, RoomCode, RoomKind, RoomRecord, SeatKind, SeatRating,
};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// How often a pool pairs its waiting players.
pub const WAVE: Duration = Duration::from_secs(2);
/// How long a player waits for a person before the CPU stands in.
pub const CPU_AFTER: Duration = Duration::from_secs(20);
/// Everybody's rating before their first rated game (the seed: Elo from 1,200).
pub const DEFAULT_RATING: u32 = 1200;
/// The rating gap accepted in a player's first wave …
pub const BASE_GAP: u32 = 100;
/// … widened by this much for every wave they missed …
pub const GAP_PER_WAVE: u32 = 50;
/// … up to this.
pub const MAX_GAP: u32 = 1000;
/// Previous opponents remembered (one entry per player; the oldest are forgotten beyond this).
const REMEMBERED_OPPONENTS: usize = 100_000;

/// Clocks of the pools besides English (the seed's 5 min + 3 × 30 s): the longer draughts games
/// get 10 min + 3 × 30 s; Diamond and Capture for two, 5 min + 3 × 30 s.
pub const LONG_DRAUGHTS_CLOCK: ClockSettings = ClockSettings {
    main_ms: 10 * 60 * 1000,
    periods: 3,
    period_ms: 30 * 1000,
};

/// The pool a player asks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolChoice {
    /// `english`, `turkish`, `international`, `diamond` or `capture` (2 players).
    pub kind: String,
    #[serde(default)]
    pub rated: bool,
}

impl PoolChoice {
    /// Checks the kind; the pool's name (`english/rated`, `diamond/casual` …).
    pub fn check(&self) -> Result<String, RoomError> {
        if pool_clock(&self.kind).is_none() {
            return Err(RoomError::BadPool(format!(
                "no pool for '{}' (expected english, turkish, international, diamond or capture)",
                self.kind.chars().take(24).collect::<String>()
            )));
        }
        Ok(format!(
            "{}/{}",
            self.kind,
            if self.rated { "rated" } else { "casual" }
        ))
    }

    pub fn game(&self) -> GameChoice {
        GameChoice {
            kind: self.kind.clone(),
            players: 2,
            long_jump: false,
        }
    }
}

/// A pool's clock: English the seed's 5 min + 3 × 30 s; see [`LONG_DRAUGHTS_CLOCK`].
pub fn pool_clock(kind: &str) -> Option<ClockSettings> {
    match kind {
        "english" | "diamond" | "capture" => Some(ENGLISH_DEFAULT),
        "turkish" | "international" => Some(LONG_DRAUGHTS_CLOCK),
        _ => None,
    }
}

/// Who a player is to the pools: a guest (the key is the connection's, no account, the default
/// rating) until the connection signs in (`sign_in`), then the account and its rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerIdentity {
    /// Never paired with an entry of the same key (an account's id, or a guest's connection).
    pub player: String,
    /// The signed-in account, if any (rated pools need one).
    pub account: Option<String>,
    /// The player's rating in the pool's game kind.
    pub rating: u32,
}

impl PlayerIdentity {
    pub fn guest(connection: &str) -> PlayerIdentity {
        PlayerIdentity {
            player: format!("guest:{connection}"),
            account: None,
            rating: DEFAULT_RATING,
        }
    }
}

/// The rating gap a player accepts after missing `waves_missed` waves.
pub fn rating_limit(waves_missed: u32) -> u32 {
    BASE_GAP
        .saturating_add(GAP_PER_WAVE.saturating_mul(waves_missed))
        .min(MAX_GAP)
}

/// The CPU's level when it stands in for a player of `rating`.
pub fn cpu_level_for(rating: u32) -> &'static str {
    match rating {
        0..=999 => "easy",
        1000..=1399 => "medium",
        1400..=1799 => "hard",
        _ => "expert",
    }
}

/// One player waiting in a pool, as a wave sees them.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub player: String,
    pub rating: u32,
    pub waves_missed: u32,
    /// The opponent of this player's previous pairing, if remembered.
    pub previous_opponent: Option<String>,
}

fn compatible(a: &Candidate, b: &Candidate, others_wait: bool) -> bool {
    if a.player == b.player {
        return false;
    }
    if others_wait
        && (a.previous_opponent.as_deref() == Some(b.player.as_str())
            || b.previous_opponent.as_deref() == Some(a.player.as_str()))
    {
        return false;
    }
    let gap = a.rating.abs_diff(b.rating);
    gap <= rating_limit(a.waves_missed).min(rating_limit(b.waves_missed))
}

/// One wave: the pairs (indices into `waiting`) to make. Sorted by rating, a player is paired
/// with a neighbour: the matching pairs as many players as it can, then with the smallest sum of
/// gaps (dynamic programming over the sorted list).
pub fn pair_wave(waiting: &[Candidate]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by_key(|&i| {
        (
            waiting[i].rating,
            std::cmp::Reverse(waiting[i].waves_missed),
        )
    });
    let others_wait = waiting.len() > 2;
    let n = order.len();
    // best[i]: (pairs, -gaps) over the first i players of `order`, and whether player i-1 is
    // paired with i-2.
    let mut best: Vec<(usize, i64, bool)> = vec![(0, 0, false); n + 1];
    for i in 1..=n {
        best[i] = (best[i - 1].0, best[i - 1].1, false);
        if i >= 2 {
            let (a, b) = (&waiting[order[i - 2]], &waiting[order[i - 1]]);
            if compatible(a, b, others_wait) {
                let gap = i64::from(a.rating.abs_diff(b.rating));
                let candidate = (best[i - 2].0 + 1, best[i - 2].1 - gap);
                if (candidate.0, candidate.1) > (best[i].0, best[i].1) {
                    best[i] = (candidate.0, candidate.1, true);
                }
            }
        }
    }
    let mut pairs = Vec::new();
    let mut i = n;
    while i >= 2 {
        if best[i].2 {
            pairs.push((order[i - 2], order[i - 1]));
            i -= 2;
        } else {
            i -= 1;
        }
    }
    pairs.reverse();
    pairs
}

/// The end of a rated game, handed to whoever keeps the ratings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    pub room: RoomCode,
    /// Games played in the room before this one (room code and this number name the game once).
    pub game_number: u32,
    /// The pool's name (`english/rated` …).
    pub pool: String,
    pub kind: String,
    /// The account of each seat.
    pub accounts: [String; 2],
    /// `None`: a draw.
    pub winner: Option<u8>,
    pub reason: String,
    pub moves: Vec<String>,
    /// The game's record (PDN for draughts, record text for the star games) with its tags, the
    /// players named by their seats' nicknames; empty if the record could not be replayed.
    pub pdn: String,
    /// The record's tag of each seat's player (`White`, `Black` …), for naming them again.
    pub name_tags: [String; 2],
}

/// Told each seat's rating change once a rated game is written (seat 0 first); never called
/// when it could not be written.
pub type RatingsReport = Box<dyn FnOnce([SeatRating; 2]) + Send>;

/// Where the result of a rated game goes (the ratings store). Called once per game, by the
/// instance whose save ended it; aborted games and games with the CPU never reach it.
pub trait RatedResults: Send + Sync + std::fmt::Debug {
    fn record(&self, game: RatedGame, report: RatingsReport);
}

/// Until ratings are kept: the result is only logged.
#[derive(Debug, Default)]
pub struct LogRatedResults;

impl RatedResults for LogRatedResults {
    fn record(&self, game: RatedGame, _report: RatingsReport) {
        tracing::info!(room = %game.room, pool = %game.pool, winner = ?game.winner, "rated game ended (ratings not kept by this build)");
    }
}

/// The rated game `before` → `after` ended with, if this save ended one.
pub fn rated_end(before: &RoomRecord, after: &RoomRecord, now: u64) -> Option<RatedGame> {
    let RoomKind::Pool {
        pool,
        rated: true,
        cpu_level: None,
        accounts,
    } = &after.kind
    else {
        return None;
    };
    let result = after.result.as_ref()?;
    if before.result.is_some() || result.reason == crate::offers::ABORTED {
        return None;
    }
    let [Some(a), Some(b)] = accounts.as_slice() else {
        return None;
    };
    let nicknames = [0, 1].map(|seat| {
        after
            .seats
            .get(seat)
            .and_then(|s| s.nickname.clone())
            .unwrap_or_else(|| "?".into())
    });
    let record = crate::rated_record::rated_record(
        after,
        &crate::rated_record::RecordTags {
            names: [&nicknames[0], &nicknames[1]],
            kind: &after.game.kind,
            game_number: after.rematch,
            finished_ms: now,
        },
    );
    Some(RatedGame {
        name_tags: record.name_tags,
        room: after.code.clone(),
        game_number: after.rematch,
        pool: pool.clone(),
        kind: after.game.kind.clone(),
        accounts: [a.clone(), b.clone()],
        winner: result.winner,
        reason: result.reason.clone(),
        moves: after.moves.clone(),
        pdn: record.text,
    })
}

/// What a waiting player hears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PoolNotice {
    /// A room was made for the player: the seat whose token the player holds is theirs.
    Paired {
        code: RoomCode,
        opponent: Opponent,
        rated: bool,
    },
}

/// Who the player was paired with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opponent {
    /// `None` for the CPU.
    pub nickname: Option<String>,
    pub rating: Option<u32>,
    pub cpu: bool,
    /// The CPU's level when it stands in.
    pub level: Option<String>,
}

/// A player's place in a pool, for leaving it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    pub pool: String,
    pub id: String,
}

/// A waiting player as a pool keeps them (in memory, or as JSON in Redis). The seat token stays
/// with the player's connection: only its hash is here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingEntry {
    /// Random, unique across instances.
    pub id: String,
    /// The instance holding the player's connection (where the pairing is told).
    pub instance: String,
    pub choice: PoolChoice,
    pub player: String,
    pub account: Option<String>,
    pub rating: u32,
    pub nickname: String,
    pub token_hash: String,
    pub joined_at: u64,
    pub waves_missed: u32,
}

/// What a wave decided for one pool.
pub enum Decision {
    Pair(WaitingEntry, WaitingEntry),
    Cpu(WaitingEntry),
}

/// One wave over one pool's players at `now`: the pairs, the CPU for those who waited
/// `cpu_after_ms`, and the rest (one more wave missed each).
pub fn decide_pool(
    entries: Vec<WaitingEntry>,
    previous_opponent: impl Fn(&str) -> Option<String>,
    now: u64,
    cpu_after_ms: u64,
) -> (Vec<Decision>, Vec<WaitingEntry>) {
    let candidates: Vec<Candidate> = entries
        .iter()
        .map(|e| Candidate {
            player: e.player.clone(),
            rating: e.rating,
            waves_missed: e.waves_missed,
            previous_opponent: previous_opponent(&e.player),
        })
        .collect();
    let pairs = pair_wave(&candidates);
    let mut taken: Vec<Option<WaitingEntry>> = entries.into_iter().map(Some).collect();
    let mut decisions = Vec::new();
    for (a, b) in pairs {
        if let (Some(a), Some(b)) = (taken[a].take(), taken[b].take()) {
            decisions.push(Decision::Pair(a, b));
        }
    }
    let mut rest = Vec::new();
    for mut entry in taken.into_iter().flatten() {
        if now.saturating_sub(entry.joined_at) >= cpu_after_ms {
            decisions.push(Decision::Cpu(entry));
        } else {
            entry.waves_missed += 1;
            rest.push(entry);
        }
    }
    (decisions, rest)
}

/// Every pool's name, for the waves of a shared backend.
pub fn all_pools() -> Vec<PoolChoice> {
    let mut pools = Vec::new();
    for kind in ["english", "turkish", "international", "diamond", "capture"] {
        for rated in [false, true] {
            pools.push(PoolChoice {
                kind: kind.into(),
                rated,
            });
        }
    }
    pools
}

#[derive(Default)]
struct MemoryPools {
    pools: HashMap<String, Vec<WaitingEntry>>,
    previous_opponent: HashMap<String, String>,
}

/// The pools: in this instance's memory, or shared through Redis (see `pool_redis`).
#[derive(Default)]
pub struct Pools {
    memory: Mutex<MemoryPools>,
    /// Connections of this instance waiting in a pool, by entry id.
    waiters: Mutex<HashMap<String, mpsc::UnboundedSender<PoolNotice>>>,
    #[cfg(feature = "redis")]
    redis: Option<crate::pool_redis::RedisPools>,
    /// With Redis: this instance's waiting entries (by id, with their pool), put back if the
    /// instance was taken for dead meanwhile (see `pool_redis`).
    #[cfg(feature = "redis")]
    local: Mutex<HashMap<String, (String, WaitingEntry)>>,
}

impl Pools {
    /// Pools shared by every instance on one Redis.
    #[cfg(feature = "redis")]
    pub fn redis(redis: crate::pool_redis::RedisPools) -> Pools {
        Pools {
            redis: Some(redis),
            ..Pools::default()
        }
    }

    fn memory(&self) -> std::sync::MutexGuard<'_, MemoryPools> {
        self.memory.lock().unwrap_or_else(|p| p.into_inner())
    }

    #[cfg(feature = "redis")]
    fn local(&self) -> std::sync::MutexGuard<'_, HashMap<String, (String, WaitingEntry)>> {
        self.local.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// This instance was taken for dead while it lived: its waiting players go back in Redis
    /// (those whose connections still wait).
    #[cfg(feature = "redis")]
    async fn put_back(&self) {
        let Some(redis) = &self.redis else {
            return;
        };
        let entries: Vec<(String, WaitingEntry)> = self
            .local()
            .values()
            .filter(|(_, entry)| self.is_waiting_here(&entry.id))
            .cloned()
            .collect();
        tracing::warn!(
            waiting = entries.len(),
            "this instance was taken for dead: its pool entries go back"
        );
        for (pool, entry) in entries {
            if let Err(error) = redis.add(&pool, &entry).await {
                tracing::warn!(%error, "pool entry not put back");
            }
        }
    }

    fn waiters(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::UnboundedSender<PoolNotice>>> {
        self.waiters.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Puts a player in a pool (`token_hash`: the hash of the seat token the player's connection
    /// keeps). Rated pools refuse guests.
    pub async fn join(
        &self,
        choice: PoolChoice,
        identity: PlayerIdentity,
        nickname: String,
        token_hash: String,
        instance: &str,
        now: u64,
    ) -> Result<(Ticket, mpsc::UnboundedReceiver<PoolNotice>), RoomError> {
        let pool = choice.check()?;
        if choice.rated && identity.account.is_none() {
            return Err(RoomError::SignInRequired);
        }
        let id = lobby::new_code().to_string();
        let entry = WaitingEntry {
            id: id.clone(),
            instance: instance.to_string(),
            choice,
            player: identity.player,
            account: identity.account,
            rating: identity.rating,
            nickname,
            token_hash,
            joined_at: now,
            waves_missed: 0,
        };
        let (notify, notices) = mpsc::unbounded_channel();
        self.waiters().insert(id.clone(), notify);
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            if let Err(error) = redis.add(&pool, &entry).await {
                self.waiters().remove(&id);
                return Err(error.into());
            }
            self.local().insert(id.clone(), (pool.clone(), entry));
            return Ok((Ticket { pool, id }, notices));
        }
        self.memory()
            .pools
            .entry(pool.clone())
            .or_default()
            .push(entry);
        Ok((Ticket { pool, id }, notices))
    }

    /// Takes a player out of their pool; false if they were no longer there (paired).
    /// The player's connection keeps hearing a pairing already made.
    pub async fn leave(&self, ticket: &Ticket) -> bool {
        let removed = self.remove_entry(ticket).await;
        if removed {
            self.forget(&ticket.id);
        }
        removed
    }

    async fn remove_entry(&self, ticket: &Ticket) -> bool {
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            return redis
                .remove(&ticket.pool, &ticket.id)
                .await
                .unwrap_or(false);
        }
        let mut state = self.memory();
        let Some(entries) = state.pools.get_mut(&ticket.pool) else {
            return false;
        };
        let before = entries.len();
        entries.retain(|e| e.id != ticket.id);
        let removed = entries.len() != before;
        if entries.is_empty() {
            state.pools.remove(&ticket.pool);
        }
        removed
    }

    /// Players waiting in this instance's memory pools.
    pub fn waiting(&self) -> usize {
        self.memory().pools.values().map(Vec::len).sum()
    }

    /// Tells a player of this instance about their pairing (false: not waiting here any more).
    pub fn deliver(&self, id: &str, notice: PoolNotice) -> bool {
        #[cfg(feature = "redis")]
        self.local().remove(id);
        match self.waiters().remove(id) {
            Some(notify) => notify.send(notice).is_ok(),
            None => false,
        }
    }

    /// The connection of entry `id` is gone: it hears nothing more.
    pub fn forget(&self, id: &str) {
        #[cfg(feature = "redis")]
        self.local().remove(id);
        self.waiters().remove(id);
    }

    fn is_waiting_here(&self, id: &str) -> bool {
        self.waiters().get(id).is_some_and(|n| !n.is_closed())
    }

    /// One wave of the memory pools.
    fn decide_memory(&self, now: u64, cpu_after_ms: u64) -> Vec<Decision> {
        let mut state = self.memory();
        let MemoryPools {
            pools,
            previous_opponent,
        } = &mut *state;
        let mut decisions = Vec::new();
        for entries in pools.values_mut() {
            // A player whose connection is gone is no longer waiting.
            let waiting: Vec<WaitingEntry> = std::mem::take(entries)
                .into_iter()
                .filter(|e| self.is_waiting_here(&e.id))
                .collect();
            let (decided, rest) = decide_pool(
                waiting,
                |player| previous_opponent.get(player).cloned(),
                now,
                cpu_after_ms,
            );
            *entries = rest;
            decisions.extend(decided);
        }
        pools.retain(|_, entries| !entries.is_empty());
        remember_opponents(previous_opponent, &decisions);
        decisions
    }

    /// Puts entries back after a room could not be made (the store is down): next wave.
    async fn requeue(&self, entries: Vec<WaitingEntry>) {
        for entry in entries {
            let pool = entry.choice.check().unwrap_or_default();
            #[cfg(feature = "redis")]
            if let Some(redis) = &self.redis {
                let _ = redis.add(&pool, &entry).await;
                continue;
            }
            self.memory().pools.entry(pool).or_default().push(entry);
        }
    }
}

/// Notes who met whom (a player is not paired with the same opponent twice in a row while others
/// wait).
pub fn remember_opponents(previous: &mut HashMap<String, String>, decisions: &[Decision]) {
    for decision in decisions {
        if let Decision::Pair(a, b) = decision {
            if previous.len() >= REMEMBERED_OPPONENTS {
                previous.clear();
            }
            previous.insert(a.player.clone(), b.player.clone());
            previous.insert(b.player.clone(), a.player.clone());
        }
    }
}

/// Runs the waves until the server shuts down (with Redis: the pools whose lease this instance
/// holds).
pub async fn run_waves(shared: Arc<Shared>) {
    let time = shared.config.time.clone();
    let wave_ms = shared.config.pool_wave.as_millis().max(1) as u64;
    let mut shutdown = shared.shutdown.clone();
    let mut next = time.now_ms() + wave_ms;
    loop {
        tokio::select! {
            _ = time.sleep_until(next) => {}
            _ = shutdown.changed() => return,
        }
        let now = time.now_ms();
        next = now + wave_ms;
        wave(&shared, now).await;
    }
}

/// With Redis: renews this instance's `alive` key every `pool_redis::HEARTBEAT` of real time
/// (whether the process lives is no matter of the game clock), until the server shuts down.
#[cfg(feature = "redis")]
pub async fn run_heartbeat(shared: Arc<Shared>) {
    let Some(redis) = &shared.pools.redis else {
        return;
    };
    let mut tick = tokio::time::interval(crate::pool_redis::HEARTBEAT);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut shutdown = shared.shutdown.clone();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => return,
        }
        match redis.beat(&shared.config.instance).await {
            Ok(true) => shared.pools.put_back().await,
            Ok(false) => {}
            Err(error) => tracing::warn!(%error, "pool heartbeat failed"),
        }
    }
}

/// One wave at `now` (the tests' clock may have jumped: every waiting player is judged by it).
pub async fn wave(shared: &Shared, now: u64) {
    let cpu_after = shared.config.pool_cpu_after.as_millis() as u64;
    #[cfg(feature = "redis")]
    let decisions = match &shared.pools.redis {
        Some(redis) => redis.decide(&shared.config.instance, now, cpu_after).await,
        None => shared.pools.decide_memory(now, cpu_after),
    };
    #[cfg(not(feature = "redis"))]
    let decisions = shared.pools.decide_memory(now, cpu_after);
    for decision in decisions {
        let made = match &decision {
            Decision::Pair(a, b) => make_pair_room(shared, a, b, now).await,
            Decision::Cpu(entry) => make_cpu_room(shared, entry, now).await,
        };
        let notices = match made {
            Ok(notices) => notices,
            Err(error) => {
                tracing::warn!(%error, "pairing room not made; the players wait for the next wave");
                let entries = match decision {
                    Decision::Pair(a, b) => vec![a, b],
                    Decision::Cpu(entry) => vec![entry],
                };
                shared.pools.requeue(entries).await;
                continue;
            }
        };
        for (entry, notice) in notices {
            tell(shared, &entry, notice).await;
        }
    }
}

/// Tells a paired player, wherever their connection is.
async fn tell(shared: &Shared, entry: &WaitingEntry, notice: PoolNotice) {
    if entry.instance == shared.config.instance && shared.pools.deliver(&entry.id, notice.clone()) {
        return;
    }
    #[cfg(feature = "redis")]
    if let Some(redis) = &shared.pools.redis {
        if let Err(error) = redis.publish(&entry.instance, &entry.id, &notice).await {
            tracing::warn!(%error, "pairing notice not published");
        }
    }
}

fn seat_record(nickname: &str, token_hash: String) -> crate::store::SeatRecord {
    crate::store::SeatRecord {
        kind: SeatKind::Human,
        nickname: Some(nickname.to_string()),
        token_hash: Some(token_hash),
        left: false,
        away_since: None,
    }
}

/// Stores a started room for `seats` (each `Some((nickname, token hash))`, `None`: the CPU).
async fn store_room(
    shared: &Shared,
    choice: &PoolChoice,
    seats: [Option<(&str, String)>; 2],
    kind: RoomKind,
    now: u64,
) -> Result<RoomCode, RoomError> {
    for _ in 0..3 {
        let code = lobby::new_code();
        let creator = seats[0].clone().or(seats[1].clone());
        let (name, hash) = creator.ok_or(RoomError::Busy)?;
        let (mut record, _) = lobby::new_room(
            code.clone(),
            choice.game(),
            pool_clock(&choice.kind),
            name.to_string(),
            hash,
            now,
        )?;
        for (index, seat) in seats.iter().enumerate() {
            record.seats[index] = match seat {
                Some((name, hash)) => seat_record(name, hash.clone()),
                None => crate::store::SeatRecord {
                    kind: SeatKind::Cpu,
                    ..crate::store::SeatRecord::empty()
                },
            };
        }
        record.kind = kind.clone();
        lobby::start_with_cpu(&mut record, now)?;
        if shared.store.create(&code, &record, record.ttl(now)).await? {
            return Ok(code);
        }
    }
    Err(RoomError::Busy)
}

async fn make_pair_room(
    shared: &Shared,
    a: &WaitingEntry,
    b: &WaitingEntry,
    now: u64,
) -> Result<Vec<(WaitingEntry, PoolNotice)>, RoomError> {
    // Colours at random (English draws them in every room; the other games too, for fairness).
    let (first, second) = if rand::thread_rng().gen_bool(0.5) {
        (a, b)
    } else {
        (b, a)
    };
    let rated = a.choice.rated;
    let pool = a.choice.check()?;
    let kind = RoomKind::Pool {
        pool: pool.clone(),
        rated,
        cpu_level: None,
        accounts: vec![first.account.clone(), second.account.clone()],
    };
    let code = store_room(
        shared,
        &a.choice,
        [
            Some((first.nickname.as_str(), first.token_hash.clone())),
            Some((second.nickname.as_str(), second.token_hash.clone())),
        ],
        kind,
        now,
    )
    .await?;
    tracing::info!(room = %code, %pool, "players paired");
    let notice = |opponent: &WaitingEntry| PoolNotice::Paired {
        code: code.clone(),
        opponent: Opponent {
            nickname: Some(opponent.nickname.clone()),
            rating: Some(opponent.rating),
            cpu: false,
            level: None,
        },
        rated,
    };
    Ok(vec![
        (first.clone(), notice(second)),
        (second.clone(), notice(first)),
    ])
}

async fn make_cpu_room(
    shared: &Shared,
    entry: &WaitingEntry,
    now: u64,
) -> Result<Vec<(WaitingEntry, PoolNotice)>, RoomError> {
    let level = cpu_level_for(entry.rating);
    let person = Some((entry.nickname.as_str(), entry.token_hash.clone()));
    let seats = if rand::thread_rng().gen_bool(0.5) {
        [person, None]
    } else {
        [None, person]
    };
    let pool = entry.choice.check()?;
    let kind = RoomKind::Pool {
        pool: pool.clone(),
        // The CPU never plays a rated game.
        rated: false,
        cpu_level: Some(level.to_string()),
        accounts: Vec::new(),
    };
    let code = store_room(shared, &entry.choice, seats, kind, now).await?;
    tracing::info!(room = %code, %pool, level, "the CPU stands in");
    let notice = PoolNotice::Paired {
        code,
        opponent: Opponent {
            nickname: None,
            rating: None,
            cpu: true,
            level: Some(level.to_string()),
        },
        rated: false,
    };
    Ok(vec![(entry.clone(), notice)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(player: &str, rating: u32, waves_missed: u32) -> Candidate {
        Candidate {
            player: player.into(),
            rating,
            waves_missed,
            previous_opponent: None,
        }
    }

    fn players(pairs: &[(usize, usize)], waiting: &[Candidate]) -> Vec<(String, String)> {
        let mut named: Vec<(String, String)> = pairs
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (waiting[a].player.clone(), waiting[b].player.clone());
                if a < b {
                    (a, b)
                } else {
                    (b, a)
                }
            })
            .collect();
        named.sort();
        named
    }

    #[test]
    fn nearest_ratings_are_paired_within_limits_that_widen() {
        // Sorted: a 1200, b 1210, c 1290, d 1300: a-b and c-d (gaps 10 + 10), not b-c.
        let waiting = vec![
            candidate("c", 1290, 0),
            candidate("a", 1200, 0),
            candidate("d", 1300, 0),
            candidate("b", 1210, 0),
        ];
        assert_eq!(
            players(&pair_wave(&waiting), &waiting),
            vec![("a".into(), "b".into()), ("c".into(), "d".into())]
        );
        // 300 apart: not in the first wave; after 4 missed waves both accept 300.
        let far = vec![candidate("a", 1200, 0), candidate("b", 1500, 0)];
        assert!(pair_wave(&far).is_empty());
        let far = vec![candidate("a", 1200, 4), candidate("b", 1500, 3)];
        assert!(pair_wave(&far).is_empty(), "the stricter limit holds");
        let far = vec![candidate("a", 1200, 4), candidate("b", 1500, 4)];
        assert_eq!(pair_wave(&far).len(), 1);
        assert_eq!(rating_limit(0), 100);
        assert_eq!(rating_limit(4), 300);
        assert_eq!(rating_limit(1000), MAX_GAP);
    }

    #[test]
    fn never_oneself_and_not_the_previous_opponent_when_others_wait() {
        let same = vec![candidate("x", 1200, 0), candidate("x", 1200, 0)];
        assert!(pair_wave(&same).is_empty());
        let mut a = candidate("a", 1200, 0);
        a.previous_opponent = Some("b".into());
        let b = candidate("b", 1201, 0);
        let c = candidate("c", 1250, 0);
        // Alone together they may meet again …
        assert_eq!(pair_wave(&[a.clone(), b.clone()]).len(), 1);
        // … but with someone else waiting, not: b meets c (gap 49), a waits.
        let waiting = vec![a.clone(), b, c];
        assert_eq!(
            players(&pair_wave(&waiting), &waiting),
            vec![("b".into(), "c".into())]
        );
        // The one still waiting with a newcomer of their own level is paired next wave.
        a.waves_missed = 1;
        let waiting = vec![a, candidate("d", 1190, 0)];
        assert_eq!(pair_wave(&waiting), vec![(1, 0)]);
    }

    #[test]
    fn as_many_pairs_as_possible_then_smallest_gaps() {
        // 1200, 1250, 1290, 1340: a-b + c-d (50 + 50) pairs all four; b-c (40) would leave two.
        let waiting = vec![
            candidate("a", 1200, 0),
            candidate("b", 1250, 0),
            candidate("c", 1290, 0),
            candidate("d", 1340, 0),
        ];
        assert_eq!(pair_wave(&waiting).len(), 2);
    }

    #[test]
    fn cpu_levels_and_clocks() {
        assert_eq!(cpu_level_for(DEFAULT_RATING), "medium");
        assert_eq!(cpu_level_for(900), "easy");
        assert_eq!(cpu_level_for(1500), "hard");
        assert_eq!(cpu_level_for(2000), "expert");
        assert_eq!(pool_clock("english"), Some(ENGLISH_DEFAULT));
        assert_eq!(pool_clock("international"), Some(LONG_DRAUGHTS_CLOCK));
        assert_eq!(pool_clock("chess"), None);
        let bad = PoolChoice {
            kind: "chess".into(),
            rated: false,
        };
        assert_eq!(bad.check().unwrap_err().code(), "bad_pool");
    }

    #[tokio::test]
    async fn guests_are_refused_rated_pools() {
        let pools = Pools::default();
        let rated = PoolChoice {
            kind: "english".into(),
            rated: true,
        };
        let guest = PlayerIdentity::guest("c1");
        let error = pools
            .join(rated.clone(), guest, "Ana".into(), "h".into(), "i", 0)
            .await
            .unwrap_err();
        assert_eq!(error.code(), "sign_in_required");
        let member = PlayerIdentity {
            account: Some("acct-1".into()),
            ..PlayerIdentity::guest("c2")
        };
        let (ticket, _notices) = pools
            .join(rated, member, "Bea".into(), "h".into(), "i", 0)
            .await
            .unwrap();
        assert_eq!(pools.waiting(), 1);
        assert!(pools.leave(&ticket).await);
        assert!(!pools.leave(&ticket).await);
        assert_eq!(pools.waiting(), 0);
    }
}
