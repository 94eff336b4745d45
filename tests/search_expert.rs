//! The expert level (issue 16): a legal move in every game, an answer when stopped at once, and
//! draws scored with expert's contempt. (That more thinking time never searches shallower is in
//! `search_expert_depth.rs`, a process of its own.)

mod common;

use common::cpu_positions::{movetime, positions, CASES, SEED};
use damas::catalogue;
use damas::search::levels::MoveTime;
use damas::search::{Level, Player};
use damas::{GameKind, Variant};
use std::sync::atomic::AtomicBool;

#[test]
fn expert_plays_a_legal_move_in_every_game() {
    let stop = AtomicBool::new(false);
    for (kind, players, plies) in CASES {
        for (index, game) in positions(kind, players, &plies, SEED).iter().enumerate() {
            let decision = game
                .decide(Player::Expert(movetime(500)), SEED, None, &stop)
                .unwrap_or_else(|| panic!("{kind:?} {players}p #{index}: no move"));
            assert!(
                game.legal_moves().contains(&decision.info),
                "{kind:?} {players}p #{index}: {} is not legal",
                decision.info.text
            );
            assert!(
                decision.depth >= 1,
                "{kind:?} {players}p #{index}: {decision:?}"
            );
        }
    }
}

#[test]
fn expert_on_one_search_thread_plays_a_legal_move_too() {
    let stop = AtomicBool::new(false);
    for (kind, players, plies) in [CASES[1], CASES[4]] {
        let game = &positions(kind, players, &plies, SEED)[1];
        let decision = game
            .decide(Player::ExpertSingle(movetime(500)), SEED, None, &stop)
            .expect("a move");
        assert!(game.legal_moves().contains(&decision.info), "{kind:?}");
        assert!(decision.depth >= 1, "{kind:?} {players}p: {decision:?}");
    }
}

#[test]
fn expert_stopped_at_once_still_answers_a_legal_move() {
    let stop = AtomicBool::new(true);
    for (kind, players, plies) in CASES {
        let game = &positions(kind, players, &plies, SEED)[1];
        let decision = game
            .decide(Player::Expert(MoveTime::DEFAULT), SEED, None, &stop)
            .expect("a move even when stopped");
        assert!(
            game.legal_moves().contains(&decision.info),
            "{kind:?} {players}p"
        );
    }
}

/// International, Black to move: its lone king must take one of White's two kings (46x…, eight
/// landing squares), which leaves king against king with White to move, drawn by the rules
/// unless White can take at once (docs/rules.md, I9). Only the landing on 28 lets White's king on
/// 50 take. So the position is a draw, which hard scores 0 and expert, whose contempt in draughts
/// makes a draw cost it 15 (`Params::contempt`), scores -15; neither lands on 28.
#[test]
fn expert_scores_a_forced_draw_below_level_and_hard_at_level() {
    let variant = Variant::new(GameKind::International, None, false).expect("variant");
    let game = catalogue::new_game(variant, Some("B:WK41,K50:BK46")).expect("position");
    let stop = AtomicBool::new(false);
    for (player, draw) in [
        (Player::Cpu(Level::Hard), 0),
        (Player::ExpertSingle(movetime(500)), -15),
    ] {
        let decision = game.decide(player, SEED, None, &stop).expect("a move");
        assert_eq!(decision.score, draw, "{player:?}: {decision:?}");
        assert_ne!(decision.info.text, "46x28", "{player:?}");
    }
}
