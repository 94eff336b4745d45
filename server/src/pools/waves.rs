//! The waves: every pool's waiting players paired (or given the CPU) and their rooms made.

use super::choice::{pool_clock, Opponent, PoolChoice, PoolNotice};
use super::pairing::{cpu_level_for, Decision, WaitingEntry};
use crate::error::RoomError;
use crate::lobby;
use crate::shared::Shared;
use crate::store::{RoomCode, RoomKind, SeatKind};
use rand::Rng;
use std::sync::Arc;

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
    let delivered_here =
        entry.instance == shared.config.instance && shared.pools.deliver(&entry.id, notice.clone());
    #[cfg(feature = "redis")]
    if !delivered_here {
        if let Some(redis) = &shared.pools.redis {
            if let Err(error) = redis.publish(&entry.instance, &entry.id, &notice).await {
                tracing::warn!(%error, "pairing notice not published");
            }
        }
    }
    #[cfg(not(feature = "redis"))]
    let _ = (delivered_here, notice);
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
