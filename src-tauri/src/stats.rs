//! The player's statistics against the CPU: every game finished against it is one
//! [`FinishedGame`] (kept in `progress.json`), and [`summarise`] turns the list into figures per
//! game and level: wins, draws, losses, the current and best winning streaks, the average length
//! and the latest results for the chart.

use damas::position::{GameResult, Outcome, Seat};
use damas::search::Level;
use damas::GameKind;
use serde::{Deserialize, Serialize};

/// The results kept (the oldest are dropped first): years of play, a small file.
pub const RESULTS_KEPT: usize = 2000;
/// The latest results the chart shows, per game and level.
pub const RECENT_SHOWN: usize = 20;

/// A game's end from the human side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Result3 {
    Win,
    Draw,
    Loss,
}

impl Result3 {
    /// A win when a human seat won, a loss when a CPU seat did.
    pub fn of(outcome: Outcome, human_seats: &[Seat]) -> Result3 {
        match outcome.result {
            GameResult::Draw => Result3::Draw,
            GameResult::Win(seat) if human_seats.contains(&seat) => Result3::Win,
            GameResult::Win(_) => Result3::Loss,
        }
    }
}

/// One game finished against the CPU.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinishedGame {
    pub kind: GameKind,
    pub level: Level,
    pub result: Result3,
    /// Plies played.
    pub plies: usize,
    /// Unix milliseconds of the end.
    pub finished: u64,
}

/// The figures of one game at one level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelStats {
    pub kind: GameKind,
    pub level: Level,
    pub played: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Wins in a row up to the latest game.
    pub current_streak: usize,
    pub best_streak: usize,
    /// Plies per game.
    pub average_plies: f64,
    /// The latest results, oldest first (at most [`RECENT_SHOWN`]).
    pub recent: Vec<Result3>,
}

/// The figures of every game and level played, in the games' and levels' order.
pub fn summarise(results: &[FinishedGame]) -> Vec<LevelStats> {
    let mut all = Vec::new();
    for kind in GameKind::ALL {
        for level in Level::ALL {
            let games: Vec<&FinishedGame> = results
                .iter()
                .filter(|game| game.kind == kind && game.level == level)
                .collect();
            if games.is_empty() {
                continue;
            }
            let count = |wanted: Result3| games.iter().filter(|g| g.result == wanted).count();
            let mut run = 0;
            let mut best_streak = 0;
            for game in &games {
                run = if game.result == Result3::Win {
                    run + 1
                } else {
                    0
                };
                best_streak = best_streak.max(run);
            }
            let plies: usize = games.iter().map(|g| g.plies).sum();
            all.push(LevelStats {
                kind,
                level,
                played: games.len(),
                wins: count(Result3::Win),
                draws: count(Result3::Draw),
                losses: count(Result3::Loss),
                current_streak: run,
                best_streak,
                average_plies: plies as f64 / games.len() as f64,
                recent: games
                    .iter()
                    .skip(games.len().saturating_sub(RECENT_SHOWN))
                    .map(|g| g.result)
                    .collect(),
            });
        }
    }
    all
}

/// One friends' room game finished with this device seated: the rewards' record (not part of
/// the statistics, which are against the CPU). A room game is one per room code and rematch
/// number, which makes recording it idempotent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomResult {
    /// The room's code.
    pub code: String,
    /// The room's rematch number: 0 for its first game.
    pub rematch: u32,
    pub kind: GameKind,
    /// From this device's seat.
    pub result: Result3,
    pub plies: usize,
    /// Unix milliseconds when the app recorded it.
    #[serde(default)]
    pub finished: u64,
}

impl RoomResult {
    pub fn same_game(&self, other: &RoomResult) -> bool {
        self.code == other.code && self.rematch == other.rematch
    }
}

/// Rewards (the Turkish page's candies): a game of at least this many plies gives candies.
pub const CANDY_MIN_PLIES: usize = 16;
/// Candies for a win against the CPU.
pub const CANDIES_PER_CPU_WIN: u32 = 6;

/// Candies for a friends' room game of at least [`CANDY_MIN_PLIES`] (the Turkish page: 15 for a
/// win, 8 for a draw, 5 for a loss).
pub fn friend_candies(result: Result3) -> u32 {
    match result {
        Result3::Win => 15,
        Result3::Draw => 8,
        Result3::Loss => 5,
    }
}
/// The most candies one (local) day gives.
pub const DAILY_CANDY_BUDGET: u32 = 60;
const DAY_MS: i64 = 86_400_000;

/// Candies earned: today's (within the daily budget) and all of them, and what the game finished
/// last (against the CPU or in a friends' room) gave, for its result dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Candies {
    pub today: u32,
    pub total: u32,
    pub budget: u32,
    /// What the last finished game is worth by the rules (0: too short, or lost to the CPU).
    pub last_due: u32,
    /// What it gave within its day's budget (less than `last_due` when the budget ran out).
    pub last_earned: u32,
}

/// The candies of the games finished against the CPU and in friends' rooms, one budget a day for
/// both. Days are local: `utc_offset_minutes` is the device's offset from UTC (east positive),
/// `now` the current unix ms.
pub fn candies(
    results: &[FinishedGame],
    room_results: &[RoomResult],
    utc_offset_minutes: i32,
    now: u64,
) -> Candies {
    let offset = i64::from(utc_offset_minutes) * 60_000;
    let day_of = |ms: u64| (i64::try_from(ms).unwrap_or(i64::MAX) + offset).div_euclid(DAY_MS);
    let cpu = results.iter().map(|game| {
        let due = game.result == Result3::Win && game.plies >= CANDY_MIN_PLIES;
        (game.finished, if due { CANDIES_PER_CPU_WIN } else { 0 })
    });
    let friends = room_results.iter().map(|game| {
        let due = game.plies >= CANDY_MIN_PLIES;
        (
            game.finished,
            if due { friend_candies(game.result) } else { 0 },
        )
    });
    // In the order they finished, so the budget is spent by the earlier games of a day.
    let mut games: Vec<(u64, u32)> = cpu.chain(friends).collect();
    games.sort_by_key(|&(finished, _)| finished);
    let mut per_day: std::collections::BTreeMap<i64, u32> = std::collections::BTreeMap::new();
    let (mut last_due, mut last_earned) = (0, 0);
    for (finished, due) in games {
        let earned = per_day.entry(day_of(finished)).or_default();
        let given = due.min(DAILY_CANDY_BUDGET - *earned);
        *earned += given;
        (last_due, last_earned) = (due, given);
    }
    Candies {
        today: per_day.get(&day_of(now)).copied().unwrap_or(0),
        total: per_day.values().sum(),
        budget: DAILY_CANDY_BUDGET,
        last_due,
        last_earned,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas::position::EndReason;

    fn game(kind: GameKind, level: Level, result: Result3, plies: usize) -> FinishedGame {
        FinishedGame {
            kind,
            level,
            result,
            plies,
            finished: 0,
        }
    }

    #[test]
    fn counts_streaks_and_lengths_per_game_and_level() {
        use Result3::{Draw, Loss, Win};
        let english = |result, plies| game(GameKind::English, Level::Easy, result, plies);
        let results = vec![
            english(Win, 40),
            english(Win, 30),
            english(Win, 20),
            game(GameKind::Diamond, Level::Hard, Loss, 100),
            english(Loss, 50),
            english(Draw, 60),
            english(Win, 10),
        ];
        let stats = summarise(&results);
        assert_eq!(stats.len(), 2);
        let easy = &stats[0];
        assert_eq!((easy.kind, easy.level), (GameKind::English, Level::Easy));
        assert_eq!(
            (easy.played, easy.wins, easy.draws, easy.losses),
            (6, 4, 1, 1)
        );
        assert_eq!((easy.current_streak, easy.best_streak), (1, 3));
        assert_eq!(easy.average_plies, 35.0);
        assert_eq!(easy.recent, [Win, Win, Win, Loss, Draw, Win]);
        let diamond = &stats[1];
        assert_eq!(
            (diamond.kind, diamond.level),
            (GameKind::Diamond, Level::Hard)
        );
        assert_eq!(
            (diamond.played, diamond.losses, diamond.best_streak),
            (1, 1, 0)
        );
    }

    #[test]
    fn the_chart_keeps_the_latest_results() {
        let mut results: Vec<FinishedGame> = (0..RECENT_SHOWN)
            .map(|_| game(GameKind::Turkish, Level::Medium, Result3::Loss, 1))
            .collect();
        results.insert(0, game(GameKind::Turkish, Level::Medium, Result3::Win, 1));
        let stats = summarise(&results);
        assert_eq!(stats[0].recent.len(), RECENT_SHOWN);
        assert!(stats[0].recent.iter().all(|&r| r == Result3::Loss));
        assert_eq!(stats[0].best_streak, 1);
        assert_eq!(stats[0].current_streak, 0);
        assert!(summarise(&[]).is_empty());
    }

    #[test]
    fn candies_for_long_wins_within_each_local_days_budget() {
        use Result3::{Draw, Loss, Win};
        let hour = 3_600_000;
        // 2026-12-01 00:00 UTC.
        let midnight: u64 = 1_796_083_200_000;
        let at = |result, plies, finished| FinishedGame {
            finished,
            ..game(GameKind::Turkish, Level::Hard, result, plies)
        };
        let mut results = vec![
            at(Win, CANDY_MIN_PLIES, midnight + hour),
            at(Win, CANDY_MIN_PLIES - 1, midnight + 2 * hour),
            at(Draw, 80, midnight + 3 * hour),
            at(Loss, 80, midnight + 4 * hour),
            // The evening before, UTC.
            at(Win, 40, midnight - 2 * hour),
        ];
        let now = midnight + 10 * hour;
        assert_eq!(
            candies(&results, &[], 0, now),
            Candies {
                today: 6,
                total: 12,
                budget: DAILY_CANDY_BUDGET,
                // By finish time the last game is the loss at 04:00: worth nothing.
                last_due: 0,
                last_earned: 0,
            }
        );
        // Three hours east of UTC the evening game is after local midnight: the same day.
        assert_eq!(candies(&results, &[], 180, now).today, 12);
        // Ten hours west, 01:00 UTC is the evening before.
        assert_eq!(candies(&results, &[], -600, now).today, 0);
        // The budget caps a day.
        results.extend((0..20).map(|i| at(Win, 30, midnight + 5 * hour + i)));
        let capped = candies(&results, &[], 0, now);
        assert_eq!(capped.today, DAILY_CANDY_BUDGET);
        assert_eq!(capped.total, DAILY_CANDY_BUDGET + 6);
        // The last of those wins was due 6 and got none: the day's budget was used up.
        assert_eq!(
            (capped.last_due, capped.last_earned),
            (CANDIES_PER_CPU_WIN, 0)
        );
        assert_eq!(candies(&[], &[], 0, now).total, 0);
    }

    #[test]
    fn friend_games_give_15_8_5_within_the_same_daily_budget() {
        use Result3::{Draw, Loss, Win};
        let hour = 3_600_000;
        let midnight: u64 = 1_796_083_200_000;
        let room = |rematch, result, plies, finished| RoomResult {
            code: "x8Jd0-qL2mZ_a9Qe".into(),
            rematch,
            kind: GameKind::English,
            result,
            plies,
            finished,
        };
        let now = midnight + 20 * hour;
        let friends = vec![
            room(0, Win, 16, midnight + hour),
            room(1, Draw, 40, midnight + 2 * hour),
            room(2, Loss, 30, midnight + 3 * hour),
            // Too short: nothing.
            room(3, Win, 15, midnight + 4 * hour),
            // Yesterday.
            room(4, Loss, 30, midnight - hour),
        ];
        let today = 15 + 8 + 5;
        assert_eq!(
            candies(&[], &friends, 0, now),
            Candies {
                today,
                total: today + 5,
                budget: DAILY_CANDY_BUDGET,
                // The last one finished was too short.
                last_due: 0,
                last_earned: 0,
            }
        );
        // CPU wins and friend games share the budget.
        let cpu: Vec<FinishedGame> = (0..6)
            .map(|i| FinishedGame {
                finished: midnight + 5 * hour + i,
                ..game(GameKind::Turkish, Level::Easy, Win, 20)
            })
            .collect();
        assert_eq!(candies(&cpu, &[], 0, now).today, 36);
        let both = candies(&cpu, &friends, 0, now);
        assert_eq!(both.today, DAILY_CANDY_BUDGET);
        assert_eq!(both.total, DAILY_CANDY_BUDGET + 5);
        // Friends first (28), then CPU wins of 6 up to 60: the sixth win (the last game) gets 2.
        assert_eq!((both.last_due, both.last_earned), (CANDIES_PER_CPU_WIN, 2));
        assert_eq!(candies(&cpu, &[], 0, now).last_earned, CANDIES_PER_CPU_WIN);
        assert!(room(0, Win, 1, 0).same_game(&room(0, Loss, 99, 5)));
        assert!(!room(0, Win, 1, 0).same_game(&room(1, Win, 1, 0)));
    }

    #[test]
    fn a_result_is_seen_from_the_human_seats() {
        let win = |seat| Outcome {
            result: GameResult::Win(seat),
            reason: EndReason::Resignation,
        };
        assert_eq!(Result3::of(win(1), &[1]), Result3::Win);
        assert_eq!(Result3::of(win(0), &[1]), Result3::Loss);
        let draw = Outcome {
            result: GameResult::Draw,
            reason: EndReason::Repetition,
        };
        assert_eq!(Result3::of(draw, &[0]), Result3::Draw);
    }
}
