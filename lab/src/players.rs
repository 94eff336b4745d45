//! The players a lab match seats: the engine's levels as players meet them, and the yardsticks
//! that measure them, frozen here as the lab's own configurations so that a change to the
//! levels leaves them alone.
//!
//! - the **baseline**: the hard level as it was when expert came, written out in full;
//! - the **reference**: the seed's Turkish CPU (three plies for each side, captures finished at
//!   the horizon, material only);
//! - **expert-single**: expert on one search thread, the yardstick for its helper thread;
//! - **expert-frozen**: expert as it played before the learned evaluation, on one thread,
//!   written out in full;
//! - **expert-learned**: expert-single with the learned pattern evaluation where a game has
//!   one (English checkers), the lab's switch for it;
//! - **expert-selective**: expert-single with ProbCut and countermove ordering in the three
//!   draughts games (`levels::selective_probcut`; expert plays them in English only), the
//!   lab's switch for them.
//! - **expert-nobook**: expert without its opening book, the lab's switch for it.

use damas::search::alphabeta::{MovePruning, MultiPlayer, Params};
use damas::search::levels::{self, MoveTime, REFERENCE_DEPTH};
use damas::search::limits::Limits;
use damas::search::searchable::EvalStyle;
use damas::search::{Level, PlayerConfig};
use damas::{GameKind, Variant};
use std::time::Duration;

/// A player of a lab match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A level; `Cpu(Level::Expert)` thinks for [`MoveTime::DEFAULT`].
    Cpu(Level),
    Expert(MoveTime),
    /// Expert on one search thread: the yardstick for expert's helper thread.
    ExpertSingle(MoveTime),
    /// The seed's Turkish CPU.
    Reference,
    /// Hard frozen as it played when expert was introduced.
    Baseline,
    /// Expert frozen as it played before the learned evaluation (one thread).
    ExpertFrozen(MoveTime),
    /// Expert on one thread with the learned evaluation where the game has one.
    ExpertLearned(MoveTime),
    /// Expert on one thread with ProbCut and countermoves in draughts.
    ExpertSelective(MoveTime),
    /// Expert without its opening book.
    ExpertNoBook(MoveTime),
}

impl Player {
    /// The player of `level`, with `movetime` for expert (ignored by the other levels).
    pub fn at_level(level: Level, movetime: MoveTime) -> Player {
        Player::from(damas::search::Player::at_level(level, movetime))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Player::Cpu(level) => level.as_str(),
            Player::Expert(_) => Level::Expert.as_str(),
            Player::ExpertSingle(_) => "expert-single",
            Player::Reference => "reference",
            Player::Baseline => "baseline",
            Player::ExpertFrozen(_) => "expert-frozen",
            Player::ExpertLearned(_) => "expert-learned",
            Player::ExpertSelective(_) => "expert-selective",
            Player::ExpertNoBook(_) => "expert-nobook",
        }
    }

    /// The name with expert's thinking time when it is not the default (match tables).
    pub fn label(self) -> String {
        match self {
            Player::Expert(time)
            | Player::ExpertSingle(time)
            | Player::ExpertFrozen(time)
            | Player::ExpertLearned(time)
            | Player::ExpertSelective(time)
            | Player::ExpertNoBook(time)
                if time != MoveTime::DEFAULT =>
            {
                format!("{} {}ms", self.as_str(), time.millis())
            }
            _ => self.as_str().to_string(),
        }
    }

    /// `easy`, `medium`, `hard`, `expert` (default thinking time), `expert-single`,
    /// `reference` or `baseline`.
    pub fn parse(text: &str) -> Option<Player> {
        match text {
            "expert-single" => Some(Player::ExpertSingle(MoveTime::DEFAULT)),
            "reference" => Some(Player::Reference),
            "baseline" => Some(Player::Baseline),
            "expert-frozen" => Some(Player::ExpertFrozen(MoveTime::DEFAULT)),
            "expert-learned" => Some(Player::ExpertLearned(MoveTime::DEFAULT)),
            "expert-selective" => Some(Player::ExpertSelective(MoveTime::DEFAULT)),
            "expert-nobook" => Some(Player::ExpertNoBook(MoveTime::DEFAULT)),
            _ => damas::search::Player::parse(text).map(Player::from),
        }
    }

    /// The same player thinking `movetime` where it is timed (expert and expert-single).
    pub fn with_movetime(self, movetime: MoveTime) -> Player {
        match self {
            Player::Expert(_) => Player::Expert(movetime),
            Player::ExpertSingle(_) => Player::ExpertSingle(movetime),
            Player::ExpertFrozen(_) => Player::ExpertFrozen(movetime),
            Player::ExpertLearned(_) => Player::ExpertLearned(movetime),
            Player::ExpertSelective(_) => Player::ExpertSelective(movetime),
            Player::ExpertNoBook(_) => Player::ExpertNoBook(movetime),
            other => other,
        }
    }

    /// The engine's player, for the levels; `None` for a yardstick.
    pub fn level(self) -> Option<damas::search::Player> {
        match self {
            Player::Cpu(level) => Some(damas::search::Player::Cpu(level)),
            Player::Expert(movetime) => Some(damas::search::Player::Expert(movetime)),
            _ => None,
        }
    }

    /// The search configuration of this player in `variant`.
    pub fn config(self, variant: Variant) -> PlayerConfig {
        match self {
            Player::Cpu(level) => levels::config(variant, damas::search::Player::Cpu(level)),
            Player::Expert(movetime) => {
                levels::config(variant, damas::search::Player::Expert(movetime))
            }
            Player::ExpertSingle(movetime) => {
                let expert = levels::config(variant, damas::search::Player::Expert(movetime));
                PlayerConfig {
                    params: Params {
                        threads: 1,
                        ..expert.params
                    },
                    ..expert
                }
            }
            Player::Reference => reference_config(),
            Player::Baseline => baseline_config(variant.kind),
            Player::ExpertFrozen(movetime) => expert_frozen_config(variant, movetime),
            Player::ExpertLearned(movetime) => {
                let single = Player::ExpertSingle(movetime).config(variant);
                PlayerConfig {
                    params: Params {
                        style: EvalStyle::Learned,
                        ..single.params
                    },
                    ..single
                }
            }
            Player::ExpertSelective(movetime) => {
                let single = Player::ExpertSingle(movetime).config(variant);
                let draughts = variant.kind.is_draughts();
                PlayerConfig {
                    params: Params {
                        probcut: levels::selective_probcut(variant.kind),
                        countermoves: draughts,
                        ..single.params
                    },
                    ..single
                }
            }
            Player::ExpertNoBook(movetime) => {
                let expert = levels::config(variant, damas::search::Player::Expert(movetime));
                PlayerConfig {
                    params: Params {
                        book: false,
                        ..expert.params
                    },
                    ..expert
                }
            }
        }
    }

    /// The same configuration searching `nodes` nodes a move on one thread where it is timed
    /// (expert and its lab variants), so that a match at a short, fixed budget replays whatever
    /// the machine's load; other players are left as they are.
    pub fn node_budgeted(config: PlayerConfig, nodes: u64) -> PlayerConfig {
        let limits = config.params.limits;
        if !limits.is_timed() {
            return config;
        }
        PlayerConfig {
            params: Params {
                limits: Limits {
                    max_depth: limits.max_depth,
                    min_depth: 1,
                    max_nodes: nodes,
                    max_time: Duration::from_secs(60),
                    soft_time: None,
                    wall_cap: None,
                },
                threads: 1,
                ..config.params
            },
            ..config
        }
    }
}

impl From<damas::search::Player> for Player {
    fn from(player: damas::search::Player) -> Player {
        match player {
            damas::search::Player::Cpu(level) => Player::Cpu(level),
            damas::search::Player::Expert(movetime) => Player::Expert(movetime),
        }
    }
}

/// The seed's Turkish CPU: six plies, material only, captures finished, noise ±3.
fn reference_config() -> PlayerConfig {
    PlayerConfig {
        params: Params {
            limits: Limits::depth(REFERENCE_DEPTH),
            style: EvalStyle::Material,
            quiescence: true,
            noise: 3,
            seed: 0,
            table_bits: 16,
            reductions: false,
            multi_player: MultiPlayer::Paranoid,
            aspiration: 0,
            endgame: false,
            contempt: 0,
            move_pruning: None,
            probcut: None,
            countermoves: false,
            book: false,
            threads: 1,
        },
        mistakes: None,
    }
}

/// The hard level as it was when expert came, written out in full so that later changes to
/// hard's budgets leave it alone: 600 000 nodes in draughts, 300 000 in Diamond, 100 000 in the
/// capture game; table 2^20; noise ±2; late-move reductions in draughts; the classic (hand-set)
/// draughts weights. It shares the engine's search and evaluations, so a change there must keep
/// this player's behaviour (the classic weights stay behind [`EvalStyle::Classic`]) for the
/// harness to stay a fixed yardstick.
fn baseline_config(kind: GameKind) -> PlayerConfig {
    let (nodes, max_depth) = match kind {
        GameKind::English | GameKind::International | GameKind::Turkish => (600_000, 40),
        GameKind::Diamond => (300_000, 12),
        GameKind::Capture => (100_000, 20),
    };
    PlayerConfig {
        params: Params {
            limits: Limits {
                max_depth,
                min_depth: 1,
                max_nodes: nodes,
                max_time: Duration::from_secs(2),
                soft_time: None,
                wall_cap: None,
            },
            style: EvalStyle::Classic,
            quiescence: kind.is_draughts(),
            noise: 2,
            seed: 0,
            table_bits: 20,
            reductions: kind.is_draughts(),
            multi_player: MultiPlayer::Paranoid,
            aspiration: 0,
            endgame: false,
            contempt: 0,
            move_pruning: None,
            probcut: None,
            countermoves: false,
            book: false,
            threads: 1,
        },
        mistakes: None,
    }
}

/// Expert as it played before the learned evaluation, on one thread, written out in full so
/// that later changes to expert leave it alone: its move time on the CPU clock (soft and hard
/// limits both), the wall clock capped at 1.5 times it, depth 64, table 2^20, the tuned draughts
/// weights ([`EvalStyle::Full`]), no noise, late-move reductions and capture quiescence in
/// draughts, aspiration windows (25 hundredths in draughts, 30 in Diamond, 50 in the capture
/// game), the endgame databases and a contempt of 15 in draughts, Monte-Carlo tree search in the
/// capture game with 3+ seats, late-move pruning (8, then 2 a ply) in two-seat Diamond.
fn expert_frozen_config(variant: Variant, movetime: MoveTime) -> PlayerConfig {
    let kind = variant.kind;
    let draughts = kind.is_draughts();
    let time = movetime.duration();
    PlayerConfig {
        params: Params {
            limits: Limits::timed(time, time, 64).with_wall_cap(time * 3 / 2),
            style: EvalStyle::Full,
            quiescence: draughts,
            noise: 0,
            seed: 0,
            table_bits: 20,
            reductions: draughts,
            multi_player: if kind == GameKind::Capture {
                MultiPlayer::MonteCarlo
            } else {
                MultiPlayer::Paranoid
            },
            aspiration: match kind {
                GameKind::English | GameKind::International | GameKind::Turkish => 25,
                GameKind::Diamond => 30,
                GameKind::Capture => 50,
            },
            endgame: draughts,
            contempt: if draughts { 15 } else { 0 },
            move_pruning: (kind == GameKind::Diamond && variant.players == 2).then_some(
                MovePruning {
                    first: 8,
                    per_ply: 2,
                },
            ),
            probcut: None,
            countermoves: false,
            book: false,
            threads: 1,
        },
        mistakes: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse_by_name_and_timed_ones_take_their_time() {
        assert_eq!(Player::parse("baseline"), Some(Player::Baseline));
        assert_eq!(Player::parse("reference"), Some(Player::Reference));
        assert_eq!(Player::parse("hard"), Some(Player::Cpu(Level::Hard)));
        assert_eq!(
            Player::parse("expert"),
            Some(Player::Expert(MoveTime::DEFAULT))
        );
        assert_eq!(Player::parse("grandmaster"), None);
        let slow = MoveTime::from_millis(3_000).expect("in range");
        assert_eq!(
            Player::parse("expert-single").map(|p| p.with_movetime(slow)),
            Some(Player::ExpertSingle(slow))
        );
        assert_eq!(Player::ExpertSingle(slow).label(), "expert-single 3000ms");
        assert_eq!(
            Player::ExpertSingle(MoveTime::DEFAULT).label(),
            "expert-single"
        );
        assert_eq!(Player::Expert(slow).label(), "expert 3000ms");
        assert_eq!(Player::Baseline.with_movetime(slow), Player::Baseline);
    }

    #[test]
    fn the_levels_play_as_the_engine_configures_them() {
        for kind in GameKind::ALL {
            let variant = Variant::standard(kind);
            for level in Level::ALL {
                let engine = damas::search::Player::at_level(level, MoveTime::DEFAULT);
                let lab = Player::from(engine);
                assert_eq!(lab.level(), Some(engine));
                assert_eq!(
                    lab.config(variant).params,
                    levels::config(variant, engine).params
                );
            }
        }
    }

    #[test]
    fn the_frozen_expert_is_expert_before_the_learned_evaluation_and_learned_differs_by_style() {
        for kind in GameKind::ALL {
            for players in [2, 3] {
                let Ok(variant) = Variant::new(kind, Some(players), false) else {
                    continue;
                };
                let single = Player::ExpertSingle(MoveTime::DEFAULT)
                    .config(variant)
                    .params;
                let frozen = Player::ExpertFrozen(MoveTime::DEFAULT)
                    .config(variant)
                    .params;
                let learned = Player::ExpertLearned(MoveTime::DEFAULT)
                    .config(variant)
                    .params;
                assert_eq!(frozen.style, EvalStyle::Full);
                assert_eq!(learned.style, EvalStyle::Learned);
                // Everything but the evaluation, ProbCut and countermoves (expert's in English
                // since) is expert on one thread as it plays now; when expert changes, this is
                // where it shows: keep the frozen player, change this check.
                assert_eq!(
                    Params {
                        style: EvalStyle::Full,
                        probcut: None,
                        countermoves: false,
                        book: false,
                        ..single
                    },
                    frozen,
                    "{kind:?} {players}"
                );
                assert_eq!(
                    Params {
                        style: EvalStyle::Learned,
                        ..single
                    },
                    learned
                );
            }
        }
        let slow = MoveTime::from_millis(500).expect("in range");
        assert_eq!(
            Player::parse("expert-frozen").map(|p| p.with_movetime(slow)),
            Some(Player::ExpertFrozen(slow))
        );
        assert_eq!(Player::ExpertLearned(slow).label(), "expert-learned 500ms");
    }

    #[test]
    fn expert_nobook_is_expert_without_its_book_and_the_yardsticks_have_none() {
        for kind in GameKind::ALL {
            let variant = Variant::standard(kind);
            let expert = Player::Expert(MoveTime::DEFAULT).config(variant).params;
            let nobook = Player::parse("expert-nobook")
                .expect("a player")
                .config(variant)
                .params;
            assert_eq!(expert.book, kind.is_draughts(), "{kind:?}");
            assert!(!nobook.book);
            assert_eq!(
                Params {
                    book: false,
                    ..expert
                },
                nobook
            );
            for player in [
                Player::Baseline,
                Player::Reference,
                Player::ExpertFrozen(MoveTime::DEFAULT),
                Player::Cpu(Level::Hard),
                Player::Cpu(Level::Medium),
                Player::Cpu(Level::Easy),
            ] {
                assert!(!player.config(variant).params.book, "{kind:?} {player:?}");
            }
        }
        let slow = MoveTime::from_millis(2_000).expect("in range");
        assert_eq!(
            Player::ExpertNoBook(MoveTime::DEFAULT).with_movetime(slow),
            Player::ExpertNoBook(slow)
        );
        assert_eq!(Player::ExpertNoBook(slow).label(), "expert-nobook 2000ms");
    }

    #[test]
    fn expert_single_is_expert_on_one_thread() {
        for kind in GameKind::ALL {
            let variant = Variant::standard(kind);
            let expert = Player::Expert(MoveTime::DEFAULT).config(variant).params;
            let single = Player::ExpertSingle(MoveTime::DEFAULT)
                .config(variant)
                .params;
            assert_eq!(single.threads, 1);
            assert_eq!(
                Params {
                    threads: 1,
                    ..expert
                },
                single
            );
        }
    }

    #[test]
    fn the_yardsticks_count_nodes_keep_the_old_weights_and_search_paranoid() {
        for kind in GameKind::ALL {
            let variant = Variant::standard(kind);
            for player in [Player::Baseline, Player::Reference] {
                let params = player.config(variant).params;
                assert!(!params.limits.is_timed(), "{kind:?} {player:?}");
                assert_eq!(params.threads, 1);
                assert_eq!(params.multi_player, MultiPlayer::Paranoid);
                assert_eq!(params.limits.wall_cap, None, "the CPU guard alone");
                assert!(
                    !params.endgame,
                    "the yardsticks replay whatever files a machine holds"
                );
            }
            assert_eq!(
                Player::Baseline.config(variant).params.style,
                EvalStyle::Classic
            );
            assert_eq!(
                Player::Reference.config(variant).params.style,
                EvalStyle::Material
            );
        }
    }

    #[test]
    fn expert_selective_is_expert_single_with_probcut_and_countermoves_in_draughts() {
        for kind in GameKind::ALL {
            let variant = Variant::standard(kind);
            let single = Player::ExpertSingle(MoveTime::DEFAULT)
                .config(variant)
                .params;
            let selective = Player::parse("expert-selective")
                .expect("a player")
                .config(variant)
                .params;
            let draughts = kind.is_draughts();
            assert_eq!(selective.probcut.is_some(), draughts, "{kind:?}");
            assert_eq!(selective.countermoves, draughts, "{kind:?}");
            let neither = |params: Params| Params {
                probcut: None,
                countermoves: false,
                ..params
            };
            assert_eq!(neither(selective), neither(single), "{kind:?}");
            // Expert itself plays them in English only.
            let english = kind == GameKind::English;
            assert_eq!(single.probcut.is_some(), english, "{kind:?}");
            assert_eq!(single.countermoves, english, "{kind:?}");
        }
        let slow = MoveTime::from_millis(500).expect("in range");
        assert_eq!(
            Player::ExpertSelective(slow).label(),
            "expert-selective 500ms"
        );
    }

    #[test]
    fn a_node_budget_replaces_the_timed_players_time_and_leaves_the_others() {
        let variant = Variant::standard(GameKind::English);
        for player in [
            Player::Expert(MoveTime::DEFAULT),
            Player::ExpertFrozen(MoveTime::DEFAULT),
            Player::ExpertSelective(MoveTime::DEFAULT),
        ] {
            let config = player.config(variant);
            let budgeted = Player::node_budgeted(config, 123_456).params;
            assert!(!budgeted.limits.is_timed(), "{player:?}");
            assert_eq!(budgeted.limits.max_nodes, 123_456);
            assert_eq!(budgeted.limits.wall_cap, None);
            assert_eq!(budgeted.threads, 1);
            assert_eq!(
                Params {
                    limits: config.params.limits,
                    threads: config.params.threads,
                    ..budgeted
                },
                config.params
            );
        }
        for player in [Player::Baseline, Player::Cpu(Level::Hard)] {
            let config = player.config(variant);
            assert_eq!(Player::node_budgeted(config, 5).params, config.params);
        }
    }
}
