//! Positions the expert tests search: a seeded medium game's start and a middle position in
//! each game.

use damas::catalogue;
use damas::search::levels::MoveTime;
use damas::search::{Level, Playable, Player};
use damas::{GameKind, Variant};
use std::sync::atomic::AtomicBool;

pub const SEED: u64 = 3;

/// (game, players, plies of a seeded medium game after which a position is taken).
pub const CASES: [(GameKind, u8, [usize; 2]); 7] = [
    (GameKind::English, 2, [0, 12]),
    (GameKind::International, 2, [0, 12]),
    (GameKind::Turkish, 2, [0, 12]),
    (GameKind::Diamond, 2, [0, 20]),
    (GameKind::Diamond, 3, [0, 30]),
    (GameKind::Capture, 2, [0, 6]),
    (GameKind::Capture, 3, [0, 6]),
];

pub fn positions(kind: GameKind, players: u8, plies: &[usize]) -> Vec<Box<dyn Playable>> {
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

pub fn movetime(ms: u64) -> MoveTime {
    MoveTime::from_millis(ms).expect("in range")
}
