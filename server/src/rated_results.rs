//! Where the end of a rated game goes: the game as the ratings see it, and the seam
//! ([`RatedResults`]) through which it is handed to whoever keeps the ratings.

use crate::store::{RoomCode, RoomKind, RoomRecord, SeatRating};

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
