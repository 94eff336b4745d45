//! Room clocks: main time, then byo-yomi periods (the English seed: "5 minutes of main time plus
//! 3 byo-yomi periods of 30 seconds; once the main time is over you have 30 seconds per move, and
//! each period you let run out is spent"; "if all your time runs out, you lose; your clock keeps
//! running while you are disconnected").
//!
//! A clock is a room option for every game; only English has one by default. The running clock
//! is `turn_started_at` (absolute unix ms) in the record, so any instance can judge a flag.

use crate::error::RoomError;
use crate::store::{ClockSettings, RoomRecord, SeatClock};
use serde::Deserialize;

/// The `clock` of a `create` message.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum ClockChoice {
    /// `"default"` (the game's: English 5 min + 3 × 30 s, others none) or `"none"`.
    Named(String),
    Settings(ClockSettings),
}

/// English online and with friends: 5 min + 3 × 30 s.
pub const ENGLISH_DEFAULT: ClockSettings = ClockSettings {
    main_ms: 5 * 60 * 1000,
    periods: 3,
    period_ms: 30 * 1000,
};

/// Bounds of a clock a room may ask for (a day of main time, 10 periods of 10 minutes).
const MAX_MAIN_MS: u64 = 24 * 60 * 60 * 1000;
const MAX_PERIODS: u32 = 10;
const MAX_PERIOD_MS: u64 = 10 * 60 * 1000;
/// Under a second per move would flag players for network latency alone.
const MIN_PERIOD_MS: u64 = 1000;

/// The clock a `create` message asks for, checked.
pub fn choose(
    kind: &str,
    choice: Option<&ClockChoice>,
) -> Result<Option<ClockSettings>, RoomError> {
    match choice {
        None => Ok(default_for(kind)),
        Some(ClockChoice::Named(name)) if name == "default" => Ok(default_for(kind)),
        Some(ClockChoice::Named(name)) if name == "none" => Ok(None),
        Some(ClockChoice::Named(name)) => Err(RoomError::BadClock(format!(
            "unknown clock '{name}' (expected \"default\", \"none\" or settings)"
        ))),
        Some(ClockChoice::Settings(settings)) => validate(*settings).map(Some),
    }
}

fn default_for(kind: &str) -> Option<ClockSettings> {
    (kind == "english").then_some(ENGLISH_DEFAULT)
}

fn validate(settings: ClockSettings) -> Result<ClockSettings, RoomError> {
    if settings.main_ms > MAX_MAIN_MS {
        return Err(RoomError::BadClock("main time above 24 hours".into()));
    }
    if settings.periods > MAX_PERIODS {
        return Err(RoomError::BadClock(format!(
            "at most {MAX_PERIODS} byo-yomi periods"
        )));
    }
    if settings.periods > 0 && !(MIN_PERIOD_MS..=MAX_PERIOD_MS).contains(&settings.period_ms) {
        return Err(RoomError::BadClock(
            "a byo-yomi period lasts from 1 s to 10 min".into(),
        ));
    }
    if settings.main_ms == 0 && settings.periods == 0 {
        return Err(RoomError::BadClock("a clock needs some time".into()));
    }
    Ok(settings)
}

/// Every seat's clock full, at the start of a game.
pub fn fresh(settings: Option<ClockSettings>, seats: usize) -> Vec<SeatClock> {
    settings
        .map(|s| {
            vec![
                SeatClock {
                    main_ms: s.main_ms,
                    periods: s.periods,
                };
                seats
            ]
        })
        .unwrap_or_default()
}

/// When the clock of the seat to move runs out (unix ms), if a clock runs.
pub fn flag_deadline(record: &RoomRecord, to_move: u8) -> Option<u64> {
    let settings = record.clock?;
    let started = record.turn_started_at?;
    let clock = record.clocks.get(usize::from(to_move))?;
    Some(
        started
            .saturating_add(clock.main_ms)
            .saturating_add(u64::from(clock.periods).saturating_mul(settings.period_ms)),
    )
}

/// What a turn of `elapsed` ms leaves on `clock`: `None` if it ran out.
pub fn charge(settings: ClockSettings, clock: SeatClock, elapsed: u64) -> Option<SeatClock> {
    if elapsed <= clock.main_ms {
        return Some(SeatClock {
            main_ms: clock.main_ms - elapsed,
            periods: clock.periods,
        });
    }
    let over = elapsed - clock.main_ms;
    // Each period used up is gone; a move inside a period keeps it.
    let spent = over / settings.period_ms.max(1);
    if spent >= u64::from(clock.periods) {
        return None;
    }
    Some(SeatClock {
        main_ms: 0,
        periods: clock.periods - spent as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: ClockSettings = ENGLISH_DEFAULT;

    fn clock(main_ms: u64, periods: u32) -> SeatClock {
        SeatClock { main_ms, periods }
    }

    #[test]
    fn main_time_first_then_periods() {
        assert_eq!(
            charge(S, clock(300_000, 3), 10_000),
            Some(clock(290_000, 3))
        );
        assert_eq!(charge(S, clock(300_000, 3), 300_000), Some(clock(0, 3)));
        // 20 s into the first period: kept.
        assert_eq!(charge(S, clock(5_000, 3), 25_000), Some(clock(0, 3)));
        // A whole period used up is gone, the next one starts.
        assert_eq!(charge(S, clock(0, 3), 30_000), Some(clock(0, 2)));
        assert_eq!(charge(S, clock(0, 3), 65_000), Some(clock(0, 1)));
        // The last period used up: out of time.
        assert_eq!(charge(S, clock(0, 1), 30_000), None);
        assert_eq!(charge(S, clock(0, 1), 29_999), Some(clock(0, 1)));
        assert_eq!(charge(S, clock(1_000, 0), 1_001), None);
    }

    #[test]
    fn choices() {
        assert_eq!(choose("english", None).unwrap(), Some(ENGLISH_DEFAULT));
        assert_eq!(choose("turkish", None).unwrap(), None);
        assert_eq!(
            choose("english", Some(&ClockChoice::Named("none".into()))).unwrap(),
            None
        );
        let custom = ClockSettings {
            main_ms: 60_000,
            periods: 0,
            period_ms: 0,
        };
        assert_eq!(
            choose("diamond", Some(&ClockChoice::Settings(custom))).unwrap(),
            Some(custom)
        );
        for bad in [
            ClockChoice::Named("fast".into()),
            ClockChoice::Settings(ClockSettings {
                main_ms: 0,
                periods: 0,
                period_ms: 0,
            }),
            ClockChoice::Settings(ClockSettings {
                main_ms: 1000,
                periods: 3,
                period_ms: 10,
            }),
            ClockChoice::Settings(ClockSettings {
                main_ms: u64::MAX,
                periods: 0,
                period_ms: 0,
            }),
        ] {
            assert_eq!(
                choose("english", Some(&bad)).unwrap_err().code(),
                "bad_clock"
            );
        }
    }
}
