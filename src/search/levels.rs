//! The CPU's levels and players, and what each level means in each game: node budgets, depths,
//! evaluation and mistakes.
//!
//! Budgets are in nodes so that a match replays move for move; they were sized so the levels'
//! move-time targets hold on one core in release (hard median ≤ 1 s, medium ≤ 200 ms, easy
//! ≤ 50 ms — measured figures in docs/cpu.md). Expert alone is budgeted in time: it plays the
//! strongest move the engine finds in its thinking time, so it does not replay. The lab's
//! yardstick players (the frozen baseline, the seed's reference CPU, expert on one thread) are
//! the lab's own configurations (`lab/src/yardsticks.rs`), not levels.

use super::alphabeta::{MovePruning, MultiPlayer, Params, ProbCut};
use super::limits::{wall_cap, Limits};
use super::mistakes::Mistakes;
use super::player::PlayerConfig;
use super::searchable::EvalStyle;
use crate::position::{GameKind, Variant};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use thiserror::Error;

/// The CPU strengths: three node-budgeted levels that replay exactly, and expert, which thinks
/// for a set time ([`MoveTime`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Expert,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.as_str() == text)
    }
}

/// A thinking time outside [`MoveTime::MIN_MS`]..=[`MoveTime::MAX_MS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("thinking time {0} ms is out of range (expected {min}–{max} ms)", min = MoveTime::MIN_MS, max = MoveTime::MAX_MS)]
pub struct MoveTimeError(pub u64);

/// The expert level's thinking time per move, in milliseconds of the thinking thread's CPU time
/// (what one free core gives; a busy machine takes longer on the wall clock). Always within
/// 0.5–5 s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u64", into = "u64")]
pub struct MoveTime(u32);

impl MoveTime {
    pub const MIN_MS: u32 = 500;
    pub const MAX_MS: u32 = 5_000;
    pub const DEFAULT: MoveTime = MoveTime(1_000);

    pub fn from_millis(ms: u64) -> Result<MoveTime, MoveTimeError> {
        u32::try_from(ms)
            .ok()
            .filter(|ms| (MoveTime::MIN_MS..=MoveTime::MAX_MS).contains(ms))
            .map(MoveTime)
            .ok_or(MoveTimeError(ms))
    }

    pub fn millis(self) -> u32 {
        self.0
    }

    pub fn duration(self) -> Duration {
        Duration::from_millis(u64::from(self.0))
    }
}

impl Default for MoveTime {
    fn default() -> Self {
        MoveTime::DEFAULT
    }
}

impl TryFrom<u64> for MoveTime {
    type Error = MoveTimeError;

    fn try_from(ms: u64) -> Result<Self, Self::Error> {
        MoveTime::from_millis(ms)
    }
}

impl From<MoveTime> for u64 {
    fn from(time: MoveTime) -> u64 {
        u64::from(time.0)
    }
}

/// A CPU player as players meet it: one of the levels, expert with its thinking time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A level; `Cpu(Level::Expert)` thinks for [`MoveTime::DEFAULT`].
    Cpu(Level),
    Expert(MoveTime),
}

impl Player {
    /// The player of `level`, with `movetime` for expert (ignored by the other levels).
    pub fn at_level(level: Level, movetime: MoveTime) -> Player {
        match level {
            Level::Expert => Player::Expert(movetime),
            _ => Player::Cpu(level),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Player::Cpu(level) => level.as_str(),
            Player::Expert(_) => Level::Expert.as_str(),
        }
    }

    /// The name with expert's thinking time when it is not the default (match tables).
    pub fn label(self) -> String {
        match self {
            Player::Expert(time) if time != MoveTime::DEFAULT => {
                format!("{} {}ms", self.as_str(), time.millis())
            }
            _ => self.as_str().to_string(),
        }
    }

    /// `easy`, `medium`, `hard` or `expert` (default thinking time).
    pub fn parse(text: &str) -> Option<Player> {
        Level::parse(text).map(|level| Player::at_level(level, MoveTime::DEFAULT))
    }
}

/// Depth of the seed's Turkish CPU: three plies for each side.
pub const REFERENCE_DEPTH: u32 = 6;

/// One level's budget in one game.
struct Budget {
    nodes: u64,
    min_depth: u32,
    max_depth: u32,
    table_bits: u32,
}

/// The budget of a node-budgeted level (expert is timed: see [`expert_config`]).
fn budget(kind: GameKind, level: Level) -> Budget {
    let (nodes, min_depth, max_depth) = match (kind, level) {
        // Twice the frozen baseline's 600 000: a stronger hard, still ≤ 1 s a move here.
        (GameKind::English | GameKind::International, Level::Hard | Level::Expert) => {
            (1_200_000, 1, 40)
        }
        // Turkish games are short and decisive: twice the nodes scored 59.4 % against the
        // baseline over 400 games, short of the 60 % aimed at, with hard's longest move at 486 ms;
        // 2 000 000 spends more of the second hard may take (docs/cpu.md).
        (GameKind::Turkish, Level::Hard | Level::Expert) => (2_000_000, 1, 40),
        // Medium is never weaker than the seed's Turkish CPU: it always completes 3 plies per
        // side (plus capture quiescence).
        (GameKind::Turkish, Level::Medium) => (60_000, REFERENCE_DEPTH, 40),
        (GameKind::English | GameKind::International, Level::Medium) => (60_000, 1, 40),
        (GameKind::Diamond, Level::Hard | Level::Expert) => (300_000, 1, 12),
        (GameKind::Diamond, Level::Medium) => (6_000, 1, 12),
        (GameKind::Capture, Level::Hard | Level::Expert) => (100_000, 1, 20),
        (GameKind::Capture, Level::Medium) => (8_000, 1, 20),
        (_, Level::Easy) => (20_000, 1, 4),
    };
    Budget {
        nodes,
        min_depth,
        max_depth,
        table_bits: if level == Level::Hard { 20 } else { 16 },
    }
}

/// The search with more than two seats (see "Multi-player search" in docs/cpu.md). Hard and
/// expert in the capture game play Monte-Carlo tree search: every seat playing for itself, on
/// the game's own result, won more than twice as often against two mediums as the paranoid
/// search. Every other level and game plays the paranoid search: Best-Reply Search and max^n
/// lost to it in the capture game, and max^n in Diamond, where paranoid hard meets its targets.
fn multi_player(kind: GameKind, level: Level) -> MultiPlayer {
    match (kind, level) {
        (GameKind::Capture, Level::Hard | Level::Expert) => MultiPlayer::MonteCarlo,
        _ => MultiPlayer::Paranoid,
    }
}

/// The easy level's shallow scoring and mistakes, per game (margins in evaluation units).
fn mistakes(kind: GameKind) -> Mistakes {
    let (depth, margin) = match kind {
        GameKind::English | GameKind::International | GameKind::Turkish => (3, 60),
        GameKind::Diamond => (1, 150),
        GameKind::Capture => (2, 100),
    };
    Mistakes {
        depth,
        chance: 25,
        margin,
        beginner_games: 3,
        beginner_chance: 45,
        beginner_margin: margin * 2,
        plausible_first: kind == GameKind::Capture,
    }
}

/// The time each level may think at most, on the thinking thread's CPU clock: a safety net
/// for slow devices well above what the node budgets take here (so matches stay deterministic).
/// Hard's is its move-time limit.
pub fn time_guard(level: Level) -> Duration {
    match level {
        Level::Easy => Duration::from_millis(500),
        Level::Medium => Duration::from_secs(1),
        Level::Hard => Duration::from_secs(2),
        Level::Expert => MoveTime::DEFAULT.duration(),
    }
}

/// Deepest iteration of the expert level (its time ends the search long before).
const EXPERT_MAX_DEPTH: u32 = 64;

/// log2 of the expert level's table entries.
const EXPERT_TABLE_BITS: u32 = 20;

/// What a draw costs expert in draughts, in hundredths of a man ([`Params::contempt`]): facing
/// weaker players, it plays on from a level position rather than repeat or liquidate into a
/// draw. Small, so that a position clearly worse than level still takes the draw.
const EXPERT_DRAUGHTS_CONTEMPT: i32 = 15;

/// Search threads of the expert level: the thinking thread and one helper sharing its table,
/// where the device has a second core ([`Params::threads`]).
pub fn expert_threads() -> u32 {
    let cores = std::thread::available_parallelism().map_or(1, |cores| cores.get());
    cores.min(2) as u32
}

/// The expert level: iterative deepening for the whole thinking time (a move's unused time is
/// lost: there is no clock to save it for), the iteration under way abandoned at its end; the
/// move played is the cut iteration's best if it proved one (see `alphabeta::search`), else the
/// last complete iteration's. No evaluation noise (its timing varies its play already),
/// late-move reductions in draughts as hard, aspiration windows, hard's search with more than
/// two seats, `threads` search threads (alpha-beta only), its table kept from one move to the
/// next (`search::table_pool`), in draughts the opening book, the endgame databases when built
/// and a small contempt for draws, and in two-seat Diamond late-move pruning.
fn expert_config(variant: Variant, movetime: MoveTime, threads: u32) -> PlayerConfig {
    let kind = variant.kind;
    let hard = movetime.duration();
    PlayerConfig {
        params: Params {
            // CPU time is the budget (what one free core gives); the wall clock is capped so a
            // loaded machine does not keep the player waiting far longer than the setting.
            limits: Limits::timed(hard, hard, EXPERT_MAX_DEPTH).with_wall_cap(wall_cap(hard)),
            style: EvalStyle::Full,
            quiescence: kind.is_draughts(),
            noise: 0,
            seed: 0,
            table_bits: EXPERT_TABLE_BITS,
            reductions: kind.is_draughts(),
            multi_player: multi_player(kind, Level::Expert),
            aspiration: expert_aspiration(kind),
            endgame: kind.is_draughts(),
            contempt: if kind.is_draughts() {
                EXPERT_DRAUGHTS_CONTEMPT
            } else {
                0
            },
            move_pruning: (kind == GameKind::Diamond && variant.players == 2)
                .then_some(EXPERT_DIAMOND_PRUNING),
            // ProbCut and countermoves where a match showed them: English (lab/JOURNAL.md,
            // "ProbCut and countermoves"); International and Turkish not yet measured.
            probcut: (kind == GameKind::English)
                .then(|| selective_probcut(kind))
                .flatten(),
            countermoves: kind == GameKind::English,
            book: kind.is_draughts(),
            threads,
        },
        mistakes: None,
    }
}

/// Expert's late-move pruning in two-seat Diamond ([`Params::move_pruning`]): the first 8 moves
/// where the children are leaves, 2 more a ply above. It searches about two plies deeper in the
/// same time; against expert without it, at 250 ms a move, it won 34 games of 40 (docs/cpu.md,
/// "Diamond: late-move pruning").
const EXPERT_DIAMOND_PRUNING: MovePruning = MovePruning {
    first: 8,
    per_ply: 2,
};

/// ProbCut for the draughts games ([`Params::probcut`]): expert plays it in English, the lab's
/// `expert-selective` in all three, to measure it. The slope (thousandths), intercept and residual
/// standard deviation are the fits of depth 4 on depth 8 by `damas-lab probcut-fit <game> --deep 8
/// --reduction 4` (lab/JOURNAL.md, "ProbCut and countermoves").
pub fn selective_probcut(kind: GameKind) -> Option<ProbCut> {
    let (slope_permille, intercept, sigma) = match kind {
        GameKind::English => (1031, 0, 30),
        GameKind::International => (1072, -2, 59),
        GameKind::Turkish => (1074, -5, 53),
        GameKind::Diamond | GameKind::Capture => return None,
    };
    Some(ProbCut {
        min_depth: 6,
        reduction: 4,
        slope_permille,
        intercept,
        // One and a half standard deviations of the fit's residuals.
        margin: sigma * 3 / 2,
    })
}

/// Half-width of expert's aspiration windows: a quarter of a man in draughts, three steps in
/// Diamond, half a piece in the capture game (whose scores move by whole pieces).
fn expert_aspiration(kind: GameKind) -> i32 {
    match kind {
        GameKind::English | GameKind::International | GameKind::Turkish => 25,
        GameKind::Diamond => 30,
        GameKind::Capture => 50,
    }
}

/// The configuration of `player` in `variant`.
pub fn config(variant: Variant, player: Player) -> PlayerConfig {
    let kind = variant.kind;
    let quiescence = kind.is_draughts();
    match player {
        Player::Expert(movetime) => expert_config(variant, movetime, expert_threads()),
        Player::Cpu(Level::Expert) => expert_config(variant, MoveTime::DEFAULT, expert_threads()),
        Player::Cpu(level) => {
            let budget = budget(kind, level);
            PlayerConfig {
                params: Params {
                    limits: Limits {
                        max_depth: budget.max_depth,
                        min_depth: budget.min_depth,
                        max_nodes: budget.nodes,
                        max_time: time_guard(level),
                        soft_time: None,
                        // Hard may take its whole guard; a player waits at most half as long again.
                        wall_cap: (level == Level::Hard).then(|| wall_cap(time_guard(level))),
                    },
                    // Hard plays the tuned draughts weights; easy and medium keep the
                    // classic ones (their ladder figures in docs/cpu.md stand).
                    style: match level {
                        Level::Hard | Level::Expert => EvalStyle::Full,
                        Level::Easy | Level::Medium => EvalStyle::Classic,
                    },
                    quiescence,
                    noise: match level {
                        Level::Hard => 2,
                        _ => 4,
                    },
                    seed: 0,
                    table_bits: budget.table_bits,
                    reductions: level == Level::Hard && kind.is_draughts(),
                    multi_player: multi_player(kind, level),
                    aspiration: 0,
                    endgame: false,
                    contempt: 0,
                    move_pruning: None,
                    probcut: None,
                    countermoves: false,
                    book: false,
                    threads: 1,
                },
                mistakes: (level == Level::Easy).then(|| mistakes(kind)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_time_accepts_half_a_second_to_five_seconds_only() {
        for ms in [500, 1_000, 5_000] {
            assert_eq!(
                MoveTime::from_millis(ms).map(MoveTime::millis),
                Ok(ms as u32)
            );
        }
        for ms in [0, 499, 5_001, u64::from(u32::MAX) + 500] {
            assert_eq!(MoveTime::from_millis(ms), Err(MoveTimeError(ms)));
        }
        assert_eq!(
            serde_json::from_str::<MoveTime>("2500").ok(),
            MoveTime::from_millis(2_500).ok()
        );
        assert!(serde_json::from_str::<MoveTime>("100").is_err());
        assert!(serde_json::from_str::<MoveTime>("\"fast\"").is_err());
    }

    #[test]
    fn players_parse_by_name_and_expert_takes_its_time() {
        for level in Level::ALL {
            assert_eq!(Level::parse(level.as_str()), Some(level));
        }
        assert_eq!(
            Player::parse("expert"),
            Some(Player::Expert(MoveTime::DEFAULT))
        );
        assert_eq!(
            Player::parse("baseline"),
            None,
            "a lab yardstick, not a level"
        );
        assert_eq!(Player::parse("hard"), Some(Player::Cpu(Level::Hard)));
        assert_eq!(Player::parse("grandmaster"), None);
        let slow = MoveTime::from_millis(3_000).expect("in range");
        assert_eq!(Player::at_level(Level::Expert, slow), Player::Expert(slow));
        assert_eq!(
            Player::at_level(Level::Medium, slow),
            Player::Cpu(Level::Medium)
        );
        assert_eq!(Player::Expert(slow).label(), "expert 3000ms");
        assert_eq!(Player::Expert(MoveTime::DEFAULT).label(), "expert");
    }

    /// Every player but expert.
    const NODE_BUDGETED: [Player; 3] = [
        Player::Cpu(Level::Easy),
        Player::Cpu(Level::Medium),
        Player::Cpu(Level::Hard),
    ];

    #[test]
    fn expert_is_timed_and_every_other_player_counts_nodes() {
        let variant = Variant::standard(GameKind::English);
        let expert = config(variant, Player::Expert(MoveTime::DEFAULT))
            .params
            .limits;
        assert_eq!(expert.max_time, MoveTime::DEFAULT.duration());
        assert_eq!(expert.soft_time, Some(MoveTime::DEFAULT.duration()));
        assert_eq!(expert.max_nodes, u64::MAX);
        assert_eq!(
            expert.wall_cap,
            Some(MoveTime::DEFAULT.duration() * 3 / 2),
            "expert's wait is capped on the wall clock"
        );
        assert_eq!(
            config(variant, Player::Cpu(Level::Expert)).params.limits,
            expert
        );
        for player in NODE_BUDGETED {
            assert!(
                !config(variant, player).params.limits.is_timed(),
                "{player:?}"
            );
        }
    }

    #[test]
    fn hard_and_expert_cap_the_wall_clock_and_the_others_do_not() {
        let variant = Variant::standard(GameKind::Turkish);
        let hard = config(variant, Player::Cpu(Level::Hard)).params.limits;
        assert_eq!(hard.wall_cap, Some(time_guard(Level::Hard) * 3 / 2));
        let slow = MoveTime::from_millis(3_000).expect("in range");
        let expert = config(variant, Player::Expert(slow)).params.limits;
        assert_eq!(expert.wall_cap, Some(Duration::from_millis(4_500)));
        for player in [Player::Cpu(Level::Easy), Player::Cpu(Level::Medium)] {
            assert_eq!(
                config(variant, player).params.limits.wall_cap,
                None,
                "{player:?}"
            );
        }
    }

    #[test]
    fn expert_searches_on_two_threads_where_there_are_two_cores_and_the_rest_on_one() {
        let cores = std::thread::available_parallelism().map_or(1, |cores| cores.get());
        let expected = if cores >= 2 { 2 } else { 1 };
        for kind in GameKind::ALL {
            let variant = Variant::standard(kind);
            let threads = |player| config(variant, player).params.threads;
            assert_eq!(threads(Player::Expert(MoveTime::DEFAULT)), expected);
            assert_eq!(threads(Player::Cpu(Level::Expert)), expected);
            for player in NODE_BUDGETED {
                assert_eq!(threads(player), 1, "{kind:?} {player:?}");
            }
        }
    }

    #[test]
    fn capture_hard_and_expert_search_by_monte_carlo_and_the_rest_stay_paranoid() {
        for kind in GameKind::ALL {
            let variant = Variant::standard(kind);
            let search = |player| config(variant, player).params.multi_player;
            let monte_carlo = kind == GameKind::Capture;
            for player in [
                Player::Cpu(Level::Hard),
                Player::Cpu(Level::Expert),
                Player::Expert(MoveTime::DEFAULT),
            ] {
                assert_eq!(
                    search(player) == MultiPlayer::MonteCarlo,
                    monte_carlo,
                    "{kind:?} {player:?}"
                );
            }
            for player in [Player::Cpu(Level::Easy), Player::Cpu(Level::Medium)] {
                assert_eq!(search(player), MultiPlayer::Paranoid, "{kind:?} {player:?}");
            }
        }
    }

    #[test]
    fn hard_and_expert_play_the_tuned_weights_and_the_rest_keep_the_classic_ones() {
        let variant = Variant::standard(GameKind::Turkish);
        let style = |player| config(variant, player).params.style;
        assert_eq!(style(Player::Cpu(Level::Hard)), EvalStyle::Full);
        assert_eq!(style(Player::Cpu(Level::Expert)), EvalStyle::Full);
        assert_eq!(style(Player::Expert(MoveTime::DEFAULT)), EvalStyle::Full);
        assert_eq!(style(Player::Cpu(Level::Medium)), EvalStyle::Classic);
        assert_eq!(style(Player::Cpu(Level::Easy)), EvalStyle::Classic);
    }

    #[test]
    fn only_expert_in_english_plays_probcut_and_countermoves_and_only_draughts_have_a_fit() {
        for kind in GameKind::ALL {
            let variant = Variant::standard(kind);
            for level in Level::ALL {
                let params = config(variant, Player::at_level(level, MoveTime::DEFAULT)).params;
                let selective = level == Level::Expert && kind == GameKind::English;
                let expected = selective_probcut(kind).filter(|_| selective);
                assert_eq!(params.probcut, expected, "{kind:?} {level:?}");
                assert_eq!(params.countermoves, selective, "{kind:?} {level:?}");
            }
            let fit = selective_probcut(kind);
            assert_eq!(fit.is_some(), kind.is_draughts(), "{kind:?}");
            if let Some(fit) = fit {
                assert!(fit.reduction >= 1 && fit.reduction < fit.min_depth);
                assert!(fit.slope_permille > 0 && fit.margin > 0);
            }
        }
    }
}
