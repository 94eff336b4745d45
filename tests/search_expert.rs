//! The expert level: a legal move in every game, an answer when stopped at once, draws scored
//! with expert's contempt, and more thinking time never a shallower search. Each search gets a
//! context of its own, so no search inherits another's kept tables.

mod common;

use common::cpu_positions::{movetime, positions, CASES, SEED};
use damas::catalogue;
use damas::search::alphabeta::Params;
use damas::search::book::OpeningBooks;
use damas::search::levels::{self, MoveTime};
use damas::search::{Level, Player, PlayerConfig, SearchContext};
use damas::{GameKind, Variant};
use std::sync::atomic::AtomicBool;

/// Expert thinking `ms` on one search thread.
fn expert_single(variant: Variant, ms: u64) -> PlayerConfig {
    let expert = levels::config(variant, Player::Expert(movetime(ms)));
    PlayerConfig {
        params: Params {
            threads: 1,
            ..expert.params
        },
        ..expert
    }
}

/// A context without the opening books: these tests measure expert's search, which the books
/// would skip at the draughts start positions (the books' own tests: `search::book`).
fn searching_context() -> SearchContext {
    SearchContext::new().with_books(OpeningBooks::none())
}

#[test]
fn expert_plays_a_legal_move_in_every_game() {
    let stop = AtomicBool::new(false);
    for (kind, players, plies) in CASES {
        for (index, game) in positions(kind, players, &plies, SEED).iter().enumerate() {
            let decision = game
                .decide(
                    Player::Expert(movetime(500)),
                    SEED,
                    None,
                    &stop,
                    &searching_context(),
                )
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
        let single = expert_single(game.variant(), 500);
        let decision = game
            .decide_as(&single, SEED, None, &stop, &SearchContext::new())
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
            .decide(
                Player::Expert(MoveTime::DEFAULT),
                SEED,
                None,
                &stop,
                &SearchContext::new(),
            )
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
        (levels::config(variant, Player::Cpu(Level::Hard)), 0),
        (expert_single(variant, 500), -15),
    ] {
        let decision = game
            .decide_as(&player, SEED, None, &stop, &SearchContext::new())
            .expect("a move");
        assert_eq!(decision.score, draw, "{player:?}: {decision:?}");
        assert_ne!(decision.info.text, "46x28", "{player:?}");
    }
}

#[test]
fn more_thinking_time_searches_at_least_as_deep() {
    let stop = AtomicBool::new(false);
    for (kind, players, plies) in [CASES[0], CASES[2], CASES[3], CASES[5]] {
        let game = &positions(kind, players, &plies, SEED)[1];
        let think = |ms| {
            game.decide(
                Player::Expert(movetime(ms)),
                SEED,
                None,
                &stop,
                &SearchContext::new(),
            )
            .expect("a move")
        };
        let (short, long) = (think(500), think(2_000));
        assert!(
            long.depth >= short.depth,
            "{kind:?} {players}p: 2 s reached depth {}, 0.5 s depth {}",
            long.depth,
            short.depth
        );
        assert!(game.legal_moves().contains(&long.info));
    }
}
