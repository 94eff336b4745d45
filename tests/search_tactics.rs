//! The CPU on positions with known answers, checked by hand from the seed rules (docs/cpu.md,
//! "Tactical tests"): a 2-for-1 shot in each draughts game, a win in one and a king's jump line
//! that must be cut in the Diamond Game.

use damas::search::{decide, Level, Player};
use damas::{games, AnyGame, GameKind, Variant};
use std::sync::atomic::AtomicBool;

const ALL_PLAYERS: [Player; 4] = [
    Player::Cpu(Level::Easy),
    Player::Cpu(Level::Medium),
    Player::Cpu(Level::Hard),
    Player::Reference,
];

fn game(kind: GameKind, players: Option<u8>, text: &str) -> Box<dyn AnyGame> {
    let variant = Variant::new(kind, players, false).expect("variant");
    games::new_game(variant, Some(text)).expect("position")
}

fn cpu_move(game: &dyn AnyGame, player: Player) -> (String, i32) {
    let stop = AtomicBool::new(false);
    let decision = decide(game, player, 1, None, &stop).expect("a move");
    (decision.info.text, decision.score)
}

/// Plays `shot`, then checks the opponent's only legal move is `forced` and that the shooter then
/// takes two pieces.
fn assert_two_for_one(mut game: Box<dyn AnyGame>, shot: &str, forced: &str) {
    game.play(shot).expect("the shot is legal");
    let replies: Vec<String> = game.legal_moves().into_iter().map(|m| m.text).collect();
    assert_eq!(replies, [forced], "the sacrifice must be taken");
    game.play(forced).expect("forced capture");
    let best_capture = game
        .legal_moves()
        .into_iter()
        .map(|m| m.captures.len())
        .max();
    assert_eq!(best_capture, Some(2), "the shot takes two back");
}

/// English: Black men 5, 9, 14, 15 against White 22, 23, 32. 14-18 gives a man: White must take
/// 23x14 (22 cannot, 15 blocks its landing; 5 stops the jump going on over 9), then 9 jumps 14
/// and 22 (9x18x25).
#[test]
fn english_two_for_one_shot() {
    let fen = "B:W22,23,32:B5,9,14,15";
    assert_two_for_one(game(GameKind::English, None, fen), "14-18", "23x14");
    for player in ALL_PLAYERS {
        let (mv, score) = cpu_move(game(GameKind::English, None, fen).as_ref(), player);
        assert_eq!(mv, "14-18", "{player:?}");
        assert!(score >= 150, "{player:?}: {score}");
    }
}

/// International: White men 32, 33, 37, 41 against Black 22, 23, 5. 32-28 gives a man: Black must
/// take 23x32 (22 cannot land on the occupied 33; 41 stops the capture going on over 37), then
/// 37 takes 32 and 22 in one capture (37x17).
#[test]
fn international_two_for_one_shot() {
    let fen = "W:W32,33,37,41:B5,22,23";
    assert_two_for_one(game(GameKind::International, None, fen), "32-28", "23x32");
    for player in ALL_PLAYERS {
        let (mv, score) = cpu_move(game(GameKind::International, None, fen).as_ref(), player);
        assert_eq!(mv, "32-28", "{player:?}");
        assert!(score >= 150, "{player:?}: {score}");
    }
}

/// Turkish: White men d1, d2, d3, e4 against Black c4, d5, h7. d3-d4 gives a man: Black must take
/// d5xd3 (c4 cannot land on the occupied e4; d1 stops the capture going on over d2), then d2
/// takes d3 and, turning, c4: d2xd4xb4.
#[test]
fn turkish_two_for_one_shot() {
    let fen = "W:Wd1,d2,d3,e4:Bc4,d5,h7";
    assert_two_for_one(game(GameKind::Turkish, None, fen), "d3-d4", "d5xd3");
    for player in ALL_PLAYERS {
        let (mv, score) = cpu_move(game(GameKind::Turkish, None, fen).as_ref(), player);
        assert_eq!(mv, "d3-d4", "{player:?}");
        assert!(score >= 150, "{player:?}: {score}");
    }
}
