//! The yardstick players on positions with known answers (the engine's levels meet the same
//! shots in `tests/search_tactics.rs`): the seed's reference CPU, three plies a side with
//! captures finished, sees each draughts game's 2-for-1 shot.

use damas::search::SearchContext;
use damas::{catalogue, GameKind, Variant};
use damas_lab::Player;
use std::sync::atomic::AtomicBool;

/// The reference's move and score in `fen`.
fn reference_move(kind: GameKind, fen: &str) -> (String, i32) {
    let game = catalogue::new_game(Variant::standard(kind), Some(fen)).expect("position");
    let config = Player::Reference.config(game.variant());
    let stop = AtomicBool::new(false);
    let decision = game
        .decide_as(&config, 1, None, &stop, &SearchContext::new())
        .expect("a move");
    (decision.info.text, decision.score)
}

/// English: 14-18 gives a man, 23x14 is forced, then 9x18x25 takes two. International: 32-28,
/// 23x32 forced, then 37x17 takes two. Turkish: d3-d4, d5xd3 forced, then d2xd4xb4 takes two
/// (the positions are checked move by move in `tests/search_tactics.rs`).
#[test]
fn the_reference_finds_the_two_for_one_shot_in_each_draughts_game() {
    for (kind, fen, shot) in [
        (GameKind::English, "B:W22,23,32:B5,9,14,15", "14-18"),
        (GameKind::International, "W:W32,33,37,41:B5,22,23", "32-28"),
        (GameKind::Turkish, "W:Wd1,d2,d3,e4:Bc4,d5,h7", "d3-d4"),
    ] {
        let (mv, score) = reference_move(kind, fen);
        assert_eq!(mv, shot, "{kind:?}");
        assert!(score >= 150, "{kind:?}: {score}");
    }
}
