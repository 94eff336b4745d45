//! The expert level (issue 16): a legal move in every game, and more thinking time never a
//! shallower search. Depths come from the search's own figures (`Decision::depth`, the deepest
//! complete iteration), never from the wall clock.

use damas::catalogue;
use damas::search::levels::MoveTime;
use damas::search::{Level, Playable, Player};
use damas::{GameKind, Variant};
use std::sync::atomic::AtomicBool;

const SEED: u64 = 3;

/// (game, players, plies of a seeded medium game after which a position is taken).
const CASES: [(GameKind, u8, [usize; 2]); 7] = [
    (GameKind::English, 2, [0, 12]),
    (GameKind::International, 2, [0, 12]),
    (GameKind::Turkish, 2, [0, 12]),
    (GameKind::Diamond, 2, [0, 20]),
    (GameKind::Diamond, 3, [0, 30]),
    (GameKind::Capture, 2, [0, 6]),
    (GameKind::Capture, 3, [0, 6]),
];

fn positions(kind: GameKind, players: u8, plies: &[usize]) -> Vec<Box<dyn Playable>> {
    let variant = Variant::new(kind, Some(players), false).expect("variant");
    let mut game = catalogue::new_game(variant, None).expect("start");
    let stop = AtomicBool::new(false);
    let last = plies.iter().copied().max().unwrap_or(0);
    let mut kept = Vec::new();
    for ply in 0..=last {
        if plies.contains(&ply) {
            kept.push(game.clone_box());
        }
        if ply == last {
            break;
        }
        let decision = game
            .decide(Player::Cpu(Level::Medium), SEED, None, &stop)
            .unwrap_or_else(|| panic!("{kind:?}: the game ended before ply {last}"));
        game.play(&decision.info.text)
            .expect("the CPU's move is legal");
    }
    kept
}

fn movetime(ms: u64) -> MoveTime {
    MoveTime::from_millis(ms).expect("in range")
}

#[test]
fn expert_plays_a_legal_move_in_every_game() {
    let stop = AtomicBool::new(false);
    for (kind, players, plies) in CASES {
        for (index, game) in positions(kind, players, &plies).iter().enumerate() {
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
        let game = &positions(kind, players, &plies)[1];
        let decision = game
            .decide(Player::ExpertSingle(movetime(500)), SEED, None, &stop)
            .expect("a move");
        assert!(game.legal_moves().contains(&decision.info), "{kind:?}");
        assert!(decision.depth >= 1, "{kind:?} {players}p: {decision:?}");
    }
}

#[test]
fn more_thinking_time_searches_at_least_as_deep() {
    let stop = AtomicBool::new(false);
    for (kind, players, plies) in [CASES[0], CASES[2], CASES[3], CASES[5]] {
        let game = &positions(kind, players, &plies)[1];
        let short = game
            .decide(Player::Expert(movetime(500)), SEED, None, &stop)
            .expect("a move");
        let long = game
            .decide(Player::Expert(movetime(2_000)), SEED, None, &stop)
            .expect("a move");
        assert!(
            long.depth >= short.depth,
            "{kind:?} {players}p: 2 s reached depth {}, 0.5 s depth {}",
            long.depth,
            short.depth
        );
        assert!(game.legal_moves().contains(&long.info));
    }
}

#[test]
fn expert_stopped_at_once_still_answers_a_legal_move() {
    let stop = AtomicBool::new(true);
    for (kind, players, plies) in CASES {
        let game = &positions(kind, players, &plies)[1];
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
