//! Positions the CPU tests search: where a seeded medium game stands after some plies; and the
//! expert tests' cases.

use damas::catalogue;
use damas::search::levels::MoveTime;
use damas::search::{Level, Playable, Player, SearchContext};
use damas::{GameKind, Variant};
use std::sync::atomic::AtomicBool;

/// The expert tests' seed (their medium games' and their searches').
pub const SEED: u64 = 3;

/// The expert tests' cases: (game, players, plies of a seeded medium game after which a position
/// is taken).
pub const CASES: [(GameKind, u8, [usize; 2]); 7] = [
    (GameKind::English, 2, [0, 12]),
    (GameKind::International, 2, [0, 12]),
    (GameKind::Turkish, 2, [0, 12]),
    (GameKind::Diamond, 2, [0, 20]),
    (GameKind::Diamond, 3, [0, 30]),
    (GameKind::Capture, 2, [0, 6]),
    (GameKind::Capture, 3, [0, 6]),
];

/// The positions a medium game seeded `seed` reaches after each of `plies`.
pub fn positions(
    kind: GameKind,
    players: u8,
    plies: &[usize],
    seed: u64,
) -> Vec<Box<dyn Playable>> {
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
            .decide(
                Player::Cpu(Level::Medium),
                seed,
                None,
                &stop,
                &SearchContext::new(),
            )
            .unwrap_or_else(|| panic!("{kind:?}: the game ended before ply {last}"));
        game.play(&decision.info.text)
            .expect("the CPU's move is legal");
    }
    kept
}

pub fn movetime(ms: u64) -> MoveTime {
    MoveTime::from_millis(ms).expect("in range")
}
